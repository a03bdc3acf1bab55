//! The headless front end: one subcommand per console view, each with `--json`.
//!
//! With no subcommand `clawdeck` opens the console (or, without a terminal, says which headless
//! commands to use).

#[macro_use]
mod quiet_out;
mod approvals;
mod bounded_out;
mod catalog_sync;
pub mod context_args;
mod diff;
mod dispatch;
mod explain;
mod gateway;
mod gateway_args;
mod invoke;
mod invoke_gateway;
mod lint;
mod log;
mod logging;
mod mcp;
mod output_pump;
mod prompt;
mod route;
mod schema;
mod tools;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use context_args::ContextArgs;

/// Exit statuses shared by every command.
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// The tool ran and reported an error (or the router run failed / timed out).
    pub const TOOL_ERROR: u8 = 1;
    /// Bad usage, a broken config, an unknown tool or agent.
    pub const USAGE: u8 = 2;
    /// The policy refused the call in this context.
    pub const REFUSED: u8 = 3;
}

#[derive(Debug, Parser)]
#[command(
    name = "clawdeck",
    version,
    about = "Tool runtime and operator console for OpenClaw-style agent tool systems"
)]
pub struct Cli {
    /// OpenClaw config file (JSON5). Default: $OPENCLAW_CONFIG_PATH, then ~/.openclaw/openclaw.json,
    /// then the embedded demo config.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// OpenClaw version whose semantics answer (`seed`, `2026.9`, a synced version). Default:
    /// clawdeck.json5 `openclawVersion`, else the installed `openclaw --version`, else the
    /// config's `meta.lastTouchedVersion`, else the newest pack.
    #[arg(
        long,
        global = true,
        value_name = "VERSION",
        env = "CLAWDECK_OPENCLAW_VERSION"
    )]
    pub openclaw_version: Option<String>,
    /// Write untrusted text (child output, tool results, descriptions, warnings) byte for
    /// byte. Without it, when the output is a terminal, every control sequence but SGR colours
    /// is dropped (no retitling, no clipboard writes, no cursor moves)
    #[arg(long, global = true)]
    pub raw: bool,
    /// Do not start the servers in OpenClaw's `mcp.servers` to list their tools (real OpenClaw
    /// starts them for every run; without them their `<server>__<tool>` tools are unknown)
    #[arg(long, global = true, env = "CLAWDECK_NO_MCP_SERVERS")]
    pub no_mcp_servers: bool,

    #[command(flatten)]
    pub context: ContextArgs,

    /// Console only: also serve the tools over MCP (streamable HTTP at http://ADDR/mcp,
    /// loopback only); clients' calls show in the Queue and Router views
    #[arg(long, value_name = "ADDR")]
    pub mcp_listen: Option<String>,
    /// The bearer token for --mcp-listen (also CLAWDECK_MCP_TOKEN); generated when absent
    #[arg(
        long,
        value_name = "TOKEN",
        env = "CLAWDECK_MCP_TOKEN",
        hide_env_values = true
    )]
    pub mcp_token: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The final tool list for a context
    Tools(tools::ToolsArgs),
    /// Why a tool is visible or hidden: its path through the policy layers
    Explain(explain::ExplainArgs),
    /// Run a tool through the full pipeline (policy, hooks, lane, execute)
    Invoke(invoke::InvokeArgs),
    /// Send a task to the remote clawBot (clawbot_router) and stream its raw output
    Route(route::RouteArgs),
    /// The exact `tools` payload a provider receives
    Schema(schema::SchemaArgs),
    /// The system prompt the LLM receives
    Prompt(prompt::PromptArgs),
    /// Dispatch a `/command` the way OpenClaw routes skill commands
    Dispatch(dispatch::DispatchArgs),
    /// Compare clawdeck's answer with what real OpenClaw exposes (real CLI + recording mock, or a gateway)
    Verify(verify::VerifyArgs),
    /// Live OpenClaw gateways: status, sessions, live events, a session's effective tools
    Gateway(gateway::GatewayCmdArgs),
    /// Exec approvals raised by the gateways: watch them, answer them
    Approvals(approvals::ApprovalsArgs),
    /// Tool catalogs: `sync` stores a pack from a running gateway's `tools.catalog`
    Catalog(catalog_sync::CatalogArgs),
    /// Findings about the config: conflicting or unknown names, allowlists that leave nothing,
    /// MCP tools the sandbox hides, exec approvals nobody can answer
    Lint(lint::LintArgs),
    /// What-if: the tools that appear or disappear between two contexts, configs or OpenClaw
    /// versions, with the rule responsible
    Diff(diff::DiffArgs),
    /// Serve the policy-filtered tools over MCP (stdio, or streamable HTTP on loopback)
    Mcp(mcp::McpArgs),
    /// The decision log: every call through the pipeline (client, context, tool, what was
    /// decided and by which rule, outcome), one line each; `--follow` keeps reading
    Log(log::LogArgs),
}

/// How untrusted text is written to our stdout / stderr (`--raw`, terminal or not).
pub(crate) fn output_guard(cli: &Cli) -> crate::term::OutputGuard {
    crate::term::OutputGuard::detect(cli.raw)
}

/// The tokio runtime the async commands run on.
pub(crate) fn async_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| format!("cannot start the async runtime: {err}"))
}

/// Parses arguments and runs; the binary only calls this.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    crate::semantics::set_requested_version(cli.openclaw_version.clone());
    crate::mcp_servers::set_listing(!cli.no_mcp_servers);
    logging::init(cli.command.is_none());
    if matches!(
        cli.command,
        Some(
            Command::Tools(_)
                | Command::Explain(_)
                | Command::Schema(_)
                | Command::Prompt(_)
                | Command::Log(_)
        )
    ) {
        quiet_out::end_quietly_on_closed_pipe();
    }
    let code = match cli.command {
        Some(Command::Tools(ref args)) => tools::run(&cli, args),
        Some(Command::Explain(ref args)) => explain::run(&cli, args),
        Some(Command::Invoke(ref args)) => invoke::run(&cli, args),
        Some(Command::Route(ref args)) => route::run(&cli, args),
        Some(Command::Schema(ref args)) => schema::run(&cli, args),
        Some(Command::Prompt(ref args)) => prompt::run(&cli, args),
        Some(Command::Dispatch(ref args)) => dispatch::run(&cli, args),
        Some(Command::Verify(ref args)) => verify::run(&cli, args),
        Some(Command::Gateway(ref args)) => gateway::run(&cli, args),
        Some(Command::Approvals(ref args)) => approvals::run(&cli, args),
        Some(Command::Catalog(ref args)) => catalog_sync::run(&cli, args),
        Some(Command::Lint(ref args)) => lint::run(&cli, args),
        Some(Command::Diff(ref args)) => diff::run(&cli, args),
        Some(Command::Mcp(ref args)) => mcp::run(&cli, args),
        Some(Command::Log(ref args)) => log::run(&cli, args),
        None => crate::tui::run_console(&cli),
    };
    ExitCode::from(code)
}
