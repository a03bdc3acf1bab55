//! Where the context window goes: each section of the prompt with its size, where its text
//! came from and the config key that would shrink it, largest first (`prompt --sections`,
//! the Prompt view, `--json`).

use serde::Serialize;

use super::view::LlmView;

/// One section's share of the prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionSize {
    /// The heading (`Tooling`, a workspace file's path; `(identity)` for the opening lines).
    pub title: String,
    pub chars: usize,
    /// Estimated tokens: a quarter of the characters, rounded up (OpenClaw's estimate).
    pub tokens: usize,
    /// Where the text came from.
    pub source: String,
    /// What would make it smaller, when config can.
    pub shrink: Option<String>,
}

fn origin(title: &str, text: &str, view: &LlmView) -> (String, Option<String>) {
    let fixed = || ("the release's prompt builder".to_string(), None);
    if let Some(file) = view.workspace_files.iter().find(|f| f.path == title) {
        let cut = if file.truncated {
            format!(", cut from {} chars", file.original_chars)
        } else {
            String::new()
        };
        let shrink = if file.basename == "bootstrap.md" {
            "finish onboarding (OpenClaw removes BOOTSTRAP.md), or agents.defaults.bootstrapMaxChars"
        } else {
            "edit the file, or agents.defaults.bootstrapMaxChars / bootstrapTotalMaxChars"
        };
        return (format!("workspace file{cut}"), Some(shrink.to_string()));
    }
    match title {
        "Tooling" => (
            format!(
                "the tool catalog ({} tools with schemas{})",
                view.export.tools.len(),
                if text.contains("### Deferred Tool Schemas") {
                    ", the rest in Tool Search's directory"
                } else {
                    ""
                }
            ),
            Some("tools.profile / tools.deny (fewer tools), tools.toolSearch".to_string()),
        ),
        "Skills" => (
            format!(
                "skills ({} of {} in the block)",
                view.skills.prompt.included, view.skills.prompt.total
            ),
            Some(
                "agents.defaults.skills / an agent's skills (allowlists), skills.allowBundled, skills.entries.<name>.enabled, skills.limits.maxSkillsPromptChars"
                    .to_string(),
            ),
        ),
        "Project Context" => (
            format!("{} workspace files", view.workspace_files.len()),
            None,
        ),
        _ => match FIXED_ORIGINS.iter().find(|(t, _, _)| *t == title) {
            Some((_, source, shrink)) => (source.to_string(), Some(shrink.to_string())),
            None => fixed(),
        },
    }
}

/// Sections whose source and shrinking key do not depend on the context: (title, source, key).
const FIXED_ORIGINS: &[(&str, &str, &str)] = &[
    (
        "Interaction Style",
        "the GPT-5 overlay (a gpt-5 model id)",
        "plugins.entries.openai.config.personality: \"off\" (OpenAI-family providers)",
    ),
    (
        "Memory Recall",
        "the memory plugin's tools",
        "plugins.slots.memory: \"none\"",
    ),
    (
        "Delegation",
        "sessions_spawn in a main session",
        "agents.defaults.subagents.delegationMode: \"suggest\"",
    ),
    (
        "Messaging",
        "the message and session tools",
        "tools.deny: [\"message\"]",
    ),
    (
        "Skill Workshop",
        "the skill_workshop tool",
        "tools.deny: [\"skill_workshop\"]",
    ),
    (
        super::ROUTER_TOOL,
        "clawdeck's router guidance (not OpenClaw's)",
        "tools.deny: [\"clawbot_router\"]",
    ),
];

/// The prompt's sections, largest first (ties in prompt order).
pub fn section_sizes(view: &LlmView) -> Vec<SectionSize> {
    let mut sizes: Vec<SectionSize> = view
        .sections
        .iter()
        .map(|s| {
            let chars = s.text.chars().count();
            let title = if s.title.is_empty() {
                "(identity)".to_string()
            } else {
                s.title.clone()
            };
            let (source, shrink) = origin(&s.title, &s.text, view);
            SectionSize {
                title,
                chars,
                tokens: chars.div_ceil(4),
                source,
                shrink,
            }
        })
        .collect();
    sizes.sort_by_key(|s| std::cmp::Reverse(s.chars));
    sizes
}
