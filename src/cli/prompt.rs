//! `clawdeck prompt`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &PromptArgs) -> u8 {
    eprintln!("clawdeck prompt: this command is being built");
    exit::USAGE
}
