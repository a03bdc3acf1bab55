//! A job an agent made from a channel message: its creator's turn is an owner's Telegram
//! direct message (through [`super::telegram_stub`]) whose model calls `automations`. OpenClaw
//! then records the creator's channel (its `ownerOrigin`), which decides where the job reads
//! its creator's account when the creator's session key names no channel: a direct chat under
//! `session.dmScope: main` runs in `agent:<id>:main`. The direct message arrives over the
//! creator's account; every other Telegram account of the config polls the stand-in too and
//! gets nothing.

use serde_json::{Map, Value, json};

use super::telegram_stub::BOT_TOKEN;
use crate::context::PolicyContext;

/// The creator's turn came over Telegram, and that decides something: the creator's session
/// key names no channel.
pub(crate) fn creator_over_telegram(ctx: &PolicyContext) -> bool {
    ctx.job_owner_turn_channel().as_deref() == Some("telegram")
}

/// What the lab's creator cannot be, in words: it writes over Telegram only, in a direct chat,
/// which runs in the agent's main session.
pub(crate) fn creator_unsayable(ctx: &PolicyContext) -> Vec<&'static str> {
    let Some(channel) = ctx.job_owner_turn_channel() else {
        return Vec::new();
    };
    if channel != "telegram" {
        return vec![
            "--job-owner-channel other than telegram where --job-owner names no channel (the lab's creator writes over Telegram)",
        ];
    }
    let rest = ctx
        .job_owner_key()
        .and_then(clawdeck_core::session_key::agent_rest);
    if rest.as_deref().map(str::trim) != Some("main") {
        return vec![
            "--job-owner other than agent:<id>:main with --job-owner-channel telegram (the lab's creator writes a direct message, which runs in the agent's main session)",
        ];
    }
    Vec::new()
}

/// What the operator's config does not let the lab's creator write: from an account its
/// Telegram channel lacks, or into another session than the main one.
pub(crate) fn creator_unsayable_in(config: &Value, ctx: &PolicyContext) -> Vec<&'static str> {
    let mut out = Vec::new();
    let scope = config
        .pointer("/session/dmScope")
        .and_then(Value::as_str)
        .map(str::trim);
    if scope.is_some_and(|s| s != "main") {
        out.push("session.dmScope other than main with --job-owner-channel telegram (the lab's creator writes a direct message into agent:<id>:main)");
    }
    let account = creator_account(ctx);
    if account != "default" && account_index(config, &account).is_none() {
        out.push("a --job-owner-account that channels.telegram.accounts does not have, with --job-owner-channel telegram (the lab's creator writes through that account)");
    }
    out
}

/// The creator's account, lower case; `default` when unset.
pub(crate) fn creator_account(ctx: &PolicyContext) -> String {
    ctx.job_owner_account
        .as_deref()
        .map(|a| a.trim().to_lowercase())
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "default".to_string())
}

/// The position of `account` among the config's Telegram accounts.
fn account_index(config: &Value, account: &str) -> Option<usize> {
    telegram_accounts(config)?
        .keys()
        .position(|name| name.trim().eq_ignore_ascii_case(account))
}

fn telegram_accounts(config: &Value) -> Option<&Map<String, Value>> {
    config
        .pointer("/channels/telegram/accounts")
        .and_then(Value::as_object)
}

/// The stand-in token of the config's Telegram account at `index` (each its own bot).
fn account_token(index: usize) -> String {
    format!("{}:clawdeck-verify", 7_000_101 + index)
}

/// The token the creator's account polls with: the default account's, or its own.
pub(crate) fn creator_token(config: &Value, ctx: &PolicyContext) -> String {
    let account = creator_account(ctx);
    match account_index(config, &account) {
        Some(index) if account != "default" => account_token(index),
        _ => BOT_TOKEN.to_string(),
    }
}

/// The config with Telegram pointed at the stand-in (see `sender_run`), every account of it
/// polling there with its own stand-in token, the creator's account open to direct messages
/// and bound to `agent`, and `sender` one of the owners (only an owner's turn has
/// `automations`).
pub(crate) fn with_telegram_creator(
    isolated: &Value,
    api_root: &str,
    agent: &str,
    ctx: &PolicyContext,
    sender: i64,
) -> Value {
    let accounts = telegram_accounts(isolated).cloned();
    let mut out = super::sender_run::with_telegram_inbound(isolated, api_root, agent);
    let creator = creator_account(ctx);
    if let (Some(accounts), Some(telegram)) = (
        accounts,
        out.pointer_mut("/channels/telegram")
            .and_then(Value::as_object_mut),
    ) {
        let mut rewritten = Map::new();
        for (index, (name, entry)) in accounts.into_iter().enumerate() {
            let mut entry = entry.as_object().cloned().unwrap_or_default();
            for key in ["tokenFile", "webhookUrl", "webhookSecret"] {
                entry.remove(key);
            }
            entry.insert("botToken".into(), json!(account_token(index)));
            entry.insert("apiRoot".into(), json!(api_root));
            if name.trim().eq_ignore_ascii_case(&creator) {
                entry.insert("dmPolicy".into(), json!("open"));
                entry.insert("allowFrom".into(), json!(["*"]));
            }
            rewritten.insert(name, Value::Object(entry));
        }
        telegram.insert("accounts".into(), Value::Object(rewritten));
    }
    if creator != "default"
        && let Some(first) = out.pointer_mut("/bindings/0/match")
    {
        first["accountId"] = json!(creator);
    }
    with_owner(out, &format!("telegram:{sender}"))
}

