//! Wiring for a real terminal: the tokio runtime, the input reader thread, the once-a-second
//! tick, the config file watcher, the core event forwarders, and the terminal guard.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crossterm::event::Event;
use tokio::sync::broadcast;

use super::app::App;
use super::clock::SystemClock;
use super::event::{AppEvent, AppEventSender, CoreEvent};
use super::frame::FrameRequester;
use super::terminal::TerminalGuard;
use crate::cli::Cli;
use crate::queue::{LANE_CRON, LANE_MAIN, LANE_NESTED, LANE_SUBAGENT, LaneLimits, LaneQueue};
use crate::tools::ToolRuntime;

/// How often the config file's mtime is checked.
pub const CONFIG_POLL: Duration = Duration::from_millis(500);

pub fn run(cli: &Cli) -> u8 {
    let config = match crate::config::load(cli.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("clawdeck: {e}");
            return crate::cli::exit::USAGE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("clawdeck: cannot start the async runtime: {e}");
            return crate::cli::exit::TOOL_ERROR;
        }
    };
    let code = runtime.block_on(async move {
        let mut guard = match TerminalGuard::enter() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("clawdeck: cannot set up the terminal: {e}");
                return crate::cli::exit::TOOL_ERROR;
            }
        };
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx.clone());
        let mut app = App::new(tx.clone(), frames, Arc::new(SystemClock));
        app.context = cli.context.to_context();
        app.config_arg = cli.config.clone();
        // One router service for the Router view and for clawbot_router calls made through the
        // tool runtime (Invoke view), so both show the same runs.
        let tool_runtime = ToolRuntime::new(&config);
        let router = tool_runtime.router.clone();
        app.router.load_history(router.runs());
        let pacer = Arc::new(tokio::sync::Semaphore::new(ROUTER_EVENTS_IN_FLIGHT));
        app.router_pacer = Some(Arc::clone(&pacer));
        forward_router_events(router.subscribe(), tx.clone(), pacer);
        app.services.router = Some(router);
        let limits = LaneLimits::from_settings(&config.settings.lanes, &config.raw);
        let queue = LaneQueue::new(limits.clone());
        for lane in [LANE_MAIN, LANE_SUBAGENT, LANE_CRON, LANE_NESTED] {
            // Make the standard lanes visible before any work arrives.
            queue.set_limit(lane, limits.limit_for(lane));
        }
        forward_queue_events(queue.subscribe(), tx.clone());
        app.queue.warn_after = limits.warn_after;
        app.services.queue = Some(queue);
        app.services.tool_runtime = Some(tool_runtime);
        app.refresh_queue();
        watch_config(watched_paths(&config), tx.clone());
        app.set_config(config);
        spawn_input_reader(tx.clone());
        spawn_ticker(tx.clone());
        let result = super::app::run_loop(&mut app, &mut guard.terminal, &mut rx, true).await;
        app.shutdown(&mut rx).await;
        drop(guard);
        match result {
            Ok(()) => crate::cli::exit::OK,
            Err(e) => {
                eprintln!("clawdeck: terminal error: {e}");
                crate::cli::exit::TOOL_ERROR
            }
        }
    });
    // Reader threads block in read(); the runtime must not wait for them.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

/// Terminal input on a plain thread: `read()` blocks, so an idle console never wakes up.
fn spawn_input_reader(tx: AppEventSender) {
    std::thread::spawn(move || {
        loop {
            let event = match crossterm::event::read() {
                Ok(Event::Key(k)) => AppEvent::Key(k),
                Ok(Event::Mouse(m)) => AppEvent::Mouse(m),
                Ok(Event::Resize(w, h)) => AppEvent::Resize(w, h),
                Ok(Event::Paste(p)) => AppEvent::Paste(p),
                Ok(_) => continue,
                Err(_) => {
                    tx.send(AppEvent::InputClosed);
                    return;
                }
            };
            if !tx.send(event) {
                return;
            }
        }
    });
}

/// A tick each second; the App redraws on it only when something time-dependent is on screen.
pub fn spawn_ticker(tx: AppEventSender) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(Duration::from_secs(1));
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            interval.tick().await;
            if !tx.send(AppEvent::Tick) {
                return;
            }
        }
    });
}

/// Router events in flight to the App at most. A child flooding output must never bury key
/// presses in the one channel: past this the forwarder stops reading, the router's broadcast
/// lags, and the App is told how many events it skipped.
pub const ROUTER_EVENTS_IN_FLIGHT: usize = 32;

/// Forwards router events; `pacer` holds the in-flight permits the App gives back as it handles
/// each event.
pub fn forward_router_events(
    mut events: broadcast::Receiver<crate::router::RouterEvent>,
    tx: AppEventSender,
    pacer: Arc<tokio::sync::Semaphore>,
) {
    tokio::spawn(async move {
        loop {
            match pacer.acquire().await {
                Ok(permit) => permit.forget(),
                Err(_) => return,
            }
            let event = match events.recv().await {
                Ok(ev) => CoreEvent::Router(ev),
                Err(broadcast::error::RecvError::Lagged(n)) => CoreEvent::RouterLagged(n),
                Err(broadcast::error::RecvError::Closed) => return,
            };
            if !tx.send(AppEvent::Core(event)) {
                return;
            }
        }
    });
}

pub fn forward_queue_events(
    mut events: broadcast::Receiver<crate::queue::QueueEvent>,
    tx: AppEventSender,
) {
    tokio::spawn(async move {
        loop {
            let event = match events.recv().await {
                Ok(ev) => CoreEvent::Queue(ev),
                Err(broadcast::error::RecvError::Lagged(n)) => CoreEvent::QueueLagged(n),
                Err(broadcast::error::RecvError::Closed) => return,
            };
            if !tx.send(AppEvent::Core(event)) {
                return;
            }
        }
    });
}

/// The OpenClaw config file and clawdeck's settings file next to it (even if absent: creating it
/// counts as a change).
pub fn watched_paths(config: &crate::config::LoadedConfig) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(p) = &config.path {
        paths.push(p.clone());
        if let Some(dir) = p.parent() {
            paths.push(dir.join(crate::config::SETTINGS_FILE));
        }
    }
    paths
}

fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Polls the files' mtime and size; a change sends `ConfigFileChanged` (no extra crate needed).
pub fn watch_config(paths: Vec<PathBuf>, tx: AppEventSender) {
    if paths.is_empty() {
        return;
    }
    tokio::spawn(async move {
        let mut last: Vec<_> = paths.iter().map(|p| stamp(p)).collect();
        let mut interval = tokio::time::interval(CONFIG_POLL);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            interval.tick().await;
            let now: Vec<_> = paths.iter().map(|p| stamp(p)).collect();
            if now != last {
                last = now;
                if !tx.send(AppEvent::Core(CoreEvent::ConfigFileChanged)) {
                    return;
                }
            }
        }
    });
}
