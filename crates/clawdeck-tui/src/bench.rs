//! The console workloads of `benches/tui.rs` and `benches/gateway.rs`. Not an API: the console's
//! types are crate-private, so the benches reach them only through these functions, which build
//! and time each workload inside the crate and return the raw timings; the benches take the
//! medians, measure their baselines and print the ratios.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Widget};

use super::app::App;
use super::clock::{FixedClock, SystemClock};
use super::event::{AppEvent, AppEventSender, CoreEvent};
use super::event_loop::{draw, run_loop};
use super::frame::FrameRequester;
use super::keymap::{Action, Keymap};
use super::stream::{StreamBuffer, StreamKind};
use super::views::ViewCtx;
use super::views::ViewId;
use super::views::router::RunEntry;
use super::views::sessions::SessionsView;
use crate::gateway::{ClientEvent, GatewayClient};

/// Timings of the Router view drawing one run with many retained lines.
pub struct RouterRender {
    /// How long filling the run's line buffer took.
    pub fill: Duration,
    /// Lines the buffer retained.
    pub retained: usize,
    /// One entry per frame, each after a PageUp or PageDown.
    pub frames: Vec<Duration>,
    /// The baseline, three times: a Paragraph of every line, scrolled to the bottom.
    pub baseline: Vec<Duration>,
}

fn big_buffer(lines: usize) -> StreamBuffer {
    let mut buf = StreamBuffer::new(lines);
    for i in 0..lines {
        if i % 10 == 0 {
            buf.push_clean(
                StreamKind::Stdout,
                &format!(
                    "\x1b[32mok\x1b[0m step {i}: \x1b[1mbuilding\x1b[0m module {}",
                    i % 977
                ),
            );
        } else if i % 7 == 0 {
            buf.push_clean(
                StreamKind::Stderr,
                &format!(
                    "warning {i}: something odd in file_{}.rs line {}",
                    i % 97,
                    i % 1000
                ),
            );
        } else {
            buf.push_clean(
                StreamKind::Stdout,
                &format!(
                    "line {i}: the remote agent is working through the logs of day {}",
                    i % 31
                ),
            );
        }
    }
    buf
}

/// The Router view at 200×60 with a run of `lines` retained lines, scrolled a page up and down
/// for `frames` frames (so every frame has new content), and the baseline of rendering every
/// line.
pub fn router_view_render(lines: usize, frames: usize) -> Result<RouterRender, String> {
    let (tx, _rx) = AppEventSender::channel();
    let clock = FixedClock::at_epoch_2026();
    let config = crate::config::load_demo().map_err(|e| e.to_string())?;
    let deck = crate::app::in_memory_deck(config);
    let mut app = App::new(deck, tx, FrameRequester::test_dummy(), Arc::new(clock));
    app.view = ViewId::Router;
    let started = SystemTime::now();
    let t = Instant::now();
    let buffer = big_buffer(lines);
    let fill = t.elapsed();
    let retained = buffer.retained();
    app.router.runs.push(RunEntry {
        run_id: 1,
        agent: Some("ops".into()),
        to: None,
        message: "summarise the logs".into(),
        started_at: started,
        deadline: started + Duration::from_secs(45),
        timeout_seconds: 45,
        status: None,
        exit: None,
        duration: None,
        buffer,
    });
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).map_err(|e| e.to_string())?;
    // Warm up, then scroll a line up / down each frame so every frame has new content.
    draw(&mut app, &mut terminal, false).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let action = if i % 2 == 0 {
            Action::PageUp
        } else {
            Action::PageDown
        };
        app.handle_action(action);
        let t = Instant::now();
        draw(&mut app, &mut terminal, false).map_err(|e| e.to_string())?;
        times.push(t.elapsed());
    }

    // Baseline: build and render every line (what a view without slicing does).
    let retained_lines = &app.router.runs[0].buffer;
    let mut baseline = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let text: Text = retained_lines
            .slice(retained_lines.first_seq(), lines)
            .iter()
            .map(|l| Line::raw(l.text.to_string()))
            .collect();
        let scroll = (lines as u16).saturating_sub(58);
        let mut out = Buffer::empty(Rect::new(0, 0, 200, 60));
        Paragraph::new(text)
            .scroll((scroll, 0))
            .render(out.area, &mut out);
        baseline.push(t.elapsed());
    }
    Ok(RouterRender {
        fill,
        retained,
        frames: times,
        baseline,
    })
}

