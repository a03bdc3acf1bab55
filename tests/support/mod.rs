//! Helpers shared by the tests (and the process benchmark): the fake CLI child, a fake
//! gateway, the workspace's sources.
#![allow(dead_code)]

pub mod config_validity;
pub mod exec_matrix;
pub mod fake_gateway;
pub mod headless;
pub mod own_gateway;
pub mod recordings;
pub mod sources;
pub mod tmux;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The fake CLI example binary (`examples/fake_cli.rs`), next to this test's executable:
/// `target/<profile>/deps/<test>` → `target/<profile>/examples/fake_cli`. `cargo test` builds
/// examples, but a filtered run (`--test x`) may not; then it is built once here.
pub fn fake_cli() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().unwrap_or_default();
        let mut profile_dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
        if profile_dir.file_name().is_some_and(|name| name == "deps") {
            profile_dir.pop();
        }
        let candidate = profile_dir.join("examples").join("fake_cli");
        if !candidate.exists() {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
            let mut build = Command::new(cargo);
            build.current_dir(env!("CARGO_MANIFEST_DIR")).args(["build", "--example", "fake_cli"]);
            if profile_dir.file_name().is_some_and(|name| name == "release") {
                build.arg("--release");
            }
            if let Some(target_dir) = profile_dir.parent() {
                build.arg("--target-dir").arg(target_dir);
            }
            let status = build.status();
            assert!(
                status.as_ref().is_ok_and(|status| status.success()),
                "building the fake_cli example failed ({status:?}); run `cargo build --example fake_cli`"
            );
        }
        assert!(candidate.exists(), "fake_cli not found at {}", candidate.display());
        candidate
    })
}

pub fn fake_cli_str() -> String {
    fake_cli().to_string_lossy().into_owned()
}

/// True while `pid` exists and is not a zombie.
pub fn pid_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !matches!(
            clawdeck_core::process::group::parse_stat(&stat),
            Some(('Z' | 'X', _, _))
        ),
        Err(_) => false,
    }
}

/// The group is gone: `kill(-pgid, 0)` fails with ESRCH, or (where PID 1 does not reap
/// orphans, as in some containers) only zombies are left in it.
pub fn group_gone(pgid: i32) -> bool {
    let esrch = matches!(
        nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pgid), None),
        Err(nix::errno::Errno::ESRCH)
    );
    esrch || !clawdeck_core::process::group::group_has_live_members(pgid)
}

/// Assert the group has no live member, allowing `within` for the kernel to finish kills.
pub fn assert_group_gone(pgid: i32, within: Duration) {
    let deadline = Instant::now() + within;
    while !group_gone(pgid) {
        assert!(
            Instant::now() < deadline,
            "process group {pgid} still has live members: {:?}",
            clawdeck_core::process::group::live_members_from_proc(pgid)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn assert_pid_gone(pid: i32, within: Duration) {
    let deadline = Instant::now() + within;
    while pid_alive(pid) {
        assert!(Instant::now() < deadline, "pid {pid} still alive");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Children of this process that are zombies (exited, not reaped).
pub fn zombie_children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut zombies = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|name| name.parse::<i32>().ok())
            else {
                continue;
            };
            if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                && let Some((state, ppid, _)) = clawdeck_core::process::group::parse_stat(&stat)
                && ppid == me
                && state == 'Z'
            {
                zombies.push(pid);
            }
        }
    }
    zombies
}

/// A field of /proc/self/status in KiB (`VmHWM`, `VmRSS`).
pub fn proc_status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        rest.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

/// The shared real OpenClaw gateway's URL and token, when `.ci/run` (or the operator) exported
/// them (`OPENCLAW_GATEWAY_URL`, `OPENCLAW_GATEWAY_TOKEN`).
pub fn shared_gateway() -> Option<(String, String)> {
    Some((
        std::env::var("OPENCLAW_GATEWAY_URL")
            .ok()
            .filter(|u| !u.is_empty())?,
        std::env::var("OPENCLAW_GATEWAY_TOKEN")
            .ok()
            .filter(|t| !t.is_empty())?,
    ))
}

/// A token-authenticated endpoint named `name` for a gateway's http(s) or ws(s) `url`.
pub fn token_endpoint(name: &str, url: &str, token: &str) -> clawdeck_gateway::GatewayEndpoint {
    clawdeck_gateway::GatewayEndpoint {
        name: name.into(),
        url: clawdeck_gateway::endpoint::websocket_url(url)
            .unwrap_or_else(|err| panic!("gateway url {url}: {err}")),
        auth: clawdeck_gateway::GatewayAuth::Token(token.into()),
        origin: "test".into(),
    }
}

/// A command's stdout and stderr without the line naming the config's source (`config: ...`,
/// or `"config": ...` in JSON), so a remote config's answer compares with a local file's.
pub fn without_config_source(out: &std::process::Output) -> (String, String) {
    let strip = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| !l.starts_with("config: ") && !l.trim_start().starts_with("\"config\": "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    (strip(&out.stdout), strip(&out.stderr))
}

/// Peak resident memory of a process (kB), from /proc; None once it is gone.
pub fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// Waits for `child` to exit, sampling its peak resident memory (kB) as it runs; kills it and
/// panics (naming `what`) when it is still running `within` after `started`.
pub fn peak_until_exit(
    child: &mut std::process::Child,
    started: Instant,
    within: Duration,
    what: &str,
) -> u64 {
    let mut peak = 0;
    loop {
        if let Some(kb) = peak_rss_kb(child.id()) {
            peak = peak.max(kb);
        }
        if child.try_wait().ok().flatten().is_some() {
            return peak;
        }
        if started.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running {within:?} after start (peak {peak} kB)");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
