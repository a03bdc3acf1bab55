//! `clawdeck route --transport gateway` against a local fake gateway (no OpenClaw needed): the
//! fake does the v4 handshake, accepts the `agent` request, then either replays the frames the
//! real 2026.9.6 gateway sent for a `CALL exec {"command":"echo x"}` run (tests/fixtures) or
//! stays silent. The silent one must end at the deadline and be aborted on the gateway.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const RECORDED_RUN: &str = "b644a7c6-299b-4471-981f-d4df629256d8";

/// The recorded run's event frames.
fn recorded_events() -> Vec<String> {
    include_str!("fixtures/gateway/exec-run.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["frame"]["type"] == "event")
        .map(|v| v["frame"].to_string())
        .collect()
}

/// Serves connections: challenge, hello-ok, `agent` → accepted (then `events`), any other
/// request → ok. Every request method is recorded in `seen`. The first `starting`
/// connects are refused the way a booting OpenClaw gateway refuses them.
async fn fake_gateway(
    listener: TcpListener,
    events: Vec<String>,
    seen: Arc<Mutex<Vec<Value>>>,
    starting: usize,
) {
    let refused = Arc::new(AtomicUsize::new(0));
    while let Ok((stream, _)) = listener.accept().await {
        let events = events.clone();
        let seen = seen.clone();
        let refused = refused.clone();
        tokio::spawn(async move {
            let mut ws = tokio_tungstenite::accept_async(stream).await.unwrap();
            let challenge = json!({"type": "event", "event": "connect.challenge",
                "payload": {"nonce": "fake-nonce", "ts": 1u64}});
            ws.send(Message::text(challenge.to_string())).await.unwrap();
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Text(text) = msg else { continue };
                let req: Value = serde_json::from_str(&text).unwrap();
                seen.lock().unwrap().push(req.clone());
                if req["method"] == "connect" && refused.fetch_add(1, Ordering::SeqCst) < starting {
                    // OpenClaw 2026.9.6's answer while its sidecars start, then close 1013.
                    let res = json!({"type": "res", "id": req["id"], "ok": false, "error": {
                        "code": "UNAVAILABLE", "message": "gateway starting; retry shortly",
                        "retryable": true, "retryAfterMs": 100,
                        "details": {"reason": "startup-sidecars"}}});
                    ws.send(Message::text(res.to_string())).await.unwrap();
                    let _ = ws
                        .close(Some(CloseFrame {
                            code: CloseCode::Again,
                            reason: "gateway starting".into(),
                        }))
                        .await;
                    return;
                }
                let payload = match req["method"].as_str().unwrap_or("") {
                    "connect" => json!({
                        "type": "hello-ok", "protocol": 4,
                        "server": {"version": "fake", "connId": "c1"},
                        "features": {"methods": ["agent", "sessions.abort"], "events": []},
                        "snapshot": {},
                        "auth": {"role": "operator", "scopes": ["operator.read", "operator.write"]},
                        "policy": {"tickIntervalMs": 15000}}),
                    "agent" => json!({"runId": RECORDED_RUN, "status": "accepted"}),
                    _ => json!({"ok": true}),
                };
                let res = json!({"type": "res", "id": req["id"], "ok": true, "payload": payload});
                ws.send(Message::text(res.to_string())).await.unwrap();
                if req["method"] == "agent" {
                    for frame in &events {
                        ws.send(Message::text(frame.clone())).await.unwrap();
                    }
                }
            }
        });
    }
}

async fn start(events: Vec<String>) -> (String, Arc<Mutex<Vec<Value>>>) {
    start_after(events, 0).await
}

/// A fake gateway that refuses its first `starting` connects as still starting.
async fn start_after(events: Vec<String>, starting: usize) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    tokio::spawn(fake_gateway(listener, events, seen.clone(), starting));
    (url, seen)
}

