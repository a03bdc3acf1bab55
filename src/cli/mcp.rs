//! `clawdeck mcp [--listen 127.0.0.1:PORT] [--lane LANE] [context flags]`: clawdeck's tools as an MCP server,
//! over stdio (the default: a client starts clawdeck as its child) or streamable HTTP on
//! loopback with a bearer token. Diagnostics go to stderr; stdout belongs to the protocol.
//!
//! Exit status: 0 the client closed the session (or a stop signal ended the server); 2 bad
//! usage (a broken config, a listen address that is not loopback, a port in use, a blank lane).

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;
use tokio_util::sync::CancellationToken;

use super::tools::print_load_warnings;
use super::{Cli, exit};
use crate::deck::Deck;
use crate::mcp::host;
use crate::process::stop_signals::stop_signals;

/// Said when `clawdeck mcp` is started by hand on a terminal, where it would wait silently.
const TTY_HINT: &str = "clawdeck mcp: serving MCP on stdin/stdout for a client that starts clawdeck as its child (Ctrl-C stops it); to serve clients over HTTP instead: clawdeck mcp --listen 127.0.0.1:8765";

/// How long running calls get to end after the session closes or a stop signal arrives.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio; loopback only (127.0.0.1:8765)
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// The bearer token HTTP clients present (also CLAWDECK_MCP_TOKEN); generated and printed
    /// to stderr when absent. Tokens of clawdeck.json5 `mcp.clients` entries are admitted too
    #[arg(
        long,
        value_name = "TOKEN",
        env = "CLAWDECK_MCP_TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// Keep the config loaded at start (no reload, no tools/list_changed on edits)
    #[arg(long)]
    pub no_watch: bool,
    /// The lane the calls of clients no `mcp.clients` entry matches wait in (default: main, or
    /// subagent for a subagent context); an entry's own `lane` decides for its client
    #[arg(long, value_name = "LANE")]
    pub lane: Option<String>,
}

pub fn run(cli: &Cli, args: &McpArgs) -> u8 {
    if let Some(Err(problem)) = args.listen.as_deref().map(crate::mcp::http::loopback_addr) {
        eprintln!("clawdeck mcp: {problem}");
        return exit::USAGE;
    }
    if let Some(Err(problem)) = args.lane.as_deref().map(crate::queue::check_lane_name) {
        eprintln!("clawdeck mcp: --lane: {problem}");
        return exit::USAGE;
    }
    let config = match crate::config::load_from(&cli.config_request()) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("clawdeck mcp: {err}");
            return exit::USAGE;
        }
    };
    let registry = crate::deck::build_registry(&config, cli.server_listing());
    print_load_warnings(cli, &config, &registry);
    if args.listen.is_none() && std::io::stdin().is_terminal() {
        eprintln!("{TTY_HINT}");
    }
    let runtime = match super::async_runtime() {
        Ok(rt) => rt,
        Err(problem) => {
            eprintln!("clawdeck mcp: {problem}");
            return exit::USAGE;
        }
    };
    let code = runtime.block_on(async move {
        let deck = Deck::with_registry(config, registry, cli.config_request());
        // Every call is recorded with the client's name (see `clawdeck log`).
        if let Err(problem) = deck.record_decisions("mcp") {
            eprintln!("clawdeck mcp: the decision log is off: {problem}");
        }
        let flags = crate::mcp::FlagContext {
            context: cli.context.to_context(),
            lane: args.lane.clone(),
        };
        let stop = CancellationToken::new();
        let on_signal = stop.clone();
        tokio::spawn(async move {
            let signal = stop_signals().await;
            eprintln!("clawdeck mcp: {}; stopping", signal.label());
            on_signal.cancel();
        });
        if !args.no_watch {
            tokio::spawn(crate::mcp::watch::watch_config(
                deck.clone(),
                stop.child_token(),
                |problem| eprintln!("clawdeck mcp: {problem}"),
            ));
        }
        let served = match &args.listen {
            None => host::serve_stdio(&deck, flags, stop.clone()).await,
            Some(raw) => serve_http(&deck, flags, raw, args.token.clone(), stop.clone()).await,
        };
        finish(&deck, &stop, served).await
    });
    // The stdio transport's read of stdin blocks a thread until input comes; a server stopped
    // by a signal before its client spoke must not wait for it.
    runtime.shutdown_background();
    code
}

async fn serve_http(
    deck: &Deck,
    flags: crate::mcp::FlagContext,
    listen: &str,
    token: Option<String>,
    stop: CancellationToken,
) -> Result<(), String> {
    let generate = token.as_deref().is_none_or(|t| t.trim().is_empty());
    let token = host::token_or_generated(token)?;
    if generate {
        eprintln!("clawdeck mcp: bearer token {token}");
    }
    let listener = host::bind(listen).await?;
    eprintln!("clawdeck mcp: serving {}", host::endpoint_url(&listener));
    host::serve_http_reporting(deck, flags, listener, token, stop, |warning| {
        eprintln!("clawdeck mcp: {warning}")
    })
    .await
}

/// Stops the watcher and every call or run still going, then reports how the server ended.
async fn finish(deck: &Deck, stop: &CancellationToken, served: Result<(), String>) -> u8 {
    stop.cancel();
    deck.shutdown(SHUTDOWN_GRACE).await;
    match served {
        Ok(()) => exit::OK,
        Err(problem) => {
            eprintln!("clawdeck mcp: {problem}");
            exit::USAGE
        }
    }
}
