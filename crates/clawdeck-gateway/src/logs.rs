//! The gateway's own log, read with `logs.tail` (OpenClaw docs: gateway/protocol/
//! rpc-system-and-channels.md; `operator.read`): each answer gives the newest lines (at most
//! `limit`, `maxBytes`) and a byte `cursor`; passing the cursor back returns only what was
//! written since, so following the log is polling with the last cursor. `reset: true` means the
//! cursor no longer fits (the file rolled or too much was written): the lines are then the
//! newest tail and `skippedBytes` says what was passed over. Every line is read into fields and
//! sanitized here, before anything shows it. Memory is bounded (`LogBuffer`).

use std::collections::VecDeque;

use serde_json::{Value, json};

use super::client::GatewayClient;
use super::error::GatewayError;

pub const LOGS_TAIL: &str = "logs.tail";
/// Lines asked for per poll (the gateway's default; its maximum is 5,000).
pub const TAIL_LIMIT: u64 = 500;
/// Bytes asked for per poll (the gateway's default is 250,000; its maximum 1,000,000).
pub const TAIL_MAX_BYTES: u64 = 250_000;
/// Lines a log pane keeps.
pub const KEPT_LINES: usize = 2_000;
/// Characters of one message kept.
const KEPT_MESSAGE: usize = 2_000;

/// One log line, read and sanitized.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LogLine {
    /// `HH:MM:SS` (UTC as the gateway wrote it), or empty.
    pub time: String,
    /// Lowercase (`info`, `warn`, `error`, `debug`), or empty.
    pub level: String,
    pub subsystem: String,
    pub message: String,
}

impl LogLine {
    /// Reads one line of the gateway's JSON log; a line that is not JSON is its own message.
    pub fn parse(raw: &str) -> LogLine {
        let Ok(value) = serde_json::from_str::<Value>(raw) else {
            return LogLine::plain_text(raw);
        };
        if !value.is_object() {
            return LogLine::plain_text(raw);
        }
        let meta = value.get("_meta");
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
        let time = text(
            value
                .get("time")
                .or_else(|| meta.and_then(|m| m.get("date"))),
        );
        let level = text(
            meta.and_then(|m| m.get("logLevelName"))
                .or(value.get("level")),
        );
        // The subsystem is JSON inside the logger's name (`{"subsystem":"gateway/ws"}`).
        let subsystem = meta
            .and_then(|m| m.get("name"))
            .or_else(|| value.get("0"))
            .and_then(Value::as_str)
            .and_then(|name| serde_json::from_str::<Value>(name).ok())
            .and_then(|name| {
                name.get("subsystem")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let message = match value.get("message").and_then(Value::as_str) {
            Some(m) => m.to_string(),
            None => positional_message(&value),
        };
        LogLine {
            time: clock_of(&time),
            level: clean(&level).to_lowercase(),
            subsystem: clean(&subsystem),
            message: clean(&message),
        }
    }

    fn plain_text(raw: &str) -> LogLine {
        LogLine {
            time: String::new(),
            level: String::new(),
            subsystem: String::new(),
            message: clean(raw),
        }
    }

    /// `HH:MM:SS LEVEL [subsystem] message`, one line.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.message.len() + 32);
        if !self.time.is_empty() {
            out.push_str(&self.time);
            out.push(' ');
        }
        if !self.level.is_empty() {
            out.push_str(&format!("{:<5} ", self.level.to_uppercase()));
        }
        if !self.subsystem.is_empty() {
            out.push_str(&format!("[{}] ", self.subsystem));
        }
        out.push_str(&self.message);
        out
    }

    /// Whether the line contains `filter` (any case); an empty filter matches every line.
    pub fn matches(&self, filter: &str) -> bool {
        filter.is_empty() || self.text().to_lowercase().contains(&filter.to_lowercase())
    }
}

/// The logger's positional arguments (`"1"`, `"2"`, ...) when there is no `message`.
fn positional_message(value: &Value) -> String {
    let mut parts: Vec<(u64, String)> = value
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let n = k.parse::<u64>().ok().filter(|n| *n > 0)?;
            Some((n, v.as_str().map_or_else(|| v.to_string(), str::to_string)))
        })
        .collect();
    parts.sort();
    parts
        .into_iter()
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `2026-11-25T03:47:32.988+00:00` → `03:47:32`.
fn clock_of(time: &str) -> String {
    time.get(11..19)
        .filter(|t| t.as_bytes().get(2) == Some(&b':'))
        .map(clean)
        .unwrap_or_default()
}

/// Sanitized (no control sequences), on one line, bounded.
fn clean(text: &str) -> String {
    let plain = crate::sanitize::plain(text);
    let one_line: String = plain
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .take(KEPT_MESSAGE)
        .collect();
    one_line.trim_end().to_string()
}

/// One `logs.tail` answer, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TailRead {
    pub lines: Vec<LogLine>,
    /// The cursor no longer fitted: these lines are the newest tail, not a continuation.
    pub reset: bool,
    /// Bytes passed over after a reset.
    pub skipped_bytes: u64,
    /// The gateway's log file (sanitized).
    pub file: String,
}

