//! What real OpenClaw exposed, read from a recorded model request or a gateway's
//! `tools.effective` answer.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Tool Search's own tools: not policy-governed tools, never part of the comparison.
pub(crate) const TOOL_SEARCH_META_TOOLS: &[&str] = &[
    "tool_search",
    "tool_describe",
    "tool_call",
    "tool_search_code",
];

/// The line that opens Tool Search's deferred directory in the system prompt.
const DIRECTORY_HEADING: &str = "Available deferred-schema tools:";

/// What Code Mode's `exec` says of itself (both releases), unlike the shell's `exec`.
const CODE_MODE_MARKER: &str = "in OpenClaw code mode";

/// The line that opens Code Mode's index of the tools callable from code, in `exec`'s
/// description.
const CODE_MODE_INDEX_HEADING: &str = "Enabled async tool globals";

/// Code Mode's own tools: sent in place of the tools they reach, never part of the comparison.
pub(crate) const CODE_MODE_CONTROLS: &[&str] = &["exec", "wait"];

/// The start of OpenClaw's refusal when an explicit allowlist leaves no callable tool.
pub const NO_TOOLS_ERROR_PREFIX: &str =
    "No callable tools remain after resolving explicit tool allowlist";

/// One tool the model received with its schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedTool {
    pub name: String,
    /// The function object as sent (`name`, `description`, `parameters`); `null` when the source
    /// carries no schema (a gateway's `tools.effective`).
    pub function: Value,
    /// `core` or the plugin id, when the source says.
    pub owner: Option<String>,
}

/// A tool Tool Search listed in the prompt's directory instead of sending its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeferredTool {
    pub name: String,
    pub owner: Option<String>,
}

/// How the tools reached the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Surface {
    /// Every tool's schema in the request.
    Direct,
    /// Tool Search: some schemas direct, the rest named in the prompt's directory.
    ToolSearch {
        meta_tools: Vec<String>,
        deferred: Vec<DeferredTool>,
        /// Entries the bounded directory left out (`N additional tools omitted`).
        omitted: usize,
    },
    /// Code Mode: `exec` and `wait` (its controls) and the direct-only tools sent; the rest
    /// callable from code, indexed in `exec`'s description.
    CodeMode {
        controls: Vec<ObservedTool>,
        /// The names the bounded index lists (as callable from code).
        cataloged: Vec<String>,
        /// Entries the index left out (`N additional tools omitted`).
        omitted: usize,
    },
    /// A gateway's `tools.effective` list (names only).
    GatewayEffective,
    /// The run was refused before any request (`No callable tools remain ...`).
    Refused { error: String },
}

/// Real OpenClaw's answer for one context (a recording reads back what was written).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedView {
    /// Tools sent with a schema (Tool Search's meta tools excluded), in the order sent.
    pub tools: Vec<ObservedTool>,
    pub surface: Surface,
    /// The system prompt, when the source has one.
    #[serde(default)]
    pub system_prompt: Option<String>,
    /// The turn's first user message (a scheduled job's as the cron service wrote it), when
    /// the source has one and a recording keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_message: Option<String>,
    /// The whole recorded request, when there is one.
    #[serde(skip)]
    pub request: Option<Value>,
}

