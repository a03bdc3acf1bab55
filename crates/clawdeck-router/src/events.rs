//! What a router run publishes while it runs, for the console and `clawdeck route`.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::outcome::RouterOutcome;
use super::request::{Mode, TransportKind};

/// Which stream a chunk came from (the one stdout/stderr kind, `crate::sanitize`). The HTTP
/// transport sends SSE deltas as `Stdout` and transport diagnostics as `Stderr`.
pub use crate::sanitize::StdStream;

/// One event of one run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouterEvent {
    pub run_id: u64,
    pub kind: RouterEventKind,
}

/// What happened.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum RouterEventKind {
    /// The run was accepted and is about to spawn or connect.
    #[serde(rename_all = "camelCase")]
    Started {
        /// The child's argv (CLI) or `POST <url>` plus the model (HTTP); never contains the token.
        argv: Vec<String>,
        transport: TransportKind,
        agent: Option<String>,
        /// The `--to` phone when no agent was named.
        to: Option<String>,
        /// The task as the caller gave it (without the mode line).
        message: String,
        mode: Mode,
        timeout_seconds: u64,
        started_at: SystemTime,
        deadline: SystemTime,
    },
    /// Output as it arrived, exactly as received.
    #[serde(rename_all = "camelCase")]
    Chunk {
        stream: StdStream,
        /// Wall-clock arrival time.
        at: SystemTime,
        /// Time since the run started.
        elapsed: Duration,
        bytes: Vec<u8>,
    },
    /// The deadline moved (operator control).
    #[serde(rename_all = "camelCase")]
    DeadlineChanged {
        timeout_seconds: u64,
        deadline: SystemTime,
    },
    /// Something the operator should know (kill requested, drain grace, temp file, ...).
    Note { text: String },
    /// The run ended; the outcome is final.
    Finished { outcome: Box<RouterOutcome> },
}

impl RouterEventKind {
    /// The chunk's text (lossy UTF-8) when this is a chunk.
    pub fn chunk_text(&self) -> Option<String> {
        match self {
            RouterEventKind::Chunk { bytes, .. } => {
                Some(String::from_utf8_lossy(bytes).into_owned())
            }
            _ => None,
        }
    }
}
