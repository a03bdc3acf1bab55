//! The gateway client against the real OpenClaw gateway (../shared/realclaw). Tests that use
//! the shared gateway need OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN (as `.ci/run`
//! exports them); tests that must change or kill a gateway start their own instance with
//! ../shared/realclaw/start.sh on free ports and need OPENCLAW_BIN. Otherwise each test prints
//! that it was skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::headless::Headless;
use support::own_gateway::OwnGateway;
use support::shared_gateway;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use clawdeck_gateway::approvals::Decision;
use clawdeck_gateway::desk::DeskEvent;
use clawdeck_gateway::watch::WatchKind;
use clawdeck_gateway::{
    Backoff, ClientEvent, ConnectOptions, DeviceIdentity, GatewayClient, GatewayEndpoint,
};
use serde_json::{Value, json};

fn endpoint(url: &str, token: &str) -> GatewayEndpoint {
    support::token_endpoint("test", url, token)
}

/// Connects with the device identity the headless commands use for the same state dir (an
/// approval is visible to the device that started the run).
async fn connect(url: &str, token: &str, state: &Path) -> GatewayClient {
    let identity = DeviceIdentity::load_or_create(&state.join("clawdeck")).unwrap();
    GatewayClient::connect(
        endpoint(url, token),
        identity,
        ConnectOptions::default(),
        Backoff {
            initial: Duration::from_millis(200),
            max: Duration::from_secs(2),
        },
    )
    .await
    .unwrap_or_else(|e| panic!("connect {url}: {e}"))
}

/// Starts an agent turn through the gateway's `agent` method (the mock LLM answers
/// `CALL <tool> <json>` with that tool call). Returns the run's acceptance payload.
async fn send_agent(client: &GatewayClient, session_id: &str, message: &str) -> Value {
    client
        .request(
            "agent",
            json!({
                "message": message,
                "agentId": "ops",
                "sessionId": session_id,
                "idempotencyKey": format!("clawdeck-test-{session_id}-{}", std::process::id()),
            }),
        )
        .await
        .unwrap_or_else(|e| panic!("agent: {e}"))
}

/// Starts a turn through the gateway's `chat.send`, as an operator client does. Unlike `agent`,
/// `chat.send` records the sending device as the reviewer of the run's exec approvals
/// (`ApprovalReviewerDeviceId`), which is what makes an approval visible to clawdeck, and so
/// gives it a route instead of `no-approval-route`.
async fn send_chat(client: &GatewayClient, session_key: &str, message: &str) -> Value {
    client
        .request(
            "chat.send",
            json!({
                "sessionKey": session_key,
                "message": message,
                "idempotencyKey": format!("clawdeck-test-{session_key}-{}", std::process::id()),
            }),
        )
        .await
        .unwrap_or_else(|e| panic!("chat.send: {e}"))
}

/// `clawdeck gateway watch --json` (or another headless command) on the gateway at `url`, its
/// state (device identity) in `state`.
fn headless(args: &[&str], url: &str, token: &str, state: &Path) -> Headless {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    command
        .args(args)
        .env("OPENCLAW_GATEWAY_URL", url)
        .env("OPENCLAW_GATEWAY_TOKEN", token)
        .env("XDG_STATE_HOME", state)
        .env("XDG_DATA_HOME", state)
        .env("OPENCLAW_CONFIG_PATH", state.join("no-openclaw.json"));
    Headless::spawn(command)
}

