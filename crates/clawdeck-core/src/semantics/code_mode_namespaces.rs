//! What Code Mode's `exec` description says between its text and its index when MCP server
//! tools are callable from code (the pack's `codeMode.namespaces`, the release's
//! `describeCodeModeNamespacesForPrompt`): the `MCP` global and the servers code reaches
//! through it, each by the identifier OpenClaw gives it (`toIdentifier` of its name, then
//! kept clear of the names taken before it and the reserved ones by a number: `catalog2`).
//! A paired node's server is named after its node (`docs (node: alpha)`), and when another
//! server shares its name it takes the node's fragment in front (`assignMcpNamespaceServerNames`).

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::code_mode_hint::collate;
use crate::tool::NodeRef;

/// The pack's `codeMode.namespaces`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeModeNamespaces {
    /// The text, with `{servers}` for the servers' identifiers.
    pub text: String,
    /// Names a server's identifier may not take: the namespace globals, the forbidden path
    /// segments and the words a function may not be named.
    pub reserved_identifiers: Vec<String>,
    /// The identifier of a server whose name gives none.
    pub fallback: String,
}

/// A server whose tools code can call: its safe name, and the node that runs it for a node
/// host's server (else the gateway's own `mcp.servers`).
#[derive(Debug, Clone, Copy)]
pub struct McpServer<'a> {
    pub safe_name: &'a str,
    pub node: Option<&'a NodeRef>,
}

impl McpServer<'_> {
    /// OpenClaw's `mcpNamespaceServerKey`.
    fn key(&self) -> String {
        let key = match self.node {
            None => serde_json::json!(["gateway", self.safe_name]),
            Some(node) => serde_json::json!(["node", node.id, self.safe_name]),
        };
        key.to_string()
    }
}

impl CodeModeNamespaces {
    /// The text for a catalog whose MCP tools come from `servers`; `None` without any.
    pub fn write<'a>(&self, servers: impl IntoIterator<Item = McpServer<'a>>) -> Option<String> {
        let mut named = self.identifiers(servers);
        if named.is_empty() {
            return None;
        }
        named.sort_by(|a, b| collate(&a.0, &b.0));
        let listed: Vec<String> = named
            .into_iter()
            .map(|(identifier, node)| match node {
                Some(label) => format!("{identifier} (node: {label})"),
                None => identifier,
            })
            .collect();
        Some(self.text.replace("{servers}", &listed.join(", ")))
    }

    /// Each server's identifier (with its node's label), given in the order of the servers'
    /// keys (compared as `localeCompare` does).
    fn identifiers<'a>(
        &self,
        servers: impl IntoIterator<Item = McpServer<'a>>,
    ) -> Vec<(String, Option<String>)> {
        let mut keyed: Vec<(String, McpServer<'a>)> =
            servers.into_iter().map(|s| (s.key(), s)).collect();
        keyed.sort_by(|a, b| collate(&a.0, &b.0));
        keyed.dedup_by(|a, b| a.0 == b.0);
        let servers: Vec<McpServer<'a>> = keyed.into_iter().map(|(_, s)| s).collect();
        let names = assigned_names(&servers);
        let mut used: HashSet<String> = HashSet::new();
        servers
            .iter()
            .zip(names)
            .map(|(server, name)| {
                let base = to_identifier(&name, &self.fallback);
                let mut candidate = base.clone();
                let mut n = 2;
                while used.contains(&candidate) || self.reserved_identifiers.contains(&candidate) {
                    candidate = format!("{base}{n}");
                    n += 1;
                }
                used.insert(candidate.clone());
                (candidate, server.node.map(node_label))
            })
            .collect()
    }
}

