//! `clawdeck lint` and `clawdeck diff` from the command line: exit statuses, text (snapshots)
//! and JSON, on the fixtures in tests/fixtures/lint/.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const FIXTURES: &str = "tests/fixtures/lint";

/// The binary run from the crate root (fixture paths stay relative, so output is stable),
/// with no installed OpenClaw and no user config in reach.
fn clawdeck(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck")
        .unwrap_or_else(|e| panic!("the clawdeck binary is not built: {e}"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("PATH", "/usr/bin:/bin")
        .env_remove("OPENCLAW_BIN")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("OPENCLAW_STATE_DIR")
        .env("NO_COLOR", "1");
    cmd
}

fn run(args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap_or_else(|e| panic!("no temp dir: {e}"));
    let out = clawdeck(home.path())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("clawdeck did not run: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn lint_clean_config_exits_0() {
    let (code, out, err) = run(&["lint", "--config", &fixture("clean.json5")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("0 error(s), 0 warning(s), 0 note(s) in 2 context(s): agent main; agent ops"),
        "{out}"
    );
}

#[test]
fn lint_problems_text_names_every_finding_with_its_place() {
    let (code, out, err) = run(&["lint", "--config", &fixture("problems.json5")]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("1 error(s), 6 warning(s), 1 note(s) in 5 context(s)"),
        "{out}"
    );
    insta::assert_snapshot!("lint_problems_text", out);
}

#[test]
fn lint_problems_json_carries_severity_kind_path_and_location() {
    let (code, out, _) = run(&["lint", "--json", "--config", &fixture("problems.json5")]);
    assert_eq!(code, 1);
    let report = json(&out);
    assert_eq!(report["openclaw"], "2026.9");
    let findings = report["findings"].as_array().unwrap();
    let find = |kind: &str| {
        findings
            .iter()
            .find(|f| f["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} in {out}"))
    };
    let refused = find("no-callable-tool");
    assert_eq!(refused["severity"], "error");
    assert_eq!(refused["contexts"][0], "agent locked");
    assert_eq!(find("renamed-name")["config_path"], "tools.deny[0]");
    assert_eq!(find("mcp-hidden-by-sandbox")["contexts"][0], "agent boxed");
    assert_eq!(
        find("exec-approval-headless")["config_path"],
        "tools.exec.ask"
    );
    assert_eq!(find("plugin-only-allowlist")["severity"], "warning");
    assert_eq!(find("unknown-name")["severity"], "warning");
    // Most severe first.
    let severities: Vec<&str> = findings
        .iter()
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    let mut sorted = severities.clone();
    sorted.sort_by_key(|s| match *s {
        "error" => 0,
        "warning" => 1,
        _ => 2,
    });
    assert_eq!(severities, sorted);
}

#[test]
fn lint_a_given_context_only() {
    let (code, out, err) = run(&[
        "lint",
        "--json",
        "--config",
        &fixture("problems.json5"),
        "--agent",
        "boxed",
    ]);
    assert_eq!(code, 1, "{err}");
    let report = json(&out);
    let contexts = report["contexts"].as_array().unwrap();
    assert_eq!(contexts.len(), 1);
    assert_eq!(contexts[0]["agent"], "boxed");
    assert_eq!(contexts[0]["sandboxed"], true);
    let kinds: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"mcp-hidden-by-sandbox"), "{kinds:?}");
    assert!(!kinds.contains(&"no-callable-tool"), "{kinds:?}");
}

#[test]
fn lint_with_the_seed_pack_merges_allow_and_also_allow() {
    let (_, out, _) = run(&[
        "lint",
        "--json",
        "--openclaw-version",
        "seed",
        "--config",
        &format!(
            "{}/tests/fixtures/config-validity/allow_with_also_allow.json5",
            env!("CARGO_MANIFEST_DIR")
        ),
    ]);
    let report = json(&out);
    assert_eq!(report["openclaw"], "seed");
    let both = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "allow-with-also-allow")
        .unwrap();
    assert_eq!(both["severity"], "info");
}

#[test]
fn lint_config_errors_exit_2_naming_the_place() {
    let (code, out, err) = run(&["lint", "--config", &fixture("broken.json5")]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("broken.json5:2:"), "{err}");
    let (code, _, err) = run(&[
        "lint",
        "--config",
        &fixture("clean.json5"),
        "--agent",
        "nobody",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown agent \"nobody\""), "{err}");
}

#[test]
fn diff_two_configs_names_the_rule_on_the_hiding_side() {
    let (code, out, err) = run(&[
        "diff",
        "--config",
        &fixture("clean.json5"),
        "--vs-config",
        &fixture("vs-b.json5"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains(
            "- exec     hidden on b by global policy: denied by \"exec\" at tools.deny[0]"
        ),
        "{out}"
    );
    assert!(out.contains("+ browser  hidden on a by profile"), "{out}");
    // Each side names the flag its file came from.
    assert!(out.contains("clean.json5 (--config) — "), "{out}");
    assert!(out.contains("vs-b.json5 (--vs-config) — "), "{out}");
    insta::assert_snapshot!("diff_two_configs_text", out);
}

#[test]
fn diff_two_versions_reports_tools_of_one_pack() {
    let (code, out, err) = run(&[
        "diff",
        "--config",
        &fixture("clean.json5"),
        "--openclaw-version",
        "seed",
        "--vs-openclaw-version",
        "2026.9",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("a: agent main — seed semantics"), "{out}");
    assert!(
        out.contains("hidden: cron (= automations), whatsapp_login"),
        "{out}"
    );
    assert!(out.contains("automations (= cron)"), "{out}");
    insta::assert_snapshot!("diff_two_versions_text", out);
}

#[test]
fn diff_contexts_json() {
    let (code, out, err) = run(&[
        "diff",
        "--json",
        "--config",
        &fixture("problems.json5"),
        "--agent",
        "main",
        "--vs-agent",
        "ops",
    ]);
    assert_eq!(code, 1, "{err}");
    let d = json(&out);
    assert_eq!(d["a"]["agent"], "main");
    assert_eq!(d["b"]["agent"], "ops");
    let gone = d["disappear"].as_array().unwrap();
    let web = gone
        .iter()
        .find(|c| c["tool"] == "web_search")
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(web["hidden_on"], "b");
    assert_eq!(web["hidden_by"]["layer"], "agent");
    assert_eq!(
        web["hidden_by"]["config_path"],
        "agents.entries.ops.tools.allow"
    );
    let came = d["appear"].as_array().unwrap();
    assert!(came.iter().all(|c| c["hidden_on"] == "a"));

    // The same comparison spelled with --vs.
    let (_, again, _) = run(&[
        "diff",
        "--json",
        "--config",
        &fixture("problems.json5"),
        "--agent",
        "main",
        "--vs",
        "agent=ops",
    ]);
    assert_eq!(json(&again)["disappear"], d["disappear"]);
}

#[test]
fn diff_sandboxed_override_and_no_difference() {
    let (code, out, err) = run(&[
        "diff",
        "--json",
        "--config",
        &fixture("clean.json5"),
        "--vs",
        "sandboxed=true",
    ]);
    assert_eq!(code, 1, "{err}");
    let d = json(&out);
    assert!(
        d["disappear"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["hidden_by"]["layer"] == "sandbox"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "diff",
        "--config",
        &fixture("clean.json5"),
        "--vs",
        "agent=main",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no difference"), "{out}");
}

#[test]
fn diff_bad_input_exits_2() {
    let clean = fixture("clean.json5");
    for (args, said) in [
        (vec!["diff", "--config", &clean], "nothing to compare"),
        (
            vec!["diff", "--config", &clean, "--vs", "colour=red"],
            "unknown context key \"colour\"",
        ),
        (
            vec!["diff", "--config", &clean, "--vs-agent", "nobody"],
            "side b: unknown agent \"nobody\"",
        ),
        (
            vec![
                "diff",
                "--config",
                &clean,
                "--vs-openclaw-version",
                "1999.1",
            ],
            "--vs-openclaw-version",
        ),
        (
            vec![
                "diff",
                "--config",
                &clean,
                "--vs-config",
                "tests/fixtures/lint/broken.json5",
            ],
            "--vs-config: tests/fixtures/lint/broken.json5:2:",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

/// A config OpenClaw refuses (allow and alsoAllow in one scope, an unknown key, an enum value
/// outside its set): lint lists every issue at its key path and exits 2, like every command
/// that reads the config.
#[test]
fn lint_lists_every_issue_openclaw_refuses_the_config_for() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (case, paths) in [
        ("allow_with_also_allow", &["(at tools)"][..]),
        (
            "several_issues",
            &["(at tools.profile)", "(at tools.exec.ask)", "(at <root>)"][..],
        ),
    ] {
        let path = format!("{root}/tests/fixtures/config-validity/{case}.json5");
        let (code, out, err) = run(&["lint", "--config", &path]);
        assert_eq!(code, 2, "{case}: {out}{err}");
        for at in paths {
            assert!(err.contains(at), "{case}: {at} missing from {err}");
        }
        assert_eq!(err.lines().count(), paths.len(), "{case}: {err}");
        for command in [
            &["tools"][..],
            &["explain", "exec"][..],
            &["prompt"][..],
            &["invoke", "read", "--params", "{}"][..],
        ] {
            let mut args = command.to_vec();
            args.extend(["--config", path.as_str()]);
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{case} {command:?}: {err}");
            assert!(err.contains(paths[0]), "{case} {command:?}: {err}");
        }
    }
}

#[test]
fn approvals_entries_that_can_never_match_are_named_with_their_place() {
    let doc = "tests/fixtures/exec_verdict/approvals-never-matches.json5";
    let (code, out, err) = run(&[
        "lint",
        "--config",
        "tests/fixtures/exec_verdict/allowlist-on-miss.json5",
        "--approvals",
        doc,
        "--json",
    ]);
    assert_eq!(code, 1, "{err}{out}");
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let never: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .filter(|f| f["kind"] == "exec-allowlist-never-matches")
        .collect();
    let places: Vec<&str> = never
        .iter()
        .filter_map(|f| f["config_path"].as_str())
        .collect();
    assert_eq!(
        places,
        [
            format!("{doc} agents.ops.allowlist[0]"),
            format!("{doc} agents.ops.allowlist[1]"),
            format!("{doc} agents.ops.allowlist[2]"),
        ],
        "{report}"
    );
    assert!(
        never[2]["message"]
            .as_str()
            .is_some_and(|m| m.contains("argPattern"))
    );
}
