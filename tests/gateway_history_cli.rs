//! The headless history, paging, health and log commands against a local fake gateway (no
//! OpenClaw needed): `gateway sessions` reads every `sessions.list` page, `gateway history`
//! prints a session's earlier transcript, `gateway health` its version, uptime, clients and
//! usage, `gateway logs` the log tail (filtered, sanitized) and, with --follow, only what is new
//! on each poll (the cursor).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::fake_gateway::{FakeGateway, Script, clawdeck_on as clawdeck};

fn run(gateway: &FakeGateway, args: &[&str]) -> String {
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(gateway, state.path()).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `sessions.list` of a gateway with `total` sessions, paged as OpenClaw pages it.
fn paged_sessions(total: u64) -> impl Fn(&Value) -> Value + Send + Sync {
    move |params: &Value| {
        let limit = params["limit"].as_u64().unwrap_or(100);
        let offset = params["offset"].as_u64().unwrap_or(0);
        let end = (offset + limit).min(total);
        let rows: Vec<Value> = (offset..end)
            .map(|n| json!({"key": format!("agent:ops:s{n:04}"), "agentId": "ops", "kind": "direct", "updatedAt": n}))
            .collect();
        json!({"sessions": rows, "count": end - offset, "totalCount": total, "limitApplied": limit,
            "hasMore": end < total, "nextOffset": if end < total { json!(end) } else { Value::Null }})
    }
}

#[test]
fn gateway_sessions_shows_every_page_of_a_large_gateway() {
    let gateway =
        FakeGateway::start(Script::default().answer_with("sessions.list", paged_sessions(250)));
    let rows: Vec<Value> =
        serde_json::from_str(&run(&gateway, &["gateway", "sessions", "--json"])).unwrap();
    assert_eq!(rows.len(), 250);
    assert_eq!(rows[249]["session"]["key"], "agent:ops:s0249");
    let offsets: Vec<Value> = gateway
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == "sessions.list")
        .map(|r| r["params"]["offset"].clone())
        .collect();
    assert_eq!(offsets, [Value::Null, json!(100), json!(200)]);
}

#[test]
fn gateway_history_prints_a_sessions_earlier_turns() {
    let recorded: Value =
        serde_json::from_str(include_str!("fixtures/gateway/chat-history.json")).unwrap();
    let gateway = FakeGateway::start(Script::default().answer("chat.history", recorded));
    let text = run(
        &gateway,
        &["gateway", "history", "agent:ops:explicit:hist1"],
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("agent:ops:explicit:hist1  6 entries"),
        "{text}"
    );
    assert_eq!(lines[1], "     user │ hello earlier turn");
    assert!(
        text.contains(r#"     tool │ exec ok {"command":"echo hi"}"#),
        "{text}"
    );
    assert!(text.contains("          │ ▏ hi"), "{text}");
    let asked = gateway.requests.lock().unwrap().clone();
    let history = asked
        .iter()
        .find(|r| r["method"] == "chat.history")
        .unwrap();
    assert_eq!(history["params"]["sessionKey"], "agent:ops:explicit:hist1");
    let json: Value = serde_json::from_str(&run(
        &gateway,
        &["gateway", "history", "agent:ops:explicit:hist1", "--json"],
    ))
    .unwrap();
    assert_eq!(json[0]["entries"][4]["kind"], "tool");
    assert_eq!(json[0]["entries"][4]["outcome"], "ok");
}

#[test]
fn gateway_health_reports_version_uptime_clients_and_usage() {
    let hello = json!({"type": "hello-ok", "protocol": 4,
        "server": {"version": "2026.9.6", "connId": "c1"}, "features": {"methods": [], "events": []},
        "snapshot": {"uptimeMs": 3_725_000u64},
        "auth": {"role": "operator", "scopes": ["operator.read"]}, "policy": {}});
    let gateway = FakeGateway::start(
        Script::default()
            .answer("connect", hello)
            .answer("health", json!({"ok": true, "durationMs": 3}))
            .answer("status", json!({"runtimeVersion": "2026.9.6", "sessions": {"count": 2}, "tasks": {"active": 0}}))
            .answer("system-presence", json!([{"host": "vm", "mode": "gateway", "reason": "self"},
                {"host": "ops-laptop", "mode": "cli", "reason": "connect"}]))
            .answer("sessions.usage", json!({"sessions": [{"key": "agent:ops:main", "agentId": "ops",
                "model": "mock-1", "usage": {"totalTokens": 30, "totalCost": 0.25}}]})),
    );
    let text = run(&gateway, &["gateway", "health"]);
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("OpenClaw 2026.9.6  up 1h 2m  health ok  clients 1  sessions 2"),
        "{text}"
    );
    assert!(text.contains("client ops-laptop (cli)"), "{text}");
    let usage = text.lines().find(|l| l.contains("agent:ops:main")).unwrap();
    assert!(
        usage.contains("mock-1") && usage.contains("30") && usage.contains("0.2500"),
        "{usage}"
    );
    let json: Value =
        serde_json::from_str(&run(&gateway, &["gateway", "health", "--json"])).unwrap();
    assert_eq!(json[0]["health"]["clients"], json!(["ops-laptop (cli)"]));
    assert_eq!(json[0]["usage"][0]["totalTokens"], 30);
}

