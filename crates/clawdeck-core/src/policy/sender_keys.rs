//! Which `toolsBySender` entry names the context's sender: `channel:<ch>:<id>`, `id:`, `e164:`,
//! `username:`, `name:` and `*` keys, tried in OpenClaw's order.

use std::collections::BTreeMap;

use super::layer::LayerId;
use super::trace::PolicyWarning;
use crate::config::KeyPath;
use crate::config::openclaw::ToolPolicyConfig;
use crate::context::PolicyContext;

/// A parsed `toolsBySender` key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SenderKey {
    /// `channel:<channel>:<id>`: that id on that channel only (matched first).
    Channel(String, String),
    Id(String),
    E164(String),
    Username(String),
    Name(String),
    Any,
}

/// Parses a sender key; the flag says it was untyped (deprecated: treated as an id).
pub(crate) fn parse_sender_key(key: &str) -> (SenderKey, bool) {
    let trimmed = key.trim();
    if trimmed == "*" {
        return (SenderKey::Any, false);
    }
    let lower = trimmed.to_lowercase();
    if let Some(v) = lower.strip_prefix("channel:") {
        // Without a channel or an id the key names nobody (OpenClaw drops it).
        let (channel, id) = v.split_once(':').unwrap_or((v, ""));
        (
            SenderKey::Channel(channel.trim().to_string(), id.trim().to_string()),
            false,
        )
    } else if let Some(v) = lower.strip_prefix("id:") {
        (SenderKey::Id(v.trim().to_string()), false)
    } else if let Some(v) = lower.strip_prefix("e164:") {
        (SenderKey::E164(v.trim().to_string()), false)
    } else if let Some(v) = lower.strip_prefix("username:") {
        (
            SenderKey::Username(v.trim().trim_start_matches('@').to_string()),
            false,
        )
    } else if let Some(v) = lower.strip_prefix("name:") {
        (SenderKey::Name(v.trim().to_string()), false)
    } else {
        (SenderKey::Id(lower), true)
    }
}

/// Finds the `toolsBySender` entry for the context's sender: channel + id → id → e164 →
/// username → name → `*`.
pub(crate) fn match_sender<'a>(
    by_sender: &'a BTreeMap<String, ToolPolicyConfig>,
    ctx: &PolicyContext,
    base: &KeyPath,
    layer: LayerId,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<(String, &'a ToolPolicyConfig)> {
    if ctx.sender_rules_off {
        return None;
    }
    let parsed: Vec<(&String, SenderKey, &ToolPolicyConfig)> = by_sender
        .iter()
        .map(|(key, policy)| {
            let (sender, untyped) = parse_sender_key(key);
            if untyped {
                warnings.push(PolicyWarning {
                    layer: Some(layer),
                    message: format!(
                        "untyped sender key \"{key}\" is treated as a sender id (deprecated; write \"id:{}\")",
                        key.trim()
                    ),
                    config_path: Some(base.key(key.clone()).to_string()),
                });
            }
            (key, sender, policy)
        })
        .collect();
    let norm = |v: &Option<String>| {
        v.as_deref()
            .map(|s| s.trim().to_lowercase())
            .filter(|s| !s.is_empty())
    };
    let id = norm(&ctx.sender_id);
    let e164 = norm(&ctx.sender_e164);
    let username = norm(&ctx.sender_username).map(|u| u.trim_start_matches('@').to_string());
    let name = norm(&ctx.sender_name);
    let channel = norm(&ctx.channel);
    let find = |pred: &dyn Fn(&SenderKey) -> bool| parsed.iter().find(|(_, s, _)| pred(s));
    let on_channel = match (&channel, &id) {
        (Some(c), Some(v)) => find(
            &|s| matches!(s, SenderKey::Channel(kc, kv) if kc == c && kv == v && !kv.is_empty()),
        ),
        _ => None,
    };
    let hit = on_channel
        .or_else(|| {
            id.as_ref()
                .and_then(|v| find(&|s| matches!(s, SenderKey::Id(x) if x == v)))
        })
        .or_else(|| {
            e164.as_ref()
                .and_then(|v| find(&|s| matches!(s, SenderKey::E164(x) if x == v)))
        })
        .or_else(|| {
            username
                .as_ref()
                .and_then(|v| find(&|s| matches!(s, SenderKey::Username(x) if x == v)))
        })
        .or_else(|| {
            name.as_ref()
                .and_then(|v| find(&|s| matches!(s, SenderKey::Name(x) if x == v)))
        })
        .or_else(|| find(&|s| matches!(s, SenderKey::Any)));
    hit.map(|(key, _, policy)| ((*key).clone(), *policy))
}
