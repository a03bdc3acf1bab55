//! `gateway watch` and `approvals watch` whose stdout nobody reads, under a gateway that floods
//! events (issue 19, item 12): the process's memory stays bounded, and once the reader comes
//! back the stream goes on with a line saying how many events were dropped.
//! A local fake gateway (no OpenClaw needed) answers the handshake and requests, then sends
//! events as fast as the socket takes them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

/// Resident memory the watcher may reach while its reader is away. A bounded watcher stays far
/// below (a few MiB of queued lines over its ~20 MiB); an unbounded one passes it within
/// seconds under this flood.
const RSS_BOUND_KIB: u64 = 160 * 1024;

/// How long the reader stays away.
const AWAY: Duration = Duration::from_secs(8);

/// One flood event: a tool update with 2 KiB of output (an approval for `approvals watch`).
fn flood_frame(approvals: bool, n: u64) -> String {
    let filler = "x".repeat(2048);
    let frame = if approvals {
        json!({"type": "event", "event": "exec.approval.requested", "payload": {
            "id": format!("ap-{n}"), "request": {"command": format!("echo {filler}"),
            "cwd": "/tmp", "agentId": "ops", "sessionKey": "agent:ops:main"},
            "createdAtMs": 1, "expiresAtMs": 2}})
    } else {
        json!({"type": "event", "event": "session.tool", "payload": {
            "sessionKey": "agent:ops:main", "stream": "tool", "runId": "r1", "ts": n,
            "data": {"phase": "update", "name": "exec", "toolCallId": "c1",
                     "partialResult": filler}}})
    };
    frame.to_string()
}

/// Answers the handshake and every request; after the first request that is not `connect`, it
/// floods events between answers. `sent` counts the bytes of flood frames sent.
async fn flooding_gateway(listener: TcpListener, approvals: bool, sent: Arc<AtomicU64>) {
    while let Ok((stream, _)) = listener.accept().await {
        let sent = sent.clone();
        tokio::spawn(async move {
            let ws = tokio_tungstenite::accept_async(stream).await.unwrap();
            let (mut sink, mut source) = ws.split();
            let challenge = json!({"type": "event", "event": "connect.challenge",
                "payload": {"nonce": "fake-nonce", "ts": 1u64}});
            sink.send(Message::text(challenge.to_string()))
                .await
                .unwrap();
            let (req_tx, mut req_rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
            tokio::spawn(async move {
                while let Some(Ok(msg)) = source.next().await {
                    if let Message::Text(text) = msg
                        && let Ok(req) = serde_json::from_str::<Value>(&text)
                        && req_tx.send(req).is_err()
                    {
                        break;
                    }
                }
            });
            let mut flooding = false;
            let mut n = 0u64;
            loop {
                let mut requests = Vec::new();
                while let Ok(req) = req_rx.try_recv() {
                    requests.push(req);
                }
                if !flooding && requests.is_empty() {
                    match req_rx.recv().await {
                        Some(req) => requests.push(req),
                        None => return,
                    }
                }
                for req in requests {
                    let method = req["method"].as_str().unwrap_or("").to_string();
                    let payload = match method.as_str() {
                        "connect" => json!({
                            "type": "hello-ok", "protocol": 4,
                            "server": {"version": "fake", "connId": "c1"},
                            "features": {"methods": [], "events": []}, "snapshot": {},
                            "auth": {"role": "operator", "scopes": ["operator.read"]},
                            "policy": {"tickIntervalMs": 15000}}),
                        "exec.approval.list" => json!({"approvals": []}),
                        _ => json!({"subscribed": true}),
                    };
                    let res =
                        json!({"type": "res", "id": req["id"], "ok": true, "payload": payload});
                    if sink.send(Message::text(res.to_string())).await.is_err() {
                        return;
                    }
                    flooding |= method != "connect";
                }
                if !flooding {
                    continue;
                }
                for _ in 0..64 {
                    n += 1;
                    let frame = flood_frame(approvals, n);
                    sent.fetch_add(frame.len() as u64, Ordering::Relaxed);
                    if sink.feed(Message::text(frame)).await.is_err() {
                        return;
                    }
                }
                if sink.flush().await.is_err() {
                    return;
                }
            }
        });
    }
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix("VmRSS:")?;
        rest.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `args` against a flooding fake gateway without reading its stdout for `AWAY`, checking
/// its memory all along; then reads until the drop report and a few events after it.
fn watcher_stays_bounded(args: &[&str], approvals: bool, dropped_line: impl Fn(&str) -> bool) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let sent = Arc::new(AtomicU64::new(0));
    runtime.spawn(flooding_gateway(listener, approvals, sent.clone()));

    let state = tempfile::tempdir().unwrap();
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.args(args)
        .args(["--gateway", &url])
        .env("XDG_STATE_HOME", state.path())
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_GATEWAY_TOKEN")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = Killed(cmd.spawn().unwrap());
    let pid = child.0.id();

    let started = Instant::now();
    while sent.load(Ordering::Relaxed) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the watcher never subscribed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let flood_began = sent.load(Ordering::Relaxed);
    let mut peak = 0;
    let away = Instant::now();
    while away.elapsed() < AWAY {
        let rss = rss_kib(pid).expect("the watcher exited while its reader was away");
        peak = peak.max(rss);
        assert!(
            rss < RSS_BOUND_KIB,
            "{} KiB resident after {:?} with nobody reading (bound {RSS_BOUND_KIB} KiB; {} MiB sent)",
            rss,
            away.elapsed(),
            sent.load(Ordering::Relaxed) >> 20
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let flooded = sent.load(Ordering::Relaxed) - flood_began;
    eprintln!(
        "peak {peak} KiB while {} MiB were sent with nobody reading",
        flooded >> 20
    );
    // A flood that a full pipe would have turned into unbounded growth.
    assert!(
        flooded > 64 << 20,
        "only {flooded} bytes sent: the flood was too weak to prove anything"
    );

    // The reader comes back: the stream goes on and says what was lost.
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut report = None;
    let mut after = 0;
    while after < 3 {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("the stream did not go on (drop report: {report:?})"));
        if report.is_none() {
            if dropped_line(&line) {
                report = Some(line);
            }
        } else if !dropped_line(&line) {
            after += 1;
        }
    }
    runtime.shutdown_background();
}

fn json_drop_report(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return false;
    };
    v["kind"] == "dropped"
        && v["event"] == "clawdeck.dropped"
        && v["dropped"].as_u64().is_some_and(|n| n > 0)
        && v["reason"] == "stdout was not keeping up"
}

fn text_drop_report(line: &str) -> bool {
    line.split_once(" events dropped: stdout was not keeping up")
        .is_some_and(|(n, rest)| rest.is_empty() && n.parse::<u64>().is_ok_and(|n| n > 0))
}

#[test]
fn gateway_watch_json_with_a_stuck_reader_stays_bounded_and_counts_the_drops() {
    watcher_stays_bounded(&["gateway", "watch", "--json"], false, json_drop_report);
}

#[test]
fn gateway_watch_text_with_a_stuck_reader_stays_bounded_and_counts_the_drops() {
    watcher_stays_bounded(&["gateway", "watch"], false, text_drop_report);
}

#[test]
fn approvals_watch_with_a_stuck_reader_stays_bounded_and_counts_the_drops() {
    watcher_stays_bounded(&["approvals", "watch", "--json"], true, json_drop_report);
}
