//! How a run ended and what the tool returns for it (seed 000 §3.4, §3.5).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::clean::CleanOutput;
use super::request::{Mode, TransportKind};
use crate::tool::ToolResult;

/// The end state of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RunStatus {
    /// Exit 0 (CLI) or a finished stream (HTTP).
    Completed,
    /// Non-zero exit, or killed by a signal we did not send; remote errors stay in the raw output.
    Failed,
    /// The deadline passed; the tree was killed.
    TimedOut,
    /// Stopped by the operator or the caller.
    Killed,
    /// The CLI could not be started / the gateway could not be reached.
    SpawnFailed,
}

impl RunStatus {
    /// `details.status` (OpenClaw's error detection reads it).
    pub(crate) fn detail_status(self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::Failed | RunStatus::SpawnFailed | RunStatus::Killed => "error",
            RunStatus::TimedOut => "timeout",
        }
    }
}

/// Everything known about a finished run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouterOutcome {
    pub run_id: u64,
    pub status: RunStatus,
    pub transport: TransportKind,
    pub agent: Option<String>,
    pub to: Option<String>,
    pub mode: Mode,
    pub exit_code: Option<i32>,
    /// Signal name when the child ended by a signal (`SIGKILL`, ...).
    pub signal: Option<String>,
    /// stdout and stderr interleaved in arrival order, exactly as received (lossy UTF-8).
    pub raw: String,
    /// What the LLM receives: the raw output plus any router notes (timeout, spawn failure, ...).
    pub content: String,
    /// Router and supervisor notes (also appended to `content` when the seed says so).
    pub notes: Vec<String>,
    pub timeout_seconds: u64,
    pub duration: Duration,
    /// Present when `router.output` is `clean`.
    pub clean: Option<CleanOutput>,
    /// What the closing text says, in English for the operator (`route`'s stderr, the
    /// console's notes); the model gets the seed's text in `content`. None for a completed run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator_note: Option<String>,
}

impl RouterOutcome {
    /// What the tool added after the raw output (the seed's timeout or spawn-failure text, the
    /// install hint, ...): what a viewer that already showed the stream still has to show.
    pub fn appended_text(&self) -> &str {
        let rest = self
            .content
            .strip_prefix(self.raw.as_str())
            .unwrap_or(&self.content);
        rest.strip_prefix('\n').unwrap_or(rest)
    }

    /// The tool result: `{content: [text], details: {directTTS: false, interruptMode: 2, ...}}`.
    pub fn to_tool_result(&self) -> ToolResult {
        let mut details = json!({
            "directTTS": false,
            "interruptMode": 2,
            "status": self.status.detail_status(),
            "runId": self.run_id,
            "transport": self.transport,
            "mode": self.mode,
            "timeoutSeconds": self.timeout_seconds,
            "durationMs": self.duration.as_millis() as u64,
        });
        if let Value::Object(map) = &mut details {
            if let Some(agent) = &self.agent {
                map.insert("agent".into(), json!(agent));
            }
            if let Some(to) = &self.to {
                map.insert("to".into(), json!(to));
            }
            if let Some(code) = self.exit_code {
                map.insert("exitCode".into(), json!(code));
            }
            if let Some(signal) = &self.signal {
                map.insert("signal".into(), json!(signal));
            }
            if !self.notes.is_empty() {
                map.insert("notes".into(), json!(self.notes));
            }
            if let Some(clean) = &self.clean {
                map.insert(
                    "clean".into(),
                    serde_json::to_value(clean).unwrap_or(Value::Null),
                );
                map.insert("raw".into(), json!(self.raw));
            }
        }
        ToolResult::text(self.content.clone(), details)
    }
}

/// A result for a call that never started a run (blank message, no target, no gateway).
pub fn refusal_result(text: &str) -> ToolResult {
    ToolResult::text(
        text,
        json!({"directTTS": false, "interruptMode": 2, "status": "error", "spawned": false}),
    )
}