impl ObservedView {
    /// Every tool the context can use: the direct ones and Tool Search's deferred ones.
    pub fn exposed_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.tools.iter().map(|t| t.name.clone()).collect();
        match &self.surface {
            Surface::ToolSearch { deferred, .. } => {
                names.extend(deferred.iter().map(|d| d.name.clone()));
            }
            Surface::CodeMode { cataloged, .. } => names.extend(cataloged.iter().cloned()),
            _ => {}
        }
        names
    }

    /// The tool sent with this name, if it was sent with a schema.
    pub(crate) fn direct(&self, name: &str) -> Option<&ObservedTool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// A refused run: zero tools and OpenClaw's error.
    pub fn refused(error: String) -> Self {
        Self {
            tools: Vec::new(),
            surface: Surface::Refused { error },
            system_prompt: None,
            user_message: None,
            request: None,
        }
    }

    /// Reads a recorded chat-completions request body.
    pub fn from_request(body: &Value) -> Self {
        let system_prompt = system_prompt(body);
        let mut tools: Vec<ObservedTool> = Vec::new();
        let mut meta_tools = Vec::new();
        for tool in body
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let function = tool.get("function").cloned().unwrap_or(Value::Null);
            let Some(name) = function.get("name").and_then(Value::as_str) else {
                continue;
            };
            if TOOL_SEARCH_META_TOOLS.contains(&name) {
                meta_tools.push(name.to_string());
                continue;
            }
            tools.push(ObservedTool {
                name: name.to_string(),
                function: function.clone(),
                owner: None,
            });
        }
        let code_mode = tools.iter().any(|t| t.name == "wait")
            && tools.iter().any(|t| {
                t.name == "exec"
                    && t.function
                        .get("description")
                        .and_then(Value::as_str)
                        .is_some_and(|d| d.contains(CODE_MODE_MARKER))
            });
        let surface = if code_mode {
            let (controls, rest): (Vec<ObservedTool>, Vec<ObservedTool>) = tools
                .into_iter()
                .partition(|t| CODE_MODE_CONTROLS.contains(&t.name.as_str()));
            tools = rest;
            let (cataloged, omitted) = controls
                .iter()
                .find(|t| t.name == "exec")
                .and_then(|t| t.function.get("description").and_then(Value::as_str))
                .map(parse_code_mode_index)
                .unwrap_or_default();
            Surface::CodeMode {
                controls,
                cataloged,
                omitted,
            }
        } else if meta_tools.is_empty() {
            Surface::Direct
        } else {
            let (deferred, omitted) = system_prompt
                .as_deref()
                .map(parse_directory)
                .unwrap_or_default();
            Surface::ToolSearch {
                meta_tools,
                deferred,
                omitted,
            }
        };
        Self {
            tools,
            surface,
            system_prompt,
            user_message: first_message_of(body, "user"),
            request: Some(body.clone()),
        }
    }

    /// Reads a gateway's `tools.effective` answer (`groups[].tools[]` with `id`, `source`,
    /// `pluginId`).
    pub fn from_tools_effective(answer: &Value) -> Option<Self> {
        let groups = answer.get("groups")?.as_array()?;
        let tools = groups
            .iter()
            .flat_map(|g| {
                g.get("tools")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .filter_map(|t| {
                let name = t.get("id").and_then(Value::as_str)?;
                let owner = t
                    .get("pluginId")
                    .or_else(|| t.get("source"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                Some(ObservedTool {
                    name: name.to_string(),
                    function: Value::Null,
                    owner,
                })
            })
            .collect();
        Some(Self {
            tools,
            surface: Surface::GatewayEffective,
            system_prompt: None,
            user_message: None,
            request: None,
        })
    }
}

/// The system message's text (a string, or the text parts of a list).
fn system_prompt(body: &Value) -> Option<String> {
    first_message_of(body, "system")
}

/// The text of the request's first message of `role` (a string, or the text parts of a list).
fn first_message_of(body: &Value, role: &str) -> Option<String> {
    let message = body
        .get("messages")?
        .as_array()?
        .iter()
        .find(|m| m.get("role").and_then(Value::as_str) == Some(role))?;
    crate::content::content_text(message.get("content"), "\n")
}

/// The deferred directory: `- name (owner): description` lines after the heading, and the
/// `N additional tools omitted.` count.
pub(crate) fn parse_directory(prompt: &str) -> (Vec<DeferredTool>, usize) {
    let mut lines = prompt.lines().skip_while(|l| l.trim() != DIRECTORY_HEADING);
    if lines.next().is_none() {
        return (Vec::new(), 0);
    }
    let mut deferred = Vec::new();
    let mut omitted = 0;
    for line in lines.by_ref() {
        let Some(entry) = line.strip_prefix("- ") else {
            break;
        };
        let head = entry.split_once(": ").map_or(entry, |(head, _)| head);
        let (name, owner) = match head.split_once(" (") {
            Some((name, owner)) => (name, Some(owner.trim_end_matches(')').to_string())),
            None => (head, None),
        };
        deferred.push(DeferredTool {
            name: name.trim().to_string(),
            owner,
        });
    }
    // The footer follows the notice, a few lines below the entries.
    for line in lines.take(4) {
        if let Some((count, _)) = line.split_once(" additional tools omitted.") {
            omitted = count.trim().parse().unwrap_or(0);
        }
    }
    (deferred, omitted)
}

/// Code Mode's index in `exec`'s description, from its heading on (`None`: it has none).
pub(crate) fn code_mode_index_text(description: &str) -> Option<&str> {
    description
        .find(CODE_MODE_INDEX_HEADING)
        .map(|at| &description[at..])
}

/// The MCP servers Code Mode's `exec` description names (`visible servers: a, b.`), `None`
/// when it has no MCP paragraph.
pub(crate) fn mcp_servers_named(description: &str) -> Option<Vec<String>> {
    let (_, rest) = description.split_once("visible servers: ")?;
    let listed = rest.split(". ").next().unwrap_or(rest);
    Some(listed.split(", ").map(str::to_string).collect())
}

/// Code Mode's index in `exec`'s description: each `- name input -> output` line after the
/// heading, and the `N additional tools omitted` count.
pub(crate) fn parse_code_mode_index(description: &str) -> (Vec<String>, usize) {
    let Some(index) = code_mode_index_text(description) else {
        return (Vec::new(), 0);
    };
    let mut cataloged = Vec::new();
    let mut omitted = 0;
    for line in index.lines().skip(1) {
        if let Some(entry) = line.strip_prefix("- ") {
            let name = entry.split_whitespace().next().unwrap_or_default();
            if !name.is_empty() {
                cataloged.push(name.to_string());
            }
        } else if let Some((count, _)) = line.split_once(" additional tools omitted") {
            omitted = count.trim().parse().unwrap_or(0);
        }
    }
    (cataloged, omitted)
}

/// Picks the request that shows the agent's tools: the first chat completion with a system
/// prompt (auxiliary requests such as embeddings are ignored).
pub fn main_request(requests: &[Value]) -> Option<&Value> {
    requests
        .iter()
        .find(|body| system_prompt(body).is_some())
        .or_else(|| requests.first())
}

/// The request of a subagent that a turn spawned with `task`: a user message carries the task
/// and none carries `call_marker` (the line that made the spawning turn call `sessions_spawn`,
/// which every request of that turn repeats).
pub fn spawned_request<'a>(
    requests: &'a [Value],
    task: &str,
    call_marker: &str,
) -> Option<&'a Value> {
    requests.iter().find(|body| {
        let texts = user_texts(body);
        texts.iter().any(|t| t.contains(task)) && !texts.iter().any(|t| t.contains(call_marker))
    })
}

/// The first request whose user message carries `text` (a scheduled job's turn, among the
/// requests of the gateway's own automations).
pub fn request_carrying<'a>(requests: &'a [Value], text: &str) -> Option<&'a Value> {
    requests
        .iter()
        .find(|body| user_texts(body).iter().any(|t| t.contains(text)))
}

