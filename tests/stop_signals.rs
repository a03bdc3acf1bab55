//! SIGTERM and SIGHUP to `clawdeck route` and `clawdeck invoke` take the child trees along (even
//! trees that ignore SIGTERM) and leave no temp file; SIGKILL of clawdeck still kills the direct
//! child (parent-death signal).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

fn fake_bin() -> String {
    format!(
        "{}/tests/fixtures/fake-openclaw",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// True while `pid` exists and is not a zombie.
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

fn wait_for_pids(pidfile: &Path) -> Vec<i32> {
    let begun = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(pidfile) {
            let pids: Vec<i32> = text
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.len() >= 2 {
                return pids;
            }
        }
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "no pidfile at {}",
            pidfile.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_with_deadline(mut child: Child, limit: Duration) -> std::process::Output {
    let begun = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if begun.elapsed() > limit {
            let _ = child.kill();
            panic!("clawdeck did not exit within {limit:?} of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn assert_all_dead(pids: &[i32], what: &str) {
    let begun = Instant::now();
    while pids.iter().any(|p| alive(*p)) && begun.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids {
        if alive(*pid) {
            let _ = kill(Pid::from_raw(*pid), Signal::SIGKILL);
            panic!("process {pid} survived {what}");
        }
    }
}

/// Config for `route` whose messages over 16 bytes go through a `--message-file` temp file.
fn route_config(dir: &Path) -> PathBuf {
    std::fs::write(dir.join("openclaw.json"), "{}").unwrap();
    std::fs::write(
        dir.join("clawdeck.json5"),
        r#"{ router: { defaultAgent: "ops", envPassthrough: ["PATH", "HOME", "FAKE_OPENCLAW_PIDFILE"], killGraceMs: 300, drainGraceMs: 300, messageFileThreshold: 16 } }"#,
    )
    .unwrap();
    dir.join("openclaw.json")
}

fn route_is_stopped_by(signal: Signal) {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let tmp = dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let pidfile = dir.path().join("pids");
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args([
            "route",
            "--message",
            "a long task that goes through a temp file [[scenario:grandchild]]",
        ])
        .env("OPENCLAW_BIN", fake_bin())
        .env("FAKE_OPENCLAW_PIDFILE", &pidfile)
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pids = wait_for_pids(&pidfile);
    let temp_files: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert_eq!(temp_files.len(), 1, "the message file exists while running");
    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(signal.as_str()), "{stderr}");
    assert_all_dead(&pids, signal.as_str());
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "temp files left behind: {left:?}");
}

#[test]
fn sigterm_to_route_kills_a_term_ignoring_tree_and_removes_the_temp_file() {
    route_is_stopped_by(Signal::SIGTERM);
}

#[test]
fn sighup_to_route_kills_a_term_ignoring_tree_and_removes_the_temp_file() {
    route_is_stopped_by(Signal::SIGHUP);
}

/// An OpenClaw config plus a sibling clawdeck.json5 pointing the workspace into the temp dir.
fn invoke_config(dir: &Path) -> PathBuf {
    std::fs::write(
        dir.join("openclaw.json"),
        r#"{ "tools": { "profile": "full" } }"#,
    )
    .unwrap();
    let ws = dir.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(
        dir.join("clawdeck.json5"),
        format!("{{ workspace: \"{}\" }}", ws.display()),
    )
    .unwrap();
    dir.join("openclaw.json")
}

fn invoke_exec(dir: &Path, command: &str) -> Child {
    let config = invoke_config(dir);
    let params = serde_json::json!({ "command": command }).to_string();
    clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["invoke", "exec", "--params", &params])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn invoke_is_stopped_by(signal: Signal) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    // The shell and its background sleep both ignore SIGTERM (SIG_IGN survives exec).
    let command = format!(
        "trap '' TERM; sleep 600 & echo $$ $! > {}; wait",
        pidfile.display()
    );
    let child = invoke_exec(dir.path(), &command);
    let pids = wait_for_pids(&pidfile);
    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(15));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_all_dead(&pids, signal.as_str());
}

#[test]
fn sigterm_to_invoke_kills_a_term_ignoring_tree() {
    invoke_is_stopped_by(Signal::SIGTERM);
}

#[test]
fn sighup_to_invoke_kills_a_term_ignoring_tree() {
    invoke_is_stopped_by(Signal::SIGHUP);
}

#[test]
fn sigkill_of_clawdeck_still_kills_its_direct_child() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let command = format!("echo $$ 0 > {}; exec sleep 600", pidfile.display());
    let mut child = invoke_exec(dir.path(), &command);
    let pids = wait_for_pids(&pidfile);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_all_dead(&pids[..1], "SIGKILL of clawdeck");
}

/// Peak resident memory of a process (kB), from /proc.
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// `route` into a pipe nobody reads while the child floods 200 MB: memory stays bounded and
/// clawdeck exits soon after the child ended, not when (if ever) the reader reads.
#[test]
fn route_with_an_unread_stdout_keeps_its_deadline_and_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let flood = dir.path().join("flood-openclaw");
    std::fs::write(
        &flood,
        "#!/bin/sh\nhead -c 200000000 /dev/zero | tr '\\0' 'x'\necho done\n",
    )
    .unwrap();
    std::fs::set_permissions(&flood, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (read_end, write_end) = nix::unistd::pipe().unwrap();
    let started = Instant::now();
    let mut child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "flood", "--timeout", "5"])
        .env("OPENCLAW_BIN", &flood)
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    loop {
        if let Some(kb) = peak_rss_kb(child.id()) {
            peak = peak.max(kb);
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("route still running 30 s after start with its stdout unread");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(read_end);
    // The run's timeout is 5 s (at most): with 300 ms graces and 2 s for the reader, it is done
    // well within 15 s whoever reads.
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    assert!(peak < 300 * 1024, "peak memory {peak} kB");
}

/// The binary, with its decision log in a scratch state dir rather than the user's
/// `~/.local/state`.
fn clawdeck_command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    command.env(
        "XDG_STATE_HOME",
        std::env::temp_dir().join(format!("clawdeck-test-state-{}", std::process::id())),
    );
    command
}
