//! `message` in a turn that talks in one channel's chat while other channels are configured
//! (OpenClaw 2026.9's `resolveMessageToolSchemaActions` and `buildMessageToolSchemaFromActions`).
//!
//! Such a turn offers the chat's channel's actions, `send`, and each other configured channel's
//! actions but for those it gives fields meant for its own chats only
//! (`listCrossChannelSchemaSupportedMessageActions`). Its fields are built from the actions
//! offered: the routing and send fields, each field group any of whose actions is offered
//! (`SCOPED_ACTION_GROUPS`), `teamId` with `channel-info`, `channel-list` or
//! `conversation-open`, the chat's channel's own fields, and the fields other channels give
//! every configured channel's turn. The pack records each chat's form with its channel alone
//! configured; this widens it by the others. The tables are read from the 2026.9 series' core
//! and channel plugins, and checked by real turns (`cross-channel-*`).

use serde_json::{Map, Value};

use super::channel_union::{shared_value, with_actions};
use crate::semantics::ChannelVariant;

/// What says the values of the fields a form gains: the configured channels' forms of the tool
/// and the tool's own form (`base`: the release's form without channels, which on 2026.8 has
/// every core field). The forms' schemas are parsed once, when first read.
pub(crate) struct Reference<'a> {
    forms: &'a [&'a ChannelVariant],
    base: &'a Value,
    parsed: std::cell::OnceCell<Vec<Value>>,
}

impl<'a> Reference<'a> {
    pub(crate) fn new(forms: &'a [&'a ChannelVariant], base: &'a Value) -> Self {
        Reference {
            forms,
            base,
            parsed: std::cell::OnceCell::new(),
        }
    }

    pub(crate) fn forms(&self) -> &'a [&'a ChannelVariant] {
        self.forms
    }

    /// Each form's schema, in the order of [`forms`](Self::forms).
    fn schemas(&self) -> &[Value] {
        self.parsed
            .get_or_init(|| self.forms.iter().map(|f| f.parameters.value()).collect())
    }

    /// `form`'s schema, parsed once when it is one of the forms.
    pub(crate) fn schema_of(&self, form: &ChannelVariant) -> std::borrow::Cow<'_, Value> {
        match self.forms.iter().position(|f| std::ptr::eq(*f, form)) {
            Some(at) => std::borrow::Cow::Borrowed(&self.schemas()[at]),
            None => std::borrow::Cow::Owned(form.parameters.value()),
        }
    }
}

/// The actions each channel plugin keeps to its own chats: those its schema contributions for
/// the current channel name (a channel not listed keeps none).
const OWN_CHAT_ACTIONS: &[(&str, &[&str])] = &[
    ("discord", &["react", "reactions"]),
    (
        "slack",
        &[
            "send",
            "download-file",
            "upload-file",
            "react",
            "reactions",
            "edit",
            "delete",
            "pin",
            "unpin",
        ],
    ),
    ("matrix", &["set-profile", "react", "reactions"]),
    ("msteams", &["unpin"]),
    ("line", &["send"]),
];

/// The fields a channel plugin gives every configured channel's turn (its contributions with
/// visibility `all-configured`).
const ALL_CONFIGURED_FIELDS: &[(&str, &[&str])] = &[
    (
        "telegram",
        &[
            "pollDurationSeconds",
            "pollAnonymous",
            "pollPublic",
            "asVideoNote",
            "location",
        ],
    ),
    ("discord", &["components"]),
    ("slack", &["userIds"]),
    ("imessage", &["pollOptionText"]),
];

