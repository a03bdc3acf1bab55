//! Descendants that left their process group (`setsid`, daemonizing commands) or outlived their
//! parent: found and ended on every stop, and after a SIGKILL of clawdeck itself.
//!
//! Killing the process groups clawdeck started (see [`super::stop`]) misses a descendant that
//! made a session of its own. Three layers catch those (Linux; /proc is read):
//! - clawdeck is a child subreaper (`PR_SET_CHILD_SUBREAPER`): an orphaned descendant is
//!   re-parented to clawdeck instead of init, so the tree below clawdeck stays whole while it
//!   runs;
//! - every child clawdeck starts carries `CLAWDECK_TREE=<token>` in its environment, which its
//!   descendants inherit across `setsid` and re-parenting;
//! - a watchdog (clawdeck's own binary, started with the first child) blocks on a pipe that only
//!   clawdeck holds. When it reads end-of-file, clawdeck is gone however it ended, SIGKILL
//!   included, and the watchdog kills every process that carries the token.
//!
//! What does not hold: after a SIGKILL of clawdeck, a descendant that cleared its environment
//! and left its process group runs on; a descendant running as another user is out of reach.
//! Programs the `open`/`launch` tools start are the user's and are left running.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::os::unix::process::CommandExt as _;
use std::process::{ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::group::parse_stat;

/// The mark every child clawdeck starts carries: `CLAWDECK_TREE=<token>`.
pub const TREE_VAR: &str = "CLAWDECK_TREE";
/// Set (to the token) on the watchdog clawdeck starts; `main` hands over to [`watchdog_main`].
const WATCHDOG_VAR: &str = "CLAWDECK_WATCHDOG";
/// Set (to the token) on programs started to be left running (`open`, `launch`).
const LEFT_RUNNING_VAR: &str = "CLAWDECK_LEFT_RUNNING";
/// How many times the watchdog looks again for marked processes (one it killed may have been
/// forking).
const WATCHDOG_PASSES: usize = 20;

struct Guard {
    token: String,
    /// A child was marked: there may be something to find.
    marked: AtomicBool,
    /// The watchdog's pid and the write end of its pipe, held until clawdeck exits.
    watchdog: Mutex<Option<(i32, std::process::ChildStdin)>>,
    watchdog_tried: AtomicBool,
}

static GUARD: OnceLock<Guard> = OnceLock::new();

/// Makes clawdeck a child subreaper and picks this run's token. Called by
/// [`super::stop::install`]; without it (the library in tests) children are not marked and
/// nothing is swept.
pub(crate) fn install() {
    // SAFETY: prctl with integer arguments only.
    let _ = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    GUARD.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        Guard {
            token: format!("{}-{nanos:x}", std::process::id()),
            marked: AtomicBool::new(false),
            watchdog: Mutex::new(None),
            watchdog_tried: AtomicBool::new(false),
        }
    });
}

/// Marks a child about to start as clawdeck's (see the module docs) and starts the watchdog if
/// none runs yet.
pub(crate) fn mark(command: &mut tokio::process::Command) {
    let Some(guard) = GUARD.get() else { return };
    command.env(TREE_VAR, &guard.token);
    command.env_remove(LEFT_RUNNING_VAR);
    command.env_remove(WATCHDOG_VAR);
    guard.marked.store(true, Ordering::SeqCst);
    guard.start_watchdog();
}

/// Marks a program started to outlive clawdeck (`open`, `launch`): neither it nor what it
/// starts is swept.
pub(crate) fn leave_running(command: &mut std::process::Command) {
    if let Some(guard) = GUARD.get() {
        command.env(LEFT_RUNNING_VAR, &guard.token);
        command.env_remove(TREE_VAR);
        command.env_remove(WATCHDOG_VAR);
    }
}

impl Guard {
    fn start_watchdog(&self) {
        if self.watchdog_tried.swap(true, Ordering::SeqCst) {
            return;
        }
        // /proc/self/exe in the child is this very binary, even when its file was replaced.
        let started = std::process::Command::new("/proc/self/exe")
            .env(WATCHDOG_VAR, &self.token)
            .env_remove(TREE_VAR)
            .env_remove(LEFT_RUNNING_VAR)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .current_dir("/")
            // Out of the terminal's foreground group: Ctrl-C aimed at clawdeck misses it.
            .process_group(0)
            .spawn();
        match started {
            Ok(mut child) => {
                if let Some(pipe) = child.stdin.take() {
                    *lock(&self.watchdog) = Some((child.id() as i32, pipe));
                }
            }
            Err(err) => tracing::warn!(
                "no watchdog for SIGKILL of clawdeck ({err}): descendants that left their \
                 process group may outlive it"
            ),
        }
    }

