//! Events per second from a local fake gateway through clawdeck's gateway client, against a
//! baseline measured in the same run: a bare tokio-tungstenite read loop over the same frames;
//! then the same flood through the client into the console's Sessions view (the followed
//! session's transcript), with a key pressed every 25 ms while it flows: key → frame latency.
//! Target: ≥ 20,000 events/s, key → frame median < 50 ms. Then the streams of issue 22, each
//! against a same-run baseline that only parses the JSON: `logs.tail` lines (read into fields,
//! sanitized, kept in the bounded log buffer) and a `chat.history` backfill (parsed into
//! transcript entries and merged into a session's transcript). Run: `cargo bench --bench gateway`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use clawdeck_gateway::{
    Backoff, ClientEvent, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient,
    GatewayEndpoint,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

const EVENTS: usize = 200_000;

/// A session.tool frame shaped like the real gateway's (recorded from 2026.9.6).
fn tool_frame(seq: usize) -> String {
    json!({
        "type": "event",
        "event": "session.tool",
        "seq": seq,
        "payload": {
            "runId": "b644a7c6-299b-4471-981f-d4df629256d8",
            "stream": "tool",
            "ts": 1795380960352u64 + seq as u64,
            "sessionKey": "agent:ops:explicit:g1",
            "agentId": "ops",
            "data": {"phase": "update", "name": "exec", "toolCallId": "call_mock_1",
                     "partialResult": {"content": [{"type": "text", "text": format!("line {seq}\n")}]}}
        }
    })
    .to_string()
}

/// Serves one connection: challenge, hello-ok for `connect`, then `EVENTS` frames.
async fn fake_gateway(listener: TcpListener, frames: std::sync::Arc<Vec<String>>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        let frames = frames.clone();
        tokio::spawn(async move {
            let mut ws = tokio_tungstenite::accept_async(stream).await.unwrap();
            let challenge = json!({"type": "event", "event": "connect.challenge",
                "payload": {"nonce": "bench-nonce", "ts": 1u64}});
            ws.send(Message::text(challenge.to_string())).await.unwrap();
            // A raw client starts reading at once; ours sends connect first.
            let first = tokio::time::timeout(Duration::from_millis(300), ws.next()).await;
            if let Ok(Some(Ok(Message::Text(text)))) = first {
                let req: Value = serde_json::from_str(&text).unwrap();
                let hello = json!({"type": "res", "id": req["id"], "ok": true, "payload": {
                    "type": "hello-ok", "protocol": 4,
                    "server": {"version": "bench", "connId": "c1"},
                    "features": {"methods": [], "events": []}, "snapshot": {},
                    "auth": {"role": "operator", "scopes": ["operator.read"]},
                    "policy": {"tickIntervalMs": 15000}}});
                ws.send(Message::text(hello.to_string())).await.unwrap();
            }
            for frame in frames.iter() {
                if ws.feed(Message::text(frame.clone())).await.is_err() {
                    return;
                }
            }
            let _ = ws.flush().await;
            // Keep the socket open until the reader is done.
            while let Some(Ok(_)) = ws.next().await {}
        });
    }
}

/// Baseline: tokio-tungstenite's read loop, each frame parsed as JSON.
async fn raw_read_loop(url: &str) -> Duration {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let _challenge = ws.next().await;
    let start = Instant::now();
    let mut n = 0;
    while n < EVENTS {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => {
                let _: Value = serde_json::from_str(&text).unwrap();
                n += 1;
            }
            Some(Ok(_)) => {}
            _ => panic!("raw loop ended after {n} frames"),
        }
    }
    start.elapsed()
}

