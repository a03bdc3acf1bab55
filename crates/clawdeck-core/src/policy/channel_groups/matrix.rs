//! Matrix (`@openclaw/matrix` 2026.9.6, `resolveMatrixGroupScope`): rooms are
//! `channels.matrix.groups`, else `channels.matrix.rooms` (the account's when the context
//! names one); the room id (without a `matrix:`, `room:` or `channel:` prefix), then
//! `room:<id>`, else `"*"`. Only `tools` counts (Matrix rooms have no `toolsBySender`), and
//! only that one entry. Room ids keep their case in session keys.

use super::{ChosenPolicy, PluginInputs, tools_of};
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

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (rooms, path) = inputs.table("groups").or_else(|| inputs.table("rooms"))?;
    let room = room_id(group);
    let key = [room.clone(), format!("room:{room}")]
        .into_iter()
        .find(|k| !room.is_empty() && rooms.contains_key(k))
        .or_else(|| rooms.contains_key("*").then(|| "*".to_string()))?;
    let entry_path = path.key(key.clone());
    let policy = tools_of(rooms.get(&key)?, &entry_path, warnings)?;
    Some(ChosenPolicy {
        path: entry_path.key("tools"),
        policy,
        what: format!("Matrix room \"{key}\" tools"),
    })
}
