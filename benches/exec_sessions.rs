//! What an idle background exec session costs clawdeck: 100 `exec` sessions started with
//! `background: true` (`sleep`, silent, with a stdin pipe) through the exec tool, then the
//! process's resident memory and thread count compared with before they started. Prints the
//! cost per session (300 idle sessions took 1.36 GB before the readers stopped holding a thread
//! and a buffer each).
//!
//! Run: `cargo bench --bench exec_sessions`

// The allocator the clawdeck binary runs with (src/main.rs), so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::Duration;

use clawdeck_core::config::settings::ExecSettings;
use clawdeck_core::local_tools::exec::ExecTool;
use clawdeck_core::local_tools::process_tool::ProcessTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::{ExecSessions, PathGuard};
use clawdeck_core::tool::{Tool, ToolCall};
use serde_json::json;

const SESSIONS: usize = 100;

/// A field of /proc/self/status (`VmRSS` in KiB, `Threads`).
fn status(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    text.lines()
        .find_map(|line| {
            let rest = line.strip_prefix(field)?.strip_prefix(':')?;
            rest.trim().trim_end_matches("kB").trim().parse().ok()
        })
        .unwrap_or(0)
}

fn fail(message: &str) -> ! {
    eprintln!("exec_sessions bench: {message}");
    std::process::exit(1);
}

async fn measure() {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(err) => fail(&err.to_string()),
    };
    let sessions = ExecSessions::new(Duration::from_secs(60));
    sessions.set_max_running(SESSIONS + 1);
    let spec = |name: &str| builtin_spec(name).unwrap_or_else(|| fail(&format!("no {name} spec")));
    let exec = ExecTool::new(
        spec("exec"),
        Arc::new(PathGuard::host(dir.path())),
        ExecSettings::default(),
        sessions.clone(),
    );
    let process = ProcessTool::new(spec("process"), sessions.clone());
    // One session first, so the runtime's and allocator's one-time costs are in the baseline.
    let warm = exec
        .execute(ToolCall::new(
            "warm",
            json!({"command": "sleep 600", "background": true}),
        ))
        .await;
    if let Err(err) = warm {
        fail(&err.to_string());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (rss_before, threads_before) = (status("VmRSS"), status("Threads"));
    let mut ids = Vec::new();
    for n in 0..SESSIONS {
        match exec
            .execute(ToolCall::new(
                format!("s{n}"),
                json!({"command": "sleep 600", "background": true}),
            ))
            .await
        {
            Ok(r) => ids.push(r.details["sessionId"].as_str().unwrap_or("").to_string()),
            Err(err) => fail(&err.to_string()),
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (rss_after, threads_after) = (status("VmRSS"), status("Threads"));
    let rss = rss_after.saturating_sub(rss_before);
    let threads = threads_after.saturating_sub(threads_before);
    println!("exec sessions: {SESSIONS} idle background sessions (sleep, stdin piped)");
    println!(
        "  resident memory  {rss_before} KiB -> {rss_after} KiB: {rss} KiB, {:.1} KiB per session",
        rss as f64 / SESSIONS as f64
    );
    println!(
        "  threads          {threads_before} -> {threads_after}: {:.2} per session",
        threads as f64 / SESSIONS as f64
    );
    for id in ids {
        let _ = process
            .execute(ToolCall::new(
                "rm",
                json!({"action": "remove", "sessionId": id}),
            ))
            .await;
    }
}

fn main() {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => fail(&err.to_string()),
    };
    runtime.block_on(measure());
}
