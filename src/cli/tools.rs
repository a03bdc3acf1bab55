//! `clawdeck tools`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct ToolsArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &ToolsArgs) -> u8 {
    eprintln!("clawdeck tools: this command is being built");
    exit::USAGE
}
