//! Console benchmarks, each printed with a baseline measured in the same run:
//! 1. Router view render at 200×60 with 1,000,000 retained lines (target < 2 ms per frame),
//!    against rendering every line (a Paragraph of the whole buffer, scrolled to the bottom).
//! 2. Key press → next frame while a child floods output through the real RouterService
//!    (target median < 50 ms), against the same with no output.
//! 3. Idle: frames drawn over 2 s of idle (target 0) and CPU time used, against a bare sleep.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use clawdeck::tui::app::{App, draw, run_loop};
use clawdeck::tui::clock::{FixedClock, SystemClock};
use clawdeck::tui::event::{AppEvent, AppEventSender};
use clawdeck::tui::frame::FrameRequester;
use clawdeck::tui::keymap::Action;
use clawdeck::tui::stream::{StreamBuffer, StreamKind};
use clawdeck::tui::views::ViewId;
use clawdeck::tui::views::router::RunEntry;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Widget};

const LINES: usize = 1_000_000;

fn big_buffer() -> StreamBuffer {
    let mut buf = StreamBuffer::new(LINES);
    for i in 0..LINES {
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

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench_render() {
    let (tx, _rx) = AppEventSender::channel();
    let clock = FixedClock::at_epoch_2026();
    let mut app = App::new(tx, FrameRequester::test_dummy(), Arc::new(clock));
    app.view = ViewId::Router;
    let started = SystemTime::now();
    let t = Instant::now();
    let buffer = big_buffer();
    println!("filled {} lines in {:?}", buffer.retained(), t.elapsed());
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
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    // Warm up, then scroll a line up / down each frame so every frame has new content.
    draw(&mut app, &mut terminal, false).expect("draw");
    let frames = 500;
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let action = if i % 2 == 0 {
            Action::PageUp
        } else {
            Action::PageDown
        };
        app.handle_action(action);
        let t = Instant::now();
        draw(&mut app, &mut terminal, false).expect("draw");
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>() / frames as u32;
    let med = median(&mut times);

    // Baseline: build and render every line (what a view without slicing does).
    let lines = &app.router.runs[0].buffer;
    let mut base = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let text: Text = lines
            .slice(lines.first_seq(), LINES)
            .iter()
            .map(|l| Line::raw(l.text.to_string()))
            .collect();
        let scroll = (LINES as u16).saturating_sub(58);
        let mut out = Buffer::empty(Rect::new(0, 0, 200, 60));
        Paragraph::new(text)
            .scroll((scroll, 0))
            .render(out.area, &mut out);
        base.push(t.elapsed());
    }
    let base_med = median(&mut base);
    println!(
        "router view render 200x60, {LINES} lines retained: mean {:.3} ms, median {:.3} ms per frame (target < 2 ms) | \
         baseline rendering every line: {:.1} ms | {:.0}x faster",
        mean.as_secs_f64() * 1e3,
        med.as_secs_f64() * 1e3,
        base_med.as_secs_f64() * 1e3,
        base_med.as_secs_f64() / med.as_secs_f64().max(1e-9)
    );
}

/// Times key → next frame `samples` times on a running App loop; with `flood`, a child writes
/// output as fast as it can through the real router the whole time.
fn key_latency(flood: bool, samples: usize) -> Vec<Duration> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let dir = tempfile::tempdir().expect("tempdir");
        let script = dir.path().join("flood-openclaw");
        std::fs::write(&script, "#!/bin/sh\nexec yes 'flood: the remote agent prints a lot of output, \x1b[32mfast\x1b[0m, 0123456789'\n")
            .expect("script");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx.clone());
        let mut app = App::new(tx.clone(), frames, Arc::new(SystemClock));
        app.view = ViewId::Router;
        let settings = clawdeck::config::settings::RouterSettings {
            bin: script.display().to_string(),
            timeout_seconds: 60,
            ..Default::default()
        };
        let env: clawdeck::router::service::EnvLookup =
            Arc::new(|k: &str| if k == "OPENCLAW_BIN" { None } else { std::env::var(k).ok() });
        let router = clawdeck::router::RouterService::with_env(settings, env);
        clawdeck::tui::runtime::forward_router_events(router.subscribe(), tx.clone());
        app.services.router = Some(router.clone());
        let stats = Arc::clone(&app.stats);
        let ui = tokio::spawn(async move {
            let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
            let _ = run_loop(&mut app, &mut terminal, &mut rx, false).await;
            app.shutdown(&mut rx).await;
        });
        let mut run_id = None;
        if flood {
            let handle = router.start(clawdeck::router::RouterRequest::new("flood").with_agent("bench")).expect("run starts");
            run_id = Some(handle.run_id);
            tokio::time::sleep(Duration::from_millis(500)).await;
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut out = Vec::with_capacity(samples);
        for i in 0..samples {
            let keys = stats.keys_handled.load(Ordering::SeqCst);
            let code = if i % 2 == 0 { KeyCode::PageUp } else { KeyCode::PageDown };
            let t = Instant::now();
            tx.send(AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            if std::env::var_os("BENCH_DEBUG").is_some() {
                eprintln!("sample {i}: keys {keys} frames {}", stats.frames_drawn.load(Ordering::SeqCst));
            }
            while stats.keys_handled.load(Ordering::SeqCst) == keys {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            if std::env::var_os("BENCH_DEBUG").is_some() {
                eprintln!("  key handled after {:?}", t.elapsed());
            }
            // The first frame completed after the key was handled shows it.
            let drawn = stats.frames_at_last_key.load(Ordering::SeqCst);
            let mut polls = 0u64;
            while stats.frames_drawn.load(Ordering::SeqCst) <= drawn {
                tokio::time::sleep(Duration::from_millis(1)).await;
                polls += 1;
            }
            if std::env::var_os("BENCH_DEBUG").is_some() {
                eprintln!("  frame after {:?} ({polls} polls)", t.elapsed());
            }
            out.push(t.elapsed());
            let pause = Instant::now();
            tokio::time::sleep(Duration::from_millis(20)).await;
            if std::env::var_os("BENCH_DEBUG").is_some() {
                eprintln!("  pause took {:?}", pause.elapsed());
            }
        }
        if let Some(id) = run_id {
            router.kill(id);
        }
        tx.send(AppEvent::Quit);
        let _ = tokio::time::timeout(Duration::from_secs(10), ui).await;
        out
    })
}

