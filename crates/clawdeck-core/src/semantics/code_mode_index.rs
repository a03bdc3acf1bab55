//! Code Mode's index of the tools callable from code, which ends `exec`'s description: one
//! `- callableName INPUT -> OUTPUT` line per tool (the pack's `codeMode.index`). As both
//! releases write it (`createCodeModeCatalogBindings`, `formatCodeModeCatalogIndex`):
//! - a tool's callable name is its name with every character outside `[A-Za-z0-9_$]` made `_`
//!   (`tool_` before one that does not start as an identifier may); a name a reserved global or
//!   word holds, or another tool took first, gets `_` and the first 8 (10, 12, ...) hexadecimal
//!   digits of the SHA-256 of the tool's catalog id (`openclaw:core:nodes` → `nodes_b011db38`);
//! - the input hint is rendered from the tool's schema ([`super::code_mode_input_hint`]), the
//!   output hint is the one the release's runs wrote for the tool (`?`: no output schema);
//! - lines of tools with an output come first, each group in `localeCompare` order;
//! - heading, lines, a blank line and the footer fit the budget (8000 UTF-16 units): when the
//!   whole index does not, each line in order is kept if it still fits, and the footer counts
//!   the tools left out.
//!
//! MCP server tools are not indexed (code reaches them through the `MCP` namespace).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::tool::ToolSpec;

use super::code_mode_hint::collate;

/// The pack's `codeMode.index`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeModeIndex {
    /// The most UTF-16 units the index may take.
    pub budget: usize,
    pub heading: String,
    /// Follows the number of tools left out.
    pub omitted_footer: String,
    pub complete_footer: String,
    pub reserved_globals: Vec<String>,
    pub reserved_words: Vec<String>,
    /// Input hints carry numbers' bounds (`number /* integer, >= 1 */`): 2026.9.
    #[serde(default)]
    pub numeric_bounds: bool,
    /// Tool name → its output hint (`None`: the release writes `?`).
    #[serde(default)]
    pub output_hints: BTreeMap<String, Option<String>>,
}

/// An index as written for a run's callable tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenIndex {
    /// Heading, lines and footer; empty when no tool is callable.
    pub text: String,
    /// Tool name → the callable name it takes.
    pub callable_names: BTreeMap<String, String>,
}

/// One tool's binding: its name, callable name and line.
struct Binding {
    name: String,
    callable: String,
    line: String,
    has_output: bool,
}

impl CodeModeIndex {
    /// The index of `tools` (the ones callable from code, in any order).
    pub fn write(&self, tools: &[ToolSpec]) -> WrittenIndex {
        let indexed = indexed(tools);
        let mut bindings = self.bindings(&indexed);
        bindings.sort_by(|a, b| {
            b.has_output
                .cmp(&a.has_output)
                .then_with(|| collate(&a.callable, &b.callable))
        });
        let callable_names = bindings
            .iter()
            .map(|b| (b.name.clone(), b.callable.clone()))
            .collect();
        let lines: Vec<String> = bindings.into_iter().map(|b| b.line).collect();
        WrittenIndex {
            text: self.fit(&lines),
            callable_names,
        }
    }

    /// Each tool's callable name and line.
    fn bindings(&self, tools: &[&ToolSpec]) -> Vec<Binding> {
        let mut used: BTreeSet<String> = self.reserved_globals.iter().cloned().collect();
        let reserved_word = |name: &str| self.reserved_words.iter().any(|w| w == name);
        let mut candidates: Vec<(&ToolSpec, String, String, bool)> = tools
            .iter()
            .map(|tool| {
                let base = callable_base(&tool.name);
                let id = catalog_id(tool);
                let keeps =
                    tool.name == base && !reserved_word(&tool.name) && !used.contains(&tool.name);
                (*tool, base, id, keeps)
            })
            .collect();
        candidates.sort_by(|a, b| {
            b.3.cmp(&a.3)
                .then_with(|| collate(&a.1, &b.1))
                .then_with(|| collate(&a.2, &b.2))
        });
        candidates
            .into_iter()
            .map(|(tool, base, id, _)| {
                let callable = if reserved_word(&base) || used.contains(&base) {
                    suffixed(&base, &id, &used, &reserved_word)
                } else {
                    base
                };
                used.insert(callable.clone());
                let input = super::code_mode_input_hint(&tool.parameters, self.numeric_bounds);
                let output = self.output_hints.get(&tool.name).cloned().flatten();
                Binding {
                    name: tool.name.clone(),
                    line: format!(
                        "- {callable} {input} -> {}",
                        output.as_deref().unwrap_or("?")
                    ),
                    has_output: output.is_some(),
                    callable,
                }
            })
            .collect()
    }

