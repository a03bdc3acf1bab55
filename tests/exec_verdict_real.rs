//! Will this command run? `clawdeck explain exec --command` against what the real OpenClaw
//! does with the same command: a matrix of (agent, command, surface) cases, each run as a real
//! turn (the mock LLM's `CALL exec {...}` makes the agent call exec), observed (the command's
//! output, a denial, an approval request or "Tool exec not found") and compared with the
//! verdict, and the denial's wording with the verdict's reason.
//!
//! - interactive: a gateway `chat.send` turn from `clawdeck chat` (an approval client: a
//!   question is raised as `exec.approval.requested`);
//! - headless: `openclaw agent` through the gateway, with no approval client connected (a
//!   question falls back to askFallback);
//! - local: `openclaw agent --local` with the gateway stopped (a question cannot even be
//!   registered).
//!
//! One gateway of the test's own serves every case: each agent carries its own `tools.exec`
//! (and one has exec denied by tool policy); the host approvals document is stored with
//! `openclaw approvals set` and clawdeck reads it from OpenClaw's state database, and again
//! through the gateway with `--remote-config` (`config.get`, `exec.approvals.get`) for every
//! interactive and headless case.
//!
//! They need the real OpenClaw (OPENCLAW_BIN, ../shared/realclaw): `#[ignore]`d, run by `.ci/run`
//! with `--ignored` (2026.9.6, and 2026.8.2 through `OPENCLAW_BIN`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use Surface::{Headless as H, Interactive as I, Local as L};
use serde_json::Value;
use support::exec_matrix::{
    APPROVALS, CASES, CRON_CASES, FORWARDING, MatrixCase, RecordedConfig, SESSION_CASES, SUITE,
    Surface, Turn, directed, disagreement, explain_json, matrix_config, seen,
};
use support::own_gateway::OwnGateway;
use support::recordings::{Portable, Shelf};

/// What the real turn did with the exec call.
#[derive(Debug, Clone)]
struct Observed {
    verdict: &'static str,
    /// The tool's output or error text, or the approval request.
    text: String,
}

/// Sorts a tool result's text: OpenClaw's error shapes are `{"status":"error",...}` and
/// `Exec denied (...)`; "Tool exec not found" is a tool the agent does not have.
fn observed_result(text: &str, is_error: bool) -> Observed {
    let verdict = if text.contains("Tool exec not found") {
        "hidden"
    } else if is_error
        || text.trim_start().starts_with("Exec denied")
        || text.contains("\"status\": \"error\"")
    {
        "denied"
    } else {
        "runs"
    };
    Observed {
        verdict,
        text: text.to_string(),
    }
}

/// A turn that ended without an exec result: 2026.8.2 answers a call to a tool the agent does
/// not have with its own reply instead of the tool error.
fn observed_reply(reply: &str) -> Option<Observed> {
    (reply.contains("tool \"exec\"") && reply.contains("isn't available")).then(|| Observed {
        verdict: "hidden",
        text: reply.to_string(),
    })
}

/// How the real OpenClaw (2026.9.6) refuses a turn before any tool ran when its own SQLite
/// upkeep got in the way: an agent database idle for 60 s is closed by the gateway, and that
/// cleanup holds the state database's lifecycle lock for seconds (10 s and more under load);
/// a turn on that agent meanwhile fails with the cleanup's error, a turn on another agent with
/// the lock's. Once, in CI, the gateway kept the lock for over a minute: a turn refused twice
/// is run again on a restarted gateway.
const UPSTREAM_BUSY: [&str; 3] = [
    "another OpenClaw process owns state-lifecycle",
    "Agent database cleanup failed",
    "Agent database execution admission is closed",
];
/// How long to let the holder finish before the turn is run again.
const STATE_BUSY_PAUSE: Duration = Duration::from_secs(20);

/// The upstream refusal in `seen`, if it is one of [`UPSTREAM_BUSY`].
fn upstream_busy(seen: &str) -> Option<&'static str> {
    UPSTREAM_BUSY.into_iter().find(|m| seen.contains(m))
}

/// The chat message of `turn`: its `/exec` directive, then the scripted call.
fn turn_message(turn: Option<Turn>, command: &str) -> String {
    let directive = turn.map(|t| t.directive).unwrap_or_default();
    format!("{directive} {}", exec_message(command))
        .trim()
        .to_string()
}

