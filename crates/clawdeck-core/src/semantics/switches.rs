//! Config switches that make OpenClaw leave tools out of a run altogether: a tool constructor
//! that returns nothing while a key is `false` (`tools.web.search.enabled`), and the plugin
//! switches (`plugins.enabled`, `plugins.deny`, `plugins.entries.<id>.enabled`,
//! `plugins.slots.memory`, `plugins.allow`) that keep a plugin, and so its tools, from loading.
//!
//! Which key removes which tool is a version fact: the pack's `switches` table says it, and this
//! module reads it against a config. No allowlist brings a switched-off tool back.

use serde::Deserialize;
use serde_json::Value;

/// The pack's `switches`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSwitches {
    /// Keys whose value `false` removes tools.
    #[serde(default)]
    pub keys: Vec<KeySwitch>,
    /// How `plugins.*` decides which plugins load (`None`: the pack does not say).
    #[serde(default)]
    pub plugins: Option<PluginSwitches>,
    /// The tools a turn from a message provider is limited to or never gets (OpenClaw's
    /// `TOOL_ALLOW_BY_MESSAGE_PROVIDER` / `TOOL_DENY_BY_MESSAGE_PROVIDER`), by provider id.
    #[serde(default)]
    pub message_providers: std::collections::BTreeMap<String, ProviderTools>,
}

/// What one message provider does to a turn's tools: an allowlist wins over a deny list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderTools {
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub deny: Vec<String>,
}

impl ToolSwitches {
    /// Whether a turn from `provider` (the channel the turn came over, not one a session key
    /// names) may have `tool`; `None` when the provider leaves the tool alone.
    pub fn provider_removes(&self, provider: &str, tool: &str) -> Option<String> {
        let rules = self
            .message_providers
            .get(&provider.trim().to_lowercase())?;
        if !rules.allow.is_empty() {
            return (!rules.allow.iter().any(|t| t == tool)).then(|| {
                format!(
                    "a turn from the {provider} message provider gets only {}",
                    rules.allow.join(", ")
                )
            });
        }
        rules
            .deny
            .iter()
            .any(|t| t == tool)
            .then(|| format!("never offered to a turn from the {provider} message provider"))
    }
}

impl ToolSwitches {
    /// A switch that names a tool the pack does not have is a pack error.
    pub(crate) fn check(&self, known: impl Fn(&str) -> bool) -> Result<(), String> {
        for (i, switch) in self.keys.iter().enumerate() {
            // A plugin's tools are not in the pack: they come with the plugin.
            if let Some(tool) = switch
                .removes
                .iter()
                .find(|t| switch.plugin.is_none() && !known(t))
            {
                return Err(format!(
                    "switches.keys[{i}] ({}): no tool {tool}",
                    switch.key
                ));
            }
            if let Some(scope) = &switch.agent_scope
                && !switch.key.starts_with(&format!("{scope}."))
            {
                return Err(format!(
                    "switches.keys[{i}]: agentScope {scope} does not hold {}",
                    switch.key
                ));
            }
        }
        Ok(())
    }
}

/// One key that removes tools when it is `false`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeySwitch {
    /// Dotted path from the config root (`tools.web.search.enabled`).
    pub key: String,
    /// The object (a dotted prefix of `key`) an agent's own entry may hold instead: the agent's
    /// object replaces the global one whole (`tools.exec.applyPatch`).
    #[serde(default)]
    pub agent_scope: Option<String>,
    /// The agent's object is laid over the global one key by key (`tools.swarm`), rather than
    /// replacing it: the agent's key where it has one, else the global key.
    #[serde(default)]
    pub agent_merges: bool,
    /// The tools OpenClaw does not build while the key is `false`.
    pub removes: Vec<String>,
    /// The tools are a plugin's (not the pack's): this plugin id.
    #[serde(default)]
    pub plugin: Option<String>,
    /// The tools are built only while the key is `true` (off when unset).
    #[serde(default)]
    pub requires_true: bool,
    /// The tools are built only for a run in this channel's chats.
    #[serde(default)]
    pub needs_channel: Option<String>,
    /// The tools are built only for a run with a requester (a sender).
    #[serde(default)]
    pub needs_sender: bool,
    /// The tools are built only for a turn with a caller: an operator's (the local CLI, a
    /// gateway client) or a channel sender's. A spawned subagent's turn has none.
    #[serde(default)]
    pub needs_caller: bool,
}

/// What a switch asks of the run besides the config.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunFacts<'a> {
    /// The channel the run talks in.
    pub channel: Option<&'a str>,
    /// Whether the run has a requester (a sender).
    pub sender: bool,
    /// Why the turn has no caller (no operator's authority; a sender, when it names one, is
    /// still its caller): [`SPAWNED_HAS_NO_CALLER`], [`AGENT_METHOD_HAS_NO_CALLER`],
    /// [`UI_GUEST_HAS_NO_CALLER`].
    pub no_caller: Option<&'static str>,
}

