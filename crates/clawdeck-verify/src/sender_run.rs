//! A verification run with a channel sender. No CLI flag or gateway method carries one, so the
//! turn arrives as a direct message: the context's sender becomes the message's author at a
//! stand-in, and the isolated config points OpenClaw's channel there, open to direct
//! messages, with the agent bound to it. A sender with a phone number (or the channel
//! `signal`) writes through Signal ([`super::signal_stub`], signal-cli's HTTP daemon; the
//! `@openclaw/signal` plugin must be loaded), any other through Telegram
//! ([`super::telegram_stub`], the Bot API). Everything else of the operator's channel config
//! (its `toolsBySender`, `direct`, `groups`) stays as written.

use serde_json::{Map, Value, json};

use super::signal_stub::SignalSender;
use super::telegram_stub::{BOT_TOKEN, TelegramSender};
use crate::context::PolicyContext;

/// The channel a sender's direct message arrives over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderChannel {
    Telegram,
    Signal,
}

impl SenderChannel {
    pub fn id(self) -> &'static str {
        match self {
            SenderChannel::Telegram => "telegram",
            SenderChannel::Signal => "signal",
        }
    }
}

/// Signal when the context's channel is `signal`, else Telegram.
pub fn sender_channel(ctx: &PolicyContext) -> SenderChannel {
    let signal = ctx
        .channel
        .as_deref()
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("signal"));
    if signal {
        SenderChannel::Signal
    } else {
        SenderChannel::Telegram
    }
}

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

/// Whether `id` is a phone number as Signal writes one (`+` and digits).
fn phone_number(id: &str) -> bool {
    let digits = id.trim().strip_prefix('+').unwrap_or("");
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Sender fields the direct message cannot carry, in words.
pub(crate) fn unsendable(ctx: &PolicyContext) -> Vec<&'static str> {
    let mut out = Vec::new();
    let channel = sender_channel(ctx);
    // Only WhatsApp passes a sender's phone number as such (SenderE164); Telegram has none and
    // Signal passes it as the sender's id.
    if ctx.sender_e164.is_some() {
        out.push("--sender-e164 (the verification sender writes through Telegram or Signal; only WhatsApp, which has no stand-in, passes a phone number as such: a Signal sender's number is its --sender-id)");
    }
    match channel {
        SenderChannel::Telegram => {
            if ctx
                .sender_id
                .as_deref()
                .is_some_and(|id| id.trim().parse::<i64>().is_err())
            {
                out.push("--sender-id that is not a number (Telegram user ids are numbers)");
            }
        }
        SenderChannel::Signal => {
            if !ctx.sender_id.as_deref().is_some_and(phone_number) {
                out.push("a Signal sender without a phone number as --sender-id (+ and digits)");
            }
            if ctx.sender_username.is_some() {
                out.push("--sender-username with a Signal sender (Signal has no usernames)");
            }
        }
    }
    if ctx
        .channel
        .as_deref()
        .is_some_and(|c| !c.trim().eq_ignore_ascii_case(channel.id()))
    {
        out.push("--channel other than telegram or signal with a sender (the verification sender writes through one of them)");
    }
    if ctx.group.is_some() {
        out.push("--group with a sender (the verification message is a direct message)");
    }
    out
}

/// The Signal message's author: the context's phone number (its sender id) and name.
pub fn signal_sender(ctx: &PolicyContext) -> SignalSender {
    SignalSender {
        e164: ctx
            .sender_id
            .as_deref()
            .map(|n| n.trim().to_string())
            .unwrap_or_default(),
        name: ctx
            .sender_name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
    }
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
    with_channel_inbound(
        isolated,
        "telegram",
        // One bot, the stand-in's: accounts and token files would name others.
        &[
            "accounts",
            "defaultAccount",
            "tokenFile",
            "webhookUrl",
            "webhookSecret",
        ],
        json!({"botToken": BOT_TOKEN, "apiRoot": api_root}),
        agent,
    )
}

