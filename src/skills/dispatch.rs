//! Planning a `/command` (seed 002 §9): which skill it names, and for `command-dispatch: tool`
//! skills the exact tool call, checked against the same policy resolution the model's tool list
//! comes from. Planning never runs anything; the pipeline runs the planned call.

use serde::Serialize;
use serde_json::Value;

use super::commands::{SkillCommand, dispatch_params, find_command, parse_slash};
use crate::catalog::Registry;
use crate::policy::Resolution;

/// What a line of user input does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum DispatchPlan {
    /// The command calls a tool directly with the raw arguments.
    ToolCall {
        command: String,
        skill: String,
        tool: String,
        arg_mode: String,
        params: Value,
    },
    /// A skill command without tool dispatch: the text goes to the model, which is pointed at
    /// the skill.
    Model {
        command: String,
        skill: String,
        args: String,
    },
    /// The dispatch tool is hidden in this context.
    Refused {
        command: String,
        skill: String,
        tool: String,
        /// The first layer that removed it, and why.
        layer: Option<String>,
        config_path: Option<String>,
        reason: String,
    },
    /// The skill names a tool clawdeck does not know.
    UnknownTool {
        command: String,
        skill: String,
        tool: String,
    },
    /// `/name` matches no skill command.
    UnknownCommand { typed: String, known: Vec<String> },
    /// The input does not start with `/`.
    NotACommand,
}

impl DispatchPlan {
    /// One line for people.
    pub fn summary(&self) -> String {
        match self {
            DispatchPlan::ToolCall {
                command,
                tool,
                params,
                ..
            } => format!("/{command} → {tool} {params}"),
            DispatchPlan::Model { command, skill, .. } => {
                format!("/{command} → the model, pointed at skill \"{skill}\" (no tool dispatch)")
            }
            DispatchPlan::Refused {
                command,
                tool,
                reason,
                ..
            } => {
                format!("/{command} → {tool} refused: {reason}")
            }
            DispatchPlan::UnknownTool {
                command,
                tool,
                skill,
            } => {
                format!("/{command}: skill \"{skill}\" dispatches to unknown tool \"{tool}\"")
            }
            DispatchPlan::UnknownCommand { typed, known } => {
                let known = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                format!("/{typed}: no such skill command (known: {known})")
            }
            DispatchPlan::NotACommand => "not a /command".to_string(),
        }
    }
}

/// Plans `input` against the context's commands, resolution and registry.
pub fn plan_dispatch(
    input: &str,
    commands: &[SkillCommand],
    resolution: &Resolution,
    registry: &Registry,
) -> DispatchPlan {
    let Some((typed, args)) = parse_slash(input) else {
        return DispatchPlan::NotACommand;
    };
    let Some(command) = find_command(commands, &typed) else {
        return DispatchPlan::UnknownCommand {
            typed,
            known: commands.iter().map(|c| c.name.clone()).collect(),
        };
    };
    let Some(dispatch) = &command.dispatch else {
        return DispatchPlan::Model {
            command: command.name.clone(),
            skill: command.skill_name.clone(),
            args,
        };
    };
    let names = (
        command.name.clone(),
        command.skill_name.clone(),
        dispatch.tool.clone(),
    );
    let (command_name, skill, tool) = names;
    let (Some(spec), Some(trace)) = (registry.get(&tool), resolution.trace(&tool)) else {
        return DispatchPlan::UnknownTool {
            command: command_name,
            skill,
            tool,
        };
    };
    if !trace.visible {
        let removal = trace.removed_by.as_ref();
        return DispatchPlan::Refused {
            command: command_name,
            skill,
            tool: trace.name.clone(),
            layer: removal.map(|r| r.layer.id().to_string()),
            config_path: removal.and_then(|r| r.config_path.clone()),
            reason: removal
                .map(|r| r.reason.clone())
                .unwrap_or_else(|| "hidden by policy".to_string()),
        };
    }
    let params = dispatch_params(spec, &skill, &args);
    DispatchPlan::ToolCall {
        command: command_name,
        skill,
        tool: spec.name.clone(),
        arg_mode: dispatch.arg_mode.clone(),
        params,
    }
}
