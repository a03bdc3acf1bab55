//! Which files decide a loaded config, and whether they changed since last looked at: the
//! console's watcher and `clawdeck mcp`'s both poll through this (mtime and size, no extra
//! crate needed).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::LoadedConfig;

/// How often watchers look at the files.
pub const POLL_EVERY: Duration = Duration::from_millis(500);

/// The OpenClaw config file and clawdeck's settings file next to it (even if absent: creating it
/// counts as a change); for the demo config, the operator's own settings file.
pub fn watched_paths(config: &LoadedConfig) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(p) = &config.path {
        paths.push(p.clone());
        if let Some(dir) = p.parent() {
            paths.push(dir.join(super::SETTINGS_FILE));
        }
    } else if let Some(settings) = &config.settings_path {
        paths.push(settings.clone());
    }
    paths
}

type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The files' last seen modification time and size.
pub struct FileStamps {
    paths: Vec<PathBuf>,
    last: Vec<Stamp>,
}

impl FileStamps {
    pub fn new(paths: Vec<PathBuf>) -> FileStamps {
        let last = paths.iter().map(|p| stamp(p)).collect();
        FileStamps { paths, last }
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Whether any file changed (appeared, vanished, was written) since the last look.
    pub fn changed(&mut self) -> bool {
        let now: Vec<Stamp> = self.paths.iter().map(|p| stamp(p)).collect();
        if now == self.last {
            return false;
        }
        self.last = now;
        true
    }
}
