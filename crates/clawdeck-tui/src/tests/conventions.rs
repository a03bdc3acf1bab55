//! One convention across the console: a key means one thing everywhere (the keymap's own test
//! holds the table to it), one mark for the selected row, a help overlay that never cuts its
//! text, the what-if agent key that changes something at the first press, and end-of-run notes
//! that name what each number is.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::style::Modifier;

use super::harness::{Harness, fixture_config};
use crate::event::{AppEvent, CoreEvent};
use crate::keymap::Action;
use crate::router::{RouterEvent, RouterEventKind, RunStatus};
use crate::views::ViewId;

fn with_config() -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h
}

/// Presses the key the keymap binds to `action`.
fn press(h: &mut Harness, action: Action) {
    let label = h.app.keymap.key_label(action);
    let c = label.chars().next().expect("a key");
    assert_eq!(label.chars().count(), 1, "a one-character key: {label}");
    h.key(KeyCode::Char(c));
}

#[test]
fn the_help_overlay_wraps_every_description_and_scrolls_to_the_last_key() {
    let mut h = with_config();
    h.key(KeyCode::Char('?'));
    let (w, hgt) = (80, 24);
    let flat = |s: &str| {
        s.replace('│', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&flat(&h.screen_trimmed(w, hgt)));
        seen.push(' ');
        h.key(KeyCode::PageDown);
    }
    // Every description is on screen whole, at some scroll position.
    for b in &h.app.keymap.bindings {
        assert!(
            seen.contains(b.description),
            "`{}` is cut or unreachable",
            b.description
        );
    }
    let first = h.screen_trimmed(w, hgt);
    assert!(first.contains("↑ ↓ PgUp PgDn scroll"), "{first}");
    assert!(
        first.contains("diff_reset"),
        "the last key is reached:\n{first}"
    );
    insta::assert_snapshot!("help_scrolled_to_the_end_80x24", first);
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('?'));
    let top = h.screen_trimmed(w, hgt);
    assert!(
        top.contains("A key means the same thing in every view"),
        "{top}"
    );
}

#[test]
fn the_what_if_agent_key_picks_another_agent_than_side_as_at_the_first_press() {
    let mut h = with_config();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Diff));
    h.pump();
    let a = h
        .app
        .policy
        .resolution
        .as_ref()
        .map(|r| r.resolved.agent.clone())
        .unwrap();
    press(&mut h, Action::DiffAgent);
    h.pump();
    let b = h.app.diff.what_if.agent.clone();
    assert!(
        b.is_some() && b.as_deref() != Some(a.as_str()),
        "a {a}, b {b:?}"
    );
    let screen = h.screen_trimmed(120, 30);
    assert!(
        screen.contains(&format!("b: agent {}", b.unwrap())),
        "{screen}"
    );
    // With two agents, the next press goes back to "as a" (no second pick of a's agent).
    press(&mut h, Action::DiffAgent);
    h.pump();
    assert_eq!(h.app.diff.what_if.agent, None);
}

#[test]
fn every_list_marks_its_selected_row_the_same_way() {
    let mut h = with_config();
    let started_at = h.wall();
    h.app.handle_event(AppEvent::Core(CoreEvent::Router(
        RouterEvent {
            run_id: 1,
            kind: RouterEventKind::Started {
                argv: Vec::new(),
                transport: crate::router::TransportKind::Cli,
                agent: Some("ops".into()),
                to: None,
                message: "m".into(),
                mode: crate::router::Mode::ReadOnly,
                timeout_seconds: 45,
                started_at,
                deadline: started_at + Duration::from_secs(45),
            },
        },
        crate::deck::paced::Permit::none(),
    )));
    h.app.approvals = crate::views::approvals::ApprovalsView::attaching(&["local".to_string()]);
    let pending = crate::gateway::watch::classify(
        "local",
        "exec.approval.requested",
        &serde_json::json!({"id": "a1", "request": {"command": "make deploy", "cwd": "/w",
                "agentId": "ops", "sessionKey": "agent:ops:main", "ask": "always"}}),
    );
    h.app.handle_event(AppEvent::Core(CoreEvent::Desk(
        crate::gateway::desk::DeskEvent::Item(pending),
    )));
    for view in [
        ViewId::Policy,
        ViewId::Router,
        ViewId::Invoke,
        ViewId::Approvals,
    ] {
        h.app.handle_event(AppEvent::SwitchView(view));
        h.pump();
        let terminal = h.draw(120, 30);
        let buf = terminal.backend().buffer();
        let marked: Vec<u16> = (0..buf.area.height)
            .filter(|&y| (0..buf.area.width).any(|x| buf[(x, y)].symbol() == "›"))
            .collect();
        assert_eq!(marked.len(), 1, "{view:?}: one row carries the mark");
        let y = marked[0];
        let x = (0..buf.area.width)
            .find(|&x| buf[(x, y)].symbol() == "›")
            .unwrap();
        assert!(
            buf[(x, y)].modifier.contains(Modifier::REVERSED)
                && buf[(x + 1, y)].modifier.contains(Modifier::REVERSED),
            "{view:?}: the marked row is reversed too"
        );
    }
}

#[test]
fn a_runs_end_note_names_what_each_number_is() {
    let mut h = with_config();
    let started_at = h.wall();
    let event = |kind| {
        AppEvent::Core(CoreEvent::Router(
            RouterEvent { run_id: 7, kind },
            crate::deck::paced::Permit::none(),
        ))
    };
    h.app.handle_event(event(RouterEventKind::Started {
        argv: Vec::new(),
        transport: crate::router::TransportKind::Cli,
        agent: Some("ops".into()),
        to: None,
        message: "m".into(),
        mode: crate::router::Mode::ReadOnly,
        timeout_seconds: 45,
        started_at,
        deadline: started_at + Duration::from_secs(45),
    }));
    h.app.handle_event(event(RouterEventKind::Chunk {
        stream: crate::router::StdStream::Stdout,
        at: started_at,
        elapsed: Duration::ZERO,
        bytes: b"one\ntwo\nthree\n".to_vec(),
    }));
    let outcome = crate::router::RouterOutcome {
        run_id: 7,
        status: RunStatus::Completed,
        transport: crate::router::TransportKind::Cli,
        agent: Some("ops".into()),
        to: None,
        mode: crate::router::Mode::ReadOnly,
        exit_code: Some(0),
        signal: None,
        raw: String::new(),
        content: String::new(),
        notes: Vec::new(),
        timeout_seconds: 45,
        duration: Duration::from_millis(8_700),
        clean: None,
        operator_note: None,
    };
    h.app.handle_event(event(RouterEventKind::Finished {
        outcome: Box::new(outcome),
    }));
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen_trimmed(120, 24);
    assert!(
        screen.contains("run ✓ completed in 8.7s · exit code 0 · 3 lines of output"),
        "{screen}"
    );
    assert!(!screen.contains("completed, 0 after"), "{screen}");
}
