//! Slack (`@openclaw/slack` 2026.9.6, `extensions/slack/src/group-policy.ts`): a channel's
//! policy is `channels.slack.channels.<key>` (the account's map when the context names one),
//! the key being the channel id as given, lower-cased, upper-cased, then each with `channel:`
//! (Slack ids are upper-case; session keys are stored lower-case); else `"*"`. Only that one
//! entry counts: its sender's `toolsBySender` entry, else its `tools`; an entry without either
//! gives no policy (no fallback to `"*"`). Channel-name keys (`#general`) need the channel's
//! name, which a context does not carry; enterprise team-scoped keys are not modelled.

use super::{ChosenPolicy, PluginInputs, entry_policy, without_provider};
use crate::policy::trace::PolicyWarning;

/// The keys tried for a channel id, in order (OpenClaw's `buildSlackChannelIdCandidates`
/// without a team); with `exact`, the id as given only (the plugin of OpenClaw 2026.8's time,
/// `resolveSlackChannelPolicyEntry` of @openclaw/slack 2026.7).
pub(super) fn candidates(id: &str, exact: bool) -> Vec<String> {
    let id = id.trim();
    if id.is_empty() {
        return Vec::new();
    }
    if exact {
        return vec![id.to_string()];
    }
    let bare = [id.to_string(), id.to_lowercase(), id.to_uppercase()];
    let mut out: Vec<String> = Vec::new();
    for key in bare
        .iter()
        .cloned()
        .chain(bare.iter().map(|b| format!("channel:{b}")))
    {
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (channels, path) = inputs.table("channels")?;
    let key = candidates(group, inputs.exact_keys)
        .into_iter()
        .find(|k| k != "*" && channels.contains_key(k))
        .or_else(|| channels.contains_key("*").then(|| "*".to_string()))?;
    let entry = channels.get(&key)?;
    entry_policy(
        entry,
        &path.key(key.clone()),
        &format!("Slack channel \"{key}\""),
        &without_provider(inputs.ctx),
        warnings,
    )
}
