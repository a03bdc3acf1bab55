//! `clawdeck route`: send one task to the remote clawBot the way `clawbot_router` does, stream
//! its raw output live (the child's stdout on our stdout, its stderr on our stderr), kill the
//! tree on Ctrl-C, SIGTERM or SIGHUP (then exit 128 + the signal, after the transcript), and end
//! with the rest of the content the tool returns (timeout or spawn notes), so that the
//! transcript equals the tool's content. `--json` prints the tool result.

use std::io::Write;
use std::time::Duration;

use clap::Args;

use tokio_util::sync::CancellationToken;

use super::output_pump::OutputPump;
use super::{Cli, exit};
use crate::deck::Deck;
use crate::process::stop_signals::stop_signals;
use crate::router::{
    Mode, RouterEventKind, RouterRequest, RouterService, RunStatus, StdStream, TransportKind, texts,
};

/// How long a finished run waits for a slow reader to take the rest of its output.
const READER_WAIT: Duration = Duration::from_secs(2);

#[derive(Debug, Args)]
pub struct RouteArgs {
    /// Remote agent id (default: router.defaultTo phone, else router.defaultAgent)
    #[arg(long)]
    pub agent: Option<String>,
    /// The task, in natural language (one argv element for the CLI, never through a shell)
    #[arg(long, short = 'm', allow_hyphen_values = true)]
    pub message: String,
    /// Timeout in seconds, honoured as given up to 600 (router.minTimeoutSeconds and
    /// maxTimeoutSeconds bound the LLM's timeoutSeconds, not this flag; a note says so)
    #[arg(long)]
    pub timeout: Option<u64>,
    /// `cli` (openclaw agent), `http` (the gateway's /v1/chat/completions) or `gateway` (the
    /// gateway's WebSocket `agent` method; the remote agent's tool calls appear as notes)
    #[arg(long, value_parser = ["cli", "http", "gateway"])]
    pub transport: Option<String>,
    /// `read-only` (default) or `write`
    #[arg(long, value_parser = ["read-only", "write"])]
    pub mode: Option<String>,
    /// Lane the run waits in (the lane queue's per-lane concurrency applies, as for the tool)
    #[arg(long, default_value = "main")]
    pub lane: String,
    /// Print the tool result as JSON (live output then goes to stderr)
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, args: &RouteArgs) -> u8 {
    let runtime = match super::async_runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clawdeck route: {e}");
            return exit::TOOL_ERROR;
        }
    };
    // The Deck builds inside the runtime: the router service spawns its tasks there.
    runtime.block_on(async {
        let deck = match Deck::load_from(&cli.config_request(), cli.server_listing()) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("clawdeck route: {e}");
                return exit::USAGE;
            }
        };
        let service = deck.router().clone();
        let queue = deck.queue();
        // The run takes a slot in its lane like any tool call; Ctrl-C while it waits leaves the
        // queue (and while it runs kills the tree, in `route`).
        let cancel = CancellationToken::new();
        let on_ctrl_c = cancel.clone();
        let stop = stop_signals();
        let waiting = tokio::spawn(async move {
            stop.await;
            on_ctrl_c.cancel();
        });
        let label = format!(
            "clawbot_router: {}",
            args.agent.as_deref().unwrap_or("default")
        );
        let started = queue.run(&args.lane, &label, &cancel, async {
            waiting.abort();
            route(service, args, super::output_guard(cli)).await
        });
        match started.await {
            Ok(code) => code,
            Err(err) => {
                eprintln!("clawdeck route: {err}");
                exit::TOOL_ERROR
            }
        }
    })
}

/// Runs one routed task and returns the exit status.
pub async fn route(
    service: RouterService,
    args: &RouteArgs,
    guard: crate::sanitize::OutputGuard,
) -> u8 {
    let request = RouterRequest {
        message: args.message.clone(),
        agent: args.agent.clone(),
        timeout_seconds: args.timeout,
        mode: args.mode.as_deref().and_then(Mode::parse),
        transport: args.transport.as_deref().and_then(TransportKind::parse),
        operator_timeout: true,
    };
    if let Some(t) = args.timeout {
        note_timeout_bounds(&service, t);
    }
    let mut events = service.subscribe();
    let handle = match service.start(request) {
        Ok(h) => h,
        Err(refusal) => return refused(args, &guard, &refusal),
    };
    let run_id = handle.run_id;
    let ctrl_c = kill_on_stop_signal(&service, run_id);

    // Output goes through bounded pumps: a reader that does not read never holds up the run or
    // its deadline.
    let stdout = OutputPump::start(StdStream::Stdout);
    let stderr = OutputPump::start(StdStream::Stderr);
    let stdout_mid_line = stream_run(&mut events, run_id, args, &guard, &stdout, &stderr).await;
    let outcome = handle.wait().await;
    ctrl_c.abort();

    if args.json {
        stdout.send(
            format!(
                "{}\n",
                crate::cli::json_text::compact(&outcome.to_tool_result())
            )
            .into_bytes(),
        );
    } else {
        send_content_rest(&outcome, &guard, &stdout, stdout_mid_line);
    }
    // Nothing more goes to stdout: let the reader take it (bounded) before the English closing
    // line goes to stderr, so on a shared terminal it follows the seed's text it translates.
    let dropped = stdout.dropped();
    stdout.finish(READER_WAIT);
    if let Some(note) = &outcome.operator_note {
        stderr.send(format!("clawdeck route: {note}\n").into_bytes());
    }
    if dropped > 0 {
        stderr.send(
            format!(
                "clawdeck route: {dropped} bytes of output dropped: stdout was not read fast enough (--json gives the complete content)\n"
            )
            .into_bytes(),
        );
    }
    // The run is over; a reader gets a bounded time to take the rest.
    stderr.finish(READER_WAIT);
    match outcome.status {
        RunStatus::Completed => exit::OK,
        _ => exit::TOOL_ERROR,
    }
}

