//! Names in tool policies that match no tool of the version, or that the version renamed:
//! `image` (now `view_image`, the old name matches nothing), `cron` (now `automations`, the old
//! name still works as an alias), tools of the seed design that today's OpenClaw lacks.

use serde_json::Value;

use super::scopes::policy_scopes;
use super::{Finding, FindingKind, Severity};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::policy::RuleEntry;
use crate::policy::matcher::CompiledList;
use crate::semantics::normalize::normalize_tool_name;
use crate::semantics::renames::rename_in;
use crate::semantics::{self, Semantics};

/// The other embedded packs, newest first (for "a tool of the seed design" hints: the newest
/// release that has a tool names it).
fn other_packs(current: &str) -> Vec<std::sync::Arc<Semantics>> {
    semantics::EMBEDDED_PACKS
        .iter()
        .rev()
        .filter(|(id, _)| *id != current)
        .filter_map(|(id, _)| semantics::embedded(id))
        .collect()
}

fn describe_pack(s: &Semantics) -> String {
    if s.is_seed() {
        "the seed design".to_string()
    } else {
        format!("OpenClaw {}", s.id)
    }
}

/// Checks every entry of every tool-policy list in the config.
pub(super) fn check_names(cfg: &LoadedConfig, registry: &Registry, findings: &mut Vec<Finding>) {
    let semantics = &registry.semantics;
    let version = describe_pack(semantics);
    let others = other_packs(&semantics.id);
    let mcp_prefixes = mcp_tool_prefixes(&cfg.raw);
    for scope in policy_scopes(&cfg.raw) {
        if let Some(profile) = scope.object.get("profile").and_then(Value::as_str)
            && !profile.trim().is_empty()
            && semantics.profile(profile).is_none()
        {
            let known: Vec<&str> = semantics.profiles.keys().map(String::as_str).collect();
            findings.push(Finding::new(
                Severity::Warning,
                FindingKind::UnknownName,
                format!(
                    "profile \"{profile}\" is not a profile of {version} ({}): OpenClaw ignores it, so it restricts nothing",
                    known.join(", ")
                ),
                Some(scope.path.key("profile").to_string()),
            ));
        }
        for list in ["allow", "alsoAllow", "deny"] {
            let effect = if list == "deny" {
                "denies nothing"
            } else {
                "grants nothing"
            };
            for (path, entry) in scope.entries(list) {
                let name = normalize_tool_name(entry);
                if name.is_empty() || name.chars().all(|c| c == '*') {
                    continue;
                }
                if !registry.contains(&name)
                    && let Some(rename) = rename_in(&name, semantics)
                {
                    findings.push(Finding::new(
                        Severity::Warning,
                        FindingKind::RenamedName,
                        format!(
                            "\"{entry}\" was renamed \"{}\" in OpenClaw {}: the old name matches no tool and {effect}. Write \"{}\" (or run `openclaw doctor --fix`)",
                            rename.to, rename.since, rename.to
                        ),
                        Some(path.to_string()),
                    ));
                    continue;
                }
                if let Some(target) = semantics.alias_target(&name) {
                    // Old aliases (bash → exec) are fine; a former tool name is worth a note.
                    if let Some(old) = others.iter().find(|o| has_tool(o, &name)) {
                        findings.push(Finding::new(
                            Severity::Info,
                            FindingKind::RenamedName,
                            format!(
                                "\"{entry}\" (a tool of {}) is called \"{target}\" in {version}; the old name still works as an alias. Write \"{target}\"",
                                describe_pack(old)
                            ),
                            Some(path.to_string()),
                        ));
                    }
                    continue;
                }
                if matches_any(registry, entry, &path.to_string())
                    || semantics.conditional(&name).is_some()
                    || known_plugin_entry(semantics, &name, &mcp_prefixes)
                {
                    continue;
                }
                let hint = match others
                    .iter()
                    .find(|o| has_tool(o, &name) || o.group(&name).is_some())
                {
                    Some(other) if name.starts_with("group:") => format!(
                        " (it is a group of {}, not of {version})",
                        describe_pack(other)
                    ),
                    Some(other) => format!(
                        " (it is a tool of {}; {version} has no built-in tool of that name, only a plugin that is not loaded could provide it)",
                        describe_pack(other)
                    ),
                    None if name.starts_with("group:") => " (no such group)".to_string(),
                    None => " (a typo, or a plugin that is not loaded)".to_string(),
                };
                findings.push(Finding::new(
                    Severity::Warning,
                    FindingKind::UnknownName,
                    format!("\"{entry}\" matches no tool of {version}{hint}: it {effect}"),
                    Some(path.to_string()),
                ));
            }
        }
    }
}

fn has_tool(s: &Semantics, name: &str) -> bool {
    s.tools.iter().any(|t| t.name == name) || s.conditional(name).is_some()
}

/// Whether the entry, as the engine would match it, names a registered tool (groups, plugin
/// ids, wildcards, family names included).
fn matches_any(registry: &Registry, entry: &str, path: &str) -> bool {
    let list = CompiledList::compile(
        vec![RuleEntry::configured(entry, path.to_string())],
        registry,
    );
    let mut used = vec![false];
    list.first_matches(registry, &mut used);
    used[0]
}

/// Entries for plugin tools clawdeck cannot list: `bundle-mcp`, `group:plugins`, and MCP tool
/// names or globs of a configured server (`outlook__send_mail`, `outlook__*`).
fn known_plugin_entry(semantics: &Semantics, name: &str, mcp_prefixes: &[String]) -> bool {
    if name == crate::catalog::PLUGINS_GROUP {
        return true;
    }
    if semantics.is_seed() {
        return false;
    }
    name == "bundle-mcp" || mcp_prefixes.iter().any(|p| name.starts_with(p.as_str()))
}

/// Configured (enabled) MCP servers, sorted by name as OpenClaw sorts them.
pub(super) fn mcp_server_names(raw: &Value) -> Vec<String> {
    let mut names: Vec<String> = raw
        .pointer("/mcp/servers")
        .and_then(Value::as_object)
        .map(|servers| {
            servers
                .iter()
                .filter(|(_, v)| {
                    v.is_object() && v.get("enabled").and_then(Value::as_bool) != Some(false)
                })
                .map(|(k, _)| k.trim().to_string())
                .filter(|k| !k.is_empty())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The provider-safe prefix of each server's tools (`Outlook Graph` → `outlook-graph__`), as
/// OpenClaw builds it: unsafe characters become `-`, a name not starting with a letter gets
/// `mcp-`, at most 30 characters, duplicates get `-2`, `-3` ...
pub(super) fn mcp_tool_prefixes(raw: &Value) -> Vec<String> {
    let (servers, _) = crate::mcp_servers::declared_servers(raw, None);
    servers
        .iter()
        .map(|s| format!("{}__", s.safe_name.to_lowercase()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mcp_prefixes_follow_openclaw_sanitising() {
        let raw = json!({"mcp": {"servers": {
            "Outlook Graph": {"command": "x"},
            "9lives": {"command": "x"},
            "off": {"command": "x", "enabled": false},
            "outlook-graph": {"command": "x"}
        }}});
        assert_eq!(
            mcp_tool_prefixes(&raw),
            vec!["mcp-9lives__", "outlook-graph__", "outlook-graph-2__"]
        );
    }
}
