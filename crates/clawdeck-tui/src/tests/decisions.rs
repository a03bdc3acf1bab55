//! The console's Decisions view: it shows the decision log the pipeline writes (newest first,
//! the selected call's context, rule, hooks and arguments hash), picks up records appended
//! later, and says so when a line is not a record.

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::harness::{Harness, screen};
use crate::app::App;
use crate::context::PolicyContext;
use crate::decision_log::{CallFacts, DecisionLog, DecisionLogSettings, DecisionRecord};
use crate::event::AppEvent;
use crate::pipeline::CallOutcome;
use crate::stages::hooks::HookStep;
use crate::tool::ToolResult;
use crate::views::ViewId;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;
use tokio::sync::mpsc::UnboundedReceiver;

fn app() -> (App, UnboundedReceiver<AppEvent>) {
    let h = Harness::new();
    (h.app, h.rx)
}

/// A record as the pipeline makes it, with a fixed id and time so the screen is stable.
fn record(n: u64, client: &str, tool: &str, outcome: &CallOutcome) -> DecisionRecord {
    let ctx = PolicyContext {
        agent: Some("ops".to_string()),
        channel: Some("telegram".to_string()),
        ..PolicyContext::default()
    };
    let params = json!({"n": n});
    let facts = CallFacts {
        client: Some(client),
        context: &ctx,
        requested_tool: tool,
        params: &params,
        started_at: SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_563_600 + n),
        duration: Duration::from_millis(7 * n),
    };
    let mut rec = DecisionRecord::from_call(&facts, outcome);
    rec.id = format!("d{n}");
    rec
}

fn write_log(dir: &Path) -> DecisionLog {
    let log = DecisionLog::open(dir, DecisionLogSettings::default());
    let ran = CallOutcome::Completed {
        tool: "exec".to_string(),
        result: ToolResult::text("ok", json!({"status": "completed"})),
        is_error: false,
        hooks: vec![HookStep::Passed {
            hook: "audit".to_string(),
            changed: vec![],
        }],
        lane: "main".to_string(),
        duration: Duration::from_millis(5),
    };
    let blocked = CallOutcome::Blocked {
        tool: "write".to_string(),
        reason: "writes are frozen".to_string(),
        hooks: vec![HookStep::Blocked {
            hook: "freeze".to_string(),
            reason: "writes are frozen".to_string(),
        }],
    };
    log.try_append(&record(1, "invoke", "bash", &ran)).unwrap();
    log.try_append(&record(2, "claude-code", "write", &blocked))
        .unwrap();
    log
}

#[test]
fn decisions_view_shows_the_log_newest_first_and_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_log(dir.path());
    let (mut app, mut rx) = app();
    app.follow_decisions(dir.path());
    app.handle_event(AppEvent::Key(KeyEvent::new(
        KeyCode::Char('6'),
        KeyModifiers::NONE,
    )));
    // The key emits SwitchView; apply it as the loop would.
    let switch = rx.try_recv().unwrap();
    assert!(matches!(switch, AppEvent::SwitchView(ViewId::Decisions)));
    app.handle_event(switch);
    assert_eq!(app.view, ViewId::Decisions);
    assert_eq!(app.decisions.records.len(), 2);
    // Newest first: the blocked call is selected and detailed.
    assert_eq!(app.decisions.records[0].tool.canonical, "write");
    let mut shot = screen(&mut app, 110, 22);
    shot = shot.replace(&dir.path().display().to_string(), "<dir>");
    assert!(shot.contains("claude-code") && shot.contains("blocked"));
    assert!(shot.contains("bash→exec") && shot.contains("allowed"));
    assert!(
        !shot.contains("shown"),
        "the log's word is not the console's: {shot}"
    );
    assert!(shot.contains("freeze blocked"));
    assert!(
        shot.contains("context agent ops · channel telegram"),
        "the context the call ran in: {shot}"
    );
    insta::assert_snapshot!("decisions_view_normal", shot);

    // A record appended by another process shows at the next tick, on top.
    let cancelled = CallOutcome::Cancelled {
        tool: "read".to_string(),
        killed_by_operator: false,
    };
    log.try_append(&record(3, "console", "read", &cancelled))
        .unwrap();
    app.handle_event(AppEvent::Tick);
    assert_eq!(app.decisions.records.len(), 3);
    assert_eq!(app.decisions.records[0].tool.canonical, "read");
    // Moving down selects the older call.
    app.handle_event(AppEvent::Key(KeyEvent::new(
        KeyCode::Down,
        KeyModifiers::NONE,
    )));
    assert_eq!(
        app.decisions.selected_record().unwrap().tool.canonical,
        "write"
    );
}

#[test]
fn decisions_view_empty_bad_line_and_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _rx) = app();
    app.follow_decisions(dir.path());
    app.view = ViewId::Decisions;
    let shot = screen(&mut app, 110, 14).replace(&dir.path().display().to_string(), "<dir>");
    assert!(shot.contains("no calls recorded yet"));
    insta::assert_snapshot!("decisions_view_empty", shot);

    std::fs::write(dir.path().join("decisions.jsonl"), "not a record\n").unwrap();
    app.handle_event(AppEvent::Tick);
    assert_eq!(app.decisions.bad_lines, 1);
    let shot = screen(&mut app, 110, 14);
    assert!(shot.contains("1 bad line skipped"));
    assert!(shot.contains("decisions.jsonl:1: not a decision record"));

    let mut off = crate::views::decisions::DecisionsView::unavailable(
        "the decision log is off: neither XDG_STATE_HOME nor HOME is set",
    );
    std::mem::swap(&mut app.decisions, &mut off);
    let shot = screen(&mut app, 110, 10);
    assert!(shot.contains("the decision log is off"));
}
