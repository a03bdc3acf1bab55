//! The decision log end to end: `clawdeck invoke` writes a record per call into the state dir
//! (XDG_STATE_HOME in a temp dir), `clawdeck log` reads them back (table, `--json`, filters,
//! `--follow` across a rotation), several processes append at once without losing a record.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use assert_cmd::cargo::CommandCargoExt;
use predicates::prelude::*;
use serde_json::Value;

const FULL: &str = r#"{ "tools": { "profile": "full", "deny": ["process"] } }"#;

fn setup(settings_extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openclaw.json"), FULL).unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("hello.txt"), "hi there\n").unwrap();
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        format!("{{ workspace: \"{}\", {settings_extra} }}", ws.display()),
    )
    .unwrap();
    dir
}

fn clawdeck(dir: &Path) -> Command {
    Command::from_std(command(dir))
}

/// The std command (for spawned children), with the config and a private state dir.
fn command(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::cargo_bin("clawdeck").unwrap();
    cmd.arg("--config")
        .arg(dir.join("openclaw.json"))
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env("XDG_STATE_HOME", dir.join("state"))
        .env_remove("OPENCLAW_CONFIG_PATH");
    cmd
}

fn log_dir(dir: &Path) -> PathBuf {
    dir.join("state/clawdeck/decisions")
}

fn json_records(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let out = clawdeck(dir)
        .arg("log")
        .arg("--json")
        .args(extra)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn invoke_records_the_call_and_log_json_shows_it() {
    let dir = setup("");
    clawdeck(dir.path())
        .args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#])
        .assert()
        .code(0);
    clawdeck(dir.path())
        .args(["invoke", "process", "-p", r#"{"action": "list"}"#])
        .assert()
        .code(3);
    let records = json_records(dir.path(), &[]);
    assert_eq!(records.len(), 2, "{records:?}");
    let read = &records[0];
    assert_eq!(read["client"], "invoke");
    assert_eq!(read["tool"]["requested"], "read");
    assert_eq!(read["tool"]["canonical"], "read");
    assert_eq!(read["decision"], "shown");
    assert_eq!(read["outcome"], "ok");
    assert_eq!(read["lane"], "main");
    // sha256 of {"file_path":"hello.txt"}; the arguments themselves are not stored.
    assert_eq!(
        read["args_sha256"],
        clawdeck_core::decision_log::args_sha256(&serde_json::json!({"file_path": "hello.txt"}))
    );
    assert!(!read.to_string().contains("hello.txt"));
    assert!(read["time"].as_str().unwrap().ends_with('Z'));
    let refused = &records[1];
    assert_eq!(refused["decision"], "refused");
    assert!(refused.get("outcome").is_none());
    assert_eq!(refused["rule"]["layer"], "global");
    assert_eq!(refused["rule"]["kind"], "denied");
    assert_eq!(refused["rule"]["config_path"], "tools.deny[0]");
    assert_ne!(read["id"], refused["id"]);

    // Filters and limit.
    assert_eq!(json_records(dir.path(), &["--tool", "process"]).len(), 1);
    assert_eq!(json_records(dir.path(), &["--client", "mcp"]).len(), 0);
    let last = json_records(dir.path(), &["--limit", "1"]);
    assert_eq!(last[0]["tool"]["canonical"], "process");

    // The table: a header and one line per call naming the rule.
    clawdeck(dir.path())
        .arg("log")
        .assert()
        .code(0)
        .stdout(
            predicate::str::is_match(r"(?m)^TIME\s+CLIENT\s+TOOL\s+DECISION\s+OUTCOME\s+MS\s+WHY$")
                .unwrap(),
        )
        .stdout(
            predicate::str::is_match(r"(?m)^\S+ \S+\s+invoke\s+read\s+shown\s+ok\s+\d+$").unwrap(),
        )
        .stdout(
            predicate::str::contains("refused   -")
                .and(predicate::str::contains("global: tools.deny[0]")),
        );
}

#[test]
fn a_bad_line_is_named_and_skipped() {
    let dir = setup("");
    clawdeck(dir.path())
        .args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#])
        .assert()
        .code(0);
    let live = log_dir(dir.path()).join("decisions.jsonl");
    let mut text = std::fs::read_to_string(&live).unwrap();
    text.insert_str(0, "garbage\n");
    std::fs::write(&live, text).unwrap();
    clawdeck(dir.path())
        .args(["log", "--json"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(format!(
            "skipped {}:1: not a decision record",
            live.display()
        )))
        .stdout(predicate::str::contains("\"canonical\":\"read\""));
}

#[test]
fn disabled_in_clawdeck_json5_nothing_is_written() {
    let dir = setup("decisionLog: { enabled: false }");
    clawdeck(dir.path())
        .args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#])
        .assert()
        .code(0);
    assert!(!log_dir(dir.path()).join("decisions.jsonl").exists());
    clawdeck(dir.path())
        .args(["log"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("no decisions recorded"));
}

#[test]
fn a_filter_that_matches_nothing_says_how_many_records_there_are() {
    let dir = setup("");
    for _ in 0..2 {
        clawdeck(dir.path())
            .args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#])
            .assert()
            .code(0);
    }
    let out = clawdeck(dir.path())
        .args(["log", "--tool", "nosuch"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "clawdeck log: 2 decisions recorded in {}, none matches --tool nosuch",
            log_dir(dir.path()).display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("no decisions recorded"), "{stderr}");
}

#[test]
fn processes_appending_at_once_lose_nothing_across_rotations() {
    // ~400-byte records, 2 KiB files: the processes rotate under each other many times.
    let dir = setup("decisionLog: { maxBytes: 2048, keep: 1000 }");
    let mut children: Vec<Child> = Vec::new();
    for n in 0..16 {
        let mut cmd = command(dir.path());
        cmd.args([
            "invoke",
            "read",
            "-p",
            &format!(r#"{{"file_path": "hello.txt", "limit": {}}}"#, n + 1),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        children.push(cmd.spawn().unwrap());
    }
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let records = json_records(dir.path(), &[]);
    let hashes: HashSet<String> = records
        .iter()
        .map(|r| r["args_sha256"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(records.len(), 16);
    assert_eq!(hashes.len(), 16, "one record per process");
    let files = std::fs::read_dir(log_dir(dir.path()))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("decisions.jsonl")
        })
        .count();
    assert!(files > 2, "rotation happened ({files} files)");
}

#[test]
fn follow_prints_new_records_across_a_rotation() {
    let dir = setup("decisionLog: { maxBytes: 1200, keep: 3 }");
    let mut follow = command(dir.path())
        .args(["log", "--follow", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = follow.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    // Let the follower start before the first record.
    std::thread::sleep(Duration::from_millis(300));
    for n in 1..=6 {
        clawdeck(dir.path())
            .args([
                "invoke",
                "read",
                "-p",
                &format!(r#"{{"file_path": "hello.txt", "limit": {n}}}"#),
            ])
            .assert()
            .code(0);
    }
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while seen.len() < 6 && Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            seen.push(serde_json::from_str::<Value>(&line).unwrap());
        }
    }
    follow.kill().unwrap();
    follow.wait().unwrap();
    assert!(
        log_dir(dir.path()).join("decisions.jsonl.1").exists(),
        "the log rotated while followed"
    );
    let expected: Vec<String> = (1..=6)
        .map(|n| {
            clawdeck_core::decision_log::args_sha256(
                &serde_json::json!({"file_path": "hello.txt", "limit": n}),
            )
        })
        .collect();
    let got: Vec<String> = seen
        .iter()
        .map(|r| r["args_sha256"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, expected);
}
