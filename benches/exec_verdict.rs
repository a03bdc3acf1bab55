//! Will this command run, and how fast is the answer? `clawdeck explain exec --command CMD
//! --json` as an operator runs it (a whole process: config, approvals document from OpenClaw's
//! state database, policy, the command's parse and every segment), against `openclaw
//! exec-policy show --json` on the same config and state directory: the nearest answer OpenClaw
//! gives (its exec settings, without the command, the tool policy or the surface).
//!
//! The workload: an 11-agent config with per-agent `tools.exec`, an approvals document stored by
//! `openclaw approvals set` when OpenClaw is installed (else given as a file), and five command
//! lines from one word to a pipeline with a substitution. The two sides take turns over the
//! rounds, so load from other processes falls on both alike; each reports its median and p90
//! wall time. clawdeck's very first run (the config not yet checked against OpenClaw's schema,
//! which later runs on the unchanged config remember) is reported on its own. Target:
//! clawdeck's median under 20 ms.
//!
//! Run: `cargo bench --bench exec_verdict`

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/timing.rs"]
mod timing;
use timing::ms;

const ROUNDS: usize = 8;
const TARGET: Duration = Duration::from_millis(20);

const CONFIG: &str = r#"{
  tools: { profile: "coding", exec: { host: "gateway", security: "allowlist", ask: "off" } },
  agents: { ownership: "explicit", defaults: { systemAgent: { agentId: "main" } }, entries: {
    main: {}, full: { tools: { exec: { security: "full" } } },
    asker: { tools: { exec: { ask: "on-miss" } } },
    always: { tools: { exec: { security: "full", ask: "always" } } },
    denier: { tools: { exec: { security: "deny" } } },
    safe: { tools: { exec: { safeBins: ["wc"] } } },
    hidden: { tools: { deny: ["exec"] } },
    fallback: { tools: { exec: { ask: "always" } } },
    docdeny: { tools: { exec: { security: "full" } } },
    bare: {}, modeask: { tools: { exec: { mode: "ask" } } },
  } },
}"#;

const APPROVALS: &str = r#"{ version: 1, agents: {
  "*": { allowlist: [{ pattern: "/usr/bin/uname" }] },
  main: { allowlist: [{ pattern: "/usr/bin/ls" }, { pattern: "/usr/bin/git" }] },
  asker: { allowlist: [{ pattern: "/usr/bin/ls" }] },
  fallback: { askFallback: "full", allowlist: [{ pattern: "/usr/bin/ls" }] },
  docdeny: { security: "deny" },
} }"#;

/// (agent, command, surface).
const QUESTIONS: &[(&str, &str, &str)] = &[
    ("main", "ls /", "interactive"),
    ("asker", "git status && npm test", "interactive"),
    ("fallback", "ls -la /tmp | wc -l", "headless"),
    (
        "main",
        "cd /srv && ls; echo $(uname -a) > /tmp/out",
        "headless",
    ),
    ("safe", "ls / | head -2 | wc -l || true", "interactive"),
];

fn fail(message: &str) -> ! {
    eprintln!("exec_verdict bench: {message}");
    std::process::exit(1);
}

/// The release wrapper ../shared/realclaw/setup.sh installs (`OPENCLAW_BIN` first).
fn openclaw_bin() -> Option<PathBuf> {
    let from_env = std::env::var_os("OPENCLAW_BIN").map(PathBuf::from);
    let installed =
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/realclaw/bin/openclaw"));
    from_env.into_iter().chain(installed).find(|p| p.is_file())
}

struct Workload {
    dir: PathBuf,
    /// Where the approvals document is: None when stored in the state database.
    approvals_file: Option<PathBuf>,
}

