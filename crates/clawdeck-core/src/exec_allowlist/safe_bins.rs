//! safeBins: stdin-only filters (`head -n 5`, `wc -l`) allowed without an allowlist entry when
//! their flags and arguments pass a profile (OpenClaw 2026.9.6's `SAFE_BIN_PROFILES`,
//! `validateSafeBinArgv`, `isTrustedSafeBinPath`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::resolution::{Resolver, resolve_path};

/// The default `tools.exec.safeBins` (2026.9.6's; a version pack's `exec` facts take its place).
pub const DEFAULT_SAFE_BINS: &[&str] = &["cut", "uniq", "head", "tail", "tr", "wc"];
/// Directories a safe bin must live in, besides configured ones.
pub const DEFAULT_TRUSTED_DIRS: &[&str] = &["/bin", "/usr/bin"];
/// Builtins satisfied whatever their arguments.
pub const DEFAULT_SAFE_BUILTINS: &[&str] = &[":", "cd", "false", "pwd", "test", "true"];

/// What one OpenClaw version's exec treats as safe without an allowlist entry: its
/// `DEFAULT_SAFE_BINS`, `DEFAULT_SAFE_BUILTINS` and `DEFAULT_SAFE_BIN_TRUSTED_DIRS`, read from
/// its dist/ by the pack capture (a version pack's `exec`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecVersionFacts {
    pub default_safe_bins: Vec<String>,
    pub safe_builtins: Vec<String>,
    pub safe_bin_trusted_dirs: Vec<String>,
    /// `tools.exec.mode` → the security and ask it stands for (`resolveExecPolicyForMode`);
    /// None: the pack does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<BTreeMap<String, ModePolicy>>,
    /// The interpreters and flags that count as inline eval; None: the pack does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inline_eval: Option<super::inline_eval::InlineEvalSpecs>,
    /// Session `permissionMode` → `tools.exec.mode` (`EXEC_MODE_BY_PERMISSION_MODE`); None:
    /// the pack does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_modes: Option<BTreeMap<String, String>>,
}

/// What one `tools.exec.mode` stands for, as the version's `resolveExecPolicyForMode` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModePolicy {
    pub security: String,
    pub ask: String,
    /// A reviewer model answers misses first (`mode: "auto"`).
    #[serde(default)]
    pub auto_review: bool,
}

impl Default for ExecVersionFacts {
    /// 2026.9.6's (and 2026.8.2's), for packs that do not say.
    fn default() -> Self {
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        ExecVersionFacts {
            default_safe_bins: owned(DEFAULT_SAFE_BINS),
            safe_builtins: owned(DEFAULT_SAFE_BUILTINS),
            safe_bin_trusted_dirs: owned(DEFAULT_TRUSTED_DIRS),
            modes: None,
            inline_eval: None,
            permission_modes: None,
        }
    }
}
/// Interpreters that are never safe bins, whatever their profile.
const ALWAYS_DENIED: &[&str] = &["jq", "awk", "gawk", "mawk", "nawk", "sed", "gsed"];

/// Which flags and how many positionals a safe bin may take.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SafeBinProfile {
    /// Fewest positionals (default 0).
    pub min_positional: Option<usize>,
    /// Most positionals (no limit when None).
    pub max_positional: Option<usize>,
    /// Flags that take a value.
    pub allowed_value_flags: BTreeSet<String>,
    /// Flags without a value.
    pub allowed_boolean_flags: BTreeSet<String>,
    /// Flags that always fail.
    pub denied_flags: BTreeSet<String>,
}

/// A profile as configured (`tools.exec.safeBinProfiles.<bin>`). OpenClaw keeps only these
/// four fields: `allowedBooleanFlags` in config is dropped, as there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct SafeBinProfileConfig {
    /// Fewest positionals.
    #[serde(default)]
    pub min_positional: Option<f64>,
    /// Most positionals.
    #[serde(default)]
    pub max_positional: Option<f64>,
    /// Flags that take a value.
    #[serde(default)]
    pub allowed_value_flags: Vec<String>,
    /// Flags that always fail.
    #[serde(default)]
    pub denied_flags: Vec<String>,
}

/// A built-in profile as OpenClaw writes it.
struct Fixture {
    name: &'static str,
    min_positional: Option<usize>,
    max_positional: usize,
    value_flags: &'static [&'static str],
    boolean_flags: &'static [&'static str],
    denied_flags: &'static [&'static str],
}

