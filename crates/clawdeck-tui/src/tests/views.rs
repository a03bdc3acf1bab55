//! Console tests: snapshots of every view (normal, empty, error) drawn on a TestBackend with a
//! fixed clock, and interaction tests that feed keys and assert the emitted AppEvents and the
//! state changes.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::harness::{Harness, fixture, fixture_config};
use crate::app::{App, Overlay, RecordingClipboard};
use crate::clock::{Clock, FixedClock};
use crate::context::PolicyContext;
use crate::event::{AppEvent, AppEventSender, CoreEvent};
use crate::frame::FrameRequester;
use crate::pipeline::CallOutcome;
use crate::policy::LayerId;
use crate::queue::{EntryOutcome, EntrySnapshot, EntryState, LaneSnapshot, QueueSnapshot};
use crate::router::{
    Mode, RouterEvent, RouterEventKind, RouterOutcome, RunStatus, StdStream, TransportKind,
};
use crate::tool::ToolResult;
use crate::views::ViewId;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

fn harness() -> Harness {
    Harness::new()
}

fn with_config() -> Harness {
    let mut h = harness();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h
}

impl Harness {
    fn router_event(&mut self, run_id: u64, kind: RouterEventKind) {
        self.app.handle_event(AppEvent::Core(CoreEvent::Router(
            RouterEvent { run_id, kind },
            crate::deck::paced::Permit::none(),
        )));
    }

    fn start_run(&mut self, run_id: u64, agent: &str, message: &str, age: Duration) {
        let started_at = self.wall() - age;
        self.router_event(
            run_id,
            RouterEventKind::Started {
                argv: vec!["openclaw".into(), "agent".into()],
                transport: TransportKind::Cli,
                agent: Some(agent.into()),
                to: None,
                message: message.into(),
                mode: Mode::ReadOnly,
                timeout_seconds: 45,
                started_at,
                deadline: started_at + Duration::from_secs(45),
            },
        );
    }

    fn chunk(&mut self, run_id: u64, stream: StdStream, bytes: &[u8]) {
        let at = self.wall();
        self.router_event(
            run_id,
            RouterEventKind::Chunk {
                stream,
                at,
                elapsed: Duration::ZERO,
                bytes: bytes.to_vec(),
            },
        );
    }

    fn finish_run(
        &mut self,
        run_id: u64,
        status: RunStatus,
        exit_code: Option<i32>,
        signal: Option<&str>,
        secs: u64,
    ) {
        self.finish_run_with_content(run_id, status, exit_code, signal, secs, "", "");
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_run_with_content(
        &mut self,
        run_id: u64,
        status: RunStatus,
        exit_code: Option<i32>,
        signal: Option<&str>,
        secs: u64,
        raw: &str,
        content: &str,
    ) {
        let outcome = RouterOutcome {
            run_id,
            status,
            transport: TransportKind::Cli,
            agent: Some("ops".into()),
            to: None,
            mode: Mode::ReadOnly,
            exit_code,
            signal: signal.map(str::to_string),
            raw: raw.to_string(),
            content: content.to_string(),
            notes: Vec::new(),
            timeout_seconds: 45,
            duration: Duration::from_secs(secs),
            clean: None,
            operator_note: None,
        };
        self.router_event(
            run_id,
            RouterEventKind::Finished {
                outcome: Box::new(outcome),
            },
        );
    }
}

// ---------------------------------------------------------------- policy view

#[test]
fn policy_view_on_a_narrow_terminal_keeps_tool_names_whole() {
    let mut h = with_config();
    let screen = h.screen(80, 24);
    for name in ["apply_patch", "process", "browser"] {
        assert!(screen.contains(name), "{name} cut: {screen}");
    }
    assert!(screen.contains("own prf ppf glb"), "{screen}");
    insta::assert_snapshot!("policy_narrow", screen);
}

#[test]
fn policy_view_normal() {
    let mut h = with_config();
    insta::assert_snapshot!("policy_normal", h.screen(150, 40));
}

#[test]
fn policy_view_hidden_only_with_detail_of_hidden_tool() {
    let mut h = with_config();
    h.key(KeyCode::Char('h'));
    h.key(KeyCode::Char('/'));
    h.type_text("ex");
    h.key(KeyCode::Enter);
    let rows: Vec<String> = h.app.policy.rows().iter().map(|t| t.name.clone()).collect();
    assert_eq!(rows, vec!["exec"]);
    let screen = h.screen(150, 40);
    assert!(
        screen.contains("denied by \"exec\" at agents.list[0].tools.deny[0]"),
        "{screen}"
    );
    insta::assert_snapshot!("policy_hidden_only_exec", screen);
}

#[test]
fn policy_view_empty_without_config() {
    let mut h = harness();
    insta::assert_snapshot!("policy_empty", h.screen(100, 14));
}

/// A context asked for the first time is resolved by the deck off the console's task: the
/// view keeps the last answer until the job's comes back, and an answer overtaken by a newer
/// ask is dropped. A context asked before is shown at once from the deck's kept answers.
#[tokio::test]
async fn a_new_context_is_resolved_off_the_console_task_and_the_newest_ask_wins() {
    let mut h = with_config();
    let agent = |h: &Harness| {
        h.app
            .policy
            .resolution
            .as_ref()
            .map(|r| r.resolved.agent.clone())
    };
    assert_eq!(agent(&h).as_deref(), Some("main"));
    let ops = PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    };
    h.app.handle_event(AppEvent::SetContext(ops.clone()));
    assert_eq!(
        agent(&h).as_deref(),
        Some("main"),
        "not resolved on this task"
    );
    let first = tokio::time::timeout(Duration::from_secs(10), h.rx.recv())
        .await
        .expect("the resolution in time")
        .expect("an event");
    assert!(
        matches!(&first, AppEvent::Core(CoreEvent::Resolved { .. })),
        "{first:?}"
    );
    // Another ask before the first answer is handled: the first answer is out of date.
    h.app
        .handle_event(AppEvent::SetContext(PolicyContext::default()));
    h.app.handle_event(first);
    assert_eq!(
        agent(&h).as_deref(),
        Some("main"),
        "the overtaken answer is dropped"
    );
    // `ops` again: kept by the deck, so shown at once.
    h.app.handle_event(AppEvent::SetContext(ops));
    assert_eq!(agent(&h).as_deref(), Some("ops"));
}

#[test]
fn policy_view_error_keeps_last_good_result() {
    let mut h = with_config();
    h.set_context(PolicyContext {
        agent: Some("ghost".into()),
        ..Default::default()
    });
    assert!(
        h.app
            .policy
            .error
            .as_deref()
            .is_some_and(|e| e.contains("unknown agent \"ghost\""))
    );
    assert!(
        h.app.policy.resolution.is_some(),
        "the last good result stays"
    );
    h.app.config_error = Some("openclaw.json5:3:7: expected `,` or `}` (at tools)".into());
    insta::assert_snapshot!("policy_error", h.screen(150, 20));
}

#[test]
fn context_change_recomputes_at_once() {
    let mut h = with_config();
    let exec_visible = |h: &Harness| {
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("exec"))
            .map(|t| t.visible)
    };
    assert_eq!(exec_visible(&h), Some(false));
    // Open the context editor, pick agent `ops` from the picker filled from the config.
    h.key(KeyCode::Char('c'));
    assert!(matches!(h.app.overlay, Some(Overlay::Context(_))));
    h.key(KeyCode::Enter);
    h.type_text("ops");
    h.key(KeyCode::Enter);
    let events = h.pump();
    assert!(
        events
            .iter()
            .any(|e| e.contains("SetContext") && e.contains("agent: Some(\"ops\")")),
        "{events:?}"
    );
    assert_eq!(h.app.context.agent.as_deref(), Some("ops"));
    assert_eq!(exec_visible(&h), Some(true));
    assert!(
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("process"))
            .is_some_and(|t| !t.visible)
    );
    insta::assert_snapshot!("context_editor", h.screen(120, 24));
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
}

#[test]
fn config_file_watch_reload_and_broken_save() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("openclaw.json5");
    std::fs::copy(fixture("openclaw.json5"), &path).expect("copy");
    let mut h = harness();
    h.on_config_file(&path);
    assert_eq!(
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("exec"))
            .map(|t| t.visible),
        Some(false)
    );
    // A good save: exec no longer denied.
    let text = std::fs::read_to_string(&path)
        .expect("read")
        .replace("deny: [\"exec\"]", "deny: []");
    std::fs::write(&path, text).expect("write");
    h.reload_config();
    assert_eq!(
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("exec"))
            .map(|t| t.visible),
        Some(true)
    );
    assert!(h.app.config_error.is_none());
    // A broken save: error shown, last good state kept.
    std::fs::write(&path, "{ tools: { deny: [ }").expect("write");
    h.reload_config();
    let err = h.app.config_error.clone().expect("error shown");
    assert!(err.contains("openclaw.json5"), "{err}");
    assert_eq!(
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("exec"))
            .map(|t| t.visible),
        Some(true)
    );
    h.app.status = None;
    assert!(h.screen(150, 30).contains("✗ config: "));
}

#[tokio::test]
async fn config_watcher_sends_an_event_when_the_file_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, "{}").expect("write");
    let (tx, mut rx) = AppEventSender::channel();
    crate::runtime::watch_config(vec![path.clone()], tx);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(rx.try_recv().is_err(), "no change, no event");
    std::fs::write(&path, "{ tools: {} }").expect("write");
    let ev = tokio::time::timeout(Duration::from_secs(3), rx.recv())
        .await
        .expect("event in time");
    assert!(matches!(
        ev,
        Some(AppEvent::Core(CoreEvent::ConfigFileChanged))
    ));
}

// ---------------------------------------------------------------- queue view

