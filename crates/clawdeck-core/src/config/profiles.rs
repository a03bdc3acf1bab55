//! Tool profiles the config names. From OpenClaw 2026.9 on a `profile` key takes one of a
//! fixed set of values (the pack's `profileValues`) and `openclaw config validate` refuses any
//! other, so clawdeck refuses the config too, naming the key and the values. Under a pack
//! without that list (the seed) an unknown profile is ignored, and the policy says so.

use std::collections::BTreeMap;

use super::error::{ConfigError, ConfigErrorKind};
use super::keypath::KeyPath;
use super::locate::locate_path;
use super::openclaw::ProviderPolicyConfig;
use super::{ConfigSource, DEMO_CONFIG, LoadedConfig};

/// Every `profile` the config sets, with its key path: `tools.profile`,
/// `tools.byProvider.<p>.profile`, then each agent's own.
fn configured_profiles(loaded: &LoadedConfig) -> Vec<(KeyPath, &str)> {
    let mut out = Vec::new();
    let tools = &loaded.openclaw.tools;
    let global = KeyPath::root().key("tools");
    if let Some(profile) = &tools.profile {
        out.push((global.key("profile"), profile.as_str()));
    }
    push_by_provider(&global, &tools.by_provider, &mut out);
    for agent in &loaded.agents {
        if let Some(own) = &agent.entry.tools {
            let base = agent.path.key("tools");
            if let Some(profile) = &own.profile {
                out.push((base.key("profile"), profile.as_str()));
            }
            push_by_provider(&base, &own.by_provider, &mut out);
        }
    }
    out
}

fn push_by_provider<'a>(
    base: &KeyPath,
    by_provider: &'a BTreeMap<String, ProviderPolicyConfig>,
    out: &mut Vec<(KeyPath, &'a str)>,
) {
    for (key, policy) in by_provider {
        if let Some(profile) = &policy.profile {
            let path = base.key("byProvider").key(key.clone()).key("profile");
            out.push((path, profile.as_str()));
        }
    }
}

/// The first profile the pack's OpenClaw refuses, as a config error at its key; `text` is the
/// config's text when the caller has it (else it is read again, only to place the error).
pub(crate) fn check_profiles(loaded: &LoadedConfig, text: Option<&str>) -> Result<(), ConfigError> {
    let Some(allowed) = &loaded.semantics.profile_values else {
        return Ok(());
    };
    let Some((path, profile)) = configured_profiles(loaded)
        .into_iter()
        .find(|(_, profile)| !allowed.iter().any(|a| a == profile))
    else {
        return Ok(());
    };
    let listed: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
    let message = format!(
        "unknown tool profile \"{profile}\": OpenClaw {} refuses this config (allowed: {})",
        loaded.semantics.id,
        listed.join(", ")
    );
    let text = text.map(str::to_string).or_else(|| config_text(loaded));
    let position = text.as_deref().and_then(|t| locate_path(t, &path));
    Err(ConfigError {
        kind: ConfigErrorKind::Type,
        file: loaded.origin.clone(),
        line: position.map(|p| p.0),
        column: position.map(|p| p.1),
        message,
        key_path: Some(path.to_string()),
        further: Box::default(),
    })
}

pub(super) fn config_text(loaded: &LoadedConfig) -> Option<String> {
    match loaded.source {
        ConfigSource::EmbeddedDemo => Some(DEMO_CONFIG.to_string()),
        _ => loaded
            .path
            .as_deref()
            .and_then(|p| super::read_text::read_config_text(p).ok()),
    }
}
