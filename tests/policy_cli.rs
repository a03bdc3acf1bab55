//! `clawdeck tools` and `clawdeck explain` as a user runs them (snapshots of the real output).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;

/// The binary with no OpenClaw config in reach, so the embedded demo is used.
fn clawdeck(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    cmd.env("HOME", home)
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("NO_COLOR", "1");
    cmd
}

fn run_ok(args: &[&str]) -> String {
    run_ok_under("seed", args)
}

/// `run_ok` answered by the pack `version`.
fn run_ok_under(version: &str, args: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    let out = clawdeck(home.path())
        .env("CLAWDECK_OPENCLAW_VERSION", version)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn run_fail(args: &[&str]) -> (i32, String) {
    let home = tempfile::tempdir().unwrap();
    let output = clawdeck(home.path()).args(args).output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A fidelity case's config (tests/fixtures/fidelity/CASE/openclaw.json5).
fn fidelity_config(case: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fidelity")
        .join(case)
        .join("openclaw.json5")
        .display()
        .to_string()
}

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/configs")
        .join(rel)
        .display()
        .to_string()
}

#[test]
fn tools_json_demo() {
    let out = run_ok(&["tools", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(value["tools"].is_array() && value["warnings"].is_array());
    insta::assert_snapshot!(out);
}

#[test]
fn tools_table_in_a_telegram_group() {
    insta::assert_snapshot!(run_ok(&[
        "tools",
        "--channel",
        "telegram",
        "--group",
        "-100123456",
        "--sender-id",
        "7"
    ]));
}

/// A command's JSON answer under the pack `version`.
fn json_of(version: &str, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&run_ok_under(version, args)).unwrap()
}

fn names(list: &serde_json::Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t[key]
                .as_str()
                .unwrap_or_else(|| t.as_str().unwrap())
                .to_string()
        })
        .collect()
}

#[test]
fn an_openclaw_agents_tools_and_schema_hold_only_openclaws_and_mcp_serves_clawdecks_beside() {
    const OWN: [&str; 4] = [
        "clawbot_router",
        "system_volume_control",
        "start_app",
        "open_website",
    ];
    for version in ["2026.9", "2026.8"] {
        let listed = json_of(version, &["tools", "--json"]);
        let openclaws = names(&listed["tools"], "name");
        assert!(
            openclaws.iter().all(|n| !OWN.contains(&n.as_str())),
            "{version}: {openclaws:?}"
        );
        assert_eq!(names(&listed["clawdeck_own"], "name"), OWN, "{version}");
        // What `clawdeck mcp` serves: the same OpenClaw tools and clawdeck's own, each owned.
        let served = json_of(version, &["tools", "--mcp", "--json"]);
        assert_eq!(served["served_by"], "clawdeck mcp");
        let tools = served["tools"].as_array().unwrap();
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            let owner = if OWN.contains(&name) {
                "clawdeck"
            } else {
                "openclaw"
            };
            assert_eq!(tool["owner"], owner, "{version}: {name}");
        }
        let mut expected = openclaws.clone();
        expected.extend(OWN.map(String::from));
        assert_eq!(names(&served["tools"], "name"), expected, "{version}");
        // The provider payload an OpenClaw release sends has none of clawdeck's tools.
        let schema = json_of(version, &["schema", "--json", "--api", "openai"]);
        let sent = names(&schema["tools"], "name");
        assert!(
            !sent.is_empty() && sent.iter().all(|n| !OWN.contains(&n.as_str())),
            "{version}: {sent:?}"
        );
        assert_eq!(names(&schema["clawdeck_own"], "name"), OWN, "{version}");
    }
    // The seeds' design sends clawbot_router to its model.
    let seed = json_of("seed", &["schema", "--json", "--api", "openai"]);
    assert!(names(&seed["tools"], "name").contains(&"clawbot_router".to_string()));
    assert_eq!(seed["clawdeck_own"], serde_json::json!([]));
}

#[test]
fn tools_mcp_table_names_each_owner() {
    insta::assert_snapshot!(run_ok(&["tools", "--mcp"]));
}

