//! The operator console (ratatui). A thin layer over the core: it renders state and sends
//! intents; policy, queue, processes and tools all live in the core modules.
//!
//! Structure (codex-rs style): one `AppEvent` channel (`event`), a coalescing frame scheduler
//! (`frame`), a terminal guard and panic hook (`terminal`), one keymap table (`keymap`), the
//! `App` that performs side effects (`app`), the chrome (`ui`), views (`views`) and widgets.

pub(crate) mod app;
pub(crate) mod bell;
/// The workloads of `benches/tui.rs` and `benches/gateway.rs` (feature `bench`, which only
/// the benchmarks turn on): they drive the console's private parts. Not an API.
#[cfg(any(test, feature = "bench"))]
#[doc(hidden)]
pub mod bench;
pub(crate) mod clock;
pub(crate) mod context_bar;
mod decision_feed;
pub(crate) mod event;
pub(crate) mod event_loop;
pub(crate) mod frame;
pub(crate) mod keymap;
pub(crate) mod runtime;
pub(crate) mod stream;
pub(crate) mod tab_bar;
pub(crate) mod terminal;
pub(crate) mod theme;
pub(crate) mod ui;
pub(crate) mod view_id;
pub(crate) mod views;
pub(crate) mod widgets;

#[cfg(test)]
mod tests;

// Everything below the console comes through the Deck's front door (`clawdeck_deck::api`),
// under the core's module names so paths read the same in every crate.
pub(crate) use clawdeck_deck::api as deck;
#[cfg(test)]
pub(crate) use clawdeck_deck::api::node_tools;
pub(crate) use clawdeck_deck::api::{
    catalog, comparison, config, context, decision_log, exec_allowlist, exec_verdict, gateway,
    lint, mcp_servers, paths, pipeline, policy, process, prompt, provider, queue, regular_file,
    router, sanitize, semantics, stages, tool,
};
pub(crate) use clawdeck_mcp as mcp;

use crate::config::ConfigRequest;
use crate::context::PolicyContext;
use crate::mcp_servers::ServerListing;

/// What the console is opened with (the `clawdeck` command fills it from its flags).
#[derive(Debug, Clone, Default)]
pub struct ConsoleOptions {
    /// `--config` (else the default places, else the demo) and `--openclaw-version`.
    pub config: ConfigRequest,
    /// The context the views start in (`--agent`, `--channel`, ...).
    pub context: PolicyContext,
    /// `--mcp-listen ADDR`: also serve the tools over MCP, with `--mcp-token`.
    pub mcp_listen: Option<String>,
    pub mcp_token: Option<String>,
    /// How registries learn `mcp.servers` tools (off with `--no-mcp-servers`).
    pub server_listing: ServerListing,
    /// The headless commands, one per line, for the message printed without a terminal.
    pub headless_commands: String,
    /// `--all-operators`: the approvals desk asks for operator.admin (as clawdeck.json5
    /// `approvals.allOperators` does).
    pub all_operators: bool,
}

/// How the console ended; the command maps each to its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsoleExit {
    /// The operator quit.
    Closed,
    /// No terminal, a broken config, a bad `--mcp-listen`.
    Usage,
    /// The runtime or the terminal failed.
    Failed,
}

/// Opens the console; without a terminal, points to the headless commands.
pub fn run_console(options: &ConsoleOptions) -> ConsoleExit {
    if let Some(reason) = terminal::tty_problem() {
        eprintln!(
            "{}",
            terminal::no_tty_message(reason, &options.headless_commands)
        );
        return ConsoleExit::Usage;
    }
    runtime::run(options)
}
