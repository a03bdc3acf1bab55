//! Files planted where clawdeck keeps its own (issue 19, items 13 and 14), through the real
//! binary: the device identity and its state dir, and the decision log. Each case must end at
//! once with a message naming the file (a FIFO used to hang the command for good), and the key
//! is used only when it is this user's, private and a plain file.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;

/// Long enough for a loaded machine, far shorter than "hangs until killed".
const PROMPTLY: Duration = Duration::from_secs(30);

/// Runs `cmd` to its end, or kills it and fails the test after `PROMPTLY`.
fn run_promptly(mut cmd: Command, what: &str) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(PROMPTLY) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            // SAFETY: signalling the child this test started.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{what}: still running after {PROMPTLY:?} (it hangs)");
        }
    }
}

fn mkfifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// ---- the device identity -------------------------------------------------------------------

/// A home with its own XDG state dir; `state()` is clawdeck's dir in it.
struct Home(tempfile::TempDir);

impl Home {
    fn new() -> Home {
        Home(tempfile::tempdir().unwrap())
    }

    fn xdg_state(&self) -> PathBuf {
        self.0.path().join("state")
    }

    fn state(&self) -> PathBuf {
        self.xdg_state().join("clawdeck")
    }

    fn key(&self) -> PathBuf {
        self.state().join("gateway-device.json")
    }

    /// `gateway status` against a port nobody listens on: it loads the identity first.
    fn gateway_status(&self) -> Output {
        let mut cmd = Command::cargo_bin("clawdeck").unwrap();
        cmd.args(["gateway", "status", "--gateway", "ws://127.0.0.1:1"])
            .env("XDG_STATE_HOME", self.xdg_state())
            .env("HOME", self.0.path())
            .env_remove("OPENCLAW_GATEWAY_URL")
            .env_remove("OPENCLAW_GATEWAY_TOKEN")
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("CLAWDECK_LOG");
        run_promptly(cmd, "clawdeck gateway status")
    }

    /// Creates the identity the normal way, then returns its text.
    fn created_key(&self) -> String {
        let out = self.gateway_status();
        assert!(self.key().is_file(), "no key created: {}", stderr(&out));
        std::fs::read_to_string(self.key()).unwrap()
    }
}

/// The command got past the identity: it reports the closed port and the device id.
fn identity_was_used(out: &Output) -> bool {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout.contains("NOT connected") && stdout.contains("device id: ")
}

#[test]
fn a_new_state_dir_is_0700_and_the_key_0600() {
    let home = Home::new();
    let out = home.gateway_status();
    assert!(identity_was_used(&out), "{out:?}");
    assert_eq!(mode(&home.state()), 0o700);
    assert_eq!(mode(&home.xdg_state()), 0o700, "created parents too");
    assert_eq!(mode(&home.key()), 0o600);
}

#[test]
fn an_existing_open_state_dir_is_made_private() {
    let home = Home::new();
    std::fs::create_dir_all(home.state()).unwrap();
    std::fs::set_permissions(home.state(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = home.gateway_status();
    assert!(identity_was_used(&out), "{out:?}");
    assert_eq!(mode(&home.state()), 0o700);
}

#[test]
fn a_world_writable_key_is_refused_naming_the_file_and_the_fix() {
    let home = Home::new();
    home.created_key();
    std::fs::set_permissions(home.key(), std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = home.gateway_status();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&home.key().display().to_string()), "{err}");
    assert!(err.contains("can write it (mode 0666)"), "{err}");
    assert!(
        err.contains(&format!("chmod 600 {}", home.key().display())),
        "{err}"
    );
}

#[test]
fn a_group_readable_key_is_refused_as_an_exposed_private_key() {
    let home = Home::new();
    home.created_key();
    std::fs::set_permissions(home.key(), std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = home.gateway_status();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("can read it (mode 0644)"), "{err}");
    assert!(err.contains("private"), "{err}");
    assert!(
        err.contains(&format!("chmod 600 {}", home.key().display())),
        "{err}"
    );
    // After the fix it is used again, the same key.
    std::fs::set_permissions(home.key(), std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = home.gateway_status();
    assert!(identity_was_used(&out), "{out:?}");
}

#[test]
fn a_symlinked_key_is_not_followed() {
    let home = Home::new();
    let text = home.created_key();
    // Somebody else's key, elsewhere, linked into place.
    let elsewhere = home.0.path().join("elsewhere.json");
    std::fs::write(&elsewhere, &text).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::remove_file(home.key()).unwrap();
    std::os::unix::fs::symlink(&elsewhere, home.key()).unwrap();
    let out = home.gateway_status();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&home.key().display().to_string()), "{err}");
    assert!(err.contains("a symbolic link"), "{err}");
}

