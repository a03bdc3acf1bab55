//! Values in `clawdeck.json5` that parse but mean nothing (`router.output: "weird"`, an empty
//! `exec.shell`, a minimum above the maximum) are errors with their position, like type errors.

use super::error::{ConfigError, ConfigErrorKind};
use super::keypath::KeyPath;
use super::keys::{ACTION_NAMES, parse_key};
use super::locate::locate_path;
use super::settings::ClawdeckSettings;

fn error_at(text: &str, origin: &str, dotted: &str, message: String) -> ConfigError {
    error_at_path(text, origin, &KeyPath::parse_dotted(dotted), message)
}

fn error_at_path(text: &str, origin: &str, path: &KeyPath, message: String) -> ConfigError {
    let position = locate_path(text, path);
    ConfigError {
        kind: ConfigErrorKind::Type,
        file: origin.to_string(),
        line: position.map(|p| p.0),
        column: position.map(|p| p.1),
        message,
        key_path: Some(path.to_string()),
        further: Box::default(),
    }
}

/// `keys` overrides: every action must be one the console has and every key must parse.
fn check_keys(settings: &ClawdeckSettings, text: &str, origin: &str) -> Result<(), ConfigError> {
    let root = KeyPath::root().key("keys");
    for (action, keys) in &settings.keys {
        let at = root.key(action.as_str());
        if !ACTION_NAMES.contains(&action.as_str()) {
            return Err(error_at_path(
                text,
                origin,
                &at,
                format!(
                    "unknown console action \"{action}\" (the actions are listed in docs/console.md, Keys, \
                     and under `?` in the console)"
                ),
            ));
        }
        for (i, key) in keys.iter().enumerate() {
            if let Err(problem) = parse_key(key) {
                return Err(error_at_path(text, origin, &at.index(i), problem));
            }
        }
    }
    Ok(())
}

/// The first meaningless value in `settings` (parsed from `text`), located.
pub(crate) fn check_settings(
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
    check_mcp_lanes(settings, text, origin)?;
    check_gateway_names(settings, text, origin)?;
    check_keys(settings, text, origin)
}

/// `gateways[i].name`: unique, since answers, aborts and messages reach a gateway by its name
/// (a name left out is the URL's host, so two entries for one host need names).
fn check_gateway_names(
    settings: &ClawdeckSettings,
    text: &str,
    origin: &str,
) -> Result<(), ConfigError> {
    let gateways = &settings.gateways;
    for (later, entry) in gateways.iter().enumerate() {
        if let Some(first) = gateways[..later].iter().position(|g| g.name == entry.name) {
            let at = KeyPath::root().key("gateways").index(later);
            let problem = format!(
                "gateways[{first}] and gateways[{later}] are both named {:?}: each gateway \
                 needs its own name (answers and aborts go to a gateway by name; a missing name \
                 is the URL's host)",
                entry.name
            );
            return Err(error_at_path(text, origin, &at, problem));
        }
    }
    Ok(())
}

/// `mcp.clients[i].lane`: a name the lane queue can show.
fn check_mcp_lanes(
    settings: &ClawdeckSettings,
    text: &str,
    origin: &str,
) -> Result<(), ConfigError> {
    for (i, client) in settings.mcp.clients.iter().enumerate() {
        if let Some(lane) = &client.lane
            && let Err(problem) = crate::queue::check_lane_name(lane)
        {
            let at = KeyPath::root()
                .key("mcp")
                .key("clients")
                .index(i)
                .key("lane");
            return Err(error_at_path(text, origin, &at, problem));
        }
    }
    Ok(())
}
