//! The Sessions view's feed against the real OpenClaw gateway of ../shared/realclaw: the roster
//! attaches, takes its snapshot, and follows a run started through the gateway live (the
//! session appears running, then idle). Needs OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN
//! (as `.ci/run` exports them); without them it prints that it was skipped. The second test
//! drives the console's Sessions view itself: a `CALL exec {"command":"echo x"}` run in the
//! selected session appears in its detail pane as an exec call with output `x`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clawdeck::gateway::feed::{RosterSink, spawn_roster_feed};
use clawdeck::gateway::roster::{Link, Roster};
use clawdeck::gateway::transcript::{ToolOutcome, TranscriptEntry};
use clawdeck::gateway::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient, GatewayEndpoint,
    endpoint::websocket_url,
};
use clawdeck::tui::clock::FixedClock;
use clawdeck::tui::event::AppEventSender;
use clawdeck::tui::keymap::Keymap;
use clawdeck::tui::views::ViewCtx;
use clawdeck::tui::views::sessions::SessionsView;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use tokio_util::sync::CancellationToken;

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

/// Waits until the roster satisfies `pred`, or panics with what it shows.
async fn wait_for(roster: &Mutex<Roster>, what: &str, pred: impl Fn(&Roster) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if pred(&roster.lock().unwrap()) {
            return;
        }
        if Instant::now() > deadline {
            panic!("{what}: roster is {:?}", roster.lock().unwrap());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway and its mock LLM: .ci/run runs it with --ignored"]
async fn the_roster_follows_a_run_live() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!(
            "gateway_sessions_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let identity = DeviceIdentity::load_or_create(state.path()).unwrap();
    let endpoint = real_endpoint(&url, &token);
    let roster = Arc::new(Mutex::new(Roster::default()));
    let fed = roster.clone();
    let sink: RosterSink = Arc::new(move |gateway, event| {
        fed.lock().unwrap().apply(&gateway, &event);
        true
    });
    let stop = CancellationToken::new();
    let _follow = spawn_roster_feed(
        vec![endpoint.clone()],
        identity.clone(),
        Backoff::default(),
        sink,
        stop.clone(),
    );
    wait_for(&roster, "connected", |r| {
        r.links()
            .any(|(g, l)| g == "real" && matches!(l, Link::Up { .. }))
    })
    .await;

    // A run in a fresh session: it appears in the roster while it runs, then ends idle.
    let session_id = format!("cdsess{}", std::process::id());
    let client = GatewayClient::connect(
        endpoint,
        identity,
        ConnectOptions::default(),
        Backoff::default(),
    )
    .await
    .unwrap();
    client
        .request(
            "agent",
            json!({
                "message": r#"CALL exec {"command":"sleep 1; echo roster"}"#,
                "agentId": "ops",
                "sessionId": session_id,
                "idempotencyKey": format!("clawdeck-roster-test-{session_id}"),
            }),
        )
        .await
        .unwrap();
    let mine = |r: &Roster, running: bool| {
        r.rows()
            .iter()
            .any(|(_, row)| row.key.ends_with(&session_id) && row.running == running)
    };
    wait_for(&roster, "the new session, running", |r| mine(r, true)).await;
    wait_for(&roster, "the new session, idle after its run", |r| {
        mine(r, false)
    })
    .await;
    let rows = roster.lock().unwrap().rows().len();
    assert!(rows >= 1);
    client.close();
    stop.cancel();
}

/// The Sessions view, fed by the roster feed, drawn as the console draws it.
fn draw(view: &mut SessionsView, w: u16, h: u16) -> String {
    let (tx, _rx) = AppEventSender::channel();
    let clock = FixedClock::at_epoch_2026();
    let keymap = Keymap::default();
    let ctx = ViewCtx {
        tx: &tx,
        clock: &clock,
        keymap: &keymap,
    };
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| view.render(f.area(), f.buffer_mut(), &ctx))
        .unwrap();
    let buf = terminal.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway and its mock LLM: .ci/run runs it with --ignored"]
async fn a_live_exec_call_shows_in_the_selected_sessions_detail_pane() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!(
            "gateway_sessions_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)"
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
