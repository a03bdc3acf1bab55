//! `clawdeck invoke`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct InvokeArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &InvokeArgs) -> u8 {
    eprintln!("clawdeck invoke: this command is being built");
    exit::USAGE
}
