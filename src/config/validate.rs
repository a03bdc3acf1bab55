//! Values in `clawdeck.json5` that parse but mean nothing (`router.output: "weird"`, an empty
//! `exec.shell`, a minimum above the maximum) are errors with their position, like type errors.

use super::error::{ConfigError, ConfigErrorKind};
use super::keypath::KeyPath;
use super::locate::locate_path;
use super::settings::ClawdeckSettings;

fn error_at(text: &str, origin: &str, dotted: &str, message: String) -> ConfigError {
    let path = KeyPath::parse_dotted(dotted);
    let position = locate_path(text, &path);
    ConfigError {
        kind: ConfigErrorKind::Type,
        file: origin.to_string(),
        line: position.map(|p| p.0),
        column: position.map(|p| p.1),
        message,
        key_path: Some(dotted.to_string()),
    }
}

/// The first meaningless value in `settings` (parsed from `text`), located.
pub fn check_settings(
    settings: &ClawdeckSettings,
    text: &str,
    origin: &str,
) -> Result<(), ConfigError> {
    let router = &settings.router;
    let lower = |s: &str| s.trim().to_ascii_lowercase();
    if !["raw", "clean"].contains(&lower(&router.output).as_str()) {
        return Err(error_at(
            text,
            origin,
            "router.output",
            format!(
                "unknown output \"{}\": expected \"raw\" or \"clean\"",
                router.output
            ),
        ));
    }
    if !["cli", "http", "gateway"].contains(&lower(&router.transport).as_str()) {
        return Err(error_at(
            text,
            origin,
            "router.transport",
            format!(
                "unknown transport \"{}\": expected \"cli\", \"http\" or \"gateway\"",
                router.transport
            ),
        ));
    }
    if router.max_timeout_seconds != 0 && router.min_timeout_seconds > router.max_timeout_seconds {
        return Err(error_at(
            text,
            origin,
            "router.minTimeoutSeconds",
            format!(
                "minTimeoutSeconds {} is above maxTimeoutSeconds {}",
                router.min_timeout_seconds, router.max_timeout_seconds
            ),
        ));
    }
    if settings
        .exec
        .shell
        .first()
        .is_none_or(|program| program.trim().is_empty())
    {
        return Err(error_at(
            text,
            origin,
            "exec.shell",
            "exec.shell needs a program (e.g. [\"sh\", \"-c\"])".to_string(),
        ));
    }
    Ok(())
}
