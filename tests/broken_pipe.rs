//! A reader that goes away (`clawdeck explain | head -1`) ends the command quietly: no panic,
//! no exit status 101.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

/// Runs clawdeck with `args`, its stdout a pipe whose read end is already closed.
fn run_into_closed_pipe(
    args: &[&str],
    config: Option<&std::path::Path>,
) -> (std::process::ExitStatus, String) {
    let (read_end, write_end) = nix::unistd::pipe().unwrap();
    drop(read_end);
    let mut cmd = clawdeck_command();
    if let Some(config) = config {
        cmd.arg("--config").arg(config);
    }
    let out = cmd
        .args(args)
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("HOME", "/nonexistent")
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn printing_commands_end_quietly_when_the_reader_is_gone() {
    for args in [
        &["explain"][..],
        &["explain", "--json"],
        &["tools"],
        &["tools", "--json"],
        &["schema"],
        &["prompt"],
    ] {
        let (status, stderr) = run_into_closed_pipe(args, None);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(status.code(), Some(101), "{args:?}: {stderr}");
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {status:?} {stderr}"
        );
    }
}

#[test]
fn invoke_finishes_its_work_when_the_reader_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("openclaw.json"),
        r#"{ "tools": { "profile": "full" } }"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        format!("{{ workspace: \"{}\" }}", dir.path().display()),
    )
    .unwrap();
    std::fs::write(dir.path().join("f.txt"), "line\n".repeat(1000)).unwrap();
    let config = dir.path().join("openclaw.json");
    let (status, stderr) = run_into_closed_pipe(
        &["invoke", "read", "-p", r#"{"path": "f.txt"}"#],
        Some(&config),
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
    let (status, stderr) = run_into_closed_pipe(
        &[
            "invoke",
            "exec",
            "--json",
            "-p",
            r#"{"command": "echo hi"}"#,
        ],
        Some(&config),
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
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
