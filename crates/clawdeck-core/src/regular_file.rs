//! Opening a file without trusting what is at its path: the one way clawdeck opens the files of
//! its own dirs (state, data, cache: device identity, decision log, synced packs, caches) and
//! the config files it reads.
//!
//! Opening never waits: it is non-blocking (a FIFO would otherwise block until a peer came,
//! and with it every command and its stop signals). Only a regular file is used: a FIFO, device,
//! socket or directory is refused at once, naming what it is. Where asked, a symbolic link as
//! the last component is refused too (O_NOFOLLOW), so a link planted in clawdeck's state dir
//! cannot point it at another file. The file handed back blocks as usual.

use std::fs::{File, FileType, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// Whether a symbolic link at the path is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// A config file the operator named may be a link (dotfile managers make them).
    Follow,
    /// Files clawdeck keeps itself are never links.
    Refuse,
}

/// This process's effective user id (who owns the files it creates).
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// What a file type is, in words (`a FIFO`).
pub(crate) fn kind_name(kind: FileType) -> &'static str {
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// The error for a path that is not a regular file (kind `InvalidInput`, so callers can tell
/// it from a missing file). Its text is `a FIFO, not a regular file`.
fn not_regular(kind: FileType) -> io::Error {
    let text = if kind.is_symlink() {
        "a symbolic link, which clawdeck does not follow here".to_string()
    } else {
        format!("{}, not a regular file", kind_name(kind))
    };
    io::Error::new(io::ErrorKind::InvalidInput, text)
}

/// Whether `err` came from opening something that is not a regular file.
pub fn is_not_regular(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::InvalidInput
}

/// Opens `path` with `options` (read, write, append, create, mode ...) as described above.
pub fn open(path: &Path, options: &OpenOptions, links: Links) -> io::Result<File> {
    let mut options = options.clone();
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    options.custom_flags(flags);
    let file = match options.open(path) {
        Ok(file) => file,
        Err(err) => return Err(explain_open_error(path, err, links)),
    };
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    clear_nonblock(&file)?;
    Ok(file)
}

/// Opens an existing file for reading.
pub fn open_read(path: &Path, links: Links) -> io::Result<File> {
    open(path, OpenOptions::new().read(true), links)
}

/// Opens for appending, creating it with `mode` (before the umask) when missing.
pub fn open_append(path: &Path, mode: u32, links: Links) -> io::Result<File> {
    open(
        path,
        OpenOptions::new().append(true).create(true).mode(mode),
        links,
    )
}

/// Creates or truncates `path` for writing, new files with `mode`. The type is checked before
/// anything is truncated: the check runs on the open file, and O_TRUNC is applied only after.
pub(crate) fn create_truncate(path: &Path, mode: u32, links: Links) -> io::Result<File> {
    let file = open(
        path,
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(mode),
        links,
    )?;
    file.set_len(0)?;
    Ok(file)
}

/// Writes `bytes` as the whole content of `path` (created with `mode` when missing).
pub fn write(path: &Path, bytes: &[u8], mode: u32, links: Links) -> io::Result<()> {
    io::Write::write_all(&mut create_truncate(path, mode, links)?, bytes)
}

/// Reads the whole file (a regular file only; see the module).
pub fn read(path: &Path, links: Links) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut open_read(path, links)?, &mut bytes)?;
    Ok(bytes)
}

