//! IRC (`@openclaw/irc` 2026.9.5, `resolveIrcGroupToolPolicy` in `dist/.setup/channel-*.mjs`):
//! `groups` of the account (it replaces the channel's map; no account is `default`), the
//! channel name with its `#` exactly, else ignoring case; that entry's `tools`, else `"*"`'s.
//! The plugin reads no `toolsBySender` (OpenClaw's generic reader after it may).

use super::keys::exact_or_case_insensitive;
use super::{ChosenPolicy, Fallback, PluginInputs, entry_tools};
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
    let own = exact_or_case_insensitive(groups, group);
    entry_tools(
        groups,
        &path,
        own,
        Fallback::WildcardTools,
        "IRC channel",
        warnings,
    )
}
