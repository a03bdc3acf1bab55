//! Background exec sessions: what `exec` leaves running and `process` follows up on.
//!
//! A session owns its supervised process; removing a session that still runs kills its group
//! (the supervisor's drop guard). Finished sessions stay listed for a TTL (OpenClaw: 30 min) and
//! are pruned whenever the registry is touched. At most `exec.maxBackgroundSessions` run at once:
//! each holds a process group, its pipes and their readers, so an unbounded number of idle
//! sessions was unbounded memory and threads.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use tokio::process::ChildStdin;

use crate::process::{ProcessOutcome, RunningProcess};

/// One exec run, foreground or background.
#[derive(Debug)]
pub struct ExecSession {
    pub id: String,
    pub command: String,
    pub cwd: PathBuf,
    pub started_at: SystemTime,
    /// Seconds, when the run has a timeout.
    pub timeout_seconds: Option<u64>,
    process: RunningProcess,
    /// Present only for sessions started with `background: true` (see `exec`).
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    stdin_piped: bool,
    backgrounded: AtomicBool,
    /// Line number after the last line a poll returned.
    poll_cursor: AtomicU64,
}

impl ExecSession {
    pub fn new(
        id: String,
        command: String,
        cwd: PathBuf,
        timeout_seconds: Option<u64>,
        mut process: RunningProcess,
    ) -> ExecSession {
        let stdin = process.take_stdin();
        ExecSession {
            id,
            command,
            cwd,
            started_at: process.started_at(),
            timeout_seconds,
            stdin_piped: stdin.is_some(),
            stdin: tokio::sync::Mutex::new(stdin),
            process,
            backgrounded: AtomicBool::new(false),
            poll_cursor: AtomicU64::new(0),
        }
    }

    pub fn process(&self) -> &RunningProcess {
        &self.process
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    pub(crate) fn is_backgrounded(&self) -> bool {
        self.backgrounded.load(Ordering::SeqCst)
    }

    pub(crate) fn mark_backgrounded(&self) {
        self.backgrounded.store(true, Ordering::SeqCst);
    }

    pub fn outcome(&self) -> Option<ProcessOutcome> {
        self.process.try_outcome()
    }

    /// When the run ended (its pipes closed), if it has.
    pub(crate) fn ended_at(&self) -> Option<SystemTime> {
        self.outcome().map(|o| o.started_at + o.finished_after)
    }

    /// Whether its process still runs (or its pipes are still open).
    pub(crate) fn is_running(&self) -> bool {
        !self.process.is_finished()
    }

    pub(crate) fn stdin_piped(&self) -> bool {
        self.stdin_piped
    }

    pub fn stdin(&self) -> &tokio::sync::Mutex<Option<ChildStdin>> {
        &self.stdin
    }

    pub(crate) fn poll_cursor(&self) -> u64 {
        self.poll_cursor.load(Ordering::SeqCst)
    }

    pub(crate) fn set_poll_cursor(&self, line: u64) {
        self.poll_cursor.store(line, Ordering::SeqCst);
    }
}

/// All exec sessions of this clawdeck instance. Cheap to clone.
#[derive(Debug, Clone)]
pub struct ExecSessions {
    inner: Arc<Mutex<BTreeMap<String, Arc<ExecSession>>>>,
    /// Milliseconds; shared by every clone so a config reload changes it for all of them.
    ttl_ms: Arc<AtomicU64>,
    counter: Arc<AtomicU64>,
    /// Running sessions allowed at once (shared by every clone, like the TTL).
    max_running: Arc<AtomicUsize>,
    /// Slots taken by runs being started (not yet inserted).
    starting: Arc<AtomicUsize>,
}

/// `exec.maxBackgroundSessions` sessions already run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCapReached {
    pub max: usize,
}

impl std::fmt::Display for SessionCapReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Too many exec sessions: {} are already running, the most allowed at once \
             (exec.maxBackgroundSessions in clawdeck.json5). End one first (process kill or \
             remove), or raise exec.maxBackgroundSessions.",
            self.max
        )
    }
}

