//! The account rules of the channel plugins whose accounts are not a bot token alone: when
//! Matrix, Microsoft Teams, iMessage, Feishu, Nextcloud Talk, Zalo Personal, Mattermost and LINE
//! describe their actions to the message tool (each plugin's `describeMessageTool`, `@openclaw/<id>` of the 2026.9
//! series). Each was seen on a real 2026.9.6 turn with the account the capture configures.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// `enabled: false`.
pub(super) fn switched_off(entry: &Value) -> bool {
    entry.get("enabled") == Some(&Value::Bool(false))
}

/// A value written in `entry` under one of `keys`: a non-blank string, or a secret reference
/// (OpenClaw counts one it cannot resolve as configured too).
pub(super) fn has_token(entry: &Value, keys: &[&str]) -> bool {
    keys.iter().any(|key| entry.get(*key).is_some_and(written))
}

/// How a turn's channel plugins find a secret reference (`{ source, provider, id }`) in their
/// sections.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SecretRefs {
    /// As written: `openclaw agent --local` resolves none of `channels.*`, so a plugin that
    /// reads a credential as a resolved string finds none.
    #[default]
    AsWritten,
    /// Resolved: a gateway resolves every reference it can when it starts (an `env` one when
    /// its variable is set) and leaves the others as written.
    Resolved,
}

/// What a channel's account rule reads beside its section.
#[derive(Debug, Clone, Copy)]
pub struct AccountSight<'a> {
    /// The run's variables that are set (name → where it is written).
    pub env: &'a BTreeMap<String, String>,
    pub refs: SecretRefs,
}

impl AccountSight<'_> {
    /// Whether a plugin that reads `value` as a resolved string finds one: a non-blank string,
    /// or a reference the turn's gateway resolved (an `env` one whose variable is set; a
    /// `file` or `exec` one clawdeck cannot follow counts).
    pub(super) fn resolved(&self, value: &Value) -> bool {
        match value {
            Value::String(text) => !text.trim().is_empty(),
            Value::Object(reference) if self.refs == SecretRefs::Resolved => {
                match reference.get("source").and_then(Value::as_str) {
                    Some("env") => self.names_set_variable(reference),
                    _ => !reference.is_empty(),
                }
            }
            _ => false,
        }
    }

    /// Whether a plugin that reads a credential as a resolved string, with `fallback` (its
    /// variable, a file) read only when none is written, has one: a written reference the turn
    /// left unresolved hides the fallback (the plugins' `configured_unavailable`).
    pub(super) fn credential(&self, value: Option<&Value>, fallback: bool) -> bool {
        match value {
            Some(value) if written(value) => self.resolved(value),
            _ => fallback,
        }
    }

    /// Whether `reference` names an environment variable (`source: "env"`) the run has set.
    fn names_set_variable(&self, reference: &Map<String, Value>) -> bool {
        reference.get("source").and_then(Value::as_str) == Some("env")
            && reference
                .get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| self.env.get(id).is_some_and(|w| !w.is_empty()))
    }
}

/// A credential of a plugin that resolves an `env` reference itself (Feishu), in any turn: a
/// non-blank string, or an `env` reference whose variable the run sets (`env`, as in
/// [`AccountSight`]).
pub(crate) fn self_resolved(value: Option<&Value>, env: &BTreeMap<String, String>) -> bool {
    let sight = AccountSight {
        env,
        refs: SecretRefs::AsWritten,
    };
    match value {
        Some(Value::String(text)) => !text.trim().is_empty(),
        Some(Value::Object(reference)) => sight.names_set_variable(reference),
        _ => false,
    }
}

/// Whether the plugin of `channel` describes actions for the config's `section`, when it is
/// one of the plugins this module knows (None otherwise). The section is not switched off.
pub(super) fn configured(channel: &str, section: &Value, sight: &AccountSight) -> Option<bool> {
    // OpenClaw loads a channel's plugin only for a section with a key beside `enabled`, or one
    // switched on.
    let loaded = section
        .as_object()
        .is_some_and(|keys| keys.keys().any(|k| k != "enabled"))
        || section.get("enabled") == Some(&Value::Bool(true));
    let rule: fn(&Value, &AccountSight) -> bool = match channel {
        "matrix" => matrix,
        "msteams" => msteams,
        "imessage" => imessage,
        "feishu" => feishu,
        "nextcloud-talk" => nextcloud_talk,
        "zalouser" => zalouser,
        "mattermost" => mattermost,
        "line" => line,
        _ => return None,
    };
    Some(loaded && rule(section, sight))
}

