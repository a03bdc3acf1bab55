//! Wiring for a real terminal: the tokio runtime, the input reader thread, the once-a-second
//! tick, the config file watcher, the core event forwarders, and the terminal guard.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::Event;

use super::app::App;
use super::clock::SystemClock;
use super::event::{AppEvent, AppEventSender, CoreEvent};
use super::frame::FrameRequester;
use super::terminal::TerminalGuard;
use super::{ConsoleExit, ConsoleOptions};
use crate::deck::Deck;

/// How often the config file's mtime is checked.
pub(crate) const CONFIG_POLL: Duration = crate::config::watch::POLL_EVERY;

pub fn run(options: &ConsoleOptions) -> ConsoleExit {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("clawdeck: cannot start the async runtime: {e}");
            return ConsoleExit::Failed;
        }
    };
    let code = runtime.block_on(async move {
        // The core: config, registry, pipeline, lane queue, tool runtime, router service. The
        // first frame never waits for `openclaw --version`: it is settled in the background.
        let deck =
            match Deck::load_without_waiting_for_openclaw(&options.config, &options.server_listing)
            {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("clawdeck: {e}");
                    return ConsoleExit::Usage;
                }
            };
        // The MCP endpoint is bound before the screen is taken, so a busy port is a plain error.
        let mcp = match &options.mcp_listen {
            None => None,
            Some(raw) => match bind_mcp(raw, options.mcp_token.clone()).await {
                Ok(bound) => Some(bound),
                Err(problem) => {
                    eprintln!("clawdeck: --mcp-listen: {problem}");
                    return ConsoleExit::Usage;
                }
            },
        };
        let decision_log = deck.record_decisions("console");
        let mut guard = match TerminalGuard::enter() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("clawdeck: cannot set up the terminal: {e}");
                return ConsoleExit::Failed;
            }
        };
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx.clone());
        let mut app = App::new(deck.clone(), tx.clone(), frames, Arc::new(SystemClock));
        app.context = options.context.clone();
        follow_decision_log(&mut app, &decision_log);
        // One router service (the deck's) for the Router view and for clawbot_router calls made
        // through the tool runtime (Invoke view), so both show the same runs.
        app.router.load_history(deck.router().runs());
        forward_deck_events(&deck, tx.clone());
        watch_config(watched_paths(&deck.config()), tx.clone());
        let gateways_stop = tokio_util::sync::CancellationToken::new();
        attach_gateways(
            &deck,
            &mut app,
            options.all_operators,
            tx.clone(),
            gateways_stop.clone(),
        );
        app.show_deck();
        let mcp_stop = tokio_util::sync::CancellationToken::new();
        if let Some((listener, token)) = mcp {
            serve_mcp(&mut app, &deck, options, listener, token, mcp_stop.clone());
        }
        settle_openclaw_version(&deck, tx.clone());
        quit_on_stop_signal(tx.clone());
        spawn_input_reader(tx.clone());
        spawn_ticker(tx.clone());
        let result =
            super::event_loop::run_loop(&mut app, &mut guard.terminal, &mut rx, true).await;
        mcp_stop.cancel();
        gateways_stop.cancel();
        app.shutdown(&mut rx).await;
        // Whatever the views did not see end (calls under an older config, exec sessions).
        deck.shutdown(Duration::from_secs(5)).await;
        drop(guard);
        match result {
            Ok(()) => ConsoleExit::Closed,
            Err(e) => {
                eprintln!("clawdeck: terminal error: {e}");
                ConsoleExit::Failed
            }
        }
    });
    // Reader threads block in read(); the runtime must not wait for them.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

/// Shows the decision log's records in the Decisions view, or why there are none.
fn follow_decision_log(
    app: &mut App,
    decision_log: &Result<Arc<crate::decision_log::DecisionLog>, String>,
) {
    match decision_log {
        Ok(log) => app.follow_decisions(log.dir()),
        Err(err) => {
            tracing::warn!("the decision log is off: {err}");
            app.decisions = super::views::decisions::DecisionsView::unavailable(&format!(
                "the decision log is off: {err}"
            ));
        }
    }
}