fn queue_snapshot() -> QueueSnapshot {
    let lane = |name: &str, limit, running, queued, wait: Option<u64>| LaneSnapshot {
        lane: Arc::from(name),
        limit,
        running,
        queued,
        oldest_wait: wait.map(Duration::from_millis),
    };
    let entry = |id, label: &str, state, waited: u64, running: Option<u64>, warned, outcome| {
        EntrySnapshot {
            id,
            lane: Arc::from("main"),
            label: Arc::from(label),
            state,
            waited: Duration::from_millis(waited),
            running_for: running.map(Duration::from_millis),
            warned,
            outcome,
        }
    };
    QueueSnapshot {
        draining: false,
        lanes: vec![
            lane("cron", 1, 0, 0, None),
            lane("main", 2, 2, 2, Some(3400)),
            lane("subagent", 8, 0, 0, None),
        ],
        active: vec![
            entry(
                7,
                "exec: make test",
                EntryState::Running,
                12,
                Some(8200),
                false,
                None,
            ),
            entry(
                8,
                "read: notes.txt",
                EntryState::Running,
                40,
                Some(1100),
                false,
                None,
            ),
            entry(
                9,
                "web_fetch: docs",
                EntryState::Queued,
                3400,
                None,
                true,
                None,
            ),
            entry(
                10,
                "write: out.md",
                EntryState::Queued,
                900,
                None,
                false,
                None,
            ),
        ],
        recent: vec![
            entry(
                5,
                "edit: a.rs",
                EntryState::Finished,
                3,
                Some(20),
                false,
                Some(EntryOutcome::Ok),
            ),
            entry(
                6,
                "exec: false",
                EntryState::Finished,
                3,
                Some(15),
                false,
                Some(EntryOutcome::Error {
                    message: "exit 1".into(),
                }),
            ),
        ],
    }
}

#[test]
fn queue_view_normal_highlights_late_waits() {
    let mut h = with_config();
    h.app.queue.warn_after = Duration::from_millis(2000);
    h.app.queue.set_snapshot(queue_snapshot());
    h.app.queue.selected = 1;
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    let screen = h.screen(120, 30);
    assert!(screen.contains("⚠ waiting"), "{screen}");
    assert!(screen.contains("⚠ 3.4s"), "{screen}");
    insta::assert_snapshot!("queue_normal", screen);
}

#[test]
fn queue_view_empty() {
    let mut h = with_config();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    h.app.queue.set_snapshot(QueueSnapshot {
        draining: true,
        lanes: Vec::new(),
        active: Vec::new(),
        recent: Vec::new(),
    });
    insta::assert_snapshot!("queue_empty", h.screen(100, 16));
}

#[test]
fn queue_keys_change_limits_and_clear_with_confirmation() {
    let mut h = with_config();
    h.app.queue.set_snapshot(queue_snapshot());
    h.key(KeyCode::Char('2'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Queue);
    h.key(KeyCode::Down);
    h.key(KeyCode::Char('+'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::SetLaneLimit { lane, limit: 3 }] if lane == "main"),
        "{ev:?}"
    );
    h.key(KeyCode::Char('-'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::SetLaneLimit { lane, limit: 1 }] if lane == "main"),
        "{ev:?}"
    );
    h.key(KeyCode::Char('X'));
    let asked = h.pump();
    assert!(
        asked.iter().all(|e| !e.starts_with("ClearLane")),
        "clearing asks first: {asked:?}"
    );
    assert!(matches!(h.app.overlay, Some(Overlay::Confirm(_))));
    insta::assert_snapshot!("queue_clear_confirm", h.screen(100, 20));
    h.key(KeyCode::Char('n'));
    assert!(h.emitted().is_empty());
    h.key(KeyCode::Char('X'));
    h.pump();
    h.key(KeyCode::Char('y'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::ClearLane { lane }] if lane == "main"),
        "{ev:?}"
    );
}

#[tokio::test]
async fn queue_intents_reach_the_real_lane_queue() {
    let mut h = with_config();
    let queue = h.app.deck.queue().clone();
    queue.set_limit("main", 1);
    h.app.refresh_queue();
    // One running, two waiting.
    let gate = Arc::new(tokio::sync::Notify::new());
    for i in 0..3 {
        let (q, g) = (queue.clone(), gate.clone());
        tokio::spawn(async move {
            let cancel = tokio_util::sync::CancellationToken::new();
            let _ = q
                .run("main", &format!("task {i}"), &cancel, async move {
                    g.notified().await
                })
                .await;
        });
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    h.app.handle_event(AppEvent::SetLaneLimit {
        lane: "main".into(),
        limit: 2,
    });
    assert_eq!(queue.limit("main"), 2);
    tokio::time::sleep(Duration::from_millis(50)).await;
    h.app.handle_event(AppEvent::ClearLane {
        lane: "main".into(),
    });
    let snap = queue.snapshot();
    assert_eq!(
        snap.lane("main").map(|l| (l.running, l.queued)),
        Some((2, 0))
    );
    assert!(
        h.app
            .status
            .as_ref()
            .is_some_and(|(s, _)| s.contains("1 waiting entries rejected"))
    );
    gate.notify_waiters();
}

#[test]
fn queue_kill_asks_first_and_names_the_selected_call() {
    let mut h = with_config();
    h.app.queue.warn_after = Duration::from_millis(2000);
    h.app.queue.set_snapshot(queue_snapshot());
    h.key(KeyCode::Char('2'));
    h.pump();
    h.key(KeyCode::Down);
    // On the lanes the kill key says how to reach a call; nothing is asked or killed.
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(h.app.overlay.is_none());
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.contains("select a call to kill first: Enter moves the cursor"),
        "{status}"
    );
    // Enter: the cursor is on the lane's first entry, the running `exec: make test`.
    h.key(KeyCode::Enter);
    assert_eq!(h.app.queue.selected_entry().map(|e| e.id), Some(7));
    h.app.status = None;
    h.key(KeyCode::Char('x'));
    let asked = h.pump();
    assert!(
        asked.iter().all(|e| !e.starts_with("KillCall")),
        "killing asks first: {asked:?}"
    );
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c))
            if c.question.starts_with("Kill call #7 (exec: make test)?")
                && c.question.contains("an exec's process tree is killed")),
        "the question names the call"
    );
    let screen = h.screen(120, 30);
    assert!(
        screen.contains("Kill call #7 (exec: make test)?"),
        "{screen}"
    );
    insta::assert_snapshot!("queue_kill_confirm", screen);
    h.key(KeyCode::Char('n'));
    assert!(h.emitted().is_empty(), "no: nothing is killed");
    // A waiting call leaves the queue unrun; the question says so.
    h.key(KeyCode::Down);
    h.key(KeyCode::Down);
    assert_eq!(h.app.queue.selected_entry().map(|e| e.id), Some(9));
    h.key(KeyCode::Delete);
    h.pump();
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c))
            if c.question.starts_with("Kill call #9 (web_fetch: docs)?")
                && c.question.contains("leaves the queue without running")),
        "a waiting call"
    );
    h.key(KeyCode::Esc);
    assert!(h.emitted().is_empty(), "Esc: nothing is killed");
    // A finished call is not asked about.
    h.key(KeyCode::End);
    assert_eq!(h.app.queue.selected_entry().map(|e| e.id), Some(5));
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(h.app.overlay.is_none());
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(status.contains("call #5 is not running"), "{status}");
    // Yes sends the kill to the core.
    h.key(KeyCode::Home);
    h.key(KeyCode::Char('x'));
    h.pump();
    h.key(KeyCode::Char('y'));
    let ev = h.emitted();
    assert!(matches!(&ev[..], [AppEvent::KillCall { id: 7 }]), "{ev:?}");
    // Enter again: the cursor is back on the lanes.
    h.key(KeyCode::Enter);
    assert!(h.app.queue.selected_entry().is_none());
    h.key(KeyCode::Down);
    assert_eq!(h.app.queue.selected_lane().as_deref(), Some("subagent"));
}

/// Whether `pid` is a live process (a zombie has exited).
pub(super) fn process_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

/// Hands the deck's queue events that arrived to the App, as the console's forwarder does;
/// returns whether `Finished` of entry `id` was among them.
fn forward_queue_events(
    h: &mut Harness,
    events: &mut tokio::sync::broadcast::Receiver<crate::queue::QueueEvent>,
    id: u64,
) -> bool {
    let mut finished = false;
    while let Ok(ev) = events.try_recv() {
        if matches!(&ev, crate::queue::QueueEvent::Finished { id: done, .. } if *done == id) {
            finished = true;
        }
        h.app.handle_event(AppEvent::Core(CoreEvent::Queue(ev)));
    }
    finished
}

#[tokio::test]
async fn a_running_call_killed_from_the_queue_view_dies_with_its_tree_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = fixture_config();
    config.settings.workspace = Some(dir.path().to_path_buf());
    let deck = crate::deck::Deck::new(config, None, &Default::default());
    let mut h = harness();
    h.app.attach_deck(deck.clone());
    h.app.status = None;
    let mut events = deck.queue().subscribe();
    // Another program's call (an MCP client's), through the deck's pipeline.
    let mut request = crate::pipeline::CallRequest::new(
        "exec",
        json!({"command": "sleep 300 & echo $! > grandchild.pid; wait", "workdir": dir.path(), "yieldMs": 600_000}),
        PolicyContext {
            agent: Some("ops".into()),
            ..PolicyContext::default()
        },
    );
    request.client = Some("claude-code".into());
    let pipeline = deck.pipeline();
    let call = tokio::spawn(async move { pipeline.call(request).await });
    let pidfile = dir.path().join("grandchild.pid");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let grandchild: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the exec never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let id = deck.queue().snapshot().active[0].id;
    forward_queue_events(&mut h, &mut events, id);

    h.key(KeyCode::Char('2'));
    h.pump();
    // The deck's lanes are sorted (cron, main, ...): down to main, Enter onto its call.
    h.key(KeyCode::Down);
    assert_eq!(h.app.queue.selected_lane().as_deref(), Some("main"));
    h.key(KeyCode::Enter);
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c))
            if c.question.starts_with(&format!("Kill call #{id} (exec: sleep 300 & echo $! > grandchild.pid; wait · claude-code)?"))),
        "asks first, naming the call and its client"
    );
    h.key(KeyCode::Char('y'));
    let sent = h.pump();
    assert!(
        sent.iter()
            .any(|e| e == &format!("KillCall {{ id: {id} }}")),
        "{sent:?}"
    );
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.contains(&format!("kill sent to call #{id}")),
        "{status}"
    );

    let outcome = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("the killed call ends")
        .unwrap();
    assert_eq!(outcome.message(), "exec: killed by the operator");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while process_alive(grandchild) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!process_alive(grandchild), "the exec's grandchild survived");

    // The end comes back as queue events: the view shows who killed it.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !forward_queue_events(&mut h, &mut events, id) {
        assert!(std::time::Instant::now() < deadline, "no Finished event");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let screen = h.screen(120, 24);
    assert!(screen.contains("■ killed by the operator"), "{screen}");
    assert!(
        screen.contains("(running) kill requested by the operator"),
        "{screen}"
    );
    assert!(screen.contains("finished killed"), "{screen}");
    // Times are real here: mask them (and the padding after them) so the snapshot holds.
    let times = regex::Regex::new(r"\b\d+(\.\d+)?(ms|s)\b *").unwrap();
    insta::assert_snapshot!(
        "queue_call_killed",
        times.replace_all(&screen, "<t> ").into_owned()
    );
    deck.shutdown(Duration::from_secs(5)).await;
}

