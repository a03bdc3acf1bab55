//! An unknown tool profile: OpenClaw 2026.9 refuses the config (`openclaw config validate`
//! says so at `tools.profile`, `tools.byProvider.<p>.profile` and the same under an agent;
//! tests/openclaw_validate_real.rs checks that against the real CLI), so every clawdeck
//! command that reads the config refuses it too: exit 2, the file, line, column, key path and
//! the allowed values. Under the seed semantics an unknown profile is only a warning.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;

const ALLOWED: &str = r#"allowed: "minimal", "coding", "messaging", "full""#;

/// Each key OpenClaw refuses an unknown profile at, the config, and where the value starts.
const PLACES: &[(&str, &str, &str)] = &[
    (
        "tools.profile",
        r#"{ tools: { profile: "codng" } }"#,
        "1:12",
    ),
    (
        "tools.byProvider.openai.profile",
        r#"{ tools: { byProvider: { openai: { profile: "codng" } } } }"#,
        "1:36",
    ),
    (
        "agents.list[0].tools.profile",
        r#"{ agents: { list: [{ id: "main", tools: { profile: "codng" } }] } }"#,
        "1:43",
    ),
    (
        "agents.list[0].tools.byProvider.openai.profile",
        "{ agents: { list: [{ id: \"main\",\n  tools: { byProvider: { openai: { profile: \"codng\" } } } }] } }",
        "2:36",
    ),
    (
        "agents.entries.ops.tools.profile",
        r#"{ agents: { entries: { ops: { tools: { profile: "Coding" } } } } }"#,
        "1:40",
    ),
];

fn clawdeck(dir: &Path, config: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.args(args)
        .arg("--config")
        .arg(config)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        // No gateway answers here: a command that got past the config would fail differently.
        .env("OPENCLAW_GATEWAY_URL", "ws://127.0.0.1:9")
        .env("OPENCLAW_GATEWAY_TOKEN", "t")
        .env("OPENCLAW_BIN", dir.join("no-openclaw"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .write_stdin("");
    cmd
}

/// Every subcommand that reads the OpenClaw config, with the arguments it needs.
const COMMANDS: &[&[&str]] = &[
    &["tools"],
    &["explain", "exec"],
    &["schema"],
    &["prompt"],
    &["lint"],
    &["diff", "--agent", "main", "--vs-agent", "ops"],
    &["invoke", "read", r#"{"path": "x"}"#],
    &["dispatch", "read"],
    &["route", "--agent", "ops", "--message", "hi"],
    &["verify"],
    &["mcp"],
    &["gateway", "status"],
    &["gateway", "sessions"],
    &["approvals", "watch"],
    &["catalog", "sync"],
];

#[test]
fn every_command_refuses_an_unknown_profile_at_each_key_openclaw_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (key, text, at)) in PLACES.iter().enumerate() {
        let config = dir.path().join(format!("openclaw-{i}.json5"));
        std::fs::write(&config, text).unwrap();
        for command in COMMANDS {
            let out = clawdeck(dir.path(), &config, command).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{key}, {command:?}");
            assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
            assert!(
                stderr.contains(&format!("{}:{at}: unknown tool profile", config.display())),
                "{what}: {stderr}"
            );
            // Inside a legacy agents.list the key path is OpenClaw's (agents.entries.<id>...),
            // and the error says where it is written.
            assert!(
                stderr.contains(&format!("(at {key})"))
                    || stderr.contains(&format!("written at {key} (at agents.entries.main.")),
                "{what}: {stderr}"
            );
            assert!(stderr.contains(ALLOWED), "{what}: {stderr}");
        }
    }
}

#[test]
fn the_allowed_profiles_load_and_the_seed_only_warns() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json5");
    std::fs::write(
        &good,
        r#"{ tools: { profile: "messaging", byProvider: { openai: { profile: "full" } } },
             agents: { ownership: "explicit", list: [{ id: "main", tools: { profile: "minimal" } }, { id: "ops", tools: { profile: "coding" } }] } }"#,
    )
    .unwrap();
    clawdeck(dir.path(), &good, &["tools"]).assert().code(0);

    let unknown = dir.path().join("unknown.json5");
    std::fs::write(&unknown, PLACES[0].1).unwrap();
    let out = clawdeck(
        dir.path(),
        &unknown,
        &["tools", "--openclaw-version", "seed"],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("unknown profile \"codng\": no restriction"),
        "{stdout}"
    );
}
