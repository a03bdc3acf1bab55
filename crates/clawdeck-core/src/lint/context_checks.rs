//! Findings read off one context's `Resolution`: a refused run, plugin-only allowlists, MCP
//! tools the sandbox gate hides; exec's own (approvals nobody can answer, settings for a hidden
//! exec) are in `exec_checks`.

use super::names::{mcp_server_names, mcp_tool_prefixes};
use super::{Finding, FindingKind, Severity};
use crate::catalog::{PLUGINS_GROUP, Registry};
use crate::config::{AgentInfo, LoadedConfig};
use crate::policy::{LayerId, LayerSummary, RemovalKind, Resolution};

/// Layers the operator writes allowlists for (profiles are not explicit allowlists; the owner
/// gate has none).
fn is_explicit(id: LayerId) -> bool {
    !matches!(
        id,
        LayerId::Owner | LayerId::Profile | LayerId::ProviderProfile
    )
}

/// The findings of one context; `agent` is its agent's entry (none for an unknown or implicit
/// agent).
pub(super) fn check(
    cfg: &LoadedConfig,
    registry: &Registry,
    res: &Resolution,
    agent: Option<&AgentInfo>,
    findings: &mut Vec<Finding>,
) {
    no_callable_tool(registry, res, findings);
    plugin_only_allowlists(cfg, registry, res, findings);
    if !registry.semantics.is_seed() {
        mcp_hidden_by_sandbox(cfg, res, findings);
        super::exec_checks::check(cfg, res, agent, findings);
    }
}

/// The config path of the allowlist that removed a core tool at `layer` (its "not in the
/// allowlist" rule), if any did.
fn allow_path_at(registry: &Registry, res: &Resolution, layer: Option<LayerId>) -> Option<String> {
    res.tools
        .iter()
        .filter(|t| registry.get(&t.name).is_some_and(|s| !s.is_clawdecks()))
        .filter_map(|t| t.removed_by.as_ref())
        .find(|r| {
            r.kind == RemovalKind::NotAllowed
                && layer.map_or(is_explicit(r.layer), |l| l == r.layer)
        })
        .and_then(|r| r.config_path.clone())
}

fn no_callable_tool(registry: &Registry, res: &Resolution, findings: &mut Vec<Finding>) {
    let Some(refusal) = &res.refusal else {
        return;
    };
    findings.push(Finding::new(
        Severity::Error,
        FindingKind::NoCallableTool,
        format!("OpenClaw refuses every run here: {refusal}"),
        allow_path_at(registry, res, None),
    ));
}

/// An entry that can only name plugin tools: `group:plugins`, a plugin id, a plugin's tool,
/// `bundle-mcp`, an MCP server's tools.
fn is_plugin_entry(registry: &Registry, entry: &str, mcp_prefixes: &[String]) -> bool {
    let name = registry.canonical(entry);
    name == PLUGINS_GROUP
        || name == "bundle-mcp"
        || registry.plugin_groups().by_plugin.contains_key(&name)
        || registry
            .get(&name)
            .is_some_and(|t| t.source.plugin_id().is_some())
        || mcp_prefixes.iter().any(|p| name.starts_with(p.as_str()))
}

fn plugin_only_allowlists(
    cfg: &LoadedConfig,
    registry: &Registry,
    res: &Resolution,
    findings: &mut Vec<Finding>,
) {
    let prefixes = mcp_tool_prefixes(&cfg.raw);
    for layer in res.layers.iter().filter(|l| l.present && is_explicit(l.id)) {
        // The seed design drops such a list (the engine says so in a warning).
        if let Some(warning) = res
            .warnings_for(layer.id)
            .find(|w| w.message.contains("Ignoring allowlist"))
        {
            findings.push(Finding::new(
                Severity::Warning,
                FindingKind::PluginOnlyAllowlist,
                warning.message.clone(),
                warning.config_path.clone(),
            ));
            continue;
        }
        let Some(allow) = layer.allow.as_ref().filter(|a| !a.is_empty()) else {
            continue;
        };
        if !allow
            .iter()
            .all(|e| is_plugin_entry(registry, e, &prefixes))
        {
            continue;
        }
        findings.push(Finding::new(
            Severity::Warning,
            FindingKind::PluginOnlyAllowlist,
            format!(
                "the {} allowlist names only plugin tools ({}): every core tool is removed here (OpenClaw {} keeps such a list). To add plugin tools on top of the profile, move them to alsoAllow",
                layer.label,
                allow.join(", "),
                registry.semantics.id
            ),
            allow_path_at(registry, res, Some(layer.id)).or_else(|| layer.source_path.clone()),
        ));
    }
}

