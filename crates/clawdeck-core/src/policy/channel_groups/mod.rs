//! Where each channel plugin keeps a chat group's tool policy (OpenClaw's
//! `plugin.groups.resolveToolPolicy`), one small module per plugin behind `plugin_policy`.
//!
//! OpenClaw asks the loaded channel plugin once per group id of the session (the id, then its
//! scoped bases: `X:topic:T` → `X`); the first policy wins. When the plugin has no resolver or
//! finds none, the generic `channels.<ch>.groups` (else `"*"`) decides: that part stays in
//! `sources::group_layer`. Which channel has which resolver is version data (the pack's
//! `channelGroupPolicy`).

mod discord;
mod feishu;
mod irc;
mod keys;
mod matrix;
mod msteams;
mod nextcloud_talk;
mod slack;
mod telegram;
mod zalouser;

use serde_json::Value;

use crate::config::KeyPath;
use crate::config::openclaw::ToolPolicyConfig;
use crate::context::PolicyContext;
use crate::policy::trace::PolicyWarning;
use crate::semantics::{GroupPolicySource, Semantics};

/// The policy a plugin chose: where it is written, the policy, and why (for the layer's note).
pub(crate) struct ChosenPolicy {
    pub path: KeyPath,
    pub policy: ToolPolicyConfig,
    pub what: String,
}

/// How the version reads a channel's group policy.
pub(crate) enum ChannelRule {
    /// The channel's plugin resolver (or the generic one: `GroupPolicySource::Groups`).
    Known(GroupPolicySource),
    /// The pack names channels, but not this one: read `channels.<ch>.groups` and say so.
    NotModelled,
}

/// The rule for `channel` under `semantics` (a pack without the table reads groups for every
/// channel, as the seed's OpenClaw did).
pub(crate) fn rule_for(semantics: &Semantics, channel: &str) -> ChannelRule {
    if semantics.channel_group_policy.is_empty() {
        return ChannelRule::Known(GroupPolicySource::Groups);
    }
    match semantics
        .channel_group_policy
        .get(&channel.trim().to_lowercase())
    {
        Some(source) => ChannelRule::Known(*source),
        None => ChannelRule::NotModelled,
    }
}

/// What a plugin resolver reads: the raw config, the context, the channel's config key.
pub(crate) struct PluginInputs<'a> {
    pub raw: &'a Value,
    pub ctx: &'a PolicyContext,
    /// `channels.<channel>` as written (the channel lowercased, as OpenClaw looks it up).
    pub channel: &'a str,
    /// The version's plugin matches conversation keys exactly as given (the pack's
    /// `channelKeysCaseSensitive`: 2026.8's Slack plugin), trying no other casing or prefix.
    pub exact_keys: bool,
}

impl PluginInputs<'_> {
    /// `channels.<channel>` and its key path.
    fn channel_config(&self) -> Option<(&Value, KeyPath)> {
        let value = self.raw.get("channels")?.get(self.channel)?;
        value.is_object().then(|| {
            (
                value,
                KeyPath::root()
                    .key("channels")
                    .key(self.channel.to_string()),
            )
        })
    }

    /// `channels.<channel>.accounts.<account>` when the context names an account that exists.
    fn account_config(&self, account: Option<&str>) -> Option<(&Value, KeyPath)> {
        let (channel, path) = self.channel_config()?;
        let account = account?.trim();
        let (key, value) =
            crate::config::account_entry(channel.get("accounts")?.as_object()?, account)?;
        Some((value, path.key("accounts").key(key.clone())))
    }

    /// The context's account, or `default` as OpenClaw names an unnamed one
    /// (`normalizeAccountId`).
    fn account(&self) -> &str {
        self.ctx
            .account
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .unwrap_or(crate::config::DEFAULT_ACCOUNT)
    }

    /// A map of the channel (`channels`, `guilds`, `rooms`, ...): the account's own when it has
    /// one (it replaces the channel's whole map, as `{...channel, ...account}` does), else the
    /// channel's.
    fn table(&self, name: &str) -> Option<(&serde_json::Map<String, Value>, KeyPath)> {
        let account = self
            .account_config(Some(self.account()))
            .and_then(|(v, p)| Some((v.get(name)?.as_object()?, p.key(name))));
        account.or_else(|| self.channel_table(name))
    }

    /// `groups` as OpenClaw's generic reader merges it (`resolveChannelGroups`): the
    /// account's map replaces the channel's, except that an empty one inherits it when the
    /// channel has at most one account (`inheritEmptyKeys`).
    fn merged_groups(&self) -> Option<(&serde_json::Map<String, Value>, KeyPath)> {
        let few_accounts = self
            .channel_config()
            .and_then(|(c, _)| c.get("accounts")?.as_object().map(|a| a.len() <= 1))
            .unwrap_or(true);
        match self.table("groups") {
            Some((map, _)) if map.is_empty() && few_accounts => self.channel_table("groups"),
            found => found,
        }
    }

    /// A map of the channel itself, whatever the accounts say.
    fn channel_table(&self, name: &str) -> Option<(&serde_json::Map<String, Value>, KeyPath)> {
        let (channel, path) = self.channel_config()?;
        Some((channel.get(name)?.as_object()?, path.key(name)))
    }
}

