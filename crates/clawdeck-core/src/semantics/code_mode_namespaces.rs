//! What Code Mode's `exec` description says between its text and its index when MCP server
//! tools are callable from code (the pack's `codeMode.namespaces`, the release's
//! `describeCodeModeNamespacesForPrompt`): the `MCP` global and the servers code reaches
//! through it, each by the identifier OpenClaw gives it (`toIdentifier` of its safe name, then
//! kept clear of the names taken before it and the reserved ones by a number: `catalog2`).
//! Servers of a paired node's MCP (named after the node) are not modelled: clawdeck sees only
//! the config's `mcp.servers`.

use std::collections::HashSet;

use serde::Deserialize;

use super::code_mode_hint::collate;

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

impl CodeModeNamespaces {
    /// The text for a catalog whose MCP tools come from `servers` (their safe names, as the
    /// tools' sources name them); `None` without any.
    pub fn write<'a>(&self, servers: impl IntoIterator<Item = &'a str>) -> Option<String> {
        let mut identifiers = self.identifiers(servers);
        if identifiers.is_empty() {
            return None;
        }
        identifiers.sort_by(|a, b| collate(a, b));
        Some(self.text.replace("{servers}", &identifiers.join(", ")))
    }

    /// Each server's identifier, given in the order of the servers' keys
    /// (`["gateway","<safe name>"]`, compared as `localeCompare` does).
    fn identifiers<'a>(&self, servers: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut safe: Vec<&str> = servers.into_iter().collect();
        safe.sort_by(|a, b| collate(&format!("{a}\"]"), &format!("{b}\"]")));
        safe.dedup();
        let mut used: HashSet<String> = HashSet::new();
        safe.into_iter()
            .map(|name| {
                let base = to_identifier(name, &self.fallback);
                let mut candidate = base.clone();
                let mut n = 2;
                while used.contains(&candidate) || self.reserved_identifiers.contains(&candidate) {
                    candidate = format!("{base}{n}");
                    n += 1;
                }
                used.insert(candidate.clone());
                candidate
            })
            .collect()
    }
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
        let text = r
            .write(["docs", "catalog", "Catalog", "zeta", "docs"])
            .expect("servers");
        assert!(
            text.contains("visible servers: catalog2, catalog3, docs, zeta."),
            "{text}"
        );
        assert!(r.write([]).is_none(), "no MCP tool, no text");
    }
}
