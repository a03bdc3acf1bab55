//! The console against the real OpenClaw gateway of ../shared/realclaw (`.ci/run` starts it and
//! runs this module with `cargo test --lib -- --ignored tui::tests::real_gateway`):
//! - the Policy view: a real session is made with one agent turn through the gateway, picked in
//!   the Policy view (`s`), and the view's verdict column must show 0 disagreements between
//!   clawdeck's answer (the gateway's own config) and the session's `tools.effective`;
//! - the Sessions view: a `CALL exec {"command":"echo x"}` run in the selected session appears
//!   in its detail pane as an exec call with output `x`.
//!
//! They need OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN (and REALCLAW_HOME for the Policy
//! view); without them each prints that it was skipped. The roster feed's own test (no console
//! types) is tests/gateway_sessions_real.rs.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::harness::{Harness, screen};
use crate::event::{AppEvent, CoreEvent};
use crate::gateway::endpoint::{host_of, websocket_url};
use crate::gateway::feed::{RosterSink, spawn_roster_feed};
use crate::gateway::transcript::{ToolOutcome, TranscriptEntry};
use crate::gateway::{
    Backoff, ClientEvent, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient,
    GatewayEndpoint,
};
use crate::views::ViewId;
use crate::views::policy_verdicts::CompareState;
use crate::views::sessions::SessionsView;