// ---------------------------------------------------------------- router view

fn router_with_runs() -> Harness {
    let mut h = with_config();
    h.start_run(
        1,
        "ops",
        "summarise yesterday's logs",
        Duration::from_secs(40),
    );
    h.chunk(1, StdStream::Stdout, b"done.\n");
    h.finish_run(1, RunStatus::Completed, Some(0), None, 12);
    h.start_run(2, "ops", "look at the alerts", Duration::from_secs(12));
    h.chunk(
        2,
        StdStream::Stdout,
        b"\x1b[32mconnected\x1b[0m to gateway\n",
    );
    h.chunk(
        2,
        StdStream::Stderr,
        b"warn: slow tool\n\x1b]0;evil title\x07",
    );
    h.chunk(
        2,
        StdStream::Stdout,
        b"step\t1\x1b[2J\nprogress 10%\rprogress 60%",
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    h
}

#[test]
fn router_view_normal() {
    let mut h = router_with_runs();
    let screen = h.screen(120, 26);
    assert!(screen.contains("33s left of 45s"), "{screen}");
    assert!(!screen.contains("evil title"));
    insta::assert_snapshot!("router_normal", screen);
}

#[test]
fn router_view_empty_and_unavailable() {
    let mut h = with_config();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    insta::assert_snapshot!("router_empty", h.screen(100, 12));
    h.app.router.unavailable = Some("no openclaw binary (router.bin)".into());
    insta::assert_snapshot!("router_unavailable", h.screen(100, 12));
}

#[test]
fn router_view_error_states_after_kill_and_timeout() {
    let mut h = router_with_runs();
    h.router_event(
        2,
        RouterEventKind::Note {
            text: "kill requested; killing the process tree".into(),
        },
    );
    h.finish_run(2, RunStatus::Killed, None, Some("SIGTERM"), 12);
    h.start_run(3, "main", "hang forever", Duration::from_secs(45));
    h.finish_run(3, RunStatus::TimedOut, None, Some("SIGKILL"), 45);
    h.key(KeyCode::Up);
    let screen = h.screen(120, 24);
    assert!(screen.contains("■ killed"), "{screen}");
    assert!(
        screen.contains("run ■ killed in 12.0s · ended by SIGTERM · "),
        "{screen}"
    );
    insta::assert_snapshot!("router_killed_and_timed_out", screen);
}

#[test]
fn router_view_shows_the_tools_closing_text() {
    use crate::router::texts;
    let mut h = with_config();
    h.start_run(1, "ops", "summarise the logs", Duration::from_secs(45));
    let content = format!(
        "{}\n{}",
        texts::spawn_failed("openclaw: No such file or directory"),
        texts::INSTALL_HINT
    );
    h.finish_run_with_content(1, RunStatus::SpawnFailed, None, None, 0, "", &content);
    h.start_run(2, "ops", "hang", Duration::from_secs(45));
    h.chunk(2, StdStream::Stdout, b"partial answer\n");
    let content = format!("partial answer\n\n{}", texts::timed_out(45));
    h.finish_run_with_content(
        2,
        RunStatus::TimedOut,
        None,
        Some("SIGKILL"),
        45,
        "partial answer\n",
        &content,
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen(150, 20);
    // The test backend pads each double-width character with a blank cell.
    let packed = |s: &str| s.replace(' ', "");
    assert!(
        packed(&screen).contains("远程clawBot处理超时（超过45秒未完成）"),
        "{screen}"
    );
    insta::assert_snapshot!("router_closing_text_timeout", screen);
    h.key(KeyCode::Up);
    let screen = h.screen(150, 20);
    assert!(packed(&screen).contains("无法启动远程Agent"), "{screen}");
    assert!(packed(&screen).contains("npminstall-gopenclaw"), "{screen}");
    insta::assert_snapshot!("router_closing_text_spawn_failed", screen);
}

/// A real run whose CLI is missing: the router view shows the seed's text the model gets and,
/// beside it, the same in English for the operator.
#[tokio::test]
async fn router_view_notes_the_closing_text_in_english_too() {
    use crate::config::settings::RouterSettings;
    use crate::router::{RouterRequest, RouterService, texts};
    let settings = RouterSettings {
        bin: "/nonexistent/openclaw".into(),
        ..RouterSettings::default()
    };
    let service = RouterService::with_env(settings, Arc::new(|_: &str| None));
    let mut events = service.subscribe();
    let handle = service
        .start(RouterRequest::new("summarise the logs").with_agent("ops"))
        .unwrap();
    let mut h = with_config();
    loop {
        let event = events.recv().await.unwrap();
        let done = matches!(event.kind, RouterEventKind::Finished { .. });
        h.router_event(event.run_id, event.kind);
        if done {
            break;
        }
    }
    let outcome = handle.wait().await;
    assert!(
        outcome.content.ends_with(texts::INSTALL_HINT),
        "the model's text is the seed's"
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen(200, 24);
    let packed = |s: &str| s.replace(' ', "");
    assert!(packed(&screen).contains("无法启动远程Agent"), "{screen}");
    assert!(
        screen.contains("the remote agent could not be started")
            && screen.contains("the openclaw command was not found"),
        "{screen}"
    );
}

#[test]
fn router_stream_scrolls_sideways_for_long_lines() {
    let mut h = with_config();
    h.start_run(1, "ops", "long lines", Duration::from_secs(45));
    let long = format!("{}END-OF-LINE\n", "x".repeat(150));
    h.chunk(1, StdStream::Stdout, long.as_bytes());
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen(100, 14);
    assert!(!screen.contains("END-OF-LINE"), "{screen}");
    for _ in 0..4 {
        h.key(KeyCode::Right);
    }
    let screen = h.screen(100, 14);
    assert!(screen.contains("END-OF-LINE"), "{screen}");
    assert!(screen.contains("columns from 81"), "{screen}");
    insta::assert_snapshot!("router_scrolled_right", screen);
    for _ in 0..4 {
        h.key(KeyCode::Left);
    }
    assert!(!h.screen(100, 14).contains("END-OF-LINE"));
}

#[test]
fn router_keys_emit_intents() {
    let mut h = router_with_runs();
    assert_eq!(h.app.router.selected, 1, "the live run is selected");
    // `k` moves up, as everywhere; it never kills.
    h.key(KeyCode::Char('k'));
    assert!(h.emitted().is_empty());
    assert_eq!(h.app.router.selected, 0);
    h.key(KeyCode::Char('j'));
    // `x` and Del kill, after asking.
    for kill in [KeyCode::Char('x'), KeyCode::Delete] {
        h.key(kill);
        h.pump();
        assert!(
            matches!(&h.app.overlay, Some(Overlay::Confirm(c)) if c.question.starts_with("Kill run #2 (ops)?")),
            "kill asks first"
        );
        h.key(KeyCode::Char('n'));
        assert!(h.emitted().is_empty(), "no: nothing is killed");
        assert!(h.app.overlay.is_none());
    }
    h.key(KeyCode::Char('x'));
    h.pump();
    h.key(KeyCode::Char('y'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::KillRun { run_id }] if run_id == "2"),
        "{ev:?}"
    );
    h.key(KeyCode::Char('t'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::SetRunTimeout { run_id, seconds: 30, extend: true }] if run_id == "2"),
        "{ev:?}"
    );
    h.key(KeyCode::Char('T'));
    h.key_mod(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("90");
    h.key(KeyCode::Enter);
    let ev = h.emitted();
    assert!(
        matches!(
            &ev[..],
            [AppEvent::SetRunTimeout {
                seconds: 90,
                extend: false,
                ..
            }]
        ),
        "{ev:?}"
    );
    // New run: the message at once, the agent with the arrows, Enter.
    h.key(KeyCode::Char('r'));
    h.type_text("check -x \"quoted\" 中文");
    h.key(KeyCode::Down);
    h.key(KeyCode::Up);
    insta::assert_snapshot!("router_new_run_prompt", h.screen(120, 24));
    h.key(KeyCode::Enter);
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::StartRun { agent: Some(a), message }] if a == "main" && message == "check -x \"quoted\" 中文"),
        "{ev:?}"
    );
    // Copy.
    h.key(KeyCode::Char('y'));
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::CopyRun { run_id: 2 }]),
        "{ev:?}"
    );
    // Killing a finished run does nothing but say so.
    h.key(KeyCode::Up);
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(
        h.app
            .status
            .as_ref()
            .is_some_and(|(s, _)| s.contains("run #1 is not running"))
    );
}

#[test]
fn router_stream_follow_search_and_scroll() {
    let mut h = router_with_runs();
    for i in 0..200 {
        h.chunk(2, StdStream::Stdout, format!("line {i}\n").as_bytes());
    }
    h.screen(120, 24);
    assert!(h.app.router.pane.follow);
    h.key(KeyCode::PageUp);
    assert!(!h.app.router.pane.follow, "scrolling up pauses follow");
    let top = h.app.router.pane.top;
    h.chunk(2, StdStream::Stdout, b"more\n");
    h.screen(120, 24);
    assert_eq!(h.app.router.pane.top, top, "a paused view keeps its place");
    h.key(KeyCode::End);
    assert!(h.app.router.pane.follow);
    h.key(KeyCode::Char('/'));
    h.type_text("line 42");
    h.key(KeyCode::Enter);
    // `progress 60%` was still partial, so `line 0` continued it: `line 42` is line 3 + 42.
    assert_eq!(h.app.router.pane.hit.map(|s| s as usize), Some(3 + 42));
    assert!(!h.app.router.pane.follow);
    let screen = h.screen(120, 24);
    assert!(screen.contains("line 42"), "{screen}");
    // Wheel over the stream scrolls it.
    h.key(KeyCode::End);
    h.app.handle_event(AppEvent::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 50,
        row: 15,
        modifiers: KeyModifiers::NONE,
    }));
    assert!(!h.app.router.pane.follow);
}

