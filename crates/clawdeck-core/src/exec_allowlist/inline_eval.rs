//! Inline eval: an interpreter handed its program on the command line (`python3 -c`, `node -e`,
//! an `awk` program, `xargs CMD`), as OpenClaw's `detectInlineEvalArgv` finds it. The table of
//! interpreters and flags is a fact of each version (a pack's `exec.inlineEval`, read from its
//! dist/ by the capture); the walk over it is the same in 2026.8 and 2026.9.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::carriers::{carrier_command_argv, is_command_carrier};
use super::dispatch::{Unwrap, unwrap_dispatch};
use super::tokens::{is_env_assignment_token, js_trim, normalize_executable_token};

/// `FLAG_INTERPRETER_INLINE_EVAL_SPECS` and `POSITIONAL_INTERPRETER_INLINE_EVAL_SPECS`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct InlineEvalSpecs {
    pub flag: Vec<FlagSpec>,
    pub positional: Vec<PositionalSpec>,
}

/// An interpreter whose program follows a flag (`-c`, `-e`, `--eval`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FlagSpec {
    pub names: Vec<String>,
    pub exact_flags: Vec<String>,
    pub short_cluster_flags: Vec<ClusterFlag>,
    /// `(flag, label)`: matched as written (case kept).
    pub raw_exact_flags: Vec<(String, String)>,
    pub joined_raw_exact_flags: Option<Vec<(String, String)>>,
    pub raw_prefix_flags: Vec<PrefixFlag>,
    pub abbreviated_flags: Vec<AbbreviatedFlag>,
    pub joined_exact_flags: Option<Vec<String>>,
    pub joined_flag_deny_exact: Vec<String>,
    pub joined_flag_deny_prefixes: Vec<String>,
    pub prefix_flags: Vec<PrefixFlag>,
    pub scan_past_double_dash: bool,
}

/// A one-letter flag that may close a cluster of others (`python3 -Ic`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterFlag {
    pub label: String,
    pub flag: String,
    pub prefix_chars: Vec<String>,
    pub numeric_value_prefix_chars: Vec<String>,
    pub allow_numeric_record_separator: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PrefixFlag {
    pub label: String,
    pub prefix: String,
}

/// A long flag that may be shortened down to `min` (`--ev` for `--eval`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AbbreviatedFlag {
    pub label: String,
    pub full: String,
    pub min: String,
}

/// An interpreter whose first positional argument is its program (`awk '{print}'`, `sed`,
/// `xargs CMD`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PositionalSpec {
    pub names: Vec<String>,
    pub file_flags: Vec<String>,
    pub file_flag_prefixes: Vec<String>,
    pub exact_value_flags: Vec<String>,
    pub exact_optional_value_flags: Vec<String>,
    pub prefix_value_flags: Vec<String>,
    /// `<program>` or `<command>`.
    pub flag: String,
}

/// A hit: the interpreter as named and the flag (or `<program>` / `<command>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InlineEvalHit {
    pub executable: String,
    pub flag: String,
}

impl InlineEvalHit {
    /// `describeInterpreterInlineEval`: `python3 -c`, `awk inline program`.
    pub fn describe(&self) -> String {
        let exe = normalize_executable_token(&self.executable);
        match self.flag.as_str() {
            "<command>" => format!("{exe} inline command"),
            "<program>" => format!("{exe} inline program"),
            flag => format!("{exe} {flag}"),
        }
    }
}

/// How deep carriers and wrappers are followed (OpenClaw stops at a repeated argv; this also
/// bounds a pathological chain).
const MAX_DEPTH: usize = 32;

