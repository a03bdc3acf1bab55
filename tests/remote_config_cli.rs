//! `--remote-config` against a local fake gateway (no OpenClaw needed): `explain`, `tools` and
//! `lint` answer for the config the gateway returns from `config.get` exactly as for the same
//! text read with `--config` (apart from the line naming the source), and a secret the gateway
//! left in the text never reaches clawdeck's output.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::without_config_source as without_source;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::json;
use support::fake_gateway::{FakeGateway, Script};

const CONFIG: &str = r#"{
  gateway: { auth: { mode: "token", token: "leaky-gateway-token-42" } },
  agents: { list: [ { id: "main", default: true }, { id: "ops", tools: { deny: ["exec"] } } ] },
  tools: { profile: "coding", deny: ["browser"], alsoAllow: ["nonexistent_tool"] },
}
"#;

fn clawdeck(state: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state)
        .env("HOME", state)
        .output()
        .unwrap()
}

#[test]
fn remote_config_answers_as_the_same_file_and_redacts_what_the_gateway_left() {
    let gateway = FakeGateway::start(
        Script::default()
            .answer(
                "config.get",
                json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
                       "raw": CONFIG, "includedPaths": [], "hash": "h1"}),
            )
            // No node connected: nothing of the nodes', and nothing to say about them.
            .answer("node.list", json!({"ts": 1, "nodes": []})),
    );
    let state = tempfile::tempdir().unwrap();
    let file = state.path().join("openclaw.json");
    std::fs::write(&file, CONFIG).unwrap();
    let file = file.to_str().unwrap();
    for command in [
        vec!["explain", "exec"],
        vec!["explain", "exec", "--agent", "ops"],
        vec!["tools", "--json"],
        vec!["lint"],
    ] {
        let mut remote = command.clone();
        remote.extend(["--remote-config", "--gateway", &gateway.url]);
        let mut local = command.clone();
        local.extend(["--config", file]);
        let remote_out = clawdeck(state.path(), &remote);
        let local_out = clawdeck(state.path(), &local);
        assert_eq!(
            remote_out.status.code(),
            local_out.status.code(),
            "{command:?}: {}",
            String::from_utf8_lossy(&remote_out.stderr)
        );
        let (r_stdout, r_stderr) = without_source(&remote_out);
        let (l_stdout, l_stderr) = without_source(&local_out);
        let l_stdout = l_stdout.replace(file, "/srv/openclaw/openclaw.json");
        let l_stderr = l_stderr.replace(file, "/srv/openclaw/openclaw.json");
        assert_eq!(r_stdout, l_stdout, "{command:?}");
        assert_eq!(r_stderr, l_stderr, "{command:?}");
        assert!(!r_stdout.is_empty(), "{command:?} answered");
    }
    let explain = clawdeck(
        state.path(),
        &[
            "explain",
            "exec",
            "--remote-config",
            "--gateway",
            &gateway.url,
        ],
    );
    let text = String::from_utf8_lossy(&explain.stdout);
    assert!(
        text.starts_with(&format!(
            "config: /srv/openclaw/openclaw.json on gateway {} (config.get)\n",
            gateway.url
        )),
        "{text}"
    );
    assert!(gateway.methods().iter().any(|m| m == "config.get"));
}

#[test]
fn remote_config_shows_no_secret_and_refuses_a_local_config_beside_it() {
    let gateway = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/openclaw.json", "exists": true, "valid": true,
               "raw": CONFIG, "includedPaths": []}),
    ));
    let state = tempfile::tempdir().unwrap();
    for args in [
        vec!["lint", "--json"],
        vec!["explain", "--json"],
        vec!["tools"],
    ] {
        let mut args = args.clone();
        args.extend(["--remote-config", "--gateway", &gateway.url]);
        let out = clawdeck(state.path(), &args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains("leaky-gateway-token-42"), "{args:?}: {all}");
    }
    let out = clawdeck(
        state.path(),
        &[
            "explain",
            "--remote-config",
            "--gateway",
            &gateway.url,
            "--config",
            "/x.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "--remote-config reads the gateway's config; --config /x.json names a local one"
    ));

    let missing = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/none.json", "exists": false, "valid": true}),
    ));
    let out = clawdeck(
        state.path(),
        &["tools", "--remote-config", "--gateway", &missing.url],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "clawdeck tools: gateway {}: config.get: the gateway has no config file (/srv/none.json does not exist)",
            missing.url
        )
    );
}

/// What a connected node published is in the gateway's answer (asked on the same connection);
/// a gateway whose node.list is no such answer leaves a warning and the config's answer.
#[test]
fn remote_config_builds_the_tools_the_gateways_nodes_published() {
    let config = json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
                        "raw": "{}", "includedPaths": [], "hash": "h1"});
    let node = json!({"nodeId": "e3f1c0de", "displayName": "lab \u{1b}[31mbox", "connected": true,
        "nodePluginTools": [{"pluginId": "node-mcp", "name": "docs_search",
            "description": "Search the documents.", "command": "mcp.tools.call.v1",
            "parameters": {"type": "object", "properties": {}},
            "mcp": {"server": "docs", "tool": "search"}}]});
    let with_node = FakeGateway::start(
        Script::default()
            .answer("config.get", config.clone())
            .answer("node.list", json!({"ts": 1, "nodes": [node]})),
    );
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck(
        state.path(),
        &[
            "explain",
            "docs_search",
            "--remote-config",
            "--gateway",
            &with_node.url,
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("docs_search (plugin node-mcp"), "{stdout}");
    // The node's name is the gateway's text, written as such (neutralised on a terminal).
    assert!(
        stdout.contains("built because node lab \u{1b}[31mbox published it from its MCP server docs (node.list, node e3f1c0de)"),
        "{stdout}"
    );

    let without = FakeGateway::start(Script::default().answer("config.get", config));
    let out = clawdeck(
        state.path(),
        &[
            "tools",
            "--json",
            "--remote-config",
            "--gateway",
            &without.url,
        ],
    );
    assert!(out.status.success());
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = answer["warnings"].to_string();
    assert!(
        warnings.contains("node.list: not a node.list answer: no `nodes` list: the tools its nodes published are unknown"),
        "{warnings}"
    );
    assert!(
        answer["tools"].as_array().unwrap().len() > 10,
        "the config's answer"
    );
}
