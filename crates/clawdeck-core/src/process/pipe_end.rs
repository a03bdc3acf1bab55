//! Whether the reader of a pipe we write to has gone, seen without writing to it.

use std::os::fd::BorrowedFd;

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::stat::{SFlag, fstat};

/// `fd` is a pipe and its reading end is closed (poll reports an error or hang-up on the
/// write end). False for anything that is not a pipe (a terminal, a file).
pub fn reader_closed(fd: BorrowedFd<'_>) -> bool {
    let is_pipe =
        fstat(fd).is_ok_and(|st| SFlag::from_bits_truncate(st.st_mode).contains(SFlag::S_IFIFO));
    if !is_pipe {
        return false;
    }
    let mut fds = [PollFd::new(fd, PollFlags::POLLOUT)];
    poll(&mut fds, PollTimeout::ZERO).is_ok_and(|_| {
        fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    #[test]
    fn a_pipe_whose_reader_closed_is_seen_without_a_write() {
        let (read, write) = nix::unistd::pipe().unwrap_or_else(|e| panic!("{e}"));
        assert!(!reader_closed(write.as_fd()));
        drop(read);
        assert!(reader_closed(write.as_fd()));
        let file = tempfile::tempfile().unwrap_or_else(|e| panic!("{e}"));
        assert!(!reader_closed(file.as_fd()), "a file is not a pipe");
    }
}
