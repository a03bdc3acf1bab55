//! Real OpenClaw as the MCP client: an OpenClaw agent whose `mcp.servers` starts `clawdeck mcp`,
//! and a message whose scripted `CALL` names clawdeck's read the way OpenClaw prefixes it
//! (`clawdeck__read`). The real agent runs clawdeck's tool through MCP and the mock LLM repeats
//! the result. Needs the real CLI and the mock LLM from ../shared/realclaw (`start.sh` prints
//! OPENCLAW_BIN; the mock listens on 127.0.0.1:18080); ignored otherwise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;
use std::time::Duration;

use serde_json::json;

#[test]
#[ignore = "needs the real OpenClaw CLI and its mock LLM (../shared/realclaw/start.sh); .ci/run starts them"]
fn openclaw_calls_clawdecks_read_through_mcp() {
    let bin = std::env::var("OPENCLAW_BIN")
        .expect("OPENCLAW_BIN (../shared/realclaw/start.sh prints it)");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let deck = dir.path().join("deck");
    std::fs::create_dir_all(home.join(".openclaw")).unwrap();
    std::fs::create_dir_all(deck.join("ws")).unwrap();
    std::fs::write(
        deck.join("ws/notes.txt"),
        "notes read by openclaw through mcp\n",
    )
    .unwrap();
    std::fs::write(
        deck.join("openclaw.json5"),
        r#"{ tools: { profile: "coding" } }"#,
    )
    .unwrap();
    std::fs::write(
        deck.join("clawdeck.json5"),
        r#"{ workspace: "ws", openclawVersion: "2026.9" }"#,
    )
    .unwrap();
    let state = dir.path().join("state");
    // OpenClaw's own config: the mock model, Tool Search off (so the MCP tool is called by its
    // name), bundle-mcp allowed, and clawdeck as an MCP server.
    let openclaw = json!({
        "models": {"mode": "replace", "providers": {"mock": {
            "baseUrl": "http://127.0.0.1:18080/v1", "apiKey": "mock-key", "api": "openai-completions",
            "models": [{"id": "mock-1", "name": "Mock 1", "reasoning": false, "input": ["text"],
                        "contextWindow": 128000, "maxTokens": 4096}]}}},
        "agents": {"defaults": {"model": {"primary": "mock/mock-1"}},
                   "list": [{"id": "main", "default": true}]},
        "tools": {"alsoAllow": ["bundle-mcp"], "toolSearch": false},
        "mcp": {"servers": {"clawdeck": {
            "command": env!("CARGO_BIN_EXE_clawdeck"),
            "args": ["--config", deck.join("openclaw.json5"), "mcp"],
            "env": {"XDG_STATE_HOME": state},
        }}},
    });
    std::fs::write(
        home.join(".openclaw/openclaw.json"),
        serde_json::to_string_pretty(&openclaw).unwrap(),
    )
    .unwrap();

    let mut child = Command::new(&bin)
        .env("REALCLAW_HOME", &home)
        .args([
            "agent",
            "--local",
            "--agent",
            "main",
            "--session-id",
            "mcp1",
            "--message",
        ])
        .arg(r#"CALL clawdeck__read {"path":"notes.txt"}"#)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("openclaw agent did not finish within 300 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("tool clawdeck__read returned: notes read by openclaw through mcp"),
        "stdout: {stdout}\nstderr: {stderr}"
    );

    // The decision log recorded OpenClaw's call, under the name OpenClaw gave itself.
    let log = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["log", "--json"])
        .env("XDG_STATE_HOME", &state)
        .output()
        .unwrap();
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&log.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let read = records
        .iter()
        .find(|r| r["tool"]["canonical"] == "read")
        .unwrap_or_else(|| panic!("no read in the decision log: {records:?}"));
    assert_eq!(read["decision"], "shown", "{read}");
    assert_eq!(read["outcome"], "ok", "{read}");
    assert!(
        read["client"]
            .as_str()
            .is_some_and(|c| !c.is_empty() && c != "mcp"),
        "{read}"
    );
}
