//! Our stdout, for a reader that may leave (`clawdeck lint | head -1`).
//!
//! Every command writes its stdout through [`write_stdout`] (or the `outln!` / `out!` macros,
//! `println!` is denied in this module tree): a write into a closed pipe is a quiet stop, not a
//! panic or a death by SIGPIPE. From then on output is dropped and [`reader_gone`] is true, so
//! a command that follows something (`log --follow`, `gateway watch`) ends, and a command that
//! owns child processes (`route`, `invoke`) still kills and awaits them; each ends with the
//! status it would have with a reader. Any other write error is said once on stderr.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout could not be written.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);

/// Writes `bytes` to stdout and flushes; false once stdout cannot be written (then nothing more
/// is tried).
pub fn write_stdout(bytes: &[u8]) -> bool {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return false;
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(err) => {
            let first = !STDOUT_GONE.swap(true, Ordering::Relaxed);
            if first && err.kind() != ErrorKind::BrokenPipe {
                eprintln!("clawdeck: cannot write to standard output: {err}; output stopped");
            }
            false
        }
    }
}

/// Whether the reader of stdout has gone: a write failed, or stdout is a pipe whose reading
/// end is closed (seen without writing, so a follower with nothing new to print still ends
/// when `| head` has had its lines).
pub fn reader_gone() -> bool {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return true;
    }
    if pipe_reader_closed() {
        STDOUT_GONE.store(true, Ordering::Relaxed);
        return true;
    }
    false
}

/// Resolves once the reader of stdout has gone, looked at twice a second: a follower waiting
/// for its next event (`gateway watch | head -3` on a quiet gateway) ends without one.
pub async fn reader_left() {
    let mut every = tokio::time::interval(std::time::Duration::from_millis(500));
    while !reader_gone() {
        every.tick().await;
    }
}

/// Stdout is a pipe and the other end has closed it.
fn pipe_reader_closed() -> bool {
    use std::os::fd::AsFd;
    crate::process::pipe_end::reader_closed(std::io::stdout().as_fd())
}

/// `println!` through [`write_stdout`] (whose answer says whether the reader is still there).
macro_rules! outln {
    ($($arg:tt)*) => {{
        $crate::cli::quiet_out::write_stdout(format!("{}\n", format_args!($($arg)*)).as_bytes());
    }};
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => {{
        $crate::cli::quiet_out::write_stdout(format!($($arg)*).as_bytes());
    }};
}
