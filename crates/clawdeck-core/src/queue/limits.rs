//! Per-lane concurrency limits: defaults, OpenClaw's config keys, clawdeck's overrides.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// clawdeck's `lanes` settings (`clawdeck.json5`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct LaneSettings {
    /// Per-lane max concurrency; unset lanes use OpenClaw's defaults (main 4, subagent 8,
    /// cron 1, others 1) or the OpenClaw config's `agents.defaults.maxConcurrent` etc.
    pub max_concurrent: BTreeMap<String, usize>,
    /// Warn when an entry has waited this long (OpenClaw's warnAfterMs).
    #[serde(deserialize_with = "crate::bounds::wait_ms")]
    pub warn_after_ms: u64,
}

impl Default for LaneSettings {
    fn default() -> Self {
        LaneSettings {
            max_concurrent: BTreeMap::new(),
            warn_after_ms: 2000,
        }
    }
}

pub const LANE_MAIN: &str = "main";
pub const LANE_CRON: &str = "cron";
pub const LANE_SUBAGENT: &str = "subagent";
pub const LANE_NESTED: &str = "nested";

/// OpenClaw's defaults when nothing is configured.
pub const DEFAULT_MAIN_LIMIT: usize = 4;
pub const DEFAULT_SUBAGENT_LIMIT: usize = 8;
pub const DEFAULT_CRON_LIMIT: usize = 1;
/// Every other lane (nested, `session:<key>`, any named lane) starts at 1.
pub const DEFAULT_OTHER_LIMIT: usize = 1;
pub const DEFAULT_WARN_AFTER: Duration = Duration::from_millis(2000);

/// A blank lane name means `main`; names are trimmed.
pub fn normalize_lane(lane: &str) -> &str {
    let lane = lane.trim();
    if lane.is_empty() { LANE_MAIN } else { lane }
}

/// Longest lane name someone may configure (the console shows it in a column).
pub const LANE_NAME_MAX_CHARS: usize = 64;

/// A lane name someone configured (`clawdeck mcp --lane`, `mcp.clients[].lane`): not blank,
/// at most `LANE_NAME_MAX_CHARS` characters, no control characters.
pub fn check_lane_name(lane: &str) -> Result<(), String> {
    if lane.trim().is_empty() {
        return Err("a lane name cannot be blank (leave it out for `main`)".to_string());
    }
    if lane.chars().any(char::is_control) {
        return Err(format!("lane {lane:?} has a control character"));
    }
    if lane.chars().count() > LANE_NAME_MAX_CHARS {
        return Err(format!(
            "lane name is longer than {LANE_NAME_MAX_CHARS} characters"
        ));
    }
    Ok(())
}

/// Limits for every lane plus the wait-warning threshold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneLimits {
    /// Explicit limits by lane; lanes not listed get `default_limit`.
    pub limits: BTreeMap<String, usize>,
    pub default_limit: usize,
    /// An entry waiting longer than this gets a warning (OpenClaw's warnAfterMs).
    pub warn_after: Duration,
    /// Config values that were ignored, each naming its key path.
    pub warnings: Vec<String>,
}

impl Default for LaneLimits {
    fn default() -> Self {
        let mut limits = BTreeMap::new();
        limits.insert(LANE_MAIN.to_string(), DEFAULT_MAIN_LIMIT);
        limits.insert(LANE_SUBAGENT.to_string(), DEFAULT_SUBAGENT_LIMIT);
        limits.insert(LANE_CRON.to_string(), DEFAULT_CRON_LIMIT);
        limits.insert(LANE_NESTED.to_string(), DEFAULT_OTHER_LIMIT);
        LaneLimits {
            limits,
            default_limit: DEFAULT_OTHER_LIMIT,
            warn_after: DEFAULT_WARN_AFTER,
            warnings: Vec::new(),
        }
    }
}

