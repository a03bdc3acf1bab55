//! Opening files under a directory handle so that a path's check and its use are one operation.
//!
//! The path guard resolves a sandbox path to plain names under the root (no symlink, no `..`).
//! Opening that result by its full name again would follow whatever the names point to by then:
//! a directory swapped for a symlink between the check and the open lets the tool out. Here every
//! open starts at a handle on the root and the kernel refuses to follow any symlink or leave the
//! root while resolving: `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` where the kernel
//! has it (Linux 5.6+), else a walk that opens one name at a time with `O_NOFOLLOW`. A swap then
//! makes the call fail; it never makes it act outside.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};
use std::sync::atomic::{AtomicBool, Ordering};

use nix::errno::Errno;
use nix::fcntl::{OFlag, OpenHow, ResolveFlag, openat, openat2};
use nix::sys::stat::{Mode, mkdirat};

/// Set once `openat2` turned out to be missing (ENOSYS, or EPERM from a seccomp filter).
static OPENAT2_MISSING: AtomicBool = AtomicBool::new(false);

/// Retries for `openat2`'s EAGAIN (a rename elsewhere raced a `..` check; we pass no `..`).
const OPENAT2_RETRIES: usize = 8;

/// How the component walk and `openat2` are chosen (tests force the walk).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// `openat2` when the kernel has it, else the walk.
    Best,
    /// The `O_NOFOLLOW` walk only.
    #[cfg(test)]
    Walk,
}

/// A directory handle for `path` (followed normally: the root itself is trusted).
pub(crate) fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    Ok(nix::fcntl::open(
        path,
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )?)
}

/// The plain names of a relative path; `.`, `..`, roots and empty paths are refused.
fn plain_names(rel: &Path) -> io::Result<Vec<&OsStr>> {
    let mut names = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => names.push(name),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("not a plain relative path: {}", rel.display()),
                ));
            }
        }
    }
    if names.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "empty relative path",
        ));
    }
    Ok(names)
}

/// What a refused symlink or escape looks like to the caller.
fn explain(errno: Errno) -> io::Error {
    match errno {
        Errno::ELOOP => io::Error::other(
            "a symlink is in the way (the path changed after it was checked, or names a symlink); the sandbox follows none here",
        ),
        Errno::EXDEV => io::Error::other("the path leaves the sandbox root"),
        other => io::Error::from(other),
    }
}

/// Opens `rel` (plain names only) under `dir` without following any symlink and without leaving
/// `dir`. `mode` is used only with `O_CREAT`.
pub(crate) fn open_beneath(
    dir: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlag,
    mode: Mode,
    strategy: Strategy,
) -> io::Result<OwnedFd> {
    plain_names(rel)?;
    let flags = flags | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW;
    let mode = if flags.contains(OFlag::O_CREAT) {
        mode
    } else {
        Mode::empty()
    };
    if strategy == Strategy::Best && !OPENAT2_MISSING.load(Ordering::Relaxed) {
        let how = OpenHow::new().flags(flags).mode(mode).resolve(
            ResolveFlag::RESOLVE_BENEATH
                | ResolveFlag::RESOLVE_NO_SYMLINKS
                | ResolveFlag::RESOLVE_NO_MAGICLINKS,
        );
        for _ in 0..OPENAT2_RETRIES {
            match openat2(dir, rel, how) {
                Ok(fd) => return Ok(fd),
                Err(Errno::EAGAIN) => continue,
                Err(Errno::ENOSYS | Errno::EPERM) => {
                    OPENAT2_MISSING.store(true, Ordering::Relaxed);
                    break;
                }
                Err(e) => return Err(explain(e)),
            }
        }
    }
    let (parent, name) = walk_to_parent(dir, rel, false)?;
    openat(parent.as_fd(), name.as_os_str(), flags, mode).map_err(explain)
}

/// Opens the directory holding `rel`'s last name, one name at a time with `O_NOFOLLOW`, creating
/// missing directories when `create` is set; returns it with that last name.
pub(crate) fn walk_to_parent(
    dir: BorrowedFd<'_>,
    rel: &Path,
    create: bool,
) -> io::Result<(OwnedFd, OsString)> {
    let names = plain_names(rel)?;
    let (last, parents) = names
        .split_last()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty relative path"))?;
    let dir_flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let mut current: OwnedFd = openat(dir, ".", dir_flags, Mode::empty())?;
    for name in parents {
        let next = match openat(current.as_fd(), *name, dir_flags, Mode::empty()) {
            Err(Errno::ENOENT) if create => {
                match mkdirat(current.as_fd(), *name, Mode::from_bits_truncate(0o777)) {
                    Ok(()) | Err(Errno::EEXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                openat(current.as_fd(), *name, dir_flags, Mode::empty())
            }
            other => other,
        };
        current = match next {
            Ok(fd) => fd,
            // O_DIRECTORY | O_NOFOLLOW on a symlink says ENOTDIR; name the symlink instead.
            Err(Errno::ENOTDIR) if is_symlink(current.as_fd(), name) => {
                return Err(explain(Errno::ELOOP));
            }
            Err(e) => return Err(explain(e)),
        };
    }
    Ok((current, last.to_os_string()))
}

fn is_symlink(dir: BorrowedFd<'_>, name: &OsStr) -> bool {
    nix::sys::stat::fstatat(dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW)
        .is_ok_and(|stat| stat.st_mode & libc::S_IFMT == libc::S_IFLNK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::fs::symlink;

    fn tree() -> (tempfile::TempDir, OwnedFd) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws/sub")).unwrap();
        std::fs::write(dir.path().join("ws/sub/a.txt"), "inside").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        symlink(dir.path(), dir.path().join("ws/out")).unwrap();
        symlink("sub", dir.path().join("ws/rel")).unwrap();
        symlink("../secret.txt", dir.path().join("ws/sub/up.txt")).unwrap();
        let root = open_dir(&dir.path().join("ws")).unwrap();
        (dir, root)
    }

    fn read(root: &OwnedFd, rel: &str, strategy: Strategy) -> io::Result<String> {
        let fd = open_beneath(
            root.as_fd(),
            Path::new(rel),
            OFlag::O_RDONLY,
            Mode::empty(),
            strategy,
        )?;
        let mut text = String::new();
        std::fs::File::from(fd).read_to_string(&mut text)?;
        Ok(text)
    }

    #[test]
    fn plain_names_open_and_symlinks_or_dotdot_never_do() {
        let (_dir, root) = tree();
        for strategy in [Strategy::Best, Strategy::Walk] {
            assert_eq!(read(&root, "sub/a.txt", strategy).unwrap(), "inside");
            for rel in ["out/secret.txt", "rel/a.txt", "sub/up.txt", "../secret.txt"] {
                assert!(
                    read(&root, rel, strategy).is_err(),
                    "{rel} via {strategy:?}"
                );
            }
        }
    }

    #[test]
    fn the_walk_creates_missing_parents_but_never_through_a_symlink() {
        let (dir, root) = tree();
        let (_parent, name) = walk_to_parent(root.as_fd(), Path::new("n/m/f.txt"), true).unwrap();
        assert_eq!(name, "f.txt");
        assert!(dir.path().join("ws/n/m").is_dir());
        let err = walk_to_parent(root.as_fd(), Path::new("out/x/f.txt"), true).unwrap_err();
        assert!(err.to_string().contains("symlink"), "{err}");
        assert!(!dir.path().join("x").exists());
    }
}