    /// The index of `lines` within the budget.
    fn fit(&self, lines: &[String]) -> String {
        if lines.is_empty() {
            return String::new();
        }
        let whole = self.render(lines, lines.len());
        if utf16_len(&whole) <= self.budget {
            return whole;
        }
        let heading = utf16_len(&self.heading);
        let mut kept: Vec<String> = Vec::new();
        let mut kept_len = 0;
        for line in lines {
            let candidate = kept_len + 1 + utf16_len(line);
            let footer = utf16_len(&self.footer(kept.len() + 1, lines.len()));
            if heading + candidate + 2 + footer <= self.budget {
                kept.push(line.clone());
                kept_len = candidate;
            }
        }
        self.render(&kept, lines.len())
    }

    fn render(&self, lines: &[String], total: usize) -> String {
        let mut parts = vec![self.heading.clone()];
        parts.extend(lines.iter().cloned());
        parts.push(String::new());
        parts.push(self.footer(lines.len(), total));
        parts.join("\n")
    }

    fn footer(&self, included: usize, total: usize) -> String {
        match total.saturating_sub(included) {
            0 => self.complete_footer.clone(),
            omitted => format!("{omitted}{}", self.omitted_footer),
        }
    }
}

/// The tools the index lists: all but MCP server tools.
fn indexed(tools: &[ToolSpec]) -> Vec<&ToolSpec> {
    tools.iter().filter(|t| !t.source.is_mcp()).collect()
}

/// OpenClaw's `normalizedCallableBase`.
fn callable_base(name: &str) -> String {
    let normalized: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                true => c,
                false => '_',
            },
        )
        .collect();
    let starts = normalized
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$');
    match starts && !normalized.starts_with("__openclaw") {
        true => normalized,
        false => format!("tool_{normalized}"),
    }
}

/// The tool's id in OpenClaw's catalog: `openclaw:<plugin or core>:<name>`.
fn catalog_id(tool: &ToolSpec) -> String {
    format!(
        "openclaw:{}:{}",
        tool.source.plugin_id().unwrap_or("core"),
        tool.name
    )
}

/// `base_<hex>`: the shortest prefix (8 digits and up, by two) of the id's SHA-256 that is free.
fn suffixed(
    base: &str,
    id: &str,
    used: &BTreeSet<String>,
    reserved_word: &dyn Fn(&str) -> bool,
) -> String {
    let digest: String = Sha256::digest(id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (8..=digest.len())
        .step_by(2)
        .map(|len| format!("{base}_{}", &digest[..len]))
        .find(|c| !used.contains(c) && !reserved_word(c))
        .unwrap_or_else(|| format!("{base}_{digest}"))
}

/// A text's length as JavaScript counts it.
fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn index(budget: usize) -> CodeModeIndex {
        CodeModeIndex {
            budget,
            heading: "Tools:".into(),
            omitted_footer: " more omitted.".into(),
            complete_footer: "All listed.".into(),
            reserved_globals: vec!["nodes".into(), "text".into()],
            reserved_words: vec!["delete".into()],
            numeric_bounds: true,
            output_hints: BTreeMap::from([
                ("read".to_string(), Some("{ text: string }".to_string())),
                ("nodes".to_string(), None),
            ]),
        }
    }

    fn tool(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.to_string(),
            parameters: json!({"type": "object", "properties": {}}),
            ..crate::catalog::core_specs()
                .into_iter()
                .next()
                .expect("a core spec")
        }
    }

    #[test]
    fn a_reserved_name_takes_its_ids_digest_and_outputs_come_first() {
        let written =
            index(8000).write(&[tool("nodes"), tool("read"), tool("delete"), tool("web-x")]);
        let lines: Vec<&str> = written.text.lines().collect();
        assert_eq!(lines[0], "Tools:");
        assert_eq!(lines[1], "- read {} -> { text: string }", "{lines:?}");
        assert!(lines[2].starts_with("- delete_"), "{lines:?}");
        assert_eq!(
            lines[3], "- nodes_b011db38 {} -> ?",
            "sha256 of openclaw:core:nodes"
        );
        assert_eq!(lines[4], "- web_x {} -> ?");
        assert_eq!(lines.last(), Some(&"All listed."));
        assert_eq!(written.callable_names["nodes"], "nodes_b011db38");
    }

    #[test]
    fn over_the_budget_lines_that_still_fit_are_kept_and_the_rest_counted() {
        let whole = index(8000).write(&[tool("read"), tool("nodes")]).text;
        let cut = index(whole.len() - 1)
            .write(&[tool("read"), tool("nodes")])
            .text;
        assert!(cut.ends_with("1 more omitted."), "{cut}");
        assert!(cut.contains("- read "), "{cut}");
        assert!(cut.encode_utf16().count() < whole.len());
        assert_eq!(index(8000).write(&[]).text, "");
    }
}