impl LaneLimits {
    /// Defaults, then OpenClaw's keys (`agents.defaults.maxConcurrent` → main,
    /// `agents.defaults.subagents.maxConcurrent` → subagent, `cron.maxConcurrentRuns` → cron),
    /// then clawdeck's `lanes.maxConcurrent` per lane. Every value becomes max(1, floor(n)).
    pub fn from_settings(settings: &LaneSettings, openclaw_raw: &Value) -> Self {
        let mut out = LaneLimits {
            warn_after: Duration::from_millis(settings.warn_after_ms),
            ..LaneLimits::default()
        };
        let openclaw_keys: [(&[&str], &str); 3] = [
            (&["agents", "defaults", "maxConcurrent"], LANE_MAIN),
            (
                &["agents", "defaults", "subagents", "maxConcurrent"],
                LANE_SUBAGENT,
            ),
            (&["cron", "maxConcurrentRuns"], LANE_CRON),
        ];
        for (path, lane) in openclaw_keys {
            let Some(value) = lookup(openclaw_raw, path) else {
                continue;
            };
            match value.as_f64() {
                Some(number) if number.is_finite() => {
                    out.limits.insert(lane.to_string(), clamp_limit(number));
                }
                _ => out.warnings.push(format!(
                    "openclaw config {}: expected a number, got {}; using the default for lane \"{lane}\"",
                    path.join("."),
                    json_kind(value)
                )),
            }
        }
        for (lane, &limit) in &settings.max_concurrent {
            if limit == 0 {
                out.warnings.push(format!(
                    "clawdeck settings lanes.maxConcurrent.{lane}: 0 is raised to 1"
                ));
            }
            out.limits
                .insert(normalize_lane(lane).to_string(), limit.max(1));
        }
        out
    }

    pub fn limit_for(&self, lane: &str) -> usize {
        self.limits
            .get(normalize_lane(lane))
            .copied()
            .unwrap_or(self.default_limit)
            .max(1)
    }
}

/// max(1, floor(n)), saturating.
pub fn clamp_limit(number: f64) -> usize {
    if number.is_nan() || number < 1.0 {
        1
    } else if number >= usize::MAX as f64 {
        usize::MAX
    } else {
        number.floor() as usize
    }
}

fn lookup<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter()
        .try_fold(value, |value, key| value.get(key))
        .filter(|value| !value.is_null())
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_match_openclaw() {
        let limits = LaneLimits::from_settings(&LaneSettings::default(), &json!({}));
        assert_eq!(limits.limit_for("main"), 4);
        assert_eq!(limits.limit_for(""), 4);
        assert_eq!(limits.limit_for("  "), 4);
        assert_eq!(limits.limit_for("subagent"), 8);
        assert_eq!(limits.limit_for("cron"), 1);
        assert_eq!(limits.limit_for("nested"), 1);
        assert_eq!(limits.limit_for("session:abc"), 1);
        assert_eq!(limits.warn_after, Duration::from_millis(2000));
        assert!(limits.warnings.is_empty());
    }

    #[test]
    fn openclaw_keys_then_clawdeck_overrides() {
        let raw = json!({
            "agents": {"defaults": {"maxConcurrent": 2.7, "subagents": {"maxConcurrent": 0}}},
            "cron": {"maxConcurrentRuns": "3"}
        });
        let mut settings = LaneSettings::default();
        settings.max_concurrent.insert("cron".to_string(), 5);
        settings.max_concurrent.insert("batch".to_string(), 0);
        settings.warn_after_ms = 500;
        let limits = LaneLimits::from_settings(&settings, &raw);
        assert_eq!(limits.limit_for("main"), 2);
        assert_eq!(limits.limit_for("subagent"), 1);
        assert_eq!(limits.limit_for("cron"), 5);
        assert_eq!(limits.limit_for("batch"), 1);
        assert_eq!(limits.warn_after, Duration::from_millis(500));
        assert_eq!(limits.warnings.len(), 2);
        assert!(
            limits.warnings[0].contains("cron.maxConcurrentRuns"),
            "{:?}",
            limits.warnings
        );
        assert!(
            limits.warnings[1].contains("lanes.maxConcurrent.batch"),
            "{:?}",
            limits.warnings
        );
    }

    #[test]
    fn clamp_is_max_one_floor() {
        assert_eq!(clamp_limit(-3.0), 1);
        assert_eq!(clamp_limit(0.5), 1);
        assert_eq!(clamp_limit(f64::NAN), 1);
        assert_eq!(clamp_limit(7.9), 7);
    }
}
