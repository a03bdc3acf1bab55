//! `clawdeck chat` and `gateway abort | steer | send` against a local fake gateway (no OpenClaw
//! needed): what they send and how they print the turn. The real gateway: tests/chat_real.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::{Duration, Instant};

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

/// The fake's sessions: `agent:main:main` and these.
fn listing(keys: &[&str]) -> Value {
    let mut rows = vec![json!({"key": "agent:main:main", "agentId": "main", "updatedAt": 1})];
    rows.extend(
        keys.iter()
            .map(|k| json!({"key": k, "agentId": "ops", "updatedAt": 2})),
    );
    json!({ "sessions": rows })
}

#[test]
fn abort_steer_and_send_call_their_methods() {
    let gateway = FakeGateway::start(
        Script::everything().answer("sessions.list", listing(&["agent:ops:main"])),
    );
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

/// Two gateways: abort, steer and send reach the one that has the session (a gateway that
/// offers `sessions.describe` is asked that, the other its `sessions.list`); a session no
/// gateway has, or two have, gets nothing sent.
#[test]
fn actions_reach_the_gateway_that_has_the_session_and_none_other() {
    let describes = |hello_methods: &[&str]| {
        json!({
            "type": "hello-ok", "protocol": 4,
            "server": {"version": "2026.9.6", "connId": "c1"},
            "features": {"methods": hello_methods, "events": []},
            "snapshot": {}, "auth": {"role": "operator", "scopes": ["operator.read", "operator.write"]},
            "policy": {"tickIntervalMs": 15000}})
    };
    // The first lists its sessions (as 2026.8 does); the second describes one key (as 2026.9).
    let first = FakeGateway::start(
        Script::everything().answer("sessions.list", listing(&["agent:ops:both"])),
    );
    let second = FakeGateway::start(
        Script::everything()
            .answer(
                "connect",
                describes(&[
                    "sessions.list",
                    "sessions.describe",
                    "chat.send",
                    "sessions.abort",
                    "sessions.send",
                ]),
            )
            .answer_with("sessions.describe", |params| match params["key"].as_str() {
                Some("agent:ops:job" | "agent:ops:both") => {
                    json!({"session": {"key": params["key"], "hasActiveRun": true}})
                }
                _ => json!({"session": null}),
            }),
    );
    let state = tempfile::tempdir().unwrap();
    let on_both = |args: &[&str]| {
        clawdeck(&first, state.path())
            .args(args)
            .args(["--gateway", &first.url, "--gateway", &second.url])
            .output()
            .unwrap()
    };
    let acting = ["sessions.abort", "chat.abort", "chat.send", "sessions.send"];
    let acted = |gateway: &FakeGateway| -> Vec<String> {
        gateway
            .methods()
            .into_iter()
            .filter(|m| acting.contains(&m.as_str()))
            .collect()
    };

    for args in [
        vec!["gateway", "abort", "agent:ops:job"],
        vec!["gateway", "steer", "agent:ops:job", "-m", "use staging"],
        vec!["gateway", "send", "agent:ops:job", "-m", "and backups"],
    ] {
        let out = on_both(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let second_name = second.url.trim_start_matches("ws://");
        assert!(stdout.starts_with(second_name), "{args:?}: {stdout}");
    }
    assert_eq!(
        acted(&first),
        Vec::<String>::new(),
        "the first has no agent:ops:job"
    );
    assert_eq!(
        acted(&second),
        ["sessions.abort", "chat.send", "sessions.send"]
    );
    let describe = request(&second, "sessions.describe");
    assert_eq!(describe["params"], json!({"key": "agent:ops:job"}));

    // No gateway has it: nothing sent, each gateway's answer named.
    let out = on_both(&["gateway", "steer", "agent:ops:gone", "-m", "hi"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no gateway has session agent:ops:gone; nothing sent"),
        "{err}"
    );
    assert_eq!(err.matches("no session agent:ops:gone").count(), 2, "{err}");
    // Both have it: refused, both named.
    let out = on_both(&["gateway", "abort", "agent:ops:both"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is on 2 gateways"), "{err}");
    assert_eq!(acted(&first), Vec::<String>::new());
    assert_eq!(
        acted(&second),
        ["sessions.abort", "chat.send", "sessions.send"]
    );
}

/// Ctrl-C while the gateway has not yet answered `chat.send` (it answers after 5 s, longer than
/// the 3 s a mode gets to wind down): the turn may start all the same, so chat aborts the run
/// by its id (the idempotency key) at once, and exits 130.
#[test]
fn ctrl_c_before_the_gateway_took_the_message_still_aborts_the_turn() {
    let gateway = FakeGateway::start(
        Script::everything()
            .slow("chat.send", Duration::from_secs(5))
            .answer("sessions.list", listing(&["agent:ops:main"])),
    );
    let state = tempfile::tempdir().unwrap();
    let child = clawdeck(&gateway, state.path())
        .args(["chat", "--session", "agent:ops:main", "-m", "go"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !gateway.methods().iter().any(|m| m == "chat.send") {
        assert!(Instant::now() < deadline, "chat.send never came");
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // This fake answers one request at a time: the abort is read once chat.send is answered.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !gateway.methods().iter().any(|m| m == "sessions.abort") {
        assert!(
            Instant::now() < deadline,
            "no abort was sent: {:?}\n{}",
            gateway.methods(),
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let sent = request(&gateway, "chat.send");
    let aborted = request(&gateway, "sessions.abort");
    assert_eq!(aborted["params"]["key"], "agent:ops:main");
    assert_eq!(
        aborted["params"]["runId"], sent["params"]["idempotencyKey"],
        "the abort names the run the message started"
    );
}
