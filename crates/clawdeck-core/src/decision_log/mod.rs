//! The decision log: one JSON line per tool call through the pipeline (who asked, in which
//! context, for which tool, the SHA-256 of the arguments, what was decided and by which rule,
//! what the hooks said, how the call ended, how long it took), under clawdeck's state dir
//! (`<state>/decisions/decisions.jsonl`), rotated by size.
//!
//! The pipeline writes it (when a `DecisionSink` is set); `clawdeck log` and the console's
//! Decisions view read it. No terminal code here.

mod reader;
mod record;
mod writer;

use std::path::PathBuf;
use std::sync::Arc;

pub use reader::{BadLine, Entry, LogFollower, log_files, read_all};
pub use record::{
    COLUMNS, CallEnd, CallFacts, DecidingRule, DecisionKind, DecisionRecord, ToolNames,
    args_sha256, rfc3339,
};
pub use writer::{DecisionLog, LOG_FILE, log_file};

/// Its settings (`decisionLog`) are read with clawdeck's others.
pub use crate::config::settings::DecisionLogSettings;
pub(crate) use crate::config::settings::MAX_KEEP;

/// `<state>/decisions`: where the log lives.
pub fn default_dir() -> Result<PathBuf, String> {
    Ok(crate::paths::state_dir()?.join("decisions"))
}

/// Where a pipeline writes its records, and the client named when a request names none
/// (`invoke`, `console`).
#[derive(Debug, Clone)]
pub struct DecisionSink {
    pub log: Arc<DecisionLog>,
    pub default_client: Option<String>,
}

impl DecisionSink {
    pub fn new(log: Arc<DecisionLog>, default_client: Option<&str>) -> DecisionSink {
        DecisionSink {
            log,
            default_client: default_client.map(str::to_string),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