/// `read`, as UTF-8 text.
pub fn read_to_string(path: &Path, links: Links) -> io::Result<String> {
    String::from_utf8(read(path, links)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

/// Why a secret file (a device key, a gateway token) was not used.
#[derive(Debug)]
pub enum SecretFileError {
    /// Nothing at the path.
    Missing,
    /// A FIFO, device, socket, directory or link: the error says which.
    NotRegular(io::Error),
    /// Owned by another user (their uid).
    OtherOwner(u32),
    /// Group or others can write it (its mode).
    OthersWrite(u32),
    /// Group or others can read it (its mode).
    OthersRead(u32),
    /// Larger than the limit given.
    TooLarge(u64),
    NotUtf8,
    Io(io::Error),
}

/// Reads a file that holds a secret: a regular file (never a FIFO that would block; a link only
/// as `links` allows), owned by this user, readable and writable by nobody else, at most
/// `max_bytes`. Each caller words the refusal for what the file is.
pub fn read_secret(path: &Path, links: Links, max_bytes: u64) -> Result<String, SecretFileError> {
    use std::os::unix::fs::MetadataExt;
    let file = match open_read(path, links) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Err(SecretFileError::Missing),
        Err(err) if is_not_regular(&err) => return Err(SecretFileError::NotRegular(err)),
        Err(err) => return Err(SecretFileError::Io(err)),
    };
    let meta = file.metadata().map_err(SecretFileError::Io)?;
    if meta.uid() != effective_uid() {
        return Err(SecretFileError::OtherOwner(meta.uid()));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o022 != 0 {
        return Err(SecretFileError::OthersWrite(mode));
    }
    if mode & 0o044 != 0 {
        return Err(SecretFileError::OthersRead(mode));
    }
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(file, max_bytes + 1), &mut bytes)
        .map_err(SecretFileError::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(SecretFileError::TooLarge(max_bytes));
    }
    String::from_utf8(bytes).map_err(|_| SecretFileError::NotUtf8)
}

/// An open error in the words of what is at the path, when it is no regular file: a FIFO
/// without a reader answers ENXIO, a directory opened for writing EISDIR, a link ELOOP.
fn explain_open_error(path: &Path, err: io::Error, links: Links) -> io::Error {
    let Some(code) = err.raw_os_error() else {
        return err;
    };
    if ![
        libc::ENXIO,
        libc::EISDIR,
        libc::ELOOP,
        libc::ENODEV,
        libc::EOPNOTSUPP,
    ]
    .contains(&code)
    {
        return err;
    }
    let meta = match links {
        Links::Follow => std::fs::metadata(path),
        Links::Refuse => std::fs::symlink_metadata(path),
    };
    match meta {
        Ok(meta) if !meta.file_type().is_file() => not_regular(meta.file_type()),
        _ => err,
    }
}

fn clear_nonblock(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function's caller owns, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    if flags & libc::O_NONBLOCK != 0 {
        // SAFETY: as above.
        let set = unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) };
        if set < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    fn fifo(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("fifo");
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        path
    }

    #[test]
    fn a_fifo_is_refused_at_once_for_reading_and_for_writing() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo(dir.path());
        for links in [Links::Follow, Links::Refuse] {
            let read = open_read(&fifo, links).unwrap_err();
            assert_eq!(read.to_string(), "a FIFO, not a regular file");
            assert!(is_not_regular(&read));
            let append = open_append(&fifo, 0o600, links).unwrap_err();
            assert_eq!(append.to_string(), "a FIFO, not a regular file");
            let create = create_truncate(&fifo, 0o600, links).unwrap_err();
            assert_eq!(create.to_string(), "a FIFO, not a regular file");
        }
    }

    #[test]
    fn a_fifo_with_a_reader_is_refused_for_writing_too() {
        // With a reader present, a non-blocking open for writing succeeds: the type check
        // must still refuse it.
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo(dir.path());
        let _reader = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let err = open_append(&fifo, 0o600, Links::Refuse).unwrap_err();
        assert_eq!(err.to_string(), "a FIFO, not a regular file");
    }

    #[test]
    fn directories_devices_and_links_are_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            open_read(dir.path(), Links::Follow)
                .unwrap_err()
                .to_string(),
            "a directory, not a regular file"
        );
        assert_eq!(
            open_append(dir.path(), 0o600, Links::Refuse)
                .unwrap_err()
                .to_string(),
            "a directory, not a regular file"
        );
        assert_eq!(
            open_read(Path::new("/dev/null"), Links::Follow)
                .unwrap_err()
                .to_string(),
            "a character device, not a regular file"
        );
        let target = dir.path().join("target");
        std::fs::write(&target, "secret").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(
            open_read(&link, Links::Refuse).unwrap_err().to_string(),
            "a symbolic link, which clawdeck does not follow here"
        );
        assert_eq!(
            open_append(&link, 0o600, Links::Refuse)
                .unwrap_err()
                .to_string(),
            "a symbolic link, which clawdeck does not follow here"
        );
        assert_eq!(read_to_string(&link, Links::Follow).unwrap(), "secret");
    }

    #[test]
    fn a_regular_file_reads_writes_and_blocks_as_usual() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        assert_eq!(
            open_read(&path, Links::Refuse).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        let mut file = open_append(&path, 0o600, Links::Refuse).unwrap();
        file.write_all(b"one\n").unwrap();
        let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_NONBLOCK, 0, "O_NONBLOCK is cleared");
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        let mut again = create_truncate(&path, 0o600, Links::Refuse).unwrap();
        again.write_all(b"two\n").unwrap();
        assert_eq!(read_to_string(&path, Links::Refuse).unwrap(), "two\n");
        write(&path, b"3", 0o600, Links::Refuse).unwrap();
        assert_eq!(read(&path, Links::Refuse).unwrap(), b"3");
    }
}
