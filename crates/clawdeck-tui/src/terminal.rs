//! Entering and leaving the terminal. The guard restores it on drop (normal exit, `?` errors,
//! unwinding), the panic hook restores it before the panic message is printed and then chains to
//! the previous hook, and the stop policy (SIGINT, SIGTERM, SIGHUP) restores it if the console
//! did not close in time, so every exit path leaves a usable shell.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub(crate) type ConsoleTerminal = Terminal<CrosstermBackend<io::Stdout>>;

/// Whether the terminal is currently in console mode (so restoring twice is harmless).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Why the console cannot start.
pub(crate) fn tty_problem() -> Option<&'static str> {
    if !io::stdin().is_terminal() {
        Some("standard input is not a terminal")
    } else if !io::stdout().is_terminal() {
        Some("standard output is not a terminal")
    } else {
        None
    }
}

/// The message printed when there is no terminal: every headless command (from the clap
/// definition, so none is left out).
pub(crate) fn no_tty_message(reason: &str, headless_commands: &str) -> String {
    format!(
        "clawdeck: the console needs a terminal ({reason}).\n\
         Use the headless commands instead:\n{}\
         `clawdeck COMMAND --help` shows a command's flags, examples and exit statuses.",
        headless_commands
    )
}

/// Owns console mode; dropping it restores the terminal.
pub(crate) struct TerminalGuard {
    pub(crate) terminal: ConsoleTerminal,
}

impl TerminalGuard {
    pub(crate) fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        crate::process::stop::set_terminal_restore(restore_for_stop);
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut stdout = io::stdout();
        if let Err(e) = execute!(
            stdout,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste,
            cursor::Hide
        ) {
            restore();
            return Err(e);
        }
        match Terminal::new(CrosstermBackend::new(io::stdout())) {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves console mode; idempotent and safe from a panic hook.
pub(crate) fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = stdout.flush();
}

/// The stop policy's restore, for when the console did not close in time: it may run while a
/// frame is being written, so it takes stdout's lock (the frame in progress ends first) and
/// never gives it back (no frame lands on the shell afterwards; the process is exiting).
fn restore_for_stop() {
    let held = io::stdout().lock();
    restore();
    std::mem::forget(held);
}

fn install_panic_hook() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
