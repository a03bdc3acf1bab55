//! `clawdeck tools`: the final tool list for a context.

use clap::Args;
use serde_json::{Value, json};

use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::{self, LoadedConfig};
use crate::policy::{self, Resolution};

#[derive(Debug, Args)]
pub struct ToolsArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

/// Loads config and registry and resolves the CLI's context; on failure prints the error and
/// returns the exit status.
pub(crate) fn load_and_resolve(
    cli: &Cli,
    command: &str,
) -> Result<(LoadedConfig, Registry, Resolution), u8> {
    let loaded = config::load(cli.config.as_deref()).map_err(|err| {
        eprintln!("clawdeck {command}: {err}");
        exit::USAGE
    })?;
    let registry = Registry::build(&loaded);
    let resolution =
        policy::resolve(&loaded, &registry, &cli.context.to_context()).map_err(|err| {
            eprintln!("clawdeck {command}: {err}");
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

/// Config and registry warnings for human output (stderr).
pub(crate) fn print_load_warnings(loaded: &LoadedConfig, registry: &Registry) {
    for w in loaded.warnings.iter().chain(&registry.warnings) {
        eprintln!("warning: {}", crate::term::for_terminal_if_tty_stderr(w));
    }
}

pub fn run(cli: &Cli, args: &ToolsArgs) -> u8 {
    let (loaded, registry, res) = match load_and_resolve(cli, "tools") {
        Ok(v) => v,
        Err(code) => return code,
    };
    if args.json {
        let tools: Vec<Value> = res
            .visible()
            .map(|t| {
                let mut tool = json!({"name": t.name, "source": t.source, "group": t.groups});
                if let Some(id) = &t.plugin_id {
                    tool["plugin"] = json!(id);
                }
                tool
            })
            .collect();
        let out = json!({"tools": tools, "warnings": warnings_json(&loaded, &registry, &res)});
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        print_load_warnings(&loaded, &registry);
        outln!("config: {}", loaded.describe());
        out!("{}", policy::render_tool_list(&res));
    }
    exit::OK
}
