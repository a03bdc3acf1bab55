//! A verification run with a channel sender. No CLI flag or gateway method carries one, so the
//! turn arrives as a Telegram direct message: the context's sender becomes the message's
//! author at the stand-in Bot API ([`super::telegram_stub`]), and the isolated config points
//! OpenClaw's Telegram channel there, open to direct messages, with the agent bound to it.
//! Everything else of the operator's `channels.telegram` (its `toolsBySender`, `direct`,
//! `groups`) stays as written.

use serde_json::{Map, Value, json};

use super::telegram_stub::{BOT_TOKEN, TelegramSender};
use crate::context::PolicyContext;

/// The id a sender gets when the context names none (Telegram messages always have one).
pub(crate) const DEFAULT_SENDER_ID: i64 = 7_000_042;
/// The first name a sender gets when the context names none.
pub(crate) const DEFAULT_SENDER_NAME: &str = "verify";

/// Whether the context names a sender (and so needs a channel run).
pub fn has_sender(ctx: &PolicyContext) -> bool {
    ctx.sender_id.is_some()
        || ctx.sender_e164.is_some()
        || ctx.sender_username.is_some()
        || ctx.sender_name.is_some()
}

/// Sender fields a Telegram direct message cannot carry, in words.
pub(crate) fn unsendable(ctx: &PolicyContext) -> Vec<&'static str> {
    let mut out = Vec::new();
    if ctx.sender_e164.is_some() {
        out.push("--sender-e164 (the verification sender writes through Telegram, which has no phone numbers)");
    }
    if ctx
        .sender_id
        .as_deref()
        .is_some_and(|id| id.trim().parse::<i64>().is_err())
    {
        out.push("--sender-id that is not a number (Telegram user ids are numbers)");
    }
    if ctx
        .channel
        .as_deref()
        .is_some_and(|c| !c.trim().eq_ignore_ascii_case("telegram"))
    {
        out.push("--channel other than telegram with a sender (the verification sender writes through Telegram)");
    }
    if ctx.group.is_some() {
        out.push("--group with a sender (the verification message is a direct message)");
    }
    out
}

/// The message's author for this context: its id, username and name (first word, then the
/// rest as the last name, which OpenClaw joins back with a space).
pub fn telegram_sender(ctx: &PolicyContext) -> TelegramSender {
    let id = ctx
        .sender_id
        .as_deref()
        .and_then(|id| id.trim().parse().ok())
        .unwrap_or(DEFAULT_SENDER_ID);
    let username = ctx
        .sender_username
        .as_deref()
        .map(|u| u.trim().trim_start_matches('@').to_string())
        .filter(|u| !u.is_empty());
    let name = ctx.sender_name.as_deref().map(str::trim).unwrap_or("");
    let (first, last) = match name.split_once(' ') {
        Some((first, last)) => (first.to_string(), Some(last.trim().to_string())),
        None if name.is_empty() => (DEFAULT_SENDER_NAME.to_string(), None),
        None => (name.to_string(), None),
    };
    TelegramSender {
        id,
        username,
        first_name: first,
        last_name: last.filter(|l| !l.is_empty()),
    }
}

/// The isolated config with Telegram pointed at the stand-in and `agent` bound to it.
pub(crate) fn with_telegram_inbound(isolated: &Value, api_root: &str, agent: &str) -> Value {
    let mut out = isolated.clone();
    let Some(root) = out.as_object_mut() else {
        return out;
    };
    let channels = root
        .entry("channels")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(channels) = channels.as_object_mut() {
        let telegram = channels
            .entry("telegram")
            .or_insert_with(|| Value::Object(Map::new()));
        if !telegram.is_object() {
            *telegram = Value::Object(Map::new());
        }
        if let Some(telegram) = telegram.as_object_mut() {
            // One bot, the stand-in's: accounts and token files would name others.
            for key in [
                "accounts",
                "defaultAccount",
                "tokenFile",
                "webhookUrl",
                "webhookSecret",
            ] {
                telegram.remove(key);
            }
            telegram.insert("enabled".into(), json!(true));
            telegram.insert("botToken".into(), json!(BOT_TOKEN));
            telegram.insert("apiRoot".into(), json!(api_root));
            telegram.insert("dmPolicy".into(), json!("open"));
            telegram.insert("allowFrom".into(), json!(["*"]));
        }
    }
    let binding = json!({"agentId": agent, "match": {"channel": "telegram"}});
    match root.get_mut("bindings").and_then(Value::as_array_mut) {
        Some(bindings) => bindings.insert(0, binding),
        None => {
            root.insert("bindings".into(), json!([binding]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn the_sender_is_written_as_telegram_writes_it() {
        let ctx = PolicyContext {
            sender_id: Some("42".into()),
            sender_username: Some("@alice".into()),
            sender_name: Some("Alice van Example".into()),
            ..PolicyContext::default()
        };
        assert!(has_sender(&ctx));
        assert!(unsendable(&ctx).is_empty());
        let sender = telegram_sender(&ctx);
        assert_eq!(sender.id, 42);
        assert_eq!(sender.username.as_deref(), Some("alice"));
        assert_eq!(sender.first_name, "Alice");
        assert_eq!(sender.last_name.as_deref(), Some("van Example"));
        let anonymous = telegram_sender(&PolicyContext {
            sender_username: Some("bob".into()),
            ..PolicyContext::default()
        });
        assert_eq!(anonymous.id, DEFAULT_SENDER_ID);
        assert_eq!(anonymous.first_name, DEFAULT_SENDER_NAME);
    }

    #[test]
    fn what_a_telegram_message_cannot_say_is_named() {
        let ctx = PolicyContext {
            sender_id: Some("alice".into()),
            sender_e164: Some("+15550001".into()),
            channel: Some("whatsapp".into()),
            group: Some("g1".into()),
            ..PolicyContext::default()
        };
        let lost = unsendable(&ctx).join("; ");
        for flag in ["--sender-e164", "--sender-id", "--channel", "--group"] {
            assert!(lost.contains(flag), "{flag}: {lost}");
        }
    }

    #[test]
    fn telegram_points_at_the_stand_in_and_keeps_the_operators_sender_rules() {
        let isolated = json!({
            "channels": {"telegram": {"botToken": "real", "accounts": {"a": {}},
                                      "toolsBySender": {"id:42": {"deny": ["exec"]}}}},
            "bindings": [{"agentId": "other", "match": {"channel": "slack"}}],
        });
        let out = with_telegram_inbound(&isolated, "http://127.0.0.1:9", "ops");
        let telegram = &out["channels"]["telegram"];
        assert_eq!(telegram["botToken"], BOT_TOKEN);
        assert_eq!(telegram["apiRoot"], "http://127.0.0.1:9");
        assert_eq!(telegram["dmPolicy"], "open");
        assert!(telegram.get("accounts").is_none());
        assert_eq!(telegram["toolsBySender"]["id:42"]["deny"][0], "exec");
        assert_eq!(out["bindings"][0]["agentId"], "ops");
        assert_eq!(out["bindings"][1]["agentId"], "other");
    }
}
