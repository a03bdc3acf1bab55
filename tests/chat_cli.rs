//! `clawdeck chat` and `gateway abort | steer | send` against a local fake gateway (no OpenClaw
//! needed): what they send and how they print the turn. The real gateway: tests/chat_real.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::{Value, json};
use support::fake_gateway::{FakeGateway, Script, clawdeck_on as clawdeck};

fn request(gateway: &FakeGateway, method: &str) -> Value {
    gateway
        .requests
        .lock()
        .unwrap()
        .iter()
        .find(|r| r["method"] == method)
        .cloned()
        .unwrap_or_else(|| panic!("no {method} request: {:?}", gateway.methods()))
}

#[test]
fn chat_sends_one_turn_and_prints_its_events_as_json_lines() {
    let gateway = FakeGateway::start(Script::everything());
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(&gateway, state.path())
        .args(["chat", "--session", "agent:ops:main", "--agent", "ops"])
        .args(["-m", "how is the disk?", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kinds: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(kinds, ["started", "delta", "final"], "{text}");
    let sent = request(&gateway, "chat.send");
    assert_eq!(sent["params"]["sessionKey"], "agent:ops:main");
    assert_eq!(sent["params"]["agentId"], "ops");
    assert_eq!(sent["params"]["message"], "how is the disk?");
    let run = sent["params"]["idempotencyKey"].as_str().unwrap();
    let started: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        started["runId"], run,
        "the run is named by the idempotency key"
    );
}

#[test]
fn chat_text_output_is_the_reply() {
    let gateway = FakeGateway::start(Script::everything());
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(&gateway, state.path())
        .args(["chat", "--session", "agent:main:main", "-m", "hi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Summary: all good.\n");
}

#[test]
fn a_gateway_without_the_method_is_said_not_to_offer_it() {
    let hello = json!({
        "type": "hello-ok", "protocol": 4,
        "server": {"version": "2026.9.6", "connId": "c1"},
        "features": {"methods": ["sessions.list"], "events": []},
        "snapshot": {}, "auth": {"role": "operator", "scopes": ["operator.read"]},
        "policy": {"tickIntervalMs": 15000}});
    let gateway = FakeGateway::start(Script::everything().answer("connect", hello));
    let state = tempfile::tempdir().unwrap();
    for args in [
        vec!["chat", "--session", "agent:main:main", "-m", "hi"],
        vec!["gateway", "abort", "agent:main:main"],
        vec!["gateway", "steer", "agent:main:main", "-m", "hi"],
        vec!["gateway", "send", "agent:main:main", "-m", "hi"],
    ] {
        let out = clawdeck(&gateway, state.path())
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("the gateway does not offer"),
            "{args:?}: {err}"
        );
    }
    let sent = gateway.methods();
    for method in ["chat.send", "sessions.abort", "chat.abort", "sessions.send"] {
        assert!(
            !sent.iter().any(|m| m == method),
            "{method} was called: {sent:?}"
        );
    }
}

#[test]
fn abort_steer_and_send_call_their_methods() {
    let gateway = FakeGateway::start(Script::everything());
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(&gateway, state.path())
        .args(["gateway", "abort", "agent:ops:main", "--run", "r1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("agent:ops:main: no-active-run"));
    assert_eq!(
        request(&gateway, "sessions.abort")["params"],
        json!({"key": "agent:ops:main", "runId": "r1"})
    );
    let out = clawdeck(&gateway, state.path())
        .args(["gateway", "steer", "agent:ops:main", "-m", "use staging"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let steer = request(&gateway, "chat.send");
    assert_eq!(steer["params"]["queueMode"], "steer");
    assert_eq!(steer["params"]["message"], "use staging");
    let out = clawdeck(&gateway, state.path())
        .args([
            "gateway",
            "send",
            "agent:ops:main",
            "-m",
            "and backups",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["action"], "send");
    assert_eq!(line["result"]["runId"], "fake-run");
    assert_eq!(
        request(&gateway, "sessions.send")["params"]["key"],
        "agent:ops:main"
    );
}
