//! Allowlist entries and how one matches an executable (OpenClaw's `matchAllowlist`,
//! `matchesExecAllowlistPattern`, `compileGlobRegex`, `matchArgPattern`), on Linux.

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::resolution::{Executable, expand_home, normalize_absolute};
use super::tokens::{js_trim, posix_basename};

/// One allowlist entry, as in OpenClaw's exec approvals file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct AllowlistEntry {
    /// A path glob (has `/`, `\` or `~`) matched against the realpath, or a bare-name glob
    /// matched against the executable's name; `*` alone matches everything.
    pub pattern: String,
    /// A regular expression the arguments (joined by spaces) must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// Where the entry came from; `allow-always` entries are bound to a cwd hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl From<&str> for AllowlistEntry {
    fn from(pattern: &str) -> Self {
        AllowlistEntry {
            pattern: pattern.to_string(),
            ..AllowlistEntry::default()
        }
    }
}

/// An entry written as a bare pattern string or as an object.
#[derive(Deserialize)]
#[serde(untagged)]
enum EntryForm {
    Pattern(String),
    Entry(AllowlistEntry),
}

/// The allowlist (`agents["*"]` then the agent's own entries).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(transparent)]
pub struct Allowlist(pub Vec<AllowlistEntry>);

impl<'de> Deserialize<'de> for Allowlist {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let forms = Vec::<EntryForm>::deserialize(deserializer)?;
        Ok(Allowlist(
            forms
                .into_iter()
                .map(|form| match form {
                    EntryForm::Pattern(pattern) => AllowlistEntry::from(pattern.as_str()),
                    EntryForm::Entry(entry) => entry,
                })
                .collect(),
        ))
    }
}

impl AllowlistEntry {
    fn arg_pattern(&self) -> Option<&str> {
        self.arg_pattern.as_deref().filter(|p| !p.is_empty())
    }

    fn is_allow_always(&self) -> bool {
        self.source.as_deref() == Some("allow-always")
    }
}

/// A pattern with `/`, `\` or `~` selects a path; without, a name.
fn has_path_selector(value: &str) -> bool {
    value.contains('/') || value.contains('\\') || value.contains('~')
}

/// `compileGlobRegex`: `**` any text, `*` any text without `/`, `?` one char but `/`, the rest
/// literal; anchored, case-sensitive (JavaScript's `.` stops at line breaks, and so does this).
pub fn glob_regex(pattern: &str) -> Option<Regex> {
    let mut out = String::from("^");
    let mut chars = pattern.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str("[^\\n\\r\\u{2028}\\u{2029}]*");
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            other => out.push_str(&regex::escape(&other.to_string())),
        }
    }
    out.push('$');
    Regex::new(&out).ok()
}

/// Whether a path has a `.` or `..` component.
fn has_dot_segment(value: &str) -> bool {
    value
        .replace('\\', "/")
        .split('/')
        .any(|s| s == "." || s == "..")
}

/// `matchesExecAllowlistPattern` on Linux.
pub fn glob_matches(pattern: &str, target: &str, home: Option<&str>) -> bool {
    let trimmed = js_trim(pattern);
    if trimmed.is_empty() {
        return false;
    }
    let expanded = if trimmed.starts_with('~') {
        expand_home(trimmed, home)
    } else {
        trimmed.to_string()
    };
    let wildcard = expanded.contains('*') || expanded.contains('?');
    let pattern = expanded.replace("\\\\", "/");
    let mut target = target.replace("\\\\", "/");
    if wildcard && has_dot_segment(&target) {
        target = if target.starts_with('/') {
            normalize_absolute(&target)
        } else {
            normalize_relative(&target)
        };
    }
    glob_regex(&pattern).is_some_and(|re| re.is_match(&target))
}

