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

use serde::{Deserialize, Serialize};

pub use reader::{BadLine, Entry, LogFollower, log_files, read_all};
pub use record::{
    COLUMNS, CallEnd, CallFacts, DecidingRule, DecisionKind, DecisionRecord, ToolNames,
    args_sha256, rfc3339,
};
pub use writer::{DecisionLog, LOG_FILE, log_file};

/// clawdeck.json5 `decisionLog`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct DecisionLogSettings {
    /// Write records at all (default true).
    pub enabled: bool,
    /// The live file is rotated before it would grow past this (default 10 MiB; at least
    /// `MIN_MAX_BYTES`).
    #[serde(deserialize_with = "max_bytes_at_least")]
    pub max_bytes: u64,
    /// Rotated files kept (`decisions.jsonl.1` .. `.keep`; default 5; 0 keeps none; at most
    /// `MAX_KEEP`).
    #[serde(deserialize_with = "keep_at_most")]
    pub keep: usize,
}

/// Smallest `decisionLog.maxBytes`: a few records per file, not a rotation per record.
pub(crate) const MIN_MAX_BYTES: u64 = 1024;
/// Most rotated files kept (and looked for when reading).
pub(crate) const MAX_KEEP: usize = 1000;

fn max_bytes_at_least<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let value = u64::deserialize(d)?;
    if value < MIN_MAX_BYTES {
        return Err(serde::de::Error::custom(format!(
            "{value} bytes is too small: at least {MIN_MAX_BYTES}"
        )));
    }
    Ok(value)
}

fn keep_at_most<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let value = usize::deserialize(d)?;
    if value > MAX_KEEP {
        return Err(serde::de::Error::custom(format!(
            "{value} files is too many: at most {MAX_KEEP}"
        )));
    }
    Ok(value)
}

impl Default for DecisionLogSettings {
    fn default() -> Self {
        DecisionLogSettings {
            enabled: true,
            max_bytes: 10 * 1024 * 1024,
            keep: 5,
        }
    }
}

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
