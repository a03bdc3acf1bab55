//! Telegram's own reader (OpenClaw 2026.9.6 `resolveTelegramGroupToolPolicy`, bundled):
//! `channels.telegram.groups` as OpenClaw merges an account's (`resolveChannelGroups`), a forum
//! topic looked up by its chat (`-100123:topic:7` reads `groups."-100123"`); the entry's sender
//! `toolsBySender` entry (with the channel, so `channel:telegram:<id>` keys match) before its
//! `tools`, then `"*"` the same way. A literal `"-100123:topic:7"` key is left to the generic
//! reader after it.

use super::keys::{WILDCARD, exact};
use super::{ChosenPolicy, PluginInputs, entry_policy};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let chat = group.split(":topic:").next().unwrap_or(group).trim();
    let (groups, path) = inputs.merged_groups()?;
    let own = exact(groups, chat);
    [own, Some(WILDCARD.to_string())]
        .into_iter()
        .flatten()
        .find_map(|key| {
            let entry = groups.get(&key)?;
            let what = format!("Telegram group \"{key}\"");
            entry_policy(entry, &path.key(key.clone()), &what, inputs.ctx, warnings)
        })
}