/// The accounts a section lists (`accounts`), without blank names.
fn accounts(section: &Value) -> Vec<(&str, &Value)> {
    section
        .get("accounts")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(name, _)| !name.trim().is_empty())
        .map(|(name, account)| (name.as_str(), account))
        .collect()
}

/// An account's entry over the channel's keys (a shallow merge, as most plugins read one).
pub(crate) fn merged(section: &Value, account: Option<&Value>) -> Value {
    let mut out: Map<String, Value> = section
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| *k != "accounts" && *k != "defaultAccount")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (k, v) in account.and_then(Value::as_object).into_iter().flatten() {
        out.insert(k.clone(), v.clone());
    }
    Value::Object(out)
}

/// Whether any account the plugin lists passes `ready`, given its view (its keys over the
/// channel's) and whether it is the default account; the channel's own keys are the default
/// account beside named ones when they pass.
fn any_account(section: &Value, ready: impl Fn(&Value, bool) -> bool) -> bool {
    accounts(section)
        .iter()
        .any(|(id, account)| ready(&merged(section, Some(account)), is_default(id)))
        || ready(&merged(section, None), true)
}

fn is_default(name: &str) -> bool {
    name.trim().eq_ignore_ascii_case("default")
}

/// The account a plugin describes its actions for when the turn names none: its id and entry
/// (none for an implicit `default`). The ids are the named accounts, with `default` when the
/// channel's own keys make one (`implicit`) or nothing else is listed.
fn default_account(
    section: &Value,
    implicit: bool,
    first_wins: bool,
) -> Option<(String, Option<&Value>)> {
    let listed = accounts(section);
    let mut ids: Vec<String> = listed.iter().map(|(id, _)| id.to_string()).collect();
    if ids.is_empty() || (implicit && !ids.iter().any(|i| is_default(i))) {
        ids.push("default".into());
    }
    let id = default_account_id(section, &ids, first_wins)?;
    let account = listed.iter().find(|(i, _)| *i == id).map(|(_, a)| *a);
    Some((id, account))
}

/// The account a plugin's own default names: `defaultAccount`, else `default`, else (iMessage)
/// the first in order; None when it cannot choose.
fn default_account_id(section: &Value, ids: &[String], first_wins: bool) -> Option<String> {
    let named = section.get("defaultAccount").and_then(Value::as_str);
    if let Some(id) = named.filter(|id| ids.iter().any(|i| i == id)) {
        return Some(id.to_string());
    }
    if let Some(id) = ids.iter().find(|i| is_default(i)) {
        return Some(id.clone());
    }
    match ids.len() {
        1 => Some(ids[0].clone()),
        _ if first_wins => ids.iter().min().cloned(),
        _ => None,
    }
}

/// Matrix: the default account (the only one its description asks about) has a homeserver and
/// an access token or a user id with a password. The default account reads `accounts.default`,
/// the channel's keys and then `MATRIX_*`; a named one its own keys and `MATRIX_<ID>_*`, taking
/// only the homeserver from the channel. Two named accounts and no `defaultAccount`: no actions.
fn matrix(section: &Value, sight: &AccountSight) -> bool {
    let env = sight.env;
    let value = |account: Option<&Value>, id: &str, key: &str, variable: &str| {
        let own = account.and_then(|a| a.get(key)).filter(|v| written(v));
        let default = is_default(id);
        let upper = id
            .to_ascii_uppercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let from_env = |name: String| env.get(&name).filter(|v| !v.trim().is_empty()).is_some();
        own.is_some()
            || (default && from_env(format!("MATRIX_DEFAULT_{variable}")))
            || ((default || key == "homeserver") && section.get(key).is_some_and(written))
            || (!default && from_env(format!("MATRIX_{upper}_{variable}")))
            || ((default || key == "homeserver") && from_env(format!("MATRIX_{variable}")))
    };
    let ready = |account: Option<&Value>, id: &str| {
        let has = |key, variable| value(account, id, key, variable);
        account.is_none_or(|a| !switched_off(a))
            && has("homeserver", "HOMESERVER")
            && (has("accessToken", "ACCESS_TOKEN")
                || (has("userId", "USER_ID") && has("password", "PASSWORD")))
    };
    default_account(section, ready(None, "default"), false)
        .is_some_and(|(id, account)| ready(account, &id))
}