#[test]
fn router_view_draws_a_line_that_arrives_in_pieces_as_one_line() {
    let mut h = with_config();
    h.start_run(7, "ops", "long build", Duration::from_secs(3));
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    // Live chunks as the supervisor sends them: a partial line, its `\r` redraws, its newline.
    for piece in [&b"building 1"[..], b"0%", b"\rbuilding 5", b"0%"] {
        h.chunk(7, StdStream::Stdout, piece);
    }
    let screen = h.screen(120, 24);
    assert!(screen.contains("building 50%"), "{screen}");
    assert!(!screen.contains("building 10%"), "{screen}");
    assert_eq!(
        h.app.router.selected_run().map(|r| r.buffer.display_len()),
        Some(1)
    );
    h.chunk(7, StdStream::Stdout, b"\rbuilding 100%");
    h.chunk(7, StdStream::Stdout, b"\nlinking\n");
    let screen = h.screen(120, 24);
    let shown: Vec<&str> = screen
        .lines()
        .filter(|line| line.contains("building") || line.contains("linking"))
        .collect();
    assert_eq!(shown.len(), 2, "{screen}");
    assert!(
        shown[0].contains("building 100%") && !shown[0].contains("50%"),
        "{screen}"
    );
    assert!(shown[1].contains("linking"), "{screen}");
    let run = h.app.router.selected_run().unwrap();
    assert_eq!(run.buffer.plain_text(), "building 100%\nlinking\n");
}

#[test]
fn copy_puts_text_on_the_clipboard_and_in_a_file() {
    let mut h = router_with_runs();
    let clip = RecordingClipboard::default();
    h.app.clipboard = Box::new(clip.clone());
    h.key(KeyCode::Char('y'));
    h.pump();
    let copied = clip.0.lock().map(|v| v.clone()).unwrap_or_default();
    assert_eq!(copied.len(), 1);
    assert!(copied[0].contains("connected to gateway"));
    let file = h.app.copy_dir.join("router-run-2.txt");
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some(copied[0].as_str())
    );
    // What a run printed may hold secrets: only its owner reads the copy.
    use std::os::unix::fs::MetadataExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.mode() & 0o777).ok();
    assert_eq!(mode(&file), Some(0o600));
    assert_eq!(mode(&h.app.copy_dir), Some(0o700));
}

// ---------------------------------------------------------------- invoke view

fn invoke_harness() -> Harness {
    let mut h = harness();
    let mut config = fixture_config();
    config.settings.workspace = Some(fixture("workspace"));
    h.app.set_config(config);
    h.app.status = None;
    h.app.handle_event(AppEvent::SwitchView(ViewId::Invoke));
    h
}

#[test]
fn invoke_view_normal_with_result() {
    let mut h = invoke_harness();
    h.key(KeyCode::Enter); // read: skeleton
    assert_eq!(
        h.app.invoke.editor.lines().join("\n"),
        "{\n  \"path\": \"\"\n}"
    );
    h.key(KeyCode::Down);
    h.key(KeyCode::End);
    h.key(KeyCode::Left);
    h.type_text("notes.txt");
    assert!(h.app.invoke.validation.is_ok());
    h.key_mod(KeyCode::Char('r'), KeyModifiers::CONTROL);
    let ev = h.emitted();
    let call = match &ev[..] {
        [AppEvent::Invoke { call, tool, params }]
            if tool == "read" && *params == json!({"path": "notes.txt"}) =>
        {
            *call
        }
        other => panic!("{other:?}"),
    };
    let result = ToolResult::text(
        "hello from the console fixture\n",
        json!({"status": "ok", "path": "notes.txt"}),
    );
    let outcome = CallOutcome::Completed {
        tool: "read".into(),
        result,
        is_error: false,
        hooks: Vec::new(),
        lane: "main".into(),
        duration: Duration::from_millis(4),
    };
    h.app
        .handle_event(AppEvent::Core(CoreEvent::InvokeDone { call, outcome }));
    h.app.status = None;
    insta::assert_snapshot!("invoke_normal", h.screen(130, 34));
}

#[test]
fn invoke_view_validation_error_names_the_path() {
    let mut h = invoke_harness();
    h.key(KeyCode::Enter);
    h.key(KeyCode::Down);
    h.key(KeyCode::End);
    for _ in 0..2 {
        h.key(KeyCode::Backspace);
    }
    h.type_text("42");
    let problems = h.app.invoke.validation.clone().expect_err("invalid");
    assert!(
        problems.iter().any(|p| p.starts_with("/path:")),
        "{problems:?}"
    );
    h.key_mod(KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert!(
        h.emitted()
            .iter()
            .all(|e| !matches!(e, AppEvent::Invoke { .. })),
        "invalid params are not sent"
    );
    h.key(KeyCode::Char(','));
    assert!(
        h.app
            .invoke
            .validation
            .as_ref()
            .is_err_and(|p| p[0].starts_with("JSON: line"))
    );
    h.app.status = None;
    insta::assert_snapshot!("invoke_invalid_params", h.screen(130, 20));
}

#[test]
fn invoke_view_hidden_tool_cannot_run_and_empty_state() {
    let mut h = invoke_harness();
    let exec = h
        .app
        .invoke
        .tools
        .iter()
        .position(|t| t.name == "exec")
        .expect("exec listed");
    assert!(!h.app.invoke.tools[exec].visible);
    for _ in 0..exec {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.key_mod(KeyCode::Char('r'), KeyModifiers::CONTROL);
    let ev = h.pump();
    assert!(ev.iter().all(|e| !e.starts_with("Invoke")), "{ev:?}");
    assert!(
        h.app
            .status
            .as_ref()
            .is_some_and(|(s, _)| s.contains("exec is hidden")),
        "{:?}",
        h.app.status
    );
}

#[tokio::test]
async fn invoke_runs_through_the_real_pipeline_and_history_reruns() {
    let mut h = invoke_harness();
    h.key(KeyCode::Enter);
    h.key(KeyCode::Down);
    h.key(KeyCode::End);
    h.key(KeyCode::Left);
    h.type_text("notes.txt");
    h.key(KeyCode::F(5));
    let ev = h.emitted();
    assert_eq!(ev.len(), 1);
    for e in ev {
        h.app.handle_event(e);
    }
    let done = tokio::time::timeout(Duration::from_secs(10), h.rx.recv())
        .await
        .expect("in time")
        .expect("event");
    assert!(
        matches!(done, AppEvent::Core(CoreEvent::InvokeDone { call: 1, .. })),
        "{done:?}"
    );
    h.app.handle_event(done);
    let entry = &h.app.invoke.history[0];
    match entry.outcome.as_deref() {
        Some(CallOutcome::Completed {
            result,
            is_error: false,
            ..
        }) => {
            assert!(
                result
                    .joined_text()
                    .contains("hello from the console fixture"),
                "{result:?}"
            )
        }
        other => panic!("{other:?}"),
    }
    // History: H focuses it, Ctrl-R re-runs the call.
    h.key(KeyCode::Char('H'));
    h.key_mod(KeyCode::Char('r'), KeyModifiers::CONTROL);
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::Invoke { call: 2, tool, .. }] if tool == "read"),
        "{ev:?}"
    );
}

// ---------------------------------------------------------------- prompt view

#[test]
fn prompt_view_normal_cycles_format_and_mode() {
    let mut h = with_config();
    h.key(KeyCode::Char('5'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Prompt);
    let text: Vec<String> = h.app.prompt.lines().iter().map(|l| l.to_string()).collect();
    assert!(
        text.iter()
            .any(|l| l.starts_with("tools payload · anthropic (provider anthropic)")),
        "{text:?}"
    );
    h.key(KeyCode::Char('p'));
    h.pump();
    let text: Vec<String> = h.app.prompt.lines().iter().map(|l| l.to_string()).collect();
    assert!(
        text.iter()
            .any(|l| l.starts_with("tools payload · openai (--api)")),
        "{text:?}"
    );
    h.key(KeyCode::Char('m'));
    h.pump();
    let text: Vec<String> = h.app.prompt.lines().iter().map(|l| l.to_string()).collect();
    assert!(text[0].contains("mode minimal"), "{text:?}");
    let screen = h.screen(120, 20);
    assert!(screen.contains("What the model sees"));
}

#[test]
fn prompt_view_empty_and_error() {
    let mut h = harness();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Prompt));
    insta::assert_snapshot!("prompt_empty", h.screen(100, 10));
    let mut h = with_config();
    h.set_context(PolicyContext {
        agent: Some("ghost".into()),
        ..Default::default()
    });
    h.app.handle_event(AppEvent::SwitchView(ViewId::Prompt));
    h.pump();
    insta::assert_snapshot!("prompt_error", h.screen(100, 10));
}

// ---------------------------------------------------------------- frame, keys, help

#[test]
fn tab_number_keys_and_mouse_switch_views() {
    let mut h = with_config();
    h.key(KeyCode::Tab);
    assert!(matches!(
        &h.emitted()[..],
        [AppEvent::SwitchView(ViewId::Queue)]
    ));
    h.key(KeyCode::BackTab);
    let last = *ViewId::ALL.last().unwrap();
    assert!(matches!(
        &h.emitted()[..],
        [AppEvent::SwitchView(view)] if *view == last
    ));
    h.key(KeyCode::Char('4'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Invoke);
    h.screen(120, 20);
    // Tabs: "clawdeck " then " 1 Policy " ... click on "Router".
    let router_tab = h
        .app
        .tab_areas()
        .iter()
        .find(|(_, v)| *v == ViewId::Router)
        .map(|(r, _)| *r)
        .expect("tab drawn");
    h.app.handle_event(AppEvent::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: router_tab.x + 1,
        row: router_tab.y,
        modifiers: KeyModifiers::NONE,
    }));
    h.pump();
    assert_eq!(h.app.view, ViewId::Router);
}

