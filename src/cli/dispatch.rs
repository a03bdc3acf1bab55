//! `clawdeck dispatch "/name args"`: routes a skill `/command` the way OpenClaw does, under the
//! same policy as the model's tool list.

use clap::Args;
use serde_json::{Value, json};

use super::schema::load_view;
use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::pipeline::{CallOutcome, CallRequest};
use crate::prompt::LlmViewOptions;
use crate::skills::{DispatchPlan, plan_dispatch};

#[derive(Debug, Args)]
pub struct DispatchArgs {
    /// The user's message, e.g. "/db_expert optimize this query"
    pub input: String,
    /// Only show the tool call that would be made
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, args: &DispatchArgs) -> u8 {
    let (loaded, registry, view) = match load_view(cli, "dispatch", &LlmViewOptions::default()) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let plan = plan_dispatch(
        &args.input,
        &view.skills.commands,
        &view.resolution,
        &registry,
    );
    let code = match &plan {
        DispatchPlan::ToolCall { .. } | DispatchPlan::Model { .. } => exit::OK,
        DispatchPlan::Refused { .. } => exit::REFUSED,
        DispatchPlan::UnknownTool { .. }
        | DispatchPlan::UnknownCommand { .. }
        | DispatchPlan::NotACommand => exit::USAGE,
    };

    if let DispatchPlan::ToolCall { tool, params, .. } = &plan
        && !args.dry_run
    {
        if !args.json {
            eprintln!("clawdeck dispatch: {}", plan.summary());
        }
        let outcome = run_call(loaded, registry, cli, tool, params.clone());
        return match outcome {
            Ok(outcome) => {
                super::call_report::report(&outcome, args.json, super::output_guard(cli))
            }
            Err(problem) => {
                eprintln!("clawdeck dispatch: {problem}");
                exit::TOOL_ERROR
            }
        };
    }

    if args.json {
        let out = json!({"input": args.input, "dry_run": args.dry_run, "plan": plan});
        outln!("{}", crate::cli::json_text::pretty(&out));
        return code;
    }
    match &plan {
        DispatchPlan::ToolCall { tool, params, .. } => {
            eprintln!("clawdeck dispatch: {}", plan.summary());
            let call = json!({"tool": tool, "params": params});
            outln!("{}", crate::cli::json_text::pretty(&call));
        }
        DispatchPlan::Model { .. } => outln!("{}", plan.summary()),
        _ => eprintln!("clawdeck dispatch: {}", plan.summary()),
    }
    code
}

/// Runs the planned call through the execution pipeline (policy re-check, aliases, validation,
/// hooks, lane, execute), as `clawdeck invoke` does; a stop signal cancels it.
fn run_call(
    loaded: LoadedConfig,
    registry: Registry,
    cli: &Cli,
    tool: &str,
    params: Value,
) -> Result<CallOutcome, String> {
    let runtime = super::async_runtime()?;
    Ok(runtime.block_on(async {
        let deck = crate::deck::Deck::with_registry(loaded, registry, cli.config_request());
        if let Err(err) = deck.record_decisions("dispatch") {
            eprintln!(
                "clawdeck dispatch: the decision log is off: {}",
                crate::sanitize::for_terminal_if_tty_stderr(&err)
            );
        }
        let pipeline = deck.pipeline();
        let request = CallRequest::new(tool, params, cli.context.to_context());
        let cancel = request.cancel.clone();
        // Ctrl-C, SIGTERM or SIGHUP cancel the call; the stop policy then exits 128 + n.
        let stop = crate::process::stop_signals::stop_signals();
        tokio::spawn(async move {
            stop.await;
            cancel.cancel();
        });
        pipeline.call(request).await
    }))
}
