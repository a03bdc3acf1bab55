//! `clawdeck prompt` on the embedded demo config: the whole system prompt for the default
//! context, as the command builds it (policy resolution, the release's template, skills and
//! workspace files from disk), in process and as a whole command.
//!
//! Baselines measured in the same run, rounds taking turns so that load from other processes
//! falls on both alike: in process, the policy resolution the prompt starts from; as a command,
//! `clawdeck --version` (process start, nothing loaded). Target (issue 32): the command under
//! 50 ms.
//!
//! Run: `cargo bench --bench prompt`

// The allocator the clawdeck binary runs with (src/main.rs), so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clawdeck_core::catalog::Registry;
use clawdeck_core::context::PolicyContext;
use clawdeck_core::prompt::{LlmViewOptions, PromptMode, build_llm_view};

#[path = "support/timing.rs"]
mod timing;
use timing::{median, ms};

const ROUNDS: usize = 31;
const COMMAND_ROUNDS: usize = 15;
const TARGET_MS: f64 = 50.0;

fn fail(message: &str) -> ! {
    eprintln!("prompt bench: {message}");
    std::process::exit(1);
}

/// The binary with a home of its own: no OpenClaw config in reach, so the embedded demo.
fn command(home: &std::path::Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("OPENCLAW_BIN")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| fail(&format!("clawdeck did not start: {e}")));
    let time = started.elapsed();
    if !status.success() {
        fail(&format!("clawdeck {args:?} failed: {status}"));
    }
    time
}

fn main() {
    let config = clawdeck_core::config::load_demo().unwrap_or_else(|e| fail(&e.to_string()));
    let registry = Registry::build(&config, &clawdeck_core::mcp_servers::ServerListing::Off);
    let ctx = PolicyContext::default();
    let options = LlmViewOptions {
        api: None,
        mode: PromptMode::Full,
    };
    let (mut prompts, mut resolutions) = (Vec::new(), Vec::new());
    let mut chars = 0;
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let view = build_llm_view(&config, &registry, &ctx, &options)
            .unwrap_or_else(|e| fail(&e.to_string()));
        prompts.push(started.elapsed());
        chars = view.prompt.chars().count();
        std::hint::black_box(view);
        let started = Instant::now();
        let resolution = clawdeck_core::policy::resolve(&config, &registry, &ctx)
            .unwrap_or_else(|e| fail(&e.to_string()));
        resolutions.push(started.elapsed());
        std::hint::black_box(resolution);
    }
    let (prompt, resolution) = (median(prompts), median(resolutions));
    println!(
        "prompt: the demo config's default context ({chars} characters), median of {ROUNDS} rounds"
    );
    println!(
        "  in process: {:.2} ms; its policy resolution alone {:.2} ms ({:.1}x)",
        ms(prompt),
        ms(resolution),
        prompt.as_secs_f64() / resolution.as_secs_f64()
    );
    let home = tempfile::tempdir().unwrap_or_else(|e| fail(&e.to_string()));
    // The demo's workspace is created by the first run; the rounds measure the next ones.
    command(home.path(), &["prompt"]);
    let (mut commands, mut bare) = (Vec::new(), Vec::new());
    for _ in 0..COMMAND_ROUNDS {
        commands.push(command(home.path(), &["prompt"]));
        bare.push(command(home.path(), &["--version"]));
    }
    let (whole, start) = (median(commands), median(bare));
    let verdict = if ms(whole) < TARGET_MS {
        "met"
    } else {
        "NOT met"
    };
    println!(
        "  `clawdeck prompt`: {:.1} ms; `clawdeck --version` {:.1} ms ({:.1}x), median of {COMMAND_ROUNDS}",
        ms(whole),
        ms(start),
        whole.as_secs_f64() / start.as_secs_f64()
    );
    println!("  target: the command under {TARGET_MS} ms: {verdict}");
}
