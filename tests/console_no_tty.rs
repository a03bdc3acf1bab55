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

/// The message names every headless command of the clap definition, with its one-line about.
#[test]
fn without_a_tty_every_headless_command_is_named() {
    use clap::CommandFactory;
    let out = assert_cmd::Command::cargo_bin("clawdeck")
        .expect("binary")
        .args([
            "--config",
            fixture("openclaw.json5").to_str().unwrap_or_default(),
        ])
        .write_stdin("")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let cli = clawdeck::cli::Cli::command();
    let commands: Vec<_> = cli
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .collect();
    assert!(commands.len() >= 15, "{}", commands.len());
    for command in commands {
        let name = format!("clawdeck {} ", command.get_name());
        let line = stderr
            .lines()
            .find(|l| l.trim_start().starts_with(&name))
            .unwrap_or_else(|| panic!("{name} missing from:\n{stderr}"));
        let about = command
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        assert!(line.ends_with(&about), "{line:?} lacks {about:?}");
    }
    assert!(stderr.contains("`clawdeck COMMAND --help`"), "{stderr}");
}
