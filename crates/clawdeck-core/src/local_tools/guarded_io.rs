//! The file operations of read, write, edit and apply_patch, done through the path guard.
//!
//! In a sandbox the guard's check and the use are one operation (see `beneath`): files are opened
//! under a handle on the root, following no symlink; a regular file with more than one hard link
//! is refused (its other name may lie outside, and the inode is the same); writes go to a temp file
//! in the same directory that is then renamed over the name, so an existing inode is never
//! truncated or changed in place. Everywhere, only regular files are read or replaced: a FIFO,
//! device or socket where a file is expected is an error, not a hang or an endless read.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use nix::fcntl::{AtFlags, OFlag, renameat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstatat};
use nix::unistd::{UnlinkatFlags, unlinkat};

use super::beneath::{Strategy, open_beneath, open_dir, walk_to_parent};
use super::path_guard::{PathAccess, PathGuard};
use crate::tool::ToolError;

/// What kind of non-regular file stands where a file was expected.
fn kind_of(mode: u32) -> &'static str {
    match SFlag::from_bits_truncate(mode & SFlag::S_IFMT.bits()) {
        SFlag::S_IFDIR => "a directory",
        SFlag::S_IFIFO => "a FIFO",
        SFlag::S_IFCHR => "a character device",
        SFlag::S_IFBLK => "a block device",
        SFlag::S_IFSOCK => "a socket",
        SFlag::S_IFLNK => "a symlink",
        _ => "not a regular file",
    }
}

fn refuse_kind(mode: u32) -> io::Result<()> {
    if mode & SFlag::S_IFMT.bits() == SFlag::S_IFREG.bits() {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "not a regular file ({})",
            kind_of(mode)
        )))
    }
}

fn refuse_hard_links(nlink: u64) -> io::Result<()> {
    if nlink > 1 {
        Err(io::Error::other(format!(
            "the file has {nlink} hard links; the sandbox refuses files with more than one link (another name may lie outside the workspace)"
        )))
    } else {
        Ok(())
    }
}

/// Counter making temp names unique within this process.
static TEMP_SEQ: AtomicU64 = AtomicU64::new(0);

fn temp_name(name: &std::ffi::OsStr) -> String {
    format!(
        ".{}.clawdeck-{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_SEQ.fetch_add(1, Ordering::Relaxed)
    )
}

/// A path the guard approved: in a sandbox the names under the root, on the host the full path.
enum Target {
    Beneath { root: PathBuf, rel: PathBuf },
    Host(PathBuf),
}

impl PathGuard {
    fn target(&self, raw: &str, access: PathAccess) -> Result<Target, ToolError> {
        self.require_root_for(raw)?;
        let resolved = self.resolve(raw, access)?;
        if !self.is_sandboxed() {
            return Ok(Target::Host(resolved));
        }
        match resolved.strip_prefix(self.root()) {
            Ok(rel) if !rel.as_os_str().is_empty() => Ok(Target::Beneath {
                root: self.root().to_path_buf(),
                rel: rel.to_path_buf(),
            }),
            _ => Err(ToolError::input(format!(
                "{raw} is the sandbox root, not a file"
            ))),
        }
    }

    /// Opens `raw` for reading: a regular file only; in a sandbox beneath the root with no
    /// symlink followed and a single link. `access` is the check the caller needs (edit and
    /// apply_patch read what they will write).
    pub(crate) fn open_regular(&self, raw: &str, access: PathAccess) -> Result<File, OpenError> {
        let target = self.target(raw, access).map_err(OpenError::Refused)?;
        open_regular_target(&target, self.is_sandboxed()).map_err(OpenError::Io)
    }

    /// Replaces `raw` with `bytes` (parent directories created): a temp file in the same
    /// directory, renamed over the name. An existing file keeps its permission bits.
    pub(crate) fn replace_file(&self, raw: &str, bytes: &[u8]) -> Result<(), OpenError> {
        let target = self
            .target(raw, PathAccess::Write)
            .map_err(OpenError::Refused)?;
        replace_target(&target, bytes, self.is_sandboxed()).map_err(OpenError::Io)
    }

    /// Fails unless `raw` names a regular file that could be removed.
    pub(crate) fn check_removable(&self, raw: &str) -> Result<(), OpenError> {
        let target = self
            .target(raw, PathAccess::Write)
            .map_err(OpenError::Refused)?;
        removable(&target).map(|_| ()).map_err(OpenError::Io)
    }

    /// Removes the regular file `raw` (its name only: other links keep the inode).
    pub(crate) fn remove_file(&self, raw: &str) -> Result<(), OpenError> {
        let target = self
            .target(raw, PathAccess::Write)
            .map_err(OpenError::Refused)?;
        match removable(&target).map_err(OpenError::Io)? {
            Removable::Beneath(parent, name) => {
                unlinkat(parent.as_fd(), name.as_os_str(), UnlinkatFlags::NoRemoveDir)
                    .map_err(|e| OpenError::Io(e.into()))
            }
            Removable::Host(path) => std::fs::remove_file(path).map_err(OpenError::Io),
        }
    }
}

