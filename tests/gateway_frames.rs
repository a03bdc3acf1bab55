//! Handshake signing and frame parsing against frames recorded from the real OpenClaw 2026.9.6
//! gateway (tests/fixtures/gateway/, recorded with `CLAWDECK_LOG=trace clawdeck gateway watch`,
//! target `clawdeck_gateway::wire`, with the device key in device-identity.json).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use clawdeck_gateway::connection::connect_params;
use clawdeck_gateway::frames::{Challenge, Frame, Hello, parse_frame};
use clawdeck_gateway::identity::IDENTITY_FILE;
use clawdeck_gateway::watch::{ToolCallTracker, WatchKind, classify};
use clawdeck_gateway::{ConnectOptions, DeviceIdentity, GatewayAuth};
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gateway");

/// (direction, frame) per recorded line.
fn recorded(file: &str) -> Vec<(String, Value)> {
    std::fs::read_to_string(format!("{FIXTURES}/{file}"))
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            (v["dir"].as_str().unwrap().to_string(), v["frame"].clone())
        })
        .collect()
}

fn fixture_identity() -> DeviceIdentity {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join(IDENTITY_FILE);
    std::fs::copy(format!("{FIXTURES}/device-identity.json"), &key).unwrap();
    // A private key is used only when nobody else can read it (the checkout's copy is 0644).
    std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    DeviceIdentity::load_or_create(dir.path()).unwrap()
}

#[test]
fn recorded_connect_request_is_reproduced_byte_for_byte_from_the_challenge() {
    let frames = recorded("handshake.jsonl");
    let (dir, challenge_frame) = &frames[0];
    assert_eq!(dir, "in");
    let Frame::Event(ev) = parse_frame(&challenge_frame.to_string()).unwrap() else {
        panic!("first frame is not an event");
    };
    assert_eq!(ev.event, "connect.challenge");
    let challenge = Challenge::from_payload(&ev.payload).unwrap();

    let (dir, connect) = &frames[1];
    assert_eq!(dir, "out");
    let recorded_params = &connect["params"];
    let identity = fixture_identity();
    assert_eq!(recorded_params["device"]["id"], identity.device_id());
    let options = ConnectOptions {
        platform: "linux".into(),
        client_version: recorded_params["client"]["version"]
            .as_str()
            .unwrap()
            .into(),
        ..ConnectOptions::default()
    };
    let token = recorded_params["auth"]["token"].as_str().unwrap();
    let params = connect_params(
        &challenge,
        &GatewayAuth::Token(token.into()),
        &identity,
        &options,
    );
    // ed25519 signatures are deterministic: the same key, nonce and fields sign identically.
    assert_eq!(&params, recorded_params);
    assert_eq!(params["device"]["signedAt"], ev.payload["ts"]);
    assert_eq!(params["device"]["nonce"], ev.payload["nonce"]);

    // ...and the gateway accepted exactly that: the next frame is its hello-ok.
    let (dir, hello) = &frames[2];
    assert_eq!(dir, "in");
    let Frame::Res(res) = parse_frame(&hello.to_string()).unwrap() else {
        panic!("third frame is not a response");
    };
    assert!(res.ok);
    assert_eq!(res.id, "connect");
    let hello = Hello::from_payload(&res.payload).unwrap();
    assert_eq!(hello.protocol, 4);
    assert_eq!(hello.server_version, "2026.9.6");
    assert_eq!(hello.role, "operator");
    for scope in ["operator.read", "operator.write", "operator.approvals"] {
        assert!(hello.scopes.iter().any(|s| s == scope), "{scope}");
    }
    for method in [
        "sessions.subscribe",
        "tools.effective",
        "tools.catalog",
        "exec.approval.resolve",
    ] {
        assert!(hello.methods.iter().any(|m| m == method), "{method}");
    }
    assert!(hello.events.iter().any(|e| e == "exec.approval.requested"));
}

#[test]
fn a_changed_field_breaks_the_signature() {
    let frames = recorded("handshake.jsonl");
    let Frame::Event(ev) = parse_frame(&frames[0].1.to_string()).unwrap() else {
        panic!()
    };
    let mut challenge = Challenge::from_payload(&ev.payload).unwrap();
    challenge.nonce.push('x');
    let params = connect_params(
        &challenge,
        &GatewayAuth::Token("realclaw-test-token".into()),
        &fixture_identity(),
        &ConnectOptions {
            platform: "linux".into(),
            client_version: "0.1.0".into(),
            ..ConnectOptions::default()
        },
    );
    assert_ne!(
        params["device"]["signature"],
        frames[1].1["params"]["device"]["signature"]
    );
}

