//! Writing to stdout when the reader may be gone (`clawdeck route ... | head -1`).
//!
//! Printing commands (`tools`, `explain`, `schema`, `prompt`) get the default SIGPIPE action and
//! simply end, as `cat` does. Commands that own child processes (`route`, `invoke`, `dispatch`)
//! must not die on a closed pipe: they still have to kill and await their children, so they write
//! with these macros, which drop what cannot be written instead of panicking like `println!`.

/// `println!` that ignores a closed or failing stdout.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that ignores a closed or failing stdout.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout();
        let _ = write!(stdout, $($arg)*);
        let _ = stdout.flush();
    }};
}

/// Lets a write to a closed pipe end the process quietly (SIGPIPE's default action), for
/// commands that only print and own no child processes.
pub fn end_quietly_on_closed_pipe() {
    // SAFETY: resetting a signal disposition to its default has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