fn exec_message(command: &str) -> String {
    format!("CALL exec {}", serde_json::json!({ "command": command }))
}

struct Matrix {
    gateway: OwnGateway,
    /// The approvals file and homes for `clawdeck chat`.
    work: tempfile::TempDir,
}

impl Matrix {
    /// A gateway with the matrix's agents, `top` added to its config's top level.
    fn start(bin: &Path, top: &str) -> Matrix {
        // OpenClaw takes the last of two `agents` keys: these replace start.sh's two agents.
        let extra = matrix_config(&release_of(bin), top);
        let gateway = OwnGateway::start_release(bin, &extra).expect("the release is installed");
        let work = tempfile::tempdir().unwrap();
        let matrix = Matrix { gateway, work };
        matrix.store_approvals();
        matrix
    }

    /// `openclaw approvals set --file`: the real writer of the document clawdeck then reads.
    fn store_approvals(&self) {
        let file = self.work.path().join("approvals.json5");
        std::fs::write(&file, APPROVALS).unwrap();
        let out = self
            .openclaw()
            .args(["approvals", "set", "--file"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "openclaw approvals set: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// An automation's agent turn: a job made with `openclaw cron add` (agent `agent`, the
    /// scripted call as its message) and run once with `openclaw cron run --wait`; what its
    /// run history says the exec call did (run again, at most three times, after
    /// [`UPSTREAM_BUSY`] refusals).
    fn cron(&self, agent: &str, command: &str, n: usize) -> Observed {
        let ws = self.gateway.url.replacen("http://", "ws://", 1);
        let auth = ["--url", ws.as_str(), "--token", self.gateway.token.as_str()];
        let out = self
            .openclaw()
            .args(["cron", "add", "--every", "24h", "--agent", agent])
            .args([
                "--name",
                &format!("c{n}"),
                "--message",
                &exec_message(command),
            ])
            .args(["--json"])
            .args(auth)
            .output()
            .unwrap();
        let added: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "openclaw cron add: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let id = added["id"]
            .as_str()
            .or(added["job"]["id"].as_str())
            .expect("the job's id")
            .to_string();
        for attempt in 0..4 {
            let ran = self
                .openclaw()
                .args(["cron", "run", &id, "--wait", "--wait-timeout", "150s"])
                .args(["--timeout", "160000"])
                .args(auth)
                .output()
                .unwrap();
            let history = self
                .openclaw()
                .args(["cron", "runs", "--id", &id, "--json"])
                .args(auth)
                .output()
                .unwrap();
            let runs: Value = serde_json::from_slice(&history.stdout).unwrap_or_default();
            let newest = runs["entries"]
                .as_array()
                .and_then(|e| e.iter().max_by_key(|r| r["ts"].as_u64()))
                .cloned()
                .unwrap_or_default();
            let summary = newest["summary"].as_str().unwrap_or_default();
            if let Some(at) = summary.find("tool exec returned:") {
                return observed_result(&summary[at + "tool exec returned:".len()..], false);
            }
            let seen = format!(
                "{newest}\n{}{}",
                String::from_utf8_lossy(&ran.stdout),
                String::from_utf8_lossy(&ran.stderr)
            );
            match upstream_busy(&seen) {
                Some(why) if attempt < 3 => {
                    eprintln!("cron {agent} {command:?}: {why}; running it again");
                    std::thread::sleep(STATE_BUSY_PAUSE);
                }
                _ => panic!("cron {agent} {command:?}: no tool result in the run:\n{seen}"),
            }
        }
        unreachable!("the loop returns or panics")
    }

    /// The release's CLI with the gateway's home, reaching the gateway as its config says (not
    /// through OPENCLAW_GATEWAY_URL, which 2026.9.6 serves with fewer scopes).
    fn openclaw(&self) -> Command {
        let mut cmd = Command::new(self.gateway.openclaw_bin());
        cmd.env("REALCLAW_HOME", self.gateway.home())
            .env_remove("OPENCLAW_GATEWAY_URL")
            .env_remove("OPENCLAW_GATEWAY_TOKEN")
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_STATE_DIR");
        cmd
    }

    /// clawdeck's verdict for the case (`command` of `explain exec --json`).
    fn verdict(&self, agent: &'static str, command: &'static str, surface: Surface) -> Value {
        self.explain(&MatrixCase::on(agent, command, surface))
    }

    /// clawdeck's answer for `case` on the gateway's own config file and the approvals
    /// document OpenClaw stored.
    fn explain(&self, case: &MatrixCase) -> Value {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        // Two `agents` keys (start.sh's and ours) until a release rewrites the file: read as
        // OpenClaw reads them, the last wins.
        cmd.arg("--config")
            .arg(self.gateway.config_path())
            .args(case.explain_args())
            .env("OPENCLAW_STATE_DIR", self.gateway.home().join(".openclaw"))
            .env("HOME", self.work.path());
        let answer = explain_json(cmd, case);
        assert!(
            answer["approvals"]
                .as_str()
                .is_some_and(|a| a.ends_with("state/openclaw.sqlite#exec_approvals_config")),
            "the document OpenClaw stored is read: {answer}"
        );
        answer["command"].clone()
    }

    /// The verdict as `explain exec --remote-config` gives it: the gateway's own config
    /// (`config.get`) and its host's approvals document (`exec.approvals.get`).
    /// The whole answer (`command`, `session`, ...). With `session`, the session's permission mode and elevated level are the gateway's
    /// (`sessions.describe`).
    fn remote_verdict(
        &self,
        agent: &str,
        command: &str,
        surface: Surface,
        session: Option<&str>,
        flags: &[String],
    ) -> Value {
        let home = self.work.path().join("remote-home");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.args(["explain", "exec", "--remote-config", "--agent", agent])
            .args([
                "--command",
                command,
                "--surface",
                surface.as_str(),
                "--json",
            ]);
        if let Some(key) = session {
            cmd.args(["--session-key", key]);
        }
        cmd.args(flags);
        let out = cmd
            .env("HOME", &home)
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("OPENCLAW_GATEWAY_URL", &self.gateway.url)
            .env("OPENCLAW_GATEWAY_TOKEN", &self.gateway.token)
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_STATE_DIR")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "explain exec --remote-config {agent} {command:?}: {}{text}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert!(
            answer["approvals"]
                .as_str()
                .is_some_and(|a| a.contains("#exec_approvals_config")),
            "the gateway host's document is read: {answer}"
        );
        answer
    }

    /// A `chat.send` turn from `clawdeck chat`: the first approval request or tool result
    /// (run again, at most three times, after [`UPSTREAM_BUSY`] refusals).
    fn interactive(&self, agent: &str, command: &str, n: usize, turn: Option<Turn>) -> Observed {
        let mut attempt = 0;
        loop {
            match self.interactive_once(agent, command, n, attempt, turn) {
                Ok(observed) => return observed,
                Err(seen) if attempt < 3 && upstream_busy(&seen).is_some() => {
                    let why = upstream_busy(&seen).unwrap_or_default();
                    eprintln!("interactive {agent} {command:?}: {why}; running it again");
                    attempt += 1;
                    std::thread::sleep(STATE_BUSY_PAUSE);
                }
                Err(seen) => {
                    panic!(
                        "interactive {agent} {command:?}: no tool result or approval in 120 s:\n{seen}"
                    )
                }
            }
        }
    }

    fn interactive_once(
        &self,
        agent: &str,
        command: &str,
        n: usize,
        attempt: usize,
        turn: Option<Turn>,
    ) -> Result<Observed, String> {
        let home = self.work.path().join(format!("chat-{n}-{attempt}"));
        let at = |sub: &str| home.join(sub);
        let session = match turn.and_then(|t| t.setting) {
            Some(setting) => {
                let key = format!("agent:{agent}:pm{n}-{attempt}");
                self.patch_session(&key, setting);
                key
            }
            None => format!("agent:{agent}:m{n}-{attempt}"),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
            .args(["chat", "--session", &session])
            .args(["-m", &turn_message(turn, command), "--json"])
            .env("HOME", &home)
            .env("XDG_STATE_HOME", at("state"))
            .env("XDG_CONFIG_HOME", at("config"))
            .env("XDG_DATA_HOME", at("data"))
            .env("XDG_CACHE_HOME", at("cache"))
            .env("OPENCLAW_GATEWAY_URL", &self.gateway.url)
            .env("OPENCLAW_GATEWAY_TOKEN", &self.gateway.token)
            .env_remove("OPENCLAW_CONFIG_PATH")
            .stdout(Stdio::piped())
            .stderr(
                std::fs::File::create(self.work.path().join(format!("chat-{n}-{attempt}.err")))
                    .unwrap(),
            )
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut seen = Vec::new();
        let observed = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = rx.recv_timeout(left) else {
                break None;
            };
            seen.push(line.clone());
            let Ok(event) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if let Some(approval) = event.get("approval") {
                break Some(Observed {
                    verdict: "asks",
                    text: approval.to_string(),
                });
            }
            let tool = &event["tool"];
            if event["kind"] == "tool" && tool["phase"] == "result" {
                let text = match &tool["output"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                break Some(observed_result(&text, tool["isError"] == true));
            }
            if event["kind"] == "final" {
                break observed_reply(event["text"].as_str().unwrap_or_default());
            }
        };
        // SIGTERM: clawdeck aborts the turn it started (a pending question goes with it).
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(child.id() as i32),
            nix::sys::signal::Signal::SIGTERM,
        );
        let _ = child.wait();
        observed.ok_or_else(|| {
            let err = self.work.path().join(format!("chat-{n}-{attempt}.err"));
            format!(
                "{}\n{}",
                seen.join("\n"),
                std::fs::read_to_string(err).unwrap_or_default()
            )
        })
    }

    /// A headless `openclaw agent` turn whose question should wait (forwarded to a chat
    /// target): seen pending through `clawdeck approvals pending --all-operators`, then denied
    /// so the turn ends; a turn that ends on its own first is what it did instead.
    fn headless_waiting(&self, agent: &str, command: &str, n: usize) -> Observed {
        let mut child = self
            .openclaw()
            .args([
                "agent",
                "--agent",
                agent,
                "--session-id",
                &format!("h{n}-wait"),
            ])
            .args(["--message", &exec_message(command), "--timeout", "150"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(90);
        while Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                let out = child.wait_with_output().unwrap();
                let stdout = String::from_utf8_lossy(&out.stdout);
                return match stdout.find("tool exec returned:") {
                    Some(at) => observed_result(&stdout[at + "tool exec returned:".len()..], false),
                    None => panic!(
                        "openclaw agent {agent} {command:?}: ended without a tool result:\n{stdout}{}",
                        String::from_utf8_lossy(&out.stderr)
                    ),
                };
            }
            let pending = self.clawdeck(&["approvals", "pending", "--all-operators", "--json"]);
            let found = serde_json::from_str::<Value>(&pending).ok().and_then(|v| {
                v["approvals"]
                    .as_array()?
                    .iter()
                    .find(|a| a["command"] == command)
                    .cloned()
            });
            if let Some(approval) = found {
                let id = approval["id"].as_str().unwrap_or_default().to_string();
                self.clawdeck(&["approvals", "resolve", "--all-operators", &id, "deny"]);
                let _ = child.kill();
                let _ = child.wait();
                return Observed {
                    verdict: "asks",
                    text: approval.to_string(),
                };
            }
            std::thread::sleep(Duration::from_secs(2));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "openclaw agent {agent} {command:?}: neither a pending approval nor a result in 90 s"
        );
    }

    /// Creates session `key` with permission `mode` (`sessions.patch`, through the real CLI,
    /// which holds operator.admin: `full` needs it).
    fn patch_session(&self, key: &str, (field, value): (&str, &str)) {
        let params = serde_json::json!({ "key": key, field: value }).to_string();
        let ws = self.gateway.url.replacen("http://", "ws://", 1);
        let out = self
            .openclaw()
            .args([
                "gateway",
                "call",
                "sessions.patch",
                "--json",
                "--params",
                &params,
            ])
            .args(["--url", &ws, "--token", &self.gateway.token])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(&format!("\"{field}\": \"{value}\"")),
            "sessions.patch {key} {field} {value}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A clawdeck CLI command against the gateway, from a home of its own: its stdout.
    fn clawdeck(&self, args: &[&str]) -> String {
        let home = self.work.path().join("cli-home");
        let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
            .args(args)
            .env("HOME", &home)
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("OPENCLAW_GATEWAY_URL", &self.gateway.url)
            .env("OPENCLAW_GATEWAY_TOKEN", &self.gateway.token)
            .env_remove("OPENCLAW_CONFIG_PATH")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `openclaw agent [--local]`: the tool result the mock echoes back. A turn the real
    /// OpenClaw refused before any tool ran because of its own database upkeep
    /// ([`UPSTREAM_BUSY`]) is run again, at most three times, the second time on a restarted
    /// gateway (headless turns run one at a time, so no other turn is cut short).
    fn headless(&self, agent: &str, command: &str, n: usize, local: bool) -> Observed {
        let mut attempt = 0;
        loop {
            let mut cmd = self.openclaw();
            let session = format!("h{n}-{attempt}");
            cmd.args(["agent", "--agent", agent, "--session-id", &session])
                .args(["--message", &exec_message(command), "--timeout", "150"]);
            if local {
                cmd.arg("--local");
            }
            let out = cmd.output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            if let Some(at) = stdout.find("tool exec returned:") {
                return observed_result(&stdout[at + "tool exec returned:".len()..], false);
            }
            if let Some(observed) = observed_reply(&stdout) {
                return observed;
            }
            let stderr = String::from_utf8_lossy(&out.stderr);
            if let Some(why) = upstream_busy(&format!("{stdout}{stderr}")).filter(|_| attempt < 3) {
                attempt += 1;
                if attempt == 2 && !local {
                    eprintln!("openclaw agent {agent} {command:?}: {why}; restarting the gateway");
                    self.gateway.stop_and_restart();
                } else {
                    eprintln!("openclaw agent {agent} {command:?}: {why}; running it again");
                    std::thread::sleep(STATE_BUSY_PAUSE);
                }
                continue;
            }
            panic!(
                "openclaw agent {agent} {command:?} (local {local}): no tool result:\n{stdout}{stderr}"
            );
        }
    }
}

/// The release of the wrapper `bin` (its installed package.json).
fn release_of(bin: &Path) -> String {
    let package = bin
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("openclaw/node_modules/openclaw/package.json"))
        .unwrap_or_default();
    let text = std::fs::read_to_string(package).unwrap_or_default();
    serde_json::from_str::<Value>(&text).unwrap_or_default()["version"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Runs `jobs` on `workers` threads; the results in order.
fn run_parallel<T: Send>(
    jobs: &[(usize, &str, &str)],
    workers: usize,
    run: impl Fn(usize, &str, &str) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<T>>> =
        jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((n, agent, command)) = jobs.get(i) else {
                        break;
                    };
                    let value = run(*n, agent, command);
                    *results[i].lock().unwrap() = Some(value);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().expect("every job ran"))
        .collect()
}

/// The cases asked in every run, whatever the day: one of each verdict the real turns give
/// (runs, asks, denied, hidden), so every run sees each kind of observation parsed.
const ANCHORS: &[&str] = &["main ls /", "asker whoami", "denier ls /", "hidden ls /"];

/// Whether the real turns of the case `label` are taken in this run: every turn costs a real
/// agent run (the whole matrix took some 11 minutes a release on CI's machine), so a run asks
/// the anchors and one in `share` of the other cases, a different share each day, as the
/// fidelity re-checks do (`CLAWDECK_RECHECK=all`: every case).
fn asked_today(label: &str) -> bool {
    let share = support::recordings::share_from_env();
    let today = (support::recordings::now() / 86_400) % share.max(1);
    ANCHORS.contains(&label) || support::recordings::slot(label, share) == today
}

fn cases_on(surface: Surface) -> Vec<(usize, &'static str, &'static str)> {
    CASES
        .iter()
        .enumerate()
        .filter(|(_, (_, _, on))| on.contains(&surface))
        .filter(|(_, (agent, command, _))| asked_today(&format!("{agent} {command}")))
        .map(|(n, (agent, command, _))| (n, *agent, *command))
        .collect()
}

/// Forwarding to a chat target, on a gateway of its own (2026.9.6 with such a target let other
/// agents' headless turns fail on its state database's lock): the headless turn waits for an
/// answer instead of falling back, and an automation's question is never forwarded.
fn forwarding_disagreements(bin: &Path) -> Vec<String> {
    let mut disagreements = Vec::new();
    let forwarding = Matrix::start(bin, FORWARDING);
    // An automation's question is never forwarded to a chat target: it falls back.
    let real_cron = forwarding.cron("fwd", "ls /", 999);
    let ours_cron = forwarding.verdict("fwd", "ls /", Surface::Cron);
    if ours_cron["verdict"] != real_cron.verdict {
        disagreements.push(format!(
            "fwd \"ls /\" cron (not forwarded): real {} ({}) / clawdeck {} ({})",
            real_cron.verdict, real_cron.text, ours_cron["verdict"], ours_cron["reason"]
        ));
    }
    let real = forwarding.headless_waiting("fwd", "ls /", CASES.len());
    let ours = forwarding.verdict("fwd", "ls /", H);
    if ours["verdict"] != real.verdict {
        disagreements.push(format!(
            "fwd \"ls /\" headless (forwarded): real {} ({}) / clawdeck {} ({})",
            real.verdict, real.text, ours["verdict"], ours["reason"]
        ));
    }
    disagreements
}

#[test]
#[ignore = "needs the real OpenClaw CLI and gateway: .ci/run runs it with --ignored"]
fn explain_exec_agrees_with_real_turns() {
    let Some(bin) = std::env::var("OPENCLAW_BIN").ok().filter(|b| !b.is_empty()) else {
        eprintln!("exec_verdict_real: SKIPPED (OPENCLAW_BIN not set)");
        return;
    };
    let bin = PathBuf::from(bin);
    let matrix = Matrix::start(&bin, "");
    let mut observed: Vec<(usize, Surface, Observed)> = Vec::new();
    // Headless turns first, one at a time, before any approval client ever connected: a
    // question finds a route (and waits up to 30 minutes instead of falling back) when any
    // approval client is connected at that moment; under CI's load 2026.8.2 let two headless
    // turns wait while other turns' connections were open.
    let headless = cases_on(Surface::Headless);
    let results = run_parallel(&headless, 1, |n, agent, command| {
        matrix.headless(agent, command, n, false)
    });
    observed.extend(headless.iter().zip(results).map(|(c, o)| (c.0, H, o)));
    // Automations' agent turns, also before any approval client connected (one would make a
    // question wait for it).
    let cron_cases: Vec<(&str, &str)> = CRON_CASES
        .iter()
        .copied()
        .filter(|(agent, command)| asked_today(&format!("cron {agent} {command}")))
        .collect();
    let session_cases: Vec<(usize, (&str, &str, Turn))> = SESSION_CASES
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, (agent, command, turn))| {
            asked_today(&format!("{agent} {command} {}", turn.label()))
        })
        .collect();
    let mut crons = Vec::new();
    for (i, (agent, command)) in cron_cases.iter().enumerate() {
        crons.push(matrix.cron(agent, command, 900 + i));
    }
    let interactive = cases_on(Surface::Interactive);
    let results = run_parallel(&interactive, 4, |n, agent, command| {
        matrix.interactive(agent, command, n, None)
    });
    observed.extend(interactive.iter().zip(results).map(|(c, o)| (c.0, I, o)));
    let moded: Vec<(usize, &str, &str)> = session_cases
        .iter()
        .map(|(i, (agent, command, _))| (CASES.len() + 1 + i, *agent, *command))
        .collect();
    let in_modes = run_parallel(&moded, 4, |n, agent, command| {
        let turn = SESSION_CASES[n - CASES.len() - 1].2;
        matrix.interactive(agent, command, n, Some(turn))
    });
    // The same cases as `--remote-config` answers them, while the gateway runs.
    let remote: Vec<(usize, Surface, Value)> = observed
        .iter()
        .map(|(n, surface, _)| {
            let (agent, command, _) = CASES[*n];
            (
                *n,
                *surface,
                matrix.remote_verdict(agent, command, *surface, None, &[])["command"].clone(),
            )
        })
        .collect();
    // The session cases again, the mode or level read from a session the gateway keeps.
    let remote_sessions: Vec<Option<Value>> = session_cases
        .iter()
        .map(|(i, (agent, command, turn))| {
            let setting = turn.setting?;
            let key = format!("agent:{agent}:rv{i}");
            matrix.patch_session(&key, setting);
            let directive = directed(turn.directive).flags();
            let ours = matrix.remote_verdict(agent, command, I, Some(&key), &directive);
            assert_eq!(
                ours["session"][setting.0], setting.1,
                "the gateway's session {key} is read: {ours}"
            );
            Some(ours["command"].clone())
        })
        .collect();
    // `--local` is refused while a gateway runs for the state directory; one at a time (they
    // share its ownership lock).
    matrix.gateway.stop_gateway_only();
    for (n, agent, command) in cases_on(Surface::Local) {
        observed.push((n, L, matrix.headless(agent, command, n, true)));
    }

    let mut disagreements = Vec::new();
    let forwarded = asked_today("forwarding");
    if forwarded {
        disagreements.extend(forwarding_disagreements(&bin));
    }
    // Every real turn against clawdeck on the gateway's own config and on the matrix's config
    // as recorded (what tests/exec_verdicts_recorded.rs checks offline), and against its
    // recording: recorded (CLAWDECK_RECORD=1), or a fresh answer that differs fails.
    let turns =
        cron_cases
            .iter()
            .zip(&crons)
            .map(|((agent, command), real)| (MatrixCase::on(agent, command, Surface::Cron), real))
            .chain(session_cases.iter().zip(&in_modes).map(
                |((_, (agent, command, turn)), real)| {
                    (MatrixCase::in_turn(agent, command, *turn), real)
                },
            ))
            .chain(observed.iter().map(|(n, surface, real)| {
                let (agent, command, _) = CASES[*n];
                (MatrixCase::on(agent, command, *surface), real)
            }));
    let (release, printed) = support::recordings::openclaw_version(&bin);
    let shelf = Shelf::new(SUITE, &release);
    let recorded_config = RecordedConfig::new(&release);
    for (case, real) in turns {
        let real = seen(real.verdict, &real.text);
        let ours = matrix.explain(&case);
        if let Some(why) = disagreement(&real, &ours) {
            disagreements.push(format!("{}: {why}", case.label()));
        }
        if let Some(why) = disagreement(&real, &recorded_config.verdict(&case)) {
            disagreements.push(format!(
                "{} (the matrix's config as recorded): {why}",
                case.label()
            ));
        }
        let portable = Portable::new(&[]);
        disagreements.extend(shelf.record_or_check(
            &case.id(),
            &case.inputs(),
            &printed,
            &real,
            &portable,
        ));
    }
    for (((_, (agent, command, turn)), real), ours) in
        session_cases.iter().zip(&in_modes).zip(&remote_sessions)
    {
        if let Some(ours) = ours
            && ours["verdict"] != real.verdict
        {
            disagreements.push(format!(
                "--remote-config --session-key ({}) {agent} {command:?}: real {} / clawdeck {} at {}",
                turn.label(),
                real.verdict,
                ours["verdict"],
                ours["step"]
            ));
        }
    }
    for (n, surface, ours) in &remote {
        let (agent, command, _) = CASES[*n];
        let real = observed
            .iter()
            .find(|(m, s, _)| m == n && s == surface)
            .map(|(_, _, o)| o.verdict)
            .unwrap_or_default();
        if ours["verdict"] != real {
            disagreements.push(format!(
                "--remote-config {agent} {command:?} {}: real {real} / clawdeck {} at {}",
                surface.as_str(),
                ours["verdict"],
                ours["step"]
            ));
        }
    }
    let count = observed.len() + session_cases.len() + cron_cases.len() + usize::from(forwarded);
    let whole =
        CASES.iter().map(|c| c.2.len()).sum::<usize>() + SESSION_CASES.len() + CRON_CASES.len() + 1;
    eprintln!(
        "exec_verdict_real ({}): {} of {count} cases agree ({count} of the matrix's {whole} \
         asked in this run: the anchors and today's share; CLAWDECK_RECHECK=all asks all)",
        release_of(&bin),
        count - disagreements.len()
    );
    assert!(whole >= 30, "the matrix has {whole} cases");
    for verdict in ["runs", "asks", "denied", "hidden"] {
        assert!(
            observed.iter().any(|(_, _, o)| o.verdict == verdict),
            "no case was really {verdict}"
        );
    }
    assert!(
        disagreements.is_empty(),
        "clawdeck's verdict differs from the real turn:\n{}",
        disagreements.join("\n")
    );
}
