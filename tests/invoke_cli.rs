//! `clawdeck invoke` as a user runs it: success, tool error, refusal with the explanation, hook
//! block, bad `--params`, schema errors, `--json` output, `@file` params.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// An OpenClaw config plus a sibling clawdeck.json5 pointing the workspace into the temp dir.
fn setup(openclaw: &str, settings_extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openclaw.json"), openclaw).unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        format!("{{ workspace: \"{}\", {settings_extra} }}", ws.display()),
    )
    .unwrap();
    dir
}

fn clawdeck(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.arg("--config")
        .arg(dir.join("openclaw.json"))
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        // The decision log goes into the temp dir, never the real home.
        .env("XDG_STATE_HOME", dir.join("state"))
        .env_remove("OPENCLAW_CONFIG_PATH");
    cmd
}

const FULL: &str = r#"{ "tools": { "profile": "full", "deny": ["process"] } }"#;

#[test]
fn success_prints_the_text_and_exits_0() {
    let dir = setup(FULL, "");
    std::fs::write(dir.path().join("ws/hello.txt"), "hi there\n").unwrap();
    clawdeck(dir.path())
        .args([
            "invoke",
            "read",
            "--params",
            r#"{"file_path": "hello.txt"}"#,
        ])
        .assert()
        .code(0)
        .stdout("hi there\n");
}