const IO_BOOLEAN_FLAGS: &[&str] = &[
    "--quiet",
    "--silent",
    "--verbose",
    "--zero-terminated",
    "-q",
    "-v",
    "-z",
];

/// OpenClaw 2026.9.6's `SAFE_BIN_PROFILES`.
const FIXTURES: &[Fixture] = &[
    Fixture {
        name: "jq",
        min_positional: None,
        max_positional: 1,
        value_flags: &["--arg", "--argjson", "--argstr"],
        boolean_flags: &[],
        denied_flags: &[
            "--argfile",
            "--rawfile",
            "--slurpfile",
            "--from-file",
            "--library-path",
            "-L",
            "-f",
        ],
    },
    Fixture {
        name: "grep",
        min_positional: None,
        max_positional: 0,
        value_flags: &[
            "--regexp",
            "--max-count",
            "--after-context",
            "--before-context",
            "--context",
            "--devices",
            "--binary-files",
            "--exclude",
            "--include",
            "--label",
            "-e",
            "-m",
            "-A",
            "-B",
            "-C",
            "-D",
        ],
        boolean_flags: &[],
        denied_flags: &[
            "--file",
            "--exclude-from",
            "--dereference-recursive",
            "--directories",
            "--recursive",
            "-f",
            "-d",
            "-r",
            "-R",
        ],
    },
    Fixture {
        name: "cut",
        min_positional: None,
        max_positional: 0,
        value_flags: &[
            "--bytes",
            "--characters",
            "--fields",
            "--delimiter",
            "--output-delimiter",
            "-b",
            "-c",
            "-f",
            "-d",
        ],
        boolean_flags: &[
            "--complement",
            "--only-delimited",
            "--zero-terminated",
            "-n",
            "-s",
            "-z",
        ],
        denied_flags: &[],
    },
    Fixture {
        name: "sort",
        min_positional: None,
        max_positional: 0,
        value_flags: &[
            "--key",
            "--field-separator",
            "--buffer-size",
            "--parallel",
            "--batch-size",
            "-k",
            "-t",
            "-S",
        ],
        boolean_flags: &[],
        denied_flags: &[
            "--compress-program",
            "--files0-from",
            "--output",
            "--random-source",
            "--temporary-directory",
            "-T",
            "-o",
        ],
    },
    Fixture {
        name: "uniq",
        min_positional: None,
        max_positional: 0,
        value_flags: &[
            "--skip-fields",
            "--skip-chars",
            "--check-chars",
            "--group",
            "-f",
            "-s",
            "-w",
        ],
        boolean_flags: &[
            "--count",
            "--repeated",
            "--unique",
            "--ignore-case",
            "--zero-terminated",
            "-c",
            "-d",
            "-u",
            "-i",
            "-z",
        ],
        denied_flags: &[],
    },
    Fixture {
        name: "head",
        min_positional: None,
        max_positional: 0,
        value_flags: &["--lines", "--bytes", "-n", "-c"],
        boolean_flags: IO_BOOLEAN_FLAGS,
        denied_flags: &[],
    },
    Fixture {
        name: "tail",
        min_positional: None,
        max_positional: 0,
        value_flags: &[
            "--lines",
            "--bytes",
            "--sleep-interval",
            "--max-unchanged-stats",
            "--pid",
            "-n",
            "-c",
        ],
        boolean_flags: IO_BOOLEAN_FLAGS,
        denied_flags: &["--follow", "--retry", "-F", "-f"],
    },
    Fixture {
        name: "tr",
        min_positional: Some(1),
        max_positional: 2,
        value_flags: &[],
        boolean_flags: &[
            "--complement",
            "--delete",
            "--squeeze-repeats",
            "--truncate-set1",
            "-C",
            "-c",
            "-d",
            "-s",
            "-t",
        ],
        denied_flags: &[],
    },
    Fixture {
        name: "wc",
        min_positional: None,
        max_positional: 0,
        value_flags: &[],
        boolean_flags: &[
            "--bytes",
            "--chars",
            "--lines",
            "--max-line-length",
            "--words",
            "-L",
            "-c",
            "-l",
            "-m",
            "-w",
        ],
        denied_flags: &["--files0-from"],
    },
];

