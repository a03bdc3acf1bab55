//! Packs stored by `clawdeck catalog sync`, written with the real writer
//! (`clawdeck_gateway::pack`) and read back by the real loader (the `clawdeck` binary, which
//! picks the pack for every command): a synced pack answers; one that cannot load is a warning
//! naming its file, and the shipped pack answers instead (never exit 2, never blamed on the
//! OpenClaw config). The same against a real gateway is in tests/gateway_real.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use clawdeck_gateway::pack::{CapturedFrom, pack_from_catalog, pack_path, write_pack};
use serde_json::Value;

const VERSION: &str = "2026.9.6";

/// A fresh HOME with every XDG dir inside it and no OpenClaw config.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// clawdeck's data dir, where `catalog sync` puts `packs/`.
    fn data_dir(&self) -> PathBuf {
        self.path().join("data").join("clawdeck")
    }

    fn pack_file(&self) -> PathBuf {
        pack_path(&self.data_dir(), VERSION).unwrap()
    }

    /// An `openclaw` that answers `--version` as the real 2026.9.6 does.
    fn fake_openclaw(&self) -> PathBuf {
        let bin = self.path().join("openclaw");
        std::fs::write(&bin, "#!/bin/sh\necho 'OpenClaw 2026.9.6 (eb377ac)'\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        bin
    }

    fn clawdeck(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("clawdeck").unwrap();
        cmd.args(args)
            .env("HOME", self.path())
            .env("XDG_DATA_HOME", self.path().join("data"))
            .env("XDG_CACHE_HOME", self.path().join("cache"))
            .env("XDG_CONFIG_HOME", self.path().join("config"))
            .env("XDG_STATE_HOME", self.path().join("state"))
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("CLAWDECK_OPENCLAW_VERSION")
            .env("OPENCLAW_BIN", self.path().join("no-openclaw-here"));
        cmd
    }
}

