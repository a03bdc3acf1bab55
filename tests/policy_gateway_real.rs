//! The console's Policy view against the real OpenClaw gateway of ../shared/realclaw: a real
//! session is made with one agent turn through the gateway, picked in the Policy view (`s`),
//! and the view's verdict column must show 0 disagreements between clawdeck's answer (the
//! gateway's own config) and the session's `tools.effective`. Needs OPENCLAW_GATEWAY_URL,
//! OPENCLAW_GATEWAY_TOKEN and REALCLAW_HOME (`.ci/run` exports them); otherwise it prints that
//! it was skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck::gateway::endpoint::{host_of, websocket_url};
use clawdeck::gateway::{
    Backoff, ClientEvent, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient,
    GatewayEndpoint,
};
use clawdeck::tui::app::App;
use clawdeck::tui::clock::FixedClock;
use clawdeck::tui::event::{AppEvent, AppEventSender, CoreEvent};
use clawdeck::tui::frame::FrameRequester;
use clawdeck::tui::views::ViewId;
use clawdeck::tui::views::policy_verdicts::CompareState;
use clawdeck::tui::views::sessions::SessionsView;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

fn key(app: &mut App, code: KeyCode) {
    app.handle_event(AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    clawdeck::tui::app::draw(app, &mut terminal, false).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The key of the session whose `sessionId` (or key) names `session_id`, once listed.
async fn wait_for_session(client: &GatewayClient, session_id: &str) -> (String, Value) {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let list = client.request("sessions.list", json!({})).await.unwrap();
        let found = list["sessions"].as_array().and_then(|rows| {
            rows.iter().find(|r| {
                r["sessionId"] == session_id
                    || r["key"].as_str().is_some_and(|k| k.ends_with(session_id))
            })
        });
        if let Some(row) = found {
            return (row["key"].as_str().unwrap().to_string(), list.clone());
        }
        assert!(
            Instant::now() < deadline,
            "no session {session_id} in sessions.list: {list}"
        );
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

#[test]
#[ignore = "needs a running real OpenClaw gateway: .ci/run runs it with --ignored"]
fn the_policy_view_shows_no_disagreement_for_a_real_gateway_session() {
    let (Ok(url), Ok(token), Ok(home)) = (
        std::env::var("OPENCLAW_GATEWAY_URL"),
        std::env::var("OPENCLAW_GATEWAY_TOKEN"),
        std::env::var("REALCLAW_HOME"),
    ) else {
        eprintln!(
            "policy_gateway_real: SKIPPED (no real OpenClaw gateway): set OPENCLAW_GATEWAY_URL, \
             OPENCLAW_GATEWAY_TOKEN and REALCLAW_HOME (../shared/realclaw/start.sh --gateway prints them)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    // SAFETY: set before the runtime (and any other thread of this test binary) starts; this
    // binary has this one test.
    unsafe { std::env::set_var("XDG_STATE_HOME", state.path()) };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let ws = websocket_url(&url).unwrap();
        let gateway = host_of(&ws);
        let identity = DeviceIdentity::load_or_create(&state.path().join("clawdeck")).unwrap();
        let client = GatewayClient::connect(
            GatewayEndpoint {
                name: gateway.clone(),
                url: ws.clone(),
                auth: GatewayAuth::Token(token.clone()),
                origin: "test".into(),
            },
            identity,
            ConnectOptions::default(),
            Backoff::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("connect {url}: {e}"));
        // One turn through the gateway makes the session exist.
        let session_id = format!("cdpolicy{}", std::process::id());
        client
            .request(
                "agent",
                json!({
                    "message": "hi",
                    "agentId": "ops",
                    "sessionId": session_id,
                    "idempotencyKey": format!("clawdeck-policy-{session_id}"),
                }),
            )
            .await
            .unwrap_or_else(|e| panic!("agent: {e}"));
        let (session_key, list) = wait_for_session(&client, &session_id).await;
        client.close();
        eprintln!("session {session_key}");

        // The console over a deck reading the gateway's own config.
        let config = PathBuf::from(&home).join(".openclaw/openclaw.json");
        let deck = clawdeck::deck::Deck::load(Some(&config)).unwrap();
        let (tx, mut rx) = AppEventSender::channel();
        let mut app = App::new(
            tx,
            FrameRequester::test_dummy(),
            Arc::new(FixedClock::at_epoch_2026()),
        );
        app.sessions = SessionsView::attaching(std::slice::from_ref(&gateway));
        app.handle_event(AppEvent::Core(CoreEvent::Gateway {
            gateway: gateway.clone(),
            event: ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: list,
            },
            permit: clawdeck::deck::paced::Permit::none(),
        }));
        app.attach_deck(deck);
        app.handle_event(AppEvent::SwitchView(ViewId::Policy));
        // `s`, the session typed into the picker's filter, Enter.
        key(&mut app, KeyCode::Char('s'));
        for c in session_key.chars() {
            key(&mut app, KeyCode::Char(c));
        }
        key(&mut app, KeyCode::Enter);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        loop {
            let asking = app
                .policy
                .session
                .as_ref()
                .is_some_and(|s| s.state == CompareState::Asking);
            if !asking && app.policy.session.is_some() {
                break;
            }
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(AppEvent::Draw)) => {}
                Ok(Some(event)) => app.handle_event(event),
                Ok(None) | Err(_) => panic!("no answer from the gateway comparison"),
            }
        }
        let compare = app.policy.session.clone().unwrap();
        let check = match &compare.state {
            CompareState::Ready(check) => check.clone(),
            other => panic!("the comparison failed: {other:?}"),
        };
        assert_eq!(compare.session_key, session_key);
        assert_eq!(
            app.context.agent.as_deref(),
            Some("ops"),
            "the console took the session's context"
        );
        let text = screen(&mut app, 200, 50);
        eprintln!("{text}");
        let disagreements: Vec<String> = check
            .comparison
            .disagreements()
            .map(|v| format!("{} {:?}: {:?}", v.tool, v.agreement, v.clawdeck_rule))
            .collect();
        assert!(
            disagreements.is_empty(),
            "clawdeck disagrees with the gateway for {session_key}:\n{}",
            disagreements.join("\n")
        );
        assert!(check.comparison.agreeing() > 10, "{:?}", check.comparison);
        // What the surface explains is only what the pack records about tools.effective.
        let rules = &app.registry.as_ref().unwrap().semantics.gateway_effective;
        for v in check
            .comparison
            .verdicts
            .iter()
            .filter(|v| v.surface_note.is_some())
        {
            eprintln!(
                "listed differently by tools.effective: {} ({:?})",
                v.tool, v.agreement
            );
            assert!(
                rules.also_lists.contains_key(&v.tool) || rules.never_lists.contains_key(&v.tool),
                "{v:?}"
            );
        }
        assert!(text.contains("0 policy disagreements"), "{text}");
        assert!(text.contains(&format!("session {session_key}")), "{text}");
        assert!(text.contains("compared as agent ops"), "{text}");
        assert!(text.contains("✓ agree"), "{text}");
        assert!(
            !text.contains("clawdeck-only") && !text.contains("openclaw-only"),
            "{text}"
        );
        app.shutdown(&mut rx).await;
    });
}