impl InlineEvalSpecs {
    /// `detectInlineEvalInSegments`: the first segment whose effective argv (after wrappers)
    /// or written argv runs an interpreter's inline program.
    pub fn detect_in_segments<'a>(
        &self,
        segments: impl IntoIterator<Item = (&'a [String], &'a [String])>,
    ) -> Option<InlineEvalHit> {
        segments.into_iter().find_map(|(effective, written)| {
            self.detect(effective).or_else(|| self.detect(written))
        })
    }

    /// `isInterpreterLikeAllowlistPattern`: a pattern or path naming one of the interpreters
    /// (version suffixes, `.exe` and glob characters aside).
    pub fn is_interpreter_like(&self, pattern: &str) -> bool {
        let lower = js_trim(pattern).to_lowercase();
        if lower.is_empty() {
            return false;
        }
        let listed = |name: &str| {
            let stripped = strip_version_suffix(name);
            let variants: &[&str] = if stripped == name || stripped.chars().count() < 2 {
                &[name]
            } else {
                &[name, stripped]
            };
            variants.iter().any(|v| {
                self.flag.iter().any(|s| s.names.iter().any(|n| n == v))
                    || self
                        .positional
                        .iter()
                        .any(|s| s.names.iter().any(|n| n == v))
            })
        };
        if listed(&normalize_executable_token(&lower)) {
            return true;
        }
        let slashed = lower.replace('\\', "/");
        let base = slashed.rsplit('/').next().unwrap_or(&slashed);
        let base = base.strip_suffix(".exe").unwrap_or(base);
        let bare: String = base.chars().filter(|c| !"*?[]{}()".contains(*c)).collect();
        listed(bare.trim_end_matches(['.', '-']))
    }

    /// `detectInlineEvalArgv`.
    pub fn detect(&self, argv: &[String]) -> Option<InlineEvalHit> {
        self.detect_within(argv, &mut HashSet::new(), 0)
    }

    fn detect_within(
        &self,
        argv: &[String],
        seen: &mut HashSet<Vec<String>>,
        depth: usize,
    ) -> Option<InlineEvalHit> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.interpreter(argv)
            .or_else(|| self.carried(argv, seen, depth))
    }

    /// `detectCarrierInlineEvalArgvInternal`: through dispatch wrappers (`timeout 5 node -e`)
    /// and command carriers (`env`, `command`, `sudo`, `exec`).
    fn carried(
        &self,
        argv: &[String],
        seen: &mut HashSet<Vec<String>>,
        depth: usize,
    ) -> Option<InlineEvalHit> {
        let skip = argv
            .iter()
            .take_while(|t| is_env_assignment_token(t))
            .count();
        let argv = &argv[skip..];
        if !seen.insert(argv.to_vec()) {
            return None;
        }
        if let Unwrap::Unwrapped(_, inner) = unwrap_dispatch(argv) {
            return self.detect_within(&inner, seen, depth + 1);
        }
        let head = normalize_executable_token(argv.first().map_or("", String::as_str));
        if !is_command_carrier(&head, true) {
            return None;
        }
        let inner = carrier_command_argv(argv, true)?;
        self.detect_within(&inner, seen, depth + 1)
    }

    /// `detectInterpreterInlineEvalArgv`.
    fn interpreter(&self, argv: &[String]) -> Option<InlineEvalHit> {
        let executable = js_trim(argv.first()?);
        if executable.is_empty() {
            return None;
        }
        let normalized = normalize_executable_token(executable);
        let hit = |flag: &str| {
            Some(InlineEvalHit {
                executable: executable.to_string(),
                flag: flag.to_string(),
            })
        };
        if let Some(spec) = self
            .flag
            .iter()
            .find(|s| names_include(&s.names, &normalized))
        {
            for token in argv[1..].iter().map(|t| js_trim(t)) {
                if token.is_empty() {
                    continue;
                }
                if token == "--" {
                    if spec.scan_past_double_dash {
                        continue;
                    }
                    break;
                }
                if let Some(label) = spec.flag_in(token) {
                    return hit(&label);
                }
            }
        }
        let spec = self
            .positional
            .iter()
            .find(|s| names_include(&s.names, &normalized))?;
        spec.program_in(&argv[1..]).and_then(hit)
    }
}

impl FlagSpec {
    /// The label of the inline-eval flag `token` is, if it is one.
    fn flag_in(&self, token: &str) -> Option<String> {
        if let Some((_, label)) = self.raw_exact_flags.iter().find(|(f, _)| f == token) {
            return Some(label.clone());
        }
        let joined_raw = self
            .joined_raw_exact_flags
            .as_ref()
            .unwrap_or(&self.raw_exact_flags);
        if let Some((_, label)) = joined_raw
            .iter()
            .find(|(f, _)| is_single_letter_flag(f) && joined(token, f))
        {
            return Some(label.clone());
        }
        if let Some(p) = self
            .raw_prefix_flags
            .iter()
            .find(|p| joined(token, &p.prefix))
        {
            return Some(p.label.clone());
        }
        let lower = token.to_lowercase();
        if let Some(label) = self.abbreviated(&lower) {
            return Some(label);
        }
        if self.exact_flags.contains(&lower) {
            return Some(lower);
        }
        if let Some(flag) = self.joined_exact(token, &lower) {
            return Some(flag);
        }
        if let Some(label) = self.short_cluster(token) {
            return Some(label);
        }
        self.prefix_flags
            .iter()
            .find(|p| joined(&lower, &p.prefix))
            .map(|p| p.label.clone())
    }

    /// `matchAbbreviatedFlag`.
    fn abbreviated(&self, lower: &str) -> Option<String> {
        let name = lower.split('=').next().unwrap_or(lower);
        self.abbreviated_flags
            .iter()
            .find(|f| {
                let min = f.min.chars().count();
                name.chars().count() >= min
                    && f.full.starts_with(name)
                    && f.min
                        .starts_with(&name.chars().take(min).collect::<String>())
            })
            .map(|f| f.label.clone())
    }

