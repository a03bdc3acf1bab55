//! The embedded demo's workspace. The demo config cannot name a directory that exists on every
//! machine, so clawdeck makes its own, `$XDG_CACHE_HOME/clawdeck/demo-workspace` (else
//! `~/.cache/clawdeck/demo-workspace`, else under the system temp directory), puts a README and
//! a notes file in it, and points the demo's `agents.defaults.workspace` there. The files are
//! written only when missing: what the operator (or a demo `write`) puts there stays.

use std::path::{Path, PathBuf};

/// (file name, text) of every file the demo workspace starts with.
const DEMO_FILES: &[(&str, &str)] = &[
    (
        "README.md",
        include_str!("../../../../assets/demo/workspace/README.md"),
    ),
    (
        "notes.md",
        include_str!("../../../../assets/demo/workspace/notes.md"),
    ),
];

/// clawdeck's cache directory: `$XDG_CACHE_HOME/clawdeck`, else `~/.cache/clawdeck`, else
/// `<temp>/clawdeck` (the demo's skills and workspace live here).
pub(crate) fn cache_dir() -> PathBuf {
    crate::paths::cache_dir().unwrap_or_else(|_| std::env::temp_dir().join("clawdeck"))
}

/// Where the demo workspace is.
pub fn demo_workspace_dir() -> PathBuf {
    cache_dir().join("demo-workspace")
}

/// Creates the demo workspace with its files (those missing) and returns it; the error names
/// the file that could not be written.
pub(crate) fn materialize_demo_workspace() -> Result<PathBuf, String> {
    let root = demo_workspace_dir();
    write_missing(&root)?;
    Ok(root)
}

fn write_missing(root: &Path) -> Result<(), String> {
    std::fs::create_dir_all(root)
        .map_err(|err| format!("cannot create {}: {err}", root.display()))?;
    for (name, text) in DEMO_FILES {
        let path = root.join(name);
        if std::fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        std::fs::write(&path, text)
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_are_written_and_present_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        write_missing(&root).unwrap();
        for (name, text) in DEMO_FILES {
            assert_eq!(std::fs::read_to_string(root.join(name)).unwrap(), *text);
        }
        std::fs::write(root.join("notes.md"), "mine").unwrap();
        std::fs::remove_file(root.join("README.md")).unwrap();
        write_missing(&root).unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("notes.md")).unwrap(),
            "mine"
        );
        assert!(root.join("README.md").is_file());
    }
}
