//! clawbot_router against the real OpenClaw CLI and gateway. Runs only when OPENCLAW_BIN is set
//! (and, for the HTTP and /tools/invoke parts, OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN);
//! otherwise each test prints that it was skipped. ../shared/realclaw/start.sh --gateway starts a
//! gateway and a mock LLM and prints the exports.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use clawdeck::config::settings::RouterSettings;
use clawdeck::router::service::EnvLookup;
use clawdeck::router::{
    GatewayClient, RouterEventKind, RouterRequest, RouterService, RunStatus, TransportKind,
    gateway_client,
};
use clawdeck::tool::ToolError;
use serde_json::json;

fn real_env() -> Option<EnvLookup> {
    std::env::var("OPENCLAW_BIN")
        .ok()
        .filter(|b| !b.is_empty())?;
    Some(Arc::new(|k: &str| std::env::var(k).ok()))
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

fn print_run(label: &str, o: &clawdeck::router::RouterOutcome) {
    eprintln!(
        "--- {label}: status {:?}, exit {:?}, {} ms\n{}\n---",
        o.status,
        o.exit_code,
        o.duration.as_millis(),
        o.content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_cli_answers_and_reports_unknown_agents() {
    let Some(env) = real_env() else {
        eprintln!("router_real: skipped (OPENCLAW_BIN not set; see ../shared/realclaw/README.md)");
        return;
    };
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
    assert!(argv[4].starts_with("--message=[clawbot_router mode=read-only]"));

    let o = service
        .start(RouterRequest::new("hello").with_agent("no-such-agent"))
        .unwrap()
        .wait()
        .await;
    print_run("unknown agent", &o);
    assert_eq!(o.status, RunStatus::Failed);
    assert_eq!(o.exit_code, Some(1));
    assert!(
        o.content.contains("Unknown agent id \"no-such-agent\""),
        "{}",
        o.content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_gateway_streams_chat_completions_and_invokes_tools() {
    let (Some(env), Some((url, token))) = (real_env(), gateway()) else {
        eprintln!(
            "router_real: skipped (OPENCLAW_BIN, OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN not all set)"
        );
        return;
    };
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
    let wrong = GatewayClient::new(url, Some(format!("{token}-wrong")), Duration::from_secs(10));
    assert!(matches!(
        wrong.invoke("sessions_list", &json!({}), None).await,
        Err(ToolError::Unauthorized(_))
    ));
}
