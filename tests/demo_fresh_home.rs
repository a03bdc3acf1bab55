//! The embedded demo on a fresh machine: an empty HOME, no XDG directories, no OpenClaw config.
//! The demo brings its own workspace (created under clawdeck's cache directory, like the demo
//! skills), so the first `invoke exec` and a relative `read` work.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;

/// `clawdeck` in a fresh HOME: every XDG variable empty (unset would fall back the same way),
/// no config, no installed openclaw.
fn fresh(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.current_dir(home)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", "")
        .env("XDG_CONFIG_HOME", "")
        .env("XDG_DATA_HOME", "")
        .env("XDG_STATE_HOME", "")
        .env("OPENCLAW_BIN", home.join("no-openclaw"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("CLAWDECK_OPENCLAW_VERSION");
    cmd
}

fn output(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_demos_first_exec_and_relative_read_work_on_a_fresh_home() {
    let home = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) =
        output(fresh(home.path()).args(["invoke", "exec", r#"{"command":"ls"}"#]));
    assert_eq!(code, 0, "exec: {stdout}{stderr}");
    assert!(stdout.contains("README.md"), "exec ls: {stdout}");

    let (code, stdout, stderr) =
        output(fresh(home.path()).args(["invoke", "read", r#"{"path":"README.md"}"#]));
    assert_eq!(code, 0, "read: {stdout}{stderr}");
    assert!(
        stdout.contains("demo workspace"),
        "read README.md: {stdout}"
    );

    // It lives in clawdeck's cache directory, as the demo skills do.
    let workspace = home.path().join(".cache/clawdeck/demo-workspace");
    assert!(workspace.join("README.md").is_file());
}

#[test]
fn the_demo_workspace_follows_xdg_cache_home_and_keeps_what_the_tools_wrote() {
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("elsewhere");
    let mut first = fresh(home.path());
    first.env("XDG_CACHE_HOME", &cache).args([
        "invoke",
        "write",
        r#"{"path":"notes.md","content":"my own notes\n"}"#,
    ]);
    let (code, stdout, stderr) = output(&mut first);
    assert_eq!(code, 0, "write: {stdout}{stderr}");
    let workspace = cache.join("clawdeck/demo-workspace");
    assert_eq!(
        std::fs::read_to_string(workspace.join("notes.md")).unwrap(),
        "my own notes\n"
    );
    // A later command does not put the shipped file back over the operator's.
    let mut again = fresh(home.path());
    again
        .env("XDG_CACHE_HOME", &cache)
        .args(["invoke", "read", r#"{"path":"notes.md"}"#]);
    let (code, stdout, stderr) = output(&mut again);
    assert_eq!(code, 0, "read: {stdout}{stderr}");
    assert!(stdout.contains("my own notes"), "{stdout}");
    assert!(!home.path().join(".cache").exists());
}
