//! Skills for the embedded demo config. The prompt tells the model to `read` a skill's SKILL.md
//! at its location, so the demo's skills need real files: they are written (once, and again
//! only when their text changes) under the user's cache directory, and the demo's
//! `skills.load.extraDirs` names that directory, so that OpenClaw reads them as clawdeck does.

use std::path::{Path, PathBuf};

/// (directory name, SKILL.md text) of every demo skill.
pub(crate) const DEMO_SKILLS: &[(&str, &str)] = &[
    (
        "db-expert",
        include_str!("../../../../assets/demo/skills/db-expert/SKILL.md"),
    ),
    (
        "log-summary",
        include_str!("../../../../assets/demo/skills/log-summary/SKILL.md"),
    ),
    (
        "web-developer",
        include_str!("../../../../assets/demo/skills/web-developer/SKILL.md"),
    ),
];

/// `$XDG_CACHE_HOME/clawdeck/demo-skills`, else `~/.cache/clawdeck/demo-skills`, else under the
/// system temp directory (next to the demo workspace).
pub fn demo_skills_dir() -> PathBuf {
    super::demo_workspace::cache_dir().join("demo-skills")
}

/// Writes the demo skills and returns their root; `None` (with a warning in the log) when the
/// cache directory cannot be written, in which case the demo simply has no skills.
pub(crate) fn materialize_demo_skills() -> Option<PathBuf> {
    let root = demo_skills_dir();
    match write_skills(&root) {
        Ok(()) => Some(root),
        Err(err) => {
            tracing::warn!("demo skills not written to {}: {err}", root.display());
            None
        }
    }
}

pub(crate) fn write_skills(root: &Path) -> std::io::Result<()> {
    for (dir, text) in DEMO_SKILLS {
        let path = root.join(dir).join("SKILL.md");
        // A FIFO or link planted in the cache is refused, never waited on or written through.
        let links = crate::regular_file::Links::Refuse;
        if crate::regular_file::read_to_string(&path, links).is_ok_and(|current| current == *text) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        crate::regular_file::write(&path, text.as_bytes(), 0o644, links)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_skills_are_written_once_and_parse() {
        let dir = tempfile::tempdir().unwrap();
        write_skills(dir.path()).unwrap();
        let path = dir.path().join("db-expert").join("SKILL.md");
        let written = std::fs::metadata(&path).unwrap().modified().unwrap();
        write_skills(dir.path()).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            written
        );
        for (name, _) in DEMO_SKILLS {
            assert!(dir.path().join(name).join("SKILL.md").is_file(), "{name}");
        }
    }

    #[test]
    fn a_fifo_in_the_cache_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join(DEMO_SKILLS[0].0);
        std::fs::create_dir_all(&skill).unwrap();
        nix::unistd::mkfifo(
            &skill.join("SKILL.md"),
            nix::sys::stat::Mode::from_bits_truncate(0o600),
        )
        .unwrap();
        let err = write_skills(dir.path()).unwrap_err();
        assert_eq!(err.to_string(), "a FIFO, not a regular file");
    }
}
