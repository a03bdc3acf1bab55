//! The Tooling section's tool list (seed 002 §4.3): known tools in OpenClaw's order with their
//! one-line summaries, then every other tool alphabetically.

use crate::tool::ToolSpec;

/// OpenClaw's order for the tools it knows (seed 002 §4.3 with `system-prompt.ts`'s additions).
pub const TOOL_ORDER: &[&str] = &[
    "read",
    "write",
    "edit",
    "apply_patch",
    "grep",
    "find",
    "ls",
    "exec",
    "process",
    "web_search",
    "web_fetch",
    "browser",
    "canvas",
    "nodes",
    "cron",
    "message",
    "gateway",
    "agents_list",
    "sessions_list",
    "sessions_history",
    "sessions_send",
    "sessions_spawn",
    "session_status",
    "image",
];

/// The tools a subagent's minimal prompt keeps (seed 002 §8.1).
pub const MINIMAL_CORE_TOOLS: &[&str] = &["read", "write", "exec", "web_fetch"];

/// OpenClaw's `coreToolSummaries`: these win over a tool's own summary.
pub fn core_summary(name: &str) -> Option<&'static str> {
    Some(match name {
        "read" => "Read file contents",
        "write" => "Create or overwrite files",
        "edit" => "Make precise edits to files",
        "apply_patch" => "Apply multi-file patches",
        "grep" => "Search file contents for patterns",
        "find" => "Find files by glob pattern",
        "ls" => "List directory contents",
        "exec" => "Run shell commands (pty available for TTY-required CLIs)",
        "process" => "Manage background exec sessions",
        "web_search" => "Search the web (Brave API)",
        "web_fetch" => "Fetch and extract readable content from a URL",
        "browser" => "Control web browser",
        "canvas" => "Present/eval/snapshot the Canvas",
        "nodes" => "List/describe/notify/camera/screen on paired nodes",
        "cron" => {
            "Manage cron jobs and wake events (use for reminders; when scheduling a reminder, write the systemEvent text as something that will read like a reminder when it fires, and mention that it is a reminder depending on the time gap between setting and firing; include recent context in reminder text if appropriate)"
        }
        "message" => "Send messages and channel actions",
        "gateway" => "Restart, apply config, or run updates on the running OpenClaw process",
        "agents_list" => "List agent ids allowed for sessions_spawn",
        "sessions_list" => "List other sessions (incl. sub-agents) with filters/last",
        "sessions_history" => "Fetch history for another session/sub-agent",
        "sessions_send" => "Send a message to another session/sub-agent",
        "sessions_spawn" => "Spawn a sub-agent session",
        "session_status" => {
            "Show a /status-equivalent status card (usage + time + Reasoning/Verbose/Elevated); use for model-use questions (📊 session_status); optional per-session model override"
        }
        "image" => "Analyze an image with the configured image model",
        _ => return None,
    })
}

/// `tools` in prompt order: known names in [`TOOL_ORDER`], then the rest sorted by name;
/// duplicate names (compared case-insensitively) keep their first spec.
pub fn order_tools(tools: &[ToolSpec]) -> Vec<&ToolSpec> {
    let mut unique: Vec<&ToolSpec> = Vec::new();
    for tool in tools {
        let name = tool.name.trim();
        if !name.is_empty()
            && !unique
                .iter()
                .any(|t| t.name.trim().eq_ignore_ascii_case(name))
        {
            unique.push(tool);
        }
    }
    let key = |t: &ToolSpec| t.name.trim().to_lowercase();
    let mut ordered: Vec<&ToolSpec> = TOOL_ORDER
        .iter()
        .filter_map(|name| unique.iter().copied().find(|t| key(t) == *name))
        .collect();
    let mut rest: Vec<&ToolSpec> = unique
        .iter()
        .copied()
        .filter(|t| !TOOL_ORDER.contains(&key(t).as_str()))
        .collect();
    rest.sort_by_key(|t| key(t));
    ordered.extend(rest);
    ordered
}

/// `- name: summary`, or `- name` when neither OpenClaw nor the tool gives a summary.
pub fn tool_line(tool: &ToolSpec) -> String {
    let name = tool.name.trim();
    let summary = core_summary(&name.to_lowercase())
        .map(str::to_string)
        .or_else(|| {
            let own = tool.summary.trim();
            (!own.is_empty()).then(|| own.to_string())
        });
    match summary {
        Some(summary) => format!("- {name}: {summary}"),
        None => format!("- {name}"),
    }
}
