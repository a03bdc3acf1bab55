//! Matrix (`@openclaw/matrix` 2026.9.6, `resolveMatrixGroupScope` and
//! `resolveMatrixAccountConfig` in `dist/.setup/`): rooms are `channels.matrix.groups`, else
//! `channels.matrix.rooms`, each as the account sees them: the channel's entries that name no
//! other `account`, merged key by key with the account's own (no account is `default`; an
//! account's empty map means no rooms). The room id (without a `matrix:`, `room:` or
//! `channel:` prefix), then `room:<id>`, else `"*"`. Only `tools` counts (Matrix rooms have no
//! `toolsBySender`), and only that one entry. Room ids keep their case in session keys.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{ChosenPolicy, PluginInputs, tools_of};
use crate::config::KeyPath;
use crate::policy::trace::PolicyWarning;

/// The room id without the prefixes OpenClaw's `normalizeMatrixResolvableTarget` strips.
pub(super) fn room_id(raw: &str) -> String {
    let mut id = raw.trim();
    loop {
        let lower = id.to_ascii_lowercase();
        let Some(prefix) = ["matrix:", "room:", "channel:"]
            .into_iter()
            .find(|p| lower.starts_with(p))
        else {
            return id.to_string();
        };
        id = id[prefix.len()..].trim();
    }
}

/// A merged room entry: where its `tools` come from (the account's entry when it has them,
/// else the channel's), or `None` when neither has any.
type Rooms<'a> = BTreeMap<String, Option<(&'a Value, KeyPath)>>;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let rooms = merged_rooms(inputs, "groups").or_else(|| merged_rooms(inputs, "rooms"))?;
    let room = room_id(group);
    let key = [room.clone(), format!("room:{room}")]
        .into_iter()
        .find(|k| !room.is_empty() && rooms.contains_key(k))
        .or_else(|| rooms.contains_key("*").then(|| "*".to_string()))?;
    let (tools, path) = rooms.get(&key)?.clone()?;
    let policy = tools_of(&serde_json::json!({ "tools": tools }), &path, warnings)?;
    Some(ChosenPolicy {
        path: path.key("tools"),
        policy,
        what: format!("Matrix room \"{key}\" tools"),
    })
}

/// `name` (`groups` or `rooms`) as the context's account sees it; `None` when it has none.
fn merged_rooms<'a>(inputs: &'a PluginInputs<'_>, name: &str) -> Option<Rooms<'a>> {
    let account = inputs.account().to_lowercase();
    let mut merged: Rooms<'a> = Rooms::new();
    if let Some((channel_rooms, path)) = inputs.channel_table(name) {
        for (key, entry) in channel_rooms {
            let scoped = entry.get("account").and_then(Value::as_str);
            if scoped.is_none_or(|a| a.trim().to_lowercase() == account) {
                merged.insert(key.clone(), tools_at(entry, path.key(key.clone())));
            }
        }
    }
    if let Some((account_cfg, account_path)) = inputs.account_config(Some(&account))
        && let Some(own) = account_cfg.get(name)
    {
        let own = own.as_object()?;
        if own.is_empty() {
            return None;
        }
        for (key, entry) in own {
            let tools = tools_at(entry, account_path.key(name).key(key.clone()));
            let inherited = merged.remove(key).flatten();
            merged.insert(key.clone(), tools.or(inherited));
        }
    }
    (!merged.is_empty()).then_some(merged)
}

/// An entry's `tools` and the entry's path, when it has them.
fn tools_at(entry: &Value, path: KeyPath) -> Option<(&Value, KeyPath)> {
    entry
        .get("tools")
        .filter(|t| !t.is_null())
        .map(|t| (t, path))
}