/// A value that counts as written: a non-blank string or a secret reference.
fn written(value: &Value) -> bool {
    match value {
        Value::String(text) => !text.trim().is_empty(),
        Value::Object(reference) => !reference.is_empty(),
        _ => false,
    }
}

/// Microsoft Teams: one account, the channel's: an app id, a tenant id and a password (or, with
/// `authType: "federated"`, a certificate or a managed identity), each a string or else from
/// `MSTEAMS_*`. The plugin reads the password as a resolved string: a reference counts only in
/// a gateway's turn that resolved it (seen on 2026.9.6), and then `MSTEAMS_APP_PASSWORD` is not
/// read.
fn msteams(section: &Value, sight: &AccountSight) -> bool {
    let env = sight.env;
    let from_env = |variable: &str| env.get(variable).is_some_and(|v| !v.is_empty());
    let has = |key: &str, variable: &str| match section.get(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => true,
        _ => from_env(variable),
    };
    let federated = section.get("authType").and_then(Value::as_str) == Some("federated")
        || env.get("MSTEAMS_AUTH_TYPE").map(String::as_str) == Some("federated");
    let secret = if federated {
        has("certificatePath", "MSTEAMS_CERTIFICATE_PATH")
            || section.get("useManagedIdentity") == Some(&Value::Bool(true))
            || env.get("MSTEAMS_USE_MANAGED_IDENTITY").map(String::as_str) == Some("true")
    } else {
        sight.credential(section.get("appPassword"), from_env("MSTEAMS_APP_PASSWORD"))
    };
    has("appId", "MSTEAMS_APP_ID") && has("tenantId", "MSTEAMS_TENANT_ID") && secret
}

/// iMessage: its default account (`defaultAccount`, else `default`, else the first), the
/// channel's keys under its own, switched on or with any key that sets it up (a CLI or
/// database path, a service, a policy, an allowlist, ...). No credential is read.
/// iMessage's default account (the one it describes its actions for when the turn names
/// none): its entry, None for the channel's own keys, or no account it can choose.
fn imessage_default(section: &Value) -> Option<Option<&Value>> {
    let implicit = has_token(section, &["cliPath", "dbPath"]);
    default_account(section, implicit, true).map(|(_, account)| account)
}

/// iMessage's default account's keys over the channel's (`channels.imessage`).
pub(crate) fn imessage_default_view(section: &Value) -> Option<Value> {
    imessage_default(section).map(|account| merged(section, account))
}

fn imessage(section: &Value, _sight: &AccountSight) -> bool {
    let Some(account) = imessage_default(section) else {
        return false;
    };
    if account.is_some_and(switched_off) {
        return false;
    }
    let view = merged(section, account);
    let non_empty = |key: &str| match view.get(key) {
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(items)) => !items.is_empty(),
        _ => false,
    };
    view.get("enabled") == Some(&Value::Bool(true))
        || has_token(&view, &["cliPath", "dbPath", "region"])
        || ["service", "sendTransport", "dmPolicy", "groupPolicy"]
            .iter()
            .any(|k| view.get(*k).is_some_and(|v| !v.is_null()))
        || [
            "allowFrom",
            "groupAllowFrom",
            "attachmentRoots",
            "remoteAttachmentRoots",
        ]
        .iter()
        .any(|k| non_empty(k))
        || view
            .get("includeAttachments")
            .is_some_and(Value::is_boolean)
        || ["mediaMaxMb", "textChunkLimit"]
            .iter()
            .any(|k| view.get(*k).is_some_and(Value::is_number))
        || non_empty("groups")
}

/// Feishu: an enabled account (its keys over the channel's) with an app id and an app secret.
/// A secret reference counts only from an environment variable that is set. No variable is read
/// otherwise.
fn feishu(section: &Value, sight: &AccountSight) -> bool {
    let resolves = |view: &Value, key: &str| self_resolved(view.get(key), sight.env);
    any_account(section, |view, _| {
        !switched_off(view) && resolves(view, "appId") && resolves(view, "appSecret")
    })
}

