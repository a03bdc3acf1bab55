//! Where the file tools may read and write (seed 003 §22.1.3, seed 004 "沙箱执行与安全隔离").
//!
//! On the host a relative path is resolved against the workspace root and anything else is allowed.
//! In a sandbox every path is resolved physically, component by component, following each
//! symlink it meets, and the result must lie under the (canonical) root. OpenClaw's guard compares
//! strings (`resolved.startsWith(root)`), which lets `/ws2` pass for root `/ws` and misses a symlink
//! pointing out; comparing canonical paths component-wise closes both holes.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::tool::ToolError;

/// How much of the workspace a sandboxed session may touch (`sandbox.workspaceAccess`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WorkspaceAccess {
    /// An isolated sandbox workspace; the agent workspace is not exposed (OpenClaw's default).
    #[default]
    None,
    /// The agent workspace, read-only: write, edit and apply_patch are refused.
    Ro,
    /// The agent workspace, read and write.
    Rw,
}

impl WorkspaceAccess {
    /// Parses the config value; unknown values fall back to the safest (`none`).
    pub fn parse(value: &str) -> WorkspaceAccess {
        match value.trim().to_ascii_lowercase().as_str() {
            "ro" => WorkspaceAccess::Ro,
            "rw" => WorkspaceAccess::Rw,
            _ => WorkspaceAccess::None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            WorkspaceAccess::None => "none",
            WorkspaceAccess::Ro => "ro",
            WorkspaceAccess::Rw => "rw",
        }
    }
}

/// What a tool is about to do with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathAccess {
    Read,
    Write,
}

/// Whether paths are confined, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuardMode {
    /// Not sandboxed: relative paths start at the root, nothing is refused.
    Host,
    /// Sandboxed: every path must resolve under the root; `writable` is false for `ro`.
    Sandbox {
        access: WorkspaceAccess,
        writable: bool,
    },
}

/// Resolves tool paths against a workspace root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathGuard {
    root: PathBuf,
    mode: GuardMode,
}

/// Symlink hops allowed while resolving one path (Linux's own limit is 40).
const MAX_SYMLINK_HOPS: u32 = 40;

impl PathGuard {
    /// An unconfined guard rooted at `root` (made absolute, not required to exist).
    pub fn host(root: impl Into<PathBuf>) -> PathGuard {
        let root = root.into();
        let root = if root.is_absolute() {
            root
        } else {
            std::env::current_dir()
                .map(|cwd| cwd.join(&root))
                .unwrap_or(root)
        };
        PathGuard {
            root: normalize_lexically(&root),
            mode: GuardMode::Host,
        }
    }

    /// A sandbox guard. The root is created when missing and canonicalised, so that a root that is
    /// itself reached through a symlink still compares correctly.
    pub fn sandboxed(
        root: impl AsRef<Path>,
        access: WorkspaceAccess,
    ) -> Result<PathGuard, ToolError> {
        let root = root.as_ref();
        fs::create_dir_all(root).map_err(|e| {
            ToolError::failed(format!(
                "cannot create sandbox workspace {}: {e}",
                root.display()
            ))
        })?;
        let root = fs::canonicalize(root).map_err(|e| {
            ToolError::failed(format!(
                "cannot resolve sandbox workspace {}: {e}",
                root.display()
            ))
        })?;
        let writable = access != WorkspaceAccess::Ro;
        Ok(PathGuard {
            root,
            mode: GuardMode::Sandbox { access, writable },
        })
    }

    /// A sandbox guard over a workspace that must already exist (the agent's configured
    /// workspace with `workspaceAccess` `rw`/`ro`): a missing one is an error, not created.
    pub(crate) fn sandboxed_existing(
        root: impl AsRef<Path>,
        access: WorkspaceAccess,
    ) -> Result<PathGuard, ToolError> {
        let root = root.as_ref();
        if !root.is_dir() {
            return Err(ToolError::failed(format!(
                "the sandbox workspace {} does not exist (clawdeck does not create a configured workspace)",
                root.display()
            )));
        }
        PathGuard::sandboxed(root, access)
    }

