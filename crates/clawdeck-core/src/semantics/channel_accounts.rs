//! Whether a configured channel has an account OpenClaw uses: what decides the forms of the
//! tools that grow with the configured channels (message's actions and fields).

use std::collections::BTreeMap;

use serde_json::Value;

/// Where a channel's bot token is written: its keys (an account's own, else the channel's) and
/// the variable the default account reads.
struct TokenRule {
    channel: &'static str,
    keys: &'static [&'static str],
    env: &'static str,
    /// An account naming one of `keys` without a value has no token, even when the channel has
    /// one (Discord's `inspectDiscordAccountTokenState`); Telegram falls back to the channel's.
    own_key_decides: bool,
}

/// The channels whose account rules clawdeck reads (OpenClaw's `inspectTelegramAccount` and
/// `@openclaw/discord`'s `inspectDiscordAccount`).
const TOKEN_RULES: &[TokenRule] = &[
    TokenRule {
        channel: "telegram",
        keys: &["botToken", "tokenFile"],
        env: "TELEGRAM_BOT_TOKEN",
        own_key_decides: false,
    },
    TokenRule {
        channel: "discord",
        keys: &["token"],
        env: "DISCORD_BOT_TOKEN",
        own_key_decides: true,
    },
];

/// Whether `channel` counts as configured in `raw`, with `env` the variables the run's
/// environment gets (`env.vars`, dotenv files, the login shell).
///
/// Telegram and Discord count when they are not switched off and an enabled account has a bot
/// token: its own, the channel's, or for the default account the channel's variable
/// (`TELEGRAM_BOT_TOKEN`, `DISCORD_BOT_TOKEN`); a secret reference counts too. Seen on 2026.9.6
/// (and 2026.8.2 for Telegram). Any other channel counts with a `channels.<id>` section: its
/// plugin's account rules are not read.
pub fn channel_has_account(raw: &Value, channel: &str, env: &BTreeMap<String, String>) -> bool {
    let Some(section) = raw.get("channels").and_then(|c| c.get(channel)) else {
        return false;
    };
    let Some(rule) = TOKEN_RULES
        .iter()
        .find(|r| r.channel.eq_ignore_ascii_case(channel))
    else {
        return true;
    };
    if switched_off(section) {
        return false;
    }
    let channel_token = has_token(section, rule.keys);
    let account_token = |account: &Value| {
        has_token(account, rule.keys)
            || (channel_token
                && !(rule.own_key_decides && rule.keys.iter().any(|k| account.get(*k).is_some())))
    };
    let accounts = section.get("accounts").and_then(Value::as_object);
    let is_default = |name: &str| name.trim().eq_ignore_ascii_case("default");
    let named = accounts
        .into_iter()
        .flatten()
        .filter(|(name, _)| !is_default(name))
        .any(|(_, account)| !switched_off(account) && account_token(account));
    let default_entry = accounts.and_then(|a| a.iter().find(|(name, _)| is_default(name)));
    let default_listed = accounts.is_none_or(|a| a.is_empty()) || default_entry.is_some();
    let default = (default_listed || channel_token)
        && default_entry.is_none_or(|(_, account)| !switched_off(account))
        && (default_entry.map_or(channel_token, |(_, account)| account_token(account))
            || env.contains_key(rule.env));
    named || default
}

/// `enabled: false`.
fn switched_off(entry: &Value) -> bool {
    entry.get("enabled") == Some(&Value::Bool(false))
}

/// A bot token written in `entry` under one of `keys`: a non-blank string, or a secret
/// reference (OpenClaw counts one it cannot resolve as configured too).
fn has_token(entry: &Value, keys: &[&str]) -> bool {
    keys.iter().any(|key| match entry.get(*key) {
        Some(Value::String(text)) => !text.trim().is_empty(),
        Some(Value::Object(reference)) => !reference.is_empty(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn configured(raw: Value) -> bool {
        channel_has_account(&raw, "telegram", &BTreeMap::new())
    }

    #[test]
    fn telegram_counts_only_with_an_enabled_account_that_has_a_token() {
        assert!(!configured(json!({})));
        assert!(!configured(
            json!({"channels": {"telegram": {"dmPolicy": "pairing"}}})
        ));
        assert!(configured(
            json!({"channels": {"telegram": {"botToken": "1:a"}}})
        ));
        assert!(configured(
            json!({"channels": {"telegram": {"tokenFile": "/run/token"}}})
        ));
        assert!(configured(json!({"channels": {"telegram": {
            "botToken": {"source": "env", "provider": "default", "id": "TG"}}}})));
        assert!(!configured(json!({"channels": {"telegram": {
            "enabled": false, "botToken": "1:a"}}})));
        assert!(configured(json!({"channels": {"telegram": {
            "accounts": {"alerts": {"botToken": "1:a"}}}}})));
        assert!(!configured(json!({"channels": {"telegram": {
            "accounts": {"alerts": {"botToken": "1:a", "enabled": false}}}}})));
        // A named account without its own token uses the channel's.
        assert!(configured(json!({"channels": {"telegram": {
            "botToken": "1:a", "accounts": {"alerts": {"enabled": true}}}}})));
    }

    #[test]
    fn the_default_account_reads_its_token_from_the_environment() {
        let raw = json!({"channels": {"telegram": {"dmPolicy": "pairing"}}});
        let env = BTreeMap::from([("TELEGRAM_BOT_TOKEN".to_string(), "env.vars".to_string())]);
        assert!(channel_has_account(&raw, "telegram", &env));
        let named_only = json!({"channels": {"telegram": {"accounts": {"alerts": {}}}}});
        assert!(!channel_has_account(&named_only, "telegram", &env));
        // Other channels: the section is enough.
        let slack = json!({"channels": {"slack": {}}});
        assert!(channel_has_account(&slack, "slack", &BTreeMap::new()));
        assert!(!channel_has_account(&slack, "discord", &BTreeMap::new()));
    }

    #[test]
    fn discord_counts_with_a_token_and_an_accounts_own_empty_token_takes_none_of_the_channels() {
        let none = BTreeMap::new();
        let has = |raw: Value| channel_has_account(&raw, "discord", &none);
        assert!(!has(
            json!({"channels": {"discord": {"dmPolicy": "pairing"}}})
        ));
        assert!(has(json!({"channels": {"discord": {"token": "x"}}})));
        assert!(!has(
            json!({"channels": {"discord": {"enabled": false, "token": "x"}}})
        ));
        assert!(has(
            json!({"channels": {"discord": {"accounts": {"ops": {"token": "x"}}}}})
        ));
        // The default account's own empty token: the channel's does not stand in.
        assert!(!has(json!({"channels": {"discord": {
            "token": "x", "accounts": {"default": {"token": ""}}}}})));
        let env = BTreeMap::from([("DISCORD_BOT_TOKEN".to_string(), "env.vars".to_string())]);
        let bare = json!({"channels": {"discord": {"dmPolicy": "pairing"}}});
        assert!(channel_has_account(&bare, "discord", &env));
    }
}