#[test]
fn every_recorded_frame_parses_and_the_exec_run_reads_as_tool_events() {
    let frames = recorded("exec-run.jsonl");
    assert!(frames.len() > 20);
    let mut tracker = ToolCallTracker::default();
    let mut tools = Vec::new();
    let mut messages = Vec::new();
    for (_, frame) in &frames {
        let Frame::Event(ev) = parse_frame(&frame.to_string()).unwrap() else {
            continue;
        };
        let mut item = classify("gw", &ev.event, &ev.payload);
        tracker.annotate(&mut item);
        match &item.kind {
            WatchKind::Tool(call) => tools.push((item.session_key.clone(), call.clone())),
            WatchKind::Message { role, text } => messages.push((role.clone(), text.clone())),
            _ => {}
        }
    }
    let phases: Vec<&str> = tools.iter().map(|(_, c)| c.phase.as_str()).collect();
    assert_eq!(phases, ["start", "update", "result"]);
    for (key, call) in &tools {
        assert_eq!(key.as_deref(), Some("agent:ops:explicit:g1"));
        assert_eq!(call.name, "exec");
        assert_eq!(call.call_id, "call_mock_1");
        assert_eq!(call.args["command"], "echo x", "{:?}", call.phase);
    }
    let result = &tools[2].1;
    assert_eq!(result.output.as_deref(), Some("x"));
    assert!(!result.is_error);
    assert!(result.duration_ms.is_some());
    assert!(messages.contains(&(
        "user".to_string(),
        r#"CALL exec {"command":"echo x"}"#.to_string()
    )));
    assert!(messages.contains(&("assistant".to_string(), "tool exec returned: x".to_string())));
}

/// `gateway watch` without --json: each recorded event of a real run reads as one line of words
/// (a run's progress, a chat reply, a task), never a raw JSON blob.
#[test]
fn every_recorded_event_reads_as_a_one_line_summary() {
    use clawdeck_gateway::watch::describe_event;
    let mut lines = Vec::new();
    for (_, frame) in recorded("exec-run.jsonl") {
        let Frame::Event(ev) = parse_frame(&frame.to_string()).unwrap() else {
            continue;
        };
        let item = classify("gw", &ev.event, &ev.payload);
        let line = describe_event(&item);
        assert!(!line.contains('\n'), "{line}");
        assert!(line.chars().count() < 400, "{line}");
        for key in ["\"sessionKey\"", "\"runId\"", "\"data\""] {
            assert!(!line.contains(key), "a raw JSON blob: {line}");
        }
        lines.push(line);
    }
    let has = |needle: &str| lines.iter().any(|l| l.as_str() == needle);
    let session = "[gw] agent:ops:explicit:g1";
    for expected in [
        format!("{session} run start"),
        format!("{session} run model: mock/mock-1"),
        format!("{session} usage: outputTokens 20"),
        format!("{session} tool Exec print text start (running)"),
        format!("{session} command print text end, exit 0 after 124 ms: x"),
        format!("{session} changed (model)"),
        format!("{session} assistant:  exec returned: x"),
        format!("{session} chat delta: tool"),
        format!("{session} chat final (stop): tool exec returned: x"),
        format!("{session} run end: stop"),
        format!("{session} task upserted: CALL exec {{\"command\":\"echo x\"}} (completed)"),
    ] {
        assert!(
            has(&expected),
            "{expected:?} not among\n{}",
            lines.join("\n")
        );
    }
}

/// A status event shows its phase, from a `chat` event (`state: "status"`) and from the agent's
/// `status` stream.
#[test]
fn a_status_event_shows_its_phase() {
    use clawdeck_gateway::watch::describe_event;
    let chat = classify(
        "gw",
        "chat",
        &json!({"runId": "r", "sessionKey": "agent:ops:main", "state": "status", "phase": "starting_model"}),
    );
    assert_eq!(
        describe_event(&chat),
        "[gw] agent:ops:main chat status starting_model"
    );
    let agent = classify(
        "gw",
        "agent",
        &json!({"runId": "r", "sessionKey": "agent:ops:main", "stream": "status",
                "data": {"phase": "running_tool"}}),
    );
    assert_eq!(
        describe_event(&agent),
        "[gw] agent:ops:main status running_tool"
    );
}
