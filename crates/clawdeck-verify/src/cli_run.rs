//! The OpenClaw CLI as the lab runs it: in an environment of its own, and what its output
//! says once its colours are gone.

use std::path::Path;
use std::time::Duration;

use crate::process::ProcessSpec;

/// The CLI with an environment of its own: only PATH and locale pass through, HOME is the
/// isolated home (also as REALCLAW_HOME, which ../shared/realclaw's wrapper honours), so the
/// operator's state, gateway and credentials are never touched.
pub(crate) fn cli_spec(program: &Path, home: &Path, timeout: Duration) -> ProcessSpec {
    let home = home.display().to_string();
    let mut spec = ProcessSpec::new(program.display().to_string())
        .clear_env(true)
        .env("HOME", home.clone())
        .env("REALCLAW_HOME", home.clone())
        .env("OPENCLAW_HIDE_BANNER", "1")
        .env("NO_COLOR", "1")
        .cwd(home)
        .timeout(Some(timeout));
    for key in ["PATH", "LANG", "LC_ALL", "TMPDIR", "TZ"] {
        if let Ok(value) = std::env::var(key) {
            spec = spec.env(key, value);
        }
    }
    spec
}

/// Writes the run's config into its home (`~/.openclaw/openclaw.json`, 0600: it holds the
/// operator's tokens and a private gateway's).
pub(crate) fn write_run_config(
    home: &Path,
    config: &serde_json::Value,
) -> Result<(), crate::VerifyError> {
    let path = home.join(".openclaw").join("openclaw.json");
    let text = serde_json::to_string_pretty(config).unwrap_or_default();
    crate::process::private_fs::write_private(&path, text.as_bytes()).map_err(|err| {
        crate::VerifyError::Home {
            path: path.display().to_string(),
            message: err.to_string(),
        }
    })
}

/// The visible text of OpenClaw's diagnostics (their colours and every other escape sequence
/// dropped), through the one sanitizer, as the router reads the same CLI.
pub fn strip_ansi(text: &str) -> String {
    clawdeck_core::sanitize::plain(text)
}

/// The last `n` lines that are not blank.
pub(crate) fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
