//! Scratch directories and files that may hold secrets (a copy of openclaw.json with tokens, a
//! router message, console copies, logs): readable by their owner only from the moment they
//! exist (0700 directories, 0600 files), never chmod-ed after the fact.

use std::fs::DirBuilder;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;

const PRIVATE_DIR: u32 = 0o700;
const PRIVATE_FILE: u32 = 0o600;

/// Creates `path` (0700); an existing directory there is an error, so nobody can hand us one
/// they made first in a shared directory such as /tmp.
pub fn create_private_dir(path: &Path) -> std::io::Result<()> {
    DirBuilder::new().mode(PRIVATE_DIR).create(path)
}

/// Creates `path` and its missing parents (each 0700); existing directories are left as they
/// are.
pub fn create_private_dir_all(path: &Path) -> std::io::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(PRIVATE_DIR)
        .create(path)
}

/// Writes `bytes` to `path`, created 0600 (an existing file is truncated and made 0600 too);
/// a link, FIFO or anything but a regular file there is refused (see `regular_file`).
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = crate::regular_file::create_truncate(
        path,
        PRIVATE_FILE,
        crate::regular_file::Links::Refuse,
    )?;
    file.set_permissions(std::fs::Permissions::from_mode(PRIVATE_FILE))?;
    file.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .map(|m| m.mode() & 0o777)
            .unwrap_or(0)
    }

    #[test]
    fn directories_are_0700_and_files_0600_and_a_planted_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let scratch = dir.path().join("scratch");
        create_private_dir(&scratch).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&scratch), 0o700);
        assert!(
            create_private_dir(&scratch).is_err(),
            "an existing directory"
        );
        let nested = dir.path().join("a/b");
        create_private_dir_all(&nested).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((mode(&dir.path().join("a")), mode(&nested)), (0o700, 0o700));
        let file = scratch.join("openclaw.json");
        std::fs::write(&file, "old").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644))
            .unwrap_or_else(|e| panic!("{e}"));
        write_private(&file, b"{}").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&file), 0o600);
        assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), "{}");
    }
}
