//! `clawdeck explain`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &ExplainArgs) -> u8 {
    eprintln!("clawdeck explain: this command is being built");
    exit::USAGE
}
