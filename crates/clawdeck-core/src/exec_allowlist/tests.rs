//! The module end to end on a made-up filesystem, and inputs that must not panic.

use std::collections::BTreeMap;

use super::*;

/// A filesystem of a few executables (and links) in /usr/bin, /bin -> /usr/bin.
struct FakeFs {
    files: BTreeMap<String, String>,
}

impl FakeFs {
    fn new() -> Self {
        let mut files = BTreeMap::new();
        for name in [
            "ls", "git", "head", "wc", "cat", "bash", "sh", "grep", "tail", "sort", "jq",
        ] {
            files.insert(format!("/usr/bin/{name}"), format!("/usr/bin/{name}"));
            files.insert(format!("/bin/{name}"), format!("/usr/bin/{name}"));
        }
        files.insert("/usr/bin/npm".into(), "/usr/lib/npm/npm-cli.js".into());
        FakeFs { files }
    }
}

impl Resolver for FakeFs {
    fn path_env(&self) -> &str {
        "/usr/bin:/bin"
    }
    fn cwd(&self) -> &str {
        "/tmp"
    }
    fn home(&self) -> Option<&str> {
        Some("/root")
    }
    fn is_executable_file(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }
    fn realpath(&self, path: &str) -> Option<String> {
        self.files.get(path).cloned()
    }
}

fn run(command: &str, allowlist: &[&str]) -> Evaluation {
    let allowlist = Allowlist(allowlist.iter().map(|p| AllowlistEntry::from(*p)).collect());
    evaluate(
        &analyze(command),
        &allowlist,
        &SafeBinPolicy::default(),
        &FakeFs::new(),
    )
}

fn by(evaluation: &Evaluation) -> Vec<Option<&'static str>> {
    evaluation
        .satisfied_by
        .iter()
        .map(|b| b.map(SatisfiedBy::as_str))
        .collect()
}

#[test]
fn lists_pipelines_and_builtins() {
    let e = run("git status && npm test", &["git"]);
    assert!(e.analysis_ok && !e.satisfied);
    assert_eq!(by(&e), vec![Some("allowlist"), None]);
    let e = run("cd /tmp && ls | head -n 5", &["ls"]);
    assert!(e.satisfied);
    assert_eq!(
        by(&e),
        vec![Some("safeBuiltins"), Some("allowlist"), Some("safeBins")]
    );
    assert_eq!(e.argv[2], vec!["head", "-n", "5"]);
}

#[test]
fn reasons_are_openclaws() {
    for (command, reason) in [
        ("ls > f", "redirect"),
        ("echo $(id)", "command-substitution"),
        ("echo \"$HOME\"", "dynamic-argument"),
        ("(ls)", "subshell"),
        ("ls &", "background"),
        ("", "no commands to authorize"),
        ("ls \\\n-l", "line-continuation"),
    ] {
        let e = run(command, &["*"]);
        assert!(!e.analysis_ok, "{command}");
        assert_eq!(e.reason.as_deref(), Some(reason), "{command}");
    }
}

#[test]
fn paths_names_and_wrappers() {
    assert!(run("/usr/bin/ls", &["/usr/bin/ls"]).satisfied);
    assert!(!run("/usr/bin/ls", &["ls"]).satisfied);
    assert!(!run("ls", &["/bin/ls"]).satisfied);
    assert!(run("npm test", &["npm"]).satisfied);
    assert!(!run("npm test", &["/usr/bin/npm"]).satisfied);
    assert!(run("timeout 5 ls", &["ls"]).satisfied);
    assert!(!run("sudo ls", &["sudo", "ls"]).satisfied);
    assert!(run("bash -c 'git status'", &["git"]).satisfied);
    assert!(!run("bash -c 'git status'", &["bash"]).satisfied);
    assert!(!run("bash x.sh", &["bash"]).satisfied);
    assert!(run("bash x.sh", &["/tmp/x.sh"]).satisfied);
    assert!(!run("A=1 ls", &["ls"]).satisfied);
}

