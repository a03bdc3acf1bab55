//! `clawdeck explain [TOOL]`: one tool's path through the policy layers, or the whole
//! tool × layer matrix.

use clap::Args;
use serde_json::json;

use super::remote_config::{self, RemoteConfigArgs};
use super::tools::{load_and_resolve, print_load_warnings, warnings_json};
use super::{Cli, exit};
use crate::policy;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The tool to explain (aliases such as `bash` work); without it, every tool × every layer
    pub tool: Option<String>,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub remote: RemoteConfigArgs,
    #[command(flatten)]
    pub exec: super::explain_exec::ExecCommandArgs,
}

pub fn run(cli: &Cli, args: &ExplainArgs) -> u8 {
    let (loaded, registry, res) = match load_and_resolve(cli, &args.remote, "explain") {
        Ok(v) => v,
        Err(code) => return code,
    };
    // With --remote-config --session-key: the gateway's own answer for that session, beside.
    let beside = match remote_config::session_effective(cli, &args.remote).transpose() {
        Ok(beside) => beside,
        Err(err) => {
            super::err_untrusted(cli, &format!("clawdeck explain: {err}"));
            return exit::TOOL_ERROR;
        }
    };
    if let Some(code) = super::explain_exec::run(
        cli,
        &args.exec,
        &args.remote,
        args.tool.as_deref(),
        &loaded,
        &res,
        args.json,
    ) {
        return code;
    }
    match &args.tool {
        Some(name) => {
            let Some(trace) = res.trace(name) else {
                let message = not_built(&loaded, &res, name);
                super::err_untrusted(cli, &message);
                return exit::USAGE;
            };
            if args.json {
                let mut out = serde_json::to_value(trace).unwrap_or_default();
                out["context"] = serde_json::to_value(&res.resolved).unwrap_or_default();
                let related: Vec<_> = warnings_json(&loaded, &registry, &res)
                    .into_iter()
                    .filter(|w| {
                        w["layer"].is_null()
                            || trace.decisions.iter().any(|d| {
                                d.decision != policy::Decision::Skipped && w["layer"] == json!(d.id)
                            })
                    })
                    .collect();
                out["warnings"] = json!(related);
                if let Some(beside) = &beside {
                    out["gateway_effective"] = beside.json();
                }
                outln!("{}", crate::cli::json_text::pretty(&out));
            } else {
                print_load_warnings(cli, &loaded, &registry);
                super::out_untrusted(cli, &format!("config: {}\n", loaded.describe()));
                super::out_untrusted(cli, &policy::render_tool(&res, trace));
                // A media tool, or one a model that takes images brings, is in the run only
                // because something brought it: say what.
                if let Some(because) = &trace.built_because {
                    super::out_untrusted(cli, &format!("built because {because}\n"));
                }
                if let Some(beside) = &beside {
                    super::out_untrusted(cli, &beside.text(Some(&trace.name)));
                }
            }
        }
        None => {
            if args.json {
                let mut out = json!({
                    "context": res.resolved,
                    "layers": res.layers,
                    "tools": res.tools,
                    "warnings": warnings_json(&loaded, &registry, &res),
                });
                if let Some(beside) = &beside {
                    out["gateway_effective"] = beside.json();
                }
                outln!("{}", crate::cli::json_text::pretty(&out));
            } else {
                print_load_warnings(cli, &loaded, &registry);
                super::out_untrusted(cli, &format!("config: {}\n", loaded.describe()));
                super::out_untrusted(cli, &policy::render_table(&res));
                if let Some(beside) = &beside {
                    super::out_untrusted(cli, &beside.text(None));
                }
            }
        }
    }
    exit::OK
}

/// Why `name` is not in this context's run: a plugin that is off by default, what would
/// bring it, or that no tool has that name.
fn not_built(loaded: &crate::config::LoadedConfig, res: &policy::Resolution, name: &str) -> String {
    let brings = loaded.semantics.what_brings(name);
    match (off_by_default_plugin(loaded, name), brings) {
        (Some(plugin), _) => format!(
            "clawdeck explain: \"{name}\" is a tool of the bundled plugin \"{plugin}\", which is off by default: plugins.entries.{plugin}.enabled: true turns it on"
        ),
        (None, Some(brings)) => format!(
            "clawdeck explain: OpenClaw builds \"{name}\" only with {brings}; this config's run does not have it"
        ),
        (None, None) => {
            let known: Vec<&str> = res.tools.iter().map(|t| t.name.as_str()).collect();
            format!(
                "clawdeck explain: unknown tool \"{name}\" (known: {})",
                known.join(", ")
            )
        }
    }
}

/// The off-by-default bundled plugin whose tool `name` is, when the config did not turn it on.
fn off_by_default_plugin(loaded: &crate::config::LoadedConfig, name: &str) -> Option<String> {
    let semantics = &loaded.semantics;
    semantics
        .plugins_off_by_default
        .iter()
        .find(|(_, tools)| tools.iter().any(|t| t.name == name))
        .map(|(plugin, _)| plugin.clone())
}
