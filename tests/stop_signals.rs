//! The one stop policy: SIGINT, SIGTERM or SIGHUP to clawdeck in any mode that starts children
//! (`route`, `invoke`, `mcp`, `verify`, the version probe, gateway commands) kills every child
//! tree clawdeck started (even trees that ignore SIGTERM), removes its temp files and exits
//! with 128 + the signal's number; SIGKILL of clawdeck still kills the direct child
//! (parent-death signal), and the watchdog ends the rest of its trees. Descendants that made a
//! session of their own are ended too. The console's share is in tests/e2e_tmux.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use support::peak_until_exit;

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
    assert_eq!(out.status.code(), Some(exit_code_for(signal)), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(label(signal)), "{stderr}");
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

#[test]
fn sigint_to_route_kills_a_term_ignoring_tree_and_removes_the_temp_file() {
    route_is_stopped_by(Signal::SIGINT);
}

/// 128 + the signal's number, as a shell reports a command a signal ended.
fn exit_code_for(signal: Signal) -> i32 {
    128 + signal as i32
}

/// How clawdeck's messages name the signal.
fn label(signal: Signal) -> &'static str {
    match signal {
        Signal::SIGINT => "Ctrl-C",
        other => other.as_str(),
    }
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
    assert_eq!(out.status.code(), Some(exit_code_for(signal)), "{out:?}");
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
fn sigint_to_invoke_kills_a_term_ignoring_tree() {
    invoke_is_stopped_by(Signal::SIGINT);
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

/// Waits for a file holding one pid (written by a process about itself).
fn wait_for_pid(path: &Path) -> i32 {
    let begun = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "no pid in {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A background shell that made a session of its own (as daemonizing commands do), ignores
/// SIGTERM, writes its pid to `pidfile` and sleeps; `env_clear` also empties its environment.
fn setsid_sleeper(pidfile: &Path, env_clear: bool) -> String {
    format!(
        "setsid {}sh -c 'trap \"\" TERM; echo $$ > {}; exec sleep 600' </dev/null >/dev/null 2>&1 &",
        if env_clear { "env -i " } else { "" },
        pidfile.display()
    )
}

#[test]
fn sigkill_of_clawdeck_ends_a_grandchild_and_a_setsid_descendant() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let escaped = dir.path().join("escaped");
    let command = format!(
        "sleep 600 & {} echo $$ $! > {}; wait",
        setsid_sleeper(&escaped, false),
        pidfile.display()
    );
    let mut child = invoke_exec(dir.path(), &command);
    let mut pids = wait_for_pids(&pidfile);
    pids.push(wait_for_pid(&escaped));
    child.kill().unwrap();
    child.wait().unwrap();
    let begun = Instant::now();
    while pids.iter().any(|p| alive(*p)) && begun.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_all_dead(
        &pids,
        "SIGKILL of clawdeck (shell, grandchild, setsid descendant)",
    );
}

#[test]
fn sigterm_to_invoke_ends_a_setsid_descendant_that_cleared_its_environment() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let escaped = dir.path().join("escaped");
    let command = format!(
        "{} echo $$ 0 > {}; wait; sleep 600",
        setsid_sleeper(&escaped, true),
        pidfile.display()
    );
    let child = invoke_exec(dir.path(), &command);
    let shell = wait_for_pids(&pidfile)[0];
    let escapee = wait_for_pid(&escaped);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(15));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("ended 1 process that had left it"),
        "the stop names the escaped process: {stderr}"
    );
    assert_all_dead(&[shell, escapee], "SIGTERM of clawdeck");
}