/// Serves the deck's MCP endpoint on the bound `--mcp-listen` until `stop`, and says where.
fn serve_mcp(
    app: &mut App,
    deck: &Deck,
    options: &ConsoleOptions,
    listener: tokio::net::TcpListener,
    token: String,
    stop: tokio_util::sync::CancellationToken,
) {
    app.set_status(format!(
        "MCP: {} (Authorization: Bearer {token})",
        crate::mcp::host::endpoint_url(&listener)
    ));
    let deck = deck.clone();
    let flags = options.context.clone();
    tokio::spawn(async move {
        if let Err(problem) =
            crate::mcp::host::serve_http(&deck, flags, listener, token, stop).await
        {
            tracing::warn!("MCP endpoint stopped: {problem}");
        }
    });
}

/// Binds `--mcp-listen` and settles its token (printed before the console takes the screen, so
/// it is still there after the console closes).
async fn bind_mcp(
    raw: &str,
    token: Option<String>,
) -> Result<(tokio::net::TcpListener, String), String> {
    let listener = crate::mcp::host::bind(raw).await?;
    let token = crate::mcp::host::token_or_generated(token)?;
    eprintln!(
        "clawdeck: MCP at {} (Authorization: Bearer {token})",
        crate::mcp::host::endpoint_url(&listener)
    );
    Ok((listener, token))
}

/// Feeds the Sessions view from the gateways' rosters (connections run on their own tasks).
/// The feed's events reach the console paced (at most `GATEWAY_EVENTS_IN_FLIGHT` in its
/// channel), so a flood of tool output never queues a key behind it.
fn attach_gateways(
    deck: &Deck,
    app: &mut App,
    all_operators: bool,
    tx: AppEventSender,
    stop: tokio_util::sync::CancellationToken,
) {
    let (feed_tx, feed_rx) = tokio::sync::mpsc::unbounded_channel();
    let sink: crate::gateway::feed::RosterSink =
        Arc::new(move |gateway, event| feed_tx.send((gateway, event)).is_ok());
    let desk_tx = tx.clone();
    let desk_sink: crate::gateway::desk::DeskSink =
        Arc::new(move |event| desk_tx.send(AppEvent::Core(CoreEvent::Desk(event))));
    match deck.open_desk(all_operators, desk_sink, stop.clone()) {
        Ok(names) if names.is_empty() => {}
        Ok(names) => {
            app.approvals = super::views::approvals::ApprovalsView::attaching(&names);
            app.invoke.gateways = names;
        }
        Err(e) => {
            app.approvals =
                super::views::approvals::ApprovalsView::unavailable(&format!("gateways: {e}"))
        }
    }
    feed_gateway_pulse(deck, app, tx.clone(), stop.clone());
    match deck.feed_gateway_rosters(sink, stop) {
        Ok((names, _)) if names.is_empty() => {}
        Ok((names, follow)) => {
            app.sessions = super::views::sessions::SessionsView::attaching(&names);
            app.sessions.set_follow(follow);
            app.queue.gateway_runs =
                super::views::gateway_runs::GatewayRuns::from_roster(&app.sessions.roster);
            forward_gateway_events(feed_rx, tx);
        }
        Err(e) => {
            app.sessions =
                super::views::sessions::SessionsView::unavailable(&format!("gateways: {e}"))
        }
    }
}

/// Feeds the Gateways view: each gateway's health, usage and log polls, one event per poll.
fn feed_gateway_pulse(
    deck: &Deck,
    app: &mut App,
    tx: AppEventSender,
    stop: tokio_util::sync::CancellationToken,
) {
    let sink: crate::gateway::pulse::PulseSink = Arc::new(move |gateway, pulse| {
        tx.send(AppEvent::Core(CoreEvent::Pulse { gateway, pulse }))
    });
    match deck.feed_gateway_pulse(sink, stop) {
        Ok(names) if names.is_empty() => {}
        Ok(names) => app.gateways = super::views::gateways::GatewaysView::attaching(&names),
        Err(e) => {
            app.gateways =
                super::views::gateways::GatewaysView::unavailable(&format!("gateways: {e}"))
        }
    }
}

