//! Today's OpenClaw (the 2026.9 pack) from the command line: how the pack is chosen and said,
//! and the rules that changed since the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The binary with no installed OpenClaw in reach (PATH without `openclaw`, no OPENCLAW_BIN).
fn clawdeck(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("PATH", "/usr/bin:/bin")
        .env_remove("OPENCLAW_BIN")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("NO_COLOR", "1");
    cmd
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/openclaw-2026.9")
        .join(name)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let out = clawdeck(home.path()).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn explain_exec_with_ask_always_says_visible_and_every_call_asks() {
    let config = fixture("exec-ask.json5");
    let (code, out, err) = run(&[
        "explain",
        "exec",
        "--agent",
        "ops",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("openclaw: 2026.9 semantics (the config's meta.lastTouchedVersion 2026.9.6)"),
        "{out}"
    );
    assert!(out.contains("exec (core, group:runtime): VISIBLE"), "{out}");
    assert!(
        out.contains("when called: every call will ask for approval: tools.exec.ask = \"always\""),
        "{out}"
    );
    assert!(out.contains("agents.ops.tools.allow"), "{out}");
}

#[test]
fn explain_json_carries_the_notes_and_the_pack() {
    let config = fixture("exec-ask.json5");
    let (code, out, err) = run(&[
        "explain",
        "exec",
        "--agent",
        "ops",
        "--json",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["visible"], true);
    assert_eq!(v["context"]["openclaw"], "2026.9", "{v}");
    let notes = v["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .any(|n| n["topic"] == "approval" && n["config_path"] == "tools.exec.ask"),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n["topic"] == "http"
            && n["text"]
                .as_str()
                .unwrap_or("")
                .contains("refused by default")),
        "{notes:?}"
    );
}

#[test]
fn the_seed_pack_answers_when_asked() {
    let config = fixture("exec-ask.json5");
    let (code, out, _) = run(&[
        "--openclaw-version",
        "seed",
        "tools",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("openclaw: seed semantics (--openclaw-version seed)"),
        "{out}"
    );
    // The seed's catalog has no `ls`; 2026.9's does.
    assert!(!out.contains("\nls "), "{out}");
    let (_, out, _) = run(&["tools", "--config", config.to_str().unwrap()]);
    assert!(out.contains("\nls "), "{out}");
}

#[test]
fn an_unknown_version_is_a_clear_error() {
    let (code, _, err) = run(&["--openclaw-version", "1999.1", "tools"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no OpenClaw semantics pack for \"1999.1\" (known: seed, 2026.8, 2026.9"),
        "{err}"
    );
}

#[test]
fn a_sender_matching_tools_by_sender_loses_runtime_tools() {
    let config = fixture("exec-ask.json5");
    let (code, out, err) = run(&[
        "explain",
        "exec",
        "--sender-id",
        "intruder",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("HIDDEN, denied by the sender layer"), "{out}");
    assert!(
        out.contains("tools.toolsBySender.\"id:intruder\".deny[0]"),
        "{out}"
    );
}

#[test]
fn explain_says_which_key_brought_a_media_tool_and_which_would_bring_another() {
    let config = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fidelity/provider-key-brings-media-tools/openclaw.json5");
    let config = config.to_str().unwrap();
    let (code, out, err) = run(&["explain", "pdf", "--config", config]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("pdf (core"), "{out}");
    assert!(
        out.contains(
            "built because env.vars.OPENAI_API_KEY is a credential of the bundled plugin \"openai\""
        ),
        "{out}"
    );
    let (code, out, err) = run(&["explain", "pdf", "--json", "--config", config]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["built_because"],
        "env.vars.OPENAI_API_KEY is a credential of the bundled plugin \"openai\""
    );
    // openai makes no music: that tool is not built, and explain names the keys that would.
    let (code, _, err) = run(&["explain", "music_generate", "--config", config]);
    assert_eq!(code, 2);
    assert!(
        err.contains("or a provider credential in env.vars, the .env beside the config, ~/.config/openclaw/gateway.env or the login shell (env.shellEnv) ("),
        "{err}"
    );
    assert!(err.contains("FAL_KEY"), "{err}");
    // A tool that is no media tool says nothing of the kind.
    let (code, out, _) = run(&["explain", "read", "--config", config]);
    assert_eq!(code, 0);
    assert!(!out.contains("built because"), "{out}");
}

#[test]
fn a_webchat_turn_in_a_group_session_says_its_turn_channel_in_text_and_json() {
    let key = "agent:main:telegram:group:-100123";
    let args = ["--session-key", key, "--channel", "webchat", "--not-owner"];
    let (code, out, err) = run(&[&["explain", "exec"][..], &args[..]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("turn over: webchat"), "{out}");
    let (code, out, err) = run(&[&["explain", "--json"][..], &args[..]].concat());
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["context"]["channel"], "telegram", "{out}");
    assert_eq!(json["context"]["turn_channel"], "webchat", "{out}");
    // A turn over the key's own channel has no other turn channel to say.
    let (code, out, err) = run(&["explain", "--json", "--session-key", key]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["context"].get("turn_channel").is_none(), "{out}");
}
