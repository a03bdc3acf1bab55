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

/// The home directory (`$HOME`), if set.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `~` and `~/x` expand to the home directory; a relative path is taken from `base` (the
/// config file's directory) when there is one.
pub fn expand_path(raw: &str, home: Option<&Path>, base: Option<&Path>) -> PathBuf {
    let raw = raw.trim();
    if let Some(home) = home {
        if raw == "~" {
            return home.to_path_buf();
        }
        if let Some(rest) = raw.strip_prefix("~/") {
            return home.join(rest);
        }
    }
    let path = PathBuf::from(raw);
    let joined = match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path,
    };
    // The model reads SKILL.md from its own working directory: give it absolute, tidy paths.
    let absolute = if joined.is_relative() {
        std::env::current_dir()
            .map(|cwd| cwd.join(&joined))
            .unwrap_or(joined)
    } else {
        joined
    };
    normalize_lexically(&absolute)
}

/// Drops `.` components and folds `dir/..` without touching the filesystem.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The manifest every OpenClaw plugin directory holds.
pub const PLUGIN_MANIFEST: &str = "openclaw.plugin.json";

/// OpenClaw's workspace for an agent with none configured: `<state>/workspace` for the default
/// agent, `<state>/workspace-<id>` for the others.
pub fn openclaw_default_workspace(agent: &str, is_default: bool) -> Option<PathBuf> {
    let state = openclaw_state_dir()?;
    Some(if is_default {
        state.join("workspace")
    } else {
        state.join(format!("workspace-{agent}"))
    })
}

/// `~` and `~/x` become the home directory, as OpenClaw's resolveUserPath and its tools read
/// a configured path; any other path stays as written.
pub fn expand_tilde(path: &str) -> PathBuf {
    if (path == "~" || path.starts_with("~/"))
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(path.trim_start_matches('~').trim_start_matches('/'));
    }
    PathBuf::from(path)
}

/// OpenClaw's state directory: `OPENCLAW_STATE_DIR`, else `~/.openclaw`.
pub fn openclaw_state_dir_of(state_env: Option<&str>, home: Option<&Path>) -> Option<PathBuf> {
    match state_env.map(str::trim).filter(|s| !s.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => home.map(|h| h.join(".openclaw")),
    }
}

/// [`openclaw_state_dir_of`] from this process's `OPENCLAW_STATE_DIR` and `HOME`.
pub fn openclaw_state_dir() -> Option<PathBuf> {
    let state_env = std::env::var("OPENCLAW_STATE_DIR").ok();
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    openclaw_state_dir_of(state_env.as_deref(), home.as_deref())
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

/// The installed OpenClaw package (the folder with its `package.json` and `docs/`) behind the
/// `openclaw` binary clawdeck would run: the binary's own package (npm's link to
/// `openclaw.mjs`), or a wrapper's `../openclaw/node_modules/openclaw` or
/// `../lib/node_modules/openclaw`.
pub fn openclaw_package(bin: &str) -> Option<PathBuf> {
    let real = std::fs::canonicalize(which(bin)?).ok()?;
    let is_package = |dir: &Path| {
        std::fs::read_to_string(dir.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .is_some_and(|v| v.get("name").and_then(serde_json::Value::as_str) == Some("openclaw"))
            && dir.join("docs").is_dir()
    };
    real.ancestors().take(6).find_map(|dir| {
        [
            dir.to_path_buf(),
            dir.join("openclaw/node_modules/openclaw"),
            dir.join("lib/node_modules/openclaw"),
        ]
        .into_iter()
        .find(|candidate| is_package(candidate))
    })
}

/// The Node.js version (`v24.22.3`) of the node that runs the `openclaw` binary clawdeck would
/// run, as OpenClaw names it in 2026.8's Runtime line: a wrapper script's `.../bin/node`, else
/// the `node` on PATH; read from that install's `include/node/node_version.h` (nothing is
/// started; none when the header is not there).
pub fn openclaw_node_version(bin: &str) -> Option<String> {
    let script = which(bin).and_then(|p| std::fs::canonicalize(p).ok());
    let pinned = script
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < 64 * 1024))
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| {
            text.split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .find(|word| word.starts_with('/') && word.ends_with("/bin/node"))
                .map(PathBuf::from)
        });
    let node = pinned.or_else(|| which("node"))?;
    let node = std::fs::canonicalize(&node).unwrap_or(node);
    let header = node.parent()?.parent()?.join("include/node/node_version.h");
    node_version_of(&std::fs::read_to_string(header).ok()?)
}

/// `v<major>.<minor>.<patch>` from node_version.h's defines.
fn node_version_of(header: &str) -> Option<String> {
    let part = |name: &str| {
        header.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("#define ")?.strip_prefix(name)?;
            rest.trim().parse::<u32>().ok()
        })
    };
    Some(format!(
        "v{}.{}.{}",
        part("NODE_MAJOR_VERSION")?,
        part("NODE_MINOR_VERSION")?,
        part("NODE_PATCH_VERSION")?
    ))
}

/// A program by path, or the first of that name on PATH.
fn which(bin: &str) -> Option<PathBuf> {
    if bin.contains('/') {
        return Some(PathBuf::from(bin));
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|d| d.join(bin))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_version_is_read_from_the_header_defines() {
        let header = "#define NODE_MAJOR_VERSION 24\n#define NODE_MINOR_VERSION 22\n\
                      #define NODE_PATCH_VERSION 3\n#define NODE_VERSION_IS_RELEASE 1\n";
        assert_eq!(node_version_of(header).as_deref(), Some("v24.22.3"));
        assert_eq!(node_version_of("#define NODE_MAJOR_VERSION 24"), None);
    }

    #[test]
    fn the_state_dir_is_openclaw_state_dir_else_home_dot_openclaw() {
        let home = Path::new("/home/op");
        assert_eq!(
            openclaw_state_dir_of(Some("/srv/claw"), Some(home)),
            Some(std::path::PathBuf::from("/srv/claw"))
        );
        assert_eq!(
            openclaw_state_dir_of(Some("  "), Some(home)),
            Some(std::path::PathBuf::from("/home/op/.openclaw"))
        );
        assert_eq!(openclaw_state_dir_of(None, None), None);
    }
}