#[test]
fn quit_asks_while_runs_are_live() {
    let mut h = with_config();
    h.key(KeyCode::Char('q'));
    assert!(matches!(&h.emitted()[..], [AppEvent::Quit]));
    let mut h = router_with_runs();
    h.key_mod(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(h.emitted().is_empty());
    assert!(matches!(h.app.overlay, Some(Overlay::Confirm(_))));
    insta::assert_snapshot!("quit_confirm", h.screen(100, 20));
    h.key(KeyCode::Char('y'));
    h.pump();
    assert!(h.app.quit);
}

#[test]
fn help_overlay_is_searchable_and_follows_overrides() {
    let mut h = harness();
    let mut config = fixture_config();
    config
        .settings
        .keys
        .insert("kill_run".into(), vec!["ctrl-k".into()]);
    h.app.set_config(config);
    h.app.status = None;
    h.key(KeyCode::Char('?'));
    assert!(matches!(h.app.overlay, Some(Overlay::Help(_))));
    h.type_text("kill");
    insta::assert_snapshot!("help_search_kill", h.screen(110, 20));
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
    // The override is live: Ctrl-K kills, plain k moves up in the router view.
    let mut h2 = router_with_runs();
    let mut config = fixture_config();
    config
        .settings
        .keys
        .insert("kill_run".into(), vec!["ctrl-k".into()]);
    h2.app.set_config(config);
    h2.key(KeyCode::Char('k'));
    assert!(
        h2.emitted()
            .iter()
            .all(|e| !matches!(e, AppEvent::KillRun { .. }))
    );
    h2.key(KeyCode::Down);
    h2.key_mod(KeyCode::Char('k'), KeyModifiers::CONTROL);
    assert!(
        matches!(&h2.emitted()[..], [AppEvent::Confirm { on_yes, .. }] if matches!(**on_yes, AppEvent::KillRun { .. }))
    );
    let footer = h2.screen(140, 20);
    assert!(
        footer
            .lines()
            .last()
            .is_some_and(|l| l.contains("Ctrl-K kill")),
        "{footer}"
    );
}

#[test]
fn idle_and_offscreen_output_request_no_frames() {
    let (tx, _rx) = AppEventSender::channel();
    let frames = FrameRequester::test_dummy();
    let clock = FixedClock::at_epoch_2026();
    let deck = crate::app::in_memory_deck(fixture_config());
    let mut app = App::new(deck, tx, frames.clone(), Arc::new(clock.clone()));
    app.show_deck();
    app.status = None;
    for _ in 0..5 {
        app.handle_event(AppEvent::Tick);
    }
    assert_eq!(
        frames.requests(),
        0,
        "ticks with nothing time-dependent on screen draw nothing"
    );
    // Router output while another view is shown needs no frame either.
    let started_at = clock.wall();
    app.handle_event(AppEvent::Core(CoreEvent::Router(
        RouterEvent {
            run_id: 1,
            kind: RouterEventKind::Started {
                argv: Vec::new(),
                transport: TransportKind::Cli,
                agent: Some("ops".into()),
                to: None,
                message: "m".into(),
                mode: Mode::ReadOnly,
                timeout_seconds: 45,
                started_at,
                deadline: started_at + Duration::from_secs(45),
            },
        },
        crate::deck::paced::Permit::none(),
    )));
    let after_start = frames.requests();
    for _ in 0..100 {
        app.handle_event(AppEvent::Core(CoreEvent::Router(
            RouterEvent {
                run_id: 1,
                kind: RouterEventKind::Chunk {
                    stream: StdStream::Stdout,
                    at: started_at,
                    elapsed: Duration::ZERO,
                    bytes: b"x\n".to_vec(),
                },
            },
            crate::deck::paced::Permit::none(),
        )));
    }
    assert_eq!(frames.requests(), after_start);
    app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let before = frames.requests();
    app.handle_event(AppEvent::Tick);
    assert_eq!(
        frames.requests(),
        before + 1,
        "a live countdown on screen redraws each second"
    );
}

#[test]
fn no_tty_message_names_the_reason_and_the_headless_commands_it_is_given() {
    let commands = "  clawdeck tools    tools\n  clawdeck explain  explain\n";
    let msg = crate::terminal::no_tty_message("standard input is not a terminal", commands);
    assert!(msg.contains("(standard input is not a terminal)"), "{msg}");
    assert!(msg.contains(commands), "{msg}");
    assert!(msg.contains("`clawdeck COMMAND --help`"), "{msg}");
}

#[test]
fn the_documented_key_table_matches_the_keymap() {
    let table = crate::keymap::Keymap::default().markdown_table();
    // The table lives in the README or in a page under docs/ (the console's reference).
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut pages = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let documented = pages
        .iter()
        .any(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains(&table)));
    assert!(
        documented,
        "no page carries the current key table; regenerate it from Keymap::markdown_table():\n{table}"
    );
}

#[tokio::test]
async fn every_key_reaches_a_frame_promptly_on_the_real_loop() {
    let (tx, mut rx) = AppEventSender::channel();
    let frames = FrameRequester::spawn(tx.clone());
    let deck = crate::app::in_memory_deck(fixture_config());
    let mut app = App::new(
        deck,
        tx.clone(),
        frames,
        Arc::new(crate::clock::SystemClock),
    );
    app.view = ViewId::Router;
    let stats = Arc::clone(&app.stats);
    let ui = tokio::spawn(async move {
        let mut terminal = Terminal::new(TestBackend::new(120, 30)).expect("terminal");
        let _ = crate::event_loop::run_loop(&mut app, &mut terminal, &mut rx, false).await;
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut slow = Vec::new();
    for i in 0..30 {
        let drawn = stats.frames_drawn.load(std::sync::atomic::Ordering::SeqCst);
        let t = std::time::Instant::now();
        let code = if i % 2 == 0 {
            KeyCode::PageUp
        } else {
            KeyCode::PageDown
        };
        tx.send(AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        while stats.frames_drawn.load(std::sync::atomic::Ordering::SeqCst) == drawn {
            if t.elapsed() > Duration::from_secs(2) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        if t.elapsed() > Duration::from_millis(200) {
            slow.push((i, t.elapsed()));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tx.send(AppEvent::Quit);
    let _ = ui.await;
    assert!(slow.is_empty(), "keys without a prompt frame: {slow:?}");
}

// ---------------------------------------------------------------- every size

/// A console with something in every view: config, queue snapshot, live and ended runs, an
/// invoke result.
fn populated() -> Harness {
    let mut h = router_with_runs();
    h.app.queue.set_snapshot(queue_snapshot());
    h.app.queue.warn_after = Duration::from_millis(2000);
    h.app.approvals = crate::views::approvals::ApprovalsView::attaching(&["local".to_string()]);
    let pending = crate::gateway::watch::classify(
        "local",
        "exec.approval.requested",
        &json!({"id": "a1", "request": {"command": "make deploy", "cwd": "/w", "agentId": "ops",
                "sessionKey": "agent:ops:main", "ask": "always"}}),
    );
    h.app.handle_event(AppEvent::Core(CoreEvent::Desk(
        crate::gateway::desk::DeskEvent::Item(pending),
    )));
    // The analysis panes with results: a lint report, a what-if, a gateway comparison.
    for view in [ViewId::Lint, ViewId::Diff] {
        h.app.handle_event(AppEvent::SwitchView(view));
        h.pump();
    }
    h.key(KeyCode::Char('o'));
    h.pump();
    let session = "agent:main:main";
    h.app.handle_event(AppEvent::CompareSession(Some((
        "gw".into(),
        session.into(),
    ))));
    h.pump();
    let (config, registry) = (
        h.app.config().cloned().unwrap(),
        h.app.registry().cloned().unwrap(),
    );
    let payload = json!({"groups": [{"id": "core", "tools": [{"id": "read"}, {"id": "exec"}]}]});
    let check =
        crate::deck::session_compare::check_session(&config, &registry, "gw", session, &payload)
            .unwrap();
    let generation = h.app.session_generation();
    h.app
        .handle_event(AppEvent::Core(CoreEvent::SessionChecked {
            generation,
            result: Ok(Box::new(check)),
        }));
    assert!(h.app.policy.session.as_ref().unwrap().check().is_some());
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    h
}

/// A gateway attached with its roster, a running gateway run (Queue view) and the recorded
/// exec run in the followed session's transcript (Sessions view's detail pane).
fn with_gateway(mut h: Harness) -> Harness {
    use crate::gateway::{ClientEvent, EventFrame, Hello};
    let send = |h: &mut Harness, event: ClientEvent| {
        h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
            gateway: "local".into(),
            event,
            permit: crate::deck::paced::Permit::none(),
        }));
    };
    let hello = Hello::from_payload(&serde_json::json!({
        "type": "hello-ok", "protocol": 4, "server": {"version": "2026.9.6", "connId": "c"},
        "features": {"methods": [], "events": []}, "snapshot": {},
        "auth": {"role": "operator", "scopes": []}, "policy": {"tickIntervalMs": 15000}
    }))
    .unwrap();
    // As the console starts with a gateway configured.
    h.app.sessions = crate::views::sessions::SessionsView::attaching(&["local".to_string()]);
    send(
        &mut h,
        ClientEvent::Connected {
            hello: std::sync::Arc::new(hello),
            reconnect: false,
        },
    );
    send(
        &mut h,
        ClientEvent::Subscribed {
            method: "sessions.list".into(),
            payload: serde_json::json!({"sessions": [
                {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "updatedAt": 1_795_380_958_000u64},
                {"key": "agent:main:main", "agentId": "main", "kind": "main", "queuedCount": 1, "updatedAt": 1_795_370_000_000u64},
            ]}),
        },
    );
    for line in include_str!("../../../../tests/fixtures/gateway/exec-run.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["frame"]["type"] != "event" {
            continue;
        }
        send(
            &mut h,
            ClientEvent::Event(std::sync::Arc::new(EventFrame {
                event: v["frame"]["event"].as_str().unwrap().to_string(),
                payload: v["frame"]["payload"].clone(),
                seq: None,
            })),
        );
    }
    h
}

#[test]
fn gateway_runs_and_the_followed_transcript_reach_their_views() {
    let mut h = with_gateway(populated());
    assert!(
        !h.app.queue.gateway_runs.runs.is_empty(),
        "the queued session is a gateway run"
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    let screen = h.screen(120, 40);
    assert!(
        screen.contains("Gateway runs · 0 running, 1 queued"),
        "{screen}"
    );
    assert!(
        screen.contains("Lanes"),
        "clawdeck's own lanes stay\n{screen}"
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Sessions));
    let screen = h.screen(120, 40);
    assert!(screen.contains("⚙ exec ✓ ok"), "{screen}");
}

/// The states each size is drawn in: every view bare, and every overlay and input line.
fn draw_every_state(h: &mut Harness, width: u16, height: u16) {
    for view in ViewId::ALL {
        h.app.overlay = None;
        h.app.router.input = None;
        h.app.handle_event(AppEvent::SwitchView(view));
        h.draw(width, height);
        h.key(KeyCode::Char('?'));
        h.draw(width, height);
        h.key(KeyCode::Esc);
        h.key(KeyCode::Char('c'));
        h.draw(width, height);
        h.key(KeyCode::Esc);
        h.app.overlay = None;
    }
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    for key in ['r', 'T', '/'] {
        h.app.router.input = None;
        h.key(KeyCode::Char(key));
        h.draw(width, height);
        h.key(KeyCode::Esc);
    }
    h.app.router.input = None;
    h.key(KeyCode::Char('q'));
    assert!(
        matches!(h.app.overlay, Some(Overlay::Confirm(_))),
        "quitting with live runs asks"
    );
    h.draw(width, height);
    h.app.overlay = None;
    h.app.handle_event(AppEvent::SwitchView(ViewId::Policy));
    h.key(KeyCode::Char('/'));
    h.draw(width, height);
    h.key(KeyCode::Esc);
    let roster = [("gw".into(), "agent:main:main".into(), "main".into())];
    h.app.policy.open_session_picker(&roster, Some("gw".into()));
    h.draw(width, height);
    h.key(KeyCode::Esc);
    h.app.handle_event(AppEvent::SwitchView(ViewId::Invoke));
    h.key(KeyCode::Enter);
    h.draw(width, height);
    h.key(KeyCode::Esc);
    h.emitted();
}

#[test]
fn every_view_and_overlay_renders_at_every_small_size() {
    let mut h = with_gateway(populated());
    for width in 1..=40 {
        for height in 1..=30 {
            draw_every_state(&mut h, width, height);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    #[test]
    fn every_view_and_overlay_renders_at_any_size(width in 1u16..=300, height in 1u16..=100) {
        let mut h = with_gateway(populated());
        draw_every_state(&mut h, width, height);
    }
}

#[test]
fn a_tiny_terminal_shows_a_notice_instead_of_a_cut_view() {
    let mut h = populated();
    let screen = h.screen(30, 6);
    assert!(screen.contains("too small"), "{screen}");
    let screen = h.screen(100, 12);
    assert!(!screen.contains("too small"), "{screen}");
    assert!(screen.contains("Runs"), "{screen}");
}

#[test]
fn queue_view_draws_at_twelve_rows_and_fewer() {
    let mut h = populated();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    for height in 10..=12 {
        let screen = h.screen(100, height);
        assert!(screen.contains("Lanes"), "{height} rows:\n{screen}");
    }
}

// ---------------------------------------------------------------- keys that destroy

#[test]
fn a_timeout_below_the_elapsed_time_asks_before_it_ends_the_run() {
    let mut h = router_with_runs();
    // Run 2 has run for 12 s.
    h.key(KeyCode::Char('T'));
    h.key_mod(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("5");
    h.key(KeyCode::Enter);
    h.pump();
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c)) if c.question.contains("has run for 12 s: a timeout of 5 s ends it now")),
        "asks first"
    );
    h.key(KeyCode::Esc);
    assert!(h.emitted().is_empty(), "Esc: the timeout is not set");
    h.key(KeyCode::Char('T'));
    h.key_mod(KeyCode::Char('u'), KeyModifiers::CONTROL);
    h.type_text("5");
    h.key(KeyCode::Enter);
    h.pump();
    h.key(KeyCode::Char('y'));
    let ev = h.emitted();
    assert!(
        matches!(
            &ev[..],
            [AppEvent::SetRunTimeout {
                seconds: 5,
                extend: false,
                ..
            }]
        ),
        "{ev:?}"
    );
}

#[tokio::test]
async fn timeouts_above_the_ceiling_say_what_happened() {
    use crate::config::settings::RouterSettings;
    let mut h = with_config();
    let bin = std::env::temp_dir().join(format!("clawdeck-sleep-{}", std::process::id()));
    std::fs::write(&bin, "#!/bin/sh\nsleep 30\n").unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let service = service_running(RouterSettings {
        bin: bin.display().to_string(),
        default_agent: Some("ops".into()),
        ..RouterSettings::default()
    });
    let mut events = service.subscribe();
    let handle = service
        .start(crate::router::RouterRequest::new("wait"))
        .unwrap();
    h.app.attach_deck(crate::deck::Deck::with_router(
        fixture_config(),
        service.clone(),
    ));
    let started = events.recv().await.unwrap();
    h.app.handle_event(AppEvent::Core(CoreEvent::Router(
        started,
        crate::deck::paced::Permit::none(),
    )));
    h.app.handle_event(AppEvent::SetRunTimeout {
        run_id: handle.run_id.to_string(),
        seconds: 5000,
        extend: false,
    });
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.contains("5000 s is above the 600 s ceiling; timeout set to 600 s"),
        "{status}"
    );
    let changed = events.recv().await.unwrap();
    h.app.handle_event(AppEvent::Core(CoreEvent::Router(
        changed,
        crate::deck::paced::Permit::none(),
    )));
    assert_eq!(h.app.router.runs[0].timeout_seconds, 600);
    h.app.status = None;
    h.app.handle_event(AppEvent::SetRunTimeout {
        run_id: handle.run_id.to_string(),
        seconds: 30,
        extend: true,
    });
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.contains("already at the 600 s ceiling; its timeout is unchanged"),
        "{status}"
    );
    service.kill(handle.run_id);
    handle.wait().await;
    let _ = std::fs::remove_file(&bin);
}

