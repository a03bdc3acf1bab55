//! The system prompt the model receives (seed 002 §3.2, §4.3, §8; OpenClaw's
//! `buildAgentSystemPrompt`), reduced to the sections that depend on tools and skills: identity,
//! Tooling, Tool Call Style, the clawbot_router guidance, Skills, Workspace and Runtime.
//!
//! Pure: the CLI prints [`build_system_prompt`]'s text, the console renders [`prompt_sections`].

mod channel_union;
mod cross_channel;
mod imessage_remote;
pub mod job_message;
pub mod openclaw_prompt;
mod owner_actions;
mod plugin_skills;
mod provider_overlay;
pub mod report;
pub mod router_guidance;
mod run_facts;
pub mod sandbox_info;
pub(crate) mod session_visibility;
mod skills_catalog;
pub mod split;
pub mod surface;
pub mod template;
mod tooling;
pub mod view;
pub mod workspace_files;

use std::path::PathBuf;

use serde::Serialize;

use crate::tool::ToolSpec;
pub use tooling::{MINIMAL_CORE_TOOLS, TOOL_ORDER, core_summary, order_tools, tool_line};
pub use view::{LlmView, LlmViewOptions, build_llm_view};

/// The identity line every mode starts with.
pub(crate) const IDENTITY_LINE: &str = "You are a personal assistant running inside OpenClaw.";
/// The name of the router tool whose guidance joins the prompt when it is visible.
pub const ROUTER_TOOL: &str = "clawbot_router";

/// How much of the prompt is built (seed 002 §8.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptMode {
    /// Main session: every section, all visible tools, skills.
    #[default]
    Full,
    /// Subagent: no skills, only the core tool subset.
    Minimal,
    /// The identity line only.
    None,
}

impl PromptMode {
    pub fn parse(text: &str) -> Option<PromptMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "full" => Some(PromptMode::Full),
            "minimal" => Some(PromptMode::Minimal),
            "none" => Some(PromptMode::None),
            _ => None,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            PromptMode::Full => "full",
            PromptMode::Minimal => "minimal",
            PromptMode::None => "none",
        }
    }
}

/// The facts of the `Runtime:` line; absent ones are left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RuntimeInfo {
    pub agent: Option<String>,
    pub os: Option<String>,
    pub arch: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub channel: Option<String>,
}

/// Everything the prompt depends on.
#[derive(Debug, Clone, Default)]
pub struct PromptInput<'a> {
    pub mode: PromptMode,
    /// The tools visible in this context (after policy), in any order.
    pub tools: &'a [ToolSpec],
    /// The skills block (`SkillsPrompt::text`); empty or None = no Skills section.
    pub skills_prompt: Option<&'a str>,
    /// The clawbot_router section (from `router_guidance`), used only when the router
    /// tool is among `tools`.
    pub router_guidance: Option<&'a str>,
    pub workspace: Option<PathBuf>,
    pub runtime: RuntimeInfo,
    /// The Tooling section as the OpenClaw version in use writes it (replaces the seeds').
    pub tooling: Option<String>,
}

/// One titled part of the prompt (the identity line has an empty title).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptSection {
    pub title: String,
    pub text: String,
}

/// The tools the prompt's Tooling section lists for `mode`, in prompt order.
pub(crate) fn tools_for_mode(mode: PromptMode, tools: &[ToolSpec]) -> Vec<&ToolSpec> {
    let ordered = order_tools(tools);
    match mode {
        PromptMode::Full => ordered,
        PromptMode::Minimal => ordered
            .into_iter()
            .filter(|t| MINIMAL_CORE_TOOLS.contains(&t.name.trim().to_lowercase().as_str()))
            .collect(),
        PromptMode::None => Vec::new(),
    }
}

