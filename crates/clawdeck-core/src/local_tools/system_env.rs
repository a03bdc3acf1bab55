//! How the local system tools find their helpers (pactl, amixer, gtk-launch, xdg-open) and the
//! desktop entries, and how they start programs that must outlive the call.
//!
//! Helpers that answer and exit (pactl, amixer) run under the process supervisor. A launched
//! application (or the browser xdg-open starts) must keep running after the call, which the
//! supervisor forbids by design (it kills everything it started), so `launch_detached` starts it in
//! its own process group with its output in an unlinked temporary file, waits briefly for an early
//! failure, and otherwise leaves it running while a thread reaps it.

use std::ffi::OsString;
use std::io::{Read, Seek};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::process::{self, ProcessOutcome, ProcessSpec};

/// Where to look for helpers and desktop entries. `from_env` reads the process environment;
/// tests build one by hand.
#[derive(Debug, Clone, Default)]
pub struct SystemEnv {
    /// `PATH` used to find helpers.
    pub path: Option<OsString>,
    /// `$XDG_DATA_HOME` (default `~/.local/share`).
    pub data_home: Option<PathBuf>,
    /// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    pub data_dirs: Vec<PathBuf>,
}

impl SystemEnv {
    pub(crate) fn from_env() -> SystemEnv {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let data_home = std::env::var_os("XDG_DATA_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| home.map(|h| h.join(".local/share")));
        let data_dirs = match std::env::var("XDG_DATA_DIRS") {
            Ok(v) if !v.trim().is_empty() => v
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .collect(),
            _ => vec![
                PathBuf::from("/usr/local/share"),
                PathBuf::from("/usr/share"),
            ],
        };
        SystemEnv {
            path: std::env::var_os("PATH"),
            data_home,
            data_dirs,
        }
    }

    /// The executable `name` on `PATH`, if any.
    pub(crate) fn find_program(&self, name: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        let path = self.path.clone()?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| {
                std::fs::metadata(candidate)
                    .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
                    .unwrap_or(false)
            })
    }

    /// `applications/` directories in precedence order (data home first).
    pub(crate) fn application_dirs(&self) -> Vec<PathBuf> {
        self.data_home
            .iter()
            .chain(self.data_dirs.iter())
            .map(|d| d.join("applications"))
            .collect()
    }
}

/// Runs a helper that answers and exits, under the supervisor, with a short timeout.
pub(crate) async fn run_helper(
    program: &Path,
    args: &[&str],
    timeout: Duration,
) -> Result<ProcessOutcome, String> {
    let spec = ProcessSpec::new(program.to_string_lossy().to_string())
        .args(args.iter().map(|a| a.to_string()))
        .timeout(Some(timeout))
        .kill_grace(Duration::from_millis(500));
    let running = process::spawn(spec).map_err(|e| e.to_string())?;
    Ok(running.wait().await)
}

/// How a detached launch went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// The launcher exited 0 within the wait (gtk-launch and most xdg-open backends do).
    Exited,
    /// Still running after the wait: it is the application itself; left running.
    StillRunning { pid: u32 },
}

/// Starts `program args` in its own process group, stdin from /dev/null, output to a temporary
/// file. Waits up to `wait` for it to exit: exit 0 → `Exited`; non-zero → `Err` with its output;
/// still running → `StillRunning` (a thread reaps it later).
pub(crate) fn launch_detached(
    program: &Path,
    args: &[String],
    wait: Duration,
) -> Result<Launch, String> {
    let log_path = std::env::temp_dir().join(format!(
        "clawdeck-launch-{}-{}.log",
        std::process::id(),
        Instant::now().elapsed().as_nanos() ^ (args.len() as u128) ^ rand_suffix()
    ));
    let mut log = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&log_path)
        .map_err(|e| format!("cannot create a launch log in {}: {e}", log_path.display()))?;
    let _ = std::fs::remove_file(&log_path);
    let out = log.try_clone().map_err(|e| e.to_string())?;
    let err = log.try_clone().map_err(|e| e.to_string())?;
    let mut command = Command::new(program);
    crate::process::descendants::leave_running(&mut command);
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let deadline = Instant::now() + wait;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                if status.success() {
                    return Ok(Launch::Exited);
                }
                let mut text = String::new();
                let _ = log.rewind();
                let _ = log.read_to_string(&mut text);
                let text = text.trim();
                let how = match status.code() {
                    Some(code) => format!("exited with code {code}"),
                    None => "was killed by a signal".to_string(),
                };
                return Err(if text.is_empty() {
                    format!("{} {how}", program.display())
                } else {
                    format!("{} {how}: {text}", program.display())
                });
            }
            Ok(None) if Instant::now() >= deadline => {
                let pid = child.id();
                std::thread::spawn(move || {
                    let _ = child.wait();
                });
                return Ok(Launch::StillRunning { pid });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(25)),
            Err(e) => return Err(format!("waiting for {} failed: {e}", program.display())),
        }
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}