#[tokio::test]
async fn quitting_with_a_live_background_exec_session_asks() {
    let mut h = invoke_harness();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Policy));
    let pipeline = h.app.deck.pipeline();
    let request = crate::pipeline::CallRequest::new(
        "exec".to_string(),
        json!({"command": "sleep 30", "background": true}),
        PolicyContext {
            agent: Some("ops".into()),
            ..PolicyContext::default()
        },
    );
    let outcome = pipeline.call(request).await;
    assert!(
        matches!(
            &outcome,
            CallOutcome::Completed {
                is_error: false,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(h.app.live_exec_sessions(), 1);
    // The Queue names the command and does not call a live background process finished.
    h.app.refresh_queue();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Queue));
    // The deck's standard lanes are listed; the call ran in `main`, the second.
    h.key(KeyCode::Down);
    let screen = h.screen(120, 30);
    assert!(screen.contains("exec: sleep 30"), "{screen}");
    assert!(screen.contains("↪ running"), "{screen}");
    assert!(screen.contains("in the background"), "{screen}");
    assert!(!screen.contains("✓ ok"), "{screen}");
    // Its call is over: the kill key says where the command went instead of asking.
    h.key(KeyCode::Enter);
    h.key(KeyCode::Char('x'));
    h.pump();
    assert!(h.app.overlay.is_none());
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(
        status.contains("went on as a background exec session"),
        "{status}"
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Policy));
    h.key(KeyCode::Char('q'));
    assert!(h.emitted().is_empty(), "q does not quit at once");
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c)) if c.question.contains("1 background exec session")),
        "asks first"
    );
    h.key(KeyCode::Char('n'));
    for session in h.app.deck.tool_runtime().sessions.list() {
        session.process().kill(crate::process::KillReason::User);
        session.process().wait().await;
    }
}

#[test]
fn ctrl_c_in_the_parameter_editor_keeps_the_draft_until_confirmed() {
    let mut h = invoke_harness();
    h.key(KeyCode::Enter);
    h.type_text("draft");
    let draft = h.app.invoke.editor.lines().join("\n");
    h.key_mod(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(h.emitted().is_empty(), "Ctrl-C does not quit at once");
    assert!(
        matches!(&h.app.overlay, Some(Overlay::Confirm(c)) if c.question.contains("parameters being edited")),
        "asks first"
    );
    h.key(KeyCode::Char('n'));
    assert_eq!(
        h.app.invoke.editor.lines().join("\n"),
        draft,
        "the draft is kept"
    );
    assert!(h.app.invoke.is_editing());
}

#[test]
fn the_context_bar_shows_what_the_engine_decided() {
    let text = r#"{ agents: { list: [
        { id: "main", default: true },
        { id: "ops", sandbox: { mode: "all" } },
    ] } }"#;
    let mut h = harness();
    h.app
        .set_config(crate::config::load_from_str(text, "inline.json5").unwrap());
    h.set_context(PolicyContext {
        agent: Some("ops".into()),
        ..PolicyContext::default()
    });
    h.app.status = None;
    let screen = h.screen(200, 20);
    assert!(screen.contains("sandbox yes"), "{screen}");
    // At 80 columns the flags move to a second line instead of being cut off.
    let screen = h.screen(80, 20);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[1].contains("agent ops"), "{screen}");
    assert!(lines[2].contains("owner yes"), "{screen}");
    assert!(lines[2].contains("subagent no"), "{screen}");
    assert!(lines[2].contains("sandbox yes"), "{screen}");
    // The editor says where the yes comes from.
    h.key(KeyCode::Char('c'));
    let screen = h.screen(120, 24);
    assert!(
        screen.contains("yes (agents.list[1].sandbox.mode"),
        "{screen}"
    );
}

// ---------------------------------------------------------------- truth on screen

