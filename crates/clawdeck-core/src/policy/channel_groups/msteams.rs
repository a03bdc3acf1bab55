//! Microsoft Teams (`@openclaw/msteams` 2026.9.5, `resolveMSTeamsGroupToolPolicy` in
//! `dist/.setup/channel-*.cjs`): `channels.msteams.teams.<team>`, and in it
//! `channels.<conversation>`. The team is the inbound message's, which a context does not
//! carry, so `teams."*"` is the team here; the conversation is matched exactly, else by slug,
//! else `"*"`. The channel's sender `toolsBySender` entry, else its `tools`, then the team's
//! the same way. When that finds nothing and no conversation entry matched, the teams are
//! scanned (in key order; OpenClaw takes them as written) for the first that lists the conversation (or a `"*"` channel). Teams'
//! senders never match `channel:` keys (no message provider is passed).

use serde_json::{Map, Value};

use super::keys::{WILDCARD, exact_or_slug, or_wildcard};
use super::{ChosenPolicy, PluginInputs, entry_policy, without_provider};
use crate::config::KeyPath;
use crate::policy::trace::PolicyWarning;

/// A team and, when one matched, its conversation entry.
struct Scope<'a> {
    team_key: String,
    team: &'a Value,
    channel: Option<(String, &'a Value)>,
}

pub(super) fn resolve(
    inputs: &PluginInputs<'_>,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let (teams, path) = inputs.channel_table("teams")?;
    let wildcard_team = teams
        .get_key_value(WILDCARD)
        .map(|(k, team)| scope_in(k, team, group));
    if let Some(scope) = &wildcard_team {
        if let Some(chosen) = scope_policy(inputs, scope, &path, warnings) {
            return Some(chosen);
        }
        if scope.channel.is_some() {
            return None;
        }
    }
    let scanned = teams.iter().find_map(|(k, team)| {
        let scope = scope_in(k, team, group);
        scope.channel.is_some().then_some(scope)
    })?;
    scope_policy(inputs, &scanned, &path, warnings)
}

/// `team`'s entry for the conversation `group` (exactly, by slug, else `"*"`).
fn scope_in<'a>(team_key: &str, team: &'a Value, group: &str) -> Scope<'a> {
    let channels: Option<&'a Map<String, Value>> = team.get("channels").and_then(Value::as_object);
    let channel = channels.and_then(|channels| {
        let key = or_wildcard(channels, exact_or_slug(channels, group))?;
        let entry = channels.get(&key)?;
        Some((key, entry))
    });
    Scope {
        team_key: team_key.to_string(),
        team,
        channel,
    }
}

/// The conversation's policy, then the team's.
fn scope_policy(
    inputs: &PluginInputs<'_>,
    scope: &Scope<'_>,
    teams_path: &KeyPath,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<ChosenPolicy> {
    let sender_ctx = without_provider(inputs.ctx);
    let team_path = teams_path.key(scope.team_key.clone());
    let team_what = format!("Teams team \"{}\"", scope.team_key);
    if let Some((key, entry)) = &scope.channel {
        let what = format!("{team_what} channel \"{key}\"");
        let entry_path = team_path.key("channels").key(key.clone());
        if let Some(chosen) = entry_policy(entry, &entry_path, &what, &sender_ctx, warnings) {
            return Some(chosen);
        }
    }
    entry_policy(scope.team, &team_path, &team_what, &sender_ctx, warnings)
}
