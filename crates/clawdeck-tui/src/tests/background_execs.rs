//! The Queue view's local background exec sessions: listed with command, age (the console's
//! clock) and last output line, the selected one's output tail beside, the kill key asks and a
//! confirmed kill ends the session's process group through the deck.

use std::time::{Duration, SystemTime};

use crossterm::event::KeyCode;

use super::harness::{Harness, fixture_config};
use super::views::process_alive as alive;
use crate::app::Overlay;
use crate::deck::exec_sessions::ExecSessionView;
use crate::event::AppEvent;
use crate::queue::QueueSnapshot;
use crate::views::ViewId;

fn with_sessions(now: SystemTime) -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h.app.queue.set_snapshot(QueueSnapshot {
        draining: false,
        lanes: Vec::new(),
        active: Vec::new(),
        recent: Vec::new(),
    });
    h.app.queue.execs.set(vec![
        ExecSessionView {
            id: "a1b2c3d4".into(),
            command: "npm run dev -- --port 5173".into(),
            pid: 4242,
            started_at: now - Duration::from_secs(95),
            ended: None,
            tail: (1..=30).map(|n| format!("dev server line {n}")).collect(),
            earlier_lines: 170,
        },
        ExecSessionView {
            id: "e5f6a7b8".into(),
            command: "cargo build --release".into(),
            pid: 4343,
            started_at: now - Duration::from_secs(3700),
            ended: Some("exited with code 0".into()),
            tail: vec!["Finished release".into()],
            earlier_lines: 0,
        },
    ]);
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    h
}

#[test]
fn background_execs_are_listed_with_age_and_last_output_and_the_selected_ones_tail() {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    let mut h = with_sessions(now);
    let screen = h.screen(120, 30);
    assert!(
        screen.contains("Background execs · 1 running, 1 kept"),
        "{screen}"
    );
    // Age from the console's clock: 95 s and a little over an hour.
    assert!(
        screen.contains("a1b2c3d4  npm run dev -- --port"),
        "{screen}"
    );
    assert!(screen.contains("1m35s"), "{screen}");
    assert!(screen.contains("1h01m"), "{screen}");
    assert!(
        screen.contains("dev server line 30"),
        "last output: {screen}"
    );
    assert!(screen.contains("■ ended"), "{screen}");
    // The tail follows the end of the first session's output.
    assert!(screen.contains("output of a1b2c3d4"), "{screen}");
    insta::assert_snapshot!("queue_background_execs", screen);

    // `]` puts the cursor on the sessions; moving it shows the other session's tail.
    h.key(KeyCode::Char(']'));
    h.key(KeyCode::Down);
    let screen = h.screen(120, 30);
    assert!(screen.contains("output of e5f6a7b8"), "{screen}");
    assert!(screen.contains("[exited with code 0]"), "{screen}");
    insta::assert_snapshot!("queue_background_execs_tail", screen);
    // A finished session is not killed: the key says so.
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(h.app.overlay.is_none());
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert_eq!(status, "background exec e5f6a7b8 is not running");
}

#[test]
fn killing_a_background_exec_asks_first_and_names_it() {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    let mut h = with_sessions(now);
    // On the lanes the kill key does not reach the sessions.
    h.key(KeyCode::Char(']'));
    h.key(KeyCode::Char('x'));
    let asked = h.pump();
    assert!(
        asked.iter().all(|e| !e.starts_with("KillExecSession")),
        "killing asks first: {asked:?}"
    );
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c))
            if c.question.starts_with("Kill background exec a1b2c3d4 (npm run dev -- --port 5173)?")
                && c.question.contains("process group (pid 4242)")),
        "the question names the session"
    );
    insta::assert_snapshot!("queue_background_exec_kill_confirm", h.screen(120, 30));
    h.key(KeyCode::Char('n'));
    assert!(h.emitted().is_empty(), "no: nothing is killed");
    // `[` goes back to the lanes.
    h.key(KeyCode::Char('['));
    assert_eq!(h.app.queue.focus, crate::views::queue::QueueFocus::Lanes);
}

#[tokio::test]
async fn a_confirmed_kill_from_the_queue_ends_the_sessions_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json");
    std::fs::write(&config, r#"{ "agents": { "list": [ { "id": "ops" } ] } }"#).unwrap();
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        format!("{{ workspace: {:?} }}", dir.path().display().to_string()),
    )
    .unwrap();
    let deck = crate::deck::Deck::load(Some(&config), &Default::default()).unwrap();
    let mut h = Harness::new();
    h.app.attach_deck(deck.clone());
    h.app.status = None;
    let pidfile = dir.path().join("grandchild.pid");
    let request = crate::pipeline::CallRequest::new(
        "exec",
        serde_json::json!({
            "command": format!("sleep 300 & echo $! > {}; wait", pidfile.display()),
            "background": true,
        }),
        crate::context::PolicyContext {
            agent: Some("ops".into()),
            ..Default::default()
        },
    );
    deck.pipeline().call(request).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let grandchild: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(std::time::Instant::now() < deadline, "exec never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    h.app.refresh_queue();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    h.key(KeyCode::Char(']'));
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(matches!(&h.app.overlay, Some(Overlay::Confirm(_))), "asks");
    h.key(KeyCode::Char('y'));
    h.pump();
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.starts_with("kill sent to background exec"),
        "{status}"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while alive(grandchild) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(grandchild), "the session's process group survived");
    assert_eq!(h.app.live_exec_sessions(), 0);
}
