//! Built-in specs for the tools clawdeck runs itself. The catalog's spec wins when it has one
//! (`ToolSet::standard` takes specs from the registry); these keep the tools usable on their own
//! (tests, a registry without them).

use serde_json::{Value, json};

use crate::tool::{ToolFlags, ToolSource, ToolSpec};

fn spec(
    name: &str,
    label: &str,
    emoji: &str,
    description: &str,
    parameters: Value,
    source: ToolSource,
    flags: ToolFlags,
) -> ToolSpec {
    ToolSpec {
        name: name.to_string(),
        label: label.to_string(),
        description: description.to_string(),
        summary: description
            .split(". ")
            .next()
            .unwrap_or(description)
            .trim_end_matches('.')
            .to_string(),
        emoji: emoji.to_string(),
        parameters,
        source,
        flags,
    }
}

fn local_system() -> ToolFlags {
    ToolFlags {
        local_system: true,
        ..Default::default()
    }
}

/// The built-in spec for `name`, if clawdeck runs that tool itself.
pub fn builtin_spec(name: &str) -> Option<ToolSpec> {
    let core = ToolSource::Core;
    let runtime = ToolSource::Runtime;
    let none = ToolFlags::default;
    Some(match name {
        "read" => spec(
            "read",
            "Read",
            "📖",
            "Read a file. Text comes back with line-based paging (offset is 1-based, limit lines); images come back as image blocks.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "File to read (relative to the workspace)"},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to return (1-based)"},
                "limit": {"type": "integer", "minimum": 1, "description": "How many lines to return"}
            }, "required": ["path"]}),
            core,
            none(),
        ),
        "write" => spec(
            "write",
            "Write",
            "✍️",
            "Write a file, creating parent directories; an existing file is overwritten.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "File to write"},
                "content": {"type": "string", "description": "The complete new content"}
            }, "required": ["path", "content"]}),
            core,
            none(),
        ),
        "edit" => spec(
            "edit",
            "Edit",
            "📝",
            "Replace exact text in a file. Give oldText/newText for one replacement or edits[] for several; each oldText must occur exactly once.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "File to edit"},
                "oldText": {"type": "string", "description": "Exact text to replace (must be unique in the file)"},
                "newText": {"type": "string", "description": "Replacement text"},
                "edits": {"type": "array", "description": "Several replacements, all matched against the original file",
                    "items": {"type": "object", "properties": {
                        "oldText": {"type": "string"},
                        "newText": {"type": "string"}
                    }, "required": ["oldText", "newText"]}}
            }, "required": ["path"]}),
            core,
            none(),
        ),
        "apply_patch" => spec(
            "apply_patch",
            "Apply Patch",
            "🩹",
            "Apply a patch in the `*** Begin Patch` format: Add File, Update File (with @@ hunks and optional Move to), Delete File.",
            json!({"type": "object", "properties": {
                "input": {"type": "string", "description": "The whole patch, from *** Begin Patch to *** End Patch"}
            }, "required": ["input"]}),
            runtime.clone(),
            none(),
        ),
        "exec" => spec(
            "exec",
            "Exec",
            "🛠️",
            "Run a shell command. Long runs move to the background after yieldMs; follow up with the process tool.",
            json!({"type": "object", "properties": {
                "command": {"type": "string", "description": "Shell command to run"},
                "workdir": {"type": "string", "description": "Working directory (default: the workspace)"},
                "env": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Extra environment variables"},
                "yieldMs": {"type": "number", "description": "Move to the background after this many ms (default 10000)"},
                "background": {"type": "boolean", "description": "Start in the background at once"},
                "timeout": {"type": "number", "description": "Kill the command after this many seconds"},
                "pty": {"type": "boolean", "description": "Not supported by clawdeck: the command runs with pipes (noted in details)"},
                "elevated": {"type": "boolean", "description": "Ignored by clawdeck: there is no container to leave"},
                "host": {"type": "string", "description": "Ignored by clawdeck: commands run on this host"},
                "security": {"type": "string"},
                "ask": {"type": "string"}
            }, "required": ["command"]}),
            runtime.clone(),
            none(),
        ),
        "process" => spec(
            "process",
            "Process",
            "🧰",
            "Manage background exec sessions: list, poll, log, write, submit, send-keys, paste, kill, clear, remove.",
            json!({"type": "object", "properties": {
                "action": {"type": "string", "enum": ["list", "poll", "log", "write", "submit", "send-keys", "paste", "kill", "clear", "remove"]},
                "sessionId": {"type": "string", "description": "Session id (all actions but list)"},
                "data": {"type": "string", "description": "Text for write (and paste)"},
                "text": {"type": "string", "description": "Text for paste"},
                "keys": {"type": "array", "items": {"type": "string"}, "description": "Key names for send-keys (Enter, Tab, Escape, C-c, C-d, Up, ...)"},
                "eof": {"type": "boolean", "description": "Close stdin after write"},
                "offset": {"type": "integer", "description": "First line for log"},
                "limit": {"type": "integer", "description": "Line count for log (default 200)"},
                "timeout": {"type": "number", "description": "poll: wait up to this many ms for new output or exit (max 120000)"}
            }, "required": ["action"]}),
            runtime.clone(),
            none(),
        ),
        "system_volume_control" => spec(
            "system_volume_control",
            "System Volume",
            "🔊",
            "Read or change this computer's output volume: get, set (0-100), up/down by a step, mute, unmute, toggle.",
            json!({"type": "object", "properties": {
                "action": {"type": "string", "enum": ["get", "set", "up", "down", "mute", "unmute", "toggle"]},
                "level": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Volume percent for set"},
                "step": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Percent for up/down (default 10)"}
            }, "required": ["action"]}),
            runtime.clone(),
            local_system(),
        ),
        "start_app" => spec(
            "start_app",
            "Start App",
            "🚀",
            "Start a desktop application on this computer by its .desktop id, its name (e.g. firefox, Calculator) or the path of a .desktop file or program.",
            json!({"type": "object", "properties": {
                "app": {"type": "string", "description": "Desktop entry id, application name, or path"},
                "args": {"type": "array", "items": {"type": "string"}, "description": "Arguments (files or URLs) passed to the application"}
            }, "required": ["app"]}),
            runtime.clone(),
            local_system(),
        ),
        "open_website" => spec(
            "open_website",
            "Open Website",
            "🌐",
            "Open an http(s) URL in this computer's default browser.",
            json!({"type": "object", "properties": {
                "url": {"type": "string", "description": "http:// or https:// URL"}
            }, "required": ["url"]}),
            runtime,
            local_system(),
        ),
        _ => return None,
    })
}

/// Names of the tools clawdeck runs itself.
pub const BUILTIN_TOOL_NAMES: &[&str] = &[
    "read",
    "write",
    "edit",
    "apply_patch",
    "exec",
    "process",
    "system_volume_control",
    "start_app",
    "open_website",
];
