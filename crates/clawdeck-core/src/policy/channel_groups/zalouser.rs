//! Zalo Personal (`@openclaw/zalouser` 2026.9.4, `resolveZalouserGroupToolPolicy` in
//! `dist/channel-*.js`): `groups` of the account (it replaces the channel's map; no account is
//! `default`), the group id exactly, else `"*"`; that one entry's `tools`. Group-name keys
//! (`dangerouslyAllowNameMatching`) need the inbound group's name, which a context does not
//! carry.

use super::keys::exact;
use super::{ChosenPolicy, Fallback, PluginInputs, entry_tools};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (groups, path) = inputs.table("groups")?;
    let own = exact(groups, group);
    entry_tools(
        groups,
        &path,
        own,
        Fallback::OneEntry,
        "Zalo group",
        warnings,
    )
}