/// The texts of a request's user messages.
fn user_texts(body: &Value) -> Vec<String> {
    body.get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .filter_map(|m| crate::content::content_text(m.get("content"), "\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn the_mcp_servers_exec_names_are_read_from_its_paragraph() {
        let text = "Run JavaScript.\n\nMCP namespace globals are available in code mode:\n- MCP: MCP server tools grouped by server.\nRead API files; visible servers: catalog2, docs, fixtureFiles. Node-backed name collisions use a prefix.";
        assert_eq!(
            mcp_servers_named(text).unwrap(),
            ["catalog2", "docs", "fixtureFiles"]
        );
        assert_eq!(mcp_servers_named("Run JavaScript."), None);
    }

    #[test]
    fn a_direct_request_lists_every_tool_with_its_function() {
        let body = json!({
            "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}],
            "tools": [
                {"type": "function", "function": {"name": "read", "description": "Read", "parameters": {"type": "object"}}},
                {"type": "function", "function": {"name": "exec", "description": "Run", "parameters": {}}},
            ],
        });
        let view = ObservedView::from_request(&body);
        assert_eq!(view.surface, Surface::Direct);
        assert_eq!(view.exposed_names(), ["read", "exec"]);
        assert_eq!(view.direct("read").unwrap().function["description"], "Read");
        assert_eq!(view.system_prompt.as_deref(), Some("sys"));
    }

    #[test]
    fn tool_search_requests_add_the_deferred_directory() {
        let prompt = "## Tooling\n- read: Read files\n### Deferred Tool Schemas\nAvailable deferred-schema tools:\n\
- agents_list (core): List agents.\n- dir_fetch (file-transfer): Fetch a tree...\n- bare\n\n\
Policy-approved MCP and client tools may also be discoverable through search.\n\
3 additional tools omitted. Use tool_search to find a tool.\nThe AGENTS.md Tools section";
        let body = json!({
            "messages": [{"role": "system", "content": [{"type": "text", "text": prompt}]}],
            "tools": [
                {"type": "function", "function": {"name": "read", "parameters": {}}},
                {"type": "function", "function": {"name": "tool_search", "parameters": {}}},
                {"type": "function", "function": {"name": "tool_call", "parameters": {}}},
            ],
        });
        let view = ObservedView::from_request(&body);
        let Surface::ToolSearch {
            meta_tools,
            deferred,
            omitted,
        } = &view.surface
        else {
            panic!("{:?}", view.surface)
        };
        assert_eq!(meta_tools, &["tool_search", "tool_call"]);
        assert_eq!(*omitted, 3);
        assert_eq!(deferred[1].owner.as_deref(), Some("file-transfer"));
        assert_eq!(deferred[2].owner, None);
        assert_eq!(
            view.exposed_names(),
            ["read", "agents_list", "dir_fetch", "bare"]
        );
    }

    #[test]
    fn recorded_fixtures_read_as_recorded() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/realclaw/2026.9.6"
        );
        let read = |name: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}")).unwrap())
                .unwrap()
        };
        let full = read("full-direct.json");
        let body = json!({"messages": [{"role": "system", "content": full["systemPrompt"]}],
                          "tools": full["tools"]});
        let view = ObservedView::from_request(&body);
        assert_eq!(view.surface, Surface::Direct);
        assert_eq!(view.exposed_names().len(), 54);

        let default = read("default-tool-search.json");
        let body = json!({"messages": [{"role": "system", "content": default["systemPrompt"]}],
                          "tools": default["tools"]});
        let view = ObservedView::from_request(&body);
        assert_eq!(view.tools.len(), 9, "12 sent, 3 of them Tool Search's own");
        let Surface::ToolSearch {
            deferred, omitted, ..
        } = &view.surface
        else {
            panic!()
        };
        assert_eq!(*omitted, 0);
        let mut names = view.exposed_names();
        names.sort();
        let mut direct: Vec<String> = full["toolNames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        direct.sort();
        assert_eq!(names, direct, "Tool Search hides no policy-approved tool");
        assert!(deferred.iter().any(|d| d.name == "browser"));
    }

    #[test]
    fn gateway_effective_answers_list_names_and_owners() {
        let answer = json!({"agentId": "main", "groups": [
            {"id": "core", "tools": [{"id": "read", "source": "core"}]},
            {"id": "plugin", "tools": [{"id": "browser", "source": "plugin", "pluginId": "browser"}]},
        ]});
        let view = ObservedView::from_tools_effective(&answer).unwrap();
        assert_eq!(view.exposed_names(), ["read", "browser"]);
        assert_eq!(view.tools[1].owner.as_deref(), Some("browser"));
        assert!(ObservedView::from_tools_effective(&json!({"ok": false})).is_none());
    }

    #[test]
    fn the_spawned_subagents_request_is_the_one_with_the_task_and_no_call() {
        let user =
            |text: &str| json!({"role": "user", "content": [{"type": "text", "text": text}]});
        let parent_first = json!({"messages": [user("CALL spawn {\"task\": \"T-1\"}")]});
        let parent_after = json!({"messages": [user("CALL spawn {\"task\": \"T-1\"}"),
                                               {"role": "tool", "content": "T-1 accepted"}]});
        let child = json!({"messages": [{"role": "system", "content": "sub"}, user("[task] T-1")]});
        let requests = [parent_first, parent_after, child.clone()];
        assert_eq!(spawned_request(&requests, "T-1", "CALL"), Some(&child));
        assert_eq!(spawned_request(&requests[..2], "T-1", "CALL"), None);
    }
}
