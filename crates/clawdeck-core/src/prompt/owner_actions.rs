//! The message actions a channel plugin gives only to its owner's turn: Matrix's `set-profile`
//! and `permissions` (`createMatrixExposedActions` in `@openclaw/matrix` of the 2026.9 series).
//!
//! The plugin adds `set-profile` (and its fields) when `actions.profile` is not false, and
//! `permissions` when `encryption` is true and `actions.verification` is not false, each only
//! when the turn's sender is confirmed as the owner (`senderIsOwner === true`: a local turn, an
//! admin client's, a sender the owner list names; not a scheduled job's, which names none). The
//! pack's Matrix form is a local owner turn's, so these are taken out of it or put in by turn.

use serde_json::{Map, Value};

use super::cross_channel::{Reference, actions_of, offer, set_actions};

/// The channel whose plugin has owner actions.
pub(crate) const CHANNEL: &str = "matrix";

/// The action that sets the bot's own profile.
const PROFILE: &str = "set-profile";

/// `set-profile`'s fields (`buildMatrixProfileToolSchema`).
const PROFILE_FIELDS: &[&str] = &[
    "displayName",
    "display_name",
    "avatarUrl",
    "avatar_url",
    "avatarPath",
    "avatar_path",
];

/// What the turn gives Matrix's owner actions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OwnerTurn<'a> {
    /// The turn's sender is confirmed as the owner.
    pub sender_is_owner: bool,
    /// The channel the turn talks in, if any.
    pub current_channel: Option<&'a str>,
}

/// Matrix's account config as its plugin reads it: the default account's keys over the
/// channel's.
fn account_config(raw: &Value) -> Map<String, Value> {
    let section = raw.pointer("/channels/matrix").unwrap_or(&Value::Null);
    let default = section
        .get("accounts")
        .and_then(Value::as_object)
        .and_then(|accounts| crate::config::account_entry(accounts, crate::config::DEFAULT_ACCOUNT))
        .map(|(_, entry)| entry);
    match crate::semantics::account_view(section, default) {
        Value::Object(config) => config,
        _ => Map::new(),
    }
}

/// `createActionGate`: an action family is on unless `actions.<key>` is false.
fn gate(config: &Map<String, Value>, key: &str) -> bool {
    config.get("actions").and_then(|a| a.get(key)) != Some(&Value::Bool(false))
}

/// The owner actions Matrix adds to `turn`, as `(set-profile, permissions)`.
pub(crate) fn matrix_owner_actions(raw: &Value, turn: OwnerTurn<'_>) -> (bool, bool) {
    let config = account_config(raw);
    let own_chat = turn
        .current_channel
        .is_none_or(|c| c.trim().eq_ignore_ascii_case(CHANNEL));
    let profile = turn.sender_is_owner && own_chat && gate(&config, "profile");
    let permissions = turn.sender_is_owner
        && config.get("encryption") == Some(&Value::Bool(true))
        && gate(&config, "verification");
    (profile, permissions)
}