impl Workload {
    /// A home with OpenClaw's config and state directory (`<dir>/.openclaw`).
    fn create(openclaw: Option<&Path>) -> Workload {
        let dir = std::env::temp_dir().join(format!("clawdeck-bench-exec-{}", std::process::id()));
        let state = dir.join(".openclaw");
        std::fs::create_dir_all(&state).unwrap_or_else(|e| fail(&e.to_string()));
        std::fs::write(state.join("openclaw.json"), CONFIG)
            .unwrap_or_else(|e| fail(&e.to_string()));
        let file = dir.join("approvals.json5");
        std::fs::write(&file, APPROVALS).unwrap_or_else(|e| fail(&e.to_string()));
        let stored = openclaw.is_some_and(|bin| {
            Command::new(bin)
                .args(["approvals", "set", "--file"])
                .arg(&file)
                .env("REALCLAW_HOME", &dir)
                .env_remove("OPENCLAW_GATEWAY_URL")
                .env_remove("OPENCLAW_GATEWAY_TOKEN")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
        Workload {
            dir,
            approvals_file: (!stored).then_some(file),
        }
    }

    fn clawdeck(&self, (agent, command, surface): (&str, &str, &str)) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.arg("--config")
            .arg(self.dir.join(".openclaw/openclaw.json"))
            .args(["explain", "exec", "--agent", agent, "--command", command])
            .args(["--surface", surface, "--json"])
            .env("HOME", &self.dir)
            .env("XDG_CACHE_HOME", self.dir.join(".cache"))
            .env("OPENCLAW_STATE_DIR", self.dir.join(".openclaw"))
            .env("CLAWDECK_OPENCLAW_VERSION", "2026.9");
        if let Some(file) = &self.approvals_file {
            cmd.arg("--approvals").arg(file);
        }
        cmd
    }

    fn exec_policy_show(&self, bin: &Path) -> Command {
        let mut cmd = Command::new(bin);
        cmd.args(["exec-policy", "show", "--json"])
            .env("REALCLAW_HOME", &self.dir)
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_STATE_DIR");
        cmd
    }
}

impl Drop for Workload {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `cmd` to its end; its wall time and stdout.
fn timed(mut cmd: Command) -> (Duration, String) {
    let started = Instant::now();
    let out = cmd
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let took = started.elapsed();
    if !out.status.success() {
        fail(&format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    (took, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn quantile(times: &mut [Duration], q: f64) -> Duration {
    times.sort();
    let at = ((times.len() as f64 - 1.0) * q).round() as usize;
    times.get(at).copied().unwrap_or_default()
}

fn main() {
    let openclaw = openclaw_bin();
    let workload = Workload::create(openclaw.as_deref());
    let mut verdicts = Vec::new();
    // The first run checks the config against OpenClaw's schema; later runs on the unchanged
    // config find it accepted already (clawdeck's cache), as an operator's repeated runs do.
    let (first, _) = timed(workload.clawdeck(QUESTIONS[0]));
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for round in 0..ROUNDS {
        for question in QUESTIONS {
            let (took, out) = timed(workload.clawdeck(*question));
            ours.push(took);
            if round == 0 {
                let answer: serde_json::Value =
                    serde_json::from_str(&out).unwrap_or_else(|e| fail(&e.to_string()));
                verdicts.push(answer["command"]["verdict"].to_string());
            }
        }
        if let Some(bin) = &openclaw {
            theirs.push(timed(workload.exec_policy_show(bin)).0);
        }
    }
    let from = match &workload.approvals_file {
        None => "stored by `openclaw approvals set`, read from the state database",
        Some(_) => "given as a file (OpenClaw not installed)",
    };
    println!(
        "explain exec --command: {} questions x {ROUNDS} rounds; approvals {from}",
        QUESTIONS.len()
    );
    println!("  verdicts: {}", verdicts.join(", "));
    let ours_median = quantile(&mut ours, 0.5);
    println!(
        "  clawdeck explain exec --command --json      median {:8.1} ms  p90 {:8.1} ms  (whole process)",
        ms(ours_median),
        ms(quantile(&mut ours, 0.9))
    );
    println!(
        "    its first run, checking the config against OpenClaw's schema: {:.1} ms",
        ms(first)
    );
    match &openclaw {
        Some(bin) => {
            let theirs_median = quantile(&mut theirs, 0.5);
            println!(
                "  openclaw exec-policy show --json            median {:8.1} ms  p90 {:8.1} ms  ({})",
                ms(theirs_median),
                ms(quantile(&mut theirs, 0.9)),
                bin.display()
            );
            println!(
                "  clawdeck answers one command {:.1}x faster than OpenClaw shows the settings",
                ms(theirs_median) / ms(ours_median).max(0.001)
            );
        }
        None => println!(
            "  openclaw exec-policy show: skipped (OpenClaw not installed: ../shared/realclaw/setup.sh)"
        ),
    }
    println!(
        "  target: median < {} ms: {}",
        TARGET.as_millis(),
        if ours_median < TARGET {
            "met"
        } else {
            "MISSED"
        }
    );
}
