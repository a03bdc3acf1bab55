//! The seam between the run bookkeeping (service) and how bytes are obtained (CLI child or
//! gateway HTTP stream).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::argv::Target;
use super::events::StdStream;
use crate::tool::BoxFuture;

/// Receives output in arrival order. Called from the transport's reader tasks.
/// Operator controls (console, `route`) may move the deadline up to this long after the start;
/// the router is never unbounded.
pub const OPERATOR_TIMEOUT_CEILING: Duration = Duration::from_secs(600);

pub(crate) type ChunkSink = Arc<dyn Fn(StdStream, Vec<u8>) + Send + Sync>;

/// Receives notes (supervisor messages, drain grace, ...).
pub(crate) type NoteSink = Arc<dyn Fn(String) + Send + Sync>;

/// Everything a transport needs for one run; already validated.
#[derive(Debug, Clone)]
pub struct RunPlan {
    pub run_id: u64,
    /// CLI: the full argv (program first). HTTP: empty.
    pub argv: Vec<String>,
    /// CLI: the child's environment (already filtered). HTTP: unused.
    pub env: Vec<(String, String)>,
    /// Whether the child starts from an empty environment plus `env`.
    pub clear_env: bool,
    pub target: Target,
    /// The message as the remote agent receives it (mode line included).
    pub remote_message: String,
    /// HTTP: `<gateway>/v1/chat/completions`, the bearer token and the agent id.
    pub http: Option<HttpPlan>,
    /// A message file to remove after the run.
    pub message_file: Option<PathBuf>,
    pub timeout: Duration,
    /// CLI: SIGTERM → SIGKILL grace and the drain grace for grandchildren holding the pipes.
    pub kill_grace: Duration,
    pub drain_grace: Duration,
}

#[derive(Clone)]
pub struct HttpPlan {
    pub base_url: String,
    pub token: Option<String>,
    pub agent: String,
}

impl std::fmt::Debug for HttpPlan {
    // The token never reaches logs or events.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpPlan")
            .field("base_url", &self.base_url)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("agent", &self.agent)
            .finish()
    }
}

/// Why nothing ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFailure {
    /// The CLI could not be spawned; `not_found` adds the install hint (seed 000 §5 d).
    /// `error` is worded for the model (the seed's language), `operator_error` in English.
    Spawn {
        error: String,
        operator_error: String,
        not_found: bool,
    },
    /// The gateway could not be reached or answered with an error status.
    Gateway { error: String },
}

/// How a transport run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TransportEnd {
    pub exit_code: Option<i32>,
    pub signal: Option<String>,
    pub failure: Option<StartFailure>,
    pub notes: Vec<String>,
}

/// One way of reaching OpenClaw. `stop` fires on timeout or kill; the transport must then end
/// the run (kill the whole tree / drop the connection) and return promptly.
pub trait Transport: Send + Sync {
    fn run(
        &self,
        plan: RunPlan,
        chunks: ChunkSink,
        notes: NoteSink,
        stop: Stop,
    ) -> BoxFuture<'static, TransportEnd>;
}

/// Why the service stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The deadline passed.
    Timeout,
    /// The operator or the caller asked.
    Killed,
}

/// The service's request to end a run early; the first reason wins.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    token: CancellationToken,
    reason: Arc<Mutex<Option<StopReason>>>,
}

impl Stop {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the reason (if none yet) and fires.
    pub fn request(&self, reason: StopReason) {
        {
            let mut slot = self.reason.lock().unwrap_or_else(|p| p.into_inner());
            if slot.is_none() {
                *slot = Some(reason);
            }
        }
        self.token.cancel();
    }

    pub(crate) fn reason(&self) -> Option<StopReason> {
        *self.reason.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Resolves when a stop was requested, with its reason.
    pub async fn requested(&self) -> StopReason {
        self.token.cancelled().await;
        self.reason().unwrap_or(StopReason::Killed)
    }
}
