//! Discord (`@openclaw/discord` 2026.9.6, `resolveDiscordPolicyScope`): the guild is the
//! inbound message's (`guilds.<guild id or slug>`), else `guilds."*"`; a context carries no
//! guild, so `"*"` is the guild here. In it, `channels.<channel id>` (exact; channel-name keys
//! need the channel's name). The channel entry's sender `toolsBySender` entry, else its
//! `tools`; then the guild's the same way; no policy past the guild. The guilds are
//! `accounts.<account>.guilds` (the account defaulting to `default`) when present, else
//! `channels.discord.guilds`.

use super::{ChosenPolicy, PluginInputs, entry_policy, without_provider};
use crate::policy::trace::PolicyWarning;

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let account = inputs.ctx.account.as_deref().unwrap_or("default");
    let (guilds, path) = inputs
        .account_config(Some(account))
        .and_then(|(v, p)| Some((v.get("guilds")?.as_object()?, p.key("guilds"))))
        .or_else(|| {
            let (channel, path) = inputs.channel_config()?;
            Some((channel.get("guilds")?.as_object()?, path.key("guilds")))
        })?;
    let guild = guilds.get("*")?;
    let guild_path = path.key("*");
    let sender_ctx = without_provider(inputs.ctx);
    let channel_entry = guild
        .get("channels")
        .and_then(|c| c.as_object())
        .and_then(|c| c.get(group.trim()).map(|e| (e, group.trim().to_string())));
    if let Some((entry, key)) = channel_entry {
        let entry_path = guild_path.key("channels").key(key.clone());
        let what = format!("Discord guild \"*\" channel \"{key}\"");
        if let Some(chosen) = entry_policy(entry, &entry_path, &what, &sender_ctx, warnings) {
            return Some(chosen);
        }
    }
    entry_policy(
        guild,
        &guild_path,
        "Discord guild \"*\"",
        &sender_ctx,
        warnings,
    )
}
