//! Which plugin tools a run builds at all (packs with `pluginToolsNeedSelection`).
//!
//! OpenClaw creates a plugin's tools only when the combined allowlists of every layer select
//! them: `*`, `group:plugins`, the plugin id, or a name or pattern matching the tool (a pattern
//! only where the pack's `pluginAllowlistPatterns` says so: 2026.8 matches exact names); or when no
//! layer has an allowlist (or one has only `alsoAllow`, which stands for "the defaults plus").
//! A core group (`group:ui`, `group:memory`) expands to plugin tools in the policy filter, but it
//! does not select them, so they are never built (dist `tool-grant-allowlist-*.mjs`
//! createPluginToolAllowlist, `tools-*.mjs` resolvePluginToolPluginIds).

use super::layer::{LayerId, LayerPolicy, RuleEntry};
use super::matcher::CompiledList;
use super::normalize::canonical;
use super::sources::LayerInputs;
use crate::catalog::PLUGINS_GROUP;
use crate::mcp_servers::BUNDLE_MCP;

/// The rule's name in explanations.
pub(crate) const RULE: &str = "plugin tool not selected: no allowlist names its plugin, group:plugins, * or a pattern matching it (plugin tools are built only when selected)";

/// Marks every plugin tool the combined allowlists do not select (but each lets through) as
/// removed by the first layer with an allowlist.
pub(crate) fn apply(layers: &mut [LayerPolicy], inputs: &LayerInputs<'_>) {
    let registry = inputs.registry;
    if !registry.semantics.plugin_tools_need_selection {
        return;
    }
    let mut entries = allow_entries(layers, inputs);
    if includes_defaults(layers) || entries.is_empty() {
        // The default plugin tools are built; an optional one only when an entry (here an
        // alsoAllow one) names it.
        entries.extend(defaults_plus_entries(layers, inputs));
        leave_out_optional(layers, inputs, &entries);
        return;
    }
    if entries.iter().any(|e| e == "*" || e == PLUGINS_GROUP) {
        return;
    }
    // Only a tool every allowlist lets through needs this rule to explain its absence (the
    // others are already "not in the allowlist"); the rule is named at the first allowlist.
    let allowlists: Vec<CompiledList> = layers
        .iter()
        .filter(|l| l.present)
        .filter_map(|l| l.allow.clone())
        .map(|allow| CompiledList::compile(allow, registry))
        .collect();
    let Some(first) = layers.iter_mut().find(|l| l.present && l.allow.is_some()) else {
        return;
    };
    let path = first.allow_path.clone();
    for spec in &registry.tools {
        let Some(plugin) = spec.source.plugin_id() else {
            continue;
        };
        if plugin == BUNDLE_MCP || spec.is_clawdecks() {
            continue;
        }
        let selected = selects(&entries, plugin, &spec.name, inputs);
        if selected || !allowlists.iter().all(|list| list.matches(&spec.name)) {
            continue;
        }
        first.deny.push(match &path {
            Some(path) => RuleEntry::builtin_at(spec.name.clone(), RULE, path.clone()),
            None => RuleEntry::builtin(spec.name.clone(), RULE),
        });
    }
}

/// Every allowlist entry of the present layers, canonical (the union OpenClaw selects plugin
/// tools with).
fn allow_entries(layers: &[LayerPolicy], inputs: &LayerInputs<'_>) -> Vec<String> {
    let registry = inputs.registry;
    let mut entries: Vec<String> = Vec::new();
    for layer in layers.iter().filter(|l| l.present) {
        for entry in layer.allow.iter().flatten() {
            let name = canonical(entry.pattern.trim(), &registry.semantics).into_owned();
            // The sandbox's allow list reaches this union with its groups expanded.
            match registry.expand_group(&name) {
                Some(members) if layer.id == LayerId::Sandbox => entries.extend(members),
                _ if name.is_empty() => {}
                _ => entries.push(name),
            }
        }
    }
    entries
}

/// Whether the allowlist `entries` select plugin `plugin`'s tool `tool`: `*`, `group:plugins`,
/// the plugin id, the tool's name or (where the pack says) a pattern matching it.
fn selects(entries: &[String], plugin: &str, tool: &str, inputs: &LayerInputs<'_>) -> bool {
    let plugin = plugin.to_lowercase();
    let name = tool.to_lowercase();
    let patterns = inputs.registry.semantics.plugin_allowlist_patterns;
    entries.iter().any(|e| {
        e == "*"
            || e == PLUGINS_GROUP
            || *e == plugin
            || *e == name
            || (patterns && glob_matches(e, &name))
    })
}

/// The entries of every present layer that has only `alsoAllow` (canonical).
fn defaults_plus_entries(layers: &[LayerPolicy], inputs: &LayerInputs<'_>) -> Vec<String> {
    layers
        .iter()
        .filter(|l| l.present)
        .filter_map(|l| l.defaults_plus.as_ref())
        .flatten()
        .map(|e| canonical(e.trim(), &inputs.registry.semantics).into_owned())
        .collect()
}

/// Removes the optional plugin tools no entry selects at the owner layer, the gate that keeps
/// tools from being built at all.
fn leave_out_optional(layers: &mut [LayerPolicy], inputs: &LayerInputs<'_>, entries: &[String]) {
    let optional: Vec<(String, String)> = inputs
        .registry
        .tools
        .iter()
        .filter(|t| t.flags.optional)
        .filter(|t| {
            t.source
                .plugin_id()
                .is_some_and(|p| !selects(entries, p, &t.name, inputs))
        })
        .map(|t| (t.name.clone(), OPTIONAL_RULE.to_string()))
        .collect();
    let note = "optional plugin tools need an allowlist that names them".to_string();
    LayerPolicy::deny_at_owner(layers, OPTIONAL_LABEL, note, optional);
}

/// The owner layer's label when it carries optional plugin tools nothing selected.
const OPTIONAL_LABEL: &str = "optional plugin tools no allowlist selects";

/// The rule's name in explanations.
pub(crate) const OPTIONAL_RULE: &str =
    "optional plugin tool: built only when an allowlist names it, its plugin, group:plugins or *";

/// Whether OpenClaw builds the default plugin tools: a layer of only `alsoAllow` (`tools`, an
/// agent's, a `byProvider` entry, a group's or a sender's policy) stands for `*` plus its
/// entries (dist `sandbox-tool-policy-*.mjs` pickSandboxToolPolicy). The sandbox's and a
/// subagent's do not: their alsoAllow adds to their own allow list.
fn includes_defaults(layers: &[LayerPolicy]) -> bool {
    layers
        .iter()
        .any(|l| l.present && l.defaults_plus.is_some())
}

/// `*` globs as OpenClaw's tool patterns have them (no other metacharacter).
fn glob_matches(pattern: &str, name: &str) -> bool {
    if !pattern.contains('*') {
        return pattern == name;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let (head, tail) = (parts[0], parts[parts.len() - 1]);
    if name.len() < head.len() + tail.len() || !name.starts_with(head) || !name.ends_with(tail) {
        return false;
    }
    let mut rest = &name[head.len()..name.len() - tail.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs_match_like_openclaws_tool_patterns() {
        assert!(glob_matches("memory_*", "memory_search"));
        assert!(glob_matches("*_fetch", "file_fetch"));
        assert!(glob_matches("f*e_*h", "file_fetch"));
        assert!(!glob_matches("group:memory", "memory_search"));
        assert!(!glob_matches("memory_*", "intent"));
        assert!(glob_matches("intent", "intent"));
    }
}
