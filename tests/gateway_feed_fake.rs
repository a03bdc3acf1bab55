//! The roster feed's session following against a local fake gateway (no OpenClaw needed):
//! choosing a session makes the feed call `sessions.messages.subscribe {key}` and pass that
//! session's recorded `session.tool` / `session.message` frames on; choosing another one
//! unsubscribes the first, and its later events are no longer passed on.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clawdeck_gateway::feed::{RosterSink, spawn_roster_feed};
use clawdeck_gateway::{Backoff, ClientEvent, DeviceIdentity, GatewayAuth, GatewayEndpoint};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

const FOLLOWED: &str = "agent:ops:explicit:g1";

/// The recorded run's transcript frames (all of session `FOLLOWED`).
fn recorded_session_frames() -> Vec<Value> {
    include_str!("fixtures/gateway/exec-run.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| v["frame"].clone())
        .filter(|f| f["event"] == "session.tool" || f["event"] == "session.message")
        .collect()
}

/// Answers the handshake and every request; after `sessions.messages.subscribe` for
/// `FOLLOWED` it replays the recorded transcript frames. Requests are recorded in `seen`.
async fn fake_gateway(listener: TcpListener, seen: Arc<Mutex<Vec<Value>>>) {
    while let Ok((stream, _)) = listener.accept().await {
        let seen = seen.clone();
        tokio::spawn(async move {
            let mut ws = tokio_tungstenite::accept_async(stream).await.unwrap();
            let challenge = json!({"type": "event", "event": "connect.challenge",
                "payload": {"nonce": "fake-nonce", "ts": 1u64}});
            ws.send(Message::text(challenge.to_string())).await.unwrap();
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Text(text) = msg else { continue };
                let req: Value = serde_json::from_str(&text).unwrap();
                seen.lock().unwrap().push(req.clone());
                let method = req["method"].as_str().unwrap_or("").to_string();
                let payload = match method.as_str() {
                    "connect" => json!({
                        "type": "hello-ok", "protocol": 4,
                        "server": {"version": "fake", "connId": "c1"},
                        "features": {"methods": [], "events": []}, "snapshot": {},
                        "auth": {"role": "operator", "scopes": ["operator.read"]},
                        "policy": {"tickIntervalMs": 15000}}),
                    "sessions.list" => json!({"sessions": [
                        {"key": FOLLOWED, "agentId": "ops", "kind": "direct", "updatedAt": 2},
                        {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
                    ]}),
                    _ => json!({"subscribed": true}),
                };
                let res = json!({"type": "res", "id": req["id"], "ok": true, "payload": payload});
                ws.send(Message::text(res.to_string())).await.unwrap();
                if method == "sessions.messages.subscribe" && req["params"]["key"] == FOLLOWED {
                    for frame in recorded_session_frames() {
                        ws.send(Message::text(frame.to_string())).await.unwrap();
                    }
                }
                if method == "sessions.messages.unsubscribe" {
                    // A late frame of the session left: the feed must not pass it on.
                    let late = json!({"type": "event", "event": "session.message", "payload": {
                        "sessionKey": FOLLOWED,
                        "message": {"role": "assistant", "content": "late"}}});
                    ws.send(Message::text(late.to_string())).await.unwrap();
                }
            }
        });
    }
}

async fn wait_until(what: &str, pred: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !pred() {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_feed_follows_the_chosen_session_only() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    tokio::spawn(fake_gateway(listener, seen.clone()));

    let passed: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let log = passed.clone();
    let sink: RosterSink = Arc::new(move |_gateway, event| {
        if let ClientEvent::Event(frame) = &event {
            log.lock()
                .unwrap()
                .push((frame.event.clone(), frame.payload.clone()));
        }
        true
    });
    let stop = CancellationToken::new();
    let follow = spawn_roster_feed(
        vec![GatewayEndpoint {
            name: "fake".into(),
            url,
            auth: GatewayAuth::Token("t".into()),
            origin: "test".into(),
        }],
        DeviceIdentity::from_seed([7; 32]),
        Backoff::default(),
        sink,
        stop.clone(),
    );
    let requests = |method: &str| -> Vec<Value> {
        seen.lock()
            .unwrap()
            .iter()
            .filter(|r| r["method"] == method)
            .map(|r| r["params"].clone())
            .collect()
    };
    wait_until("the roster snapshot", || {
        !requests("sessions.list").is_empty()
    })
    .await;
    assert!(
        requests("sessions.messages.subscribe").is_empty(),
        "nothing followed yet"
    );

    follow.follow("fake", FOLLOWED);
    let expected = recorded_session_frames().len();
    wait_until("the followed session's frames", || {
        passed.lock().unwrap().len() >= expected
    })
    .await;
    assert_eq!(
        requests("sessions.messages.subscribe"),
        vec![json!({"key": FOLLOWED})]
    );
    let got = passed.lock().unwrap().clone();
    let tool_results = got
        .iter()
        .filter(|(e, p)| e == "session.tool" && p["data"]["phase"] == "result")
        .count();
    assert_eq!(tool_results, 1, "{got:?}");
    assert!(got.iter().all(|(_, p)| p["sessionKey"] == FOLLOWED));

    // Another session: the first is unsubscribed and its late frame stays out.
    follow.follow("fake", "agent:main:main");
    wait_until("the unsubscribe", || {
        !requests("sessions.messages.unsubscribe").is_empty()
    })
    .await;
    assert_eq!(
        requests("sessions.messages.unsubscribe"),
        vec![json!({"key": FOLLOWED})]
    );
    wait_until("the new subscription", || {
        requests("sessions.messages.subscribe").len() == 2
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let late = passed
        .lock()
        .unwrap()
        .iter()
        .any(|(_, p)| p["message"]["content"] == "late");
    assert!(!late, "a session no longer followed is filtered out");
    stop.cancel();
}
