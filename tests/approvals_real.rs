//! Approvals against a real OpenClaw 2026.9.6 gateway of the test's own (OwnGateway, free ports,
//! `tools.exec.ask: "always"`): approvals of two kinds pending at attach (an exec one raised by a
//! `chat.send` turn, a plugin one requested with `plugin.approval.request`), listed by
//! `approvals pending --json`, each resolved through its kind's method by `approvals resolve`,
//! then in `approvals history --json`; `approvals grants --json` answers. And the routing: an
//! approver connection of another device neither receives nor lists them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::own_gateway::OwnGateway;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use clawdeck_gateway::desk::approver_options;
use clawdeck_gateway::{Backoff, ClientEvent, DeviceIdentity, GatewayClient};
use serde_json::{Value, json};

const EXEC_ASKS: &str =
    r#"tools: { exec: { host: "gateway", security: "allowlist", ask: "always" } },"#;

/// An approver connection (operator.approvals, the `approvals` and `exec-approvals` caps) with
/// the device identity of `state`, as `clawdeck approvals` uses it.
async fn approver(url: &str, token: &str, state: &Path) -> GatewayClient {
    let identity = DeviceIdentity::load_or_create(&state.join("clawdeck")).unwrap();
    GatewayClient::connect(
        support::token_endpoint("test", url, token),
        identity,
        approver_options(),
        Backoff::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("connect {url}: {e}"))
}

/// `clawdeck ARGS` with the device identity of `state`; (status, stdout, stderr).
fn clawdeck(args: &[&str], url: &str, token: &str, state: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("OPENCLAW_GATEWAY_URL", url)
        .env("OPENCLAW_GATEWAY_TOKEN", token)
        .env("XDG_STATE_HOME", state)
        .env("XDG_DATA_HOME", state)
        .env("OPENCLAW_CONFIG_PATH", state.join("no-openclaw.json"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_of(args: &[&str], url: &str, token: &str, state: &Path) -> Value {
    let (code, out, err) = clawdeck(args, url, token, state);
    assert_eq!(code, 0, "clawdeck {args:?}: {err}\n{out}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?} ({e}): {out}"))
}

/// The first `event` seen on `client` within `timeout` whose payload satisfies `pred`.
async fn event_within(
    events: &mut tokio::sync::mpsc::UnboundedReceiver<ClientEvent>,
    event: &str,
    timeout: Duration,
) -> Option<Value> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, events.recv()).await {
            Ok(Some(ClientEvent::Event(frame))) if frame.event == event => {
                return Some(frame.payload.clone());
            }
            Ok(Some(_)) => {}
            _ => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
async fn pending_at_attach_of_two_kinds_resolved_by_kind_then_in_history_and_not_routed_to_another_device()
 {
    let Some(gateway) = OwnGateway::start_with(EXEC_ASKS) else {
        eprintln!("approvals_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)");
        return;
    };
    let (url, token) = (gateway.url.clone(), gateway.token.clone());
    let mine = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    // Device A: starts the turn and raises the plugin approval. Device B: an approver too.
    let client = approver(&url, &token, mine.path()).await;
    // A second approver of device A: a plugin approval is not sent to the connection that
    // requested it, and with no other approver it expires at once ("no-approval-route").
    let watcher = approver(&url, &token, mine.path()).await;
    let mut seen_by_mine = watcher.events();
    let bystander = approver(&url, &token, other.path()).await;
    let mut seen_by_other = bystander.events();

    let accepted = client
        .request(
            "chat.send",
            json!({"sessionKey": "agent:ops:appr-kinds", "idempotencyKey": "appr-kinds-1",
                   "message": r#"CALL exec {"command":"echo kinds-exec"}"#}),
        )
        .await
        .unwrap();
    eprintln!("chat.send: {accepted}");
    let plugin = client
        .request(
            "plugin.approval.request",
            json!({"title": "Send an e-mail", "description": "to boss@example.com",
                   "detail": "Subject: numbers", "severity": "warning", "pluginId": "mailer",
                   "toolName": "send_mail", "agentId": "ops", "sessionKey": "agent:ops:appr-kinds",
                   "timeoutMs": 300_000, "twoPhase": true}),
        )
        .await
        .unwrap();
    eprintln!("plugin.approval.request: {plugin}");
    let plugin_id = plugin["id"].as_str().unwrap().to_string();
    let delivered = event_within(
        &mut seen_by_mine,
        "plugin.approval.requested",
        Duration::from_secs(10),
    )
    .await
    .expect("device A's other approver connection gets the plugin approval");
    assert_eq!(delivered["id"], plugin_id.as_str());

    // Both pending, listed by a fresh attach from device A (pending at attach).
    let deadline = Instant::now() + Duration::from_secs(240);
    let (exec_id, listed) = loop {
        let listed = json_of(
            &["approvals", "pending", "--json"],
            &url,
            &token,
            mine.path(),
        );
        let exec = listed["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["kind"] == "exec" && a["command"] == "echo kinds-exec")
            .map(|a| a["id"].as_str().unwrap().to_string());
        if let Some(id) = exec {
            break (id, listed);
        }
        assert!(
            Instant::now() < deadline,
            "no exec approval pending: {listed}"
        );
        std::thread::sleep(Duration::from_secs(2));
    };
    eprintln!("pending: {listed}");
    let plugin_row = listed["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == plugin_id.as_str())
        .unwrap_or_else(|| panic!("the plugin approval is listed: {listed}"))
        .clone();
    assert_eq!(plugin_row["kind"], "plugin");
    assert_eq!(plugin_row["title"], "Send an e-mail");
    assert_eq!(plugin_row["detail"], "Subject: numbers");

    // Routing (2026.9.6): another device's approver connection gets neither event nor list row.
    let leaked = event_within(
        &mut seen_by_other,
        "exec.approval.requested",
        Duration::from_secs(3),
    )
    .await;
    assert!(leaked.is_none(), "device B received {leaked:?}");
    let theirs = json_of(
        &["approvals", "pending", "--json"],
        &url,
        &token,
        other.path(),
    );
    assert_eq!(theirs["approvals"], json!([]), "device B lists {theirs}");

    // Each resolved through its kind's method: the plugin one denied, the exec one allowed.
    for (id, decision) in [(&plugin_id, "deny"), (&exec_id, "allow-once")] {
        let done = json_of(
            &["approvals", "resolve", id, decision, "--json"],
            &url,
            &token,
            mine.path(),
        );
        eprintln!("resolve: {done}");
        assert_eq!(done["decision"], decision);
    }
    let kinds: Vec<Value> = ["plugin", "exec"]
        .iter()
        .map(|k| {
            let done = json_of(
                &["approvals", "history", "--kind", k, "--json"],
                &url,
                &token,
                mine.path(),
            );
            eprintln!("history {k}: {done}");
            done
        })
        .collect();
    let plugin_done = kinds[0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == plugin_id.as_str())
        .unwrap_or_else(|| panic!("the plugin approval in history: {}", kinds[0]))
        .clone();
    assert_eq!(plugin_done["status"], "denied");
    assert_eq!(plugin_done["decision"], "deny");
    let exec_done = kinds[1]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == exec_id.as_str())
        .unwrap_or_else(|| panic!("the exec approval in history: {}", kinds[1]))
        .clone();
    assert_eq!(exec_done["decision"], "allow-once");
    assert_eq!(exec_done["summary"], "echo kinds-exec");
    let grants = json_of(
        &["approvals", "grants", "--json"],
        &url,
        &token,
        mine.path(),
    );
    assert!(grants["grants"].is_array(), "{grants}");
    client.close();
    watcher.close();
    bystander.close();
}
