//! `clawdeck tools`: the final tool list for a context.

use clap::Args;
use serde_json::{Value, json};

use super::remote_config::{self, RemoteConfigArgs};
use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::policy::{self, Resolution};

#[derive(Debug, Args)]
pub struct ToolsArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    /// What `clawdeck mcp` serves in this context instead: OpenClaw's visible tools and
    /// clawdeck's own (clawbot_router, the local system tools), each with its owner
    #[arg(long)]
    pub mcp: bool,
    #[command(flatten)]
    pub remote: RemoteConfigArgs,
}

/// Loads config and registry and resolves the CLI's context; on failure prints the error and
/// returns the exit status.
pub(crate) fn load_and_resolve(
    cli: &Cli,
    remote: &RemoteConfigArgs,
    command: &str,
) -> Result<(LoadedConfig, Registry, Resolution), u8> {
    let loaded = remote_config::load(cli, remote, command)?;
    let registry = Registry::build(&loaded, cli.server_listing());
    let resolution =
        policy::resolve(&loaded, &registry, &cli.context.to_context()).map_err(|err| {
            super::err_untrusted(cli, &format!("clawdeck {command}: {err}"));
            exit::USAGE
        })?;
    Ok((loaded, registry, resolution))
}

/// Config and registry warnings (no layer) followed by the policy's, as JSON objects.
pub(crate) fn warnings_json(
    loaded: &LoadedConfig,
    registry: &Registry,
    res: &Resolution,
) -> Vec<Value> {
    let mut out: Vec<Value> = loaded
        .warnings
        .iter()
        .chain(&registry.warnings)
        .map(|w| json!({"layer": null, "message": w, "config_path": null}))
        .collect();
    out.extend(
        res.warnings
            .iter()
            .map(|w| json!({"layer": w.layer, "message": w.message, "config_path": w.config_path})),
    );
    out
}

/// Config and registry warnings for human output (stderr; they quote config text).
pub(crate) fn print_load_warnings(cli: &Cli, loaded: &LoadedConfig, registry: &Registry) {
    for w in loaded.warnings.iter().chain(&registry.warnings) {
        super::err_untrusted(cli, &format!("warning: {w}"));
    }
}

pub fn run(cli: &Cli, args: &ToolsArgs) -> u8 {
    let (loaded, registry, res) = match load_and_resolve(cli, &args.remote, "tools") {
        Ok(v) => v,
        Err(code) => return code,
    };
    if args.json {
        let out = tools_json(&res, args.mcp, warnings_json(&loaded, &registry, &res));
        outln!("{}", crate::cli::json_text::pretty(&out));
    } else {
        print_load_warnings(cli, &loaded, &registry);
        super::out_untrusted(cli, &format!("config: {}\n", loaded.describe()));
        let list = if args.mcp {
            policy::render_served_list(&res)
        } else {
            policy::render_tool_list(&res)
        };
        super::out_untrusted(cli, &list);
    }
    exit::OK
}

/// `tools --json`: OpenClaw's visible tools and, apart, clawdeck's own; with `--mcp`, what
/// `clawdeck mcp` serves (both, each with its owner; nothing when the run is refused).
fn tools_json(res: &Resolution, served: bool, warnings: Vec<Value>) -> Value {
    let entry = |t: &policy::ToolTrace| {
        let mut tool = json!({"name": t.name, "source": t.source, "group": t.groups});
        if let Some(id) = &t.plugin_id {
            tool["plugin"] = json!(id);
        }
        if let Some(node) = &t.node {
            tool["node"] = json!({"id": node.id, "label": node.label});
        }
        if served {
            tool["owner"] = json!(t.owner());
        }
        tool
    };
    if served {
        let tools: Vec<Value> = res.served().map(entry).collect();
        return json!({"served_by": "clawdeck mcp", "tools": tools, "warnings": warnings});
    }
    let (own, openclaws): (Vec<_>, Vec<_>) = res.visible().partition(|t| t.clawdeck_own);
    let mut out = json!({
        "tools": openclaws.into_iter().map(entry).collect::<Vec<_>>(),
        "clawdeck_own": own.into_iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
        "warnings": warnings,
    });
    // The tools the policy keeps, and that OpenClaw refuses the run (its model gets none).
    if let Some(refusal) = &res.refusal {
        out["refused"] = json!(refusal);
    }
    out
}