/// A spawned subagent's turn is started by its spawner, not by a caller.
pub const SPAWNED_HAS_NO_CALLER: &str = "built only for a turn with a caller (an operator or a channel sender); a spawned subagent's has none";

/// A turn of the gateway's `agent` method that is not the local operator's own (an owner's
/// naming its session by key): no operator turn's authority is bound to it and it names no
/// channel sender.
pub const AGENT_METHOD_HAS_NO_CALLER: &str = "built only for a turn with a caller (an operator's own turn or a channel sender); a turn of a gateway's agent method has none unless it is an owner's naming its session by key";

/// A heartbeat's turn: the runner binds no operator's authority and names no channel sender.
pub const HEARTBEAT_HAS_NO_CALLER: &str = "built only for a turn with a caller (an operator's own turn or a channel sender); a heartbeat's turn has none";

/// A non-owner's `chat.send` from an operator UI client (the Control UI, the TUI): OpenClaw
/// names no sender for such a client, and without admin scope the turn has no operator's
/// authority either.
pub const UI_GUEST_HAS_NO_CALLER: &str = "built only for a turn with a caller (an operator with admin scope or a channel sender); a non-owner's turn from an operator UI client has none";

/// The pack's `switches.plugins`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginSwitches {
    /// The plugin the memory slot holds when `plugins.slots.memory` is unset.
    pub memory_slot_default: String,
    /// Plugins of kind `memory`: each loads only while the memory slot holds it.
    #[serde(default)]
    pub memory_plugins: Vec<String>,
}

/// Why a tool is absent: the key that switched it off, where it is written, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchedOff {
    /// Where the deciding value is written (`agents.list[0].tools.exec.applyPatch.enabled`).
    pub path: String,
    /// What it says (`tools.web.search.enabled is false`).
    pub reason: String,
}

/// The value at a dotted path.
fn lookup<'a>(root: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted
        .split('.')
        .filter(|p| !p.is_empty())
        .try_fold(root, |v, key| v.get(key))
}

impl KeySwitch {
    /// Whether the switch is off for a run of the agent whose entry is `agent` (at
    /// `agent_path`), and where that is written.
    pub fn off(
        &self,
        raw: &Value,
        agent: Option<(&Value, &str)>,
        run: RunFacts<'_>,
    ) -> Option<SwitchedOff> {
        let agent_holds = |entry: &Value, scope: &str| match lookup(entry, scope) {
            Some(object) if self.agent_merges => {
                lookup(object, self.key.strip_prefix(scope).unwrap_or("")).is_some()
            }
            found => found.is_some(),
        };
        let (scope_holder, scope_path, rest) = match (&self.agent_scope, agent) {
            (Some(scope), Some((entry, path))) if agent_holds(entry, scope) => {
                let rest = self.key.strip_prefix(scope.as_str()).unwrap_or("");
                (lookup(entry, scope), format!("{path}.{scope}"), rest)
            }
            _ => (Some(raw), String::new(), self.key.as_str()),
        };
        let value = scope_holder.and_then(|holder| lookup(holder, rest));
        let path = if scope_path.is_empty() {
            self.key.clone()
        } else {
            format!("{scope_path}{rest}")
        };
        let off = |reason: String| {
            Some(SwitchedOff {
                path: path.clone(),
                reason,
            })
        };
        if self.requires_true && value != Some(&Value::Bool(true)) {
            return off(format!("{path} is not true"));
        }
        if !self.requires_true && value == Some(&Value::Bool(false)) {
            return off(format!("{path} is false"));
        }
        if let Some(channel) = &self.needs_channel
            && !run
                .channel
                .is_some_and(|c| c.trim().eq_ignore_ascii_case(channel))
        {
            return off(format!("built only in a {channel} chat"));
        }
        if self.needs_sender && !run.sender {
            return off("built only for a requester (no sender in the context)".to_string());
        }
        match run.no_caller {
            Some(why) if self.needs_caller && !run.sender => off(why.to_string()),
            _ => None,
        }
    }
}

/// A plugin id as `plugins.allow` / `deny` / `entries` compare it: trimmed, lowercase.
fn policy_id(id: &str) -> String {
    id.trim().to_lowercase()
}