#[test]
fn explain_exec_for_ops_json() {
    let out = run_ok(&["explain", "exec", "--agent", "ops", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["tool"], "exec");
    assert_eq!(value["visible"], false);
    assert_eq!(value["removed_by"]["layer"], "agent");
    assert_eq!(
        value["removed_by"]["config_path"],
        "agents.list[1].tools.deny[0]"
    );
    let ids: Vec<&str> = value["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "owner",
            "profile",
            "provider_profile",
            "global",
            "global_provider",
            "agent",
            "agent_provider",
            "group",
            "sandbox",
            "subagent"
        ]
    );
    insta::assert_snapshot!(out);
}

#[test]
fn explain_exec_for_ops_table() {
    insta::assert_snapshot!(run_ok(&["explain", "exec", "--agent", "ops"]));
}

#[test]
fn explain_alias_finds_the_tool() {
    let out = run_ok(&["explain", "bash", "--json"]);
    assert!(out.contains("\"tool\": \"exec\""));
}

#[test]
fn explain_matrix_demo() {
    insta::assert_snapshot!(run_ok(&["explain"]));
}

#[test]
fn explain_matrix_json_has_every_tool_and_layer() {
    let out = run_ok(&["explain", "--json", "--subagent", "--not-owner"]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["layers"].as_array().unwrap().len(), 10);
    assert_eq!(value["tools"].as_array().unwrap().len(), 29);
    assert_eq!(value["context"]["subagent"], true);
}