/// The Skills section (seed 002 §3.2), or None when there is nothing to list or in a minimal
/// prompt.
pub(crate) fn skills_section(
    skills_prompt: Option<&str>,
    mode: PromptMode,
    read_tool_name: &str,
) -> Option<String> {
    if mode != PromptMode::Full {
        return None;
    }
    let trimmed = skills_prompt.map(str::trim).filter(|s| !s.is_empty())?;
    Some(
        [
            "## Skills (mandatory)".to_string(),
            "Before replying: scan <available_skills> <description> entries.".to_string(),
            format!(
                "- If exactly one skill clearly applies: read its SKILL.md at <location> with `{read_tool_name}`, then follow it."
            ),
            "- If multiple could apply: choose the most specific one, then read/follow it.".to_string(),
            "- If none clearly apply: do not read any SKILL.md.".to_string(),
            "Constraints: never read more than one skill up front; only read after selecting.".to_string(),
            String::new(),
            trimmed.to_string(),
        ]
        .join("\n"),
    )
}

fn tooling_section(tools: &[&ToolSpec]) -> String {
    let mut lines = vec![
        "## Tooling".to_string(),
        "Tool availability (filtered by policy):".to_string(),
        "Tool names are case-sensitive. Call tools exactly as listed.".to_string(),
    ];
    if tools.is_empty() {
        lines.push("(no tools are available in this context)".to_string());
    } else {
        lines.extend(tools.iter().map(|t| tool_line(t)));
    }
    lines.push(
        "TOOLS.md does not control tool availability; it is user guidance for how to use external tools.".to_string(),
    );
    if tools.iter().any(|t| t.name == "sessions_spawn") {
        lines.push(
            "If a task is more complex or takes longer, spawn a sub-agent. It will do the work for you and ping you when it's done. You can always check up on it."
                .to_string(),
        );
    }
    lines.join("\n")
}

const TOOL_CALL_STYLE: &str = "## Tool Call Style
Default: do not narrate routine, low-risk tool calls (just call the tool).
Narrate only when it helps: multi-step work, complex/challenging problems, sensitive actions (e.g., deletions), or when the user explicitly asks.
Keep narration brief and value-dense; avoid repeating obvious steps.
Use plain human language for narration unless in a technical context.";

fn runtime_line(runtime: &RuntimeInfo) -> String {
    let mut parts = Vec::new();
    if let Some(agent) = &runtime.agent {
        parts.push(format!("agent={agent}"));
    }
    match (&runtime.os, &runtime.arch) {
        (Some(os), Some(arch)) => parts.push(format!("os={os} ({arch})")),
        (Some(os), None) => parts.push(format!("os={os}")),
        (None, Some(arch)) => parts.push(format!("arch={arch}")),
        (None, None) => {}
    }
    if let Some(provider) = &runtime.provider {
        parts.push(format!("provider={provider}"));
    }
    if let Some(model) = &runtime.model {
        parts.push(format!("model={model}"));
    }
    if let Some(channel) = &runtime.channel {
        parts.push(format!("channel={channel}"));
    }
    parts.push("thinking=off".to_string());
    format!("Runtime: {}", parts.join(" | "))
}

/// The prompt as titled sections, in order.
pub(crate) fn prompt_sections(input: &PromptInput<'_>) -> Vec<PromptSection> {
    let mut sections = vec![PromptSection {
        title: String::new(),
        text: IDENTITY_LINE.to_string(),
    }];
    if input.mode == PromptMode::None {
        return sections;
    }
    let tools = tools_for_mode(input.mode, input.tools);
    let section = |title: &str, text: String| PromptSection {
        title: title.to_string(),
        text,
    };
    let tooling = match (&input.tooling, input.mode) {
        (Some(text), PromptMode::Full) => text.trim_end().to_string(),
        _ => tooling_section(&tools),
    };
    sections.push(section("Tooling", tooling));
    sections.push(section("Tool Call Style", TOOL_CALL_STYLE.to_string()));
    if let Some(guidance) = input
        .router_guidance
        .map(str::trim)
        .filter(|g| !g.is_empty())
        && tools.iter().any(|t| t.name == ROUTER_TOOL)
    {
        sections.push(section("clawbot_router", guidance.to_string()));
    }
    let read_tool = tools
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case("read"))
        .map(|t| t.name.as_str())
        .unwrap_or("read");
    if let Some(skills) = skills_section(input.skills_prompt, input.mode, read_tool) {
        sections.push(section("Skills", skills));
    }
    if let Some(workspace) = &input.workspace {
        sections.push(section(
            "Workspace",
            format!(
                "## Workspace\nYour working directory is: {}\nTreat this directory as the single global workspace for file operations unless explicitly instructed otherwise.",
                workspace.display()
            ),
        ));
    }
    sections.push(section(
        "Runtime",
        format!("## Runtime\n{}", runtime_line(&input.runtime)),
    ));
    sections
}

