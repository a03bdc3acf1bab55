//! Upper bounds on every duration clawdeck accepts from a config, a flag or a model.
//!
//! A duration past these is refused where it is read (a located config error, a tool input
//! error); the process supervisor clamps whatever still reaches it, so that no value can overflow
//! a deadline (`Instant + Duration` panics on overflow) or push a run's end out of reach.

use std::time::Duration;

use serde::{Deserialize, Deserializer};

/// Longest timeout of any run: exec, router, plugin tools, hooks (7 days).
pub const MAX_TIMEOUT_SECONDS: u64 = 7 * 24 * 60 * 60;
/// Longest timeout in milliseconds (hooks).
pub(crate) const MAX_TIMEOUT_MS: u64 = MAX_TIMEOUT_SECONDS * 1000;
/// Longest SIGTERM → SIGKILL grace and longest pipe-drain grace (60 s each).
pub const MAX_GRACE_MS: u64 = 60_000;
/// Longest wait for the lane queue's "waited too long" warning and for kept sessions (7 days).
pub(crate) const MAX_WAIT_MS: u64 = MAX_TIMEOUT_MS;

/// The longest timeout as a `Duration`.
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_secs(MAX_TIMEOUT_SECONDS);
/// The longest grace as a `Duration`.
pub(crate) const MAX_GRACE: Duration = Duration::from_millis(MAX_GRACE_MS);

fn at_most<'de, D: Deserializer<'de>>(
    deserializer: D,
    max: u64,
    unit: &str,
) -> Result<u64, D::Error> {
    let value = u64::deserialize(deserializer)?;
    if value > max {
        return Err(serde::de::Error::custom(format!(
            "{value} {unit} is too long: at most {max} {unit}"
        )));
    }
    Ok(value)
}

/// A timeout in seconds, at most `MAX_TIMEOUT_SECONDS`.
pub fn timeout_seconds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    at_most(deserializer, MAX_TIMEOUT_SECONDS, "seconds")
}

/// A timeout in milliseconds, at most `MAX_TIMEOUT_MS`.
pub fn timeout_ms<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    at_most(deserializer, MAX_TIMEOUT_MS, "ms")
}

/// A grace in milliseconds, at most `MAX_GRACE_MS`.
pub(crate) fn grace_ms<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    at_most(deserializer, MAX_GRACE_MS, "ms")
}

/// A wait in milliseconds, at most `MAX_WAIT_MS`.
pub(crate) fn wait_ms<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    at_most(deserializer, MAX_WAIT_MS, "ms")
}
