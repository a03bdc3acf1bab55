//! A headless clawdeck child (`gateway watch --json`, `approvals watch --json`, `chat --json`)
//! whose stdout JSON lines arrive on a channel; stopped like an operator would (SIGINT, then a
//! kill after 5 s) when dropped.

#![allow(clippy::expect_used, clippy::panic)] // test support: a failed step is the test's failure

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

pub struct Headless {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Headless {
    /// Spawns `command` with its stdout read line by line (stderr goes to the test's).
    pub fn spawn(mut command: Command) -> Headless {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawning clawdeck");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Headless { child, lines }
    }

    /// Lines until one satisfies `pred` (returned), or panics after `timeout`.
    pub fn wait_for(&self, timeout: Duration, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    eprintln!("< {line}");
                    let value: Value = serde_json::from_str(&line)
                        .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
                    if pred(&value) {
                        return value;
                    }
                }
                Err(_) => panic!("no {what} within {} s", timeout.as_secs()),
            }
        }
    }

    /// The exit status, or panics after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("still running after {} s", timeout.as_secs());
    }

    pub fn signal(&self, signal: nix::sys::signal::Signal) {
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.child.id() as i32), signal);
    }
}

impl Drop for Headless {
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        self.signal(nix::sys::signal::Signal::SIGINT);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
