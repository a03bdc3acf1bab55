//! Which `feishu_*` tools the Feishu channel plugin (@openclaw/feishu, loaded from a path) builds.
//!
//! Each tool belongs to a family (doc, chat, wiki, drive, perm, scopes, bitable). The plugin
//! builds a family's tools only when some enabled account with an app id and secret turns the
//! family on (`resolveAnyEnabledFeishuToolsConfig`): an account's config is the channel's with
//! the account's keys over it, `tools` merged key by key; the channel's `tools.bitable: false`
//! holds for every account; perm is off by default, the rest on. Accounts are the keys of
//! `channels.feishu.accounts`, plus `default` when the channel itself has both credentials.
//!
//! Apart from that, OpenClaw never builds `feishu_chat` in an agent's turn when the plugin is not
//! bundled: it is a host-restricted conversation-read tool (dist `tools-*.mjs`,
//! HOST_RESTRICTED_CONVERSATION_READ_TOOLS), built only for an operator's direct call.

use std::collections::BTreeMap;

use serde_json::Value;

use super::layer::LayerPolicy;
use super::sources::LayerInputs;
use super::trace::ABSENT;

const PLUGIN: &str = "feishu";

/// Each tool's family, as the plugin checks it before building the tool.
const FAMILIES: &[(&str, &str)] = &[
    ("feishu_doc", "doc"),
    ("feishu_chat", "chat"),
    ("feishu_wiki", "wiki"),
    ("feishu_drive", "drive"),
    ("feishu_perm", "perm"),
    ("feishu_app_scopes", "scopes"),
];

/// `feishu_bitable_*` tools are the bitable family.
const BITABLE_PREFIX: &str = "feishu_bitable_";

/// The families an account has on unless its `tools` says otherwise.
const OFF_BY_DEFAULT: &[&str] = &["perm"];

/// Plugin tools OpenClaw keeps out of every agent turn unless the plugin is bundled.
const HOST_RESTRICTED_CONVERSATION_READ: &[(&str, &str)] = &[(PLUGIN, "feishu_chat")];

/// The owner layer's label when it carries Feishu tools the plugin does not build.
const LABEL: &str = "Feishu tool families no usable account turns on";

const RESTRICTED_RULE: &str = "absent: a conversation-read tool of a plugin that is not bundled (OpenClaw builds it only when an operator calls it directly, never in an agent's turn)";

/// The family of a `feishu_*` tool, when the Feishu plugin decides whether to build it.
pub(crate) fn family_of(tool: &str) -> Option<&'static str> {
    if tool.starts_with(BITABLE_PREFIX) {
        return Some("bitable");
    }
    FAMILIES.iter().find(|(t, _)| *t == tool).map(|(_, f)| *f)
}

/// Removes, at the owner layer, the Feishu tools of a loaded (not bundled) Feishu plugin that
/// no usable account turns on, and its host-restricted conversation-read tool.
pub(crate) fn apply(layers: &mut [LayerPolicy], inputs: &LayerInputs<'_>) {
    let registry = inputs.registry;
    if !registry.plugins.iter().any(|p| p.id == PLUGIN) {
        return;
    }
    let cfg = inputs.cfg;
    let env = crate::semantics::set_credentials(&cfg.raw, cfg.credentials(None).dotenv);
    let accounts = usable_accounts(&cfg.raw, &env);
    let mut removed: Vec<(String, String)> = Vec::new();
    for spec in registry.tools.iter() {
        if spec.source.plugin_id() != Some(PLUGIN) {
            continue;
        }
        if HOST_RESTRICTED_CONVERSATION_READ.contains(&(PLUGIN, spec.name.as_str())) {
            removed.push((spec.name.clone(), RESTRICTED_RULE.to_string()));
        } else if let Some(family) = family_of(&spec.name)
            && !accounts.iter().any(|tools| family_on(tools, family))
        {
            removed.push((spec.name.clone(), family_off_reason(family, accounts.len())));
        }
    }
    let note = format!("{} Feishu account(s) usable", accounts.len());
    LayerPolicy::deny_at_owner(layers, LABEL, note, removed);
}

fn family_off_reason(family: &str, usable: usize) -> String {
    if usable == 0 {
        return format!(
            "{ABSENT}no enabled Feishu account has appId and appSecret (channels.feishu or channels.feishu.accounts.<id>), so the plugin builds no {family} tool"
        );
    }
    let default = if OFF_BY_DEFAULT.contains(&family) {
        "off"
    } else {
        "on"
    };
    format!(
        "{ABSENT}no enabled Feishu account with appId and appSecret turns on tools.{family} ({default} by default)"
    )
}

