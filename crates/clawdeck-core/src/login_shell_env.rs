//! The variables a login shell sets, for `env.shellEnv.enabled: true`: OpenClaw then runs the
//! gateway user's login shell at start (`$SHELL -l -c "printf '\0'; env -0"`, `-lic` for bash;
//! `$SHELL` only when it is an absolute path `/etc/shells` lists, else `/bin/sh`) and imports
//! the provider and channel keys it is missing, so a key exported in `~/.profile` brings the
//! media tools as one in `env.vars` does. clawdeck runs the same shell the same way through the
//! process supervisor (its own process group, killed at the timeout), with the environment a
//! service starts with (`HOME`, `USER`, `LOGNAME`, `SHELL`, a plain `PATH`: not clawdeck's own
//! variables); only the names of the variables set to something other than blanks are kept,
//! never a value.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::dotenv::{BoundedNames, DotEnv, DotEnvPlace};
use crate::process::{OutputLimits, ProcessSpec};

/// What the shell prints after its profile ran: a NUL, then the environment NUL-separated.
const ENV_COMMAND: &str = "printf '\\0'; env -0";
/// OpenClaw's default `env.shellEnv.timeoutMs`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// Most of the shell's output read (OpenClaw's maxBuffer).
const MAX_OUTPUT_BYTES: usize = 2 * 1024 * 1024;

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
/// [`crate::dotenv::MAX_VARIABLES`].
pub fn set_variables(output: &str) -> (std::collections::BTreeSet<String>, usize) {
    let mut names = BoundedNames::default();
    if let Some((_, env)) = output.split_once('\0') {
        for (name, value) in env.split('\0').filter_map(|entry| entry.split_once('=')) {
            if !name.is_empty() && !value.trim().is_empty() {
                names.insert(name);
            }
        }
    }
    (names.set, names.left_out)
}

/// Runs `shell` as a login shell in `home` and returns the names it sets (and how many were
/// left out), or why it could not: it did not start, timed out after `timeout` (the group is
/// killed), exited with a failure, or printed more than OpenClaw reads (which fails there too).
pub fn read(
    shell: &Path,
    home: &Path,
    timeout: Duration,
) -> Result<(std::collections::BTreeSet<String>, usize), String> {
    let user = std::env::var("USER").unwrap_or_default();
    let shell_text = shell.display().to_string();
    let spec = ProcessSpec::new(shell_text.clone())
        .args(shell_args(shell))
        .clear_env(true)
        .env("HOME", home.display().to_string())
        .env("USER", user.clone())
        .env("LOGNAME", user)
        .env("SHELL", shell_text.clone())
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .cwd(home)
        .timeout(Some(timeout))
        .kill_grace(Duration::from_millis(200))
        .limits(OutputLimits {
            max_retained_bytes: MAX_OUTPUT_BYTES,
            ..OutputLimits::default()
        });
    let outcome = crate::process::run_blocking(spec)
        .map_err(|err| format!("{shell_text} did not start: {err}"))?;
    if outcome.timed_out {
        return Err(format!(
            "{shell_text} -l timed out after {} ms",
            timeout.as_millis()
        ));
    }
    if !outcome.success() {
        return Err(format!("{shell_text} -l failed ({})", outcome.summary()));
    }
    if outcome.output.truncated() {
        return Err(format!(
            "{shell_text} -l printed more than the {MAX_OUTPUT_BYTES} bytes read"
        ));
    }
    Ok(set_variables(&outcome.output.stdout_text()))
}

/// What the login shell OpenClaw would run (`$SHELL` when `/etc/shells` lists it, else
/// `/bin/sh`) sets in `home`, for a config with `env.shellEnv` on, as a [`DotEnv`] whose path
/// is the shell, and a warning when it set more variables than clawdeck keeps.
pub fn read_env(home: &Path, raw: &serde_json::Value) -> Result<(DotEnv, Option<String>), String> {
    let listed = std::fs::read_to_string("/etc/shells").unwrap_or_default();
    let shell = resolve_shell(std::env::var("SHELL").ok().as_deref(), &listed);
    let (set, left_out) = read(&shell, home, timeout_of(raw))?;
    let warning = crate::dotenv::left_out_warning("env.shellEnv", left_out);
    let env = DotEnv {
        path: shell,
        place: DotEnvPlace::LoginShell,
        set,
    };
    Ok((env, warning))
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
        let out = "profile noise\0A=1\0EMPTY=\0BLANK=  \0MULTI=x\ny\0noequals\0";
        let (set, left_out) = set_variables(out);
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["A", "MULTI"]);
        assert_eq!(left_out, 0);
        assert!(set_variables("no marker A=1").0.is_empty());
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
        let started = std::time::Instant::now();
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
