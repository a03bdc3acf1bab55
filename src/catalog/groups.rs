//! Semantic tool groups (seed 001 §2.2), exactly as OpenClaw's `TOOL_GROUPS`, plus the dynamic
//! plugin groups: `group:plugins` (every plugin tool) and each plugin id (that plugin's tools).

use std::collections::BTreeMap;

/// `group:plugins`: every tool a plugin contributes.
pub const PLUGINS_GROUP: &str = "group:plugins";

/// The static groups, in OpenClaw's order.
pub const CORE_GROUPS: &[(&str, &[&str])] = &[
    ("group:fs", &["read", "write", "edit", "apply_patch"]),
    ("group:runtime", &["exec", "process"]),
    ("group:memory", &["memory_search", "memory_get"]),
    ("group:web", &["web_search", "web_fetch"]),
    (
        "group:sessions",
        &[
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "sessions_spawn",
            "session_status",
        ],
    ),
    ("group:messaging", &["message"]),
    ("group:ui", &["browser", "canvas"]),
    ("group:automation", &["cron", "gateway"]),
    ("group:nodes", &["nodes"]),
    (
        "group:openclaw",
        &[
            "browser",
            "canvas",
            "nodes",
            "cron",
            "message",
            "gateway",
            "agents_list",
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "sessions_spawn",
            "session_status",
            "memory_search",
            "memory_get",
            "web_search",
            "web_fetch",
            "image",
        ],
    ),
];

/// Members of a static group (`group:fs` → read, write, edit, apply_patch).
pub fn core_group(name: &str) -> Option<&'static [&'static str]> {
    CORE_GROUPS
        .iter()
        .find(|(group, _)| *group == name)
        .map(|(_, members)| *members)
}

/// The static groups a tool belongs to.
pub fn core_groups_of(tool: &str) -> Vec<&'static str> {
    CORE_GROUPS
        .iter()
        .filter(|(_, members)| members.contains(&tool))
        .map(|(group, _)| *group)
        .collect()
}

/// Plugin tool groups built from the registry (seed 001 §2.2 `PluginToolGroups`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginGroups {
    /// Every plugin tool name.
    pub all: Vec<String>,
    /// Plugin id → its tool names.
    pub by_plugin: BTreeMap<String, Vec<String>>,
}

impl PluginGroups {
    /// Tools a group-like entry names: `group:plugins` or a plugin id.
    pub fn expand(&self, entry: &str) -> Option<&[String]> {
        if entry == PLUGINS_GROUP {
            return Some(&self.all);
        }
        self.by_plugin.get(entry).map(|v| v.as_slice())
    }
}

/// Expands a group name (static or plugin) to its members; `None` when `entry` is no group.
pub fn expand_group<'a>(entry: &str, plugins: &'a PluginGroups) -> Option<Vec<String>> {
    if let Some(members) = core_group(entry) {
        return Some(members.iter().map(|m| m.to_string()).collect());
    }
    plugins.expand(entry).map(|m: &'a [String]| m.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_groups_are_exact() {
        assert_eq!(
            core_group("group:fs"),
            Some(&["read", "write", "edit", "apply_patch"][..])
        );
        assert_eq!(core_group("group:runtime"), Some(&["exec", "process"][..]));
        assert_eq!(core_group("group:messaging"), Some(&["message"][..]));
        assert_eq!(core_group("group:openclaw").map(|m| m.len()), Some(17));
        assert_eq!(
            core_group("group:*"),
            None,
            "group:* is not a group pattern"
        );
        assert_eq!(CORE_GROUPS.len(), 10);
    }

    #[test]
    fn tool_group_membership() {
        assert_eq!(
            core_groups_of("browser"),
            vec!["group:ui", "group:openclaw"]
        );
        assert_eq!(core_groups_of("exec"), vec!["group:runtime"]);
        assert!(core_groups_of("clawbot_router").is_empty());
    }

    #[test]
    fn plugin_groups_expand() {
        let mut groups = PluginGroups {
            all: vec!["a".into(), "b".into()],
            ..PluginGroups::default()
        };
        groups.by_plugin.insert("p1".into(), vec!["a".into()]);
        assert_eq!(
            expand_group("group:plugins", &groups),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(expand_group("p1", &groups), Some(vec!["a".to_string()]));
        assert_eq!(expand_group("p2", &groups), None);
    }
}