#[test]
fn the_new_run_dialog_starts_with_the_contexts_agent_and_shows_the_new_run() {
    let mut h = router_with_runs();
    h.set_context(PolicyContext {
        agent: Some("main".into()),
        ..PolicyContext::default()
    });
    // The selected run is live (#2): a new run must still take the pane.
    h.key(KeyCode::Char('r'));
    let agent = match &h.app.router.input {
        Some(crate::views::router::RouterInput::NewRun { agents, agent, .. }) => {
            agents[*agent].clone()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(agent, "main", "the context's agent, not the last run's");
    h.type_text("go");
    h.key(KeyCode::Enter);
    let ev = h.emitted();
    assert!(
        matches!(&ev[..], [AppEvent::StartRun { agent: Some(a), message }] if a == "main" && message == "go"),
        "{ev:?}"
    );
    h.start_run(3, "main", "go", Duration::from_secs(0));
    assert_eq!(h.app.router.selected_run().map(|r| r.run_id), Some(3));
}

#[test]
fn router_search_counts_hits_and_starts_at_the_top() {
    let mut h = router_with_runs();
    h.chunk(2, StdStream::Stdout, b"\nprogress again\n");
    h.app.router.flush_pending();
    h.key(KeyCode::Char('/'));
    h.type_text("progress");
    h.key(KeyCode::Enter);
    h.pump();
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(status.contains("match 1 of 2"), "{status}");
    h.key(KeyCode::Char('n'));
    h.pump();
    let status = h.app.status.clone().map(|(s, _)| s).unwrap_or_default();
    assert!(status.contains("match 2 of 2"), "{status}");
}

#[test]
fn status_messages_do_not_follow_the_operator_to_another_view() {
    let mut h = router_with_runs();
    h.app.set_status("run #1 is not running");
    h.key(KeyCode::Char('1'));
    h.pump();
    assert!(h.app.status.is_none());
}

#[test]
fn counts_of_one_are_singular() {
    let mut h = with_config();
    h.start_run(1, "ops", "x", Duration::from_secs(1));
    h.chunk(1, StdStream::Stdout, b"a\x1b]0;t\x07b\n");
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen(140, 24);
    assert!(
        screen.contains("1 control sequence neutralised"),
        "{screen}"
    );
}

#[tokio::test]
async fn under_a_flood_the_copy_is_the_runs_complete_record_and_the_pane_marks_the_gap() {
    use crate::config::settings::RouterSettings;
    let mut h = with_config();
    let clip = RecordingClipboard::default();
    h.app.clipboard = Box::new(clip.clone());
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("flood");
    std::fs::write(&bin, "#!/bin/sh\nseq 1 200000\n").unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let service = service_running(RouterSettings {
        bin: bin.display().to_string(),
        default_agent: Some("ops".into()),
        ..RouterSettings::default()
    });
    let mut events = service.subscribe();
    let handle = service
        .start(crate::router::RouterRequest::new("flood"))
        .unwrap();
    h.app.attach_deck(crate::deck::Deck::with_router(
        fixture_config(),
        service.clone(),
    ));
    // The console sees the start, then falls behind: the chunks are skipped.
    let started = events.recv().await.unwrap();
    h.app.handle_event(AppEvent::Core(CoreEvent::Router(
        started,
        crate::deck::paced::Permit::none(),
    )));
    h.app
        .handle_event(AppEvent::Core(CoreEvent::RouterLagged(1234)));
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    let screen = h.screen(140, 24);
    assert!(screen.contains("1234 events skipped here"), "{screen}");
    handle.wait().await;
    h.key(KeyCode::Char('y'));
    h.pump();
    let copied = clip.0.lock().map(|v| v.clone()).unwrap_or_default();
    assert_eq!(copied.len(), 1);
    let lines: Vec<&str> = copied[0].lines().collect();
    assert_eq!(lines.len(), 200_000, "every line the child printed");
    assert_eq!(lines[0], "1");
    assert_eq!(lines[199_999], "200000");
}

#[test]
fn esc_clears_a_filter_after_it_was_applied() {
    let mut h = with_config();
    h.key(KeyCode::Char('/'));
    h.type_text("exec");
    h.key(KeyCode::Enter);
    assert_eq!(h.app.policy.filter.text, "exec");
    h.key(KeyCode::Esc);
    assert_eq!(
        h.app.policy.filter.text, "",
        "Esc clears the applied filter"
    );
    let screen = h.screen(120, 30);
    assert!(!screen.contains("filter /"), "{screen}");
}

#[tokio::test]
async fn config_reloads_run_as_jobs_and_the_newest_wins() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json");
    std::fs::write(&config, r#"{ "agents": { "list": [ { "id": "ops" } ] } }"#).unwrap();
    let deck = crate::deck::Deck::load(Some(&config), &Default::default()).unwrap();
    let mut h = harness();
    h.app.attach_deck(deck.clone());
    std::fs::write(
        &config,
        r#"{ "agents": { "ownership": "explicit", "list": [ { "id": "ops" }, { "id": "qa" } ] } }"#,
    )
    .unwrap();
    h.app.handle_event(AppEvent::ReloadConfig);
    // The reload runs off the console's task: its result comes back as an event.
    let ev = tokio::time::timeout(Duration::from_secs(10), h.rx.recv())
        .await
        .unwrap()
        .unwrap();
    let AppEvent::Core(CoreEvent::Reloaded { generation, result }) = ev else {
        panic!("{ev:?}");
    };
    let fresh = result.clone().unwrap();
    // A result for an older request arriving late is ignored.
    h.app.handle_event(AppEvent::Core(CoreEvent::Reloaded {
        generation: generation - 1,
        result: Ok(deck.state()),
    }));
    assert_ne!(h.app.choices.agents, fresh.config.agent_ids());
    h.app
        .handle_event(AppEvent::Core(CoreEvent::Reloaded { generation, result }));
    assert_eq!(
        h.app.choices.agents,
        vec!["ops".to_string(), "qa".to_string()]
    );
    assert!(Arc::ptr_eq(h.app.registry().unwrap(), &deck.registry()));
}

#[test]
fn policy_results_stay_distinct_when_the_column_is_narrow() {
    let mut h = with_config();
    for width in [80u16, 110, 120, 130, 160, 220] {
        let screen = h.screen(width, 40);
        for line in screen.lines() {
            if let Some(at) = line.find("hidden@") {
                let label: String = line[at + "hidden@".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
                    .collect();
                let known = [
                    "own",
                    "prf",
                    "ppf",
                    "glb",
                    "gpv",
                    "agt",
                    "apv",
                    "grp",
                    "sbx",
                    "sub",
                    "owner",
                    "profile",
                    "prov.prof",
                    "global",
                    "glob.prov",
                    "agent",
                    "agent.prov",
                    "group",
                    "sandbox",
                    "subagent",
                ];
                assert!(
                    known.contains(&label.as_str()),
                    "cut or unknown result label `{label}` at {width} columns:\n{screen}"
                );
            }
        }
    }
}

/// A router service whose CLI is `settings.bin` whatever OPENCLAW_BIN says (CI points that
/// variable at the real OpenClaw).
fn service_running(
    settings: crate::config::settings::RouterSettings,
) -> crate::router::RouterService {
    let env: crate::router::service::EnvLookup = std::sync::Arc::new(|k: &str| {
        if k == "OPENCLAW_BIN" {
            None
        } else {
            std::env::var(k).ok()
        }
    });
    crate::router::RouterService::with_env(settings, env)
}

/// `--mcp-listen`: the status line shows the endpoint's state (open connections against the
/// cap, refusals, the last error) when nothing else is said there.
#[tokio::test]
async fn the_status_line_shows_the_mcp_endpoint_state() {
    let deck = crate::deck::Deck::new(fixture_config(), None, &Default::default());
    let listener = crate::mcp::host::bind("127.0.0.1:0").await.unwrap();
    let url = crate::mcp::host::endpoint_url(&listener);
    let stop = tokio_util::sync::CancellationToken::new();
    let serving = {
        let (deck, stop) = (deck.clone(), stop.clone());
        tokio::spawn(async move {
            crate::mcp::host::serve_http(
                &deck,
                PolicyContext::default(),
                listener,
                "t".into(),
                stop,
            )
            .await
        })
    };
    let mut h = harness();
    h.app.attach_deck(deck.clone());
    h.app.status = None;
    let authority = url.trim_start_matches("http://").trim_end_matches("/mcp");
    let _idle = tokio::net::TcpStream::connect(authority).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut screen = h.screen(120, 30);
    while !screen.contains("1 open (limit") && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
        screen = h.screen(120, 30);
    }
    assert!(
        screen.contains(&format!("MCP {url}: 1 open (limit ")),
        "{screen}"
    );
    stop.cancel();
    serving.await.unwrap().unwrap();
    assert!(h.screen(120, 30).contains(&format!("MCP {url}: stopped")));
}

#[test]
fn invoke_view_shows_what_openclaws_exec_would_do_before_it_runs() {
    let mut h = harness();
    let text = r#"{ tools: { exec: { host: "gateway", security: "allowlist", ask: "off" } } }"#;
    let config = crate::config::load_from_str(text, "exec.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    h.app.set_config(config);
    h.app.status = None;
    h.app.handle_event(AppEvent::SwitchView(ViewId::Invoke));
    let exec = h
        .app
        .invoke
        .tools
        .iter()
        .position(|t| t.name == "exec")
        .unwrap();
    h.app.invoke.selected = exec;
    h.key(KeyCode::Enter);
    h.key(KeyCode::Down);
    h.key(KeyCode::End);
    h.key(KeyCode::Left);
    h.type_text("whoami");
    // Drawing sends the command to be judged; the job's answer shows under the editor.
    h.screen(130, 24);
    h.pump();
    let check = h.app.invoke.exec_check.clone().unwrap();
    assert_eq!(check.command, "whoami");
    let screen = h.screen(130, 24);
    assert!(
        screen.contains("OpenClaw's exec: ✗ DENIED at allowlist headless ✗ DENIED at allowlist"),
        "{screen}"
    );
    insta::assert_snapshot!("invoke_exec_verdict", screen);
    // Another tool: no verdict line.
    h.key(KeyCode::Esc);
    h.app.invoke.selected = h
        .app
        .invoke
        .tools
        .iter()
        .position(|t| t.name == "read")
        .unwrap();
    h.key(KeyCode::Enter);
    h.screen(130, 24);
    h.pump();
    assert!(h.app.invoke.exec_check.is_none());
}

#[test]
fn the_followed_sessions_permission_mode_and_elevated_level_show_in_its_title() {
    use crate::gateway::ClientEvent;
    let mut h = with_gateway(populated());
    // The same roster, the followed session now patched (`sessions.patch`) on the gateway; a
    // value that is not a plain word is not shown.
    h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
        gateway: "local".into(),
        event: ClientEvent::Subscribed {
            method: "sessions.list".into(),
            payload: serde_json::json!({"sessions": [
                {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct",
                 "updatedAt": 1_795_380_958_000u64, "permissionMode": "guarded",
                 "elevatedLevel": "full"},
                {"key": "agent:main:main", "agentId": "main", "kind": "main",
                 "permissionMode": "full\u{1b}[31m"},
            ]}),
        },
        permit: crate::deck::paced::Permit::none(),
    }));
    h.app.handle_event(AppEvent::SwitchView(ViewId::Sessions));
    let screen = h.screen(120, 40);
    assert!(
        screen.contains("· permission guarded · elevated full"),
        "{screen}"
    );
    assert!(
        !screen.contains("\u{1b}[31m") && !screen.contains("permission full"),
        "{screen}"
    );
    insta::assert_snapshot!("sessions_detail_permission_mode", screen);
}