/// Times key → next frame `samples` times on a running App loop whose router runs
/// `openclaw_bin`; with `flood`, a run of it (a script that writes output as fast as it can)
/// goes through the real router the whole time.
pub fn key_to_frame(
    openclaw_bin: &Path,
    flood: bool,
    samples: usize,
) -> Result<Vec<Duration>, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx.clone());
        let config = crate::config::load_demo().map_err(|e| e.to_string())?;
        let settings = crate::config::settings::RouterSettings {
            bin: openclaw_bin.display().to_string(),
            timeout_seconds: 60,
            ..Default::default()
        };
        let env: crate::router::service::EnvLookup = Arc::new(|k: &str| {
            if k == "OPENCLAW_BIN" {
                None
            } else {
                std::env::var(k).ok()
            }
        });
        let router = crate::router::RouterService::with_env(settings, env);
        let deck = crate::deck::Deck::with_router(config, router.clone());
        super::runtime::forward_deck_events(&deck, tx.clone());
        let mut app = App::new(deck, tx.clone(), frames, Arc::new(SystemClock));
        app.view = ViewId::Router;
        let stats = Arc::clone(&app.stats);
        let ui = tokio::spawn(async move {
            let Ok(mut terminal) = Terminal::new(TestBackend::new(200, 60));
            let _ = run_loop(&mut app, &mut terminal, &mut rx, false).await;
            app.shutdown(&mut rx).await;
        });
        let mut run_id = None;
        if flood {
            let handle = router
                .start(crate::router::RouterRequest::new("flood").with_agent("bench"))
                .map_err(|e| format!("the flood run did not start: {}", e.operator))?;
            run_id = Some(handle.run_id);
            tokio::time::sleep(Duration::from_millis(500)).await;
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let debug = std::env::var_os("BENCH_DEBUG").is_some();
        let mut out = Vec::with_capacity(samples);
        for i in 0..samples {
            let keys = stats.keys_handled.load(Ordering::SeqCst);
            let code = if i % 2 == 0 {
                KeyCode::PageUp
            } else {
                KeyCode::PageDown
            };
            let t = Instant::now();
            tx.send(AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            if debug {
                eprintln!(
                    "sample {i}: keys {keys} frames {}",
                    stats.frames_drawn.load(Ordering::SeqCst)
                );
            }
            while stats.keys_handled.load(Ordering::SeqCst) == keys {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            if debug {
                eprintln!("  key handled after {:?}", t.elapsed());
            }
            // The first frame completed after the key was handled shows it.
            let drawn = stats.frames_at_last_key.load(Ordering::SeqCst);
            let mut polls = 0u64;
            while stats.frames_drawn.load(Ordering::SeqCst) <= drawn {
                tokio::time::sleep(Duration::from_millis(1)).await;
                polls += 1;
            }
            if debug {
                eprintln!("  frame after {:?} ({polls} polls)", t.elapsed());
            }
            out.push(t.elapsed());
            let pause = Instant::now();
            tokio::time::sleep(Duration::from_millis(20)).await;
            if debug {
                eprintln!("  pause took {:?}", pause.elapsed());
            }
        }
        if let Some(id) = run_id {
            router.kill(id);
        }
        tx.send(AppEvent::Quit);
        let _ = tokio::time::timeout(Duration::from_secs(10), ui).await;
        Ok(out)
    })
}

/// The console on the demo config, idle on a running loop with its ticker: lets the first
/// frame happen, then counts the frames drawn while `measure` runs; returns them with what
/// `measure` returned. Call it inside a Tokio runtime.
pub async fn idle_console<T>(measure: impl Future<Output = T>) -> (u64, T) {
    let (tx, mut rx) = AppEventSender::channel();
    let frames = FrameRequester::spawn(tx.clone());
    let config = crate::config::load_demo().unwrap_or_else(|e| panic!("the demo config: {e}"));
    let mut app = App::new(
        crate::app::in_memory_deck(config),
        tx.clone(),
        frames,
        Arc::new(SystemClock),
    );
    app.show_deck();
    app.status = None;
    super::runtime::spawn_ticker(tx.clone());
    let stats = Arc::clone(&app.stats);
    let ui = tokio::spawn(async move {
        let Ok(mut terminal) = Terminal::new(TestBackend::new(160, 48));
        let _ = run_loop(&mut app, &mut terminal, &mut rx, false).await;
    });
    // Let the first frame happen, then count frames while `measure` runs.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let f0 = stats.frames_drawn.load(Ordering::SeqCst);
    let measured = measure.await;
    let frames_idle = stats.frames_drawn.load(Ordering::SeqCst) - f0;
    tx.send(AppEvent::Quit);
    let _ = ui.await;
    (frames_idle, measured)
}