#[test]
fn a_daemon_an_exec_left_behind_ends_when_clawdeck_exits() {
    let dir = tempfile::tempdir().unwrap();
    let escaped = dir.path().join("escaped");
    // The exec returns once the daemon wrote its pid.
    let command = format!(
        "{} while [ ! -s {} ]; do sleep 0.05; done",
        setsid_sleeper(&escaped, false),
        escaped.display()
    );
    let child = invoke_exec(dir.path(), &command);
    let out = wait_with_deadline(child, Duration::from_secs(30));
    assert!(out.status.success(), "{out:?}");
    let daemon = wait_for_pid(&escaped);
    assert_all_dead(&[daemon], "clawdeck's own exit");
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
    let peak = peak_until_exit(
        &mut child,
        started,
        Duration::from_secs(30),
        "route with its stdout unread",
    );
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

/// Writes an executable shell script.
fn script(path: &Path, body: &str) -> PathBuf {
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path.to_path_buf()
}

/// A fake `openclaw` whose `--version` hangs with a child of its own (both pids go to
/// `pidfile`), and whose runs answer at once.
fn hanging_version_openclaw(dir: &Path, pidfile: &Path) -> PathBuf {
    script(
        &dir.join("hanging-version-openclaw"),
        &format!(
            "if [ \"$1\" = --version ]; then\n  sleep 60 &\n  echo $$ $! > {}\n  wait\n  exit 0\nfi\necho run\n",
            pidfile.display()
        ),
    )
}

#[test]
fn sigterm_to_route_while_the_version_probe_hangs_exits_143_and_kills_the_probe() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let pidfile = dir.path().join("probe-pids");
    let bin = hanging_version_openclaw(dir.path(), &pidfile);
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "hi"])
        .env("OPENCLAW_BIN", &bin)
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        // A cache of its own: the probe must really run.
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pids = wait_for_pids(&pidfile);
    let signalled = Instant::now();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert!(
        signalled.elapsed() < Duration::from_secs(4),
        "took {:?} to stop",
        signalled.elapsed()
    );
    assert_all_dead(&pids, "SIGTERM during the version probe");
    // A probe the stop killed is no answer: nothing is cached for the next clawdeck.
    let cache = dir.path().join("cache/clawdeck/openclaw-version.json");
    assert!(
        !cache.exists(),
        "cached: {}",
        std::fs::read_to_string(&cache).unwrap_or_default()
    );
}

/// `clawdeck mcp` (stdio) with a client's exec running: SIGTERM ends the server with 143 and
/// the exec's tree (which ignores SIGTERM) with it.
#[test]
fn sigterm_to_mcp_stdio_during_a_call_kills_the_calls_tree() {
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let config = invoke_config(dir.path());
    let pidfile = dir.path().join("pids");
    let mut child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .arg("mcp")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let command = format!(
        "trap '' TERM; sleep 600 & echo $$ $! > {}; wait",
        pidfile.display()
    );
    for frame in [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "stop-test", "version": "1"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "exec", "arguments": {"command": command, "yieldMs": 600000}}}),
    ] {
        writeln!(stdin, "{frame}").unwrap();
        stdin.flush().unwrap();
    }
    let initialized = lines.recv_timeout(Duration::from_secs(20));
    assert!(initialized.is_ok(), "no answer to initialize");
    let pids = wait_for_pids(&pidfile);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(15));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert_all_dead(&pids, "SIGTERM to clawdeck mcp");
    drop(stdin);
}

/// `clawdeck verify` runs the CLI in a scratch home under TMPDIR: SIGTERM kills the run (and
/// its SIGTERM-ignoring child), removes the scratch home and exits 143.
#[test]
fn sigterm_to_verify_kills_the_openclaw_run_and_removes_its_scratch_home() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json");
    std::fs::write(&config, r#"{ "tools": { "profile": "coding" } }"#).unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let pidfile = dir.path().join("pids");
    // verify starts the CLI with a cleared environment: the pidfile is written into the script.
    let fake = script(
        &dir.path().join("fake-openclaw"),
        &format!(
            "trap '' TERM\nsleep 600 &\necho $$ $! > {}\nwait\n",
            pidfile.display()
        ),
    );
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["verify", "--timeout", "600", "--openclaw"])
        .arg(&fake)
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pids = wait_for_pids(&pidfile);
    let scratch: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(!scratch.is_empty(), "verify's scratch home is under TMPDIR");
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(15));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert_all_dead(&pids, "SIGTERM to clawdeck verify");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.is_empty(),
        "scratch left behind: {left:?}; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A gateway command waiting on a gateway that never answers: SIGHUP ends it with 129.
