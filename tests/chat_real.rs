//! `clawdeck chat`, `gateway abort` and a stop signal against the real OpenClaw gateway
//! (../shared/realclaw, a gateway of the test's own on free ports; needs OPENCLAW_BIN, else each
//! test says it was skipped). The mock LLM answers `CALL <tool> <json>` with that tool call.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::headless::Headless;
use support::own_gateway::OwnGateway;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// exec runs on the gateway host, and every command asks an operator first.
const EXEC_ASKS: &str =
    r#"tools: { exec: { host: "gateway", security: "allowlist", ask: "always" } },"#;

/// A headless clawdeck child on `gateway`, its state (device identity) in `state`.
fn headless(args: &[&str], gateway: &OwnGateway, state: &Path) -> Headless {
    Headless::spawn(clawdeck(args, gateway, state))
}

fn clawdeck(args: &[&str], gateway: &OwnGateway, state: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    cmd.args(args)
        .env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
        .env("XDG_STATE_HOME", state)
        .env("XDG_DATA_HOME", state)
        .env("OPENCLAW_CONFIG_PATH", state.join("no-openclaw.json"));
    cmd
}

#[test]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
/// The approval reaches `approvals watch` because both run from the same state directory (one
/// device): the gateway routes a `chat.send` turn's approvals to the device that sent it.
fn chat_turn_calling_exec_raises_an_approval_and_allow_once_lets_the_reply_carry_its_output() {
    let Some(gateway) = OwnGateway::start_with(EXEC_ASKS) else {
        eprintln!("chat_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)");
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let approvals = headless(&["approvals", "watch", "--json"], &gateway, state.path());
    std::thread::sleep(Duration::from_secs(3));
    let mut chat = headless(
        &[
            "chat",
            "--session",
            "agent:ops:chat-approval",
            "-m",
            r#"CALL exec {"command":"echo chat-approved-x"}"#,
            "--json",
        ],
        &gateway,
        state.path(),
    );
    // The console's headless twin and the chat itself both see the approval.
    let requested = approvals.wait_for(Duration::from_secs(300), "the approval", |v| {
        v["kind"] == "approval"
            && v["approval"]["command"]
                .as_str()
                .is_some_and(|c| c.contains("echo chat-approved-x"))
    });
    let id = requested["approval"]["id"].as_str().unwrap().to_string();
    let in_chat = chat.wait_for(Duration::from_secs(60), "the approval in chat", |v| {
        v["kind"] == "approval"
    });
    assert_eq!(in_chat["approval"]["id"], id.as_str(), "{in_chat}");
    let out = clawdeck(
        &["approvals", "resolve", &id, "allow-once"],
        &gateway,
        state.path(),
    )
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "resolve: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = chat.wait_for(Duration::from_secs(120), "the exec result", |v| {
        v["kind"] == "tool" && v["tool"]["phase"] == "result"
    });
    assert_eq!(result["tool"]["name"], "exec", "{result}");
    assert_eq!(result["tool"]["isError"], false, "{result}");
    assert_eq!(
        result["tool"]["output"].as_str().map(str::trim),
        Some("chat-approved-x"),
        "{result}"
    );
    let fin = chat.wait_for(Duration::from_secs(120), "the reply", |v| {
        v["kind"] == "final"
    });
    assert!(
        fin["text"]
            .as_str()
            .is_some_and(|t| t.contains("tool exec returned: chat-approved-x")),
        "{fin}"
    );
    assert_eq!(chat.wait_exit(Duration::from_secs(10)).code(), Some(0));
}

/// Waits until the chat's turn is running: the model has started answering.
fn running(chat: &Headless) {
    chat.wait_for(Duration::from_secs(300), "the reply starting", |v| {
        v["kind"] == "delta"
    });
}

#[test]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
/// A slow turn: the message carries the mock's `SLEEP 60` line, and the mock streams its reply
/// one word every 4 s (`MOCK_LLM_DELAY_MS`; the reply takes about a minute). The mock applies
/// `SLEEP` to the newest user message only, and for a `chat.send` turn 2026.9.6 adds its own
/// context message after the operator's, so the streaming delay is what keeps the turn running.
fn slow_turn_is_aborted_from_clawdeck_and_ends_within_5_s() {
    let Some(gateway) = OwnGateway::start_with_env("", &[("MOCK_LLM_DELAY_MS", "4000")]) else {
        eprintln!("chat_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)");
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let message = "take your time\nSLEEP 60";

    // `clawdeck gateway abort KEY` from another process.
    let mut chat = headless(
        &[
            "chat",
            "--session",
            "agent:ops:slow-1",
            "-m",
            message,
            "--json",
        ],
        &gateway,
        state.path(),
    );
    running(&chat);
    // Steer and abort with a second gateway configured first: both reach the gateway running
    // the turn, and steering starts no session on the other.
    let other = OwnGateway::start().expect("a second gateway");
    let both = |args: &[&str]| {
        let mut cmd = clawdeck(args, &gateway, state.path());
        cmd.args(["--gateway", &other.url, "--gateway", &gateway.url]);
        cmd.output().unwrap()
    };
    let running_here = format!("127.0.0.1:{}: agent:ops:slow-1: ", gateway.port());
    let out = both(&["gateway", "steer", "agent:ops:slow-1", "-m", "keep going"]);
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && said.starts_with(&running_here),
        "steer: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let asked = Instant::now();
    let out = both(&["gateway", "abort", "agent:ops:slow-1"]);
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "abort: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("aborted run clawdeck-chat-"), "{said}");
    assert!(said.starts_with(&running_here), "{said}");
    let end = chat.wait_for(Duration::from_secs(5), "the turn's end", |v| {
        v["kind"] == "aborted" || v["kind"] == "final"
    });
    assert_eq!(end["kind"], "aborted", "{end}");
    assert_eq!(chat.wait_exit(Duration::from_secs(5)).code(), Some(1));
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let listed = clawdeck(&["gateway", "sessions", "--json"], &other, state.path())
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(!listed.contains("slow-1"), "the other gateway: {listed}");
    other.stop();

    // Ctrl-C on `clawdeck chat` aborts its own turn, then exits 130.
    let mut chat = headless(
        &[
            "chat",
            "--session",
            "agent:ops:slow-2",
            "-m",
            message,
            "--json",
        ],
        &gateway,
        state.path(),
    );
    running(&chat);
    let asked = Instant::now();
    chat.signal(nix::sys::signal::Signal::SIGINT);
    let end = chat.wait_for(Duration::from_secs(5), "the turn's end", |v| {
        v["kind"] == "aborted"
    });
    eprintln!("{end}");
    assert_eq!(chat.wait_exit(Duration::from_secs(5)).code(), Some(130));
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    // The gateway agrees: nothing runs in either session any more.
    let out = clawdeck(&["gateway", "sessions", "--json"], &gateway, state.path())
        .output()
        .unwrap();
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["agent:ops:slow-1", "agent:ops:slow-2"] {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["session"]["key"] == key)
            .unwrap_or_else(|| panic!("{key} not listed: {rows}"));
        assert_ne!(row["session"]["hasActiveRun"], true, "{row}");
    }
}