/// Gateway events the console may have queued but not handled yet.
pub(crate) const GATEWAY_EVENTS_IN_FLIGHT: usize = 64;

/// Passes the feed's events on to the console, each with a permit given back when the console
/// has handled it; nothing is dropped (the rest waits in `events`).
pub(crate) fn forward_gateway_events(
    events: tokio::sync::mpsc::UnboundedReceiver<(String, crate::gateway::ClientEvent)>,
    tx: AppEventSender,
) {
    crate::deck::paced::forward_channel(
        events,
        GATEWAY_EVENTS_IN_FLIGHT,
        move |(gateway, event), permit| {
            tx.send(AppEvent::Core(CoreEvent::Gateway {
                gateway,
                event,
                permit,
            }))
        },
    );
}

/// Switches to the pack the installed `openclaw --version` decides once it answers (the header
/// says "detecting OpenClaw version…" until then).
fn settle_openclaw_version(deck: &Deck, tx: AppEventSender) {
    let deck = deck.clone();
    tokio::spawn(async move {
        if let Some(state) = deck.settle_openclaw_version().await {
            tx.send(AppEvent::Core(CoreEvent::OpenClawVersion(state)));
        }
    });
}

/// SIGINT, SIGTERM or SIGHUP: quit without asking; the stop policy kills the children, and
/// the console closes (restoring the terminal) before it exits with 128 + the signal.
fn quit_on_stop_signal(tx: AppEventSender) {
    let stop = crate::process::stop_signals::stop_signals();
    tokio::spawn(async move {
        stop.await;
        tx.send(AppEvent::Quit);
    });
}

/// Terminal input on a plain thread: `read()` blocks, so an idle console never wakes up.
fn spawn_input_reader(tx: AppEventSender) {
    std::thread::spawn(move || {
        loop {
            let event = match crossterm::event::read() {
                Ok(Event::Key(k)) => AppEvent::Key(k),
                Ok(Event::Mouse(m)) => AppEvent::Mouse(m),
                Ok(Event::Resize(..)) => AppEvent::Resize,
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
pub(crate) fn spawn_ticker(tx: AppEventSender) {
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
pub(crate) const ROUTER_EVENTS_IN_FLIGHT: usize = 32;

/// The deck's events (router runs, lane queue) into the console's channel; a router event
/// carries its permit until the console is done with it (a chunk's once it has been sanitized).
pub(crate) fn forward_deck_events(deck: &Deck, tx: AppEventSender) {
    use crate::deck::DeckEvent;
    deck.forward_events(ROUTER_EVENTS_IN_FLIGHT, move |event, permit| {
        let event = match event {
            DeckEvent::Router(ev) => CoreEvent::Router(ev, permit),
            DeckEvent::RouterLagged(n) => CoreEvent::RouterLagged(n),
            DeckEvent::Queue(ev) => CoreEvent::Queue(ev),
            DeckEvent::QueueLagged(n) => CoreEvent::QueueLagged(n),
        };
        tx.send(AppEvent::Core(event))
    });
}

pub(crate) use crate::config::watch::watched_paths;

/// Polls the files; a change sends `ConfigFileChanged`.
pub(crate) fn watch_config(paths: Vec<PathBuf>, tx: AppEventSender) {
    let mut files = crate::config::watch::FileStamps::new(paths);
    if files.is_empty() {
        return;
    }
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(CONFIG_POLL);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            interval.tick().await;
            if files.changed() && !tx.send(AppEvent::Core(CoreEvent::ConfigFileChanged)) {
                return;
            }
        }
    });
}