/// The isolated config with Signal reading the stand-in daemon (an `external-native`
/// transport) as account [`super::signal_stub::ACCOUNT`], and `agent` bound to it. Signal is
/// an external plugin: the lab installs it from npm into the run's home (see
/// `runner::install_official_plugin`), and it starts only while enabled
/// (`plugins.entries.signal.enabled`), which is set here.
pub(crate) fn with_signal_inbound(isolated: &Value, daemon_url: &str, agent: &str) -> Value {
    let mut trusted = isolated.clone();
    if let Some(root) = trusted.as_object_mut() {
        let plugins = root
            .entry("plugins")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(plugins) = plugins.as_object_mut() {
            let entries = plugins
                .entry("entries")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(entries) = entries.as_object_mut() {
                let signal = entries
                    .entry("signal")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(signal) = signal.as_object_mut() {
                    signal.insert("enabled".into(), json!(true));
                }
            }
        }
    }
    with_channel_inbound(
        &trusted,
        "signal",
        // One account, the stand-in's: others would start their own daemons.
        &[
            "accounts",
            "defaultAccount",
            "httpUrl",
            "httpHost",
            "httpPort",
            "cliPath",
        ],
        json!({
            "account": super::signal_stub::ACCOUNT,
            "transport": {"kind": "external-native", "url": daemon_url},
        }),
        agent,
    )
}

/// `channels.<channel>` with `remove` taken out and `set` written in, enabled and open to
/// direct messages from anyone; a binding of `agent` to the channel first.
fn with_channel_inbound(
    isolated: &Value,
    channel: &str,
    remove: &[&str],
    set: Value,
    agent: &str,
) -> Value {
    let mut out = isolated.clone();
    let Some(root) = out.as_object_mut() else {
        return out;
    };
    let channels = root
        .entry("channels")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(channels) = channels.as_object_mut() {
        let entry = channels
            .entry(channel)
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        if let Some(entry) = entry.as_object_mut() {
            for key in remove {
                entry.remove(*key);
            }
            entry.insert("enabled".into(), json!(true));
            if let Value::Object(set) = set {
                entry.extend(set);
            }
            entry.insert("dmPolicy".into(), json!("open"));
            entry.insert("allowFrom".into(), json!(["*"]));
        }
    }
    let binding = json!({"agentId": agent, "match": {"channel": channel}});
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
    fn what_a_direct_message_cannot_say_is_named() {
        let ctx = PolicyContext {
            sender_id: Some("alice".into()),
            channel: Some("whatsapp".into()),
            group: Some("g1".into()),
            ..PolicyContext::default()
        };
        assert_eq!(sender_channel(&ctx), SenderChannel::Telegram);
        let lost = unsendable(&ctx).join("; ");
        for flag in ["--sender-id", "--channel", "--group"] {
            assert!(lost.contains(flag), "{flag}: {lost}");
        }
        // Signal: the sender's id is a phone number; there are no usernames.
        let phone = PolicyContext {
            channel: Some("signal".into()),
            sender_id: Some("42".into()),
            sender_username: Some("bob".into()),
            sender_e164: Some("+15550001".into()),
            ..PolicyContext::default()
        };
        assert_eq!(sender_channel(&phone), SenderChannel::Signal);
        let lost = unsendable(&phone).join("; ");
        for flag in ["--sender-username", "--sender-id", "--sender-e164"] {
            assert!(lost.contains(flag), "{flag}: {lost}");
        }
        let fine = PolicyContext {
            sender_id: Some("+15550001".into()),
            sender_name: Some("Bob".into()),
            channel: Some("signal".into()),
            ..PolicyContext::default()
        };
        assert!(unsendable(&fine).is_empty());
        let sender = signal_sender(&fine);
        assert_eq!(sender.e164, "+15550001");
        assert_eq!(sender.name.as_deref(), Some("Bob"));
    }

    #[test]
    fn signal_reads_the_stand_in_daemon_as_one_account() {
        let isolated = json!({
            "channels": {"signal": {"account": "+1999", "httpPort": 8080,
                                    "toolsBySender": {"e164:+1555": {"deny": ["exec"]}}}},
        });
        let out = with_signal_inbound(&isolated, "http://127.0.0.1:9", "ops");
        assert_eq!(out["plugins"]["entries"]["signal"]["enabled"], true);
        let signal = &out["channels"]["signal"];
        assert_eq!(signal["account"], super::super::signal_stub::ACCOUNT);
        assert_eq!(signal["transport"]["kind"], "external-native");
        assert_eq!(signal["transport"]["url"], "http://127.0.0.1:9");
        assert!(signal.get("httpPort").is_none());
        assert_eq!(signal["dmPolicy"], "open");
        assert_eq!(signal["toolsBySender"]["e164:+1555"]["deny"][0], "exec");
        assert_eq!(out["bindings"][0]["match"]["channel"], "signal");
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
