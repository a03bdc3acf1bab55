//! The tools a gateway's paired nodes publish: a node host's MCP servers (`nodeHost.mcp.servers`
//! on the node's machine, plugin `node-mcp`) and node-hosted plugin tools. They are live gateway
//! state, not config: the gateway keeps what each connected node published and every agent run
//! on it builds them (`createNodePluginTools`). clawdeck reads them from the gateway's
//! `node.list` answer (`nodes[].nodePluginTools`, connected nodes only) and makes tool specs of
//! them the way OpenClaw does:
//!
//! - a name published once, and clear of every tool already there, is kept; otherwise it gets
//!   the node's fragment in front (`<node id, sanitised>_<name>`, `_2`... on a further clash);
//! - the description names the node (`... (node: <display name or id>)`);
//! - the plugin id is the descriptor's (`node-mcp` for MCP tools), so allow and deny lists name
//!   them as plugin tools; `gateway.nodes.pluginTools.enabled: false` ignores them all.
//!
//! A tool with MCP metadata is found through Tool Search, never named in its directory
//! (OpenClaw classifies it as an MCP tool), as an `mcp.servers` tool is.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use crate::tool::{ToolFlags, ToolSource, ToolSpec};

/// The plugin id OpenClaw gives a node host's MCP server tools.
pub const NODE_MCP: &str = "node-mcp";
/// The gateway keeps at most this many descriptors of one node
/// (`NODE_PLUGIN_TOOL_MAX_DESCRIPTORS`); clawdeck reads no more.
pub const MAX_TOOLS_PER_NODE: usize = 128;
/// clawdeck reads at most this many connected nodes of one answer.
pub const MAX_NODES: usize = 256;
/// OpenClaw cuts a descriptor's description here.
const DESCRIPTION_LIMIT: usize = 1024;
/// A provider-safe tool name's longest form.
const NAME_LIMIT: usize = 64;

/// One tool a node published, as the gateway keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeTool {
    pub plugin_id: String,
    pub name: String,
    pub description: String,
    pub parameters: Value,
    /// The MCP server that runs it (`mcp.server`, provider-safe), for a node host's MCP tool.
    pub mcp_server: Option<String>,
}

/// One connected node and what it published.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectedNode {
    pub node_id: String,
    pub display_name: Option<String>,
    pub tools: Vec<NodeTool>,
}

/// The connected nodes of one gateway, where clawdeck read them, and what it left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConnectedNodes {
    pub nodes: Vec<ConnectedNode>,
    /// The file or gateway the answer came from, for messages.
    pub origin: String,
    /// Descriptors and nodes left out, each naming its place.
    pub warnings: Vec<String>,
}

impl ConnectedNodes {
    /// Every published tool, with its node.
    pub fn tool_count(&self) -> usize {
        self.nodes.iter().map(|n| n.tools.len()).sum()
    }
}

/// Reads the connected nodes' published tools out of a `node.list` answer (`{nodes: [...]}`;
/// a gateway frame's `payload` is accepted too).
pub fn parse_node_list(answer: &Value, origin: &str) -> Result<ConnectedNodes, String> {
    let answer = answer.get("payload").unwrap_or(answer);
    let nodes = answer
        .get("nodes")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{origin}: not a node.list answer: no `nodes` list"))?;
    let mut out = ConnectedNodes {
        origin: origin.to_string(),
        ..ConnectedNodes::default()
    };
    let connected: Vec<(usize, &Value)> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.get("connected").and_then(Value::as_bool) != Some(false))
        .collect();
    if connected.len() > MAX_NODES {
        out.warnings.push(format!(
            "{origin}: {} connected nodes; the {} after the first {MAX_NODES} were left out",
            connected.len(),
            connected.len() - MAX_NODES
        ));
    }
    for (index, node) in connected.into_iter().take(MAX_NODES) {
        let place = format!("{origin}: nodes[{index}]");
        match read_node(node, &place, &mut out.warnings) {
            Some(node) => out.nodes.push(node),
            None => out.warnings.push(format!("{place}: no nodeId; left out")),
        }
    }
    Ok(out)
}

fn read_node(node: &Value, place: &str, warnings: &mut Vec<String>) -> Option<ConnectedNode> {
    let node_id = text(node, "nodeId")?;
    let display_name = text(node, "displayName");
    let published = node
        .get("nodePluginTools")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut tools = Vec::new();
    for (index, descriptor) in published.iter().enumerate() {
        if tools.len() == MAX_TOOLS_PER_NODE {
            warnings.push(format!(
                "{place}: {} tools published; those after the first {MAX_TOOLS_PER_NODE} were left out (the gateway keeps no more)",
                published.len()
            ));
            break;
        }
        match read_tool(descriptor) {
            Ok(tool) => tools.push(tool),
            Err(why) => warnings.push(format!("{place}.nodePluginTools[{index}]: {why}; left out")),
        }
    }
    Some(ConnectedNode {
        node_id,
        display_name,
        tools,
    })
}

