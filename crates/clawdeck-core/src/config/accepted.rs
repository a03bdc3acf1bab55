//! A memo of configs the schema check accepted, so a command run again on an unchanged config
//! skips compiling OpenClaw's half-megabyte schema (most of a short command's time). One empty
//! file per accepted (schema, config) pair under clawdeck's cache dir, named by the SHA-256 of
//! the schema text and the config's JSON; only acceptance is kept (a refused config is checked
//! again, so its errors are always reported in full), and at most `KEEP` are kept (the oldest
//! go). Any failure to read or write it only means checking again.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How many accepted configs are remembered.
const KEEP: usize = 64;

fn memo_dir() -> Option<PathBuf> {
    crate::paths::cache_dir()
        .ok()
        .map(|d| d.join("accepted-configs"))
}

/// The memo's name for `config` under `schema_text`.
fn key(schema_text: &str, config: &Value) -> String {
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION").as_bytes());
    hash.update([0]);
    hash.update(schema_text.as_bytes());
    hash.update([0]);
    hash.update(config.to_string().as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// One config under one schema: its memo file, named once (hashing the schema text is the
/// costly part), asked before the check and written after it.
pub(super) struct Memo {
    dir: Option<PathBuf>,
    key: String,
}

impl Memo {
    pub(super) fn of(schema_text: &str, config: &Value) -> Memo {
        Memo {
            dir: memo_dir(),
            key: key(schema_text, config),
        }
    }

    /// Whether this config was accepted under this schema before.
    pub(super) fn was_accepted(&self) -> bool {
        self.dir
            .as_ref()
            .is_some_and(|dir| dir.join(&self.key).is_file())
    }

    /// Remembers that this config was accepted (best effort).
    pub(super) fn remember(&self) {
        let Some(dir) = &self.dir else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let _ = std::fs::write(dir.join(&self.key), b"");
        prune(dir);
    }
}

/// Keeps the newest `KEEP` entries.
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() <= KEEP {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - KEEP] {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_changes_with_the_schema_and_the_config() {
        let a = serde_json::json!({ "tools": { "profile": "coding" } });
        let b = serde_json::json!({ "tools": { "profile": "messaging" } });
        assert_ne!(key("schema", &a), key("schema", &b));
        assert_ne!(key("schema", &a), key("schema 2", &a));
        assert_eq!(key("schema", &a), key("schema", &a.clone()));
    }

    #[test]
    fn only_the_newest_are_kept() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        for i in 0..KEEP + 5 {
            std::fs::write(dir.path().join(format!("{i:03}")), b"")
                .unwrap_or_else(|e| panic!("{e}"));
        }
        prune(dir.path());
        let left = std::fs::read_dir(dir.path())
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(left, KEEP);
    }
}
