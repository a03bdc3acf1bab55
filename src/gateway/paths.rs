//! Where clawdeck keeps its own state (device identity) and data (synced packs), following the
//! XDG base directories: `$XDG_STATE_HOME/clawdeck` (else `~/.local/state/clawdeck`) and
//! `$XDG_DATA_HOME/clawdeck` (else `~/.local/share/clawdeck`).

use std::path::PathBuf;

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