/// `commands.ownerAllowFrom` with `owner` in it.
fn with_owner(mut config: Value, owner: &str) -> Value {
    let Some(root) = config.as_object_mut() else {
        return config;
    };
    let commands = root
        .entry("commands")
        .or_insert_with(|| Value::Object(Map::new()));
    if !commands.is_object() {
        *commands = Value::Object(Map::new());
    }
    if let Some(commands) = commands.as_object_mut() {
        let owners = commands
            .entry("ownerAllowFrom")
            .or_insert_with(|| json!([]));
        if !owners.is_array() {
            *owners = json!([]);
        }
        if let Some(owners) = owners.as_array_mut()
            && !owners.iter().any(|o| o.as_str() == Some(owner))
        {
            owners.push(json!(owner));
        }
    }
    config
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn made_over_telegram(key: &str, account: Option<&str>) -> PolicyContext {
        PolicyContext {
            scheduled_tools: Some(vec!["read".into()]),
            job_owner: Some(key.into()),
            job_owner_account: account.map(str::to_string),
            job_owner_channel: Some("telegram".into()),
            ..PolicyContext::default()
        }
    }

    #[test]
    fn only_a_creator_in_the_main_session_over_telegram_is_written() {
        assert!(creator_over_telegram(&made_over_telegram(
            "agent:main:main",
            None
        )));
        assert!(creator_unsayable(&made_over_telegram("agent:main:main", None)).is_empty());
        // A key naming a channel decides alone: no direct message is needed.
        let in_a_group = made_over_telegram("agent:main:telegram:group:-1", None);
        assert!(!creator_over_telegram(&in_a_group));
        assert!(creator_unsayable(&in_a_group).is_empty());
        let other_session = made_over_telegram("agent:main:work", None);
        assert!(creator_unsayable(&other_session)[0].contains("agent:<id>:main"));
        let signal = PolicyContext {
            job_owner_channel: Some("signal".into()),
            ..made_over_telegram("agent:main:main", None)
        };
        assert!(creator_unsayable(&signal)[0].contains("other than telegram"));
    }

    #[test]
    fn every_account_polls_the_stand_in_and_the_creators_is_open_bound_and_its_sender_an_owner() {
        let config = json!({
            "channels": {"telegram": {
                "botToken": "1:real",
                "accounts": {
                    "alerts": {"botToken": "2:real"},
                    "work": {"tokenFile": "/secret", "dmPolicy": "pairing"},
                },
            }},
            "commands": {"ownerAllowFrom": ["telegram:1"]},
        });
        let ctx = made_over_telegram("agent:main:main", Some("Work"));
        assert!(creator_unsayable_in(&config, &ctx).is_empty());
        let out = with_telegram_creator(&config, "http://127.0.0.1:9", "main", &ctx, 42);
        let telegram = &out["channels"]["telegram"];
        assert_eq!(telegram["botToken"], BOT_TOKEN);
        assert_eq!(telegram["accounts"]["alerts"]["botToken"], account_token(0));
        let work = &telegram["accounts"]["work"];
        assert_eq!(work["botToken"], account_token(1));
        assert_eq!(work["botToken"], creator_token(&config, &ctx));
        assert_eq!(work["apiRoot"], "http://127.0.0.1:9");
        assert_eq!(work["dmPolicy"], "open");
        assert_eq!(work.get("tokenFile"), None);
        assert_eq!(out["bindings"][0]["match"]["accountId"], "work");
        assert_eq!(
            out["commands"]["ownerAllowFrom"],
            json!(["telegram:1", "telegram:42"])
        );
        let gone = made_over_telegram("agent:main:main", Some("gone"));
        assert_eq!(creator_unsayable_in(&config, &gone).len(), 1);
        let per_peer = json!({"session": {"dmScope": "per-peer"}});
        let default = made_over_telegram("agent:main:main", None);
        assert_eq!(creator_unsayable_in(&per_peer, &default).len(), 1);
        assert_eq!(creator_token(&per_peer, &default), BOT_TOKEN);
    }
}
