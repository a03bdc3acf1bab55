//! History, paging, health and logs against a real OpenClaw gateway of the test's own
//! (support::own_gateway: free ports, a private home). The Done-means of issue 22's history
//! item: a turn run before clawdeck looked at the session appears in the session's backfilled
//! transcript when the session is then followed. The same gateway answers `gateway history`,
//! `gateway sessions`, `gateway health` (health, status, system-presence, sessions.usage) and
//! `gateway logs` (logs.tail). Needs OPENCLAW_BIN and ../shared/realclaw; ignored otherwise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clawdeck_gateway::feed::{RosterSink, spawn_roster_feed};
use clawdeck_gateway::history::{HISTORY, parse_history};
use clawdeck_gateway::transcript::{SessionTranscript, TranscriptEntry};
use clawdeck_gateway::{Backoff, ClientEvent, DeviceIdentity};
use serde_json::Value;
use support::own_gateway::OwnGateway;
use tokio_util::sync::CancellationToken;

/// Runs a turn through the gateway with OpenClaw's own CLI (not clawdeck): its `agent` method,
/// waiting for the final answer. (`openclaw agent` without `--local` may run the turn embedded
/// when it cannot reach the gateway, and the gateway then never lists the session: seen twice
/// on CI.)
fn run_turn(gateway: &OwnGateway, key: &str, message: &str) {
    let params = serde_json::json!({
        "message": message,
        "agentId": "ops",
        "sessionKey": key,
        "idempotencyKey": format!("clawdeck-history-{}", std::process::id()),
    });
    let out = Command::new(gateway.openclaw_bin())
        .env("REALCLAW_HOME", gateway.home())
        .args(["gateway", "call", "agent", "--expect-final", "--json"])
        .args(["--timeout", "120000"])
        .args([
            "--port",
            &gateway.port().to_string(),
            "--token",
            &gateway.token,
        ])
        .args(["--params", &params.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openclaw gateway call agent: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn clawdeck(gateway: &OwnGateway, state: &std::path::Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
        .env("OPENCLAW_CONFIG_PATH", state.join("none.json"))
        .env("XDG_STATE_HOME", state)
        .env("HOME", state)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // `logs --json` prints one JSON value per line; the others one document.
    serde_json::from_str(&text).unwrap_or_else(|_| {
        Value::Array(
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect(),
        )
    })
}

/// Waits until the gateway's `sessions.list` (through `clawdeck gateway sessions`) has `key`.
fn wait_listed(gateway: &OwnGateway, key: &str) {
    let state = tempfile::tempdir().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let sessions = clawdeck(gateway, state.path(), &["gateway", "sessions", "--json"]);
        let listed = sessions
            .as_array()
            .is_some_and(|rows| rows.iter().any(|r| r["session"]["key"] == key));
        if listed {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{key} not listed by the gateway within 60 s: {sessions}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Waits for an event the feed passed on that satisfies `pred`.
async fn wait_event(
    seen: &Mutex<Vec<(String, ClientEvent)>>,
    what: &str,
    pred: impl Fn(&ClientEvent) -> bool,
) -> ClientEvent {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some((_, event)) = seen.lock().unwrap().iter().find(|(_, e)| pred(e)) {
            return event.clone();
        }
        assert!(Instant::now() < deadline, "{what}: not seen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
async fn an_earlier_turn_appears_in_the_backfilled_history_and_the_gateway_reports_health_and_logs()
{
    let Some(gateway) = OwnGateway::start() else {
        eprintln!(
            "gateway_history_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)"
        );
        return;
    };
    let session_id = format!("cdhist{}", std::process::id());
    let marker = format!("earlier turn {session_id}");
    let key = format!("agent:ops:explicit:{session_id}");
    run_turn(&gateway, &key, &marker);
    // The gateway lists a session once its store is written, which may be a moment after the
    // CLI's turn returns (seen once on a loaded CI machine: an empty first list).
    wait_listed(&gateway, &key);

    // The console's feed, attached only now: following the session backfills its history.
    let state = tempfile::tempdir().unwrap();
    let identity = DeviceIdentity::load_or_create(state.path()).unwrap();
    let seen: Arc<Mutex<Vec<(String, ClientEvent)>>> = Arc::default();
    let fed = seen.clone();
    let sink: RosterSink = Arc::new(move |gateway, event| {
        fed.lock().unwrap().push((gateway, event));
        true
    });
    let stop = CancellationToken::new();
    let endpoint = support::token_endpoint("real", &gateway.url, &gateway.token);
    let follow = spawn_roster_feed(
        vec![endpoint],
        identity,
        Backoff::default(),
        sink,
        stop.clone(),
    );
    let snapshot = wait_event(
        &seen,
        "the roster snapshot",
        |e| matches!(e, ClientEvent::Subscribed { method, .. } if method == "sessions.list"),
    )
    .await;
    let ClientEvent::Subscribed { payload, .. } = snapshot else {
        unreachable!()
    };
    assert!(
        payload["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["key"] == key.as_str()),
        "{key} in {payload}"
    );
    follow.follow("real", &key);
    let history = wait_event(
        &seen,
        "the followed session's chat.history",
        |e| matches!(e, ClientEvent::Subscribed { method, .. } if method == HISTORY),
    )
    .await;
    let ClientEvent::Subscribed { payload, .. } = history else {
        unreachable!()
    };
    let mut transcript = SessionTranscript::new();
    assert!(
        transcript.backfill(&parse_history(&key, &payload)) >= 2,
        "{payload}"
    );
    let texts: Vec<(String, String)> = transcript
        .entries()
        .filter_map(|e| match e {
            TranscriptEntry::Message { role, text, .. } => Some((role.clone(), text.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(texts[0], ("user".to_string(), marker.clone()), "{texts:?}");
    assert_eq!(texts[1].0, "assistant", "{texts:?}");
    stop.cancel();

    // The headless twins against the same gateway.
    let cli_state = tempfile::tempdir().unwrap();
    let printed = clawdeck(
        &gateway,
        cli_state.path(),
        &["gateway", "history", &key, "--json"],
    );
    assert_eq!(
        printed[0]["entries"][0]["text"],
        marker.as_str(),
        "{printed}"
    );
    let sessions = clawdeck(
        &gateway,
        cli_state.path(),
        &["gateway", "sessions", "--json"],
    );
    assert!(
        sessions
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["session"]["key"] == key.as_str())
    );
    let health = clawdeck(&gateway, cli_state.path(), &["gateway", "health", "--json"]);
    let h = &health[0]["health"];
    assert!(
        h["version"].as_str().unwrap().starts_with("2026."),
        "{health}"
    );
    assert!(h["uptimeMs"].as_u64().unwrap() > 0, "{health}");
    assert_eq!(h["ok"], true, "{health}");
    assert!(h["sessions"].as_u64().unwrap() >= 1, "{health}");
    let usage = health[0]["usage"].as_array().unwrap();
    assert!(usage.iter().any(|u| u["key"] == key.as_str()), "{health}");
    let logs = clawdeck(&gateway, cli_state.path(), &["gateway", "logs", "--json"]);
    let lines = logs.as_array().unwrap();
    assert!(!lines.is_empty(), "logs.tail gave no line");
    assert!(
        lines.iter().any(|l| l["subsystem"]
            .as_str()
            .is_some_and(|s| s.starts_with("gateway"))),
        "{logs}"
    );
}
