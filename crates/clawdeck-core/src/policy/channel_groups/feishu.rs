//! Feishu (`@openclaw/feishu` 2026.9.5, `resolveFeishuGroupToolPolicy` in
//! `dist/.setup/reply-delivery-result-*.mjs`): `channels.feishu.groups` of the channel itself
//! (an account's groups are not read here), the chat id exactly, else ignoring case, else
//! `"*"`; that one entry's `tools` (an entry without them gives no policy; OpenClaw's generic
//! reader then decides). A topic or sender session (`oc_x:topic:t`) has no entry of its own,
//! so `"*"` answers before the chat's entry is asked: OpenClaw's order, kept.

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
    let (groups, path) = inputs.channel_table("groups")?;
    let own = exact_or_case_insensitive(groups, group);
    entry_tools(
        groups,
        &path,
        own,
        Fallback::OneEntry,
        "Feishu group",
        warnings,
    )
}