/// `logs.tail`: the log has `written` lines; a cursor returns only the lines after it.
fn log_of(
    written: std::sync::Arc<std::sync::atomic::AtomicU64>,
) -> impl Fn(&Value) -> Value + Send + Sync {
    move |params: &Value| {
        let end = written.load(std::sync::atomic::Ordering::SeqCst);
        let start = params["cursor"].as_u64().unwrap_or(0);
        let lines: Vec<String> = (start..end)
            .map(|n| json!({"time": "2026-11-25T03:47:32.988+00:00", "message": format!("line {n} \u{1b}]0;evil\u{7}ok"),
                "_meta": {"logLevelName": if n % 2 == 0 { "INFO" } else { "WARN" }, "name": "{\"subsystem\":\"gateway/ws\"}"}}).to_string())
            .collect();
        json!({"file": "/tmp/openclaw/openclaw.log", "cursor": end, "size": end, "lines": lines})
    }
}

#[test]
fn gateway_logs_prints_the_tail_filtered_and_sanitized() {
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(4));
    let gateway = FakeGateway::start(Script::default().answer_with("logs.tail", log_of(written)));
    let text = run(&gateway, &["gateway", "logs"]);
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with("03:47:32 INFO [gateway/ws] line 0 ok"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    let warn = run(&gateway, &["gateway", "logs", "--filter", "warn", "--json"]);
    let lines: Vec<Value> = warn
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{warn}");
    assert_eq!(lines[0]["level"], "warn");
    assert!(lines[0]["gateway"].as_str().is_some_and(|g| !g.is_empty()));
}

/// `gateway logs --follow` polling every 100 ms, its stdout piped to the test.
fn follow_logs(
    gateway: &FakeGateway,
    state: &std::path::Path,
) -> (std::process::Child, BufReader<std::process::ChildStdout>) {
    let mut child = clawdeck(gateway, state)
        .args(["gateway", "logs", "--follow", "--interval-ms", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    (child, out)
}

#[test]
fn gateway_logs_follow_prints_only_new_lines() {
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(2));
    let gateway =
        FakeGateway::start(Script::default().answer_with("logs.tail", log_of(written.clone())));
    let state = tempfile::tempdir().unwrap();
    let (mut child, mut out) = follow_logs(&gateway, state.path());
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while seen.len() < 4 && Instant::now() < deadline {
        if seen.len() == 2 {
            written.store(4, std::sync::atomic::Ordering::SeqCst);
        }
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push(line.trim_end().to_string());
    }
    let _ = child.kill();
    let _ = child.wait();
    let numbers: Vec<String> = seen
        .iter()
        .map(|l| l.split("line ").nth(1).unwrap_or("").to_string())
        .collect();
    assert_eq!(numbers, ["0 ok", "1 ok", "2 ok", "3 ok"], "{seen:?}");
    let polls = gateway
        .methods()
        .iter()
        .filter(|m| *m == "logs.tail")
        .count();
    assert!(polls >= 2, "polled {polls} times");
}

/// The Gateways view's feed (`clawdeck_gateway::pulse`) against the fake: attached, health, and
/// log lines in one batch per poll, each poll bringing only the lines written since the last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pulse_feed_polls_health_and_only_new_log_lines() {
    use clawdeck_gateway::pulse::{Pulse, PulseSink, spawn_gateway_pulse};
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(3));
    let gateway = FakeGateway::start(
        Script::default()
            .answer("health", json!({"ok": true}))
            .answer("status", json!({"runtimeVersion": "2026.9.6"}))
            .answer_with("logs.tail", log_of(written.clone())),
    );
    let seen: std::sync::Arc<std::sync::Mutex<Vec<Pulse>>> = std::sync::Arc::default();
    let fed = seen.clone();
    let sink: PulseSink = std::sync::Arc::new(move |_, pulse| {
        fed.lock().unwrap().push(pulse);
        true
    });
    let state = tempfile::tempdir().unwrap();
    let identity = clawdeck_gateway::DeviceIdentity::load_or_create(state.path()).unwrap();
    let stop = tokio_util::sync::CancellationToken::new();
    let endpoint = support::token_endpoint("fake", &gateway.url, "fake-token");
    spawn_gateway_pulse(
        vec![endpoint],
        identity,
        clawdeck_gateway::Backoff::default(),
        sink,
        stop.clone(),
    );
    let log_batches = |seen: &[Pulse]| -> Vec<usize> {
        seen.iter()
            .filter_map(|p| match p {
                Pulse::Logs(read) => Some(read.lines.len()),
                _ => None,
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while log_batches(&seen.lock().unwrap()).is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    written.store(5, std::sync::atomic::Ordering::SeqCst);
    while log_batches(&seen.lock().unwrap()).len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.cancel();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.first(), Some(&Pulse::Up), "{seen:?}");
    assert!(
        seen.iter().any(
            |p| matches!(p, Pulse::Health(h) if h.version == "2026.9.6" && h.ok == Some(true))
        ),
        "{seen:?}"
    );
    assert_eq!(
        log_batches(&seen),
        [3, 2],
        "one batch per poll, only new lines: {seen:?}"
    );
}

/// `gateway logs --follow | head -2`: once the reader has gone the command ends, even while the
/// log has nothing new to print.
#[test]
fn gateway_logs_follow_ends_when_its_reader_goes() {
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(3));
    let gateway = FakeGateway::start(Script::default().answer_with("logs.tail", log_of(written)));
    let state = tempfile::tempdir().unwrap();
    let (mut child, mut out) = follow_logs(&gateway, state.path());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // All three lines were written at once: the pipe took them; now the reader leaves.
    drop(out);
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "logs --follow still runs after its reader went"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `gateway history` of a session the gateway does not have says so and fails, instead of
/// printing an empty transcript.
#[test]
fn gateway_history_of_an_unknown_session_says_so() {
    let gateway = FakeGateway::start(Script::everything().answer(
        "chat.history",
        json!({"sessionKey": "agent:ops:nope", "messages": []}),
    ));
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(&gateway, state.path())
        .args(["gateway", "history", "agent:ops:nope"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no gateway has session agent:ops:nope"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
