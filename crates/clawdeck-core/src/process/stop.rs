//! The stop policy: what clawdeck does on SIGINT, SIGTERM or SIGHUP, the same in every mode.
//!
//! [`install`] runs first in `main`, before any thread or child exists. It blocks the three
//! signals (every thread started later inherits the mask; children start with an empty one) and
//! starts the one thread that takes them. On the first signal:
//!
//! 1. the mode is told ([`super::stop_signals::stop_signals`] resolves), so it can wind down
//!    (`route` prints the rest of the run, the console quits, `mcp` stops serving);
//! 2. every process group clawdeck started (the registry below: supervised children, the
//!    version probe, `mcp.servers` listings) gets SIGTERM, then SIGKILL after its kill grace
//!    (at most [`MAX_STOP_GRACE`]); no child starts from then on;
//! 3. when the mode listens, it gets [`WIND_DOWN`] to return;
//! 4. the registered temp files and directories are removed, the terminal is restored if the
//!    console still holds it, one line on stderr says what was done, and clawdeck exits with
//!    128 + the signal's number (130, 143, 129).
//!
//! A second signal skips the waits. Without `install` (the library in tests) nothing is blocked
//! and `stop_signals` listens to tokio's handlers instead.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use nix::sys::signal::{SigSet, Signal};
use tokio::sync::watch;

use super::descendants::end_escaped;
use super::group::{group_has_live_members, signal_group};

/// The longest a process group gets between SIGTERM and SIGKILL when clawdeck stops.
pub(crate) const MAX_STOP_GRACE: Duration = Duration::from_secs(3);
/// How long a mode that listens for the stop gets to return once the children are gone.
pub(crate) const WIND_DOWN: Duration = Duration::from_secs(3);
/// How long restoring the terminal may take (a write to a terminal nobody reads can block).
const RESTORE_WAIT: Duration = Duration::from_millis(500);

/// Which stop signal arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    Interrupt,
    Terminate,
    Hangup,
}

impl StopSignal {
    /// How messages name it (`Ctrl-C` for SIGINT, as the operator pressed it).
    pub fn label(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "Ctrl-C",
            StopSignal::Terminate => "SIGTERM",
            StopSignal::Hangup => "SIGHUP",
        }
    }

    pub(crate) fn signal(self) -> Signal {
        match self {
            StopSignal::Interrupt => Signal::SIGINT,
            StopSignal::Terminate => Signal::SIGTERM,
            StopSignal::Hangup => Signal::SIGHUP,
        }
    }

    pub(crate) fn from_signal(signal: Signal) -> Option<StopSignal> {
        match signal {
            Signal::SIGINT => Some(StopSignal::Interrupt),
            Signal::SIGTERM => Some(StopSignal::Terminate),
            Signal::SIGHUP => Some(StopSignal::Hangup),
            _ => None,
        }
    }

    /// 128 + the signal's number (130, 143, 129), as a shell reports a command it ended.
    pub(crate) fn exit_code(self) -> i32 {
        128 + self.signal() as i32
    }
}

/// Everything the stop needs to find: child groups, temp paths, the terminal.
#[derive(Default)]
struct Registry {
    stopping: Option<StopSignal>,
    /// `finish` ran: the process is ending on its own.
    finished: bool,
    next_ticket: u64,
    groups: BTreeMap<u64, TrackedGroup>,
    temps: BTreeSet<PathBuf>,
    terminal_restore: Option<fn()>,
}

#[derive(Debug, Clone, Copy)]
struct TrackedGroup {
    pgid: i32,
    kill_grace: Duration,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    stopping: None,
    finished: false,
    next_ticket: 0,
    groups: BTreeMap::new(),
    temps: BTreeSet::new(),
    terminal_restore: None,
});
static INSTALLED: AtomicBool = AtomicBool::new(false);
static HURRY: AtomicBool = AtomicBool::new(false);
/// Set by `finish` while a stop is under way: the mode has returned.
static MAIN_RETURNED: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Tells the modes that a stop began (see `stop_signals`).
fn notice() -> &'static watch::Sender<Option<StopSignal>> {
    static NOTICE: OnceLock<watch::Sender<Option<StopSignal>>> = OnceLock::new();
    NOTICE.get_or_init(|| watch::channel(None).0)
}

fn stop_set() -> SigSet {
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.add(Signal::SIGHUP);
    set
}

/// Installs the stop policy for this process. Call it first in `main`, before any thread is
/// started: the signal mask is per thread and inherited, so a thread started earlier would
/// still get the signals' default action. Idempotent.
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    super::descendants::install();
    let set = stop_set();
    if set.thread_block().is_err() {
        INSTALLED.store(false, Ordering::SeqCst);
        return;
    }
    let taker = std::thread::Builder::new()
        .name("clawdeck-stop".to_string())
        .spawn(move || take_signals(set));
    if taker.is_err() {
        // Nobody would take them: the default actions are better than signals left pending.
        let _ = set.thread_unblock();
        INSTALLED.store(false, Ordering::SeqCst);
    }
}