/// Where the next poll starts.
#[derive(Debug, Clone, Default)]
pub struct LogCursor {
    cursor: Option<u64>,
}

impl LogCursor {
    pub fn params(&self) -> Value {
        let mut params = json!({"limit": TAIL_LIMIT, "maxBytes": TAIL_MAX_BYTES});
        if let Some(cursor) = self.cursor {
            params["cursor"] = json!(cursor);
        }
        params
    }

    /// Reads an answer and moves the cursor past it.
    pub fn read(&mut self, payload: &Value) -> TailRead {
        if let Some(cursor) = payload.get("cursor").and_then(Value::as_u64) {
            self.cursor = Some(cursor);
        }
        TailRead {
            lines: payload
                .get("lines")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(LogLine::parse)
                .collect(),
            reset: payload.get("reset").and_then(Value::as_bool) == Some(true),
            skipped_bytes: payload
                .get("skippedBytes")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            file: clean(payload.get("file").and_then(Value::as_str).unwrap_or("")),
        }
    }

    /// Polls once: the lines written since the last poll (the newest tail the first time).
    pub async fn poll(&mut self, client: &GatewayClient) -> Result<TailRead, GatewayError> {
        let payload = client.request(LOGS_TAIL, self.params()).await?;
        Ok(self.read(&payload))
    }
}

/// The newest `cap` lines; what goes is counted.
#[derive(Debug, Clone)]
pub struct LogBuffer {
    lines: VecDeque<LogLine>,
    cap: usize,
    dropped: u64,
    /// Lines the gateway passed over (resets), in bytes.
    skipped_bytes: u64,
}

impl Default for LogBuffer {
    fn default() -> Self {
        LogBuffer::with_cap(KEPT_LINES)
    }
}

impl LogBuffer {
    pub fn with_cap(cap: usize) -> LogBuffer {
        LogBuffer {
            lines: VecDeque::new(),
            cap: cap.max(1),
            dropped: 0,
            skipped_bytes: 0,
        }
    }

    pub fn extend(&mut self, read: TailRead) {
        self.skipped_bytes += read.skipped_bytes;
        for line in read.lines {
            self.lines.push_back(line);
            if self.lines.len() > self.cap {
                self.lines.pop_front();
                self.dropped += 1;
            }
        }
    }

    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &LogLine> + ExactSizeIterator {
        self.lines.iter()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Earlier lines no longer kept.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    pub fn skipped_bytes(&self) -> u64 {
        self.skipped_bytes
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn recorded() -> Value {
        serde_json::from_str(include_str!(
            "../../../tests/fixtures/gateway/logs-tail.json"
        ))
        .unwrap()
    }

    #[test]
    fn a_real_tail_reads_into_time_level_subsystem_and_message() {
        let mut cursor = LogCursor::default();
        assert!(cursor.params().get("cursor").is_none());
        let read = cursor.read(&recorded());
        assert_eq!(read.lines.len(), 40);
        assert!(read.file.ends_with(".log"), "{}", read.file);
        let ws = read
            .lines
            .iter()
            .find(|l| l.subsystem == "gateway/ws")
            .unwrap();
        assert_eq!(ws.level, "info");
        assert_eq!(ws.time.len(), 8, "{ws:?}");
        assert!(ws.message.contains("res ✓"), "{ws:?}");
        // The next poll continues where this one ended.
        assert_eq!(cursor.params()["cursor"], recorded()["cursor"]);
    }

    #[test]
    fn control_sequences_and_newlines_never_reach_a_line() {
        let raw = json!({"time": "2026-11-25T03:47:32.988+00:00", "message": "red \u{1b}[31mX\u{1b}[0m\nnext\u{1b}]0;title\u{7}",
            "_meta": {"logLevelName": "WARN", "name": "{\"subsystem\":\"ab\"}"}})
        .to_string();
        let line = LogLine::parse(&raw);
        assert_eq!(line.text(), "03:47:32 WARN  [ab] red X next");
        assert!(!line.text().chars().any(char::is_control));
        assert_eq!(LogLine::parse("not json \u{1b}[2J").message, "not json");
    }

    #[test]
    fn the_buffer_keeps_the_newest_lines_and_counts_the_rest() {
        let mut buffer = LogBuffer::with_cap(3);
        let lines = (0..5)
            .map(|n| LogLine::parse(&format!("line {n}")))
            .collect();
        buffer.extend(TailRead {
            lines,
            skipped_bytes: 10,
            ..TailRead::default()
        });
        assert_eq!(buffer.len(), 3);
        assert_eq!(buffer.dropped(), 2);
        assert_eq!(buffer.skipped_bytes(), 10);
        assert_eq!(buffer.lines().next().unwrap().message, "line 2");
        assert!(buffer.lines().next().unwrap().matches("LINE 2"));
    }
}