fn set(flags: &[&str]) -> BTreeSet<String> {
    flags.iter().map(|f| f.to_string()).collect()
}

/// OpenClaw 2026.9.6's built-in profiles, by name.
pub fn builtin_profiles() -> BTreeMap<String, SafeBinProfile> {
    FIXTURES
        .iter()
        .map(|f| {
            let profile = SafeBinProfile {
                min_positional: f.min_positional,
                max_positional: Some(f.max_positional),
                allowed_value_flags: set(f.value_flags),
                allowed_boolean_flags: set(f.boolean_flags),
                denied_flags: set(f.denied_flags),
            };
            (f.name.to_string(), profile)
        })
        .collect()
}

/// `normalizeFixtureLimit`: a finite number, truncated, not negative.
fn limit(raw: Option<f64>) -> Option<usize> {
    let value = raw.filter(|v| v.is_finite())?.trunc();
    (value >= 0.0).then_some(value as usize)
}

fn flag_set(flags: &[String]) -> BTreeSet<String> {
    flags
        .iter()
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect()
}

impl SafeBinProfileConfig {
    /// `normalizeSafeBinProfileFixture` and compile.
    pub fn to_profile(&self) -> SafeBinProfile {
        let min_positional = limit(self.min_positional);
        let max_raw = limit(self.max_positional);
        let max_positional = match (min_positional, max_raw) {
            (Some(min), Some(max)) if max < min => Some(min),
            _ => max_raw,
        };
        SafeBinProfile {
            min_positional,
            max_positional,
            allowed_value_flags: flag_set(&self.allowed_value_flags),
            allowed_boolean_flags: BTreeSet::new(),
            denied_flags: flag_set(&self.denied_flags),
        }
    }
}

/// The safe-bin part of the exec policy: which bins, their profiles, and extra trusted dirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeBinPolicy {
    /// Lower-cased bin names.
    pub bins: BTreeSet<String>,
    /// Profiles by lower-cased name.
    pub profiles: BTreeMap<String, SafeBinProfile>,
    /// `safeBinTrustedDirs`, besides `/bin` and `/usr/bin`.
    pub extra_trusted_dirs: Vec<String>,
    /// The version's own lists (default safe bins, safe builtins, trusted dirs).
    pub facts: ExecVersionFacts,
}

impl Default for SafeBinPolicy {
    fn default() -> Self {
        SafeBinPolicy::new(None, &BTreeMap::new(), &[])
    }
}

impl SafeBinPolicy {
    /// `resolveExecSafeBinRuntimePolicy`: a configured list replaces the default one (an
    /// empty list turns safe bins off); configured profiles replace built-in ones by name.
    pub fn new(
        safe_bins: Option<&[String]>,
        profiles: &BTreeMap<String, SafeBinProfileConfig>,
        extra_trusted_dirs: &[String],
    ) -> Self {
        Self::for_version(
            safe_bins,
            profiles,
            extra_trusted_dirs,
            &ExecVersionFacts::default(),
        )
    }

    /// As [`new`](Self::new), with a version's own default lists.
    pub fn for_version(
        safe_bins: Option<&[String]>,
        profiles: &BTreeMap<String, SafeBinProfileConfig>,
        extra_trusted_dirs: &[String],
        facts: &ExecVersionFacts,
    ) -> Self {
        let bins = safe_bins
            .unwrap_or(&facts.default_safe_bins)
            .iter()
            .map(|b| b.trim().to_lowercase())
            .filter(|b| !b.is_empty())
            .collect();
        let mut merged = builtin_profiles();
        for (name, config) in profiles {
            let name = name.trim().to_lowercase();
            if !name.is_empty() {
                merged.insert(name, config.to_profile());
            }
        }
        SafeBinPolicy {
            bins,
            profiles: merged,
            extra_trusted_dirs: extra_trusted_dirs
                .iter()
                .map(|d| d.trim().to_string())
                .filter(|d| !d.is_empty())
                .collect(),
            facts: facts.clone(),
        }
    }