/// Nextcloud Talk: an enabled account with a base url and a bot secret (`botSecret`,
/// `botSecretFile`, or for the default account `NEXTCLOUD_TALK_BOT_SECRET`); named accounts take
/// the channel's url and secret. The plugin reads `botSecret` as a resolved string: a reference
/// counts only where the turn's gateway resolved it, and one left unresolved hides the file and
/// the variable (seen on 2026.9.6).
fn nextcloud_talk(section: &Value, sight: &AccountSight) -> bool {
    let from_env = sight
        .env
        .get("NEXTCLOUD_TALK_BOT_SECRET")
        .is_some_and(|v| !v.trim().is_empty());
    any_account(section, |view, default| {
        let fallback = (default && from_env) || has_token(view, &["botSecretFile"]);
        !switched_off(view)
            && has_token(view, &["baseUrl"])
            && sight.credential(view.get("botSecret"), fallback)
    })
}

/// Zalo Personal: any listed account not switched off (it always lists a default one when no
/// account is named, and beside named ones with a `profile` or `ZALOUSER_PROFILE`/`ZCA_PROFILE`);
/// it reads no credential from the config (a login's session lives in its own store).
fn zalouser(section: &Value, sight: &AccountSight) -> bool {
    let env = sight.env;
    let listed = accounts(section);
    let implicit = has_token(section, &["profile"])
        || ["ZALOUSER_PROFILE", "ZCA_PROFILE"]
            .iter()
            .any(|v| env.get(*v).is_some_and(|x| !x.is_empty()));
    listed.iter().any(|(_, account)| !switched_off(account)) || listed.is_empty() || implicit
}

/// Mattermost: an enabled account (its keys over the channel's) with a bot token and a server
/// (`botToken`, `baseUrl`; for the default account also `MATTERMOST_BOT_TOKEN`, `MATTERMOST_URL`).
/// The token is read as a resolved string: a reference counts only where the turn's gateway
/// resolved it, and one left unresolved hides the variable (seen on 2026.9.6).
fn mattermost(section: &Value, sight: &AccountSight) -> bool {
    let env = sight.env;
    let variable = |name: &str| env.get(name).is_some_and(|v| !v.trim().is_empty());
    any_account(section, |view, default| {
        !switched_off(view)
            && sight.credential(
                view.get("botToken"),
                default && variable("MATTERMOST_BOT_TOKEN"),
            )
            && (has_token(view, &["baseUrl"]) || (default && variable("MATTERMOST_URL")))
    })
}

