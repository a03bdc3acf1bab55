//! `clawdeck route`.

use clap::Args;

use super::{Cli, exit};

#[derive(Debug, Args)]
pub struct RouteArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run(_cli: &Cli, _args: &RouteArgs) -> u8 {
    eprintln!("clawdeck route: this command is being built");
    exit::USAGE
}
