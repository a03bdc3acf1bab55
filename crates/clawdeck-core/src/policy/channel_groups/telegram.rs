//! Telegram's own reader (OpenClaw 2026.9.6 `resolveTelegramGroupToolPolicy`, bundled) and
//! the generic one as a plugin calls it for one id (`@openclaw/qqbot`
//! `resolveQQBotGroupToolPolicy`, case-insensitive keys). Both read `channels.<ch>.groups`
//! as OpenClaw merges an account's (`resolveChannelGroups`): the conversation's entry, its
//! sender's `toolsBySender` (with the channel, so `channel:<ch>:<id>` keys match) before its
//! `tools`, then `"*"` the same way.
//!
//! Telegram looks a forum topic up by its chat: `-100123:topic:7` reads `groups."-100123"`
//! (else `"*"`); a literal `"-100123:topic:7"` key is left to the generic reader after it.

use super::keys::{WILDCARD, exact_or_case_insensitive};
use super::{ChosenPolicy, PluginInputs, entry_policy};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let chat = group.split(":topic:").next().unwrap_or(group).trim();
    scoped_entry(inputs, chat, false, "Telegram group", warnings)
}

pub(super) fn resolve_case_insensitive(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    scoped_entry(inputs, group.trim(), true, "group", warnings)
}

/// The conversation's entry, then `"*"`: the first with a sender entry or `tools` decides.
fn scoped_entry(
    inputs: &PluginInputs<'_>,
    id: &str,
    case_insensitive: bool,
    label: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (groups, path) = inputs.merged_groups()?;
    let own = if case_insensitive {
        exact_or_case_insensitive(groups, id)
    } else {
        (!id.is_empty() && id != WILDCARD && groups.contains_key(id)).then(|| id.to_string())
    };
    [own, Some(WILDCARD.to_string())]
        .into_iter()
        .flatten()
        .find_map(|key| {
            let entry = groups.get(&key)?;
            let what = format!("{label} \"{key}\"");
            entry_policy(entry, &path.key(key.clone()), &what, inputs.ctx, warnings)
        })
}