/// The policy the channel's plugin resolver gives for the first of `group_ids` it has one
/// for; `None` when it has no resolver (`Groups`) or finds none (then `channels.<ch>.groups`).
pub(crate) fn plugin_policy(
    source: GroupPolicySource,
    inputs: &PluginInputs<'_>,
    group_ids: &[String],
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    group_ids.iter().find_map(|group| {
        match source {
            GroupPolicySource::Groups => None,
            GroupPolicySource::SlackChannels => slack::resolve(inputs, group, warnings),
            GroupPolicySource::DiscordGuilds => discord::resolve(inputs, group, warnings),
            GroupPolicySource::MatrixRooms => matrix::resolve(inputs, group, warnings),
            GroupPolicySource::TelegramGroups => telegram::resolve(inputs, group, warnings),
            GroupPolicySource::FeishuGroups => feishu::resolve(inputs, group, warnings),
            GroupPolicySource::IrcGroups => irc::resolve(inputs, group, warnings),
            GroupPolicySource::MsteamsTeams => msteams::resolve(inputs, group, warnings),
            GroupPolicySource::NextcloudTalkRooms => {
                nextcloud_talk::resolve(inputs, group, warnings)
            }
            GroupPolicySource::ZalouserGroups => zalouser::resolve(inputs, group, warnings),
        }
        // A policy with nothing in it is no policy: the next id is asked (OpenClaw's
        // `pickSandboxToolPolicy`).
        .filter(|chosen| !is_empty_policy(&chosen.policy))
    })
}

/// No `allow`, no `deny` and no non-empty `alsoAllow`: OpenClaw treats it as no policy.
fn is_empty_policy(policy: &ToolPolicyConfig) -> bool {
    policy.allow.is_none()
        && policy.deny.is_none()
        && policy.also_allow.as_ref().is_none_or(Vec::is_empty)
}

/// How a reader that keeps only `tools` falls back from a conversation's own entry.
#[derive(Clone, Copy)]
enum Fallback {
    /// `"*"` only when the conversation has no entry: one entry counts.
    OneEntry,
    /// `"*"`'s `tools` also when the conversation's entry has none.
    WildcardTools,
}

/// The `tools` of the conversation's entry `own` in `map` (at `path`), falling back to `"*"`
/// as `fallback` says; `label` names an entry (`IRC channel`).
fn entry_tools(
    map: &serde_json::Map<String, Value>,
    path: &KeyPath,
    own: Option<String>,
    fallback: Fallback,
    label: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let keys: Vec<String> = match fallback {
        Fallback::OneEntry => keys::or_wildcard(map, own).into_iter().collect(),
        Fallback::WildcardTools => own
            .into_iter()
            .chain(Some(keys::WILDCARD.to_string()))
            .collect(),
    };
    keys.into_iter().find_map(|key| {
        let what = format!("{label} \"{key}\"");
        tools_choice(map.get(&key)?, &path.key(key.clone()), &what, warnings)
    })
}

/// An entry's `tools` as the policy the plugin chose (`what` names the entry).
fn tools_choice(
    entry: &Value,
    entry_path: &KeyPath,
    what: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let policy = tools_of(entry, entry_path, warnings)?;
    Some(ChosenPolicy {
        path: entry_path.key("tools"),
        policy,
        what: format!("{what} tools"),
    })
}

/// An entry's `tools`, parsed; a malformed one is a warning and no policy.
fn tools_of(
    entry: &Value,
    path: &KeyPath,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ToolPolicyConfig> {
    parse_at(entry.get("tools")?, &path.key("tools"), warnings)
}

/// An entry's `toolsBySender`, parsed (empty when absent or malformed).
fn by_sender_of(
    entry: &Value,
    path: &KeyPath,
    warnings: &mut Vec<PolicyWarning>,
) -> std::collections::BTreeMap<String, ToolPolicyConfig> {
    entry
        .get("toolsBySender")
        .and_then(|v| parse_at(v, &path.key("toolsBySender"), warnings))
        .unwrap_or_default()
}

fn parse_at<T: serde::de::DeserializeOwned>(
    value: &Value,
    path: &KeyPath,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<T> {
    if value.is_null() {
        return None;
    }
    match serde_json::from_value(value.clone()) {
        Ok(parsed) => Some(parsed),
        Err(err) => {
            warnings.push(PolicyWarning {
                layer: Some(crate::policy::LayerId::Group),
                message: format!("{path} is not a tool policy ({err}); ignored"),
                config_path: Some(path.to_string()),
            });
            None
        }
    }
}

/// One scope entry's policy as OpenClaw's `resolveScopeToolsPolicy` reads it: the sender's
/// `toolsBySender` entry, else `tools`. The plugins that call it without the message
/// provider (Slack, Discord) never match `channel:` sender keys: `ctx` has no channel then.
fn entry_policy(
    entry: &Value,
    entry_path: &KeyPath,
    what: &str,
    sender_ctx: &PolicyContext,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let by_sender = by_sender_of(entry, entry_path, warnings);
    let by_sender_path = entry_path.key("toolsBySender");
    if let Some((key, policy)) = crate::policy::sender_keys::match_sender(
        &by_sender,
        sender_ctx,
        &by_sender_path,
        crate::policy::LayerId::Group,
        warnings,
    ) {
        return Some(ChosenPolicy {
            path: by_sender_path.key(key.clone()),
            policy: policy.clone(),
            what: format!("{what}, sender key \"{key}\""),
        });
    }
    tools_of(entry, entry_path, warnings).map(|policy| ChosenPolicy {
        path: entry_path.key("tools"),
        policy,
        what: format!("{what} tools"),
    })
}

/// The context without its channel: `channel:` sender keys cannot match.
fn without_provider(ctx: &PolicyContext) -> PolicyContext {
    PolicyContext {
        channel: None,
        ..ctx.clone()
    }
}

#[cfg(test)]
mod tests;