/// Whether an account's merged `tools` turns `family` on.
fn family_on(tools: &serde_json::Map<String, Value>, family: &str) -> bool {
    match tools.get(family) {
        Some(Value::Bool(on)) => *on,
        Some(Value::Null) | None => !OFF_BY_DEFAULT.contains(&family),
        // The plugin spreads the value in and tests it for truth.
        Some(other) => truthy(other),
    }
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// The merged `tools` of every enabled account that has both credentials, with `env` the
/// variables the run gets (`env.vars`, dotenv files, the login shell).
fn usable_accounts(
    raw: &Value,
    env: &BTreeMap<String, String>,
) -> Vec<serde_json::Map<String, Value>> {
    let Some(channel) = raw.pointer("/channels/feishu").and_then(Value::as_object) else {
        return Vec::new();
    };
    if channel.get("enabled") == Some(&Value::Bool(false)) {
        return Vec::new();
    }
    let accounts = channel.get("accounts").and_then(Value::as_object);
    let mut ids: Vec<String> = accounts
        .map(|a| a.keys().filter(|k| !k.trim().is_empty()).cloned().collect())
        .unwrap_or_default();
    let default = crate::config::DEFAULT_ACCOUNT;
    if has_credentials(channel, env) && !ids.iter().any(|id| id.eq_ignore_ascii_case(default)) {
        ids.push(default.to_string());
    }
    ids.iter()
        .map(|id| merged_account(channel, accounts.and_then(|a| account_entry(a, id))))
        .filter(|merged| merged.get("enabled") != Some(&Value::Bool(false)))
        .filter(|merged| has_credentials(merged, env))
        .map(|merged| account_tools(channel, &merged))
        .collect()
}

/// An account's entry (see [`crate::config::account_entry`]).
fn account_entry<'a>(accounts: &'a serde_json::Map<String, Value>, id: &str) -> Option<&'a Value> {
    crate::config::account_entry(accounts, id).map(|(_, v)| v)
}

/// The channel's keys (without `accounts` and `defaultAccount`) with the account's over them;
/// `tools` merged key by key when both have one.
fn merged_account(
    channel: &serde_json::Map<String, Value>,
    account: Option<&Value>,
) -> serde_json::Map<String, Value> {
    let mut merged: serde_json::Map<String, Value> = channel
        .iter()
        .filter(|(k, _)| *k != "accounts" && *k != "defaultAccount")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let Some(account) = account.and_then(Value::as_object) else {
        return merged;
    };
    for (key, value) in account {
        let both = merged
            .get(key)
            .and_then(Value::as_object)
            .zip(value.as_object());
        let combined = match both {
            Some((base, over)) if key == "tools" => {
                let mut tools = base.clone();
                tools.extend(over.iter().map(|(k, v)| (k.clone(), v.clone())));
                Value::Object(tools)
            }
            _ => value.clone(),
        };
        merged.insert(key.clone(), combined);
    }
    merged
}

/// The account's `tools`, with the channel's `bitable: false` holding for every account.
fn account_tools(
    channel: &serde_json::Map<String, Value>,
    merged: &serde_json::Map<String, Value>,
) -> serde_json::Map<String, Value> {
    let mut tools = merged
        .get("tools")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let channel_bitable = channel.get("tools").and_then(|t| t.get("bitable"));
    if channel_bitable == Some(&Value::Bool(false)) {
        tools.insert("bitable".to_string(), Value::Bool(false));
    }
    tools
}

/// Whether a config object has an app id and secret the plugin reads in any turn: a non-empty
/// string, or an `env` secret reference whose variable the run sets (the plugin resolves one
/// itself, in a local turn too: seen on 2026.9.6).
fn has_credentials(
    config: &serde_json::Map<String, Value>,
    env: &BTreeMap<String, String>,
) -> bool {
    ["appId", "appSecret"]
        .iter()
        .all(|key| crate::semantics::self_resolved(config.get(*key), env))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn families(raw: Value) -> Vec<Vec<&'static str>> {
        usable_accounts(&raw, &BTreeMap::new())
            .iter()
            .map(|tools| {
                ["doc", "chat", "wiki", "drive", "perm", "scopes", "bitable"]
                    .into_iter()
                    .filter(|f| family_on(tools, f))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_channels_own_credentials_make_the_default_account() {
        let raw = json!({"channels": {"feishu": {"appId": "a", "appSecret": "s"}}});
        assert_eq!(
            families(raw),
            vec![vec!["doc", "chat", "wiki", "drive", "scopes", "bitable"]]
        );
        let no_secret = json!({"channels": {"feishu": {"appId": "a", "tools": {"perm": true}}}});
        assert!(families(no_secret).is_empty());
    }

    #[test]
    fn an_accounts_tools_merge_over_the_channels_and_bitable_false_holds_everywhere() {
        let raw = json!({"channels": {"feishu": {
            "tools": {"bitable": false, "wiki": false},
            "accounts": {
                "ops": {"appId": "a", "appSecret": "s", "tools": {"doc": false, "perm": true, "bitable": true}},
                "off": {"enabled": false, "appId": "a", "appSecret": "s"},
                "half": {"appId": "a"}
            }
        }}});
        assert_eq!(families(raw), vec![vec!["chat", "drive", "perm", "scopes"]]);
    }

    #[test]
    fn an_env_reference_counts_when_the_run_sets_its_variable() {
        let raw = json!({"channels": {"feishu": {"appId": "a",
            "appSecret": {"source": "env", "provider": "default", "id": "FS"}}}});
        assert!(usable_accounts(&raw, &BTreeMap::new()).is_empty());
        let env = BTreeMap::from([("FS".to_string(), "env.vars.FS".to_string())]);
        assert_eq!(usable_accounts(&raw, &env).len(), 1);
    }

    #[test]
    fn a_disabled_channel_has_no_account() {
        let raw =
            json!({"channels": {"feishu": {"enabled": false, "appId": "a", "appSecret": "s"}}});
        assert!(families(raw).is_empty());
    }

    #[test]
    fn every_feishu_tool_has_its_family() {
        assert_eq!(family_of("feishu_bitable_get_meta"), Some("bitable"));
        assert_eq!(family_of("feishu_app_scopes"), Some("scopes"));
        assert_eq!(family_of("feishu_chat"), Some("chat"));
        assert_eq!(family_of("message"), None);
    }
}