#[test]
fn a_fifo_as_the_key_is_refused_at_once() {
    let home = Home::new();
    std::fs::create_dir_all(home.state()).unwrap();
    mkfifo(&home.key());
    let out = home.gateway_status();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&home.key().display().to_string()), "{err}");
    assert!(err.contains("a FIFO, not a regular file"), "{err}");
}

#[test]
fn a_directory_as_the_key_is_refused() {
    let home = Home::new();
    std::fs::create_dir_all(home.key()).unwrap();
    let out = home.gateway_status();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("a directory, not a regular file"), "{err}");
}

// ---- the decision log ----------------------------------------------------------------------

/// A config dir with a workspace and a private state dir, and its decision log dir.
fn log_setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("openclaw.json"),
        r#"{ "tools": { "profile": "full" } }"#,
    )
    .unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("hello.txt"), "hi there\n").unwrap();
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        format!("{{ workspace: \"{}\" }}", ws.display()),
    )
    .unwrap();
    let log_dir = dir.path().join("state/clawdeck/decisions");
    std::fs::create_dir_all(&log_dir).unwrap();
    (dir, log_dir)
}

fn clawdeck_in(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.arg("--config")
        .arg(dir.join("openclaw.json"))
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env("XDG_STATE_HOME", dir.join("state"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_LOG");
    cmd
}

#[test]
fn a_fifo_as_the_decision_log_does_not_hang_invoke() {
    let (dir, log_dir) = log_setup();
    let fifo = log_dir.join("decisions.jsonl");
    mkfifo(&fifo);
    let mut cmd = clawdeck_in(dir.path());
    cmd.args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#]);
    let out = run_promptly(cmd, "clawdeck invoke with a FIFO decision log");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "the call itself runs: {err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("hi there"));
    assert!(err.contains("the decision log is off"), "{err}");
    assert!(err.contains(&fifo.display().to_string()), "{err}");
    assert!(err.contains("a FIFO, not a regular file"), "{err}");
}

#[test]
fn a_fifo_as_the_lock_file_does_not_hang_invoke() {
    let (dir, log_dir) = log_setup();
    mkfifo(&log_dir.join("decisions.lock"));
    let mut cmd = clawdeck_in(dir.path());
    cmd.args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#]);
    let out = run_promptly(cmd, "clawdeck invoke with a FIFO lock file");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("decisions.lock is a FIFO"), "{err}");
}

#[test]
fn a_symlinked_decision_log_is_not_written_through() {
    let (dir, log_dir) = log_setup();
    let target = dir.path().join("elsewhere.txt");
    std::fs::write(&target, "").unwrap();
    std::os::unix::fs::symlink(&target, log_dir.join("decisions.jsonl")).unwrap();
    let mut cmd = clawdeck_in(dir.path());
    cmd.args(["invoke", "read", "-p", r#"{"file_path": "hello.txt"}"#]);
    let out = run_promptly(cmd, "clawdeck invoke with a linked decision log");
    assert!(stderr(&out).contains("a symbolic link"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
}

#[test]
fn log_reads_a_fifo_as_a_named_bad_file_and_ends() {
    let (dir, log_dir) = log_setup();
    let fifo = log_dir.join("decisions.jsonl");
    mkfifo(&fifo);
    let mut cmd = clawdeck_in(dir.path());
    cmd.arg("log");
    let out = run_promptly(cmd, "clawdeck log with a FIFO decision log");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "{}: cannot read: a FIFO, not a regular file",
            fifo.display()
        )),
        "{err}"
    );
}

#[test]
fn log_follow_reports_a_fifo_once_and_keeps_following() {
    let (dir, log_dir) = log_setup();
    let rotated = log_dir.join("decisions.jsonl.1");
    mkfifo(&rotated);
    let mut cmd = clawdeck_in(dir.path());
    cmd.args(["log", "--follow"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let stderr_pipe = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr_pipe).lines() {
            let _ = tx.send(line.unwrap_or_default());
        }
    });
    let first = rx.recv_timeout(PROMPTLY);
    // A few more polls: the same file is not reported again.
    let again = rx.recv_timeout(Duration::from_secs(2));
    // SAFETY: signalling the child this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let _ = child.wait();
    let first = first.expect("no report of the FIFO (log --follow hangs or skips it silently)");
    assert!(
        first.contains(&format!("{}: cannot read: a FIFO", rotated.display())),
        "{first}"
    );
    assert!(again.is_err(), "reported twice: {again:?}");
}
