//! The headless front end: one subcommand per console view, each with `--json`.
//!
//! With no subcommand `clawdeck` opens the console (or, without a terminal, says which headless
//! commands to use).
//!
//! stdout is written only through `quiet_out` (a closed pipe is a quiet stop), never `println!`.
#![deny(clippy::print_stdout)]

#[macro_use]
mod quiet_out;
mod approvals;
mod approvals_lists;
mod bounded_out;
mod call_report;
mod catalog_sync;
mod chat;
mod columns;
mod completions;
pub mod context_args;
mod diff;
mod dispatch;
mod explain;
mod explain_exec;
mod gateway;
mod gateway_args;
mod gateway_history;
mod help;
mod invoke;
mod invoke_gateway;
mod json_text;
mod lint;
mod log;
mod logging;
mod mcp;
mod output_pump;
mod paths;
mod prompt;
mod remote_config;
mod route;
mod schema;
mod session_control;
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

/// `--version`: the package version and the commit it is built from (build.rs; "unknown" when
/// built outside a git checkout).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CLAWDECK_GIT_COMMIT"),
    ")"
);

/// The help heading of the flags every command takes (config, version, output).
const GLOBAL: &str = "Global";

#[derive(Debug, Parser)]
#[command(
    name = "clawdeck",
    version = VERSION,
    about = "Tool runtime and operator console for OpenClaw-style agent tool systems",
    after_long_help = help::TOP
)]
pub struct Cli {
    /// Who is asking (help heading "Context", before the global flags).
    #[command(flatten)]
    pub context: ContextArgs,

    /// OpenClaw config file (JSON5). Default: $OPENCLAW_CONFIG_PATH, then ~/.openclaw/openclaw.json,
    /// then the embedded demo config.
    #[arg(long, global = true, value_name = "PATH", help_heading = GLOBAL)]
    pub config: Option<PathBuf>,