/// These tests run one at a time: the Policy view's test points XDG_STATE_HOME at a temp dir
/// (the deck's device identity goes there, not into the operator's state dir), and the
/// environment must not change while another thread of this module reads it. Each takes the
/// lock before it builds its runtime.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The shared gateway's URL and token, when `.ci/run` (or the operator) exported them.
fn shared_gateway() -> Option<(String, String)> {
    Some((
        std::env::var("OPENCLAW_GATEWAY_URL")
            .ok()
            .filter(|u| !u.is_empty())?,
        std::env::var("OPENCLAW_GATEWAY_TOKEN")
            .ok()
            .filter(|t| !t.is_empty())?,
    ))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The shared gateway as the feed attaches to it.
fn real_endpoint(url: &str, token: &str) -> GatewayEndpoint {
    GatewayEndpoint {
        name: "real".into(),
        url: websocket_url(url).unwrap(),
        auth: GatewayAuth::Token(token.to_string()),
        origin: "test".into(),
    }
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
    let _alone = one_at_a_time();
    let (Ok(url), Ok(token), Ok(home)) = (
        std::env::var("OPENCLAW_GATEWAY_URL"),
        std::env::var("OPENCLAW_GATEWAY_TOKEN"),
        std::env::var("REALCLAW_HOME"),
    ) else {
        eprintln!(
            "real_gateway (Policy view): SKIPPED (no real OpenClaw gateway): set OPENCLAW_GATEWAY_URL, \
             OPENCLAW_GATEWAY_TOKEN and REALCLAW_HOME (../shared/realclaw/start.sh --gateway prints them)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    // SAFETY: set before this test's runtime starts, while the other test of this module waits
    // for the lock; `.ci/run` runs this module alone (filtered to tui::tests::real_gateway).
    unsafe { std::env::set_var("XDG_STATE_HOME", state.path()) };
    runtime().block_on(async move {
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
        let deck = crate::deck::Deck::load(Some(&config), &Default::default()).unwrap();
        let Harness {
            mut app, mut rx, ..
        } = Harness::new();
        app.sessions = SessionsView::attaching(std::slice::from_ref(&gateway));
        app.handle_event(AppEvent::Core(CoreEvent::Gateway {
            gateway: gateway.clone(),
            event: ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: list,
            },
            permit: crate::deck::paced::Permit::none(),
        }));
        app.attach_deck(deck);
        app.handle_event(AppEvent::SwitchView(ViewId::Policy));
        // `s`, the session typed into the picker's filter, Enter.
        let key = |app: &mut crate::app::App, code| {
            app.handle_event(AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        };
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
        let rules = &app.registry().unwrap().semantics.gateway_effective;
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

/// The Sessions view, fed by the roster feed, drawn as the console draws it.
fn draw(view: &mut SessionsView, w: u16, h: u16) -> String {
    super::harness::draw_sessions_view(view, w, h)
}

async fn wait_view(
    view: &Mutex<SessionsView>,
    what: &str,
    pred: impl Fn(&mut SessionsView) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if pred(&mut view.lock().unwrap()) {
            return;
        }
        if Instant::now() > deadline {
            let mut v = view.lock().unwrap();
            panic!("{what}:\n{}", draw(&mut v, 160, 40));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
#[ignore = "needs a running real OpenClaw gateway and its mock LLM: .ci/run runs it with --ignored"]
fn a_live_exec_call_shows_in_the_selected_sessions_detail_pane() {
    let _alone = one_at_a_time();
    runtime().block_on(live_exec_call_in_the_detail_pane());
}

async fn live_exec_call_in_the_detail_pane() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!(
            "real_gateway (Sessions view): skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let identity = DeviceIdentity::load_or_create(state.path()).unwrap();
    let endpoint = real_endpoint(&url, &token);
    let view = Arc::new(Mutex::new(SessionsView::attaching(&["real".into()])));
    let fed = view.clone();
    let sink: RosterSink = Arc::new(move |gateway, event| {
        fed.lock().unwrap().apply(&gateway, &event);
        true
    });
    let stop = CancellationToken::new();
    let follow = spawn_roster_feed(
        vec![endpoint.clone()],
        identity.clone(),
        Backoff::default(),
        sink,
        stop.clone(),
    );
    view.lock().unwrap().set_follow(follow.clone());
    let client = GatewayClient::connect(
        endpoint,
        identity,
        ConnectOptions::default(),
        Backoff::default(),
    )
    .await
    .unwrap();
    let session_id = format!("cdpane{}", std::process::id());
    let run = |message: &str, n: u32| {
        json!({
            "message": message,
            "agentId": "ops",
            "sessionId": session_id,
            "idempotencyKey": format!("clawdeck-pane-test-{session_id}-{n}"),
        })
    };
    // A first run creates the session; once the roster has it, it is selected.
    client
        .request("agent", run(r#"CALL exec {"command":"echo first"}"#, 1))
        .await
        .unwrap();
    let key = Arc::new(Mutex::new(String::new()));
    let found = key.clone();
    wait_view(&view, "the new session in the roster, idle", |v| {
        let row = v
            .roster
            .rows()
            .iter()
            .find(|(_, r)| r.key.ends_with(&session_id) && !r.running)
            .map(|(_, r)| r.key.clone());
        match row {
            Some(k) => {
                *found.lock().unwrap() = k;
                true
            }
            None => false,
        }
    })
    .await;
    let key = key.lock().unwrap().clone();
    assert!(view.lock().unwrap().select_session("real", &key));
    assert_eq!(follow.followed(), Some(("real".to_string(), key.clone())));
    // Give the feed a moment to subscribe before the run that must show.
    tokio::time::sleep(Duration::from_millis(500)).await;
    client
        .request("agent", run(r#"CALL exec {"command":"echo x"}"#, 2))
        .await
        .unwrap();
    wait_view(
        &view,
        "the exec call with output x in the detail pane",
        |v| {
            v.transcript().is_some_and(|t| {
                t.entries().any(|e| {
                    matches!(e, TranscriptEntry::Tool(c)
                    if c.name == "exec" && c.output.trim() == "x" && c.outcome == ToolOutcome::Ok)
                })
            })
        },
    )
    .await;
    let screen = draw(&mut view.lock().unwrap(), 160, 40);
    let call = screen
        .lines()
        .find(|l| l.contains("⚙ exec") && l.contains(r#"{"command":"echo x"}"#))
        .unwrap_or_else(|| panic!("no exec call line\n{screen}"));
    assert!(call.contains("✓ ok"), "{call}\n{screen}");
    assert!(screen.contains("▏ x"), "its output\n{screen}");
    assert!(screen.contains(&format!("{key} @ real")), "{screen}");
    client.close();
    stop.cancel();
}