/// Why a guarded file operation failed: the guard's own refusal (kept as is) or an I/O error
/// the tool words with its path.
#[derive(Debug)]
pub enum OpenError {
    Refused(ToolError),
    Io(io::Error),
}

impl OpenError {
    /// A tool error: refusals as they are, I/O errors as `{prefix}: {error}`.
    pub(crate) fn into_tool_error(self, prefix: &str) -> ToolError {
        match self {
            OpenError::Refused(e) => e,
            OpenError::Io(e) => ToolError::failed(format!("{prefix}: {e}")),
        }
    }
}

fn open_regular_target(target: &Target, sandboxed: bool) -> io::Result<File> {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the file is checked right after.
    let file = match target {
        Target::Beneath { root, rel } => {
            let root = open_dir(root)?;
            let fd = open_beneath(
                root.as_fd(),
                rel,
                OFlag::O_RDONLY | OFlag::O_NONBLOCK | OFlag::O_NOCTTY,
                Mode::empty(),
                Strategy::Best,
            )?;
            File::from(fd)
        }
        Target::Host(path) => std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path)?,
    };
    let meta = file.metadata()?;
    refuse_kind(meta.mode())?;
    if sandboxed {
        refuse_hard_links(meta.nlink())?;
    }
    Ok(file)
}

/// The directory holding the target and the target's name there.
enum Parent {
    Beneath(OwnedFd, std::ffi::OsString),
    Host(PathBuf, std::ffi::OsString),
}

fn parent_of(target: &Target, create: bool) -> io::Result<Parent> {
    match target {
        Target::Beneath { root, rel } => {
            let root = open_dir(root)?;
            let (parent, name) = walk_to_parent(root.as_fd(), rel, create)?;
            Ok(Parent::Beneath(parent, name))
        }
        Target::Host(path) => {
            // The host is not confined: a symlink at the name is written through, as before.
            let path = match std::fs::canonicalize(path) {
                Ok(real) => real,
                Err(_) => path.clone(),
            };
            let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a file path", path.display()),
                ));
            };
            if create {
                std::fs::create_dir_all(dir)?;
            }
            Ok(Parent::Host(dir.to_path_buf(), name.to_os_string()))
        }
    }
}

fn stat_name(parent: &Parent) -> io::Result<Option<FileStat>> {
    let stat = match parent {
        Parent::Beneath(dir, name) => {
            fstatat(dir.as_fd(), name.as_os_str(), AtFlags::AT_SYMLINK_NOFOLLOW)
        }
        Parent::Host(dir, name) => nix::sys::stat::lstat(&dir.join(name)),
    };
    match stat {
        Ok(stat) => Ok(Some(stat)),
        Err(nix::errno::Errno::ENOENT) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn replace_target(target: &Target, bytes: &[u8], sandboxed: bool) -> io::Result<()> {
    let parent = parent_of(target, true)?;
    let existing = stat_name(&parent)?;
    if let Some(stat) = &existing {
        refuse_kind(stat.st_mode)?;
        if sandboxed {
            refuse_hard_links(stat.st_nlink)?;
        }
    }
    let (dir_fd, name) = match &parent {
        Parent::Beneath(dir, name) => (dir.try_clone()?, name.clone()),
        Parent::Host(dir, name) => (open_dir(dir)?, name.clone()),
    };
    let temp = temp_name(&name);
    let fd = nix::fcntl::openat(
        dir_fd.as_fd(),
        temp.as_str(),
        OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
        Mode::from_bits_truncate(0o666),
    )?;
    let written = (|| -> io::Result<()> {
        let mut file = File::from(fd);
        if let Some(stat) = &existing {
            file.set_permissions(std::fs::Permissions::from_mode(stat.st_mode & 0o7777))?;
        }
        file.write_all(bytes)?;
        renameat(
            dir_fd.as_fd(),
            temp.as_str(),
            dir_fd.as_fd(),
            name.as_os_str(),
        )?;
        Ok(())
    })();
    if written.is_err() {
        let _ = unlinkat(dir_fd.as_fd(), temp.as_str(), UnlinkatFlags::NoRemoveDir);
    }
    written
}

enum Removable {
    Beneath(OwnedFd, std::ffi::OsString),
    Host(PathBuf),
}

fn removable(target: &Target) -> io::Result<Removable> {
    let parent = parent_of(target, false)?;
    match stat_name(&parent)? {
        None => return Err(io::Error::from(io::ErrorKind::NotFound)),
        Some(stat) => refuse_kind(stat.st_mode)?,
    }
    Ok(match parent {
        Parent::Beneath(dir, name) => Removable::Beneath(dir, name),
        Parent::Host(dir, name) => Removable::Host(dir.join(name)),
    })
}

/// Reads a whole regular file as UTF-8 (edit and apply_patch work on the full text).
pub fn read_to_string(file: &mut File) -> io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}
