//! A session row as the roster shows it (from `sessions.list`, `sessions.subscribe` and
//! `sessions.changed`): agent, key, kind, running or queued, last activity.

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRow {
    pub key: String,
    pub agent: String,
    pub kind: String,
    pub running: bool,
    pub queued: bool,
    /// Milliseconds since the epoch.
    pub last_activity_ms: Option<u64>,
    /// When the current (or last) run started, ms since the epoch (`startedAt`).
    pub started_at_ms: Option<u64>,
    /// The runs in progress, when the gateway lists them (`activeRunIds`).
    pub run_ids: Vec<String>,
    /// The session's permission mode (`permissionMode`: read-only, guarded, workspace, full),
    /// when it has one: it decides its exec calls.
    pub permission_mode: Option<String>,
    /// The session's elevated level (`elevatedLevel`: off, on, ask, full), when it has one.
    pub elevated_level: Option<String>,
}

/// Whether `text` can be a session setting's value (`guarded`, `read-only`, `full`): a short
/// word of letters, digits and `-`, nothing a terminal would act on.
pub fn is_setting_word(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 32
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

impl SessionRow {
    pub fn from_value(row: &Value) -> SessionRow {
        let text = |k: &str| row.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let key = text("key");
        // Keys look like `agent:<id>:<rest>`; the row's own agentId wins when present.
        let agent = row
            .get("agentId")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                key.strip_prefix("agent:")
                    .and_then(|r| r.split(':').next())
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let last_activity_ms = ["lastActivityAt", "lastInteractionAt", "updatedAt"]
            .iter()
            .find_map(|k| row.get(*k).and_then(Value::as_u64));
        let run_ids = row
            .get("activeRunIds")
            .and_then(Value::as_array)
            .map(|ids| {
                ids.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        // Short words only: a row's text never reaches the screen unchecked.
        let word = |k: &str| {
            row.get(k)
                .and_then(Value::as_str)
                .filter(|w| is_setting_word(w))
                .map(str::to_string)
        };
        SessionRow {
            permission_mode: word("permissionMode"),
            elevated_level: word("elevatedLevel"),
            started_at_ms: row.get("startedAt").and_then(Value::as_u64),
            run_ids,
            kind: text("kind"),
            running: row
                .get("hasActiveRun")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            queued: row
                .get("queuedCount")
                .and_then(Value::as_u64)
                .is_some_and(|n| n > 0),
            key,
            agent,
            last_activity_ms,
        }
    }

    pub fn state(&self) -> &'static str {
        if self.running {
            "running"
        } else if self.queued {
            "queued"
        } else {
            "idle"
        }
    }

    /// `YYYY-MM-DD HH:MM:SS` UTC, or `-`.
    pub fn last_activity_text(&self) -> String {
        self.last_activity_ms.map_or("-".to_string(), format_utc_ms)
    }
}

/// Formats epoch milliseconds as UTC without pulling in a date crate.
pub(crate) fn format_utc_ms(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn agent_comes_from_the_key_when_the_row_has_none() {
        let row = SessionRow::from_value(
            &json!({"key": "agent:ops:main", "kind": "direct", "hasActiveRun": true, "updatedAt": 0}),
        );
        assert_eq!(row.agent, "ops");
        assert_eq!(row.state(), "running");
        assert_eq!(row.last_activity_text(), "1970-01-01 00:00:00");
    }

    #[test]
    fn utc_dates_are_right_across_leap_years() {
        assert_eq!(format_utc_ms(951_782_400_000), "2000-02-29 00:00:00");
        assert_eq!(format_utc_ms(1_795_000_000_000), "2026-11-18 11:06:40");
    }
}