/// Whether [`install`] is in effect.
pub fn installed() -> bool {
    INSTALLED.load(Ordering::SeqCst)
}

/// The signal that started the stop, once one did.
pub fn stopping() -> Option<StopSignal> {
    registry().stopping
}

/// A receiver that sees the stop signal once one arrives; None without [`install`].
pub(crate) fn listen() -> Option<watch::Receiver<Option<StopSignal>>> {
    installed().then(|| notice().subscribe())
}

fn take_signals(set: SigSet) {
    loop {
        let Ok(signal) = set.wait() else { continue };
        let Some(stop) = StopSignal::from_signal(signal) else {
            continue;
        };
        let first = {
            let mut registry = registry();
            if registry.finished {
                // `main` returned and the process is exiting with the mode's own status.
                continue;
            }
            let first = registry.stopping.is_none();
            if first {
                registry.stopping = Some(stop);
            }
            first
        };
        if first {
            // The stop runs on a thread of its own so that a second signal is still taken.
            let stopper = std::thread::Builder::new()
                .name("clawdeck-stopping".to_string())
                .spawn(move || stop_everything(stop));
            if stopper.is_err() {
                std::process::exit(stop.exit_code());
            }
        } else {
            HURRY.store(true, Ordering::SeqCst);
            MAIN_RETURNED.1.notify_all();
        }
    }
}

fn stop_everything(signal: StopSignal) {
    // The trees running now, whether the mode (told first, so its own kill says what happened)
    // or this policy ends them.
    let groups: Vec<TrackedGroup> = registry().groups.values().copied().collect();
    let running = groups
        .iter()
        .filter(|g| group_has_live_members(g.pgid))
        .count();
    let listening = notice().receiver_count() > 0;
    notice().send_replace(Some(signal));
    kill_groups_with_grace(&groups);
    let escaped = end_escaped(MAX_STOP_GRACE, &HURRY);
    if listening {
        wait_for_main(WIND_DOWN);
    }
    let (leftovers, temps, restore) = {
        let mut registry = registry();
        let leftovers: Vec<i32> = registry.groups.values().map(|g| g.pgid).collect();
        let temps = std::mem::take(&mut registry.temps);
        (leftovers, temps, registry.terminal_restore)
    };
    for pgid in leftovers {
        if group_has_live_members(pgid) {
            let _ = signal_group(pgid, Signal::SIGKILL);
        }
    }
    let removed = temps.iter().filter(|path| remove_path(path)).count();
    if let Some(restore) = restore {
        restore_bounded(restore);
    }
    let _ = writeln!(
        std::io::stderr(),
        "clawdeck: {}: {}; exit {}",
        signal.label(),
        what_was_done(running, escaped, removed),
        signal.exit_code()
    );
    std::process::exit(signal.exit_code());
}

/// `stopped 2 child process groups, removed 1 temp file` (or `nothing left running`); processes
/// that had left their group are counted apart.
fn what_was_done(killed: usize, escaped: usize, removed: usize) -> String {
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut parts = Vec::new();
    if killed > 0 {
        parts.push(format!(
            "stopped {}",
            plural(killed, "child process group", "child process groups")
        ));
    }
    if escaped > 0 {
        parts.push(format!(
            "ended {} that had left {}",
            plural(escaped, "process", "processes"),
            if killed == 1 { "it" } else { "their groups" }
        ));
    }
    if removed > 0 {
        parts.push(format!(
            "removed {}",
            plural(removed, "temp file", "temp files")
        ));
    }
    if parts.is_empty() {
        "no child process or temp file left".to_string()
    } else {
        parts.join(", ")
    }
}

/// SIGTERM to every live group of `groups`, each group's grace (bounded), SIGKILL to what is
/// left.
fn kill_groups_with_grace(groups: &[TrackedGroup]) {
    let started = Instant::now();
    let mut pending: Vec<(i32, Instant)> = Vec::new();
    for group in groups {
        if group_has_live_members(group.pgid) {
            let _ = signal_group(group.pgid, Signal::SIGTERM);
            pending.push((group.pgid, started + group.kill_grace.min(MAX_STOP_GRACE)));
        }
    }
    while !pending.is_empty() {
        let now = Instant::now();
        let hurry = HURRY.load(Ordering::SeqCst);
        pending.retain(|&(pgid, kill_at)| {
            if !group_has_live_members(pgid) {
                return false;
            }
            if hurry || now >= kill_at {
                let _ = signal_group(pgid, Signal::SIGKILL);
                return false;
            }
            true
        });
        if !pending.is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn wait_for_main(limit: Duration) {
    let (returned, wake) = &MAIN_RETURNED;
    let deadline = Instant::now() + limit;
    let mut done = returned.lock().unwrap_or_else(|p| p.into_inner());
    while !*done && !HURRY.load(Ordering::SeqCst) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        done = match wake.wait_timeout(done, left) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        };
    }
}