/// The core's field groups: the actions that bring each, and its fields.
const FIELD_GROUPS: &[(&[&str], &[&str])] = &[
    (
        &[
            "react",
            "reactions",
            "read",
            "edit",
            "delete",
            "unsend",
            "pin",
            "unpin",
            "reply",
            "thread-create",
        ],
        &[
            "messageId",
            "message_id",
            "emoji",
            "remove",
            "trackToolCalls",
            "track_tool_calls",
            "targetAuthor",
            "targetAuthorUuid",
            "groupId",
        ],
    ),
    (
        &[
            "read",
            "reactions",
            "search",
            "thread-list",
            "channel-list",
            "channel-info",
            "list-pins",
            "event-list",
            "sticker-search",
            "emoji-list",
        ],
        &[
            "limit",
            "pageSize",
            "pageToken",
            "before",
            "after",
            "around",
            "fromMe",
            "includeArchived",
        ],
    ),
    (&["search", "sticker-search", "channel-list"], &["query"]),
    (
        &["poll", "poll-vote"],
        &[
            "pollId",
            "pollOptionId",
            "pollOptionIds",
            "pollOptionIndex",
            "pollOptionIndexes",
            "pollQuestion",
            "pollOption",
            "pollDurationHours",
            "pollMulti",
        ],
    ),
    (
        &[
            "search",
            "thread-list",
            "thread-create",
            "thread-reply",
            "channel-info",
            "channel-list",
            "channel-create",
            "channel-edit",
            "channel-delete",
            "channel-move",
            "category-create",
            "category-edit",
            "category-delete",
            "topic-create",
            "topic-edit",
            "permissions",
            "member-info",
            "role-info",
            "role-add",
            "role-remove",
            "addParticipant",
            "removeParticipant",
            "renameGroup",
            "setGroupIcon",
            "leaveGroup",
            "event-create",
            "event-list",
            "timeout",
            "kick",
            "ban",
            "emoji-list",
            "emoji-upload",
            "sticker-upload",
            "voice-status",
            "download-file",
        ],
        &[
            "channelId",
            "chatId",
            "channelIds",
            "memberId",
            "memberIdType",
            "guildId",
            "userId",
            "openId",
            "unionId",
            "authorId",
            "authorIds",
            "roleId",
            "roleIds",
            "participant",
            "includeMembers",
            "members",
            "scope",
            "kind",
        ],
    ),
    (
        &[
            "sticker",
            "sticker-search",
            "sticker-upload",
            "emoji-list",
            "emoji-upload",
            "download-file",
            "upload-file",
        ],
        &[
            "fileId",
            "emojiName",
            "stickerId",
            "stickerName",
            "stickerDesc",
            "stickerTags",
        ],
    ),
    (
        &["thread-create", "thread-list", "thread-reply"],
        &["threadName", "autoArchiveMin", "appliedTags"],
    ),
    (
        &["event-create", "event-list"],
        &[
            "eventName",
            "eventType",
            "startTime",
            "endTime",
            "desc",
            "location",
            "image",
        ],
    ),
    (
        &["timeout", "kick", "ban", "delete", "unsend"],
        &["reason", "deleteDays", "durationMin", "until"],
    ),
    (
        &[
            "channel-create",
            "channel-edit",
            "channel-move",
            "category-create",
            "category-edit",
            "category-delete",
            "topic-create",
            "topic-edit",
            "renameGroup",
            "setGroupIcon",
        ],
        &[
            "name",
            "channelType",
            "parentId",
            "topic",
            "position",
            "nsfw",
            "rateLimitPerUser",
            "categoryId",
            "clearParent",
        ],
    ),
    (
        &["set-presence", "set-profile", "voice-status"],
        &[
            "activityType",
            "activityName",
            "activityUrl",
            "activityState",
            "status",
        ],
    ),
];

/// The channels that answer for a named account only when they have it (`accounts.<id>`):
/// asked with an account id they do not know, they offer no action. Telegram does so only
/// when it lists some accounts (it then refuses its channel-level token to an unknown id).
/// Slack, Signal, iMessage, Feishu, Mattermost and Nextcloud Talk answer an unknown id as
/// their default account; Teams, WhatsApp and Zalo ignore it.
const ACCOUNT_BOUND: &[&str] = &["discord", "matrix", "line"];

