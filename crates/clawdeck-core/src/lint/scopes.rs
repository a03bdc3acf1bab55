//! Every tool-policy scope of the config file (`{allow, alsoAllow, deny}` objects), wherever it
//! sits: `tools`, `tools.byProvider.<key>`, `tools.sandbox.tools`, `tools.subagents.tools`,
//! `toolsBySender` entries, agents' and channel groups' `tools`, `gateway.tools`. The same rule
//! OpenClaw's doctor uses to find tool policies: a path under `tools`/`agents`/`channels`/
//! `gateway` that ends in `tools`, passes through `toolsBySender`, or is a `byProvider` entry
//! under a `tools`.

use serde_json::{Map, Value};

use super::{Finding, FindingKind, Severity};
use crate::config::{KeyPath, KeySegment, LoadedConfig};

const ROOTS: &[&str] = &["tools", "agents", "channels", "gateway"];

/// One `{allow, alsoAllow, deny}` object and where it is.
pub(super) struct PolicyScope<'a> {
    pub path: KeyPath,
    pub object: &'a Map<String, Value>,
}

impl PolicyScope<'_> {
    /// A list's string entries with their paths.
    pub fn entries(&self, list: &str) -> Vec<(KeyPath, &str)> {
        let path = self.path.key(list);
        match self.object.get(list) {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.as_str().map(|s| (path.index(i), s)))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn non_empty(&self, list: &str) -> bool {
        self.entries(list).iter().any(|(_, s)| !s.trim().is_empty())
    }
}

/// The tool-policy scopes of a raw config, in key order.
pub(super) fn policy_scopes(raw: &Value) -> Vec<PolicyScope<'_>> {
    let mut out = Vec::new();
    if let Some(root) = raw.as_object() {
        for (key, value) in root {
            if ROOTS.contains(&key.as_str()) {
                walk(value, KeyPath::root().key(key.clone()), &mut out);
            }
        }
    }
    out
}

fn walk<'a>(value: &'a Value, path: KeyPath, out: &mut Vec<PolicyScope<'a>>) {
    match value {
        Value::Object(map) => {
            if is_tool_policy_path(&path) {
                out.push(PolicyScope {
                    path: path.clone(),
                    object: map,
                });
            }
            for (key, child) in map {
                if child.is_object() || child.is_array() {
                    walk(child, path.key(key.clone()), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                if child.is_object() {
                    walk(child, path.index(i), out);
                }
            }
        }
        _ => {}
    }
}

fn is_tool_policy_path(path: &KeyPath) -> bool {
    let keys: Vec<Option<&str>> = path
        .segments()
        .iter()
        .map(|s| match s {
            KeySegment::Key(k) => Some(k.as_str()),
            KeySegment::Index(_) => None,
        })
        .collect();
    if keys.last() == Some(&Some("tools")) || keys.contains(&Some("toolsBySender")) {
        return true;
    }
    // A `byProvider` entry (not the `byProvider` object itself) under some `tools`.
    match keys.iter().rposition(|k| *k == Some("byProvider")) {
        Some(at) => at + 2 == keys.len() && keys[..at].contains(&Some("tools")),
        None => false,
    }
}

/// `allow` and `alsoAllow` in one scope: today's OpenClaw rejects the config (its schema's
/// "cannot set both allow and alsoAllow in the same scope"); the seed design merges them.
pub(super) fn allow_with_also_allow(cfg: &LoadedConfig, findings: &mut Vec<Finding>) {
    let seed = cfg.semantics.is_seed();
    for scope in policy_scopes(&cfg.raw) {
        if !(scope.non_empty("allow") && scope.non_empty("alsoAllow")) {
            continue;
        }
        let (severity, message) = if seed {
            (
                Severity::Info,
                format!(
                    "{} sets both allow and alsoAllow: the seed design merges them into one allowlist; today's OpenClaw rejects this config (merge alsoAllow into allow)",
                    scope.path
                ),
            )
        } else {
            (
                Severity::Error,
                format!(
                    "{} sets both allow and alsoAllow: OpenClaw {} rejects the config (\"cannot set both allow and alsoAllow in the same scope\"). Merge alsoAllow into allow, or remove allow and use profile + alsoAllow",
                    scope.path, cfg.semantics.id
                ),
            )
        };
        findings.push(Finding::new(
            severity,
            FindingKind::AllowWithAlsoAllow,
            message,
            Some(scope.path.key("alsoAllow").to_string()),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(raw: &Value) -> Vec<String> {
        policy_scopes(raw)
            .iter()
            .map(|s| s.path.to_string())
            .collect()
    }

    #[test]
    fn finds_policy_scopes_wherever_they_sit() {
        let raw = json!({
            "tools": {
                "allow": ["read"],
                "byProvider": {"openai": {"allow": ["exec"]}},
                "sandbox": {"tools": {"alsoAllow": ["x"]}},
                "toolsBySender": {"id:42": {"deny": ["exec"]}},
                "exec": {"ask": "always"}
            },
            "agents": {"list": [{"id": "ops", "tools": {"deny": ["browser"]}}]},
            "channels": {"telegram": {"groups": {"-1": {"tools": {"allow": ["message"]}}}}},
            "plugins": {"allow": ["not-a-tool-policy"]},
            "gateway": {"tools": {"allow": ["gateway"]}}
        });
        assert_eq!(
            paths(&raw),
            vec![
                "agents.list[0].tools",
                "channels.telegram.groups.\"-1\".tools",
                "gateway.tools",
                "tools",
                "tools.byProvider.openai",
                "tools.sandbox.tools",
                "tools.toolsBySender",
                "tools.toolsBySender.\"id:42\"",
            ]
        );
    }
}