#[test]
fn json_prints_the_tool_result_itself() {
    let dir = setup(FULL, "");
    let out = clawdeck(dir.path())
        .args([
            "invoke",
            "exec",
            "--json",
            "-p",
            r#"{"command": "echo out"}"#,
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["content"][0],
        serde_json::json!({"type": "text", "text": "out"})
    );
    assert_eq!(v["details"]["status"], "completed");
    assert_eq!(v["details"]["exitCode"], 0);
}

#[test]
fn tool_errors_exit_1() {
    let dir = setup(FULL, "");
    clawdeck(dir.path())
        .args(["invoke", "read", "--params", r#"{"path": "missing.txt"}"#])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "\"error\": \"Cannot read missing.txt",
        ));
    clawdeck(dir.path())
        .args(["invoke", "exec", "--params", r#"{"command": "exit 9"}"#])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(Command exited with code 9)"));
    clawdeck(dir.path())
        .args([
            "invoke",
            "exec",
            "--params",
            r#"{"command": "sleep 5", "timeout": 1}"#,
        ])
        .assert()
        .code(1);
}

#[test]
fn refusals_exit_3_with_the_explanation() {
    let dir = setup(FULL, "");
    clawdeck(dir.path())
        .args(["invoke", "process", "--params", r#"{"action": "list"}"#])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "refused: process is not available in this context",
        ))
        .stderr(predicate::str::contains("tools.deny[0]"))
        .stderr(predicate::str::contains("HIDDEN"));
    let out = clawdeck(dir.path())
        .args(["invoke", "process", "--json"])
        .assert()
        .code(3)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["details"]["status"], "refused");
    assert_eq!(v["details"]["removed_by"]["config_path"], "tools.deny[0]");
}

#[test]
fn hidden_in_a_sandbox_context_is_refused_too() {
    let dir = setup(r#"{ "tools": { "profile": "full" } }"#, "");
    // browser is on the sandbox's default deny list.
    clawdeck(dir.path())
        .args(["invoke", "browser", "--sandboxed", "--params", "{}"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("sandbox"));
}

#[test]
fn bad_params_are_usage_errors_naming_the_problem() {
    let dir = setup(FULL, "");
    clawdeck(dir.path())
        .args(["invoke", "read", "--params", "{not json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--params is not valid JSON"));
    clawdeck(dir.path())
        .args(["invoke", "read", "--params", "[1, 2]"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--params must be a JSON object, got an array",
        ));
    clawdeck(dir.path())
        .args([
            "invoke",
            "edit",
            "--params",
            r#"{"path": "a", "edits": [{"newText": "x"}]}"#,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/edits/0/oldText: required"));
    clawdeck(dir.path())
        .args(["invoke", "frobnicate"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Unknown tool \"frobnicate\""));
}

#[test]
fn params_can_come_from_a_file() {
    let dir = setup(FULL, "");
    let params = dir.path().join("params.json");
    std::fs::write(
        &params,
        r#"{"path": "from-file.txt", "content": "via @file"}"#,
    )
    .unwrap();
    clawdeck(dir.path())
        .args(["invoke", "write", "--params"])
        .arg(format!("@{}", params.display()))
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("ws/from-file.txt")).unwrap(),
        "via @file"
    );
}

#[test]
fn hook_blocks_exit_3_with_the_reason() {
    let block = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hooks/block.sh");
    let dir = setup(
        FULL,
        &format!(
            "hooks: {{ beforeToolCall: [{{ name: \"guard\", command: [\"{}\"] }}] }}",
            block.display()
        ),
    );
    clawdeck(dir.path())
        .args([
            "invoke",
            "write",
            "--params",
            r#"{"path": "x", "content": "y"}"#,
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "blocked: blocked by the block fixture",
        ));
    assert!(!dir.path().join("ws/x").exists());
}

#[test]
fn ctrl_c_cancels_the_call_and_its_process_tree() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = setup(FULL, "");
    let pidfile = dir.path().join("child.pid");
    let params = format!(
        r#"{{"command": "sleep 60 & echo $! > {}; wait"}}"#,
        pidfile.display()
    );
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("clawdeck"))
        .arg("--config")
        .arg(dir.path().join("openclaw.json"))
        .args(["invoke", "exec", "--params", &params])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut waited = 0;
    while !pidfile.exists() && waited < 100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    let grandchild: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    // The stop policy: 128 + SIGINT's number, after the call's own report.
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exec: cancelled"));
    let mut gone = false;
    for _ in 0..100 {
        if kill(Pid::from_raw(grandchild), None).is_err() {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        gone,
        "the command's child {grandchild} outlived the cancelled call"
    );
}

#[test]
fn invoke_waits_for_a_run_that_moved_to_the_background() {
    let dir = setup(FULL, "");
    let out = clawdeck(dir.path())
        .args([
            "invoke",
            "exec",
            "--json",
            "-p",
            r#"{"command": "echo a; sleep 0.5; echo b; exit 3", "yieldMs": 50}"#,
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["content"][0]["text"],
        "a\nb\n\n(Command exited with code 3)"
    );
    assert_eq!(v["details"]["status"], "completed");
    clawdeck(dir.path())
        .args([
            "invoke",
            "exec",
            "-p",
            r#"{"command": "sleep 0.3; echo done", "background": true}"#,
        ])
        .assert()
        .code(0)
        .stdout("done\n")
        .stderr(predicate::str::contains("Command still running (session"));
}

#[test]
fn a_command_that_exits_non_zero_is_exit_status_1_with_the_code_shown() {
    let dir = setup(FULL, "");
    clawdeck(dir.path())
        .args([
            "invoke",
            "exec",
            "-p",
            r#"{"command": "echo partial; exit 3"}"#,
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("partial"))
        .stderr(predicate::str::contains("exited with code 3"));
    clawdeck(dir.path())
        .args(["invoke", "exec", "-p", r#"{"command": "true"}"#])
        .assert()
        .code(0);
}

#[test]
fn piped_output_keeps_the_exact_bytes() {
    // Not a terminal: nothing is neutralised (the tmux test covers the terminal case).
    let dir = setup(FULL, "");
    std::fs::write(
        dir.path().join("ws/evil.txt"),
        "a\x1b]0;pwned\x07b\x1b]52;c;aGk=\x07c\n",
    )
    .unwrap();
    clawdeck(dir.path())
        .args(["invoke", "read", "--params", r#"{"file_path": "evil.txt"}"#])
        .assert()
        .code(0)
        .stdout("a\x1b]0;pwned\x07b\x1b]52;c;aGk=\x07c\n");
}
