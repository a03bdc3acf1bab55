//! The Router view's new-run dialog: the task is typed at once (the message has the focus), and
//! the agent is picked from the config's agents, starting at the context's; typing never
//! changes the agent.

use crossterm::event::{KeyCode, KeyModifiers};

use super::harness::{Harness, fixture_config};
use crate::context::PolicyContext;
use crate::event::AppEvent;
use crate::views::ViewId;
use crate::views::router::RouterInput;

fn router() -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    h
}

/// The dialog's message and agent.
fn dialog(h: &Harness) -> (String, String) {
    match &h.app.router.input {
        Some(RouterInput::NewRun {
            message,
            agents,
            agent,
        }) => (message.text.clone(), agents[*agent].clone()),
        other => panic!("no new-run dialog: {other:?}"),
    }
}

#[test]
fn typing_the_task_right_away_fills_the_message_and_keeps_the_agent() {
    let mut h = router();
    h.key(KeyCode::Char('r'));
    h.type_text("summarise the logs");
    assert_eq!(
        dialog(&h),
        ("summarise the logs".to_string(), "main".to_string()),
        "the message has the focus; the agent is the context's"
    );
    let screen = h.screen_trimmed(120, 24);
    assert!(screen.contains("message: summarise the logs"), "{screen}");
    assert!(screen.contains("agent: ‹ main ›"), "{screen}");
    insta::assert_snapshot!("new_run_dialog_message_first", screen);
    h.key(KeyCode::Enter);
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::StartRun { agent: Some(a), message }] if a == "main" && message == "summarise the logs"),
        "{ev:?}"
    );
}

#[test]
fn the_agent_is_picked_from_the_configs_agents_with_the_arrows_or_tab() {
    let mut h = router();
    let agents = h.app.config().unwrap().agent_ids();
    assert_eq!(agents, ["main", "ops"], "the fixture's agents");
    h.key(KeyCode::Char('r'));
    h.key(KeyCode::Down);
    assert_eq!(dialog(&h).1, "ops");
    h.key(KeyCode::Down);
    assert_eq!(dialog(&h).1, "main", "the cycle wraps around");
    h.key(KeyCode::Up);
    assert_eq!(dialog(&h).1, "ops");
    h.key(KeyCode::Tab);
    assert_eq!(dialog(&h).1, "main");
    h.key(KeyCode::BackTab);
    assert_eq!(dialog(&h).1, "ops");
    // Letters, even an agent's name, only ever go into the message.
    h.type_text("main");
    assert_eq!(dialog(&h), ("main".to_string(), "ops".to_string()));
    h.key_mod(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("check the alerts");
    h.key(KeyCode::Enter);
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::StartRun { agent: Some(a), message }] if a == "ops" && message == "check the alerts"),
        "{ev:?}"
    );
}

#[test]
fn the_dialog_starts_at_the_contexts_agent_and_an_empty_message_is_refused() {
    let mut h = router();
    h.set_context(PolicyContext {
        agent: Some("ops".into()),
        ..PolicyContext::default()
    });
    h.key(KeyCode::Char('r'));
    assert_eq!(dialog(&h), (String::new(), "ops".to_string()));
    h.key(KeyCode::Enter);
    h.pump();
    assert!(h.app.router.input.is_some(), "still open");
    assert!(
        h.status().contains("the message is empty"),
        "{}",
        h.status()
    );
    h.key(KeyCode::Esc);
    assert!(h.app.router.input.is_none());
}
