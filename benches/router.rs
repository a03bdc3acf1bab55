//! Router overhead, measured against baselines in the same run:
//! (a) latency from the child's first byte to the chunk event at a `RouterService` subscriber
//!     (the fake prints its wall-clock time in ns as its first line), vs a raw pipe read of the
//!     same child; target: median under 5 ms.
//! (b) wall time of `clawdeck route` vs running the same fake `openclaw agent` directly;
//!     target: ratio under 1.05.
//!
//! Run: `cargo bench --bench router` (optionally `ROUTER_BENCH_RUNS=N`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clawdeck_core::config::settings::RouterSettings;
use clawdeck_router::service::EnvLookup;
use clawdeck_router::{RouterEventKind, RouterRequest, RouterService};

fn fake() -> String {
    format!(
        "{}/tests/fixtures/fake-openclaw",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

fn first_line_latency_ms(line: &str) -> Option<f64> {
    let printed: u128 = line.trim().parse().ok()?;
    Some(now_ns().saturating_sub(printed) as f64 / 1e6)
}

/// (a) baseline: read the fake's first line straight from its pipe.
fn raw_pipe_latency() -> Option<f64> {
    let mut child = Command::new(fake())
        .args([
            "agent",
            "--agent",
            "ops",
            "--message=[[scenario:firstbyte]]",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take()?)
        .read_line(&mut line)
        .ok()?;
    let ms = first_line_latency_ms(&line);
    let _ = child.wait();
    ms
}

/// (a) through the router: the first Chunk event seen by a subscriber.
async fn router_latency(service: &RouterService) -> Option<f64> {
    let mut events = service.subscribe();
    let handle = service
        .start(RouterRequest::new("[[scenario:firstbyte]]").with_agent("ops"))
        .ok()?;
    let mut latency = None;
    while let Ok(ev) = events.recv().await {
        if ev.run_id != handle.run_id {
            continue;
        }
        match ev.kind {
            RouterEventKind::Chunk { bytes, .. } if latency.is_none() => {
                latency = first_line_latency_ms(&String::from_utf8_lossy(&bytes));
            }
            RouterEventKind::Finished { .. } => break,
            _ => {}
        }
    }
    handle.wait().await;
    latency
}

fn wall(mut cmd: Command) -> Option<Duration> {
    let start = Instant::now();
    let status = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status.success().then(|| start.elapsed())
}

fn main() {
    let runs: usize = std::env::var("ROUTER_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("router bench: no runtime: {e}");
            return;
        }
    };
    let settings = RouterSettings {
        bin: fake(),
        ..RouterSettings::default()
    };
    let env: EnvLookup = Arc::new(|k: &str| std::env::var(k).ok());
    let service = RouterService::with_env(settings, env);

    // (a) first byte → subscriber.
    let mut raw = Vec::new();
    let mut routed = Vec::new();
    for _ in 0..runs {
        if let Some(ms) = raw_pipe_latency() {
            raw.push(ms);
        }
        if let Some(ms) = runtime.block_on(router_latency(&service)) {
            routed.push(ms);
        }
    }
    let (raw_med, routed_med) = (median(raw), median(routed));
    println!(
        "router (a) first byte -> event at subscriber: median {routed_med:.3} ms over {runs} runs (target < 5 ms)"
    );
    println!(
        "           baseline raw pipe read of the same child: median {raw_med:.3} ms; router adds {:.3} ms",
        routed_med - raw_med
    );

    // (b) `clawdeck route` vs the fake run directly.
    let message = "[[scenario:interleave:5]]";
    let wall_runs = (runs / 3).max(5);
    let mut direct = Vec::new();
    let mut via_route = Vec::new();
    for _ in 0..wall_runs {
        let mut d = Command::new(fake());
        d.args(["agent", "--agent", "ops", &format!("--message={message}")]);
        if let Some(t) = wall(d) {
            direct.push(t.as_secs_f64());
        }
        let mut r = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        r.args(["route", "--agent", "ops", "--message", message])
            .env("OPENCLAW_BIN", fake());
        if let Some(t) = wall(r) {
            via_route.push(t.as_secs_f64());
        }
    }
    let (d, r) = (median(direct), median(via_route));
    println!(
        "router (b) wall time: direct fake {:.1} ms, `clawdeck route` {:.1} ms, ratio {:.3} over {wall_runs} runs (target < 1.05)",
        d * 1e3,
        r * 1e3,
        r / d
    );
}