    /// OpenClaw version whose semantics answer (`seed`, `2026.9`, a synced version). Default:
    /// clawdeck.json5 `openclawVersion`, else the installed `openclaw --version`, else the
    /// config's `meta.lastTouchedVersion`, else the newest pack.
    #[arg(
        long,
        global = true,
        value_name = "VERSION",
        env = "CLAWDECK_OPENCLAW_VERSION",
        help_heading = GLOBAL
    )]
    pub openclaw_version: Option<String>,
    /// Write untrusted text (child output, tool results, descriptions, warnings) byte for
    /// byte. Without it, when the output is a terminal, every control sequence but SGR colours
    /// is dropped (no retitling, no clipboard writes, no cursor moves)
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub raw: bool,
    /// Do not start the servers in OpenClaw's `mcp.servers` to list their tools (real OpenClaw
    /// starts them for every run; without them their `<server>__<tool>` tools are unknown)
    #[arg(
        long,
        global = true,
        env = "CLAWDECK_NO_MCP_SERVERS",
        // Empty, 0, false, no, off mean unset, as shells and CI files write it.
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = GLOBAL
    )]
    pub no_mcp_servers: bool,

    /// A saved `node.list` answer of the gateway (`openclaw gateway call node.list --json`): the tools
    /// its connected nodes published (a node host's MCP servers), which every run there builds.
    /// With --remote-config they are asked of the gateway itself
    #[arg(long, global = true, value_name = "FILE", help_heading = "Context")]
    pub node_list: Option<PathBuf>,

    /// How registries learn `mcp.servers` tools: one lister (and its kept listings) per run.
    #[arg(skip)]
    server_listing: std::sync::OnceLock<crate::mcp_servers::ServerListing>,

    /// Console only: also serve the tools over MCP (streamable HTTP at http://ADDR/mcp,
    /// loopback only); clients' calls show in the Queue and Router views
    #[arg(long, value_name = "ADDR", help_heading = "Console")]
    pub mcp_listen: Option<String>,
    /// The bearer token for --mcp-listen (also CLAWDECK_MCP_TOKEN); generated when absent
    #[arg(
        long,
        value_name = "TOKEN",
        env = "CLAWDECK_MCP_TOKEN",
        hide_env_values = true,
        help_heading = "Console"
    )]
    pub mcp_token: Option<String>,
    /// Console only: ask the gateways for operator.admin, so every operator's approvals are
    /// listed and answerable and any run can be aborted (default: clawdeck.json5
    /// `approvals.allOperators`)
    #[arg(long, help_heading = "Console")]
    pub all_operators: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The final tool list for a context
    #[command(after_long_help = help::TOOLS)]
    Tools(tools::ToolsArgs),
    /// Why a tool is visible or hidden: its path through the policy layers
    #[command(after_long_help = help::EXPLAIN)]
    Explain(explain::ExplainArgs),
    /// Run a tool through the full pipeline (policy, hooks, lane, execute)
    #[command(after_long_help = help::INVOKE)]
    Invoke(invoke::InvokeArgs),
    /// Send a task to the remote clawBot (clawbot_router) and stream its raw output
    #[command(after_long_help = help::ROUTE)]
    Route(route::RouteArgs),
    /// The exact `tools` payload a provider receives
    #[command(after_long_help = help::SCHEMA)]
    Schema(schema::SchemaArgs),
    /// The system prompt the LLM receives
    #[command(after_long_help = help::PROMPT)]
    Prompt(prompt::PromptArgs),
    /// Dispatch a `/command` the way OpenClaw routes skill commands
    #[command(after_long_help = help::DISPATCH)]
    Dispatch(dispatch::DispatchArgs),
    /// Compare clawdeck's answer with what real OpenClaw exposes
    ///
    /// Compare clawdeck's answer with what real OpenClaw exposes: the real CLI run against a
    /// recording mock LLM, or a running gateway's `tools.effective` for a session.
    #[command(after_long_help = help::VERIFY)]
    Verify(verify::VerifyArgs),
    /// Live OpenClaw gateways: status, sessions, live events, a session's effective tools
    #[command(after_long_help = help::GATEWAY)]
    Gateway(gateway::GatewayCmdArgs),
    /// Talk to a live session: send a message, stream the reply and its tool calls
    #[command(after_long_help = help::CHAT)]
    Chat(chat::ChatArgs),
    /// Exec approvals raised by the gateways: watch them, answer them
    #[command(after_long_help = help::APPROVALS)]
    Approvals(approvals::ApprovalsArgs),
    /// Tool catalogs: `sync` stores a pack from a running gateway's `tools.catalog`
    #[command(after_long_help = help::CATALOG)]
    Catalog(catalog_sync::CatalogArgs),
    /// Findings about the config, each naming the key to change
    ///
    /// Findings about the config: conflicting or unknown names, allowlists that leave nothing,
    /// MCP tools the sandbox hides, exec approvals nobody can answer.
    #[command(after_long_help = help::LINT)]
    Lint(lint::LintArgs),
    /// What-if: the tools that differ between two contexts, configs or OpenClaw versions
    ///
    /// What-if: the tools that appear or disappear between two contexts, configs or OpenClaw
    /// versions, with the rule responsible.
    #[command(after_long_help = help::DIFF)]
    Diff(diff::DiffArgs),
    /// Serve the policy-filtered tools over MCP (stdio, or streamable HTTP on loopback)
    #[command(after_long_help = help::MCP)]
    Mcp(mcp::McpArgs),
    /// The decision log: every call through the pipeline, one line each
    ///
    /// The decision log: every call through the pipeline (client, context, tool, what was
    /// decided and by which rule, outcome), one line each; `--follow` keeps reading.
    #[command(after_long_help = help::LOG)]
    Log(log::LogArgs),
    /// Every file and directory clawdeck reads or writes, and whether each exists
    #[command(after_long_help = help::PATHS)]
    Paths(paths::PathsArgs),
    /// A shell completion script (bash, zsh, fish, powershell, elvish) on stdout
    #[command(after_long_help = help::COMPLETIONS)]
    Completions(completions::CompletionsArgs),
    /// clawdeck's man page (roff) on stdout
    #[command(after_long_help = help::MAN)]
    Man(completions::ManArgs),
}

/// The headless commands, one line each (`  clawdeck tools     The final tool list ...`), from
/// the clap definition: what the console says when it cannot start.
pub fn command_summary() -> String {
    use clap::CommandFactory;
    let cli = Cli::command();
    let rows: Vec<Vec<String>> = cli
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| {
            vec![
                format!("  clawdeck {}", c.get_name()),
                c.get_about().map(|a| a.to_string()).unwrap_or_default(),
            ]
        })
        .collect();
    let layout = columns::ColumnLayout::fit(&["", ""], &rows, usize::MAX);
    rows.iter().map(|r| layout.line(r) + "\n").collect()
}

/// How untrusted text is written to our stdout / stderr (`--raw`, terminal or not).
pub(crate) fn output_guard(cli: &Cli) -> crate::sanitize::OutputGuard {
    crate::sanitize::OutputGuard::detect(cli.raw)
}