/// Restores the terminal from a thread of its own, waiting at most [`RESTORE_WAIT`].
fn restore_bounded(restore: fn()) {
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("clawdeck-restore".to_string())
        .spawn(move || {
            restore();
            let _ = done_tx.send(());
            // `restore` may keep the terminal's output locked for good; this thread holds it
            // until the process exits.
            loop {
                std::thread::park();
            }
        });
    if spawned.is_ok() {
        let _ = done_rx.recv_timeout(RESTORE_WAIT);
    }
}

/// Where the mode's `main` ends: with a stop under way, waits for it (the stop exits the
/// process with 128 + the signal); otherwise kills what child groups are still running (a
/// version probe the console did not wait for), removes what temp paths are left and returns
/// `code`.
pub fn finish(code: ExitCode) -> ExitCode {
    let (groups, temps) = {
        let mut registry = registry();
        if registry.stopping.is_some() {
            drop(registry);
            *MAIN_RETURNED.0.lock().unwrap_or_else(|p| p.into_inner()) = true;
            MAIN_RETURNED.1.notify_all();
            loop {
                std::thread::park();
            }
        }
        registry.finished = true;
        let groups: Vec<TrackedGroup> = registry.groups.values().copied().collect();
        (groups, std::mem::take(&mut registry.temps))
    };
    // Their direct children would die with us (parent-death signal); the rest of their
    // groups would not.
    kill_groups_with_grace(&groups);
    end_escaped(MAX_STOP_GRACE, &HURRY);
    for path in &temps {
        remove_path(path);
    }
    code
}

/// The registration of a process group; dropping it (once the group is gone) forgets it.
#[derive(Debug)]
pub struct GroupTicket {
    id: u64,
}

impl Drop for GroupTicket {
    fn drop(&mut self) {
        registry().groups.remove(&self.id);
    }
}

/// Registers a process group clawdeck started, so a stop kills it (SIGTERM, `kill_grace`,
/// SIGKILL). When a stop is already under way the group is killed at once.
pub fn track_group(pgid: i32, kill_grace: Duration) -> GroupTicket {
    let mut registry = registry();
    registry.next_ticket += 1;
    let id = registry.next_ticket;
    registry
        .groups
        .insert(id, TrackedGroup { pgid, kill_grace });
    if registry.stopping.is_some() {
        let _ = signal_group(pgid, Signal::SIGKILL);
    }
    GroupTicket { id }
}

/// Registers a temp file or directory clawdeck created, so a stop (or the end of `main`)
/// removes it. Its owner removes it with [`remove_temp`] when done.
pub fn register_temp(path: &Path) {
    registry().temps.insert(path.to_path_buf());
}

/// Removes a registered temp file or directory (whole tree) and forgets it. The registry stays
/// locked until the tree is gone: a stop that begins meanwhile waits for it instead of exiting
/// halfway through the removal (the path is no longer registered for the stop to remove).
pub fn remove_temp(path: &Path) {
    let mut registry = registry();
    registry.temps.remove(path);
    remove_path(path);
    drop(registry);
}

/// Removes a file or a directory tree; true when something was removed.
fn remove_path(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).is_ok(),
        Ok(_) => std::fs::remove_file(path).is_ok(),
        Err(_) => false,
    }
}

/// How the stop restores the terminal when the console did not close in time (the console
/// sets it when it takes the terminal).
pub fn set_terminal_restore(restore: fn()) {
    registry().terminal_restore = Some(restore);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_what_was_done() {
        assert_eq!(what_was_done(0, 0, 0), "no child process or temp file left");
        assert_eq!(what_was_done(1, 0, 0), "stopped 1 child process group");
        assert_eq!(
            what_was_done(2, 0, 1),
            "stopped 2 child process groups, removed 1 temp file"
        );
        assert_eq!(what_was_done(0, 0, 3), "removed 3 temp files");
        assert_eq!(
            what_was_done(1, 2, 0),
            "stopped 1 child process group, ended 2 processes that had left it"
        );
    }

    #[test]
    fn temps_are_removed_and_forgotten() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("message.md");
        let tree = dir.path().join("home");
        std::fs::write(&file, "x").unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(tree.join(".openclaw")).unwrap_or_else(|e| panic!("{e}"));
        register_temp(&file);
        register_temp(&tree);
        assert!(registry().temps.contains(&file));
        remove_temp(&file);
        remove_temp(&tree);
        assert!(!file.exists() && !tree.exists());
        assert!(!registry().temps.contains(&file) && !registry().temps.contains(&tree));
    }

    #[test]
    fn a_ticket_forgets_its_group_when_dropped() {
        let ticket = track_group(999_999, Duration::from_millis(10));
        let id = ticket.id;
        assert!(registry().groups.contains_key(&id));
        drop(ticket);
        assert!(!registry().groups.contains_key(&id));
    }
}