/// clawdeck: handshake, then every frame parsed and published as a ClientEvent.
async fn through_client(url: &str) -> Duration {
    let endpoint = GatewayEndpoint {
        name: "bench".into(),
        url: url.into(),
        auth: GatewayAuth::Token("t".into()),
        origin: "bench".into(),
    };
    let client = GatewayClient::connect(
        endpoint,
        DeviceIdentity::from_seed([9; 32]),
        ConnectOptions::default(),
        Backoff::default(),
    )
    .await
    .unwrap();
    let mut events = client.events();
    let start = Instant::now();
    let mut n = 0;
    while n < EVENTS {
        match events.recv().await {
            Some(ClientEvent::Event(_)) => n += 1,
            Some(_) => {}
            None => panic!("client stream ended after {n}"),
        }
    }
    let took = start.elapsed();
    client.close();
    took
}

/// The console's loop in miniature (`clawdeck_tui::bench::sessions_view_flood`): the
/// client's events go through the console's paced forwarder into its one event channel, which
/// also carries keys; each event goes into the Sessions view, a key moves the selection and
/// draws at once, and the flood is drawn at most every 16 ms (the 60 fps cap).
async fn into_sessions_view(url: &str) -> (Duration, Vec<Duration>) {
    let endpoint = GatewayEndpoint {
        name: "bench".into(),
        url: url.into(),
        auth: GatewayAuth::Token("t".into()),
        origin: "bench".into(),
    };
    let client = GatewayClient::connect(
        endpoint,
        DeviceIdentity::from_seed([9; 32]),
        ConnectOptions::default(),
        Backoff::default(),
    )
    .await
    .unwrap();
    clawdeck_tui::bench::sessions_view_flood(client, "bench", EVENTS)
        .await
        .unwrap()
}

/// Lines parsed per run of the log bench.
const LOG_LINES: usize = 200_000;
/// Backfills per run of the history bench (each a 200-message page).
const BACKFILLS: usize = 500;

/// Best-of-3 lines/s: a bare `serde_json` parse of each raw line vs `LogCursor::read` of the same
/// lines (parse, fields, sanitize) into a `LogBuffer`.
fn log_tail_rates() -> (f64, f64) {
    use clawdeck_gateway::logs::{LogBuffer, LogCursor};
    let recorded: Value =
        serde_json::from_str(include_str!("../tests/fixtures/gateway/logs-tail.json")).unwrap();
    let lines: Vec<Value> = recorded["lines"].as_array().unwrap().clone();
    let page: Vec<Value> = lines.iter().cycle().take(500).cloned().collect();
    let payload =
        json!({"file": "/tmp/openclaw/openclaw.log", "cursor": 1, "size": 1, "lines": page});
    let pages = LOG_LINES / 500;
    let rate = |d: Duration| LOG_LINES as f64 / d.as_secs_f64();
    let (mut raw, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let start = Instant::now();
        for _ in 0..pages {
            for line in payload["lines"].as_array().unwrap() {
                let parsed: Value = serde_json::from_str(line.as_str().unwrap()).unwrap();
                std::hint::black_box(parsed);
            }
        }
        raw.push(rate(start.elapsed()));
        let start = Instant::now();
        let mut cursor = LogCursor::default();
        let mut buffer = LogBuffer::default();
        for _ in 0..pages {
            buffer.extend(cursor.read(&payload));
        }
        std::hint::black_box(buffer.len());
        ours.push(rate(start.elapsed()));
    }
    let best = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    (best(&raw), best(&ours))
}

/// Best-of-3 messages/s: a bare `serde_json` parse of a 200-message `chat.history` answer vs
/// the same parse plus `parse_history` and a backfill into an empty transcript.
fn history_rates() -> (f64, f64) {
    use clawdeck_gateway::history::parse_history;
    use clawdeck_gateway::transcript::SessionTranscript;
    let recorded: Value =
        serde_json::from_str(include_str!("../tests/fixtures/gateway/chat-history.json")).unwrap();
    let template = recorded["messages"].as_array().unwrap().clone();
    let messages: Vec<Value> = (0..200)
        .map(|n| {
            let mut m = template[n % template.len()].clone();
            m["__openclaw"]["id"] = json!(format!("m{n}"));
            m["__openclaw"]["seq"] = json!(n + 1);
            m
        })
        .collect();
    let text = json!({"sessionKey": "agent:ops:main", "messages": messages,
        "totalMessages": 200, "hasMore": false})
    .to_string();
    let rate = |d: Duration| (BACKFILLS * 200) as f64 / d.as_secs_f64();
    let (mut raw, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let start = Instant::now();
        for _ in 0..BACKFILLS {
            let parsed: Value = serde_json::from_str(&text).unwrap();
            std::hint::black_box(parsed);
        }
        raw.push(rate(start.elapsed()));
        let start = Instant::now();
        for _ in 0..BACKFILLS {
            let parsed: Value = serde_json::from_str(&text).unwrap();
            let mut transcript = SessionTranscript::new();
            transcript.backfill(&parse_history("agent:ops:main", &parsed));
            std::hint::black_box(transcript.len());
        }
        ours.push(rate(start.elapsed()));
    }
    let best = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    (best(&raw), best(&ours))
}