#[test]
fn a_spawner_picked_in_the_context_editor_shows_what_the_subagent_inherits() {
    let mut h = with_config();
    h.set_context(PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    });
    let exec = |h: &Harness| {
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace("exec"))
            .map(|t| (t.visible, t.removed_by.as_ref().map(|r| r.layer)))
    };
    assert_eq!(exec(&h), Some((true, None)));
    // The editor's last row is the spawner: Up from the first wraps to it; main's session may
    // not run exec, so neither may the ops subagent it spawns.
    h.key(KeyCode::Char('c'));
    h.key(KeyCode::Up);
    h.key(KeyCode::Enter);
    h.type_text("agent:main:main");
    h.key(KeyCode::Enter);
    h.pump();
    assert_eq!(h.app.context.spawned_by.as_deref(), Some("agent:main:main"));
    assert_eq!(exec(&h), Some((false, Some(LayerId::Inherited))));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(
        screen.contains("subagent yes, spawned by agent:main:main"),
        "{screen}"
    );
    assert!(screen.contains(" inh "), "the layer's column: {screen}");
    assert!(screen.contains("hidden@inh"), "{screen}");
    insta::assert_snapshot!("spawned_subagent_context", screen);
}

#[test]
fn a_client_picked_in_the_context_editor_brings_the_tools_its_capabilities_decide() {
    // The seed pack knows no gateway client: the console fixture under the 2026.9 pack.
    let mut h = with_config();
    let config = fixture_config().with_pack("2026.9").expect("2026.9 pack");
    h.app.set_config(config);
    h.pump();
    let trace = |h: &Harness, tool: &str| {
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace(tool))
            .map(|t| (t.visible, t.removed_by.as_ref().map(|r| r.layer)))
    };
    // No client: the turn has none of the tools a client's capabilities decide.
    assert_eq!(trace(&h, "show_widget"), None);
    assert_eq!(trace(&h, "suggest_task"), None);
    // The client row sits above the session's two: Up from the first row wraps to it.
    h.key(KeyCode::Char('c'));
    for _ in 0..3 {
        h.key(KeyCode::Up);
    }
    h.key(KeyCode::Enter);
    h.type_text("openclaw-tui");
    h.key(KeyCode::Enter);
    h.pump();
    assert_eq!(h.app.context.client.as_deref(), Some("openclaw-tui"));
    // The TUI declares task-suggestions but not inline-widgets: suggest_task is the turn's,
    // show_widget is switched off at the owner layer.
    assert_eq!(
        trace(&h, "show_widget"),
        Some((false, Some(LayerId::Owner)))
    );
    assert!(trace(&h, "suggest_task").is_some());
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("client openclaw-tui"), "{screen}");
    assert!(screen.contains("webchat (the client's chat"), "{screen}");
    insta::assert_snapshot!("client_context", screen);
}

#[test]
fn a_gateway_run_or_heartbeat_toggled_in_the_context_editor_changes_the_turn() {
    let mut h = with_config();
    let config = fixture_config().with_pack("2026.9").expect("2026.9 pack");
    h.app.set_config(config);
    h.pump();
    let visible = |h: &Harness, tool: &str| {
        h.app
            .policy
            .resolution
            .as_ref()
            .and_then(|r| r.trace(tool))
            .map(|t| t.visible)
    };
    // A local run: no gateway host, so no github_identity_status at all.
    assert_eq!(visible(&h, "github_identity_status"), None);
    // The gateway row sits above the client's: four rows up from the first, wrapping.
    h.key(KeyCode::Char('c'));
    for _ in 0..4 {
        h.key(KeyCode::Up);
    }
    h.key(KeyCode::Enter);
    h.pump();
    assert!(h.app.context.gateway_run);
    assert_eq!(visible(&h, "github_identity_status"), Some(true));
    let editor = h.screen(120, 24);
    assert!(editor.contains("gateway    yes"), "{editor}");
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("gateway agent method"), "{screen}");
    insta::assert_snapshot!("gateway_run_context", screen);
    // Toggled again: a local run once more.
    h.key(KeyCode::Char('c'));
    for _ in 0..4 {
        h.key(KeyCode::Up);
    }
    h.key(KeyCode::Enter);
    h.pump();
    assert_eq!(visible(&h, "github_identity_status"), None);
    h.key(KeyCode::Esc);
    // A heartbeat's turn, further up: no owner, and the heartbeat's tool switched off
    // while messages.visibleReplies does not hand replies to the message tool.
    h.key(KeyCode::Char('c'));
    for _ in 0..10 {
        h.key(KeyCode::Up);
    }
    h.key(KeyCode::Enter);
    h.pump();
    assert!(h.app.context.heartbeat);
    assert_eq!(visible(&h, "heartbeat_respond"), Some(false));
    assert_eq!(visible(&h, "github_identity_status"), Some(true));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("owner no"), "{screen}");
    assert!(screen.contains("gateway heartbeat"), "{screen}");
    // A scheduled job's turn, the row below: its picker offers the empty cap, then `*`. The
    // job's turn is no heartbeat's, and names no owner.
    // The rows count up from the editor's first, wrapping to its last.
    let pick = |h: &mut Harness, ups: usize, downs: usize| {
        h.key(KeyCode::Char('c'));
        for _ in 0..ups {
            h.key(KeyCode::Up);
        }
        h.key(KeyCode::Enter);
        for _ in 0..downs {
            h.key(KeyCode::Down);
        }
        h.key(KeyCode::Enter);
        h.pump();
    };
    let pick_cap = |h: &mut Harness, downs: usize| pick(h, 9, downs);
    pick_cap(&mut h, 2);
    assert_eq!(h.app.context.scheduled_tools, Some(vec!["*".to_string()]));
    assert!(!h.app.context.heartbeat);
    assert_eq!(visible(&h, "read"), Some(true));
    assert_eq!(visible(&h, "github_identity_status"), Some(true));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("owner yes"), "{screen}");
    assert!(screen.contains("gateway scheduled"), "{screen}");
    assert!(screen.contains("cap *"), "{screen}");
    // Delivered to a webhook (the delivery row, below the cap's; its picker offers none,
    // announce, webhook, and opens on the job's "none"): the job's turn has no message tool.
    assert_eq!(visible(&h, "message"), Some(true));
    pick(&mut h, 8, 2);
    assert_eq!(
        h.app.context.scheduled_delivery,
        Some(crate::context::ScheduledDelivery::Webhook)
    );
    assert_eq!(visible(&h, "message"), Some(false));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("delivery webhook"), "{screen}");
    // At 80 columns the webhook takes the channel's place and the job's row fits whole.
    let narrow = h.screen(80, 24);
    assert!(narrow.contains("· delivery webhook ·"), "{narrow}");
    assert!(narrow.contains("gateway scheduled · cap *"), "{narrow}");
    // Made by an agent (the row below the delivery's; its picker offers the agents' main
    // sessions): the bar names the session it was made in.
    pick(&mut h, 7, 1);
    assert_eq!(h.app.context.job_owner.as_deref(), Some("agent:main:main"));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("made in agent:main:main"), "{screen}");
    // At 80 columns the maker's key does not fit beside the cap: it goes whole to a row of
    // its own, under the others (never cut at the edge).
    let narrow = h.screen(80, 24);
    let rows: Vec<&str> = narrow.lines().collect();
    let made_in = rows
        .iter()
        .position(|row| row.trim_start().starts_with("made in agent:main:main"))
        .unwrap_or_else(|| panic!("a row of its own for the maker: {narrow}"));
    assert!(rows[made_in - 1].contains("cap *"), "{narrow}");
    insta::assert_snapshot!(
        "scheduled_job_made_in_at_80_columns",
        rows[..made_in + 2].join("\n")
    );
    // Over which channel its maker wrote (two rows below; its picker offers the channels):
    // the editor's row shows it, and clearing the maker clears it.
    pick(&mut h, 5, 1);
    let over = h
        .app
        .context
        .job_owner_channel
        .clone()
        .expect("a channel picked");
    let editor = h.screen(120, 24);
    assert!(editor.contains(&format!("made over  {over}")), "{editor}");
    h.key(KeyCode::Esc);
    // The empty cap: the job's turn builds no tool.
    pick_cap(&mut h, 1);
    assert_eq!(h.app.context.scheduled_tools, Some(Vec::new()));
    assert_eq!(visible(&h, "read"), Some(false));
    h.key(KeyCode::Esc);
    let screen = h.screen(120, 24);
    assert!(screen.contains("cap empty cap (no tool)"), "{screen}");
    insta::assert_snapshot!("scheduled_empty_cap_context", screen);
}

/// A scheduled job's turn shows the user message OpenClaw sends as the job's turn, as it would
/// run on the console's clock, with placeholders for the job no one named.
#[test]
fn prompt_view_shows_a_scheduled_jobs_user_message() {
    let mut h = harness();
    let text = r#"{ agents: { defaults: { userTimezone: "UTC" }, list: [{ id: "main" }] },
        tools: { toolSearch: false } }"#;
    let config = crate::config::load_from_str(text, "job.json5")
        .expect("config")
        .with_pack("2026.9")
        .expect("pack");
    h.app.set_config(config);
    h.set_context(PolicyContext {
        scheduled_tools: Some(vec!["read".into()]),
        ..Default::default()
    });
    h.app.handle_event(AppEvent::SwitchView(ViewId::Prompt));
    h.pump();
    let text: Vec<String> = h.app.prompt.lines().iter().map(|l| l.to_string()).collect();
    let at = text
        .iter()
        .position(|l| l.starts_with("user message · the scheduled job's turn · "))
        .unwrap_or_else(|| panic!("no user message: {text:?}"));
    // Up to the Runtime line, whose host facts differ between machines.
    let shown: Vec<&str> = text[at + 1..]
        .iter()
        .map(String::as_str)
        .take_while(|l| !l.starts_with("Runtime:"))
        .collect();
    assert_eq!(shown[0], "[cron:<job-id> <job-name>] <job-message>");
    insta::assert_snapshot!("prompt_scheduled_user_message", shown.join("\n"));
    // Any other turn has none.
    h.set_context(PolicyContext::default());
    h.pump();
    let text: Vec<String> = h.app.prompt.lines().iter().map(|l| l.to_string()).collect();
    assert!(
        !text.iter().any(|l| l.starts_with("user message")),
        "{text:?}"
    );
}