/// The name each server (in key order) is known by before it becomes an identifier: its own,
/// unless it is a node's and another server shares it; then `<node fragment>_<name>`, numbered
/// on a further clash (`assignMcpNamespaceServerNames`).
fn assigned_names(servers: &[McpServer<'_>]) -> Vec<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for server in servers {
        *counts.entry(server.safe_name.to_lowercase()).or_default() += 1;
    }
    let shared = |s: &McpServer<'_>| counts[&s.safe_name.to_lowercase()] > 1;
    let mut used: HashSet<String> = HashSet::new();
    let mut names: Vec<Option<String>> = vec![None; servers.len()];
    // The gateway's own servers first, then the nodes' whose names nobody shares.
    for keep_node in [false, true] {
        for (index, server) in servers.iter().enumerate() {
            let keeps = match server.node {
                None => !keep_node,
                Some(_) => keep_node && !shared(server),
            };
            if keeps {
                names[index] = Some(server.safe_name.to_string());
                used.insert(server.safe_name.to_lowercase());
            }
        }
    }
    for (index, server) in servers.iter().enumerate() {
        let (Some(node), None) = (server.node, &names[index]) else {
            continue;
        };
        let base = format!(
            "{}_{}",
            crate::node_tools::node_fragment(&node.id),
            server.safe_name
        );
        let mut candidate = base.clone();
        let mut n = 2;
        while used.contains(&candidate.to_lowercase()) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        used.insert(candidate.to_lowercase());
        names[index] = Some(candidate);
    }
    names.into_iter().map(Option::unwrap_or_default).collect()
}

/// OpenClaw's `mcpNodeLabel`: whitespace runs as one space, at most 128 UTF-16 units.
fn node_label(node: &NodeRef) -> String {
    let spaced = node.label.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut units = 0;
    spaced
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units <= 128
        })
        .collect()
}

/// OpenClaw's `toIdentifier`: the name's alphanumeric words in lower camel case, leading digits
/// dropped; `fallback` when nothing is left.
fn to_identifier(value: &str, fallback: &str) -> String {
    let words = value
        .trim()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty());
    let mut joined = String::new();
    for (index, word) in words.enumerate() {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            match index {
                0 => joined.extend(first.to_lowercase()),
                _ => joined.extend(first.to_uppercase()),
            }
            joined.push_str(chars.as_str());
        }
    }
    let safe = joined.trim_start_matches(|c: char| c.is_ascii_digit());
    match safe.is_empty() {
        true => fallback.to_string(),
        false => safe.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> CodeModeNamespaces {
        super::super::embedded("2026.9")
            .and_then(|s| s.code_mode.clone())
            .and_then(|c| c.namespaces)
            .expect("2026.9's namespace rules")
    }

    #[test]
    fn identifiers_are_camel_case_words_without_leading_digits() {
        assert_eq!(to_identifier("Fixture-Files", "server"), "fixtureFiles");
        assert_eq!(to_identifier("mcp-2fa_tools", "server"), "mcp2faTools");
        assert_eq!(to_identifier("2fa", "server"), "fa");
        assert_eq!(to_identifier("42", "server"), "server");
        assert_eq!(to_identifier("---", "server"), "server");
    }

    #[test]
    fn reserved_and_taken_identifiers_get_a_number_and_the_list_is_sorted() {
        let r = rules();
        let gateway = |safe_name| McpServer {
            safe_name,
            node: None,
        };
        let text = r
            .write(["docs", "catalog", "Catalog", "zeta", "docs"].map(gateway))
            .expect("servers");
        assert!(
            text.contains("visible servers: catalog2, catalog3, docs, zeta."),
            "{text}"
        );
        assert!(r.write([]).is_none(), "no MCP tool, no text");
    }

    #[test]
    fn a_nodes_server_is_named_after_its_node_and_a_shared_name_takes_its_fragment() {
        let r = rules();
        let alpha = NodeRef {
            id: "A1pha-Box".into(),
            label: "alpha\n  box".into(),
        };
        let beta = NodeRef {
            id: "42".into(),
            label: "beta".into(),
        };
        let servers = [
            McpServer {
                safe_name: "docs",
                node: Some(&alpha),
            },
            McpServer {
                safe_name: "docs",
                node: Some(&beta),
            },
            McpServer {
                safe_name: "notes",
                node: Some(&beta),
            },
            McpServer {
                safe_name: "docs",
                node: None,
            },
        ];
        let text = r.write(servers).expect("servers");
        assert!(
            text.contains(
                "visible servers: a1phaBoxDocs (node: alpha box), docs, node42Docs (node: beta), notes (node: beta)."
            ),
            "{text}"
        );
    }
}