/// LINE: its default account (`defaultAccount`, else `default`, else the first) has a channel
/// access token and a channel secret, written as text or as files (`tokenFile`, `secretFile`);
/// the default account also reads `LINE_CHANNEL_ACCESS_TOKEN` and `LINE_CHANNEL_SECRET`. A named
/// account takes neither from the channel; a secret reference is not read.
fn line(section: &Value, sight: &AccountSight) -> bool {
    let env = sight.env;
    let text = |entry: &Value, key: &str| {
        entry
            .get(key)
            .and_then(Value::as_str)
            .is_some_and(|t| !t.trim().is_empty())
    };
    let variable = |name: &str| env.get(name).is_some_and(|v| !v.trim().is_empty());
    let ready = |entry: &Value, default: bool| {
        let token = text(entry, "channelAccessToken")
            || text(entry, "tokenFile")
            || (default && variable("LINE_CHANNEL_ACCESS_TOKEN"));
        let secret = text(entry, "channelSecret")
            || text(entry, "secretFile")
            || (default && variable("LINE_CHANNEL_SECRET"));
        !switched_off(entry) && token && secret
    };
    let implicit = ready(section, true);
    default_account(section, implicit, true).is_some_and(|(id, account)| match account {
        Some(entry) => ready(entry, is_default(&id)),
        None => ready(section, true),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn counts(channel: &str, section: Value) -> bool {
        counts_with(channel, section, &[])
    }

    fn counts_with(channel: &str, section: Value, env: &[(&str, &str)]) -> bool {
        counts_in(channel, section, env, SecretRefs::AsWritten)
    }

    fn counts_in(channel: &str, section: Value, env: &[(&str, &str)], refs: SecretRefs) -> bool {
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let sight = AccountSight { env: &env, refs };
        configured(channel, &section, &sight).unwrap()
    }

    #[test]
    fn matrix_needs_a_homeserver_and_a_token_or_a_user_with_a_password() {
        let token = json!({"homeserver": "https://m.example", "accessToken": "t"});
        assert!(counts("matrix", token.clone()));
        assert!(counts(
            "matrix",
            json!({"homeserver": "https://m.example", "userId": "@b:m", "password": "p"})
        ));
        assert!(!counts(
            "matrix",
            json!({"homeserver": "https://m.example", "userId": "@b:m"})
        ));
        assert!(!counts("matrix", json!({"accessToken": "t"})));
        assert!(counts_with(
            "matrix",
            json!({"homeserver": "https://m.example"}),
            &[("MATRIX_ACCESS_TOKEN", "t")]
        ));
        // A named account takes the channel's homeserver, never its token.
        assert!(counts(
            "matrix",
            json!({"homeserver": "https://m.example", "accounts": {"ops": {"accessToken": "t"}}})
        ));
        // Two named accounts and no default: Matrix cannot choose.
        let two = json!({"homeserver": "https://m.example", "accounts": {
            "a": {"accessToken": "t"}, "b": {"accessToken": "u"}}});
        assert!(!counts("matrix", two.clone()));
        let mut chosen = two;
        chosen["defaultAccount"] = json!("b");
        assert!(counts("matrix", chosen));
        let mut off = token;
        off["accounts"] = json!({"default": {"enabled": false}});
        assert!(!counts("matrix", off));
    }

    #[test]
    fn teams_needs_an_app_id_a_tenant_and_a_password_or_its_federated_credential() {
        let all = json!({"appId": "a", "tenantId": "t", "appPassword": "p"});
        assert!(counts("msteams", all.clone()));
        assert!(!counts(
            "msteams",
            json!({"appId": "a", "appPassword": "p"})
        ));
        assert!(counts_with(
            "msteams",
            json!({"appId": "a", "appPassword": "p"}),
            &[("MSTEAMS_TENANT_ID", "t")]
        ));
        assert!(!counts(
            "msteams",
            json!({"appId": "a", "tenantId": "t", "authType": "federated"})
        ));
        assert!(counts(
            "msteams",
            json!({"appId": "a", "tenantId": "t", "authType": "federated", "useManagedIdentity": true})
        ));
    }

    #[test]
    fn a_teams_password_reference_counts_only_where_a_gateway_resolved_it() {
        let reference = json!({"appId": "a", "tenantId": "t",
            "appPassword": {"source": "env", "provider": "default", "id": "PW"}});
        let set = [("PW", "env.vars.PW")];
        assert!(!counts_with("msteams", reference.clone(), &set));
        assert!(counts_in(
            "msteams",
            reference.clone(),
            &set,
            SecretRefs::Resolved
        ));
        assert!(!counts_in(
            "msteams",
            reference.clone(),
            &[],
            SecretRefs::Resolved
        ));
        // The variable is not a fallback for a reference the plugin cannot read.
        let fallback = [("MSTEAMS_APP_PASSWORD", "env.vars.MSTEAMS_APP_PASSWORD")];
        assert!(!counts_in(
            "msteams",
            reference,
            &fallback,
            SecretRefs::Resolved
        ));
    }

    #[test]
    fn mattermost_and_nextcloud_talk_count_a_reference_only_where_a_gateway_resolved_it() {
        let reference = json!({"source": "env", "provider": "default", "id": "TOKEN"});
        let set = [("TOKEN", "env.vars.TOKEN")];
        let cases = [
            (
                "mattermost",
                json!({"baseUrl": "https://mm.example", "botToken": reference}),
                "MATTERMOST_BOT_TOKEN",
            ),
            (
                "nextcloud-talk",
                json!({"baseUrl": "https://c.example", "botSecret": reference}),
                "NEXTCLOUD_TALK_BOT_SECRET",
            ),
        ];
        for (channel, section, variable) in cases {
            // A local turn reads the reference as written: no string.
            assert!(!counts_with(channel, section.clone(), &set), "{channel}");
            assert!(
                counts_in(channel, section.clone(), &set, SecretRefs::Resolved),
                "{channel}"
            );
            assert!(
                !counts_in(channel, section.clone(), &[], SecretRefs::Resolved),
                "{channel}"
            );
            // A reference left unresolved hides the default account's variable.
            let fallback = [(variable, "env.vars")];
            assert!(
                !counts_in(channel, section, &fallback, SecretRefs::Resolved),
                "{channel}"
            );
        }
    }

    #[test]
    fn imessage_counts_when_switched_on_or_set_up_and_reads_no_credential() {
        assert!(counts("imessage", json!({"enabled": true})));
        assert!(counts("imessage", json!({"cliPath": "imsg"})));
        assert!(counts("imessage", json!({"dmPolicy": "pairing"})));
        assert!(!counts("imessage", json!({})));
        assert!(!counts("imessage", json!({"remoteHost": "mac"})));
        assert!(!counts("imessage", json!({"accounts": {"work": {}}})));
        assert!(counts(
            "imessage",
            json!({"accounts": {"work": {"cliPath": "imsg"}}})
        ));
    }

    #[test]
    fn feishu_needs_an_app_id_and_secret_that_named_accounts_inherit() {
        let both = json!({"appId": "cli_0123456789abcdef", "appSecret": "s"});
        assert!(counts("feishu", both));
        assert!(!counts(
            "feishu",
            json!({"appId": "cli_0123456789abcdef", "appSecret": ""})
        ));
        assert!(counts(
            "feishu",
            json!({"appId": "cli_x", "appSecret": "s", "accounts": {"a": {}}})
        ));
        assert!(!counts(
            "feishu",
            json!({"accounts": {"a": {"appId": "cli_x", "appSecret": "s", "enabled": false}}})
        ));
        let from_env = json!({"appId": "cli_x", "appSecret": {"source": "env", "provider": "default", "id": "FS"}});
        assert!(!counts("feishu", from_env.clone()));
        assert!(counts_with("feishu", from_env, &[("FS", "s")]));
    }

    #[test]
    fn nextcloud_talk_needs_a_base_url_and_a_bot_secret() {
        assert!(counts(
            "nextcloud-talk",
            json!({"baseUrl": "https://c.example", "botSecret": "s"})
        ));
        assert!(!counts(
            "nextcloud-talk",
            json!({"baseUrl": "https://c.example"})
        ));
        assert!(!counts("nextcloud-talk", json!({"botSecret": "s"})));
        assert!(counts_with(
            "nextcloud-talk",
            json!({"baseUrl": "https://c.example"}),
            &[("NEXTCLOUD_TALK_BOT_SECRET", "s")]
        ));
        // The variable is the default account's only.
        assert!(!counts_with(
            "nextcloud-talk",
            json!({"accounts": {"ops": {"baseUrl": "https://c.example"}}}),
            &[("NEXTCLOUD_TALK_BOT_SECRET", "s")]
        ));
    }

    #[test]
    fn zalo_personal_counts_with_any_account_not_switched_off() {
        assert!(counts("zalouser", json!({"enabled": true})));
        assert!(counts("zalouser", json!({"profile": "me"})));
        assert!(!counts("zalouser", json!({})));
        assert!(!counts(
            "zalouser",
            json!({"accounts": {"a": {"enabled": false}}})
        ));
    }

    #[test]
    fn mattermost_needs_a_bot_token_and_a_server() {
        assert!(counts(
            "mattermost",
            json!({"botToken": "t", "baseUrl": "https://mm.example"})
        ));
        assert!(!counts("mattermost", json!({"botToken": "t"})));
        assert!(counts_with(
            "mattermost",
            json!({"botToken": "t"}),
            &[("MATTERMOST_URL", "https://mm.example")]
        ));
        assert!(counts(
            "mattermost",
            json!({"baseUrl": "https://mm.example", "accounts": {"work": {"botToken": "t"}}})
        ));
    }

    #[test]
    fn line_needs_a_token_and_a_secret_that_named_accounts_do_not_inherit() {
        let both = json!({"channelAccessToken": "t", "channelSecret": "s"});
        assert!(counts("line", both));
        assert!(!counts("line", json!({"channelAccessToken": "t"})));
        assert!(counts(
            "line",
            json!({"tokenFile": "/t", "secretFile": "/s"})
        ));
        // The named account is the one asked, and it has no secret of its own.
        assert!(!counts(
            "line",
            json!({"channelSecret": "s", "accounts": {"work": {"channelAccessToken": "t"}}})
        ));
        assert!(counts_with(
            "line",
            json!({"dmPolicy": "pairing"}),
            &[
                ("LINE_CHANNEL_ACCESS_TOKEN", "t"),
                ("LINE_CHANNEL_SECRET", "s")
            ]
        ));
    }

    #[test]
    fn other_channels_are_not_this_modules() {
        let sight = AccountSight {
            env: &BTreeMap::new(),
            refs: SecretRefs::Resolved,
        };
        assert_eq!(configured("telegram", &json!({}), &sight), None);
    }
}
