//! clawbot_router against the real OpenClaw CLI and gateway. The tests are `#[ignore]`d, so
//! `cargo test` reports them as ignored; run them with `cargo test --test router_real --
//! --ignored` once OPENCLAW_BIN points at the real CLI (and, for the HTTP and /tools/invoke parts,
//! OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN are set). `.ci/run` does when it could start
//! them. Asked to run without them, or with a binary that is not OpenClaw, they fail.
//! ../shared/realclaw/start.sh --gateway starts a gateway and a mock LLM and prints the exports.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use clawdeck_core::config::settings::RouterSettings;
use clawdeck_core::tool::ToolError;
use clawdeck_router::service::EnvLookup;
use clawdeck_router::{
    RouterEventKind, RouterRequest, RouterService, RunStatus, ToolsInvokeClient, TransportKind,
    gateway_client,
};
use serde_json::json;

/// The environment for the real CLI. Panics unless OPENCLAW_BIN is the real OpenClaw CLI (its
/// `--version` says `OpenClaw <version>`): a fake one must not pass for it.
fn real_env() -> EnvLookup {
    let bin = std::env::var("OPENCLAW_BIN")
        .ok()
        .filter(|b| !b.is_empty())
        .expect("OPENCLAW_BIN must name the real OpenClaw CLI (see ../shared/realclaw/README.md)");
    let version = std::process::Command::new(&bin)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("{bin} --version: {e}"));
    let text = String::from_utf8_lossy(&version.stdout);
    assert!(
        version.status.success() && text.trim_start().starts_with("OpenClaw 20"),
        "{bin} is not the real OpenClaw CLI (--version said {text:?})"
    );
    Arc::new(|k: &str| std::env::var(k).ok())
}

fn gateway() -> Option<(String, String)> {
    Some((
        std::env::var("OPENCLAW_GATEWAY_URL").ok()?,
        std::env::var("OPENCLAW_GATEWAY_TOKEN").ok()?,
    ))
}

fn settings() -> RouterSettings {
    // The real CLI needs ~8-15 s here (node start-up plus the agent turn).
    RouterSettings {
        timeout_seconds: 60,
        ..RouterSettings::default()
    }
}

fn print_run(label: &str, o: &clawdeck_router::RouterOutcome) {
    eprintln!(
        "--- {label}: status {:?}, exit {:?}, {} ms\n{}\n---",
        o.status,
        o.exit_code,
        o.duration.as_millis(),
        o.content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI: OPENCLAW_BIN=... cargo test --test router_real -- --ignored"]
async fn real_cli_answers_and_reports_unknown_agents() {
    let env = real_env();
    let service = RouterService::with_env(settings(), env);
    let mut events = service.subscribe();
    let message = "-x summarize recent logs \"quoted\" 日志\nsecond line";
    let handle = service
        .start(RouterRequest::new(message).with_agent("ops"))
        .unwrap();
    let o = handle.wait().await;
    print_run("openclaw agent --agent ops", &o);
    assert_eq!(o.status, RunStatus::Completed, "{}", o.content);
    assert_eq!(o.exit_code, Some(0));
    assert!(!o.content.trim().is_empty());
    let mut started_argv = None;
    while let Ok(ev) = events.try_recv() {
        if let RouterEventKind::Started { argv, .. } = ev.kind {
            started_argv = Some(argv);
        }
    }
    let argv = started_argv.expect("a Started event");
    assert_eq!(&argv[1..4], ["agent", "--agent", "ops"]);
    // No `mode` in the call: the message reaches OpenClaw verbatim (seed 000 §3.3).
    assert_eq!(argv[4], format!("--message={message}"));

    let o = service
        .start(RouterRequest::new("hello").with_agent("no-such-agent"))
        .unwrap()
        .wait()
        .await;
    print_run("unknown agent", &o);
    assert_eq!(o.status, RunStatus::Failed);
    assert_eq!(o.exit_code, Some(1));
    // The CLI says "Unknown agent id"; through a running gateway it is "unknown agent id".
    assert!(
        o.content
            .to_lowercase()
            .contains("unknown agent id \"no-such-agent\""),
        "{}",
        o.content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI and gateway: cargo test --test router_real -- --ignored"]
async fn real_gateway_streams_chat_completions_and_invokes_tools() {
    let env = real_env();
    let (url, token) =
        gateway().expect("OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN must be set");
    let service = RouterService::with_env(settings(), env);
    let mut events = service.subscribe();
    let request = RouterRequest {
        transport: Some(TransportKind::Http),
        ..RouterRequest::new("summarize recent logs").with_agent("ops")
    };
    let o = service.start(request).unwrap().wait().await;
    print_run("POST /v1/chat/completions model=openclaw/ops", &o);
    assert_eq!(o.status, RunStatus::Completed, "{}", o.content);
    assert!(!o.content.trim().is_empty());
    let mut chunks = 0;
    while let Ok(ev) = events.try_recv() {
        if matches!(ev.kind, RouterEventKind::Chunk { .. }) {
            chunks += 1;
        }
    }
    eprintln!("SSE chunks: {chunks}");
    assert!(chunks >= 1);

    let client = gateway_client(&service).expect("gateway from env");
    let r = client
        .invoke("sessions_list", &json!({}), Some("ops"))
        .await
        .expect("sessions_list through /tools/invoke");
    eprintln!("--- /tools/invoke sessions_list\n{}\n---", r.joined_text());
    match client
        .invoke("exec", &json!({"command": "id"}), Some("ops"))
        .await
    {
        Err(ToolError::Failed(m)) => {
            eprintln!("--- /tools/invoke exec\n{m}\n---");
            assert!(m.contains("HTTP 404"), "{m}");
        }
        other => panic!("exec must be refused over HTTP: {other:?}"),
    }
    let wrong =
        ToolsInvokeClient::new(url, Some(format!("{token}-wrong")), Duration::from_secs(10));
    assert!(matches!(
        wrong.invoke("sessions_list", &json!({}), None).await,
        Err(ToolError::Unauthorized(_))
    ));
}