/// The console's loop in miniature, over the console's own plumbing: `client`'s events go
/// through `runtime::forward_gateway_events` (paced: a bounded number in the console's
/// channel) into the one event channel that also carries the keys; each event goes into the
/// Sessions view (the followed session's transcript), a key moves the selection and draws a
/// frame at once, and the flood itself is drawn at most every 16 ms (the 60 fps cap). Runs
/// until `events` gateway events arrived; returns how long that took and each key's latency
/// to its frame. Closes the client.
pub async fn sessions_view_flood(
    client: GatewayClient,
    gateway: &str,
    events: usize,
) -> Result<(Duration, Vec<Duration>), String> {
    use std::sync::Mutex;

    let (tx, mut rx) = AppEventSender::channel();
    feed_gateway_events(&client, gateway, tx.clone());
    let sent_at: Arc<Mutex<std::collections::VecDeque<Instant>>> = Arc::default();
    let stamps = sent_at.clone();
    let keys = press_down_every_25ms(tx, stamps);
    let mut view = sessions_view_with_two_sessions(gateway);
    let (app_tx, _app_rx) = AppEventSender::channel();
    let clock = FixedClock::at_epoch_2026();
    let keymap = Keymap::default();
    let ctx = ViewCtx {
        tx: &app_tx,
        clock: &clock,
        keymap: &keymap,
    };
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).map_err(|e| e.to_string())?;
    let mut draw = |view: &mut SessionsView| -> Result<(), String> {
        terminal
            .draw(|f| view.render(f.area(), f.buffer_mut(), &ctx))
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let start = Instant::now();
    let mut latencies = Vec::new();
    let mut last_frame = Instant::now();
    let mut dirty = false;
    let mut n = 0;
    let mut down = true;
    while n < events {
        match rx.recv().await {
            // The permit goes back when the event is dropped, after it is applied.
            Some(AppEvent::Core(CoreEvent::Gateway {
                gateway,
                event,
                permit: _applied,
            })) => {
                if matches!(event, ClientEvent::Event(_)) {
                    n += 1;
                }
                dirty |= view.apply(&gateway, &event).view;
            }
            Some(AppEvent::Key(_)) => {
                // Down and back up: the followed session changes and changes back.
                let action = if down { Action::Down } else { Action::Up };
                down = !down;
                view.handle_action(action, &ctx);
                draw(&mut view)?;
                if let Some(sent) = sent_at
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .pop_front()
                {
                    latencies.push(sent.elapsed());
                }
                last_frame = Instant::now();
                dirty = false;
            }
            Some(_) => {}
            None => return Err(format!("the console channel ended after {n}")),
        }
        if dirty && last_frame.elapsed() >= Duration::from_millis(16) {
            draw(&mut view)?;
            last_frame = Instant::now();
            dirty = false;
        }
    }
    let took = start.elapsed();
    keys.abort();
    client.close();
    Ok((took, latencies))
}

/// Feeds `client`'s events, named by `gateway`, through the console's paced forwarding into
/// `tx`.
fn feed_gateway_events(client: &GatewayClient, gateway: &str, tx: AppEventSender) {
    let (feed_tx, feed_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut client_events = client.events();
    let name = gateway.to_string();
    tokio::spawn(async move {
        while let Some(e) = client_events.recv().await {
            if feed_tx.send((name.clone(), e)).is_err() {
                return;
            }
        }
    });
    super::runtime::forward_gateway_events(feed_rx, tx);
}

/// Sends a Down key every 25 ms, stamping each in `stamps` as it goes, until the channel
/// closes.
fn press_down_every_25ms(
    tx: AppEventSender,
    stamps: Arc<std::sync::Mutex<std::collections::VecDeque<Instant>>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(25)).await;
            stamps
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push_back(Instant::now());
            if !tx.send(AppEvent::Key(KeyEvent::from(KeyCode::Down))) {
                return;
            }
        }
    })
}

/// A Sessions view on `gateway` listing two sessions, the first with an active run.
fn sessions_view_with_two_sessions(gateway: &str) -> SessionsView {
    let mut view = SessionsView::attaching(&[gateway.to_string()]);
    view.apply(
        gateway,
        &ClientEvent::Subscribed {
            method: "sessions.list".into(),
            payload: serde_json::json!({"sessions": [
                {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "hasActiveRun": true, "updatedAt": 2},
                {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
            ]}),
        },
    );
    view
}