/// `*`-only globbing, as tool policies use it.
fn glob_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(after) = name.strip_prefix(head) else {
                return false;
            };
            if rest.is_empty() {
                return true;
            }
            (0..=after.len())
                .filter(|&i| after.is_char_boundary(i))
                .any(|i| glob_matches(rest, &after[i..]))
        }
    }
}

/// Whether policy entries let through a tool of the server with `prefix` (OpenClaw probes with
/// `<prefix>probe`; a longer entry starting with the prefix names one of its tools).
fn entries_admit_server(entries: &[String], prefix: &str) -> bool {
    entries.iter().any(|e| {
        let e = e.trim().to_lowercase();
        e == "*"
            || e == "bundle-mcp"
            || e == PLUGINS_GROUP
            || (e.len() > prefix.len() && e.starts_with(prefix))
            || glob_matches(&e, &format!("{prefix}probe"))
    })
}

fn mcp_hidden_by_sandbox(cfg: &LoadedConfig, res: &Resolution, findings: &mut Vec<Finding>) {
    let servers = mcp_server_names(&cfg.raw);
    let prefixes = mcp_tool_prefixes(&cfg.raw);
    if servers.is_empty() || !res.resolved.sandboxed {
        return;
    }
    let Some(sandbox) = res.layer(LayerId::Sandbox).filter(|l| l.present) else {
        return;
    };
    // No allowlist (or an explicit empty one): no gate.
    let Some(allow) = sandbox.allow.as_ref().filter(|a| !a.is_empty()) else {
        return;
    };
    if prefixes.iter().all(|p| entries_admit_server(allow, p)) {
        return;
    }
    // Denied on purpose, or already hidden by a policy before the sandbox: not the gate's doing.
    let denies_all = |l: &LayerSummary| prefixes.iter().all(|p| entries_admit_server(&l.deny, p));
    let blocks_before = res.layers.iter().any(|l| {
        l.present
            && matches!(
                l.id,
                LayerId::Profile
                    | LayerId::ProviderProfile
                    | LayerId::Global
                    | LayerId::GlobalProvider
                    | LayerId::Agent
                    | LayerId::AgentProvider
            )
            && (denies_all(l)
                || l.allow.as_ref().is_some_and(|a| {
                    !a.is_empty() && !prefixes.iter().any(|p| entries_admit_server(a, p))
                }))
    });
    if denies_all(sandbox) || blocks_before {
        return;
    }
    let listed: Vec<String> = servers.iter().take(3).map(|s| format!("\"{s}\"")).collect();
    let more = if servers.len() > 3 {
        format!(", +{} more", servers.len() - 3)
    } else {
        String::new()
    };
    let noun = if servers.len() == 1 {
        "server"
    } else {
        "servers"
    };
    let scope = sandbox
        .source_path
        .clone()
        .unwrap_or_else(|| "tools.sandbox.tools".to_string());
    let example = prefixes
        .first()
        .map_or("<server>__".to_string(), Clone::clone);
    findings.push(Finding::new(
        Severity::Warning,
        FindingKind::McpHiddenBySandbox,
        format!(
            "mcp.servers defines {} MCP {noun} ({}{more}), but the sandbox tool allowlist ({}) does not include \"bundle-mcp\", \"group:plugins\" or a server glob such as \"{example}*\": sandboxed runs drop those MCP tools before the provider request. Add \"bundle-mcp\" to {scope}.alsoAllow (or \"group:plugins\" / server globs); use {scope}.allow: [] only to remove the sandbox allow gate on purpose",
            servers.len(),
            listed.join(", "),
            sandbox.source_path.as_deref().unwrap_or("the default sandbox allowlist"),
        ),
        Some(format!("{scope}.alsoAllow")),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_tool_policies() {
        assert!(glob_matches("outlook__*", "outlook__probe"));
        assert!(glob_matches("out*graph*", "outlook-graph__probe"));
        assert!(glob_matches("*", "x"));
        assert!(!glob_matches("outlook__*", "github__probe"));
        assert!(!glob_matches("read", "readx"));
    }

    #[test]
    fn server_admission_follows_openclaw() {
        let entries = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(entries_admit_server(&entries(&["bundle-mcp"]), "outlook__"));
        assert!(entries_admit_server(
            &entries(&["group:plugins"]),
            "outlook__"
        ));
        assert!(entries_admit_server(
            &entries(&["outlook__send_mail"]),
            "outlook__"
        ));
        assert!(entries_admit_server(&entries(&["Outlook__*"]), "outlook__"));
        assert!(!entries_admit_server(
            &entries(&["read", "exec"]),
            "outlook__"
        ));
        assert!(!entries_admit_server(&entries(&["outlook__"]), "outlook__"));
    }
}
