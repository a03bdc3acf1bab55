//! A session key alone sets the context of `clawdeck explain` / `tools`: the same answer as
//! the flags it stands for, and explicit flags still win over the key.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;

fn config() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/configs/slack-channels.json5")
        .display()
        .to_string()
}

fn run(args: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("clawdeck")
        .unwrap()
        .env("HOME", home.path())
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .env("NO_COLOR", "1")
        .arg("--config")
        .arg(config())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The JSON answer without the context as given (the key vs the flags).
fn answer(args: &[&str]) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(&run(args)).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("context");
    value
}

#[test]
fn explain_with_a_session_key_alone_answers_as_the_flags_do() {
    let by_key = answer(&[
        "explain",
        "exec",
        "--json",
        "--session-key",
        "agent:main:slack:channel:c0123abc",
    ]);
    let by_flags = answer(&[
        "explain",
        "exec",
        "--json",
        "--agent",
        "main",
        "--channel",
        "slack",
        "--group",
        "c0123abc",
    ]);
    assert_eq!(by_key, by_flags);
    let text = run(&[
        "explain",
        "exec",
        "--session-key",
        "agent:main:slack:channel:c0123abc",
    ]);
    assert!(
        text.contains("channels.slack.channels.C0123ABC.tools.deny[0]"),
        "{text}"
    );
}

#[test]
fn the_keys_agent_and_subagent_depth_and_flags_that_win() {
    let tools = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["tools", "--json"];
        all.extend_from_slice(args);
        let value: serde_json::Value = serde_json::from_str(&run(&all)).unwrap();
        value["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    // The key's agent (ops denies browser) and its channel's "*" entry (canvas).
    let ops = tools(&["--session-key", "agent:ops:slack:channel:c0999"]);
    assert!(
        !ops.iter().any(|t| t == "browser" || t == "canvas"),
        "{ops:?}"
    );
    assert!(ops.iter().any(|t| t == "exec"));
    // --agent and --group win over the key.
    let flags = tools(&[
        "--session-key",
        "agent:ops:slack:channel:c0999",
        "--agent",
        "main",
        "--group",
        "C0123ABC",
    ]);
    assert!(flags.iter().any(|t| t == "browser"), "{flags:?}");
    assert!(!flags.iter().any(|t| t == "exec"), "{flags:?}");
    // A subagent key two deep is a leaf at maxSpawnDepth 2 (no spawning tools), as
    // --subagent-depth 2 is; one deep is not.
    let spawns = |t: &Vec<String>| t.iter().any(|n| n == "sessions_spawn");
    let leaf = tools(&["--session-key", "agent:main:subagent:a:subagent:b"]);
    assert!(!spawns(&leaf), "{leaf:?}");
    assert_eq!(leaf, tools(&["--subagent-depth", "2"]));
    let one_deep = tools(&["--session-key", "agent:main:subagent:a"]);
    assert!(spawns(&one_deep), "{one_deep:?}");
}
