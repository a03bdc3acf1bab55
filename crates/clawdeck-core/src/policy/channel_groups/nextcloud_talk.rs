//! Nextcloud Talk (`@openclaw/nextcloud-talk` 2026.9.5, `resolveNextcloudTalkGroupToolPolicy`
//! in `dist/.setup/channel-*.mjs`): `rooms` of the account (it replaces the channel's map; no
//! account is `default`), the room token exactly, else by slug; that entry's `tools`, else
//! `"*"`'s. No sender is passed and rooms have no `toolsBySender`.

use super::keys::{WILDCARD, exact_or_slug};
use super::{ChosenPolicy, PluginInputs, tools_choice};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (rooms, path) = inputs.table("rooms")?;
    [exact_or_slug(rooms, group), Some(WILDCARD.to_string())]
        .into_iter()
        .flatten()
        .find_map(|key| {
            let what = format!("Nextcloud Talk room \"{key}\"");
            tools_choice(rooms.get(&key)?, &path.key(key.clone()), &what, warnings)
        })
}
