//! The operator console (ratatui). A thin layer over the core: it renders state and sends
//! intents; policy, queue, processes and tools all live in the core modules.

use crate::cli::Cli;

/// Opens the console; without a terminal, points to the headless commands.
pub fn run_console(_cli: &Cli) -> u8 {
    eprintln!("clawdeck: the console is being built; use `clawdeck tools`, `clawdeck explain`");
    crate::cli::exit::USAGE
}
