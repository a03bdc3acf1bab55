//! `clawdeck schema`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &SchemaArgs) -> u8 {
    eprintln!("clawdeck schema: this command is being built");
    exit::USAGE
}