    /// Fails when `path` is relative and the workspace root it would start from is missing.
    pub(crate) fn require_root_for(&self, path: &str) -> Result<(), ToolError> {
        let path = path.trim();
        if path.starts_with('/') || path.starts_with('~') || self.root.is_dir() {
            return Ok(());
        }
        Err(ToolError::failed(format!(
            "the workspace {} does not exist (clawdeck does not create a configured workspace)",
            self.root.display()
        )))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn mode(&self) -> &GuardMode {
        &self.mode
    }

    pub(crate) fn is_sandboxed(&self) -> bool {
        matches!(self.mode, GuardMode::Sandbox { .. })
    }

    /// The path a tool should open for the user-supplied `path`.
    pub fn resolve(&self, path: &str, access: PathAccess) -> Result<PathBuf, ToolError> {
        let trimmed = path.trim();
        if trimmed.is_empty() {
            return Err(ToolError::input("path required"));
        }
        if trimmed.contains('\0') {
            return Err(ToolError::input(format!(
                "path contains a NUL byte: {trimmed:?}"
            )));
        }
        let expanded = crate::paths::expand_tilde(trimmed);
        match &self.mode {
            GuardMode::Host => Ok(normalize_lexically(&self.root.join(expanded))),
            GuardMode::Sandbox {
                access: workspace_access,
                writable,
            } => {
                if access == PathAccess::Write && !writable {
                    return Err(ToolError::Unauthorized(format!(
                        "Sandbox workspaceAccess is \"{}\": writing {trimmed} is not allowed",
                        workspace_access.as_str()
                    )));
                }
                let mut hops = 0;
                let resolved =
                    resolve_physically(&self.root, &expanded, &mut hops).map_err(|e| match e {
                        ResolveError::Loop => ToolError::input(format!(
                            "Too many symlinks while resolving sandbox path: {trimmed}"
                        )),
                        ResolveError::Io(e) => {
                            ToolError::failed(format!("cannot resolve {trimmed}: {e}"))
                        }
                    })?;
                if resolved.starts_with(&self.root) {
                    Ok(resolved)
                } else {
                    Err(ToolError::Unauthorized(format!(
                        "Path escapes sandbox root ({}): {trimmed}",
                        self.root.display()
                    )))
                }
            }
        }
    }

    /// `path` shown relative to the root when it lies under it (for messages and details).
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

#[derive(Debug)]
enum ResolveError {
    Loop,
    Io(io::Error),
}

/// Removes `.` and folds `..` without touching the disk (host mode only).
fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Resolves `path` (relative to the canonical directory `base`) the way the kernel would: each
/// existing component is checked with lstat and a symlink is replaced by its resolved target; `..`
/// goes to the physical parent of what has been resolved so far. Components past the first missing
/// one are kept as names. The result contains no symlink and no `.`/`..`.
fn resolve_physically(base: &Path, path: &Path, hops: &mut u32) -> Result<PathBuf, ResolveError> {
    let mut current = if path.is_absolute() {
        PathBuf::from("/")
    } else {
        base.to_path_buf()
    };
    let mut exists = true;
    for component in path.components() {
        match component {
            Component::Prefix(_) => {}
            Component::RootDir => {
                current = PathBuf::from("/");
                exists = true;
            }
            Component::CurDir => {}
            Component::ParentDir => {
                current.pop();
                // After leaving a missing directory the parent may exist again, and from then on
                // symlinks must be followed again.
                exists = fs::symlink_metadata(&current).is_ok();
            }
            Component::Normal(name) => {
                let candidate = current.join(name);
                if !exists {
                    current = candidate;
                    continue;
                }
                match fs::symlink_metadata(&candidate) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        *hops += 1;
                        if *hops > MAX_SYMLINK_HOPS {
                            return Err(ResolveError::Loop);
                        }
                        let target = fs::read_link(&candidate).map_err(ResolveError::Io)?;
                        current = resolve_physically(&current, &target, hops)?;
                        exists = fs::symlink_metadata(&current).is_ok();
                    }
                    Ok(_) => current = candidate,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        current = candidate;
                        exists = false;
                    }
                    Err(e) => return Err(ResolveError::Io(e)),
                }
            }
        }
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn sandbox() -> (tempfile::TempDir, PathGuard) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        fs::create_dir_all(root.join("sub")).unwrap();
        fs::create_dir_all(dir.path().join("ws2")).unwrap();
        fs::write(root.join("sub/a.txt"), "a").unwrap();
        let guard = PathGuard::sandboxed(&root, WorkspaceAccess::Rw).unwrap();
        (dir, guard)
    }

    #[test]
    fn relative_paths_resolve_under_the_root() {
        let (_d, g) = sandbox();
        assert_eq!(
            g.resolve("sub/a.txt", PathAccess::Read).unwrap(),
            g.root().join("sub/a.txt")
        );
        assert_eq!(
            g.resolve("./sub/../sub/new.txt", PathAccess::Write)
                .unwrap(),
            g.root().join("sub/new.txt")
        );
    }

    #[test]
    fn dotdot_and_absolute_escapes_are_refused() {
        let (_d, g) = sandbox();
        let err = g.resolve("../outside.txt", PathAccess::Read).unwrap_err();
        assert!(
            matches!(err, ToolError::Unauthorized(ref m) if m.starts_with("Path escapes sandbox root")),
            "{err}"
        );
        assert!(g.resolve("/etc/passwd", PathAccess::Read).is_err());
        assert!(
            g.resolve("sub/../../ws/sub/a.txt", PathAccess::Read)
                .is_ok()
        );
    }

    #[test]
    fn sibling_with_the_root_as_string_prefix_is_refused() {
        let (_d, g) = sandbox();
        let sibling = format!("{}2/x.txt", g.root().display());
        assert!(g.resolve(&sibling, PathAccess::Write).is_err());
        assert!(g.resolve("../ws2/x.txt", PathAccess::Write).is_err());
        // An absolute path inside the root is fine.
        let inside = format!("{}/sub/a.txt", g.root().display());
        assert!(g.resolve(&inside, PathAccess::Read).is_ok());
    }

    #[test]
    fn symlinks_pointing_out_are_refused_and_in_are_followed() {
        let (d, g) = sandbox();
        symlink(d.path(), g.root().join("out")).unwrap();
        symlink(g.root().join("sub"), g.root().join("in")).unwrap();
        symlink(d.path().join("missing-target"), g.root().join("dangling")).unwrap();
        assert!(g.resolve("out/ws2/x", PathAccess::Write).is_err());
        assert!(g.resolve("dangling", PathAccess::Write).is_err());
        assert_eq!(
            g.resolve("in/a.txt", PathAccess::Read).unwrap(),
            g.root().join("sub/a.txt")
        );
        // `in/..` is the physical parent of sub, i.e. the root.
        assert_eq!(
            g.resolve("in/../sub", PathAccess::Read).unwrap(),
            g.root().join("sub")
        );
    }

    #[test]
    fn missing_directory_then_dotdot_still_follows_symlinks() {
        let (d, g) = sandbox();
        symlink(d.path(), g.root().join("out")).unwrap();
        assert!(g.resolve("nodir/../out/secret", PathAccess::Write).is_err());
    }

    #[test]
    fn symlink_loops_are_reported() {
        let (_d, g) = sandbox();
        symlink("loop_b", g.root().join("loop_a")).unwrap();
        symlink("loop_a", g.root().join("loop_b")).unwrap();
        let err = g.resolve("loop_a/x", PathAccess::Read).unwrap_err();
        assert!(err.to_string().contains("Too many symlinks"), "{err}");
    }

    #[test]
    fn read_only_access_refuses_writes() {
        let (d, _g) = sandbox();
        let g = PathGuard::sandboxed(d.path().join("ws"), WorkspaceAccess::Ro).unwrap();
        assert!(g.resolve("sub/a.txt", PathAccess::Read).is_ok());
        let err = g.resolve("sub/a.txt", PathAccess::Write).unwrap_err();
        assert!(
            err.to_string().contains("workspaceAccess is \"ro\""),
            "{err}"
        );
    }

    #[test]
    fn host_mode_allows_anything_and_joins_relative_paths() {
        let g = PathGuard::host("/work/x");
        assert_eq!(
            g.resolve("a/../b", PathAccess::Write).unwrap(),
            PathBuf::from("/work/x/b")
        );
        assert_eq!(
            g.resolve("/etc/hosts", PathAccess::Read).unwrap(),
            PathBuf::from("/etc/hosts")
        );
        assert!(g.resolve("  ", PathAccess::Read).is_err());
    }
}
