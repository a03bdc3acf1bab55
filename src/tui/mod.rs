//! The operator console (ratatui). A thin layer over the core: it renders state and sends
//! intents; policy, queue, processes and tools all live in the core modules.
//!
//! Structure (codex-rs style): one `AppEvent` channel (`event`), a coalescing frame scheduler
//! (`frame`), a terminal guard and panic hook (`terminal`), one keymap table (`keymap`), the
//! `App` that performs side effects (`app`), the chrome (`ui`), views (`views`) and widgets.

pub(crate) mod app;
/// The workloads of `benches/tui.rs` and `benches/gateway.rs`; not an API.
#[doc(hidden)]
pub mod bench;
pub(crate) mod clock;
pub(crate) mod context_bar;
mod decision_feed;
pub(crate) mod event;
pub(crate) mod frame;
pub(crate) mod keymap;
pub(crate) mod runtime;
pub(crate) mod stream;
pub(crate) mod tab_bar;
pub(crate) mod terminal;
pub(crate) mod theme;
pub(crate) mod ui;
pub(crate) mod views;
pub(crate) mod widgets;

#[cfg(test)]
mod tests;

use crate::cli::Cli;

/// Opens the console; without a terminal, points to the headless commands (exit 2).
pub fn run_console(cli: &Cli) -> u8 {
    if let Some(reason) = terminal::tty_problem() {
        eprintln!("{}", terminal::no_tty_message(reason));
        return crate::cli::exit::USAGE;
    }
    runtime::run(cli)
}