/// A place for one run being started; given back when dropped (the run is then either in the
/// registry or never started).
#[derive(Debug)]
pub(crate) struct SessionSlot {
    starting: Arc<AtomicUsize>,
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.starting.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ExecSessions {
    pub fn new(ttl: Duration) -> ExecSessions {
        ExecSessions {
            inner: Arc::default(),
            ttl_ms: Arc::new(AtomicU64::new(duration_ms(ttl))),
            counter: Arc::new(AtomicU64::new(0)),
            max_running: Arc::new(AtomicUsize::new(
                crate::config::settings::DEFAULT_MAX_BACKGROUND_SESSIONS,
            )),
            starting: Arc::default(),
        }
    }

    /// Changes how many sessions may run at once (a config reload); sessions already running
    /// keep running.
    pub fn set_max_running(&self, max: usize) {
        self.max_running.store(max.max(1), Ordering::SeqCst);
    }

    pub fn max_running(&self) -> usize {
        self.max_running.load(Ordering::SeqCst)
    }

    /// Sessions whose process still runs.
    pub fn running(&self) -> usize {
        self.lock().values().filter(|s| s.is_running()).count()
    }

    /// Takes a place for a new run, unless `max_running` sessions already run (or are being
    /// started). Hold the slot until the session is inserted.
    pub(crate) fn reserve(&self) -> Result<SessionSlot, SessionCapReached> {
        let max = self.max_running();
        let sessions = self.lock();
        let running = sessions.values().filter(|s| s.is_running()).count();
        // Under the registry lock: two runs starting at once cannot both take the last place.
        if running + self.starting.load(Ordering::SeqCst) >= max {
            return Err(SessionCapReached { max });
        }
        self.starting.fetch_add(1, Ordering::SeqCst);
        drop(sessions);
        Ok(SessionSlot {
            starting: Arc::clone(&self.starting),
        })
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, Arc<ExecSession>>> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A fresh short id (8 hex digits), unique within this registry.
    pub(crate) fn new_id(&self) -> String {
        loop {
            let n = self.counter.fetch_add(1, Ordering::SeqCst);
            let nanos = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            // Mix time, counter and pid so ids do not repeat across restarts either.
            let mut x = (nanos as u64)
                ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (std::process::id() as u64) << 32;
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            let id = format!("{:08x}", x as u32);
            if !self.lock().contains_key(&id) {
                return id;
            }
        }
    }

    pub(crate) fn insert(&self, session: Arc<ExecSession>) {
        self.prune();
        self.lock().insert(session.id.clone(), session);
    }

    pub fn get(&self, id: &str) -> Option<Arc<ExecSession>> {
        self.prune();
        self.lock().get(id).cloned()
    }

    /// Takes the session out; a running one is killed when the last handle goes.
    pub fn remove(&self, id: &str) -> Option<Arc<ExecSession>> {
        self.lock().remove(id)
    }

    /// Backgrounded sessions, oldest first.
    pub fn list(&self) -> Vec<Arc<ExecSession>> {
        self.prune();
        let mut sessions: Vec<Arc<ExecSession>> = self
            .lock()
            .values()
            .filter(|s| s.is_backgrounded())
            .cloned()
            .collect();
        sessions.sort_by_key(|s| s.started_at);
        sessions
    }

    /// Drops finished sessions older than the TTL.
    pub(crate) fn prune(&self) {
        let now = SystemTime::now();
        let ttl = self.ttl();
        self.lock().retain(|_, s| match s.ended_at() {
            Some(ended) => now
                .duration_since(ended)
                .map(|age| age <= ttl)
                .unwrap_or(true),
            None => true,
        });
    }

    pub fn ttl(&self) -> Duration {
        Duration::from_millis(self.ttl_ms.load(Ordering::SeqCst))
    }

    /// Changes how long finished sessions stay listed (a config reload); applies to the sessions
    /// already listed too.
    pub fn set_ttl(&self, ttl: Duration) {
        self.ttl_ms.store(duration_ms(ttl), Ordering::SeqCst);
        self.prune();
    }
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