/// `path.posix.normalize` of a relative path.
fn normalize_relative(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// A name pattern matches only an executable named without a path.
fn basename_matches(pattern: &str, executable: &Executable, home: Option<&str>) -> bool {
    if has_path_selector(&executable.raw) {
        return false;
    }
    let mut names = vec![executable.name.as_str()];
    if let Some(path) = &executable.resolved_path {
        names.push(posix_basename(path));
    }
    names.iter().any(|name| glob_matches(pattern, name, home))
}

/// `matchArgPattern`: the arguments joined by spaces (or NULs when the pattern has one) against
/// an ECMAScript pattern, read by the `regex` crate: a pattern it cannot read (look-around,
/// back-references) never matches, like an invalid one in OpenClaw.
fn arg_pattern_matches(arg_pattern: &str, argv: &[String]) -> bool {
    if arg_pattern.starts_with("sha256:argv:") {
        return false;
    }
    let args = argv.get(1..).unwrap_or_default();
    let subject = if arg_pattern.contains('\0') {
        if args.is_empty() {
            "\0\0".to_string()
        } else {
            format!("{}\0", args.join("\0"))
        }
    } else {
        args.join(" ")
    };
    Regex::new(arg_pattern).is_ok_and(|re| re.is_match(&subject))
}

/// `matchAllowlist`: the entry an executable (and its argv) matches. `allow-always` entries
/// match only through their cwd-bound argv hash (`sha256:cwd-argv:v1:`), which is not computed
/// here: they never match.
pub fn match_allowlist<'a>(
    entries: &'a [AllowlistEntry],
    executable: Option<&Executable>,
    argv: &[String],
    home: Option<&str>,
) -> Option<&'a AllowlistEntry> {
    let bare_wild = entries
        .iter()
        .find(|e| js_trim(&e.pattern) == "*" && e.arg_pattern().is_none() && !e.is_allow_always());
    if let (Some(entry), Some(_)) = (bare_wild, executable) {
        return Some(entry);
    }
    let executable = executable?;
    let resolved = executable.resolved_path.as_deref()?;
    let trust_path = executable
        .real_path
        .as_deref()
        .filter(|r| !js_trim(r).is_empty())
        .unwrap_or(resolved);
    let mut path_only = None;
    for entry in entries {
        let pattern = js_trim(&entry.pattern);
        let hit = if pattern.is_empty() {
            false
        } else if has_path_selector(pattern) {
            glob_matches(pattern, trust_path, home)
        } else {
            pattern != "*" && basename_matches(pattern, executable, home)
        };
        if !hit {
            continue;
        }
        match entry.arg_pattern() {
            None if !entry.is_allow_always() => {
                path_only = path_only.or(Some(entry));
            }
            None => {}
            Some(p) if p.starts_with("sha256:cwd-argv:v1:") || entry.is_allow_always() => {}
            Some(p) if arg_pattern_matches(p, argv) => return Some(entry),
            Some(_) => {}
        }
    }
    path_only
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_matches("/usr/bin/l?", "/usr/bin/ls", None));
        assert!(glob_matches("/usr/**", "/usr/bin/ls", None));
        assert!(glob_matches("/usr/*/ls", "/usr/bin/ls", None));
        assert!(!glob_matches("/usr/*", "/usr/bin/ls", None));
        assert!(glob_matches("g*", "git", None));
        assert!(!glob_matches("GIT", "git", None));
        assert!(!glob_matches("/usr/bin/[l]s", "/usr/bin/ls", None));
        assert!(glob_matches("/usr/bin/a.b", "/usr/bin/a.b", None));
        assert!(!glob_matches("/usr/bin/a.b", "/usr/bin/axb", None));
        assert!(glob_matches("~/bin/*", "/home/u/bin/x", Some("/home/u")));
        assert!(glob_matches("/usr/bin/*", "/usr/lib/../bin/ls", None));
        assert!(!glob_matches("  ", "x", None));
    }

    #[test]
    fn arg_patterns() {
        let argv: Vec<String> = ["python3", "safe.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(arg_pattern_matches("^safe\\.py$", &argv));
        assert!(!arg_pattern_matches("^other$", &argv));
        assert!(!arg_pattern_matches("(?<=x)", &argv));
        assert!(!arg_pattern_matches("sha256:argv:abc", &argv));
    }
}