/// Whether `channel` offers its actions in a chat's turn of the account `account` (the chat's,
/// which OpenClaw hands every other channel it asks). The default account, or none, is every
/// channel's own.
pub(crate) fn answers_for_account(raw: &Value, channel: &str, account: Option<&str>) -> bool {
    let Some(account) = account
        .map(str::trim)
        .filter(|a| !a.is_empty() && !a.eq_ignore_ascii_case(crate::config::DEFAULT_ACCOUNT))
    else {
        return true;
    };
    let accounts = raw
        .pointer(&format!("/channels/{channel}/accounts"))
        .and_then(Value::as_object);
    let bound = ACCOUNT_BOUND.contains(&channel)
        || (channel == "telegram" && accounts.is_some_and(|map| !map.is_empty()));
    // An account switched off (`enabled: false`) offers nothing either.
    let usable = |(_, entry): (&String, &Value)| entry.get("enabled") != Some(&Value::Bool(false));
    !bound
        || accounts
            .and_then(|map| crate::config::account_entry(map, account))
            .is_some_and(usable)
}

/// The actions that bring `teamId` to the routing fields.
const TEAM_ID_ACTIONS: &[&str] = &["channel-info", "channel-list", "conversation-open"];

/// The hint a description carries when `read` is offered.
const READ_HINT: &str = " Missing thread context: action=\"read\" + threadId.";

fn listed<'a>(table: &'a [(&str, &'a [&'a str])], channel: &str) -> &'a [&'a str] {
    table
        .iter()
        .find(|(c, _)| *c == channel)
        .map_or(&[], |(_, names)| names)
}

