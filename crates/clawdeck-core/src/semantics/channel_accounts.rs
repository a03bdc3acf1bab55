//! Whether a configured channel has an account OpenClaw uses: what decides the forms of the
//! tools that grow with the configured channels (message's actions and fields).

use std::collections::BTreeMap;

use serde_json::Value;

pub use super::channel_account_rules::SecretRefs;
use super::channel_account_rules::{AccountSight, has_token, switched_off};

/// One account's view of its channel: its own keys over the channel's.
#[derive(Clone, Copy)]
struct AccountView<'a> {
    channel: &'a Value,
    account: Option<&'a Value>,
}

impl<'a> AccountView<'a> {
    /// The account's own value of `key`, else the channel's.
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.account
            .and_then(|a| a.get(key))
            .or_else(|| self.channel.get(key))
    }
}

/// The keys holding an account's identity token and the variable the default account reads
/// when none is written (if the channel has one).
type Identity = (&'static [&'static str], Option<&'static str>);

/// How a channel decides that an account of it can be used.
struct TokenRule {
    channel: &'static str,
    identity: fn(AccountView) -> Identity,
    /// Whether the plugin reads the identity token as a resolved string (Slack's
    /// `inspectSlackToken`): a reference counts only where the turn's gateway resolved it, and
    /// one left unresolved hides the variable. Otherwise any written token counts.
    resolved_identity: bool,
    /// An account naming one of its keys without a value has no token, even when the channel
    /// has one (Discord's and Slack's merged account view); Telegram falls back to the
    /// channel's.
    own_key_decides: bool,
    /// The channel's keys a named account does not take (Signal's `transport` is the default
    /// account's).
    default_only_keys: &'static [&'static str],
    /// Whether the channel's own keys (and the environment) make a default account beside
    /// named ones.
    implicit_default: fn(&Value, &BTreeMap<String, String>) -> bool,
}

/// The channels whose account rules clawdeck reads (OpenClaw's `inspectTelegramAccount`,
/// `@openclaw/discord`'s `inspectDiscordAccount`, `@openclaw/slack`'s `listSlackMessageActions`,
/// `@openclaw/signal`'s `listEnabledSignalAccounts`).
const TOKEN_RULES: &[TokenRule] = &[
    TokenRule {
        channel: "telegram",
        identity: |_| (&["botToken", "tokenFile"], Some("TELEGRAM_BOT_TOKEN")),
        resolved_identity: false,
        own_key_decides: false,
        default_only_keys: &[],
        implicit_default: |channel, _| has_token(channel, &["botToken", "tokenFile"]),
    },
    TokenRule {
        channel: "discord",
        identity: |_| (&["token"], Some("DISCORD_BOT_TOKEN")),
        resolved_identity: false,
        own_key_decides: true,
        default_only_keys: &[],
        implicit_default: |channel, _| has_token(channel, &["token"]),
    },
    TokenRule {
        channel: "slack",
        identity: slack_identity,
        resolved_identity: true,
        own_key_decides: true,
        default_only_keys: &[],
        implicit_default: slack_can_connect,
    },
    // A Signal account is configured by its number or a transport of its own.
    TokenRule {
        channel: "signal",
        identity: |_| (&["account", "transport"], None),
        resolved_identity: false,
        own_key_decides: true,
        default_only_keys: &["transport"],
        implicit_default: |channel, _| has_token(channel, &["account", "transport"]),
    },
];

/// A Slack account posts as its bot (`botToken`) or, with `postAs: "user"`, as a user
/// (`userToken`).
fn slack_identity(view: AccountView) -> Identity {
    if view.get("postAs").and_then(Value::as_str) == Some("user") {
        (&["userToken"], Some("SLACK_USER_TOKEN"))
    } else {
        (&["botToken"], Some("SLACK_BOT_TOKEN"))
    }
}

/// Slack's channel-level account connects: an identity token and what its mode needs (an app
/// token for socket mode, a signing secret for HTTP, a relay's url, token and gateway id).
fn slack_can_connect(channel: &Value, env: &BTreeMap<String, String>) -> bool {
    let written = |key: &str| has_token(channel, &[key]);
    let (keys, variable) = slack_identity(AccountView {
        channel,
        account: None,
    });
    let identity = has_token(channel, keys) || variable.is_some_and(|v| env.contains_key(v));
    let relay = channel.get("relay").unwrap_or(&Value::Null);
    identity
        && match channel.get("mode").and_then(Value::as_str) {
            Some("http") => written("signingSecret"),
            Some("relay") => ["url", "authToken", "gatewayId"]
                .iter()
                .all(|key| has_token(relay, &[key])),
            _ => written("appToken") || env.contains_key("SLACK_APP_TOKEN"),
        }
}

