//! Nextcloud Talk (`@openclaw/nextcloud-talk` 2026.9.5, `resolveNextcloudTalkGroupToolPolicy`
//! in `dist/.setup/channel-*.mjs`): `rooms` of the account (it replaces the channel's map; no
//! account is `default`), the room token exactly, else by slug; that entry's `tools`, else
//! `"*"`'s. No sender is passed and rooms have no `toolsBySender`.

use super::keys::exact_or_slug;
use super::{ChosenPolicy, Fallback, PluginInputs, entry_tools};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (rooms, path) = inputs.table("rooms")?;
    let own = exact_or_slug(rooms, group);
    let label = "Nextcloud Talk room";
    entry_tools(rooms, &path, own, Fallback::WildcardTools, label, warnings)
}
