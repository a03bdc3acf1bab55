//! `clawdeck lint` over a config with 5,000 and with 50,000 agents: loading the config text,
//! resolving every agent's context and gathering and placing the findings (one per agent, plus
//! one every agent shares), as `clawdeck lint` does. Prints the time for each size and the
//! ratio: linear work makes it about 10x for 10x the agents (it was quadratic: 32 s for 50,000).
//!
//! The sizes take turns over several rounds and each reports its median round, so load from
//! other processes on a shared machine falls on both alike.
//!
//! Run: `cargo bench --bench lint`

// The allocator the clawdeck binary runs with (src/main.rs), so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use clawdeck_core::catalog::Registry;
use clawdeck_core::config::load_from_str;
use clawdeck_core::lint::{LintScope, lint};

#[path = "support/timing.rs"]
mod timing;
use timing::median;

const SMALL: usize = 5_000;
const LARGE: usize = 50_000;
const ROUNDS: usize = 5;
/// Linear is 10x; the slack covers hash maps growing, caches and a loaded machine.
const TARGET_RATIO: f64 = 15.0;

/// Agents each with an exec setting that asks (a finding of its own) under a global one that
/// asks too; some deny a tool, some are sandboxed for non-main sessions.
fn config_text(agents: usize) -> String {
    let list: Vec<String> = (0..agents)
        .map(|i| {
            let extra = match i % 3 {
                0 => ", sandbox: { mode: 'non-main' }",
                1 => ", tools: { deny: ['browser'], exec: { ask: 'always' } }",
                _ => ", tools: { exec: { ask: 'always' } }",
            };
            format!("{{ id: 'agent-{i}'{extra} }}")
        })
        .collect();
    format!(
        "{{\n  tools: {{ profile: 'coding', exec: {{ ask: 'on-miss' }} }},\n  agents: {{ list: [\n    {}\n  ] }},\n}}\n",
        list.join(",\n    ")
    )
}

/// One full lint; returns its time and (contexts, findings).
fn lint_once(text: &str) -> (Duration, (usize, usize)) {
    let started = Instant::now();
    let cfg = match load_from_str(text, "bench.json5")
        .map_err(|err| err.to_string())
        .and_then(|c| c.with_pack("2026.9"))
    {
        Ok(cfg) => cfg,
        Err(err) => fail(&err),
    };
    let registry = Registry::build(&cfg, &clawdeck_core::mcp_servers::ServerListing::Off);
    let report = match lint(&cfg, &registry, &LintScope::AllAgents, Some(text)) {
        Ok(report) => report,
        Err(err) => fail(&err.to_string()),
    };
    let shape = (report.contexts.len(), report.findings.len());
    std::hint::black_box(report);
    (started.elapsed(), shape)
}

fn fail(message: &str) -> ! {
    eprintln!("lint bench: {message}");
    std::process::exit(1);
}

fn main() {
    let small = config_text(SMALL);
    let large = config_text(LARGE);
    let (mut small_times, mut large_times) = (Vec::new(), Vec::new());
    let (mut small_shape, mut large_shape) = ((0, 0), (0, 0));
    for _ in 0..ROUNDS {
        let (time, shape) = lint_once(&small);
        small_times.push(time);
        small_shape = shape;
        let (time, shape) = lint_once(&large);
        large_times.push(time);
        large_shape = shape;
    }
    let (small_time, large_time) = (median(small_times), median(large_times));
    println!(
        "lint: every agent's context, findings placed in the text (median of {ROUNDS} rounds)"
    );
    for (agents, text, (contexts, findings), time) in [
        (SMALL, &small, small_shape, small_time),
        (LARGE, &large, large_shape, large_time),
    ] {
        println!(
            "  {agents:>6} agents ({:>5} KiB of config): {contexts} contexts, {findings} findings  {:>9.1} ms  ({:.1} µs per agent)",
            text.len() / 1024,
            time.as_secs_f64() * 1e3,
            time.as_secs_f64() * 1e6 / agents as f64
        );
    }
    let ratio = large_time.as_secs_f64() / small_time.as_secs_f64();
    let verdict = if ratio <= TARGET_RATIO {
        "met"
    } else {
        "NOT met"
    };
    println!(
        "  {}x the agents took {ratio:.1}x the time (linear: {}x)",
        LARGE / SMALL,
        LARGE / SMALL
    );
    println!("  target: <= {TARGET_RATIO}x: {verdict}");
}