#[test]
fn unknown_tool_is_usage_error() {
    let (code, stderr) = run_fail(&["explain", "nope"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("clawdeck explain: unknown tool \"nope\""),
        "{stderr}"
    );
}

#[test]
fn unknown_agent_is_usage_error() {
    let (code, stderr) = run_fail(&["tools", "--agent", "ghost"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "clawdeck tools: unknown agent \"ghost\" (configured: main, ops, support)\n"
    );
}

#[test]
fn broken_config_is_usage_error_with_position() {
    let path = fixture("invalid/wrong_type.json5");
    let (code, stderr) = run_fail(&["--config", &path, "explain", "exec"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(&format!("clawdeck explain: {path}:5:")),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("(at agents.list[1].tools.deny)"),
        "{stderr}"
    );
    let (code, stderr) = run_fail(&[
        "--config",
        &fixture("invalid/syntax.json5"),
        "tools",
        "--json",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("syntax.json5:3:"), "{stderr}");
}

#[test]
fn config_from_the_environment() {
    let home = tempfile::tempdir().unwrap();
    let out = clawdeck(home.path())
        .env("OPENCLAW_CONFIG_PATH", fixture("valid/real_openclaw.json"))
        .args(["explain", "exec", "--agent", "ops"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("($OPENCLAW_CONFIG_PATH)"));
    assert!(
        out.contains("denied by \"exec\" at agents.list[1].tools.deny[0]"),
        "{out}"
    );
}

#[test]
fn config_from_home_with_warnings_in_json() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join(".openclaw");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("openclaw.json"),
        "{\n  tools: { alow: ['read'], deny: ['reed'] },\n}\n",
    )
    .unwrap();
    let out = clawdeck(home.path())
        .args(["tools", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let warnings = value["warnings"].as_array().unwrap();
    let messages: Vec<&str> = warnings
        .iter()
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.ends_with("openclaw.json:2:12: unknown key ignored (at tools.alow)")),
        "{messages:?}"
    );
    let reed = warnings
        .iter()
        .find(|w| {
            w["message"]
                .as_str()
                .unwrap()
                .contains("\"reed\" matches no tool")
        })
        .unwrap();
    assert_eq!(reed["layer"], "global");
    assert_eq!(reed["config_path"], "tools.deny[0]");

    let out = clawdeck(home.path())
        .args(["explain", "read"])
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(String::from_utf8(out.stdout).unwrap().contains("(home)"));
    assert!(String::from_utf8(out.stderr).unwrap().contains("warning: "));
}

/// The tools table lines up: every row's groups start where the GROUPS header does, a
/// plugin's long source included (the demo has `plugin:memory-core`).
#[test]
fn the_tools_table_lines_up() {
    let home = tempfile::tempdir().unwrap();
    let out = clawdeck(home.path())
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .args(["tools"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("TOOL "))
        .unwrap_or_else(|| panic!("{text}"));
    let groups_at = lines[header].find("GROUPS").unwrap();
    let rows: Vec<&&str> = lines[header + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(
        rows.iter().any(|r| r.contains("plugin:memory-core")),
        "{text}"
    );
    for row in rows {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() > groups_at {
            assert!(
                chars[groups_at - 1] == ' ' && chars[groups_at] != ' ',
                "not lined up: {row:?}\n{text}"
            );
        }
    }
}

/// A fake OpenClaw install: a package with `docs/`, a bundled `memory-core`, and its `openclaw`.
fn fake_openclaw_install(root: &Path) -> std::path::PathBuf {
    let package = root.join("lib/node_modules/openclaw");
    std::fs::create_dir_all(package.join("docs")).unwrap();
    std::fs::write(package.join("package.json"), r#"{"name": "openclaw"}"#).unwrap();
    let plugin = package.join("dist/extensions/memory-core");
    std::fs::create_dir_all(&plugin).unwrap();
    std::fs::write(
        plugin.join("openclaw.plugin.json"),
        r#"{"id": "memory-core"}"#,
    )
    .unwrap();
    let bin = package.join("openclaw.mjs");
    std::fs::write(&bin, "#!/bin/sh\necho 'OpenClaw 2026.9.6'\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

#[test]
fn a_memory_slot_naming_no_installed_plugin_refuses_a_config_file_and_warns_without_an_install() {
    let home = tempfile::tempdir().unwrap();
    let bin = fake_openclaw_install(home.path());
    let config = home.path().join("openclaw.json5");
    let run = |memory: &str, bin: &Path| {
        std::fs::write(
            &config,
            format!("{{\n  plugins: {{ slots: {{ memory: {memory:?} }} }},\n}}\n"),
        )
        .unwrap();
        clawdeck(home.path())
            .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
            .env("OPENCLAW_BIN", bin)
            .env("OPENCLAW_STATE_DIR", home.path().join("state"))
            .args(["--config", config.to_str().unwrap(), "tools"])
            .output()
            .unwrap()
    };
    let refused = run("no-such-memory", &bin);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(":2:23: plugin not found: no-such-memory: OpenClaw 2026.9 refuses this config (at plugins.slots.memory)"),
        "{stderr}"
    );
    let bundled = run("memory-core", &bin);
    assert!(
        bundled.status.success() && bundled.stderr.is_empty(),
        "{bundled:?}"
    );
    // No OpenClaw install where OPENCLAW_BIN points: loaded, with a warning that says so.
    let unchecked = run("no-such-memory", &home.path().join("nowhere/openclaw"));
    let stderr = String::from_utf8_lossy(&unchecked.stderr);
    assert!(unchecked.status.success(), "{stderr}");
    assert!(
        stderr.contains("\"no-such-memory\" could not be checked: no OpenClaw install found"),
        "{stderr}"
    );
}

/// `clawdeck tools TURN FLAG` exits 2 for each of `flags`, saying `says`.
fn refused_beside(turn: &[&str], flags: &[&[&str]], says: &str) {
    for flag in flags {
        let mut args = vec!["tools"];
        args.extend_from_slice(turn);
        args.extend_from_slice(flag);
        let (code, stderr) = run_fail(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

#[test]
fn a_heartbeat_turn_takes_no_sender_client_spawner_or_owner_flag() {
    refused_beside(
        &["--heartbeat"],
        &[
            &["--client", "cli"],
            &["--client-cap", "inline-widgets"],
            &["--sender-id", "42"],
            &["--spawned-by", "agent:main:main"],
            &["--owner"],
        ],
        "'--heartbeat' cannot be used with",
    );
    // A heartbeat's turn is a gateway's, run as no owner: saying so again is no contradiction.
    let json = json_of(
        "2026.9",
        &[
            "explain",
            "read",
            "--heartbeat",
            "--gateway-run",
            "--not-owner",
            "--json",
        ],
    );
    assert_eq!(json["context"]["turn"], "reply");
    assert_eq!(json["context"]["owner"], false);
}

#[test]
fn a_scheduled_turn_takes_no_sender_client_spawner_heartbeat_or_owner_flag() {
    refused_beside(
        &["--scheduled-tools", "read"],
        &[
            &["--client", "cli"],
            &["--client-cap", "inline-widgets"],
            &["--sender-id", "42"],
            &["--spawned-by", "agent:main:main"],
            &["--heartbeat"],
            &["--owner"],
            &["--not-owner"],
            &["--group", "-100123"],
        ],
        "cannot be used with",
    );
    // The cap is read as `openclaw cron add --tools` writes it: commas or spaces; "" is empty.
    let capped = json_of(
        "2026.9",
        &["tools", "--scheduled-tools", "read, exec", "--json"],
    );
    assert_eq!(
        names(&capped["tools"], "name"),
        ["exec", "read"],
        "{capped}"
    );
    let empty = json_of("2026.9", &["tools", "--scheduled-tools", "", "--json"]);
    assert_eq!(empty["tools"], serde_json::json!([]), "{empty}");
    let explained = json_of(
        "2026.9",
        &["explain", "gateway", "--scheduled-tools", "*", "--json"],
    );
    assert_eq!(explained["context"]["turn"], "scheduled");
    assert_eq!(explained["context"]["owner"], true);
}

#[test]
fn a_scheduled_turn_applies_no_sender_rule_in_either_release() {
    // The agent's and a group's `toolsBySender."*"` deny write and nodes to a turn with no
    // sender; a scheduled job's turn asks for no sender policy (OpenClaw's senderPolicyMode
    // "never"), in the group's session too.
    let config = fidelity_config("scheduled-turn-skips-sender-rules");
    let key = "agent:main:telegram:group:-100123";
    for version in ["2026.8", "2026.9"] {
        let tools = |extra: &[&str]| {
            let mut args = vec!["--config", &config, "tools", "--session-key", key, "--json"];
            args.extend(extra);
            names(&json_of(version, &args)["tools"], "name")
        };
        let plain = tools(&[]);
        assert!(!plain.contains(&"write".to_string()) && !plain.contains(&"nodes".to_string()));
        let scheduled = tools(&["--scheduled-tools", "*"]);
        for tool in ["write", "nodes", "canvas"] {
            assert!(
                scheduled.contains(&tool.to_string()),
                "{version}: {scheduled:?}"
            );
        }
        let explained = json_of(
            version,
            &[
                "--config",
                &config,
                "explain",
                "write",
                "--scheduled-tools",
                "*",
                "--json",
            ],
        );
        let sender = explained["layers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == "sender")
            .unwrap();
        assert_eq!(sender["decision"], "skipped", "{version}: {sender}");
        assert!(
            sender["reason"]
                .as_str()
                .unwrap()
                .contains("scheduled job's turn"),
            "{version}: {sender}"
        );
    }
}

#[test]
fn a_job_an_agent_made_reads_its_creators_group_in_either_release() {
    // The job runs in -100888's session (which denies read); the agent made it in -100777
    // (which denies web_fetch). An operator's job reads the run's group, an agent's job its
    // creator's, whatever session it runs in.
    let config = fidelity_config("agent-job-reads-its-creators-group");
    let run_in = "agent:main:telegram:group:-100888";
    let made_in = "agent:main:telegram:group:-100777";
    for version in ["2026.8", "2026.9"] {
        let explain = |tool: &str, extra: &[&str]| {
            let mut args = vec![
                "--config",
                &config,
                "explain",
                tool,
                "--scheduled-tools",
                "read,web_fetch",
                "--session-key",
                run_in,
                "--json",
            ];
            args.extend(extra);
            json_of(version, &args)
        };
        assert_eq!(explain("read", &[])["visible"], false, "{version}");
        assert_eq!(explain("web_fetch", &[])["visible"], true, "{version}");
        let agents = ["--job-owner", made_in];
        let read = explain("read", &agents);
        assert_eq!(read["visible"], true, "{version}: {read}");
        assert_eq!(read["context"]["job_owner"], made_in, "{version}");
        let fetch = explain("web_fetch", &agents);
        assert_eq!(fetch["visible"], false, "{version}");
        let group = fetch["layers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == "group")
            .unwrap();
        let reason = group["reason"].as_str().unwrap();
        assert!(reason.contains("-100777"), "{version}: {group}");
    }
    // A job made from an account its channel no longer has is refused, and --json says so.
    let gone = json_of(
        "2026.9",
        &[
            "--config",
            &config,
            "tools",
            "--scheduled-tools",
            "read",
            "--job-owner",
            made_in,
            "--job-owner-account",
            "bot2",
            "--json",
        ],
    );
    assert!(
        gone["refused"].as_str().unwrap().contains("\"bot2\""),
        "{gone}"
    );
    // An owner's account needs the job owner it belongs to, and a job owner a scheduled job.
    for args in [
        vec!["tools", "--job-owner-account", "bot2"],
        vec!["tools", "--job-owner", made_in],
    ] {
        let (code, err) = run_fail(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("required"), "{err}");
    }
}

#[test]
fn a_scheduled_jobs_delivery_names_its_chat_or_takes_the_message_tool_away() {
    // A chat on --channel is an announcement (its channel is the turn's message provider).
    let announced = json_of(
        "2026.9",
        &[
            "explain",
            "message",
            "--scheduled-tools",
            "*",
            "--channel",
            "telegram",
            "--json",
        ],
    );
    assert_eq!(announced["context"]["delivery"], "announce", "{announced}");
    assert_eq!(announced["visible"], true);
    // A webhook job's turn gets no message tool, in either release; its cap does not matter.
    for version in ["2026.8", "2026.9"] {
        let hooked = json_of(
            version,
            &[
                "explain",
                "message",
                "--scheduled-tools",
                "*",
                "--scheduled-delivery",
                "webhook",
                "--json",
            ],
        );
        assert_eq!(hooked["visible"], false, "{version}: {hooked}");
        assert!(
            hooked["removed_by"].to_string().contains("webhook"),
            "{version}: {hooked}"
        );
    }
    let plain = json_of(
        "2026.9",
        &["explain", "message", "--scheduled-tools", "*", "--json"],
    );
    assert_eq!(plain["context"]["delivery"], "none");
    assert_eq!(plain["visible"], true);
    // What a delivery cannot be is refused (exit 2), naming why.
    for (args, why) in [
        (
            &["--scheduled-delivery", "webhook", "--channel", "telegram"][..],
            "a webhook job's turn has no chat",
        ),
        (&["--scheduled-delivery", "announce"][..], "needs --channel"),
    ] {
        let mut all = vec!["tools", "--scheduled-tools", "*"];
        all.extend(args);
        let (code, stderr) = run_fail(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    let (code, stderr) = run_fail(&["tools", "--scheduled-delivery", "none"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--scheduled-tools"), "{stderr}");
}

#[test]
fn a_gateway_turn_over_a_telegram_chat_gets_message_scoped_to_telegram() {
    // Telegram configured: a turn that talks in a Telegram chat (a sender's, an announcing
    // job's) gets message's Telegram actions without broadcast; a local run keeps broadcast.
    let config = fidelity_config("scheduled-turn-telegram-chat-forms");
    let actions = |version: &str, extra: &[&str]| {
        let mut args = vec![
            "--config",
            &config,
            "schema",
            "--api",
            "openai",
            "--channel",
            "telegram",
        ];
        args.extend(extra);
        let tools = json_of(version, &args);
        let message = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["function"]["name"] == "message")
            .unwrap_or_else(|| panic!("{version} {extra:?}: no message in {tools}"))
            .clone();
        names(
            &message["function"]["parameters"]["properties"]["action"]["enum"],
            "",
        )
    };
    for version in ["2026.8", "2026.9"] {
        let local = actions(version, &[]);
        assert!(
            local.contains(&"broadcast".to_string()),
            "{version}: {local:?}"
        );
        for turn in [&["--sender-id", "42"][..], &["--scheduled-tools", "*"][..]] {
            let chat = actions(version, turn);
            assert!(
                !chat.contains(&"broadcast".to_string()),
                "{version} {turn:?}: {chat:?}"
            );
            assert!(
                chat.contains(&"react".to_string()),
                "{version} {turn:?}: {chat:?}"
            );
        }
    }
}

#[test]
fn a_control_character_the_context_echoes_is_shown_not_sent() {
    // A group id from a session key and a job's maker are echoed in the context lines: an
    // escape there is written out, never sent to the terminal.
    let key = "agent:main:telegram:group:\u{1b}[31mred";
    let args = [
        "tools",
        "--session-key",
        key,
        "--scheduled-tools",
        "read",
        "--job-owner",
        key,
    ];
    let out = run_ok(&args);
    assert!(!out.contains('\u{1b}'), "{out:?}");
    assert!(out.contains("group: \\x1b[31mred"), "{out}");
    assert!(
        out.contains("made by an agent in agent:main:telegram:group:\\x1b[31mred"),
        "{out}"
    );
}
