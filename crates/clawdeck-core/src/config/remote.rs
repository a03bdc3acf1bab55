//! A gateway's own config, fetched with `config.get` (`--remote-config`): answered exactly as
//! the same file read with `--config`, with secrets redacted before anything else sees it.

use super::{
    ConfigError, ConfigSource, LoadedConfig, VersionProbe, build, parse_settings, profiles,
    read_text, redact, select_pack, user_settings_path,
};
use crate::semantics::RequestedVersion;

/// Where a remote config came from, and its (redacted) text for positions in findings.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteSource {
    /// The gateway's URL as clawdeck names it.
    pub gateway: String,
    /// The file's path on the gateway's host (`config.get` `path`).
    pub path: String,
    /// The text answered, secrets replaced by [`redact::REDACTED`].
    pub text: String,
}

/// Loads config text a gateway returned for `path` on its host. The text is redacted first
/// (OpenClaw redacts too; this covers a gateway that did not). clawdeck's own settings are the
/// operator's (`user_settings_path`): the gateway's host has none for us. `requested` is the
/// OpenClaw version the operator asked for, if any.
pub fn load_remote(
    text: &str,
    gateway: &str,
    path: &str,
    requested: Option<&RequestedVersion>,
) -> Result<LoadedConfig, ConfigError> {
    let origin = if path.is_empty() { gateway } else { path };
    let named = format!("{origin} on gateway {gateway} (config.get)");
    // Bounded before anything parses it: a gateway's answer is as untrusted as a file.
    if text.len() as u64 > read_text::MAX_CONFIG_BYTES {
        return Err(ConfigError::io(
            &named,
            format!(
                "{} bytes is too large for a config (at most {})",
                text.len(),
                read_text::MAX_CONFIG_BYTES
            ),
        ));
    }
    super::parse::check_depth(text, &named)?;
    let parsed: serde_json::Value = json5::from_str(text).unwrap_or_default();
    let text = redact::redact_text(text, &parsed);
    let mut loaded = build(&text, origin, ConfigSource::Gateway, None)?;
    if let Some(settings_path) = user_settings_path().filter(|p| p.is_file()) {
        let settings_origin = settings_path.display().to_string();
        let settings_text = read_text::read_config_text(&settings_path)
            .map_err(|err| ConfigError::io(&settings_origin, err))?;
        loaded.settings = parse_settings(&settings_text, &settings_origin)?;
        loaded.settings_path = Some(settings_path);
    }
    loaded.remote = Some(RemoteSource {
        gateway: gateway.to_string(),
        path: path.to_string(),
        text: text.clone(),
    });
    loaded.requested = requested.cloned();
    select_pack(&mut loaded, VersionProbe::Wait)?;
    profiles::check_profiles(&loaded, Some(&text))?;
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_config_answers_with_its_secrets_redacted_and_names_the_gateway() {
        let text = r#"{ gateway: { auth: { token: "tok-abc-123" } }, tools: { profile: "coding", deny: ["browser"] } }"#;
        let loaded = load_remote(text, "ws://127.0.0.1:1", "/srv/openclaw.json", None).unwrap();
        assert_eq!(loaded.source, ConfigSource::Gateway);
        assert_eq!(loaded.origin, "/srv/openclaw.json");
        assert_eq!(
            loaded.describe(),
            "/srv/openclaw.json on gateway ws://127.0.0.1:1 (config.get)"
        );
        let remote = loaded.remote.as_ref().unwrap();
        assert!(!remote.text.contains("tok-abc-123"), "{}", remote.text);
        assert_eq!(loaded.raw["gateway"]["auth"]["token"], redact::REDACTED);
        assert_eq!(loaded.raw["tools"]["profile"], "coding");
        assert_eq!(
            crate::lint::config_text(&loaded).as_deref(),
            Some(remote.text.as_str())
        );
    }

    #[test]
    fn a_remote_config_nested_past_the_limit_is_refused_before_it_is_parsed() {
        let deep = format!("{{ a: {}1{} }}", "[".repeat(200_000), "]".repeat(200_000));
        let err = load_remote(&deep, "ws://127.0.0.1:1", "/srv/openclaw.json", None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("nested deeper than 128 levels"), "{text}");
        assert!(
            text.contains("/srv/openclaw.json on gateway ws://127.0.0.1:1"),
            "{text}"
        );
        let huge = format!("{{ a: \"{}\" }}", "x".repeat(17 * 1024 * 1024));
        let err = load_remote(&huge, "ws://127.0.0.1:1", "", None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("too large"), "{err}");
    }
}