/// Whether `channel` counts as configured in `raw`, with `env` the variables the run's
/// environment gets (`env.vars`, dotenv files, the login shell).
///
/// Telegram, Discord and Slack count when they are not switched off and an enabled account has
/// its identity token (a bot token; Slack's user token when it posts as a user): its own, the
/// channel's, or for the default account the channel's variable (`TELEGRAM_BOT_TOKEN`,
/// `DISCORD_BOT_TOKEN`, `SLACK_BOT_TOKEN`). A secret reference counts as written for Telegram
/// and Discord; Slack's counts only where the turn's gateway resolved it. A Signal account
/// counts with its number (`account`) or a `transport`. Seen on 2026.9.6 (and 2026.8.2 for
/// Telegram). Matrix, Teams, iMessage, Feishu, Nextcloud Talk, Zalo Personal, Mattermost and
/// LINE follow their plugins' rules (`channel_account_rules`). Any other channel counts with a `channels.<id>`
/// section not switched off (WhatsApp's plugin describes message from its section alone).
pub fn channel_has_account(
    raw: &Value,
    channel: &str,
    env: &BTreeMap<String, String>,
    refs: SecretRefs,
) -> bool {
    let Some(section) = raw.get("channels").and_then(|c| c.get(channel)) else {
        return false;
    };
    if switched_off(section) {
        return false;
    }
    let id = channel.trim().to_ascii_lowercase();
    let sight = AccountSight { env, refs };
    if let Some(configured) = super::channel_account_rules::configured(&id, section, &sight) {
        return configured;
    }
    let Some(rule) = TOKEN_RULES.iter().find(|r| r.channel == id) else {
        return true;
    };
    // An account's identity token: its own, else the channel's (where the rule lets it
    // inherit), else for the default account the channel's variable.
    let has_identity = |account: Option<&Value>, named: bool| {
        let view = AccountView {
            channel: section,
            account,
        };
        let (keys, variable) = (rule.identity)(view);
        let from_env = !named && variable.is_some_and(|v| env.contains_key(v));
        if rule.resolved_identity {
            // The account's merged value (its own key over the channel's).
            let value = keys.iter().find_map(|k| view.get(k));
            return sight.credential(value, from_env);
        }
        let own = account.is_some_and(|a| has_token(a, keys));
        let overridden = rule.own_key_decides
            && account.is_some_and(|a| keys.iter().any(|k| a.get(*k).is_some()));
        let inherited = keys
            .iter()
            .filter(|k| !(named && rule.default_only_keys.contains(k)))
            .any(|k| has_token(section, &[k]));
        own || (!overridden && inherited) || from_env
    };
    let accounts = section.get("accounts").and_then(Value::as_object);
    let is_default = |name: &str| name.trim().eq_ignore_ascii_case("default");
    let named = accounts
        .into_iter()
        .flatten()
        .filter(|(name, _)| !is_default(name))
        .any(|(_, account)| !switched_off(account) && has_identity(Some(account), true));
    let default_entry = accounts
        .and_then(|a| a.iter().find(|(name, _)| is_default(name)))
        .map(|(_, account)| account);
    let default_listed = accounts.is_none_or(|a| a.is_empty())
        || default_entry.is_some()
        || (rule.implicit_default)(section, env);
    let default = default_listed
        && default_entry.is_none_or(|account| !switched_off(account))
        && has_identity(default_entry, false);
    named || default
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Whether `channel` counts in a local turn (its secret references as written).
    fn local(raw: &Value, channel: &str, env: &BTreeMap<String, String>) -> bool {
        channel_has_account(raw, channel, env, SecretRefs::AsWritten)
    }

    fn configured(raw: Value) -> bool {
        local(&raw, "telegram", &BTreeMap::new())
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
        assert!(local(&raw, "telegram", &env));
        let named_only = json!({"channels": {"telegram": {"accounts": {"alerts": {}}}}});
        assert!(!local(&named_only, "telegram", &env));
        // Other channels: the section is enough.
        let whatsapp = json!({"channels": {"whatsapp": {}}});
        assert!(local(&whatsapp, "whatsapp", &BTreeMap::new()));
        assert!(!local(&whatsapp, "discord", &BTreeMap::new()));
    }

    #[test]
    fn discord_counts_with_a_token_and_an_accounts_own_empty_token_takes_none_of_the_channels() {
        let none = BTreeMap::new();
        let has = |raw: Value| local(&raw, "discord", &none);
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
        assert!(local(&bare, "discord", &env));
    }

    #[test]
    fn slack_counts_with_its_identity_token_whatever_its_mode_needs_to_connect() {
        let none = BTreeMap::new();
        let has = |raw: Value| local(&raw, "slack", &none);
        assert!(!has(
            json!({"channels": {"slack": {"dmPolicy": "pairing"}}})
        ));
        // A bot token alone is enough to post (socket mode's app token is not needed).
        assert!(has(json!({"channels": {"slack": {"botToken": "xoxb"}}})));
        assert!(has(json!({"channels": {"slack": {
            "mode": "http", "botToken": "xoxb", "signingSecret": "s"}}})));
        // Posting as a user takes the user token, not the bot's.
        assert!(!has(
            json!({"channels": {"slack": {"postAs": "user", "botToken": "xoxb"}}})
        ));
        assert!(has(json!({"channels": {"slack": {"accounts": {"ops": {
            "postAs": "user", "userToken": "xoxp"}}}}})));
        assert!(!has(json!({"channels": {"slack": {
            "enabled": false, "botToken": "xoxb"}}})));
        let env = BTreeMap::from([
            ("SLACK_BOT_TOKEN".to_string(), "env.vars".to_string()),
            ("SLACK_APP_TOKEN".to_string(), "env.vars".to_string()),
        ]);
        let bare = json!({"channels": {"slack": {"dmPolicy": "pairing"}}});
        assert!(local(&bare, "slack", &env));
        // Beside named accounts without tokens, the channel's default account exists only when
        // it can connect: a bot token without an app token does not make one.
        let named_without = |extra: Value| {
            let mut slack = json!({"accounts": {"ops": {"botToken": ""}}, "botToken": "xoxb"});
            slack
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            has(json!({"channels": {"slack": slack}}))
        };
        assert!(!named_without(json!({})));
        assert!(named_without(json!({"appToken": "xapp"})));
    }

    #[test]
    fn a_slack_token_reference_counts_only_where_a_gateway_resolved_it() {
        let raw = json!({"channels": {"slack": {"appToken": "xapp",
            "botToken": {"source": "env", "provider": "default", "id": "TOKEN"}}}});
        let env = |names: &[&str]| -> BTreeMap<String, String> {
            names
                .iter()
                .map(|n| (n.to_string(), "env.vars".to_string()))
                .collect()
        };
        let gateway = |env: &BTreeMap<String, String>| {
            channel_has_account(&raw, "slack", env, SecretRefs::Resolved)
        };
        assert!(!local(&raw, "slack", &env(&["TOKEN"])));
        assert!(gateway(&env(&["TOKEN"])));
        assert!(!gateway(&env(&[])));
        // Unresolved, it hides SLACK_BOT_TOKEN (the plugin's configured_unavailable).
        assert!(!gateway(&env(&["SLACK_BOT_TOKEN"])));
        // Telegram and Discord count a reference as written.
        let telegram = json!({"channels": {"telegram": {
            "botToken": {"source": "env", "provider": "default", "id": "TOKEN"}}}});
        assert!(local(&telegram, "telegram", &env(&[])));
    }

    #[test]
    fn signal_counts_with_a_number_or_a_transport_and_its_transport_is_the_default_accounts() {
        let none = BTreeMap::new();
        let has = |raw: Value| local(&raw, "signal", &none);
        assert!(!has(
            json!({"channels": {"signal": {"dmPolicy": "pairing"}}})
        ));
        assert!(has(
            json!({"channels": {"signal": {"account": "+15550001234"}}})
        ));
        assert!(has(json!({"channels": {"signal": {
            "transport": {"kind": "http", "url": "http://127.0.0.1:8080"}}}})));
        assert!(!has(json!({"channels": {"signal": {
            "enabled": false, "account": "+15550001234"}}})));
        // A named account takes the channel's number, not its transport.
        assert!(has(json!({"channels": {"signal": {
            "account": "+15550001234", "accounts": {"work": {}}}}})));
        assert!(!has(
            json!({"channels": {"signal": {"transport": {"kind": "http"},
            "accounts": {"default": {"enabled": false}, "work": {}}}}})
        ));
        // The channel's transport makes a default account beside the named one.
        assert!(has(json!({"channels": {"signal": {
            "transport": {"kind": "http"}, "accounts": {"work": {}}}}})));
    }
}