    /// `matchJoinedExactFlag`: `--eval=...`, `-eCODE`.
    fn joined_exact(&self, token: &str, lower: &str) -> Option<String> {
        if self.joined_flag_deny_exact.iter().any(|d| d == lower)
            || self
                .joined_flag_deny_prefixes
                .iter()
                .any(|p| lower.starts_with(p.as_str()))
        {
            return None;
        }
        for flag in self.exact_flags.iter().filter(|f| f.starts_with("--")) {
            if joined(lower, &format!("{flag}=")) {
                return Some(flag.clone());
            }
        }
        let candidates = self
            .joined_exact_flags
            .as_ref()
            .unwrap_or(&self.exact_flags);
        candidates
            .iter()
            .find(|f| is_single_letter_flag(f) && joined(token, f))
            .map(|f| f.to_lowercase())
    }

    /// `matchShortClusterFlag`: the flag letter after other allowed letters (`-Ic`).
    fn short_cluster(&self, token: &str) -> Option<String> {
        if !token.starts_with('-') || token.starts_with("--") {
            return None;
        }
        let chars: Vec<char> = token.chars().collect();
        self.short_cluster_flags.iter().find_map(|cluster| {
            let flag: Vec<char> = cluster.flag.chars().collect();
            let at = (2..chars.len()).find(|&i| chars[i..].starts_with(&flag))?;
            cluster
                .prefix_allows(&chars[1..at])
                .then(|| cluster.label.clone())
        })
    }
}

impl ClusterFlag {
    /// `isShortClusterPrefixAllowed`.
    fn prefix_allows(&self, prefix: &[char]) -> bool {
        let listed = |set: &[String], c: char| set.iter().any(|s| s.chars().eq([c]));
        let mut i = 0;
        while i < prefix.len() {
            let c = prefix[i];
            let numeric = if listed(&self.prefix_chars, c) {
                listed(&self.numeric_value_prefix_chars, c)
            } else if self.allow_numeric_record_separator && c == '0' {
                true
            } else {
                return false;
            };
            if numeric {
                while prefix.get(i + 1).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
            i += 1;
        }
        true
    }
}

impl PositionalSpec {
    /// The flag the first positional argument stands for, unless a program file is named.
    fn program_in(&self, args: &[String]) -> Option<&str> {
        let has = |list: &[String], t: &str| list.iter().any(|f| f == t);
        let mut i = 0;
        while i < args.len() {
            let token = js_trim(&args[i]);
            i += 1;
            if token.is_empty() {
                continue;
            }
            if token == "--" {
                let next = args.get(i).map_or("", |t| js_trim(t));
                return (!next.is_empty()).then_some(self.flag.as_str());
            }
            if has(&self.file_flags, token)
                || self.file_flag_prefixes.iter().any(|p| joined(token, p))
            {
                return None;
            }
            if has(&self.exact_value_flags, token) {
                i += 1;
                continue;
            }
            if has(&self.exact_optional_value_flags, token)
                || self.prefix_value_flags.iter().any(|p| joined(token, p))
                || token.starts_with('-')
            {
                continue;
            }
            return Some(self.flag.as_str());
        }
        None
    }
}

/// `token` is `prefix` with something after it.
fn joined(token: &str, prefix: &str) -> bool {
    token.len() > prefix.len() && token.starts_with(prefix)
}

/// `/^-[A-Za-z]$/`.
fn is_single_letter_flag(flag: &str) -> bool {
    let b = flag.as_bytes();
    b.len() == 2 && b[0] == b'-' && b[1].is_ascii_alphabetic()
}

/// `specNamesInclude`: the name, or the name without a version suffix (`python3.12`).
fn names_include(names: &[String], normalized: &str) -> bool {
    let stripped = strip_version_suffix(normalized);
    names
        .iter()
        .any(|n| n == normalized || (stripped.chars().count() >= 2 && n == stripped))
}

/// `VERSION_SUFFIX_PATTERN` (`-?\d+(\.\d+)*$`) removed (the leftmost match is the longest
/// such suffix); the name itself when nothing would be left.
fn strip_version_suffix(name: &str) -> &str {
    let b = name.as_bytes();
    let mut i = b.len();
    if i == 0 || !b[i - 1].is_ascii_digit() {
        return name;
    }
    loop {
        while i > 0 && b[i - 1].is_ascii_digit() {
            i -= 1;
        }
        if i >= 2 && b[i - 1] == b'.' && b[i - 2].is_ascii_digit() {
            i -= 1;
            continue;
        }
        break;
    }
    if i > 0 && b[i - 1] == b'-' {
        i -= 1;
    }
    if i == 0 { name } else { &name[..i] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_suffixes_come_off_as_the_pattern_takes_them() {
        assert_eq!(strip_version_suffix("python3"), "python");
        assert_eq!(strip_version_suffix("python3.12"), "python");
        assert_eq!(strip_version_suffix("node-20"), "node");
        assert_eq!(strip_version_suffix("awk"), "awk");
        assert_eq!(strip_version_suffix("3"), "3");
        assert_eq!(strip_version_suffix("python3."), "python3.");
        assert_eq!(strip_version_suffix("a1..2"), "a1..");
    }
}