/// The configured bounds are for the LLM's timeoutSeconds; the operator's flag wins, within
/// the operator's ceiling. Says when either applies.
fn note_timeout_bounds(service: &RouterService, t: u64) {
    let bounded = service.effective_timeout(Some(t));
    let used = RouterService::operator_timeout(t);
    if used != t {
        eprintln!(
            "clawdeck route: --timeout {t} is outside 1..{} s; using {used} s",
            crate::router::service::OPERATOR_TIMEOUT_CEILING.as_secs()
        );
    } else if bounded != t {
        let s = service.settings();
        eprintln!(
            "clawdeck route: note: --timeout {t} is outside router.minTimeoutSeconds..maxTimeoutSeconds ({}..{} s, the bounds for the LLM's timeoutSeconds); honoured",
            s.min_timeout_seconds, s.max_timeout_seconds
        );
    }
}

/// A run the router refused to start: its text on stdout, the English reason on stderr.
fn refused(
    args: &RouteArgs,
    guard: &crate::sanitize::OutputGuard,
    refusal: &crate::router::Refusal,
) -> u8 {
    // stdout is the tool's content (the seed's text); the operator reads English.
    if args.json {
        let result = crate::router::outcome::refusal_result(&refusal.model);
        outln!("{}", crate::cli::json_text::compact(&result));
    } else {
        outln!("{}", guard.text(StdStream::Stdout, &refusal.model));
    }
    eprintln!("clawdeck route: {}", refusal.operator);
    if refusal.model == texts::EMPTY_MESSAGE || refusal.model == texts::NO_TARGET {
        exit::USAGE
    } else {
        exit::TOOL_ERROR
    }
}

/// Ctrl-C, SIGTERM and SIGHUP kill the tree; the run (and its temp file) then ends normally.
fn kill_on_stop_signal(service: &RouterService, run_id: u64) -> tokio::task::JoinHandle<()> {
    let ctrl_c_service = service.clone();
    let stop = stop_signals();
    tokio::spawn(async move {
        let signal = stop.await;
        // Kill first: writing the note may block on a stderr nobody reads.
        ctrl_c_service.kill(run_id);
        let _ = writeln!(
            std::io::stderr(),
            "\nclawdeck route: {}, killing the remote run's process tree",
            signal.label()
        );
    })
}

/// Streams the run's output until its Finished event (or the channel closes / lags past it).
/// True when our stdout so far ends mid-line (the transcript then gets a closing newline).
async fn stream_run(
    events: &mut tokio::sync::broadcast::Receiver<crate::router::RouterEvent>,
    run_id: u64,
    args: &RouteArgs,
    guard: &crate::sanitize::OutputGuard,
    stdout: &OutputPump,
    stderr: &OutputPump,
) -> bool {
    // One filter per child stream, so a sequence split across chunks is still recognised.
    let target = |stream| match stream {
        StdStream::Stdout if !args.json => StdStream::Stdout,
        _ => StdStream::Stderr,
    };
    let mut filters = [
        guard.filter(target(StdStream::Stdout)),
        guard.filter(target(StdStream::Stderr)),
    ];
    let mut stdout_mid_line = false;
    loop {
        match events.recv().await {
            Ok(ev) if ev.run_id == run_id => match ev.kind {
                RouterEventKind::Chunk { stream, bytes, .. } => {
                    let filter = &mut filters[usize::from(stream == StdStream::Stderr)];
                    let bytes = filter.feed(&bytes);
                    if target(stream) == StdStream::Stdout {
                        if let Some(last) = bytes.last() {
                            stdout_mid_line = *last != b'\n';
                        }
                        stdout.send(bytes.to_vec());
                    } else {
                        stderr.send(bytes.to_vec());
                    }
                }
                RouterEventKind::Finished { .. } => return stdout_mid_line,
                _ => {}
            },
            Ok(_) => {}
            Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                stderr.send(format!(
                    "clawdeck route: {n} live events skipped (terminal too slow); the final content is complete\n"
                ).into_bytes());
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return stdout_mid_line,
        }
    }
}

/// The raw output is already on the terminal; sends what the tool appended to it (or the
/// newline a reply streamed without).
fn send_content_rest(
    outcome: &crate::router::RouterOutcome,
    guard: &crate::sanitize::OutputGuard,
    stdout: &OutputPump,
    stdout_mid_line: bool,
) {
    let rest = outcome.appended_text();
    if !rest.is_empty() {
        let mut tail = String::new();
        if !outcome.raw.is_empty()
            && !outcome.raw.ends_with('\n')
            && outcome.content.starts_with(&outcome.raw)
        {
            tail.push('\n');
        }
        tail.push_str(&guard.text(StdStream::Stdout, rest));
        tail.push('\n');
        stdout.send(tail.into_bytes());
    } else if stdout_mid_line {
        // A reply streamed without a final newline (the HTTP transport's usually does).
        stdout.send(b"\n".to_vec());
    }
}
