//! The headless gateway commands against a local fake gateway (no OpenClaw needed): `gateway
//! sessions` lines its columns up by display width, `gateway watch` prints a one-line summary
//! per event (and the event itself with --json).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use support::fake_gateway::{FakeGateway, Script, clawdeck_on as clawdeck};
use unicode_width::UnicodeWidthStr;

#[test]
fn gateway_sessions_lines_up_long_keys_and_wide_characters() {
    let long_key = "agent:ops:telegram:group:-1001234567890:topic:42:thread:abcdef";
    let gateway = FakeGateway::start(Script::default().answer(
        "sessions.list",
        json!({"sessions": [
            {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
            {"key": long_key, "agentId": "ops", "kind": "group", "updatedAt": 2},
            {"key": "agent:support:会话:客服", "agentId": "support", "kind": "direct", "updatedAt": 3},
        ]}),
    ));
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(&gateway, state.path())
        .args(["gateway", "sessions"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[2].contains(long_key), "the key is whole: {text}");
    // Each column starts at the same display column on every line.
    for column in ["KIND", "STATE", "LAST ACTIVITY"] {
        let at = lines[0].find(column).unwrap();
        let start = lines[0][..at].width();
        for line in &lines[1..] {
            let (before, _) = split_at_width(line, start);
            assert!(
                before.ends_with("  ") && !line[before.len()..].starts_with(' '),
                "{column} misaligned:\n{text}"
            );
        }
    }
}

/// The prefix of `line` that is `width` display columns wide.
fn split_at_width(line: &str, width: usize) -> (&str, &str) {
    let mut used = 0;
    for (i, c) in line.char_indices() {
        if used >= width {
            return line.split_at(i);
        }
        used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
    }
    (line, "")
}

/// Starts `gateway watch` with `extra` args and returns its first `n` stdout lines.
fn watch_lines(gateway: &FakeGateway, extra: &[&str], n: usize) -> Vec<String> {
    let state = tempfile::tempdir().unwrap();
    let mut child = clawdeck(gateway, state.path())
        .args(["gateway", "watch"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while lines.len() < n {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    lines
}

fn run_events() -> Script {
    let key = "agent:ops:main";
    Script::default()
        .event(
            "agent",
            json!({"runId": "r1", "sessionKey": key, "stream": "lifecycle",
                "data": {"phase": "model", "provider": "mock", "model": "mock-1"}}),
        )
        .event(
            "agent",
            json!({"runId": "r1", "sessionKey": key, "stream": "assistant",
                "data": {"text": "All done", "delta": "All done"}}),
        )
        .event(
            "chat",
            json!({"runId": "r1", "sessionKey": key, "state": "final", "stopReason": "stop",
                "message": {"role": "assistant", "content": [{"type": "text", "text": "All\ndone"}]}}),
        )
}

#[test]
fn gateway_watch_summarises_run_and_chat_events_in_one_line_each() {
    let gateway = FakeGateway::start(run_events());
    let lines = watch_lines(&gateway, &[], 3);
    let expected = [
        "agent:ops:main run model: mock/mock-1",
        "agent:ops:main assistant: All done",
        "agent:ops:main chat final (stop): All⏎done",
    ];
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(line.ends_with(want), "{line:?} should end with {want:?}");
        assert!(!line.contains("\"runId\""), "a raw JSON blob: {line}");
    }

    // --json keeps each event's frame.
    let lines = watch_lines(&gateway, &["--json"], 3);
    let events: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events[0]["event"], "agent");
    assert_eq!(
        events[0]["payload"]["data"]["model"], "mock-1",
        "{}",
        events[0]
    );
    assert_eq!(
        events[2]["payload"]["message"]["content"][0]["text"],
        "All\ndone"
    );
}
