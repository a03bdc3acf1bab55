//! Zalo Personal (`@openclaw/zalouser` 2026.9.4, `resolveZalouserGroupToolPolicy` in
//! `dist/channel-*.js`): `groups` of the account (it replaces the channel's map; no account is
//! `default`), the group id exactly, else `"*"`; that one entry's `tools`. Group-name keys
//! (`dangerouslyAllowNameMatching`) need the inbound group's name, which a context does not
//! carry.

use super::keys::{WILDCARD, or_wildcard};
use super::{ChosenPolicy, PluginInputs, tools_choice};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let id = group.trim();
    let (groups, path) = inputs.table("groups")?;
    let own = (!id.is_empty() && id != WILDCARD && groups.contains_key(id)).then(|| id.to_string());
    let key = or_wildcard(groups, own)?;
    let what = format!("Zalo group \"{key}\"");
    tools_choice(groups.get(&key)?, &path.key(key.clone()), &what, warnings)
}
