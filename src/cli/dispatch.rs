//! `clawdeck dispatch`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct DispatchArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &DispatchArgs) -> u8 {
    eprintln!("clawdeck dispatch: this command is being built");
    exit::USAGE
}
