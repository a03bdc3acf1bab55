//! The variables a login shell sets, for `env.shellEnv.enabled: true`: OpenClaw then runs the
//! gateway user's login shell at start (`$SHELL -l -c "printf '\0'; env -0"`, `-lic` for bash;
//! `$SHELL` only when it is an absolute path `/etc/shells` lists, else `/bin/sh`) and imports
//! the provider and channel keys it is missing, so a key exported in `~/.profile` brings the
//! media tools as one in `env.vars` does. clawdeck runs the same shell the same way, in its own
//! process group, with the environment a service starts with (`HOME`, `USER`, `LOGNAME`,
//! `SHELL`, a plain `PATH`: not clawdeck's own variables), killed at the timeout; only the
//! names of the variables set to something other than blanks are kept, never a value.

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

/// What the shell prints after its profile ran: a NUL, then the environment NUL-separated.
const ENV_COMMAND: &str = "printf '\\0'; env -0";
/// OpenClaw's default `env.shellEnv.timeoutMs`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// Most of the shell's output read (OpenClaw's maxBuffer).
const MAX_OUTPUT_BYTES: u64 = 2 * 1024 * 1024;
/// Most variables kept (as for a dotenv file).
const MAX_VARIABLES: usize = crate::dotenv::MAX_VARIABLES;

/// The shell OpenClaw would run: `shell` (the gateway's `$SHELL`) when it is an absolute,
/// normal path that `etc_shells` lists, else `/bin/sh`.
pub fn resolve_shell(shell: Option<&str>, etc_shells: &str) -> PathBuf {
    let listed = |candidate: &str| {
        etc_shells
            .lines()
            .map(str::trim)
            .any(|line| !line.starts_with('#') && line == candidate)
    };
    match shell.map(str::trim) {
        Some(shell)
            if shell.starts_with('/')
                && !shell.split('/').any(|part| part == "." || part == "..")
                && !shell.contains("//")
                && listed(shell) =>
        {
            PathBuf::from(shell)
        }
        _ => PathBuf::from("/bin/sh"),
    }
}

/// The shell's arguments: bash is started interactive as well (`-lic`), as OpenClaw does.
fn shell_args(shell: &Path) -> [&'static str; 2] {
    match shell.file_name().and_then(|name| name.to_str()) {
        Some("bash") => ["-lic", ENV_COMMAND],
        _ => ["-lc", ENV_COMMAND],
    }
}

/// The names `output` (the shell's stdout) sets to something other than blanks: what follows
/// the first NUL, `NAME=value` entries separated by NULs. Also how many were left out past
/// [`MAX_VARIABLES`].
pub fn set_variables(output: &[u8]) -> (BTreeSet<String>, usize) {
    let Some(start) = output.iter().position(|b| *b == 0) else {
        return (BTreeSet::new(), 0);
    };
    let mut set = BTreeSet::new();
    let mut left_out = 0;
    for entry in output[start + 1..].split(|b| *b == 0) {
        let entry = String::from_utf8_lossy(entry);
        let Some((name, value)) = entry.split_once('=') else {
            continue;
        };
        if name.is_empty() || value.trim().is_empty() {
            continue;
        }
        if set.len() < MAX_VARIABLES {
            set.insert(name.to_string());
        } else if !set.contains(name) {
            left_out += 1;
        }
    }
    (set, left_out)
}

/// Runs `shell` as a login shell in `home` and returns the names it sets (and how many were
/// left out), or why it could not: it did not start, timed out after `timeout` (the group is
/// killed), or exited with a failure.
pub fn read(
    shell: &Path,
    home: &Path,
    timeout: Duration,
) -> Result<(BTreeSet<String>, usize), String> {
    let user = std::env::var("USER").unwrap_or_default();
    let mut child = Command::new(shell)
        .args(shell_args(shell))
        .env_clear()
        .env("HOME", home)
        .env("USER", &user)
        .env("LOGNAME", &user)
        .env("SHELL", shell)
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|err| format!("{} did not start: {err}", shell.display()))?;
    let pgid = i32::try_from(child.id()).unwrap_or(0);
    let _ticket = crate::process::stop::track_group(pgid, Duration::from_millis(200));
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(out) = stdout.as_mut() {
            let _ = out.take(MAX_OUTPUT_BYTES).read_to_end(&mut bytes);
        }
        bytes
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= timeout => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(err) => return Err(format!("{}: {err}", shell.display())),
        }
    };
    // Whatever the profile left running goes with the shell.
    let _ = crate::process::group::signal_group(pgid, Signal::SIGKILL);
    let _ = child.wait();
    let output = reader.join().unwrap_or_default();
    match status {
        None => Err(format!(
            "{} -l timed out after {} ms",
            shell.display(),
            timeout.as_millis()
        )),
        Some(status) if !status.success() => {
            Err(format!("{} -l failed ({status})", shell.display()))
        }
        Some(_) => Ok(set_variables(&output)),
    }
}

/// `env.shellEnv.timeoutMs` of a config, else OpenClaw's default; at most a minute.
pub fn timeout_of(raw: &serde_json::Value) -> Duration {
    raw.pointer("/env/shellEnv/timeoutMs")
        .and_then(serde_json::Value::as_u64)
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
        .min(Duration::from_secs(60))
}

/// Whether a config turns the import on (`env.shellEnv.enabled: true`).
pub fn enabled(raw: &serde_json::Value) -> bool {
    raw.pointer("/env/shellEnv/enabled") == Some(&serde_json::Value::Bool(true))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const SHELLS: &str = "# /etc/shells\n/bin/sh\n/bin/bash\n/usr/bin/bash\n";

    #[test]
    fn only_a_listed_absolute_shell_is_used() {
        assert_eq!(
            resolve_shell(Some("/bin/bash"), SHELLS),
            Path::new("/bin/bash")
        );
        for other in [
            None,
            Some("bash"),
            Some("/bin/../bin/bash"),
            Some("/opt/fish"),
            Some(""),
        ] {
            assert_eq!(
                resolve_shell(other, SHELLS),
                Path::new("/bin/sh"),
                "{other:?}"
            );
        }
    }

    #[test]
    fn names_after_the_marker_with_a_value() {
        let out = b"profile noise\0A=1\0EMPTY=\0BLANK=  \0MULTI=x\ny\0noequals\0";
        let (set, left_out) = set_variables(out);
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["A", "MULTI"]);
        assert_eq!(left_out, 0);
        assert!(set_variables(b"no marker A=1").0.is_empty());
    }

    #[test]
    fn a_profiles_export_is_read_and_a_slow_profile_times_out() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(".profile"),
            "export FAL_KEY=from-profile\nexport EMPTY_KEY=\n",
        )
        .unwrap();
        let (set, _) = read(Path::new("/bin/sh"), home.path(), DEFAULT_TIMEOUT).unwrap();
        assert!(set.contains("FAL_KEY"), "{set:?}");
        assert!(!set.contains("EMPTY_KEY"));
        std::fs::write(home.path().join(".profile"), "sleep 30\n").unwrap();
        let started = Instant::now();
        let err = read(
            Path::new("/bin/sh"),
            home.path(),
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(err.contains("timed out"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