/// Gives a message form the owner actions the turn gets (`reference`: see [`Reference`]):
/// takes `set-profile` and its fields out when the turn does not get it (the pack's configured
/// form has them), puts it in an owner's Matrix chat form (a scheduled job's in the pack) with
/// the fields Matrix's configured form gives it, and puts `permissions` in (no field of its
/// own) when the turn gets it.
pub(crate) fn adapt(
    description: &mut String,
    parameters: &mut Value,
    (profile, permissions): (bool, bool),
    reference: &Reference<'_>,
) {
    let actions = actions_of(parameters);
    let has = |name: &str| actions.iter().any(|a| a == name);
    if !profile
        && has(PROFILE)
        && let Some(properties) = parameters
            .get_mut("properties")
            .and_then(Value::as_object_mut)
    {
        for field in PROFILE_FIELDS {
            properties.remove(*field);
        }
        let kept: Vec<String> = actions.iter().filter(|a| *a != PROFILE).cloned().collect();
        set_actions(description, properties, kept.clone(), &kept);
    }
    if profile && !has(PROFILE) {
        offer(description, parameters, &[PROFILE.to_string()], reference);
        let matrix = reference
            .forms()
            .iter()
            .find(|f| f.when_channel.as_deref() == Some(CHANNEL))
            .map(|f| reference.schema_of(f));
        let fields = matrix.as_deref().and_then(|m| m.pointer("/properties"));
        if let (Some(Value::Object(from)), Some(Value::Object(into))) =
            (fields, parameters.get_mut("properties"))
        {
            for field in PROFILE_FIELDS {
                if let Some(value) = from.get(*field) {
                    into.insert((*field).to_string(), value.clone());
                }
            }
        }
    }
    if permissions {
        let permissions = ["permissions".to_string()];
        offer(description, parameters, &permissions, reference);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn none() -> Reference<'static> {
        Reference::new(&[], &Value::Null)
    }

    fn turn(owner: bool, channel: Option<&str>) -> OwnerTurn<'_> {
        OwnerTurn {
            sender_is_owner: owner,
            current_channel: channel,
        }
    }

    #[test]
    fn only_a_confirmed_owner_gets_them_and_set_profile_only_in_matrix_or_no_chat() {
        let raw = json!({"channels": {"matrix": {"encryption": true}}});
        assert_eq!(matrix_owner_actions(&raw, turn(true, None)), (true, true));
        assert_eq!(
            matrix_owner_actions(&raw, turn(false, None)),
            (false, false)
        );
        assert_eq!(
            matrix_owner_actions(&raw, turn(true, Some("telegram"))),
            (false, true)
        );
        assert_eq!(
            matrix_owner_actions(&raw, turn(true, Some("Matrix"))),
            (true, true)
        );
    }

    #[test]
    fn the_gates_and_encryption_decide_and_the_default_account_overrides() {
        let owner = turn(true, None);
        let plain = json!({"channels": {"matrix": {}}});
        assert_eq!(matrix_owner_actions(&plain, owner), (true, false));
        let off = json!({"channels": {"matrix": {"encryption": true,
            "actions": {"profile": false, "verification": false}}}});
        assert_eq!(matrix_owner_actions(&off, owner), (false, false));
        let account = json!({"channels": {"matrix": {"actions": {"profile": false},
            "accounts": {"default": {"encryption": true, "actions": {}}}}}});
        assert_eq!(matrix_owner_actions(&account, owner), (true, true));
    }

    #[test]
    fn set_profile_leaves_with_its_fields_and_permissions_comes_in_sorted() {
        let mut description =
            "Send. Supports actions: react, send, set-profile, unpin. Hint.".to_string();
        let mut parameters = json!({"type": "object", "properties": {
            "action": {"type": "string", "enum": ["react", "send", "set-profile", "unpin"]},
            "displayName": {"type": "string"}, "avatar_path": {"type": "string"},
            "emoji": {"type": "string"}}});
        let before = parameters.clone();
        adapt(&mut description, &mut parameters, (true, false), &none());
        assert_eq!(parameters, before);
        adapt(&mut description, &mut parameters, (false, true), &none());
        assert_eq!(
            description,
            "Send. Supports actions: permissions, react, send, unpin. Hint."
        );
        assert_eq!(
            parameters["properties"]["action"]["enum"],
            json!(["permissions", "react", "send", "unpin"])
        );
        let fields: Vec<&String> = parameters["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(fields, ["action", "emoji"]);
    }

    #[test]
    fn an_owners_matrix_chat_form_gains_set_profile_its_fields_and_the_presence_fields() {
        let matrix = crate::prompt::channel_union::test_form(
            CHANNEL,
            &["send", "set-profile"],
            json!({"displayName": {"type": "string", "description": "Matrix"},
                   "status": {"type": "string"}}),
        );
        let mut description = "Send. Supports actions: send.".to_string();
        let mut parameters = json!({"type": "object", "properties": {
            "action": {"type": "string", "enum": ["send"]}}});
        adapt(
            &mut description,
            &mut parameters,
            (true, false),
            &Reference::new(&[&matrix], &Value::Null),
        );
        assert_eq!(description, "Send. Supports actions: send, set-profile.");
        let fields: Vec<&String> = parameters["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        // The presence group's `status` comes with set-profile, beside Matrix's own field.
        assert_eq!(fields, ["action", "displayName", "status"]);
    }
}