fn catalog_fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/gateway/tools-catalog-2026.9.6.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// What `clawdeck catalog sync` does with a gateway's answer, through the same functions.
fn sync_from_fixture(home: &Home) -> PathBuf {
    let from = CapturedFrom {
        gateway: "fixture".into(),
        url: "ws://127.0.0.1:18789".into(),
        method: "tools.catalog".into(),
        agent_id: "main".into(),
        captured_at_ms: 1_795_556_241_810,
    };
    let pack = pack_from_catalog(&catalog_fixture(), VERSION, from).unwrap();
    let path = home.pack_file();
    write_pack(&path, &pack).unwrap();
    path
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every way a pack is asked for: the flag, and the installed `openclaw --version`.
fn pack_requests(home: &Home) -> Vec<(&'static str, Vec<String>, Option<PathBuf>)> {
    vec![
        (
            "--openclaw-version",
            vec!["--openclaw-version".into(), VERSION.into()],
            None,
        ),
        ("installed openclaw", Vec::new(), Some(home.fake_openclaw())),
    ]
}

#[test]
fn a_pack_synced_from_a_gateway_catalog_answers_every_later_command() {
    let home = Home::new();
    sync_from_fixture(&home);
    for (how, flags, bin) in pack_requests(&home) {
        for command in [
            vec!["tools"],
            vec!["explain", "exec"],
            vec!["lint"],
            vec!["schema", "--api", "openai"],
        ] {
            let mut args: Vec<&str> = command.clone();
            args.extend(flags.iter().map(String::as_str));
            let mut cmd = home.clawdeck(&args);
            if let Some(bin) = &bin {
                cmd.env("OPENCLAW_BIN", bin);
            }
            let out = run(&mut cmd);
            assert!(
                out.code == 0 || (command[0] == "lint" && out.code == 1),
                "{how} {command:?}: exit {}\n{}",
                out.code,
                out.stderr
            );
            assert!(
                !out.stderr.contains("cannot load"),
                "{how} {command:?}: {}",
                out.stderr
            );
            if command[0] != "schema" {
                assert!(
                    out.stdout.contains(VERSION),
                    "{how} {command:?}: the synced pack did not answer:\n{}",
                    out.stdout
                );
            }
        }
    }
    // The synced pack's own data is in use: the tool list names its id and the plugin tools
    // the gateway reported keep their plugin.
    let out = run(&mut home.clawdeck(&["tools", "--json", "--openclaw-version", VERSION]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let tools: Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"exec"), "{names:?}");
    let out = run(&mut home.clawdeck(&["explain", "read", "--openclaw-version", VERSION]));
    assert!(out.stdout.contains("2026.9.6 semantics"), "{}", out.stdout);
}

#[test]
fn the_synced_pack_keeps_what_the_gateway_reported_and_the_shipped_rules() {
    let home = Home::new();
    let path = sync_from_fixture(&home);
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The documented pack shape (assets/openclaw/README.md).
    assert!(
        stored["capturedFrom"].is_string(),
        "{}",
        stored["capturedFrom"]
    );
    assert!(
        stored["groups"]["group:fs"].is_array(),
        "{}",
        stored["groups"]
    );
    assert!(stored["profiles"]["coding"].is_array());
    assert!(stored["profiles"]["full"].is_null());
    let intent = stored["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "intent")
        .unwrap();
    assert_eq!(intent["source"], "plugin:memory-core");

    // The catalog gives no schema; exec keeps the shipped pack's recorded one.
    let out =
        run(&mut home.clawdeck(&["schema", "--api", "openai", "--openclaw-version", VERSION]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let schema: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    let exec = schema
        .as_array()
        .or_else(|| schema["tools"].as_array())
        .and_then(|tools| {
            tools
                .iter()
                .find(|t| t["function"]["name"] == "exec" || t["name"] == "exec")
        })
        .unwrap_or_else(|| panic!("exec in the schema: {}", out.stdout));
    assert!(
        exec.to_string().contains("\"command\""),
        "exec lost its parameters: {exec}"
    );
}

#[test]
fn a_stored_pack_that_cannot_load_is_a_warning_naming_it_and_the_shipped_pack_answers() {
    for (case, text) in [
        ("not JSON", "{ this is not json"),
        ("wrong shape", r#"{"version": "2026.9.6", "tools": "none"}"#),
    ] {
        let home = Home::new();
        let path = home.pack_file();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        for (how, flags, bin) in pack_requests(&home) {
            for command in [vec!["tools"], vec!["explain", "exec"]] {
                let mut args = command.clone();
                args.extend(flags.iter().map(String::as_str));
                let mut cmd = home.clawdeck(&args);
                if let Some(bin) = &bin {
                    cmd.env("OPENCLAW_BIN", bin);
                }
                let out = run(&mut cmd);
                let what = format!("{case}, {how}, {command:?}");
                assert_eq!(out.code, 0, "{what}: {}", out.stderr);
                let warning = out
                    .stderr
                    .lines()
                    .find(|l| l.starts_with("warning: ") && l.contains("cannot load"))
                    .unwrap_or_else(|| panic!("{what}: no warning: {}", out.stderr));
                assert!(
                    warning.contains(&path.display().to_string()),
                    "{what}: {warning}"
                );
                assert!(warning.contains("shipped"), "{what}: {warning}");
                assert!(
                    !out.stderr.contains("<embedded demo>")
                        && !out.stderr.contains("openclaw.json"),
                    "{what}: blames the OpenClaw config: {}",
                    out.stderr
                );
                assert!(
                    out.stdout.contains("openclaw: 2026.9 semantics"),
                    "{what}: {}",
                    out.stdout
                );
            }
        }
    }
}

#[test]
fn a_pack_stored_by_the_earlier_writer_still_loads() {
    // What `catalog sync` wrote before the writer followed the pack format: `capturedFrom`,
    // groups and profiles as objects, plugin tools as `source: "plugin"` + `pluginId`.
    let home = Home::new();
    let path = home.pack_file();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/gateway/synced-pack-2026.9.6-before-fix.json"
        ),
        &path,
    )
    .unwrap();
    let out = run(&mut home.clawdeck(&["tools", "--openclaw-version", VERSION]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("cannot load"), "{}", out.stderr);
    assert!(out.stdout.contains("2026.9.6 semantics"), "{}", out.stdout);
    assert!(out.stdout.contains("plugin:memory-core"), "{}", out.stdout);
}

#[test]
fn the_installed_version_is_probed_once_and_read_back_from_the_cache() {
    // The version cache's writer and reader: the first command runs `openclaw --version` and
    // stores the answer; the next reads it back without starting the binary again.
    let home = Home::new();
    let calls = home.path().join("calls");
    let bin = home.path().join("openclaw");
    std::fs::write(
        &bin,
        format!(
            "#!/bin/sh\necho probed >> '{}'\necho 'OpenClaw 2026.9.6 (eb377ac)'\n",
            calls.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    for round in 0..2 {
        let out = run(home.clawdeck(&["tools"]).env("OPENCLAW_BIN", &bin));
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains("installed openclaw 2026.9.6"),
            "round {round}: {}",
            out.stdout
        );
    }
    let probes = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(probes.lines().count(), 1, "{probes}");
}