/// The full prompt text: sections separated by a blank line.
pub fn build_system_prompt(input: &PromptInput<'_>) -> String {
    join_sections(&prompt_sections(input))
}

/// Sections as one text, separated by a blank line.
pub(crate) fn join_sections(sections: &[PromptSection]) -> String {
    sections
        .iter()
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::tool::{ToolFlags, ToolSource};
    use serde_json::json;

    fn spec(name: &str, summary: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            label: name.into(),
            description: String::new(),
            summary: summary.into(),
            emoji: "🧩".into(),
            parameters: json!({"type": "object", "properties": {}}),
            source: ToolSource::Core,
            flags: ToolFlags::default(),
        }
    }

    #[test]
    fn tools_follow_openclaw_order_then_alphabetical() {
        let tools = [
            spec("zeta_plugin", "Z things"),
            spec("exec", ""),
            spec("alpha", ""),
            spec("read", "ignored"),
            spec("EXEC", ""),
        ];
        let lines: Vec<String> = tools_for_mode(PromptMode::Full, &tools)
            .into_iter()
            .map(tool_line)
            .collect();
        assert_eq!(
            lines,
            vec![
                "- read: Read file contents",
                "- exec: Run shell commands (pty available for TTY-required CLIs)",
                "- alpha",
                "- zeta_plugin: Z things",
            ]
        );
    }

    #[test]
    fn minimal_keeps_the_core_subset_and_drops_skills() {
        let tools = [
            spec("read", ""),
            spec("browser", ""),
            spec("exec", ""),
            spec("clawbot_router", ""),
        ];
        let input = PromptInput {
            mode: PromptMode::Minimal,
            tools: &tools,
            skills_prompt: Some("<available_skills>\n</available_skills>"),
            router_guidance: Some("## router"),
            ..Default::default()
        };
        let text = build_system_prompt(&input);
        assert!(text.contains("- read: Read file contents\n- exec:"));
        assert!(!text.contains("browser"));
        assert!(!text.contains("## Skills"));
        assert!(!text.contains("## router"));
    }

    #[test]
    fn none_is_the_identity_line() {
        let tools = [spec("read", "")];
        let input = PromptInput {
            mode: PromptMode::None,
            tools: &tools,
            ..Default::default()
        };
        assert_eq!(build_system_prompt(&input), IDENTITY_LINE);
    }

    #[test]
    fn router_guidance_only_when_the_router_is_visible() {
        let with = [spec("read", ""), spec("clawbot_router", "Route")];
        let without = [spec("read", "")];
        let guidance = Some("## clawbot_router guidance");
        let input_with = PromptInput {
            tools: &with,
            router_guidance: guidance,
            ..Default::default()
        };
        let input_without = PromptInput {
            tools: &without,
            router_guidance: guidance,
            ..Default::default()
        };
        assert!(build_system_prompt(&input_with).contains("## clawbot_router guidance"));
        assert!(!build_system_prompt(&input_without).contains("## clawbot_router guidance"));
    }

    #[test]
    fn skills_section_is_the_seed_text() {
        let section = skills_section(
            Some("<available_skills>\n</available_skills>\n"),
            PromptMode::Full,
            "read",
        )
        .unwrap();
        assert_eq!(
            section,
            "## Skills (mandatory)\nBefore replying: scan <available_skills> <description> entries.\n- If exactly one skill clearly applies: read its SKILL.md at <location> with `read`, then follow it.\n- If multiple could apply: choose the most specific one, then read/follow it.\n- If none clearly apply: do not read any SKILL.md.\nConstraints: never read more than one skill up front; only read after selecting.\n\n<available_skills>\n</available_skills>"
        );
        assert!(skills_section(Some("  "), PromptMode::Full, "read").is_none());
    }
}