fn bench_key_latency() {
    let mut idle = key_latency(false, 40);
    let mut flood = key_latency(true, 60);
    let idle_med = median(&mut idle);
    let flood_med = median(&mut flood);
    let p90 = flood[flood.len() * 9 / 10];
    println!(
        "key press → next frame while a child floods output: median {:.2} ms, p90 {:.2} ms (target median < 50 ms) | \
         baseline without output: median {:.2} ms | ratio {:.2}",
        flood_med.as_secs_f64() * 1e3,
        p90.as_secs_f64() * 1e3,
        idle_med.as_secs_f64() * 1e3,
        flood_med.as_secs_f64() / idle_med.as_secs_f64().max(1e-9)
    );
}

fn cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn bench_idle() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (frames_idle, cpu_idle, cpu_sleep) = runtime.block_on(async {
        // Baseline: the same runtime doing nothing.
        let c0 = cpu_time();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let cpu_sleep = cpu_time() - c0;

        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx.clone());
        let mut app = App::new(tx.clone(), frames, Arc::new(SystemClock));
        if let Ok(config) = clawdeck::config::load_demo() {
            app.set_config(config);
        }
        app.status = None;
        clawdeck::tui::runtime::spawn_ticker(tx.clone());
        let stats = Arc::clone(&app.stats);
        let ui = tokio::spawn(async move {
            let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
            let _ = run_loop(&mut app, &mut terminal, &mut rx, false).await;
        });
        // Let the first frame happen, then count frames over 2 s of idle.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let f0 = stats.frames_drawn.load(Ordering::SeqCst);
        let c0 = cpu_time();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let cpu_idle = cpu_time() - c0;
        let frames_idle = stats.frames_drawn.load(Ordering::SeqCst) - f0;
        tx.send(AppEvent::Quit);
        let _ = ui.await;
        (frames_idle, cpu_idle, cpu_sleep)
    });
    println!(
        "idle for 2 s: {frames_idle} frames drawn (target 0), CPU {:.2} ms | baseline bare runtime sleep: CPU {:.2} ms",
        cpu_idle.as_secs_f64() * 1e3,
        cpu_sleep.as_secs_f64() * 1e3
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a bare word picks one benchmark (render, idle, keys).
    let only = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    if only.is_empty() || only == "render" {
        bench_render();
    }
    if only.is_empty() || only == "idle" {
        bench_idle();
    }
    if only.is_empty() || only == "keys" {
        bench_key_latency();
    }
}
