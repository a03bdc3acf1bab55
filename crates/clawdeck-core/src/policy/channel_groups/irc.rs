//! IRC (`@openclaw/irc` 2026.9.5, `resolveIrcGroupToolPolicy` in `dist/.setup/channel-*.mjs`):
//! `groups` of the account (it replaces the channel's map; no account is `default`), the
//! channel name with its `#` exactly, else ignoring case; that entry's `tools`, else `"*"`'s.
//! The plugin reads no `toolsBySender` (OpenClaw's generic reader after it may).

use super::keys::{WILDCARD, exact_or_case_insensitive};
use super::{ChosenPolicy, PluginInputs, tools_choice};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    if group.trim().is_empty() {
        return None;
    }
    let (groups, path) = inputs.table("groups")?;
    [
        exact_or_case_insensitive(groups, group),
        Some(WILDCARD.to_string()),
    ]
    .into_iter()
    .flatten()
    .find_map(|key| {
        let what = format!("IRC channel \"{key}\"");
        tools_choice(groups.get(&key)?, &path.key(key.clone()), &what, warnings)
    })
}