pub(crate) fn actions_of(parameters: &Value) -> Vec<String> {
    parameters
        .pointer("/properties/action/enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// The actions `other`'s configured form (its channel alone configured, no chat) offers in
/// another channel's chat: its own, but for `broadcast` (the core's, not the channel's) and
/// those it keeps to its own chats.
fn cross_actions(other: &ChannelVariant, reference: &Reference<'_>) -> Vec<String> {
    let channel = other.when_channel.as_deref().unwrap_or_default();
    let own = listed(OWN_CHAT_ACTIONS, channel);
    actions_of(&reference.schema_of(other))
        .into_iter()
        .filter(|a| a != "broadcast" && !own.contains(&a.as_str()))
        .collect()
}

/// Widens a chat's form (`description`, `parameters`: its channel alone configured) by the
/// other configured channels' forms (`others`, configured forms): the actions of those that
/// answer for the chat's account (`answers`), and every one's fields for all configured turns
/// (OpenClaw asks for those with no account: cross-channel-discord-account-chat).
pub(crate) fn widen(
    (description, parameters): (&mut String, &mut Value),
    others: &[&ChannelVariant],
    answers: &dyn Fn(&ChannelVariant) -> bool,
    reference: &Reference<'_>,
) {
    let crossing: Vec<String> = others
        .iter()
        .filter(|o| answers(o))
        .flat_map(|o| cross_actions(o, reference))
        .collect();
    offer(description, parameters, &crossing, reference);
    if let Some(properties) = parameters
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    {
        for other in others {
            give_all_configured_fields(properties, other, reference);
        }
    }
}

/// Offers `actions` in a form built from its actions (a chat's): each one it lacks joins the
/// sorted `action` values and the description's list (with `read`'s hint), and brings the core's
/// fields of the groups it is the first of (their values as `reference` has them).
pub(crate) fn offer(
    description: &mut String,
    parameters: &mut Value,
    actions: &[String],
    reference: &Reference<'_>,
) {
    let before = actions_of(parameters);
    let mut offered = before.clone();
    for action in actions {
        if !offered.contains(action) {
            offered.push(action.clone());
        }
    }
    let added: Vec<String> = offered[before.len()..].to_vec();
    if added.is_empty() {
        return;
    }
    // 2026.9 sorts the action values; 2026.8 keeps them as the channels list them (its pack's
    // forms say which). The description lists them sorted in both.
    let every = reference.schemas();
    let sorts = every.iter().all(|f| actions_of(f).is_sorted());
    let mut listed = offered.clone();
    listed.sort();
    if sorts {
        offered.clone_from(&listed);
    }
    let Some(properties) = parameters
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    // The core's value of a field: the tool's own form's (2026.8's has every field), else the
    // one most configured forms agree on.
    for field in brought_fields(&before, &added) {
        if properties.contains_key(field) {
            continue;
        }
        let pointer = format!("/properties/{field}");
        let core = reference
            .base
            .pointer(&pointer)
            .cloned()
            .or_else(|| shared_value(every, field))
            .or_else(|| every.iter().find_map(|f| f.pointer(&pointer).cloned()));
        if let Some(value) = core {
            properties.insert(field.to_string(), value);
        }
    }
    set_actions(description, properties, offered, &listed);
    if listed.iter().any(|a| a == "read") && !description.contains(READ_HINT.trim()) {
        description.push_str(READ_HINT);
    }
}

/// Writes a form's `action` values (`offered`, in the form's order) and its description's list
/// (`listed`, sorted).
pub(crate) fn set_actions(
    description: &mut String,
    properties: &mut Map<String, Value>,
    offered: Vec<String>,
    listed: &[String],
) {
    if let Some(action) = properties.get_mut("action").and_then(Value::as_object_mut) {
        action.insert("enum".into(), Value::from(offered));
    }
    *description = with_actions(description, listed);
}

/// The core's fields the `added` actions bring that the `before` ones did not.
fn brought_fields(before: &[String], added: &[String]) -> Vec<&'static str> {
    let any_of =
        |names: &[&str], actions: &[String]| actions.iter().any(|a| names.contains(&a.as_str()));
    let mut fields = Vec::new();
    for (actions, group) in FIELD_GROUPS {
        if any_of(actions, added) && !any_of(actions, before) {
            fields.extend(group.iter().copied());
        }
    }
    if any_of(TEAM_ID_ACTIONS, added) && !any_of(TEAM_ID_ACTIONS, before) {
        fields.push("teamId");
    }
    fields
}

/// `other`'s fields for every configured channel's turn, from its configured form: each takes
/// the place of a field the chat's form has from the core (the shared value), not of the chat's
/// channel's own.
fn give_all_configured_fields(
    properties: &mut Map<String, Value>,
    other: &ChannelVariant,
    reference: &Reference<'_>,
) {
    let channel = other.when_channel.as_deref().unwrap_or_default();
    let form = reference.schema_of(other);
    let every = reference.schemas();
    for field in listed(ALL_CONFIGURED_FIELDS, channel) {
        let Some(value) = form.pointer(&format!("/properties/{field}")) else {
            continue;
        };
        let replaceable = match properties.get(*field) {
            None => true,
            Some(present) => shared_value(every, field).as_ref() == Some(present),
        };
        if replaceable {
            properties.insert((*field).to_string(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::channel_union::test_form as form;
    use serde_json::json;

    const NO_BASE: &Value = &Value::Null;

    fn reference<'a>(forms: &'a [&'a ChannelVariant]) -> Reference<'a> {
        Reference::new(forms, NO_BASE)
    }

    #[test]
    fn a_channel_that_does_not_know_the_chats_account_still_gives_its_fields_for_every_turn() {
        let discord = form(
            "discord",
            &["pin", "send"],
            json!({ "components": { "type": "object" }, "messageId": { "type": "string" } }),
        );
        let mut description = "Send/manage channel messages. Supports actions: send.".into();
        let mut parameters = json!({ "type": "object", "properties": {
            "action": { "type": "string", "enum": ["send"] } } });
        widen(
            (&mut description, &mut parameters),
            &[&discord],
            &|_| false,
            &reference(&[&discord]),
        );
        // No pin (nor the fields it brings), but Discord's components for every turn.
        assert_eq!(parameters["properties"]["action"]["enum"], json!(["send"]));
        assert!(parameters["properties"].get("messageId").is_none());
        assert_eq!(
            parameters["properties"]["components"],
            json!({ "type": "object" })
        );
    }

    #[test]
    fn a_chats_account_reaches_only_the_channels_that_know_it_or_answer_for_any() {
        let raw = json!({ "channels": {
            "discord": { "token": "t", "accounts": { " Work ": { "token": "w" } } },
            "matrix": { "accessToken": "t" },
            "telegram": { "botToken": "t", "accounts": { "ops": { "botToken": "o" } } },
            "slack": { "botToken": "t" },
        } });
        let answers = |channel, account| answers_for_account(&raw, channel, account);
        // Ids are matched as OpenClaw normalises them.
        assert!(answers("discord", Some("work")));
        let off = json!({ "channels": { "discord": { "token": "t",
            "accounts": { "work": { "token": "w", "enabled": false } } } } });
        assert!(!answers_for_account(&off, "discord", Some("work")));
        assert!(!answers("matrix", Some("work")));
        // Telegram refuses its channel token to an id its accounts lack...
        assert!(!answers("telegram", Some("work")));
        // ...but answers any id when it lists none, as Slack always does.
        let plain = json!({ "channels": { "telegram": { "botToken": "t", "accounts": {} } } });
        assert!(answers_for_account(&plain, "telegram", Some("work")));
        assert!(answers("slack", Some("work")));
        // The default account, or none, is every channel's own.
        for account in [None, Some("default"), Some(" "), Some("DEFAULT")] {
            assert!(answers("matrix", account));
        }
    }

    #[test]
    fn another_channels_actions_come_but_for_its_own_chats_and_bring_their_fields() {
        let core = json!({ "teamId": { "type": "string" }, "limit": { "type": "number" } });
        let matrix = form(
            "matrix",
            &["broadcast", "channel-info", "react", "send", "set-profile"],
            core.clone(),
        );
        let telegram = form("telegram", &["poll", "send"], core);
        let mut description = "Send/manage channel messages. Supports actions: poll, send.".into();
        let mut parameters = json!({ "type": "object", "properties": {
            "action": { "type": "string", "enum": ["poll", "send"] } } });
        widen(
            (&mut description, &mut parameters),
            &[&matrix],
            &|_| true,
            &reference(&[&matrix, &telegram]),
        );
        // Not the core's broadcast, nor the actions Matrix keeps to its own chats.
        assert_eq!(
            parameters["properties"]["action"]["enum"],
            json!(["channel-info", "poll", "send"])
        );
        assert_eq!(
            description,
            "Send/manage channel messages. Supports actions: channel-info, poll, send."
        );
        // channel-info brings teamId and the fetch group's fields.
        let fields: Vec<&String> = parameters["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(fields, ["action", "limit", "teamId"]);
    }

    #[test]
    fn read_brings_its_hint_and_another_channels_all_configured_fields_come_alone() {
        let telegram = form(
            "telegram",
            &["read", "send"],
            json!({ "asVideoNote": { "type": "boolean" } }),
        );
        let discord = form("discord", &["send"], json!({}));
        let mut description = "Send/manage channel messages. Supports actions: send.".into();
        let mut parameters = json!({ "type": "object", "properties": {
            "action": { "type": "string", "enum": ["send"] } } });
        widen(
            (&mut description, &mut parameters),
            &[&telegram],
            &|_| true,
            &reference(&[&telegram, &discord]),
        );
        assert!(description.ends_with(
            "Supports actions: read, send. Missing thread context: action=\"read\" + threadId."
        ));
        assert_eq!(parameters["properties"]["asVideoNote"]["type"], "boolean");
        // A channel whose actions all stay home adds nothing but its all-configured fields.
        let line = form("line", &["send"], json!({}));
        let before = parameters.clone();
        let forms = [&line];
        widen(
            (&mut description, &mut parameters),
            &[&line],
            &|_| true,
            &reference(&forms),
        );
        assert_eq!(parameters, before);
    }
}