/// The string entries of `plugins.<list>` with their index, as policy ids.
fn id_list(plugins: &Value, list: &str) -> Vec<(usize, String)> {
    plugins
        .get(list)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.as_str().map(|s| (i, policy_id(s))))
                .filter(|(_, s)| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// A slot's value: `None` when unset or blank (the default holds it), `Some(None)` for
/// `"none"` (the slot is off), else the plugin it names.
fn slot(plugins: &Value, key: &str) -> Option<Option<String>> {
    let text = plugins.get("slots")?.get(key)?.as_str()?.trim();
    if text.is_empty() {
        return None;
    }
    if text.eq_ignore_ascii_case("none") {
        return Some(None);
    }
    Some(Some(text.to_string()))
}

impl PluginSwitches {
    /// Why plugin `id` does not load under `raw`'s `plugins`, in OpenClaw's order: plugins
    /// off, denied, disabled by its entry, the memory slot held by another, not in the
    /// allowlist (a plugin holding a slot needs no allowlist entry).
    pub fn plugin_off(&self, raw: &Value, id: &str) -> Option<SwitchedOff> {
        let plugins = raw.get("plugins")?;
        let id = policy_id(id);
        let off = |path: String, reason: String| Some(SwitchedOff { path, reason });
        if plugins.get("enabled") == Some(&Value::Bool(false)) {
            return off("plugins.enabled".into(), "plugins.enabled is false".into());
        }
        if let Some((i, _)) = id_list(plugins, "deny").into_iter().find(|(_, d)| *d == id) {
            return off(
                format!("plugins.deny[{i}]"),
                format!("plugins.deny lists {id}"),
            );
        }
        if let Some(key) = entry_with_enabled(plugins, &id, false) {
            let path = format!("plugins.entries.{key}.enabled");
            return off(path, format!("plugins.entries.{id}.enabled is false"));
        }
        let memory = slot(plugins, "memory");
        let memory_holder = match &memory {
            None => Some(self.memory_slot_default.clone()),
            Some(held) => held.clone(),
        };
        if self.memory_plugins.contains(&id) && memory_holder.as_deref() != Some(id.as_str()) {
            let reason = match memory_holder {
                None => "plugins.slots.memory is \"none\"".to_string(),
                Some(other) => format!("plugins.slots.memory selects {other}"),
            };
            return off("plugins.slots.memory".into(), reason);
        }
        let holds_slot = memory_holder.as_deref() == Some(id.as_str())
            || slot(plugins, "contextEngine").flatten().as_deref() == Some(id.as_str());
        let allow = id_list(plugins, "allow");
        if !holds_slot && !allow.is_empty() && !allow.iter().any(|(_, a)| *a == id) {
            return off(
                "plugins.allow".into(),
                format!("plugins.allow does not list {id}"),
            );
        }
        None
    }

    /// Whether `plugins.entries.<id>.enabled: false` switches plugin `id` off.
    pub fn disabled_by_entry(raw: &Value, id: &str) -> bool {
        raw.get("plugins")
            .and_then(|plugins| entry_with_enabled(plugins, &policy_id(id), false))
            .is_some()
    }

    /// Whether `plugins.entries.<id>.enabled` turns on plugin `id` (one off by default).
    pub fn enabled_by_entry(raw: &Value, id: &str) -> bool {
        raw.get("plugins")
            .and_then(|plugins| entry_with_enabled(plugins, &policy_id(id), true))
            .is_some()
    }

    /// Whether `raw` turns on bundled plugin `id` that is off by default, as OpenClaw's
    /// activation does: its entry's `enabled: true`, or the memory or context-engine slot
    /// naming it (`plugins.allow` alone does not).
    pub fn turned_on(raw: &Value, id: &str) -> bool {
        let id = policy_id(id);
        let in_slot = |key: &str| {
            raw.get("plugins")
                .and_then(|plugins| slot(plugins, key))
                .flatten()
                .is_some_and(|held| policy_id(&held) == id)
        };
        Self::enabled_by_entry(raw, &id) || in_slot("memory") || in_slot("contextEngine")
    }
}

/// The `plugins.entries` key (as written) for policy id `id` whose `enabled` is `enabled`.
fn entry_with_enabled(plugins: &Value, id: &str, enabled: bool) -> Option<String> {
    let entries = plugins.get("entries")?.as_object()?;
    entries
        .iter()
        .filter(|(key, _)| policy_id(key) == id)
        .find(|(_, entry)| entry.get("enabled") == Some(&Value::Bool(enabled)))
        .map(|(key, _)| key.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plugins() -> PluginSwitches {
        PluginSwitches {
            memory_slot_default: "memory-core".into(),
            memory_plugins: vec!["memory-core".into()],
        }
    }

    #[test]
    fn an_entry_switched_off_is_read_as_openclaw_normalises_ids() {
        let raw = json!({ "plugins": { "entries": { " Discord ": { "enabled": false } } } });
        assert!(PluginSwitches::disabled_by_entry(&raw, "discord"));
        assert!(!PluginSwitches::disabled_by_entry(&raw, "slack"));
        let on = json!({ "plugins": { "entries": { "discord": { "enabled": true } } } });
        assert!(!PluginSwitches::disabled_by_entry(&on, "discord"));
        assert!(!PluginSwitches::disabled_by_entry(&json!({}), "discord"));
    }

    #[test]
    fn a_key_switch_is_off_only_at_false_and_an_agent_object_replaces_the_global_one() {
        let web = KeySwitch {
            key: "tools.web.search.enabled".into(),
            agent_scope: None,
            removes: vec!["web_search".into()],
            ..KeySwitch::default()
        };
        let off = json!({"tools": {"web": {"search": {"enabled": false}}}});
        assert_eq!(
            web.off(&off, None, RunFacts::default()).unwrap().reason,
            "tools.web.search.enabled is false"
        );
        assert!(
            web.off(
                &json!({"tools": {"web": {"search": {"enabled": "false"}}}}),
                None,
                RunFacts::default()
            )
            .is_none()
        );
        assert!(web.off(&json!({}), None, RunFacts::default()).is_none());

        let patch = KeySwitch {
            key: "tools.exec.applyPatch.enabled".into(),
            agent_scope: Some("tools.exec.applyPatch".into()),
            removes: vec!["apply_patch".into()],
            ..KeySwitch::default()
        };
        let global_off = json!({"tools": {"exec": {"applyPatch": {"enabled": false}}}});
        let agent_on = json!({"tools": {"exec": {"applyPatch": {"workspaceOnly": true}}}});
        assert!(
            patch
                .off(
                    &global_off,
                    Some((&agent_on, "agents.list[0]")),
                    RunFacts::default()
                )
                .is_none()
        );
        assert!(
            patch
                .off(
                    &global_off,
                    Some((&json!({}), "agents.list[0]")),
                    RunFacts::default()
                )
                .is_some()
        );
        let agent_off = json!({"tools": {"exec": {"applyPatch": {"enabled": false}}}});
        let by_agent = patch
            .off(
                &json!({}),
                Some((&agent_off, "agents.list[0]")),
                RunFacts::default(),
            )
            .unwrap();
        assert_eq!(
            by_agent.path,
            "agents.list[0].tools.exec.applyPatch.enabled"
        );
    }

    #[test]
    fn an_agent_object_that_merges_decides_only_by_the_keys_it_holds() {
        let swarm = KeySwitch {
            key: "tools.swarm.enabled".into(),
            agent_scope: Some("tools.swarm".into()),
            agent_merges: true,
            removes: vec!["agents_wait".into()],
            ..KeySwitch::default()
        };
        let global_off = json!({"tools": {"swarm": {"enabled": false}}});
        let other_keys = json!({"tools": {"swarm": {"maxConcurrent": 2}}});
        let off = swarm
            .off(
                &global_off,
                Some((&other_keys, "agents.list[0]")),
                RunFacts::default(),
            )
            .expect("the global key decides");
        assert_eq!(off.path, "tools.swarm.enabled");
        let agent_on = json!({"tools": {"swarm": {"enabled": true}}});
        assert!(
            swarm
                .off(
                    &global_off,
                    Some((&agent_on, "agents.list[0]")),
                    RunFacts::default()
                )
                .is_none()
        );
    }

    #[test]
    fn plugin_switches_follow_openclaws_order() {
        let p = plugins();
        let reason = |raw: Value, id: &str| p.plugin_off(&raw, id).map(|s| s.reason);
        assert_eq!(reason(json!({}), "browser"), None);
        assert_eq!(
            reason(json!({"plugins": {"enabled": false}}), "memory-core").as_deref(),
            Some("plugins.enabled is false")
        );
        assert_eq!(
            reason(json!({"plugins": {"deny": [" Browser "]}}), "browser").as_deref(),
            Some("plugins.deny lists browser")
        );
        let entry = p
            .plugin_off(
                &json!({"plugins": {"entries": {"Canvas": {"enabled": false}}}}),
                "canvas",
            )
            .unwrap();
        assert_eq!(entry.path, "plugins.entries.Canvas.enabled");
        // The memory slot's default holder needs no allowlist entry; others do.
        let allow = json!({"plugins": {"allow": ["browser"]}});
        assert_eq!(reason(allow.clone(), "memory-core"), None);
        assert_eq!(reason(allow.clone(), "browser"), None);
        assert_eq!(
            reason(allow, "canvas").as_deref(),
            Some("plugins.allow does not list canvas")
        );
        assert_eq!(
            reason(
                json!({"plugins": {"slots": {"memory": "None"}}}),
                "memory-core"
            )
            .as_deref(),
            Some("plugins.slots.memory is \"none\"")
        );
        assert_eq!(
            reason(
                json!({"plugins": {"slots": {"memory": "memory-wiki"}}}),
                "memory-core"
            )
            .as_deref(),
            Some("plugins.slots.memory selects memory-wiki")
        );
        assert_eq!(
            reason(
                json!({"plugins": {"slots": {"memory": " "}}}),
                "memory-core"
            ),
            None
        );
    }
}
