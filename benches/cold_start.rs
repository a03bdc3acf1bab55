//! A cold `clawdeck explain exec --command ls` on a plain OpenClaw config: CPU time and peak
//! memory of the whole process, each round in a fresh HOME (nothing remembered: no accepted
//! config, no demo workspace), and where the time goes by phase.
//!
//! Baseline measured in the same run, rounds taking turns so that load from other processes
//! falls on both alike: `clawdeck --version` (process start, nothing loaded). The breakdown is
//! measured in a fresh process too (this bench started again as a child), each phase once and
//! cold, in the order a command meets them: the 2026.9 pack, the config schema check, the config
//! read (pack and schema then warm), the tool catalog, the policy resolution. Target (issue 34):
//! under 20 ms of CPU and 25 MiB.
//!
//! Run: `cargo bench --bench cold_start`

// The allocator the clawdeck binary runs with (src/main.rs), so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::process::{Command, Stdio};

#[path = "support/timing.rs"]
mod timing;
use timing::median;

const ROUNDS: usize = 15;
const TARGET_CPU_MS: f64 = 20.0;
const TARGET_MIB: f64 = 25.0;
/// Set in the child that measures the phases.
const CHILD: &str = "CLAWDECK_COLD_START_PHASES";
const PHASES: [&str; 5] = ["pack", "schema check", "config read", "catalog", "policy"];

/// A plain config: two agents, a profile, exec on an allowlist.
const CONFIG: &str = r#"{
  "agents": {"list": [{"id": "main", "default": true},
                      {"id": "ops", "tools": {"profile": "coding"}}]},
  "tools": {"profile": "coding", "exec": {"security": "allowlist", "ask": "on-miss"}}
}"#;

fn fail(message: &str) -> ! {
    eprintln!("cold start bench: {message}");
    std::process::exit(1);
}

/// CPU time of this process so far, in ms.
fn cpu_ms() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, which lives for the call.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    time.tv_sec as f64 * 1e3 + time.tv_nsec as f64 / 1e6
}

/// One cold process: its CPU time (user + system) in ms and peak resident memory in MiB.
fn cold_process(program: &Path, args: &[&str], env: &[(&str, &str)]) -> (f64, f64, String) {
    let home = tempfile::tempdir().unwrap_or_else(|e| fail(&e.to_string()));
    let config = home.path().join("openclaw.json");
    std::fs::write(&config, CONFIG).unwrap_or_else(|e| fail(&e.to_string()));
    // Waited for below with wait4, which std's Child cannot do: it reports the child's rusage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .env("HOME", home.path())
        .env("OPENCLAW_CONFIG_PATH", &config)
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("OPENCLAW_BIN")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| fail(&format!("{} did not start: {e}", program.display())));
    let pid = child.id() as libc::pid_t;
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout {
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
    }
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet waited for; status and usage outlive the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        fail(&format!(
            "{} {args:?} failed (status {status})",
            program.display()
        ));
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    let cpu = secs(usage.ru_utime) + secs(usage.ru_stime);
    (cpu, usage.ru_maxrss as f64 / 1024.0, out)
}

/// The child: each phase once, cold, printed as `phase ms` lines.
fn phases() {
    use clawdeck_core::catalog::Registry;
    use clawdeck_core::config;
    let mut times = Vec::new();
    let mut at = cpu_ms();
    let mut lap = |times: &mut Vec<f64>| {
        let now = cpu_ms();
        times.push(now - at);
        at = now;
    };
    let chosen = clawdeck_core::semantics::choose(Some(("2026.9", "bench")), None, None, None);
    std::hint::black_box(chosen.unwrap_or_else(|e| fail(&e.to_string())));
    lap(&mut times);
    let raw: serde_json::Value =
        serde_json::from_str(CONFIG).unwrap_or_else(|e| fail(&e.to_string()));
    let verdict = config::schema_check::check(&raw, "2026.9");
    if !matches!(&verdict, config::schema_check::SchemaVerdict::Checked(issues) if issues.is_empty())
    {
        fail(&format!("the plain config is not accepted: {verdict:?}"));
    }
    lap(&mut times);
    let loaded = config::load_from_str_with_pack(CONFIG, "bench", "2026.9")
        .unwrap_or_else(|e| fail(&e.to_string()));
    lap(&mut times);
    let registry = Registry::build(&loaded, &clawdeck_core::mcp_servers::ServerListing::Off);
    lap(&mut times);
    let ctx = clawdeck_core::context::PolicyContext::default();
    let resolution = clawdeck_core::policy::resolve(&loaded, &registry, &ctx)
        .unwrap_or_else(|e| fail(&e.to_string()));
    std::hint::black_box(resolution);
    lap(&mut times);
    for (name, ms) in PHASES.iter().zip(times) {
        println!("{name}\t{ms}");
    }
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        phases();
        return;
    }
    let clawdeck = Path::new(env!("CARGO_BIN_EXE_clawdeck"));
    let me = std::env::current_exe().unwrap_or_else(|e| fail(&e.to_string()));
    let explain = [
        "explain",
        "exec",
        "--command",
        "ls",
        "--openclaw-version",
        "2026.9",
    ];
    let (mut cpu, mut rss, mut bare_cpu, mut bare_rss) = (vec![], vec![], vec![], vec![]);
    let mut by_phase = vec![Vec::new(); PHASES.len()];
    for _ in 0..ROUNDS {
        let (c, r, _) = cold_process(clawdeck, &explain, &[]);
        cpu.push(c);
        rss.push(r);
        let (c, r, _) = cold_process(clawdeck, &["--version"], &[]);
        bare_cpu.push(c);
        bare_rss.push(r);
        let (_, _, out) = cold_process(&me, &[], &[(CHILD, "1")]);
        for (i, line) in out.lines().enumerate().take(PHASES.len()) {
            let ms = line.split('\t').nth(1).and_then(|t| t.parse::<f64>().ok());
            by_phase[i].push(ms.unwrap_or_else(|| fail(&format!("phase line {line:?}"))));
        }
    }
    let (cpu, rss) = (median(cpu), median(rss));
    let (bare_cpu, bare_rss) = (median(bare_cpu), median(bare_rss));
    println!(
        "cold start: `clawdeck {}`, a fresh HOME each, median of {ROUNDS}",
        explain.join(" ")
    );
    println!("  whole process: {cpu:.1} ms CPU, {rss:.1} MiB peak");
    println!(
        "  `clawdeck --version` (baseline): {bare_cpu:.1} ms CPU, {bare_rss:.1} MiB ({:.1}x the CPU, {:.1}x the memory)",
        cpu / bare_cpu.max(0.01),
        rss / bare_rss.max(0.01)
    );
    println!("  by phase, cold, in a process of its own:");
    for (name, times) in PHASES.iter().zip(by_phase) {
        println!("    {name:<14} {:6.2} ms CPU", median(times));
    }
    let met = cpu < TARGET_CPU_MS && rss < TARGET_MIB;
    println!(
        "  target: under {TARGET_CPU_MS} ms CPU and {TARGET_MIB} MiB: {}",
        if met { "met" } else { "NOT met" }
    );
}