    fn watchdog_pid(&self) -> Option<i32> {
        lock(&self.watchdog).as_ref().map(|(pid, _)| *pid)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Ends what is left of clawdeck's trees once the process groups were killed: SIGTERM, up to
/// `grace` (cut short when `hurry` turns true), SIGKILL. Returns how many processes it found.
pub(crate) fn end_escaped(grace: Duration, hurry: &AtomicBool) -> usize {
    let Some(guard) = GUARD.get() else { return 0 };
    if !guard.marked.load(Ordering::SeqCst) {
        return 0;
    }
    let found = escaped(guard);
    if found.is_empty() {
        return 0;
    }
    for pid in &found {
        let _ = kill(Pid::from_raw(*pid), Signal::SIGTERM);
    }
    let deadline = Instant::now() + grace;
    while found.iter().any(|pid| running(*pid))
        && Instant::now() < deadline
        && !hurry.load(Ordering::SeqCst)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    // What they started meanwhile is found again.
    for _ in 0..3 {
        let left: Vec<i32> = escaped(guard);
        if left.is_empty() {
            break;
        }
        for pid in left {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    found.len()
}

/// Everything running below clawdeck or carrying its mark, apart from the watchdog and what was
/// started to be left running.
fn escaped(guard: &Guard) -> Vec<i32> {
    let me = std::process::id() as i32;
    let watchdog = guard.watchdog_pid();
    let table = process_table();
    let mut children: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    let mut roots = Vec::new();
    let mut excluded = BTreeSet::new();
    excluded.insert(me);
    excluded.extend(watchdog);
    for entry in &table {
        children.entry(entry.ppid).or_default().push(entry.pid);
        if entry.pid == me || Some(entry.pid) == watchdog {
            continue;
        }
        let environ = read_environ(entry.pid);
        if has_entry(&environ, LEFT_RUNNING_VAR, &guard.token) {
            excluded.insert(entry.pid);
        } else if entry.ppid == me || has_entry(&environ, TREE_VAR, &guard.token) {
            roots.push(entry.pid);
        }
    }
    let zombies: BTreeSet<i32> = table.iter().filter(|e| e.zombie).map(|e| e.pid).collect();
    let mut found = BTreeSet::new();
    let mut stack: Vec<i32> = roots;
    while let Some(pid) = stack.pop() {
        if excluded.contains(&pid) || !found.insert(pid) {
            continue;
        }
        stack.extend(children.get(&pid).into_iter().flatten().copied());
    }
    found.retain(|pid| !zombies.contains(pid));
    found.into_iter().collect()
}

struct ProcEntry {
    pid: i32,
    ppid: i32,
    zombie: bool,
}

/// Every process /proc shows (empty where /proc is unreadable).
fn process_table() -> Vec<ProcEntry> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (state, ppid, _) = parse_stat(&stat)?;
            Some(ProcEntry {
                pid,
                ppid,
                zombie: matches!(state, 'Z' | 'X'),
            })
        })
        .collect()
}

/// The environment `pid` started with (NUL-separated); empty when unreadable (another user's).
fn read_environ(pid: i32) -> Vec<u8> {
    std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default()
}

/// Whether the NUL-separated `environ` has exactly `key=value`.
fn has_entry(environ: &[u8], key: &str, value: &str) -> bool {
    environ.split(|b| *b == 0).any(|entry| {
        entry.len() == key.len() + 1 + value.len()
            && entry.starts_with(key.as_bytes())
            && entry[key.len()] == b'='
            && entry.ends_with(value.as_bytes())
    })
}

/// True while `pid` runs (not gone, not a zombie).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| parse_stat(&stat))
        .is_some_and(|(state, _, _)| !matches!(state, 'Z' | 'X'))
}

/// The watchdog's whole life, when this process is one (`main` calls it first): waits for the
/// pipe from clawdeck to close, then kills every process that carries clawdeck's mark.
/// None when this process is not a watchdog.
pub fn watchdog_main() -> Option<ExitCode> {
    let token = std::env::var(WATCHDOG_VAR).ok().filter(|t| !t.is_empty())?;
    // SAFETY: setting dispositions to SIG_IGN and clearing the inherited mask.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
    let mut stdin = std::io::stdin().lock();
    let mut buf = [0u8; 64];
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let me = std::process::id() as i32;
    for _ in 0..WATCHDOG_PASSES {
        let marked: Vec<i32> = process_table()
            .iter()
            .filter(|e| e.pid != me && !e.zombie)
            .filter(|e| has_entry(&read_environ(e.pid), TREE_VAR, &token))
            .map(|e| e.pid)
            .collect();
        if marked.is_empty() {
            break;
        }
        for pid in marked {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_matches_only_whole() {
        let environ = b"PATH=/bin\0CLAWDECK_TREE=12-ab\0X=1\0";
        assert!(has_entry(environ, TREE_VAR, "12-ab"));
        assert!(!has_entry(environ, TREE_VAR, "12-a"));
        assert!(!has_entry(environ, TREE_VAR, "2-ab"));
        assert!(!has_entry(b"XCLAWDECK_TREE=12-ab\0", TREE_VAR, "12-ab"));
        assert!(!has_entry(b"", TREE_VAR, "12-ab"));
    }

    #[test]
    fn this_process_is_in_the_table_and_runs() {
        let me = std::process::id() as i32;
        assert!(process_table().iter().any(|e| e.pid == me && !e.zombie));
        assert!(running(me));
    }
}