#[test]
fn sighup_to_a_gateway_command_waiting_for_an_answer_exits_129() {
    let dir = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    // Accepts and never answers the WebSocket handshake.
    let held = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = held.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            keep.lock().unwrap().push(stream);
        }
    });
    let child = clawdeck_command()
        .args(["gateway", "status", "--gateway", &url])
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("HOME", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    while held.lock().unwrap().is_empty() {
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "clawdeck never connected"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let signalled = Instant::now();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGHUP).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(129), "{out:?}");
    assert!(signalled.elapsed() < Duration::from_secs(4));
}

/// Children start with no signal blocked: the stop policy's mask is clawdeck's alone.
#[test]
fn a_child_starts_with_no_blocked_signals() {
    let dir = tempfile::tempdir().unwrap();
    let config = invoke_config(dir.path());
    let out = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["invoke", "exec", "--params"])
        .arg(r#"{"command": "grep SigBlk /proc/self/status"}"#)
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("SigBlk:\t0000000000000000"), "{stdout}");
}

/// One MCP POST with curl (bounded); the raw response, headers included.
fn mcp_post(url: &str, session: Option<&str>, body: &str) -> String {
    let mut curl = std::process::Command::new("curl");
    curl.args(["-s", "-i", "--max-time", "60", "-X", "POST", url])
        .args(["-H", "Authorization: Bearer stop-token"])
        .args(["-H", "Content-Type: application/json"])
        .args(["-H", "Accept: application/json, text/event-stream"]);
    if let Some(session) = session {
        curl.args(["-H", &format!("Mcp-Session-Id: {session}")]);
    }
    let out = curl.args(["-d", body]).output().expect("curl runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `clawdeck mcp --listen` with a client's exec running: SIGTERM ends the server with 143 and
/// the exec's tree with it.
#[test]
fn sigterm_to_mcp_over_http_during_a_call_kills_the_calls_tree() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let config = invoke_config(dir.path());
    let pidfile = dir.path().join("pids");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let mut child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["mcp", "--listen", &format!("127.0.0.1:{port}"), "--token"])
        .arg("stop-token")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let serving = loop {
        let line = lines
            .recv_timeout(Duration::from_secs(20))
            .expect("clawdeck mcp says where it serves");
        if line.contains("serving") {
            break line;
        }
    };
    let url = format!("http://127.0.0.1:{port}/mcp");
    assert!(serving.contains(&url), "{serving}");
    let init = mcp_post(
        &url,
        None,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stop-test","version":"1"}}}"#,
    );
    let session = init
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id in:\n{init}"));
    mcp_post(
        &url,
        Some(&session),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    let command = format!(
        "trap '' TERM; sleep 600 & echo $$ $! > {}; wait",
        pidfile.display()
    );
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "exec", "arguments": {"command": command, "yieldMs": 600000}}})
    .to_string();
    let (call_url, call_session) = (url.clone(), session.clone());
    let _caller = std::thread::spawn(move || mcp_post(&call_url, Some(&call_session), &call));
    let pids = wait_for_pids(&pidfile);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(15));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert_all_dead(&pids, "SIGTERM to clawdeck mcp --listen");
}

/// An `mcp.servers` server that never answers while clawdeck lists its tools: SIGTERM ends
/// clawdeck with 143 and the server's tree (a child of its own included) with it.
#[test]
fn sigterm_while_listing_an_mcp_server_kills_the_servers_tree() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let server = script(
        &dir.path().join("silent-mcp-server"),
        &format!("sleep 600 &\necho $$ $! > {}\nwait\n", pidfile.display()),
    );
    let config = dir.path().join("openclaw.json");
    std::fs::write(
        &config,
        serde_json::json!({
            "tools": {"profile": "coding"},
            "mcp": {"servers": {"silent": {"command": server.display().to_string()}}},
        })
        .to_string(),
    )
    .unwrap();
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .arg("tools")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .env_remove("CLAWDECK_NO_MCP_SERVERS")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pids = wait_for_pids(&pidfile);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let out = wait_with_deadline(child, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert_all_dead(&pids, "SIGTERM while listing mcp.servers");
}