#[test]
fn safe_bin_policy_replaces_defaults() {
    let analysis = analyze("grep -e x | head -n 1");
    let grep_only = SafeBinPolicy::new(Some(&["grep".to_string()]), &BTreeMap::new(), &[]);
    let e = evaluate(&analysis, &Allowlist::default(), &grep_only, &FakeFs::new());
    assert_eq!(by(&e), vec![Some("safeBins"), None]);
    let e = evaluate(
        &analyze("jq ."),
        &Allowlist::default(),
        &SafeBinPolicy::new(Some(&["jq".into()]), &BTreeMap::new(), &[]),
        &FakeFs::new(),
    );
    assert_eq!(by(&e), vec![None]);
}

#[test]
fn huge_input_fails_without_panic() {
    let huge = "a".repeat(MAX_SOURCE_CHARS + 1);
    let e = run(&huge, &["*"]);
    assert_eq!(
        e.reason.as_deref(),
        Some("Shell command is too large to explain")
    );
    let many = "ls;".repeat(20_000);
    let e = run(&many, &["*"]);
    assert_eq!(
        e.reason.as_deref(),
        Some("Shell command syntax is too complex to explain safely")
    );
}

#[test]
fn deep_nesting_and_odd_input_never_panic() {
    let deep_parens = format!("{}ls{}", "(".repeat(5000), ")".repeat(5000));
    let deep_subst = format!("echo {}x{}", "\"$(".repeat(3000), ")\"".repeat(3000));
    let deep_wrapper = "bash -c \"sh -c 'bash -c \\\"ls\\\"'\"".to_string();
    let inputs = [
        deep_parens,
        deep_subst,
        deep_wrapper,
        "$'\\u'\\x $'\\U110000' $'\\777' \"\\".to_string(),
        "\u{0}\u{7f}é\u{10FFFF} ls".to_string(),
        "{{{{{{{{ [[[[[[ ((((( ''''' \"\"\"\" $((((".to_string(),
        "env -S 'env -S \"env -S ls\"' x".to_string(),
        "a\\\r\nb".to_string(),
    ];
    for input in &inputs {
        let _ = run(input, &["*"]);
    }
}

#[test]
fn inputs_at_the_limits_fail_with_a_reason() {
    let too_complex = "Shell command syntax is too complex to explain safely";
    for (input, reason) in [
        (
            format!("{}ls{}", "(".repeat(65_000), ")".repeat(65_000)),
            Some(too_complex),
        ),
        ("$(".repeat(60_000), Some(too_complex)),
        ("'".repeat(100_000), Some(too_complex)),
        ("\\\n".repeat(60_000), Some("syntax-error")),
        ("a".repeat(MAX_SOURCE_CHARS), None),
    ] {
        let e = run(&input, &["*"]);
        assert_eq!(e.reason.as_deref(), reason, "{} chars", input.len());
    }
}

#[test]
fn a_versions_own_safe_lists_replace_the_built_in_ones() {
    let facts = ExecVersionFacts {
        default_safe_bins: vec!["sort".into()],
        safe_builtins: vec!["cd".into()],
        safe_bin_trusted_dirs: vec!["/usr/bin".into()],
        modes: None,
        inline_eval: None,
        permission_modes: None,
    };
    let policy = SafeBinPolicy::for_version(None, &BTreeMap::new(), &[], &facts);
    let with = |command: &str| {
        by(&evaluate(
            &analyze(command),
            &Allowlist(vec![AllowlistEntry::from("/usr/bin/ls")]),
            &policy,
            &FakeFs::new(),
        ))
    };
    // sort is this version's safe bin, head is not; pwd is not among its safe builtins.
    assert_eq!(with("ls | sort"), [Some("allowlist"), Some("safeBins")]);
    assert_eq!(with("ls | head"), [Some("allowlist"), None]);
    assert_eq!(with("cd /tmp && pwd"), [Some("safeBuiltins"), None]);
    // The defaults are 2026.9.6's lists (what its pack says too).
    assert_eq!(
        ExecVersionFacts::default().default_safe_bins,
        DEFAULT_SAFE_BINS
    );
}
