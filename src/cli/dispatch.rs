//! `clawdeck dispatch "/name args"`: routes a skill `/command` the way OpenClaw does, under the
//! same policy as the model's tool list.

use clap::Args;
use serde_json::json;

use super::schema::load_view;
use super::{Cli, exit};
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
    let (_loaded, registry, view) = match load_view(cli, "dispatch", &LlmViewOptions::default()) {
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
        // Running needs the execution pipeline (policy re-check, hooks, lane, execute); until
        // this build has one, say so rather than pretend.
        eprintln!(
            "clawdeck dispatch: would call {tool} {params}; running tools from dispatch is not available in this build, use --dry-run to see the call"
        );
        return exit::USAGE;
    }

    if args.json {
        let out = json!({"input": args.input, "dry_run": args.dry_run, "plan": plan});
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return code;
    }
    match &plan {
        DispatchPlan::ToolCall { tool, params, .. } => {
            eprintln!("clawdeck dispatch: {}", plan.summary());
            let call = json!({"tool": tool, "params": params});
            println!(
                "{}",
                serde_json::to_string_pretty(&call).unwrap_or_default()
            );
        }
        DispatchPlan::Model { .. } => println!("{}", plan.summary()),
        _ => eprintln!("clawdeck dispatch: {}", plan.summary()),
    }
    code
}
