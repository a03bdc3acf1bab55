//! `clawdeck lint`: findings about the config for every agent (or the context given), each
//! naming the key to change. Exit 0 clean, 1 with warnings or errors, 2 when the config cannot
//! be read.

use clap::Args;

use super::remote_config::{self, RemoteConfigArgs};
use super::tools::print_load_warnings;
use super::{Cli, exit};
use crate::catalog::Registry;
use crate::context::PolicyContext;
use crate::lint::{self, LintScope};

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// The host approvals document to check too (JSON5, as `openclaw approvals set --file`
    /// takes it). Default: the one OpenClaw stored in its state database, if any
    #[arg(long, value_name = "FILE")]
    pub approvals: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub remote: RemoteConfigArgs,
}

pub fn run(cli: &Cli, args: &LintArgs) -> u8 {
    let loaded = match remote_config::load(cli, &args.remote, "lint") {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let registry = Registry::build(&loaded, cli.server_listing());
    let ctx = cli.context.to_context();
    let scope = if ctx == PolicyContext::default() {
        LintScope::AllAgents
    } else {
        LintScope::Context(Box::new(ctx))
    };
    let text = lint::config_text(&loaded);
    let mut report = match lint::lint(&loaded, &registry, &scope, text.as_deref()) {
        Ok(report) => report,
        Err(err) => {
            super::err_untrusted(cli, &format!("clawdeck lint: {err}"));
            return exit::USAGE;
        }
    };
    // The host approvals document OpenClaw stored: entries that can never match.
    match crate::exec_verdict::approvals_doc::find(args.approvals.as_deref()) {
        Ok((Some(doc), Some(from))) => report.add(lint::approvals_doc_findings(&doc, &from)),
        Ok(_) => {}
        Err(err) => super::err_untrusted(cli, &format!("clawdeck lint: approvals: {err}")),
    }
    if args.json {
        outln!("{}", crate::cli::json_text::pretty(&report));
    } else {
        print_load_warnings(cli, &loaded, &registry);
        let head = format!(
            "config: {}\nopenclaw: {} semantics ({})\n\n",
            report.config, report.openclaw, report.openclaw_reason
        );
        super::out_untrusted(cli, &head);
        super::out_untrusted(cli, &lint::render_report(&report));
    }
    if report.has_problems() {
        exit::TOOL_ERROR
    } else {
        exit::OK
    }
}
