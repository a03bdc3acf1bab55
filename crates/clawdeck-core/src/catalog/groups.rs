//! The dynamic plugin groups (seed 001 §2.2): `group:plugins` (every plugin tool) and each plugin
//! id (that plugin's tools). The static groups (`group:fs` ...) come from the semantics pack.

use std::collections::BTreeMap;

/// `group:plugins`: every tool a plugin contributes.
pub const PLUGINS_GROUP: &str = "group:plugins";

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
    pub(crate) fn expand(&self, entry: &str) -> Option<&[String]> {
        if entry == PLUGINS_GROUP {
            return Some(&self.all);
        }
        self.by_plugin.get(entry).map(|v| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_groups_expand() {
        let mut groups = PluginGroups {
            all: vec!["a".into(), "b".into()],
            ..PluginGroups::default()
        };
        groups.by_plugin.insert("p1".into(), vec!["a".into()]);
        assert_eq!(
            groups.expand("group:plugins"),
            Some(&["a".to_string(), "b".to_string()][..])
        );
        assert_eq!(groups.expand("p1"), Some(&["a".to_string()][..]));
        assert_eq!(groups.expand("p2"), None);
    }
}
