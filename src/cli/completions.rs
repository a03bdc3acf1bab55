//! `clawdeck completions SHELL` and `clawdeck man`: shell completions (clap_complete) and a roff
//! man page (clap_mangen), both generated from the clap definition the binary parses with
//! ([`Cli`]'s `command()`), so neither can list a command or flag the binary does not have.

use clap::Args;
use clap_complete::Shell;

use super::exit;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The page of a subcommand (`gateway status`) instead of clawdeck(1)
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The completion script for `shell`.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "clawdeck", &mut script);
    script
}

/// The roff man page of clawdeck, or of the subcommand at `path`; None for a path that names
/// no subcommand.
pub fn man_page(path: &[String]) -> Option<Result<Vec<u8>, String>> {
    let mut command = super::command();
    // Built, so a subcommand's page is titled `clawdeck-gateway-status` and shows its usage.
    command.build();
    for name in path {
        command = command.find_subcommand(name)?.clone();
    }
    let mut page = Vec::new();
    Some(
        clap_mangen::Man::new(command)
            // Every page's footer names clawdeck and its version, a subcommand's too.
            .source(format!("clawdeck {}", super::VERSION))
            .render(&mut page)
            .map(|()| page)
            .map_err(|err| format!("cannot render the man page: {err}")),
    )
}

pub fn run_completions(args: &CompletionsArgs) -> u8 {
    super::quiet_out::write_stdout(&completion_script(args.shell));
    exit::OK
}

pub fn run_man(args: &ManArgs) -> u8 {
    match man_page(&args.command) {
        Some(Ok(page)) => {
            super::quiet_out::write_stdout(&page);
            exit::OK
        }
        Some(Err(err)) => {
            eprintln!("clawdeck man: {err}");
            exit::TOOL_ERROR
        }
        None => {
            let named = args.command.join(" ");
            let named = crate::sanitize::for_terminal_if_tty_stderr(&named);
            eprintln!("clawdeck man: no command `{named}`: see `clawdeck --help`");
            exit::USAGE
        }
    }
}
