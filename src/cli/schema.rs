//! `clawdeck schema`: the exact `tools` payload a provider receives in a context.
//!
//! stdout is the payload alone (pipe it into a request); notes go to stderr. `--json` wraps it
//! with the context, the API chosen, dropped tools and the constraint check.

use clap::Args;
use serde_json::json;

use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::{self, LoadedConfig};
use crate::prompt::{LlmView, LlmViewOptions, PromptMode, build_llm_view};
use crate::provider::{ProviderApi, check_payload};

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Request format: openai (Chat Completions), openai-responses, anthropic, gemini. Default:
    /// the one the context's provider (--provider, or the agent's model) speaks.
    #[arg(long, value_name = "API", value_parser = parse_api)]
    pub api: Option<ProviderApi>,
    /// Print JSON with the context, dropped tools and the constraint check
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn parse_api(text: &str) -> Result<ProviderApi, String> {
    ProviderApi::parse(text).ok_or_else(|| {
        format!("unknown API \"{text}\" (expected openai, openai-responses, anthropic or gemini)")
    })
}

/// Loads config and registry and builds the LLM view for the CLI's context; on failure prints
/// the error naming the command and returns the exit status.
pub(crate) fn load_view(
    cli: &Cli,
    command: &str,
    options: &LlmViewOptions,
) -> Result<(LoadedConfig, Registry, LlmView), u8> {
    let loaded = config::load_from(&cli.config_request()).map_err(|err| {
        super::err_untrusted(cli, &format!("clawdeck {command}: {err}"));
        exit::USAGE
    })?;
    let registry = Registry::build(&loaded, cli.server_listing());
    let view =
        build_llm_view(&loaded, &registry, &cli.context.to_context(), options).map_err(|err| {
            super::err_untrusted(cli, &format!("clawdeck {command}: {err}"));
            exit::USAGE
        })?;
    Ok((loaded, registry, view))
}

/// Config, registry and policy warnings, one line each.
pub(crate) fn all_warnings(
    loaded: &LoadedConfig,
    registry: &Registry,
    view: &LlmView,
) -> Vec<String> {
    let mut out: Vec<String> = loaded
        .warnings
        .iter()
        .chain(&registry.warnings)
        .cloned()
        .collect();
    out.extend(view.resolution.warnings.iter().map(|w| w.message.clone()));
    out
}

pub fn run(cli: &Cli, args: &SchemaArgs) -> u8 {
    // Provider exports do not depend on the prompt mode.
    let options = LlmViewOptions {
        api: args.api,
        mode: PromptMode::Full,
    };
    let (loaded, registry, view) = match load_view(cli, "schema", &options) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let violations = check_payload(view.api, &view.export.payload);
    let own_left_out = own_left_out(&view);
    if args.json {
        let out = json!({
            "api": view.api,
            "api_source": view.api_source,
            "context": view.resolution.resolved,
            "tools": view.export.tools,
            "dropped": view.export.warnings,
            "violations": violations,
            "warnings": all_warnings(&loaded, &registry, &view),
            "clawdeck_own": own_left_out,
            "payload": view.export.payload,
        });
        outln!("{}", crate::cli::json_text::pretty(&out));
    } else {
        // Every note may quote config text (agent ids, tool names, deny entries).
        for warning in all_warnings(&loaded, &registry, &view) {
            super::err_untrusted(cli, &format!("warning: {warning}"));
        }
        super::err_untrusted(
            cli,
            &format!(
                "clawdeck schema: {} tools for {} ({}), agent {}",
                view.export.tools.len(),
                view.api,
                view.api_source,
                view.resolution.resolved.agent
            ),
        );
        if view.export.tools.is_empty() {
            eprintln!("no tools in this context: the request leaves `tools` out");
        }
        if !own_left_out.is_empty() {
            eprintln!(
                "not in it: clawdeck's own {} (not OpenClaw's; `clawdeck tools --mcp`)",
                own_left_out.join(", ")
            );
        }
        for dropped in &view.export.warnings {
            super::err_untrusted(cli, &format!("dropped: {dropped}"));
        }
        for violation in &violations {
            super::err_untrusted(cli, &format!("violation: {violation}"));
        }
        outln!("{}", crate::cli::json_text::pretty(&view.export.payload));
    }
    if violations.is_empty() {
        exit::OK
    } else {
        exit::TOOL_ERROR
    }
}

/// clawdeck's own visible tools the payload leaves out: all of them for an OpenClaw release
/// (they are served by `clawdeck mcp`), none for the seed pack, whose design sends them.
fn own_left_out(view: &LlmView) -> Vec<String> {
    view.resolution
        .visible()
        .filter(|t| t.clawdeck_own && !view.export.tools.contains(&t.name))
        .map(|t| t.name.clone())
        .collect()
}
