//! `clawdeck diff`: what-if between two resolutions. Side a is the usual context (the global
//! flags); side b changes one or more of: context fields (`--vs KEY=VALUE`, `--vs-agent`), the
//! config (`--vs-config`), the OpenClaw version (`--vs-openclaw-version`). Exit 0 when both sides
//! show the same tools, 1 when they differ, 2 on bad input.

use std::path::PathBuf;

use clap::Args;

use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::{self, LoadedConfig};
use crate::context::PolicyContext;
use crate::mcp_servers::ServerListing;
use crate::policy::diff::{DiffInput, apply_override, describe_context, diff, render_diff};
use crate::policy::{self, Resolution};

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Side b changes a context field, KEY=VALUE (repeatable). Keys: agent, provider, model,
    /// channel, account, group, sender-id, sender-e164, sender-username, sender-name, owner,
    /// session-key, subagent, subagent-depth, sandboxed
    #[arg(long = "vs", value_name = "KEY=VALUE")]
    pub vs: Vec<String>,
    /// Side b is another agent (short for --vs agent=ID)
    #[arg(long, value_name = "ID")]
    pub vs_agent: Option<String>,
    /// Side b reads another config file
    #[arg(long, value_name = "PATH")]
    pub vs_config: Option<PathBuf>,
    /// Side b answers as another OpenClaw version (`seed`, `2026.9`, a synced version)
    #[arg(long, value_name = "VERSION")]
    pub vs_openclaw_version: Option<String>,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// One side, loaded and resolved.
struct Side {
    label: String,
    /// Where its config came from, as the report names it.
    config: String,
    registry: Registry,
    resolution: Resolution,
}

impl Side {
    fn input(&self) -> DiffInput<'_> {
        DiffInput {
            label: self.label.clone(),
            config: self.config.clone(),
            resolution: &self.resolution,
            semantics: &self.registry.semantics,
        }
    }
}

fn fail(message: impl std::fmt::Display) -> u8 {
    // The message may quote config text (an agent id, a path).
    eprintln!(
        "{}",
        crate::sanitize::for_terminal_if_tty_stderr(&format!("clawdeck diff: {message}"))
    );
    exit::USAGE
}

fn resolve_side(
    loaded: LoadedConfig,
    ctx: &PolicyContext,
    listing: &ServerListing,
) -> Result<Side, String> {
    let registry = Registry::build(&loaded, listing);
    let resolution = policy::resolve(&loaded, &registry, ctx).map_err(|e| e.to_string())?;
    Ok(Side {
        label: describe_context(ctx, &resolution.resolved.agent),
        config: loaded.describe(),
        registry,
        resolution,
    })
}

pub fn run(cli: &Cli, args: &DiffArgs) -> u8 {
    if args.vs.is_empty()
        && args.vs_agent.is_none()
        && args.vs_config.is_none()
        && args.vs_openclaw_version.is_none()
    {
        return fail(
            "nothing to compare: give side b with --vs KEY=VALUE, --vs-agent, --vs-config or --vs-openclaw-version",
        );
    }
    let ctx_a = cli.context.to_context();
    let mut ctx_b = ctx_a.clone();
    if let Some(agent) = &args.vs_agent {
        ctx_b.agent = Some(agent.clone());
    }
    for assignment in &args.vs {
        if let Err(err) = apply_override(&mut ctx_b, assignment) {
            return fail(format!("--vs {err}"));
        }
    }

    let loaded_a = match config::load_from(&cli.config_request()) {
        Ok(loaded) => loaded,
        Err(err) => return fail(err),
    };
    let loaded_b = match &args.vs_config {
        Some(path) => match config::load_from(&crate::config::ConfigRequest {
            path: Some(path.clone()),
            ..cli.config_request()
        }) {
            Ok(loaded) => loaded,
            Err(err) => return fail(format!("--vs-config: {err}")),
        },
        None => loaded_a.clone(),
    };
    let loaded_b = match &args.vs_openclaw_version {
        Some(version) => match loaded_b.with_pack(version) {
            Ok(loaded) => loaded,
            Err(err) => return fail(format!("--vs-openclaw-version: {err}")),
        },
        None => loaded_b,
    };
    let a = match resolve_side(loaded_a, &ctx_a, cli.server_listing()) {
        Ok(side) => side,
        Err(err) => return fail(err),
    };
    let mut b = match resolve_side(loaded_b, &ctx_b, cli.server_listing()) {
        Ok(side) => side,
        Err(err) => return fail(format!("side b: {err}")),
    };
    // Side b's file came from --vs-config, not --config.
    if let Some(path) = &args.vs_config {
        b.config = format!("{} (--vs-config)", path.display());
    }
    let d = diff(&a.input(), &b.input());
    if args.json {
        outln!("{}", crate::cli::json_text::pretty(&d));
    } else {
        super::out_untrusted(cli, &render_diff(&d));
    }
    if d.is_same() {
        exit::OK
    } else {
        exit::TOOL_ERROR
    }
}
