//! The binary without a terminal: the console does not start, and the message points to the
//! headless commands (exit 2). The console's own tests live in src/tui/tests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tui")
        .join(name)
}

#[test]
fn without_a_tty_the_binary_exits_2_with_the_message() {
    let out = assert_cmd::Command::cargo_bin("clawdeck")
        .expect("binary")
        .args([
            "--config",
            fixture("openclaw.json5").to_str().unwrap_or_default(),
        ])
        .write_stdin("")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("needs a terminal") && stderr.contains("clawdeck explain"),
        "{stderr}"
    );
}