/// Text for our stdout that may quote untrusted text (config, gateway data): neutralised when
/// stdout is a terminal (unless `--raw`).
pub(crate) fn out_untrusted(cli: &Cli, text: &str) {
    let text = output_guard(cli).lines(crate::sanitize::StdStream::Stdout, text);
    out!("{text}");
}

/// An error or warning line for our stderr that may quote untrusted text (config keys, agent
/// ids, gateway errors): neutralised when stderr is a terminal (unless `--raw`).
pub(crate) fn err_untrusted(cli: &Cli, line: &str) {
    eprintln!(
        "{}",
        output_guard(cli).lines(crate::sanitize::StdStream::Stderr, line)
    );
}

impl Cli {
    /// `--config` and `--openclaw-version` (or `CLAWDECK_OPENCLAW_VERSION`): which config every
    /// command reads, and for which OpenClaw.
    pub(crate) fn config_request(&self) -> crate::config::ConfigRequest {
        let on_command_line = std::env::args().any(|a| a.starts_with("--openclaw-version"));
        crate::config::ConfigRequest {
            path: self.config.clone(),
            openclaw_version: crate::semantics::RequestedVersion::from_flag(
                self.openclaw_version.as_deref(),
                on_command_line,
            ),
            node_list: self.node_list.clone(),
        }
    }

    /// `mcp.servers` are started and listed unless `--no-mcp-servers`.
    pub(crate) fn server_listing(&self) -> &crate::mcp_servers::ServerListing {
        self.server_listing.get_or_init(|| {
            if self.no_mcp_servers {
                crate::mcp_servers::ServerListing::Off
            } else {
                clawdeck_mcp::SdkServerLister::shared()
            }
        })
    }
}

/// The tokio runtime the async commands run on.
pub(crate) fn async_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| format!("cannot start the async runtime: {err}"))
}

/// Opens the console with the options the flags give.
fn console(cli: &Cli) -> u8 {
    use crate::tui::{ConsoleExit, ConsoleOptions};
    let options = ConsoleOptions {
        config: cli.config_request(),
        context: cli.context.to_context(),
        mcp_listen: cli.mcp_listen.clone(),
        mcp_token: cli.mcp_token.clone(),
        server_listing: cli.server_listing().clone(),
        headless_commands: command_summary(),
        all_operators: cli.all_operators,
    };
    match crate::tui::run_console(&options) {
        ConsoleExit::Closed => exit::OK,
        ConsoleExit::Usage => exit::USAGE,
        ConsoleExit::Failed => exit::TOOL_ERROR,
    }
}

/// Commands that use none of the context flags nor the global ones but those named: their
/// help lists only the flags they take.
const OWN_FLAGS_ONLY: [(&str, &[&str]); 3] =
    [("paths", &["config"]), ("completions", &[]), ("man", &[])];

/// clawdeck's command line as clap parses it, help and man pages included: the derive's,
/// with the flags a command ignores hidden from its help. (A hidden, local copy of a global
/// flag on a subcommand takes the global's place there: clap does not propagate a global to a
/// subcommand that has an argument of that id.)
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    for (name, keep) in OWN_FLAGS_ONLY {
        let ignored: Vec<clap::Arg> = cli
            .get_arguments()
            .filter(|a| a.is_global_set() && !keep.contains(&a.get_id().as_str()))
            .map(|a| a.clone().global(false).hide(true))
            .collect();
        cli = cli.mut_subcommand(name, |sub| sub.args(ignored));
    }
    cli
}

/// Parses arguments and runs; the binary only calls this.
pub fn main() -> ExitCode {
    use clap::FromArgMatches;
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(err) => err.exit(),
    };
    if let Some(conflict) = cli.context.to_context().delivery_conflict() {
        command()
            .error(clap::error::ErrorKind::ArgumentConflict, conflict)
            .exit();
    }
    logging::init(cli.command.is_none());
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
        Some(Command::Chat(ref args)) => chat::run(&cli, args),
        Some(Command::Approvals(ref args)) => approvals::run(&cli, args),
        Some(Command::Catalog(ref args)) => catalog_sync::run(&cli, args),
        Some(Command::Lint(ref args)) => lint::run(&cli, args),
        Some(Command::Diff(ref args)) => diff::run(&cli, args),
        Some(Command::Mcp(ref args)) => mcp::run(&cli, args),
        Some(Command::Log(ref args)) => log::run(&cli, args),
        Some(Command::Paths(ref args)) => paths::run(&cli, args),
        Some(Command::Completions(ref args)) => completions::run_completions(args),
        Some(Command::Man(ref args)) => completions::run_man(args),
        None => console(&cli),
    };
    ExitCode::from(code)
}