/// Runs `clawdeck route --transport gateway --json` against `url` off the async runtime.
async fn route(url: &str, timeout: &str) -> (Option<i32>, Value, Duration) {
    let state = tempfile::tempdir().unwrap();
    let s = state.path().to_path_buf();
    std::fs::write(s.join("openclaw.json"), "{}").unwrap();
    let url = url.to_string();
    let timeout = timeout.to_string();
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
            .args([
                "route",
                "--transport",
                "gateway",
                "--agent",
                "ops",
                "--timeout",
                &timeout,
                "--json",
                "-m",
                r#"CALL exec {"command":"echo x"}"#,
            ])
            .env("OPENCLAW_GATEWAY_URL", &url)
            .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
            .env("XDG_STATE_HOME", &s)
            .env("XDG_CONFIG_HOME", &s)
            .env("OPENCLAW_CONFIG_PATH", s.join("openclaw.json"))
            .output()
            .unwrap();
        let took = started.elapsed();
        eprintln!("stderr: {}", String::from_utf8_lossy(&out.stderr));
        let result: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        drop(state);
        (out.status.code(), result, took)
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_run_is_the_raw_output_with_its_tool_calls_as_notes() {
    let (url, seen) = start(recorded_events()).await;
    let (code, result, _) = route(&url, "30").await;
    assert_eq!(code, Some(0), "{result}");
    assert_eq!(result["content"][0]["text"], "tool exec returned: x");
    assert_eq!(result["details"]["transport"], "gateway");
    let notes: Vec<String> = serde_json::from_value(result["details"]["notes"].clone()).unwrap();
    assert!(
        notes.contains(&r#"remote tool exec started: {"command":"echo x"}"#.to_string()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"remote tool exec returned: x".to_string()),
        "{notes:?}"
    );
    let seen = seen.lock().unwrap();
    let agent = seen.iter().find(|r| r["method"] == "agent").unwrap();
    assert_eq!(agent["params"]["agentId"], "ops");
    // No mode given: the message goes verbatim.
    assert_eq!(
        agent["params"]["message"],
        r#"CALL exec {"command":"echo x"}"#
    );
    assert!(agent["params"]["idempotencyKey"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_gateway_run_ends_at_its_deadline_and_is_aborted() {
    let (url, seen) = start(Vec::new()).await;
    let (code, result, took) = route(&url, "1").await;
    assert_eq!(code, Some(1), "{result}");
    assert_eq!(result["details"]["status"], "timeout", "{result}");
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("超过 1 秒未完成"),
        "{result}"
    );
    // Deadline 1 s + the abort's bound (2 s) + process start-up.
    assert!(took < Duration::from_secs(8), "took {took:?}");
    let seen = seen.lock().unwrap();
    let abort = seen
        .iter()
        .find(|r| r["method"] == "sessions.abort")
        .expect("the run is aborted on the gateway");
    assert_eq!(abort["params"]["runId"], RECORDED_RUN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_still_starting_is_waited_out_and_the_run_succeeds() {
    let (url, seen) = start_after(recorded_events(), 3).await;
    let (code, result, _) = route(&url, "30").await;
    assert_eq!(code, Some(0), "{result}");
    assert_eq!(result["content"][0]["text"], "tool exec returned: x");
    let seen = seen.lock().unwrap();
    let connects = seen.iter().filter(|r| r["method"] == "connect").count();
    assert_eq!(connects, 4, "three refusals, then the connect that worked");
    assert_eq!(seen.iter().filter(|r| r["method"] == "agent").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_that_never_gets_ready_ends_at_the_deadline_with_its_words() {
    let (url, seen) = start_after(recorded_events(), usize::MAX).await;
    let (code, result, took) = route(&url, "2").await;
    assert_eq!(code, Some(1), "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("is still starting: gateway starting; retry shortly (UNAVAILABLE)"),
        "{result}"
    );
    // Not before the deadline, and not long after it.
    assert!(took >= Duration::from_secs(2), "took {took:?}");
    assert!(took < Duration::from_secs(8), "took {took:?}");
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter().filter(|r| r["method"] == "connect").count() >= 3,
        "retried while it was starting"
    );
    assert!(!seen.iter().any(|r| r["method"] == "agent"), "never ran");
}