fn is_tool(v: &Value, phase: &str) -> bool {
    v["kind"] == "tool" && v["tool"]["name"] == "exec" && v["tool"]["phase"] == phase
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway: .ci/run runs it with --ignored"]
async fn connects_and_lists_sessions() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!(
            "gateway_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set; see ../shared/realclaw/README.md)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let client = connect(&url, &token, state.path()).await;
    let hello = client.hello();
    assert_eq!(hello.protocol, 4);
    assert!(
        hello.scopes.iter().any(|s| s == "operator.approvals"),
        "{:?}",
        hello.scopes
    );
    assert!(hello.methods.iter().any(|m| m == "tools.effective"));
    let list = client.request("sessions.list", json!({})).await.unwrap();
    assert!(list["sessions"].is_array(), "{list}");
    client.close();

    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["gateway", "status", "--json"])
        .env("OPENCLAW_GATEWAY_URL", &url)
        .env("OPENCLAW_GATEWAY_TOKEN", &token)
        .env("XDG_STATE_HOME", state.path())
        .env("OPENCLAW_CONFIG_PATH", state.path().join("none.json"))
        .output()
        .unwrap();
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status[0]["connected"], true, "{status}");
    assert_eq!(status[0]["protocol"], 4);

    // catalog sync stores a pack for exactly the gateway's version.
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["catalog", "sync", "--json"])
        .env("OPENCLAW_GATEWAY_URL", &url)
        .env("OPENCLAW_GATEWAY_TOKEN", &token)
        .env("XDG_STATE_HOME", state.path())
        .env("XDG_DATA_HOME", state.path())
        .env("OPENCLAW_CONFIG_PATH", state.path().join("none.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let version = status[0]["serverVersion"].as_str().unwrap();
    let path = state.path().join(format!("clawdeck/packs/{version}.json"));
    let pack: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(pack["version"], version);
    let exec = pack["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "exec")
        .expect("exec in the synced pack");
    assert_eq!(exec["section"], "runtime");
    assert!(
        pack["groups"]["group:runtime"]
            .as_array()
            .unwrap()
            .contains(&json!("exec"))
    );
    assert!(
        pack["profiles"]["coding"]
            .as_array()
            .unwrap()
            .contains(&json!("exec"))
    );
}

/// `clawdeck catalog sync` against the real gateway, then the commands a newcomer runs next
/// with that version's pack (asked for by name, and found through an installed `openclaw` of
/// that version): each reads the stored pack and answers with it.
#[test]
#[ignore = "needs a running real OpenClaw gateway (OPENCLAW_GATEWAY_URL, OPENCLAW_GATEWAY_TOKEN): .ci/run runs it with --ignored"]
fn a_pack_synced_from_the_real_gateway_answers_the_next_commands() {
    let (url, token) = shared_gateway()
        .expect("OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN must be set for this test");
    let home = tempfile::tempdir().unwrap();
    let clawdeck = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.args(args)
            .env("HOME", home.path())
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CACHE_HOME", home.path().join("cache"))
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("OPENCLAW_GATEWAY_URL", &url)
            .env("OPENCLAW_GATEWAY_TOKEN", &token)
            .env("OPENCLAW_BIN", home.path().join("no-openclaw"))
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("CLAWDECK_OPENCLAW_VERSION");
        cmd
    };
    let out = clawdeck(&["catalog", "sync", "--json"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "catalog sync: {stderr}");
    let synced: Value = serde_json::from_slice(&out.stdout).unwrap();
    let version = synced["version"].as_str().unwrap().to_string();

    // An installed openclaw of the gateway's version picks the synced pack by itself.
    let fake = home.path().join("openclaw");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho 'OpenClaw {version} (test)'\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();

    for command in [
        vec!["tools"],
        vec!["explain", "exec"],
        vec!["lint"],
        vec!["schema", "--api", "openai", "--json"],
    ] {
        for by_flag in [true, false] {
            let mut args = command.clone();
            if by_flag {
                args.extend(["--openclaw-version", version.as_str()]);
            }
            let mut cmd = clawdeck(&args);
            if !by_flag {
                cmd.env("OPENCLAW_BIN", &fake);
            }
            let out = cmd.output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code().unwrap_or(-1);
            assert!(
                code == 0 || (command[0] == "lint" && code == 1),
                "{args:?} exit {code}: {stderr}"
            );
            assert!(!stderr.contains("cannot load"), "{args:?}: {stderr}");
            assert!(
                stdout.contains(&format!("{version} semantics"))
                    || stdout.contains(&format!("\"{version}\"")),
                "{args:?}: the synced pack did not answer:\n{stdout}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway: .ci/run runs it with --ignored"]
async fn exec_tool_call_appears_live_in_watch_json_and_the_session_has_its_effective_tools() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!("gateway_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)");
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let watch = headless(&["gateway", "watch", "--json"], &url, &token, state.path());
    // The watcher is attached once it has subscribed; give it a moment, then check it lives.
    std::thread::sleep(Duration::from_secs(3));
    let client = connect(&url, &token, state.path()).await;
    let session_id = format!("cdw{}", std::process::id());
    send_agent(&client, &session_id, r#"CALL exec {"command":"echo x"}"#).await;
    let start = watch.wait_for(Duration::from_secs(150), "exec start event", |v| {
        is_tool(v, "start")
    });
    eprintln!("start: {start}");
    assert_eq!(start["tool"]["args"]["command"], "echo x");
    let result = watch.wait_for(Duration::from_secs(60), "exec result event", |v| {
        is_tool(v, "result")
    });
    eprintln!("result: {result}");
    assert_eq!(result["tool"]["output"].as_str().map(str::trim), Some("x"));
    assert_eq!(
        result["tool"]["args"]["command"], "echo x",
        "result carries the call's arguments"
    );
    assert_eq!(result["tool"]["isError"], false);
    let key = result["sessionKey"].as_str().unwrap().to_string();
    assert!(key.starts_with("agent:ops:"), "{key}");

    // tools.effective for that session: exec is there (the run just used it).
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["gateway", "effective", "--session", &key, "--json"])
        .env("OPENCLAW_GATEWAY_URL", &url)
        .env("OPENCLAW_GATEWAY_TOKEN", &token)
        .env("XDG_STATE_HOME", state.path())
        .env("OPENCLAW_CONFIG_PATH", state.path().join("none.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tools = clawdeck_gateway::tools::effective_tools(&rows[0]["effective"]);
    eprintln!("tools.effective {key}: {} tools", tools.len());
    assert!(tools.iter().any(|t| t.name == "exec"), "{rows}");
    client.close();
}

/// `verify --gateway URL --session agent:ops:main`: the session key decides the context (agent
/// ops, not the config's default agent), the report names the session and the context it
/// compared, and with a config that matches the gateway for `ops` nothing disagrees. The
/// fixture's default agent denies exec and process, so comparing with it would disagree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway and CLI: .ci/run runs it with --ignored"]
async fn verify_compares_the_sessions_own_agent_and_names_the_context() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!("gateway_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)");
        return;
    };
    let Some(openclaw) = std::env::var_os("OPENCLAW_BIN") else {
        eprintln!(
            "gateway_real: skipped (verify --gateway asks through the real CLI: OPENCLAW_BIN)"
        );
        return;
    };
    const SESSION: &str = "agent:ops:main";
    let state = tempfile::tempdir().unwrap();
    // tools.effective answers only for a session the gateway knows.
    let client = connect(&url, &token, state.path()).await;
    let list = client.request("sessions.list", json!({})).await.unwrap();
    let known = list["sessions"]
        .as_array()
        .is_some_and(|s| s.iter().any(|row| row["key"] == SESSION));
    if !known {
        client
            .request("sessions.create", json!({"key": SESSION}))
            .await
            .unwrap_or_else(|e| panic!("sessions.create {SESSION}: {e}"));
    }
    client.close();

    let config = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/realclaw/gateway-ops-verify.json5");
    let verify = |json: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.arg("--config")
            .arg(&config)
            .args(["verify", "--gateway", &url, "--session", SESSION])
            .env("OPENCLAW_BIN", &openclaw)
            .env("OPENCLAW_GATEWAY_TOKEN", &token)
            .env("XDG_STATE_HOME", state.path());
        if json {
            cmd.arg("--json");
        }
        cmd.output().unwrap()
    };
    let out = verify(true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(report["compared"]["sessionKey"], SESSION, "{report}");
    assert_eq!(report["compared"]["agent"], "ops", "{report}");
    assert_eq!(report["compared"]["subagent"], false, "{report}");
    assert_eq!(
        report["summary"]["policyDisagreements"], 0,
        "{}",
        report["verdicts"]
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("embedded demo"), "{stderr}");

    let out = verify(false);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("session: {SESSION}")), "{text}");
    assert!(text.contains("compared: agent ops"), "{text}");
    assert!(text.contains("summary: 0 policy disagreements"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
}

// ---- tests that run their own gateway ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
/// The approval gets a decision route because (a) the turn is started with `chat.send` from
/// clawdeck's device, which the gateway records as the approval's reviewer device, and (b)
/// `approvals watch` is attached from that device with `operator.approvals` and the
/// `exec-approvals` capability. Started with `agent` instead, the same exec is denied at once
/// as `no-approval-route` (see docs/gateways.md, Exec approvals).
async fn exec_approval_is_raised_and_allowing_runs_the_command_denying_stops_it() {
    let Some(gateway) = OwnGateway::start() else {
        eprintln!("gateway_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)");
        return;
    };
    // exec on the gateway host, every command asks (tools.exec.ask: "always").
    let config = std::fs::read_to_string(gateway.config_path()).unwrap();
    let config = format!(
        "{},\n  tools: {{ exec: {{ host: \"gateway\", security: \"allowlist\", ask: \"always\" }} }},\n}}\n",
        config
            .trim_end()
            .trim_end_matches('}')
            .trim_end()
            .trim_end_matches(',')
    );
    std::fs::write(gateway.config_path(), config).unwrap();
    assert!(
        gateway.wait_for_log("config hot reload applied (tools)", Duration::from_secs(30)),
        "the gateway did not reload tools.exec:\n{}",
        gateway.log()
    );
    let state = tempfile::tempdir().unwrap();
    let approvals = headless(
        &["approvals", "watch", "--json"],
        &gateway.url,
        &gateway.token,
        state.path(),
    );
    let watch = headless(
        &["gateway", "watch", "--json"],
        &gateway.url,
        &gateway.token,
        state.path(),
    );
    // The console's path: the core's gateway desk from the same device.
    let (desk_tx, mut desk_rx) = tokio::sync::mpsc::unbounded_channel();
    let desk = clawdeck_gateway::desk::GatewayDesk::spawn(
        vec![endpoint(&gateway.url, &gateway.token)],
        DeviceIdentity::load_or_create(&state.path().join("clawdeck")).unwrap(),
        Backoff::default(),
        std::sync::Arc::new(move |ev| desk_tx.send(ev).is_ok()),
        tokio_util::sync::CancellationToken::new(),
    );
    std::thread::sleep(Duration::from_secs(3));
    let client = connect(&gateway.url, &gateway.token, state.path()).await;

    // Allowed from `approvals resolve`, denied from the desk (the console's answer).
    for (session, command, decision, expect, from_desk) in [
        (
            "agent:ops:appr-allow",
            "echo allowed-x",
            "allow-once",
            Some("allowed-x"),
            false,
        ),
        ("agent:ops:appr-deny", "echo denied-x", "deny", None, true),
    ] {
        let accepted = send_chat(
            &client,
            session,
            &format!(r#"CALL exec {{"command":"{command}"}}"#),
        )
        .await;
        eprintln!("chat.send: {accepted}");
        let requested =
            approvals.wait_for(Duration::from_secs(300), "exec.approval.requested", |v| {
                v["kind"] == "approval"
                    && v["approval"]["command"]
                        .as_str()
                        .is_some_and(|c| c.contains(command))
            });
        eprintln!("requested: {requested}");
        let id = requested["approval"]["id"].as_str().unwrap().to_string();
        // The desk sees the same approval.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let ev = tokio::time::timeout(left, desk_rx.recv())
                .await
                .unwrap_or_else(|_| panic!("the desk did not see {id}"))
                .unwrap();
            if let DeskEvent::Item(item) = ev
                && let WatchKind::ApprovalRequested(a) = &item.kind
                && a.id == id
            {
                assert_eq!(a.command, command);
                assert_eq!(a.agent, "ops");
                break;
            }
        }
        if from_desk {
            desk.resolve(
                &endpoint(&gateway.url, &gateway.token).name,
                &id,
                Decision::parse(decision).unwrap(),
            );
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let ev = tokio::time::timeout(left, desk_rx.recv())
                    .await
                    .unwrap_or_else(|_| panic!("the desk's answer to {id} did not come"))
                    .unwrap();
                if let DeskEvent::ResolveDone {
                    id: done, error, ..
                } = ev
                    && done == id
                {
                    assert_eq!(error, None);
                    break;
                }
            }
        } else {
            let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
                .args(["approvals", "resolve", &id, decision])
                .env("OPENCLAW_GATEWAY_URL", &gateway.url)
                .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
                .env("XDG_STATE_HOME", state.path())
                .env("OPENCLAW_CONFIG_PATH", state.path().join("none.json"))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "resolve: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let resolved = approvals.wait_for(Duration::from_secs(30), "exec.approval.resolved", |v| {
            v["kind"] == "approval-resolved" && v["id"] == id.as_str()
        });
        eprintln!("resolved: {resolved}");
        assert_eq!(resolved["decision"], decision);
        let result = watch.wait_for(Duration::from_secs(90), "exec result", |v| {
            is_tool(v, "result") && v["tool"]["args"]["command"] == command
        });
        eprintln!("{decision}: {result}");
        match expect {
            Some(output) => {
                assert_eq!(result["tool"]["isError"], false, "{result}");
                assert_eq!(
                    result["tool"]["output"].as_str().map(str::trim),
                    Some(output)
                );
            }
            None => {
                let output = result["tool"]["output"].as_str().unwrap_or("");
                assert!(
                    !output.contains("\ndenied-x") && output.trim() != "denied-x",
                    "denied command ran: {result}"
                );
                assert!(output.to_lowercase().contains("denied"), "{result}");
            }
        }
    }
    client.close();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI and ../shared/realclaw: .ci/run runs it with --ignored"]
async fn gateway_killed_and_restarted_mid_stream_is_reconnected_and_resubscribed() {
    let Some(gateway) = OwnGateway::start() else {
        eprintln!("gateway_real: skipped (OPENCLAW_BIN or ../shared/realclaw/start.sh missing)");
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let client = connect(&gateway.url, &gateway.token, state.path()).await;
    let mut events = client.events();
    client
        .subscribe("sessions.subscribe", json!({}))
        .await
        .unwrap();

    gateway.stop();
    let disconnected = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Some(ClientEvent::Disconnected { reason, .. }) = events.recv().await {
                return reason;
            }
        }
    })
    .await
    .expect("no Disconnected event after the gateway was killed");
    eprintln!("disconnected: {disconnected}");
    assert!(client.request("sessions.list", json!({})).await.is_err());

    gateway.restart();
    let (reconnected, resubscribed) = tokio::time::timeout(Duration::from_secs(180), async {
        let mut reconnected = false;
        loop {
            match events.recv().await {
                Some(ClientEvent::Connected {
                    reconnect: true, ..
                }) => reconnected = true,
                Some(ClientEvent::Subscribed { method, .. }) if method == "sessions.subscribe" => {
                    return (reconnected, true);
                }
                Some(ClientEvent::Failed(err)) => panic!("gave up: {err}"),
                None => panic!("event stream ended"),
                _ => {}
            }
        }
    })
    .await
    .expect("not reconnected within 180 s of the restart");
    assert!(reconnected && resubscribed);
    // The stream goes on: a run on the restarted gateway reaches the same subscriber.
    send_agent(&client, "after-restart", "hello again").await;
    let changed = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            if let Some(ClientEvent::Event(ev)) = events.recv().await
                && ev.event == "sessions.changed"
            {
                return ev;
            }
        }
    })
    .await
    .expect("no sessions.changed after reconnecting");
    eprintln!("after restart: {} {}", changed.event, changed.payload);
    client.close();
}