    /// `getTrustedSafeBinDirs`: the trusted dirs as given, plus the real directory of each
    /// safe bin found in them (so `/bin` trusts `/usr/bin` where `/bin` is a link).
    pub fn trusted_dirs(&self, resolver: &dyn Resolver) -> BTreeSet<String> {
        let entries: Vec<String> = self
            .facts
            .safe_bin_trusted_dirs
            .iter()
            .cloned()
            .chain(self.extra_trusted_dirs.iter().cloned())
            .collect();
        let mut dirs: BTreeSet<String> = entries
            .iter()
            .map(|d| resolve_path(resolver.cwd(), d))
            .collect();
        for entry in &entries {
            let dir = resolve_path(resolver.cwd(), entry);
            for bin in self
                .bins
                .iter()
                .filter(|b| !b.contains('/') && !b.contains('\\'))
            {
                let candidate = resolve_path(&dir, bin);
                if !resolver.is_executable_file(&candidate) {
                    continue;
                }
                if let Some(real) = resolver.realpath(&candidate) {
                    dirs.insert(parent_dir(&real));
                }
            }
        }
        dirs
    }
}

/// `path.dirname` of an absolute path.
pub fn parent_dir(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(at) => path[..at].to_string(),
    }
}

/// `isPathLikeToken`.
fn is_path_like(value: &str) -> bool {
    let trimmed = value.trim();
    if trimmed.is_empty() || trimmed == "-" {
        return false;
    }
    let bytes = trimmed.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'\\' || bytes[2] == b'/');
    ["./", "../", "~", "/"]
        .iter()
        .any(|p| trimmed.starts_with(p))
        || drive
}

/// `hasShellExpansionToken`: `$x`, `${`, `$(`, `$[`.
fn has_expansion(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'$' && (w[1].is_ascii_alphanumeric() || b"_@*?!$#-{([".contains(&w[1])))
}

/// `isSafeLiteralToken`: no glob, no expansion, no path.
pub fn is_safe_literal(value: &str) -> bool {
    if value.is_empty() || value == "-" {
        return true;
    }
    !value.contains(['*', '?', '[', ']']) && !has_expansion(value) && !is_path_like(value)
}

/// A value that is missing or not a safe literal.
fn invalid_value(value: Option<&String>) -> bool {
    value.is_none_or(|v| v.is_empty() || !is_safe_literal(v))
}

impl SafeBinProfile {
    /// The known long flags and, for each unambiguous prefix of one, the flag it abbreviates.
    fn canonical_long_flag(&self, flag: &str) -> Option<String> {
        if !flag.starts_with("--") || flag.len() <= 2 {
            return None;
        }
        let known: BTreeSet<&String> = self
            .allowed_value_flags
            .iter()
            .chain(&self.allowed_boolean_flags)
            .chain(&self.denied_flags)
            .filter(|f| f.starts_with("--"))
            .collect();
        if known.iter().any(|k| k.as_str() == flag) {
            return Some(flag.to_string());
        }
        if flag.len() < 3 {
            return None;
        }
        let mut hits = known.iter().filter(|k| k.len() > 2 && k.starts_with(flag));
        match (hits.next(), hits.next()) {
            (Some(only), None) => Some(only.to_string()),
            _ => None,
        }
    }

    /// A long option at `args[i]`: the index after it, or None when it fails.
    fn consume_long(
        &self,
        args: &[String],
        i: usize,
        flag: &str,
        inline: Option<&str>,
    ) -> Option<usize> {
        let canonical = self.canonical_long_flag(flag)?;
        if self.denied_flags.contains(&canonical) {
            return None;
        }
        let expects_value = self.allowed_value_flags.contains(&canonical);
        match inline {
            Some(value) => (expects_value && is_safe_literal(value)).then_some(i + 1),
            None if !expects_value => Some(i + 1),
            None => (!invalid_value(args.get(i + 1))).then_some(i + 2),
        }
    }

    /// A short option cluster at `args[i]`: the index after it, or None when it fails.
    fn consume_short(&self, args: &[String], i: usize, cluster: &str) -> Option<usize> {
        for (at, ch) in cluster.char_indices() {
            let flag = format!("-{ch}");
            if self.denied_flags.contains(&flag) {
                return None;
            }
            if self.allowed_value_flags.contains(&flag) {
                let inline = &cluster[at + ch.len_utf8()..];
                if !inline.is_empty() {
                    return is_safe_literal(inline).then_some(i + 1);
                }
                return (!invalid_value(args.get(i + 1))).then_some(i + 2);
            }
            if !self.allowed_boolean_flags.contains(&flag) {
                return None;
            }
        }
        Some(i + 1)
    }