fn read_tool(descriptor: &Value) -> Result<NodeTool, String> {
    let plugin_id = text(descriptor, "pluginId").ok_or("no pluginId")?;
    let name = text(descriptor, "name").ok_or("no name")?;
    if !provider_safe(&name) {
        return Err(format!(
            "the name {name:?} is not provider-safe (a letter, then letters, digits, _ or -, at most {NAME_LIMIT})"
        ));
    }
    let description: String = text(descriptor, "description")
        .ok_or("no description")?
        .chars()
        .take(DESCRIPTION_LIMIT)
        .collect();
    let parameters = match descriptor.get("parameters") {
        Some(p) if p.is_object() => p.clone(),
        _ => serde_json::json!({"type": "object", "properties": {}, "additionalProperties": true}),
    };
    let mcp_server = descriptor
        .get("mcp")
        .filter(|m| text(m, "tool").is_some())
        .and_then(|m| text(m, "server"))
        // As OpenClaw's catalog keeps it (`safeServerName`).
        .and_then(|server| {
            crate::mcp_servers::names::safe_server_names([server.as_str()])
                .into_iter()
                .next()
        });
    Ok(NodeTool {
        plugin_id,
        name,
        description,
        parameters,
        mcp_server,
    })
}

/// A trimmed, non-empty string field.
fn text(value: &Value, key: &str) -> Option<String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// OpenClaw's provider-safe tool name: a letter, then at most 63 letters, digits, `_` or `-`.
fn provider_safe(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.len() <= NAME_LIMIT
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A node id as a name fragment (`sanitizeNodeIdFragment`): lowercase, runs of other characters
/// as `_`, at most 32 characters, starting with a letter (`node_` in front otherwise).
pub(crate) fn node_fragment(node_id: &str) -> String {
    let mut fragment = String::new();
    let mut in_run = false;
    for c in node_id.trim().to_lowercase().chars() {
        let kept = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        if kept {
            fragment.push(c);
        } else if !in_run {
            fragment.push('_');
        }
        in_run = !kept;
    }
    let fragment: String = fragment.trim_matches('_').chars().take(32).collect();
    if fragment.is_empty() {
        "node".to_string()
    } else if fragment.starts_with(|c: char| c.is_ascii_lowercase()) {
        fragment
    } else {
        format!("node_{fragment}").chars().take(32).collect()
    }
}

/// The name OpenClaw exposes a tool under: its own when published once and clear of `taken`,
/// else with its node's fragment in front (`resolveUniqueToolName`).
fn unique_name(
    tool: &NodeTool,
    node_id: &str,
    published: usize,
    normalize: &dyn Fn(&str) -> String,
    taken: &HashSet<String>,
) -> Option<String> {
    if published == 1 && !taken.contains(&normalize(&tool.name)) {
        return Some(tool.name.clone());
    }
    let prefix = format!("{}_", node_fragment(node_id));
    (0..100).find_map(|index| {
        let suffix = if index == 0 {
            String::new()
        } else {
            format!("_{}", index + 1)
        };
        let room = NAME_LIMIT
            .saturating_sub(prefix.len() + suffix.len())
            .max(1);
        let base: String = tool.name.chars().take(room).collect();
        let candidate = format!("{prefix}{base}{suffix}");
        (provider_safe(&candidate) && !taken.contains(&normalize(&candidate))).then_some(candidate)
    })
}

/// The tool specs a run builds of the nodes' tools, clear of `taken` (the names already there,
/// normalised by `normalize`).
pub(crate) fn tool_specs(
    nodes: &ConnectedNodes,
    taken: &HashSet<String>,
    normalize: &dyn Fn(&str) -> String,
) -> Vec<ToolSpec> {
    let mut entries: Vec<(&ConnectedNode, &NodeTool)> = nodes
        .nodes
        .iter()
        .flat_map(|node| node.tools.iter().map(move |tool| (node, tool)))
        .collect();
    entries.sort_by(|(an, at), (bn, bt)| {
        (&at.plugin_id, &at.name, &an.node_id).cmp(&(&bt.plugin_id, &bt.name, &bn.node_id))
    });
    let mut published: BTreeMap<String, usize> = BTreeMap::new();
    for (_, tool) in &entries {
        *published.entry(normalize(&tool.name)).or_default() += 1;
    }
    let mut taken = taken.clone();
    let mut specs = Vec::new();
    for (node, tool) in entries {
        let count = published.get(&normalize(&tool.name)).copied().unwrap_or(1);
        let Some(name) = unique_name(tool, &node.node_id, count, normalize, &taken) else {
            continue;
        };
        taken.insert(normalize(&name));
        let label = node.display_name.as_deref().unwrap_or(&node.node_id);
        let description = format!("{} (node: {label})", tool.description);
        specs.push(ToolSpec {
            label: name.clone(),
            name,
            summary: description.clone(),
            description,
            emoji: "🧩".to_string(),
            parameters: tool.parameters.clone(),
            source: ToolSource::Plugin {
                plugin_id: tool.plugin_id.clone(),
                mcp_server: tool.mcp_server.clone(),
                node: Some(crate::tool::NodeRef {
                    id: node.node_id.clone(),
                    label: label.to_string(),
                }),
            },
            // The node runs them, through the gateway's node.invoke.
            flags: ToolFlags {
                openclaw_only: true,
                ..ToolFlags::default()
            },
        });
    }
    specs
}

/// Whether the config lets the gateway keep what nodes publish
/// (`gateway.nodes.pluginTools.enabled`, on unless false).
pub fn enabled(raw: &Value) -> bool {
    raw.pointer("/gateway/nodes/pluginTools/enabled")
        .and_then(Value::as_bool)
        != Some(false)
}

#[cfg(test)]
mod tests;
