//! A key under a flood of router output (issue 23): the console's work per key is counted, not
//! timed. A key queued behind a backlog of output, a skipped-events mark and a frame is handled
//! before any of that output is sanitized and before the frame, and a flood asks for one frame
//! per frame, not one per chunk.

use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::harness::Harness;
use crate::deck::paced::Permit;
use crate::event::{AppEvent, CoreEvent};
use crate::router::{Mode, RouterEvent, RouterEventKind, StdStream, TransportKind};
use crate::views::ViewId;

/// A harness on the Router view following run 1, live.
fn router_running() -> Harness {
    let mut h = Harness::new();
    h.app.view = ViewId::Router;
    let started_at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    h.app.handle_event(router(
        1,
        RouterEventKind::Started {
            argv: vec!["openclaw".into(), "agent".into()],
            transport: TransportKind::Cli,
            agent: Some("ops".into()),
            to: None,
            message: "flood".into(),
            mode: Mode::ReadOnly,
            timeout_seconds: 45,
            started_at,
            deadline: started_at + Duration::from_secs(45),
        },
    ));
    h
}

fn router(run_id: u64, kind: RouterEventKind) -> AppEvent {
    AppEvent::Core(CoreEvent::Router(
        RouterEvent { run_id, kind },
        Permit::none(),
    ))
}

/// A chunk of `lines` coloured lines, as a flooding child writes them.
fn chunk(first: usize, lines: usize) -> AppEvent {
    let text: String = (first..first + lines)
        .map(|i| format!("flood {i}: the remote agent prints a lot, \x1b[32mfast\x1b[0m\n"))
        .collect();
    router(
        1,
        RouterEventKind::Chunk {
            stream: StdStream::Stdout,
            at: SystemTime::UNIX_EPOCH,
            elapsed: Duration::ZERO,
            bytes: text.into_bytes(),
        },
    )
}

fn key(code: KeyCode) -> AppEvent {
    AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[tokio::test]
async fn a_key_behind_a_flood_a_lag_and_a_frame_is_handled_before_any_of_them() {
    let mut h = router_running();
    // What the channel holds when the key comes: the paced backlog of output (32 chunks of
    // 1,000 lines), the broadcast's lag, the frame the output asked for, then the key.
    for i in 0..32 {
        h.app.tx.send(chunk(i * 1000, 1000));
    }
    h.app.tx.send(AppEvent::Core(CoreEvent::RouterLagged(500)));
    h.app.tx.send(AppEvent::Draw);
    h.app.tx.send(key(KeyCode::PageUp));
    h.app.tx.send(AppEvent::Quit);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    crate::event_loop::run_loop(&mut h.app, &mut terminal, &mut h.rx, false)
        .await
        .unwrap();
    let stats = &h.app.stats;
    assert_eq!(stats.keys_handled.load(Ordering::SeqCst), 1);
    assert_eq!(
        stats.output_pieces_at_last_key.load(Ordering::SeqCst),
        0,
        "no output was sanitized before the key was handled"
    );
    assert_eq!(
        stats.frames_at_last_key.load(Ordering::SeqCst),
        0,
        "the frame waited for the key, so it shows it"
    );
    // Nothing was lost: the output, then the mark, in their order.
    h.app.router.flush_pending();
    let run = h.app.router.selected_run().unwrap();
    assert_eq!(run.buffer.output_lines(), 32_000);
    let last = run
        .buffer
        .slice(run.buffer.end_seq() - 2, 2)
        .into_iter()
        .map(|l| l.text.to_string())
        .collect::<Vec<_>>();
    assert!(last[0].starts_with("flood 31999:"), "{last:?}");
    assert!(last[1].contains("500 events skipped here"), "{last:?}");
}

#[test]
fn a_flood_asks_for_one_frame_not_one_per_chunk() {
    let mut h = router_running();
    let before = h.app.frames.requests();
    for i in 0..100 {
        h.app.handle_event(chunk(i * 10, 10));
    }
    assert_eq!(h.app.frames.requests() - before, 1);
    // Once the queue is empty, the next chunk asks again.
    h.app.router.flush_pending();
    h.app.handle_event(chunk(1000, 10));
    assert_eq!(h.app.frames.requests() - before, 2);
}

#[test]
fn a_large_chunk_is_sanitized_in_whole_line_pieces_within_the_budget() {
    let mut h = router_running();
    // One read of 4,000 lines (~230 KB): a zero budget sanitizes one piece of it.
    h.app.handle_event(chunk(0, 4000));
    h.app.router.process_pending(Duration::ZERO);
    assert_eq!(h.app.router.sanitized_pieces, 1);
    assert!(h.app.router.has_pending(), "the rest of the chunk waits");
    let run = h.app.router.selected_run().unwrap();
    let kept = run.buffer.output_lines();
    assert!(kept > 0 && kept < 4000, "{kept} lines in the first piece");
    let partial = run.buffer.display_len() as u64 - run.buffer.retained() as u64;
    assert_eq!(partial, 0, "a piece ends at a line's end");
    h.app.router.flush_pending();
    let run = h.app.router.selected_run().unwrap();
    assert_eq!(run.buffer.output_lines(), 4000);
}

#[tokio::test]
async fn a_key_is_drawn_in_its_own_turn_without_waiting_for_the_frame_scheduler() {
    let mut h = router_running();
    h.app.handle_event(chunk(0, 100));
    h.app.router.flush_pending();
    // The test's frame requester never sends a Draw: the only frame is the key's own.
    h.app.tx.send(key(KeyCode::PageUp));
    let stats = std::sync::Arc::clone(&h.app.stats);
    let tx = h.app.tx.clone();
    tokio::spawn(async move {
        while stats.frames_drawn.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        tx.send(AppEvent::Quit);
    });
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let ended = tokio::time::timeout(
        Duration::from_secs(10),
        crate::event_loop::run_loop(&mut h.app, &mut terminal, &mut h.rx, false),
    )
    .await;
    assert!(ended.is_ok(), "no frame was drawn for the key");
    assert_eq!(h.app.stats.frames_drawn.load(Ordering::SeqCst), 1);
    assert_eq!(h.app.stats.frames_at_last_key.load(Ordering::SeqCst), 0);
}
