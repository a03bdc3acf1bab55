//! Appending records to `decisions.jsonl`, rotated by size.
//!
//! Several processes (the console, `clawdeck mcp` servers, `clawdeck invoke`) append to the same
//! file: it is opened with O_APPEND and each record is one `write`, so lines never interleave.
//! Rotation renames `decisions.jsonl` → `.1` → `.2` ... under an exclusive `flock` on a lock
//! file, after checking the size again, so two processes never rotate the same file twice. A
//! process still holding the renamed file appends there (to `.1`): nothing is lost, and it
//! reopens the new file on its next record.
//!
//! A failed write never fails the call: the first failure is a tracing warning, later ones
//! are counted silently. The files are opened through `crate::regular_file`: a FIFO, device
//! or symbolic link planted at their place is refused at once instead of blocking the call.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use nix::fcntl::{Flock, FlockArg};

use super::DecisionLogSettings;
use super::record::DecisionRecord;
use crate::regular_file::Links;

/// The live log's file name; rotated copies are `decisions.jsonl.1` (newest) .. `.N`.
pub const LOG_FILE: &str = "decisions.jsonl";
const LOCK_FILE: &str = "decisions.lock";

/// `<dir>/decisions.jsonl` for `n == 0`, else the n-th rotated copy.
pub fn log_file(dir: &Path, n: usize) -> PathBuf {
    if n == 0 {
        dir.join(LOG_FILE)
    } else {
        dir.join(format!("{LOG_FILE}.{n}"))
    }
}

/// The decision log of one state dir. Shared by every pipeline of a process (`Arc`).
pub struct DecisionLog {
    dir: PathBuf,
    state: Mutex<WriterState>,
    warned: AtomicBool,
    failures: AtomicU64,
}

struct WriterState {
    settings: DecisionLogSettings,
    /// The open file and its inode (to notice another process's rotation).
    file: Option<(File, u64)>,
}

impl std::fmt::Debug for DecisionLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecisionLog")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl DecisionLog {
    /// A log in `dir` (created at the first record).
    pub fn open(dir: impl Into<PathBuf>, settings: DecisionLogSettings) -> DecisionLog {
        DecisionLog {
            dir: dir.into(),
            state: Mutex::new(WriterState {
                settings,
                file: None,
            }),
            warned: AtomicBool::new(false),
            failures: AtomicU64::new(0),
        }
    }

    /// The log under clawdeck's state dir (`<state>/decisions`), or why there is none (no state
    /// dir, or something other than a regular file where its files go).
    pub fn open_default(settings: DecisionLogSettings) -> Result<DecisionLog, String> {
        let log = DecisionLog::open(super::default_dir()?, settings);
        log.check_files()?;
        Ok(log)
    }

    /// Refuses a log whose live file or lock file exists as anything but a regular file (a
    /// FIFO would block every write, a link would send records elsewhere), naming the file.
    pub(crate) fn check_files(&self) -> Result<(), String> {
        for path in [log_file(&self.dir, 0), self.dir.join(LOCK_FILE)] {
            if let Ok(meta) = std::fs::symlink_metadata(&path)
                && !meta.file_type().is_file()
            {
                return Err(format!(
                    "{} is {}, not a regular file; remove it and clawdeck creates the log anew",
                    path.display(),
                    crate::regular_file::kind_name(meta.file_type())
                ));
            }
        }
        Ok(())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// New limits (a config reload); the next record uses them.
    pub fn apply_settings(&self, settings: DecisionLogSettings) {
        self.lock().settings = settings;
    }

    pub fn settings(&self) -> DecisionLogSettings {
        self.lock().settings.clone()
    }

    /// Records that could not be written since this log was opened.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WriterState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Appends one record; a failure is warned about once and otherwise ignored.
    pub(crate) fn append(&self, record: &DecisionRecord) {
        if let Err(err) = self.try_append(record) {
            self.failures.fetch_add(1, Ordering::Relaxed);
            if !self.warned.swap(true, Ordering::Relaxed) {
                tracing::warn!(
                    "decision log {}: {err} (calls go on unrecorded; further failures are not reported)",
                    self.dir.display()
                );
            }
        }
    }

    /// Appends one record, or says why it could not.
    pub fn try_append(&self, record: &DecisionRecord) -> Result<(), String> {
        let mut state = self.lock();
        if !state.settings.enabled {
            return Ok(());
        }
        let line = record.to_line();
        let current = log_file(&self.dir, 0);
        let on_disk = std::fs::metadata(&current).ok();
        // Another process rotated (or someone removed the file): write to the new one.
        let stale = match (&state.file, &on_disk) {
            (Some((_, ino)), Some(meta)) => meta.ino() != *ino,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if stale {
            state.file = None;
        }
        let size = on_disk.as_ref().map(|m| m.len()).unwrap_or(0);
        if size > 0 && size + line.len() as u64 > state.settings.max_bytes {
            self.rotate(&state.settings, line.len() as u64)?;
            state.file = None;
        }
        if state.file.is_none() {
            create_dir(&self.dir)?;
            let file = crate::regular_file::open_append(&current, 0o600, Links::Refuse)
                .map_err(|e| format!("cannot open {}: {e}", current.display()))?;
            let ino = file
                .metadata()
                .map_err(|e| format!("cannot stat {}: {e}", current.display()))?
                .ino();
            state.file = Some((file, ino));
        }
        let Some((file, _)) = state.file.as_mut() else {
            return Err("no open log file".to_string());
        };
        // One write call per record: O_APPEND makes it land whole at the end.
        let written = file
            .write(line.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", current.display()))?;
        if written != line.len() {
            return Err(format!(
                "short write to {} ({written} of {} bytes)",
                current.display(),
                line.len()
            ));
        }
        Ok(())
    }

    /// Shifts the files by one under the lock file, if the live file is still too big.
    fn rotate(&self, settings: &DecisionLogSettings, incoming: u64) -> Result<(), String> {
        create_dir(&self.dir)?;
        let lock_path = self.dir.join(LOCK_FILE);
        let lock_file = crate::regular_file::open(
            &lock_path,
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600),
            Links::Refuse,
        )
        .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        let _lock = Flock::lock(lock_file, FlockArg::LockExclusive)
            .map_err(|(_, e)| format!("cannot lock {}: {e}", lock_path.display()))?;
        let current = log_file(&self.dir, 0);
        let size = std::fs::metadata(&current).map(|m| m.len()).unwrap_or(0);
        if size == 0 || size + incoming <= settings.max_bytes {
            // Another process rotated while this one waited for the lock.
            return Ok(());
        }
        let keep = settings.keep;
        if keep == 0 {
            return std::fs::remove_file(&current)
                .map_err(|e| format!("cannot remove {}: {e}", current.display()));
        }
        let _ = std::fs::remove_file(log_file(&self.dir, keep));
        for n in (1..keep).rev() {
            let from = log_file(&self.dir, n);
            if from.exists() {
                std::fs::rename(&from, log_file(&self.dir, n + 1))
                    .map_err(|e| format!("cannot rotate {}: {e}", from.display()))?;
            }
        }
        std::fs::rename(&current, log_file(&self.dir, 1))
            .map_err(|e| format!("cannot rotate {}: {e}", current.display()))
    }
}

/// The log's dir, private to its owner when clawdeck creates it (records name tools, agents
/// and sessions).
fn create_dir(dir: &Path) -> Result<(), String> {
    crate::process::private_fs::create_private_dir_all(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))
}
