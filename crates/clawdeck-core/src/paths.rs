//! Where clawdeck keeps its own state (device identity) and data (synced packs), following the
//! XDG base directories: `$XDG_STATE_HOME/clawdeck` (else `~/.local/state/clawdeck`) and
//! `$XDG_DATA_HOME/clawdeck` (else `~/.local/share/clawdeck`). Dirs clawdeck creates are
//! private to their owner (0700).

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

fn xdg_dir(var: &str, home_relative: &str) -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("clawdeck"));
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or_else(|| format!("neither {var} nor HOME is set; cannot place clawdeck's files"))?;
    Ok(PathBuf::from(home).join(home_relative).join("clawdeck"))
}

/// clawdeck's state dir (the gateway device identity lives here).
pub fn state_dir() -> Result<PathBuf, String> {
    xdg_dir("XDG_STATE_HOME", ".local/state")
}

/// clawdeck's data dir (packs synced from gateways live in `packs/`).
pub fn data_dir() -> Result<PathBuf, String> {
    xdg_dir("XDG_DATA_HOME", ".local/share")
}

/// clawdeck's cache dir (the version probe's answer, the demo's workspace and skills).
pub fn cache_dir() -> Result<PathBuf, String> {
    xdg_dir("XDG_CACHE_HOME", ".cache")
}

/// Where the console's copies (`y`) are written: the state dir, else under the system temp
/// directory (a copy is worth keeping even on a machine without HOME).
pub fn console_copies_dir() -> PathBuf {
    state_dir().unwrap_or_else(|_| std::env::temp_dir().join("clawdeck"))
}

/// Makes clawdeck's own state dir safe to keep the device key in: created 0700; an existing
/// one of the user's that group or others can reach is tightened to 0700 (with a warning), and
/// a dir another user owns (root aside) is refused, since its owner could swap the key.
pub fn private_state_dir(dir: &Path) -> Result<(), String> {
    crate::process::private_fs::create_private_dir_all(dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    let meta =
        std::fs::metadata(dir).map_err(|err| format!("cannot read {}: {err}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    let me = crate::regular_file::effective_uid();
    if meta.uid() != me && meta.uid() != 0 {
        return Err(format!(
            "{} belongs to another user (uid {}); clawdeck keeps its device key only in a dir of \
             its own user: set XDG_STATE_HOME to a dir of yours",
            dir.display(),
            meta.uid()
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        if meta.uid() != me {
            return Err(format!(
                "{} can be reached by group or others (mode {mode:04o}) and is not yours to \
                 tighten; it holds clawdeck's device key: run `chmod 700 {}` as its owner",
                dir.display(),
                dir.display()
            ));
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(|err| {
            format!(
                "{} can be reached by group or others (mode {mode:04o}) and cannot be made \
                 private: {err}; run `chmod 700 {}`",
                dir.display(),
                dir.display()
            )
        })?;
        tracing::warn!(
            "{} could be reached by group or others (mode {mode:04o}); made it 0700, as it holds \
             clawdeck's device key",
            dir.display()
        );
    }
    Ok(())
}
