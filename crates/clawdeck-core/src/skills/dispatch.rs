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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::config::load_from_str;
    use crate::context::PolicyContext;
    use crate::skills::commands::build_skill_commands;
    use crate::skills::load::skill_from_text;
    use crate::skills::{Skill, SkillSource};
    use serde_json::json;
    use std::path::Path;

    const CONFIG: &str = r#"{
        agents: { list: [
            { id: "main", default: true },
            { id: "locked", tools: { deny: ["sessions_spawn"] } },
        ] },
    }"#;

    fn skill(text: &str, name: &str) -> Skill {
        let path = Path::new("/ws/skills").join(name).join("SKILL.md");
        skill_from_text(
            text,
            &path,
            Path::new("/ws/skills"),
            name,
            SkillSource::Workspace,
        )
        .unwrap()
    }

    fn plan(input: &str, agent: &str) -> DispatchPlan {
        let config = load_from_str(CONFIG, "test.json5")
            .unwrap()
            .with_pack("seed")
            .unwrap();
        let registry = Registry::build(&config, &crate::mcp_servers::ServerListing::Off);
        let ctx = PolicyContext {
            agent: Some(agent.to_string()),
            ..Default::default()
        };
        let resolution = crate::policy::resolve(&config, &registry, &ctx).unwrap();
        let skills = [
            skill(
                "---\ndescription: Database expert\ncommand-dispatch: tool\ncommand-tool: sessions_spawn\n---\n",
                "db-expert",
            ),
            skill("---\ndescription: Writes docs\n---\n", "docs"),
            skill(
                "---\ndescription: Ghost\ncommand-dispatch: tool\ncommand-tool: no_such_tool\n---\n",
                "ghost",
            ),
        ];
        let refs: Vec<&Skill> = skills.iter().collect();
        plan_dispatch(input, &build_skill_commands(&refs), &resolution, &registry)
    }

    #[test]
    fn tool_dispatch_passes_raw_args_and_the_skill_as_agent() {
        match plan("/db_expert optimize this query", "main") {
            DispatchPlan::ToolCall {
                tool,
                params,
                command,
                ..
            } => {
                assert_eq!(tool, "sessions_spawn");
                assert_eq!(command, "db_expert");
                assert_eq!(params["agentId"], json!("db-expert"));
                let text = params
                    .get("message")
                    .or_else(|| params.get("task"))
                    .unwrap();
                assert_eq!(text, "optimize this query");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hidden_tools_are_refused_with_the_layer() {
        match plan("/db-expert optimize", "locked") {
            DispatchPlan::Refused {
                tool,
                layer,
                config_path,
                ..
            } => {
                assert_eq!(tool, "sessions_spawn");
                assert_eq!(layer.as_deref(), Some("agent"));
                assert!(
                    config_path
                        .unwrap()
                        .starts_with("agents.list[1].tools.deny")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn other_outcomes() {
        assert!(matches!(
            plan("/docs write the intro", "main"),
            DispatchPlan::Model { .. }
        ));
        assert!(matches!(
            plan("/ghost x", "main"),
            DispatchPlan::UnknownTool { .. }
        ));
        assert!(matches!(
            plan("/nope", "main"),
            DispatchPlan::UnknownCommand { .. }
        ));
        assert_eq!(plan("hello", "main"), DispatchPlan::NotACommand);
    }
}