    /// `collectPositionalTokens`: the positionals, or None when a flag or value fails.
    fn positionals(&self, args: &[String]) -> Option<Vec<String>> {
        let mut positional = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let raw = args[i].as_str();
            if raw.is_empty() || raw == "-" {
                i += 1;
            } else if raw == "--" {
                for rest in args[i + 1..]
                    .iter()
                    .filter(|r| !r.is_empty() && r.as_str() != "-")
                {
                    if !is_safe_literal(rest) {
                        return None;
                    }
                    positional.push(rest.clone());
                }
                break;
            } else if !raw.starts_with('-') {
                if !is_safe_literal(raw) {
                    return None;
                }
                positional.push(raw.to_string());
                i += 1;
            } else if raw.starts_with("--") {
                let (flag, inline) = match raw.find('=') {
                    Some(eq) if eq > 0 => (&raw[..eq], Some(&raw[eq + 1..])),
                    _ => (raw, None),
                };
                i = self.consume_long(args, i, flag, inline)?;
            } else {
                i = self.consume_short(args, i, &raw[1..])?;
            }
        }
        Some(positional)
    }

    /// `validateSafeBinArgv` (argv without argv[0]) with the interpreter veto for `bin`.
    pub fn validate(&self, args: &[String], bin: &str) -> bool {
        let Some(positional) = self.positionals(args) else {
            return false;
        };
        if positional.len() < self.min_positional.unwrap_or(0) {
            return false;
        }
        if self
            .max_positional
            .is_some_and(|max| positional.len() > max)
        {
            return false;
        }
        !ALWAYS_DENIED.contains(&normalize_safe_bin_name(bin).as_str())
    }
}

/// `normalizeSafeBinName`: lower-cased basename without a Windows suffix.
fn normalize_safe_bin_name(raw: &str) -> String {
    let lower = raw.trim().to_lowercase();
    let base = lower
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&lower)
        .to_string();
    for suffix in [".exe", ".cmd", ".bat", ".com"] {
        if let Some(stripped) = base.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    base
}

/// `isSafeBinUsage`'s name check: the executable's name (the raw token when unresolved),
/// trimmed and lower-cased.
pub fn safe_bin_name(name: &str) -> String {
    name.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn check(bin: &str, items: &[&str]) -> bool {
        builtin_profiles()[bin].validate(&args(items), bin)
    }

    #[test]
    fn builtin_profiles_validate_like_openclaw() {
        assert!(check("head", &["-n", "5"]));
        assert!(check("head", &["--lin", "5"]));
        assert!(check("head", &["--li=5"]));
        assert!(!check("head", &["-5"]));
        assert!(!check("head", &["file.txt"]));
        assert!(!check("head", &["-n", "*"]));
        assert!(!check("head", &["--", "x"]));
        assert!(check("head", &["-"]));
        assert!(check("cut", &["-d:", "-f1"]));
        assert!(check("cut", &["-d", ":", "-f", "1"]));
        assert!(!check("tail", &["-f"]));
        assert!(!check("tail", &["--follow"]));
        assert!(check("tr", &["a-z", "A-Z"]));
        assert!(!check("tr", &[]));
        assert!(!check("grep", &["x"]));
        assert!(check("grep", &["-e", "x"]));
        assert!(!check("grep", &["-r", "-e", "x"]));
        assert!(!check("sort", &["-o", "out"]));
        assert!(!check("jq", &["."]));
        assert!(!check("head", &["-n", "$X"]));
        assert!(!check("head", &["-n", "/etc/passwd"]));
    }

    #[test]
    fn configured_profiles_drop_boolean_flags() {
        let config = SafeBinProfileConfig::default();
        let profile = config.to_profile();
        assert!(profile.validate(&args(&["a", "b", "c"]), "git"));
        assert!(!profile.validate(&args(&["./x"]), "git"));
        assert!(!profile.validate(&args(&["-v"]), "git"));
        let limited = SafeBinProfileConfig {
            min_positional: Some(2.0),
            max_positional: Some(1.0),
            ..SafeBinProfileConfig::default()
        };
        assert_eq!(limited.to_profile().max_positional, Some(2));
    }
}