/// The issue-22 streams' figures.
fn print_stream_rates() {
    let (raw, ours) = log_tail_rates();
    println!("logs.tail lines, {LOG_LINES} real log lines per run, best of 3:");
    println!("  baseline (serde_json parse of each line):          {raw:>10.0} lines/s");
    println!("  clawdeck (fields + sanitize + bounded buffer):     {ours:>10.0} lines/s");
    println!("  ratio clawdeck / baseline: {:.2}", ours / raw);
    let (raw, ours) = history_rates();
    println!("chat.history backfill, {BACKFILLS} answers of 200 messages per run, best of 3:");
    println!("  baseline (serde_json parse of the answer):         {raw:>10.0} messages/s");
    println!("  clawdeck (parse + entries + merge into transcript): {ours:>10.0} messages/s");
    println!("  ratio clawdeck / baseline: {:.2}", ours / raw);
}

fn main() {
    if std::env::var("CLAWDECK_BENCH_STREAMS_ONLY").is_ok_and(|v| v == "1") {
        print_stream_rates();
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let frames: std::sync::Arc<Vec<String>> =
            std::sync::Arc::new((0..EVENTS).map(tool_frame).collect());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        tokio::spawn(fake_gateway(listener, frames));

        let rate = |d: Duration| EVENTS as f64 / d.as_secs_f64();
        let mut raw = Vec::new();
        let mut ours = Vec::new();
        for _ in 0..3 {
            raw.push(rate(raw_read_loop(&url).await));
            ours.push(rate(through_client(&url).await));
        }
        let best = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
        let (raw, ours) = (best(&raw), best(&ours));
        println!("gateway events, {EVENTS} session.tool frames per run, best of 3:");
        println!("  baseline (tokio-tungstenite read loop + JSON parse): {raw:>10.0} events/s");
        println!("  clawdeck GatewayClient (parse, route, publish):      {ours:>10.0} events/s");
        println!("  ratio client / baseline: {:.2}", ours / raw);
        println!(
            "  target ≥ 20,000 events/s: {}",
            if ours >= 20_000.0 { "met" } else { "NOT met" }
        );
        let mut view_rates = Vec::new();
        let mut medians = Vec::new();
        for _ in 0..3 {
            let (took, mut latencies) = into_sessions_view(&url).await;
            view_rates.push(rate(took));
            latencies.sort();
            medians.push(latencies.get(latencies.len() / 2).copied().unwrap_or_default());
        }
        let view_rate = best(&view_rates);
        let median = medians.iter().min().copied().unwrap_or_default();
        println!("  into the Sessions view (client + transcript + 60 fps frames): {view_rate:>10.0} events/s");
        println!(
            "  key → frame median while it flows: {:.1} ms (best run; runs: {})",
            median.as_secs_f64() * 1000.0,
            medians
                .iter()
                .map(|m| format!("{:.1}", m.as_secs_f64() * 1000.0))
                .collect::<Vec<_>>()
                .join(", ")
        );
        println!(
            "  target ≥ 20,000 events/s and < 50 ms: {}",
            if view_rate >= 20_000.0 && median < Duration::from_millis(50) {
                "met"
            } else {
                "NOT met"
            }
        );
    });
    print_stream_rates();
}
