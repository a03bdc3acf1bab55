//! The Queue view's gateway runs: `]` puts the cursor on them, and the kill key aborts the
//! selected running session through `sessions.abort`, after asking (a queued one says why not).

use crossterm::event::KeyCode;

use super::harness::{Harness, fixture_config};
use crate::app::Overlay;
use crate::event::AppEvent;
use crate::queue::QueueSnapshot;
use crate::views::ViewId;
use crate::views::gateway_runs::{GatewayRun, GatewayRuns};
use crate::views::queue::QueueFocus;

fn with_runs() -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h.app.queue.set_snapshot(QueueSnapshot {
        draining: false,
        lanes: Vec::new(),
        active: Vec::new(),
        recent: Vec::new(),
    });
    let run = |key: &str, running: bool| GatewayRun {
        gateway: "local".into(),
        agent: "ops".into(),
        key: key.into(),
        running,
        started_ms: None,
        run_ids: Vec::new(),
    };
    h.app.queue.gateway_runs = GatewayRuns {
        gateways: 1,
        stale: Vec::new(),
        runs: vec![
            run("agent:ops:explicit:slow", true),
            run("agent:ops:lane", false),
        ],
    };
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    h
}

#[test]
fn the_kill_key_on_a_gateway_run_asks_then_aborts_its_session() {
    let mut h = with_runs();
    // On the lanes the kill key does not reach the gateway runs.
    h.key(KeyCode::Char('x'));
    assert!(h.app.overlay.is_none());
    h.app.status = None;
    h.key(KeyCode::Char(']'));
    assert_eq!(h.app.queue.focus, QueueFocus::GatewayRuns);
    let screen = h.screen(110, 24);
    insta::assert_snapshot!("queue_gateway_runs_selected", screen);
    let selected = screen
        .lines()
        .find(|l| l.contains("agent:ops:explicit:slow"))
        .unwrap();
    assert!(selected.contains('›'), "the cursor's row: {selected}");
    h.key(KeyCode::Char('x'));
    let asked = h.pump();
    assert!(
        asked.iter().all(|e| !e.starts_with("AbortSession")),
        "aborting asks first: {asked:?}"
    );
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c))
            if c.question.starts_with("Abort the running turn of agent:ops:explicit:slow on local (sessions.abort)?")),
        "the question names the session and the gateway"
    );
    h.key(KeyCode::Char('y'));
    let sent = h.emitted();
    assert!(
        sent.iter()
            .any(|e| matches!(e, AppEvent::AbortSession { gateway, key }
            if gateway == "local" && key == "agent:ops:explicit:slow")),
        "{sent:?}"
    );

    // A queued session has no turn to abort: the key says so.
    h.key(KeyCode::Down);
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(h.app.overlay.is_none());
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert_eq!(
        status,
        "agent:ops:lane on local is queued, not running: nothing to abort yet"
    );
    // `]` again goes back to the lanes (no background exec between).
    h.key(KeyCode::Char(']'));
    assert_eq!(h.app.queue.focus, QueueFocus::Lanes);
}

#[test]
fn with_nothing_beside_the_lanes_the_section_keys_say_so() {
    let mut h = with_runs();
    h.app.queue.gateway_runs = GatewayRuns::default();
    h.key(KeyCode::Char(']'));
    h.pump();
    assert_eq!(h.app.queue.focus, QueueFocus::Lanes);
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert_eq!(status, "no background exec session and no gateway run");
}
