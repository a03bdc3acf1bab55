//! A channel configured on a machine whose OpenClaw lacks its plugin: from the 2026.9 series
//! most channels ship as npm plugins (`@openclaw/discord`), and without one OpenClaw loads
//! nothing for the channel, so no turn gets its message actions
//! (discord-configured-without-its-plugin). Answered only where clawdeck sees the install.

use super::{Finding, FindingKind, Severity};
use crate::config::LoadedConfig;

/// The channels the pack describes (message forms) that `cfg` configures with an account,
/// but whose plugin the machine's OpenClaw does not discover.
pub(super) fn missing_channel_plugins(cfg: &LoadedConfig, findings: &mut Vec<Finding>) {
    let Some(installed) = cfg.installed_plugins.as_deref() else {
        return;
    };
    let Some(channels) = cfg.raw.get("channels").and_then(|c| c.as_object()) else {
        return;
    };
    let described = |channel: &str| {
        cfg.semantics
            .channel_variants
            .values()
            .flatten()
            .any(|v| v.when_channel.as_deref() == Some(channel))
    };
    let env = crate::semantics::set_credentials(&cfg.raw, cfg.credentials(None).dotenv);
    for channel in channels.keys() {
        let id = channel.trim().to_ascii_lowercase();
        if installed.contains(&id) || !described(&id) {
            continue;
        }
        let refs = crate::semantics::SecretRefs::Resolved;
        if !crate::semantics::channel_has_account(&cfg.raw, channel, &env, refs) {
            continue;
        }
        findings.push(Finding::new(
            Severity::Warning,
            FindingKind::ChannelPluginMissing,
            format!(
                "channels.{channel} is configured, but this machine's OpenClaw has no \"{id}\" \
                 plugin: it loads nothing for the channel, and no turn gets its message \
                 actions. Install it with: openclaw plugins install @openclaw/{id}"
            ),
            Some(format!("channels.{channel}")),
        ));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn findings(text: &str, installed: &[&str]) -> Vec<Finding> {
        let mut cfg = crate::config::load_from_str(text, "openclaw.json5").unwrap();
        cfg.installed_plugins = Some(std::sync::Arc::new(
            installed.iter().map(|s| s.to_string()).collect(),
        ));
        let mut found = Vec::new();
        missing_channel_plugins(&cfg, &mut found);
        found
    }

    #[test]
    fn a_configured_channel_without_its_plugin_is_named_with_the_install_command() {
        let text = r#"{ channels: { discord: { token: "t" }, telegram: { botToken: "1:a" } } }"#;
        let found = findings(text, &["telegram"]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].kind, FindingKind::ChannelPluginMissing);
        assert_eq!(found[0].config_path.as_deref(), Some("channels.discord"));
        assert!(
            found[0]
                .message
                .contains("openclaw plugins install @openclaw/discord")
        );
        // Installed, or not configured (no token): nothing to say.
        assert!(findings(text, &["telegram", "discord"]).is_empty());
        assert!(findings(r#"{ channels: { discord: {} } }"#, &[]).is_empty());
    }

    #[test]
    fn without_a_view_of_the_install_nothing_is_said() {
        let cfg = crate::config::load_from_str(r#"{ channels: { discord: { token: "t" } } }"#, "x")
            .unwrap();
        let mut found = Vec::new();
        missing_channel_plugins(&cfg, &mut found);
        assert!(found.is_empty());
    }
}
