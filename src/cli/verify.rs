//! `clawdeck verify`: clawdeck's prediction for a context against what real OpenClaw exposes
//! (the real CLI run against a recording mock, or a running gateway's `tools.effective`).
//! The lab that runs OpenClaw is the `verify` cargo feature (on by default).

use std::path::PathBuf;

use clap::Args;

use super::Cli;

/// A prompt or message as verify compares it: normalised (the package, dates, ids) with this
/// operator's home as `$HOME`, as real OpenClaw's is.
#[cfg(feature = "verify")]
fn normalized_here(text: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    let known: Vec<(&str, &str)> = if home.len() > 1 {
        vec![(home.as_str(), "$HOME")]
    } else {
        Vec::new()
    };
    crate::verify::prompt_compare::normalize_prompt(text, &known)
}

#[cfg(feature = "verify")]
mod job_message;
#[cfg(feature = "verify")]
mod lab;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Ask this running gateway (`tools.effective`) instead of running the CLI against a mock
    #[arg(long, value_name = "URL")]
    pub gateway: Option<String>,
    /// The session key to ask the gateway about (default: --session-key)
    #[arg(long, value_name = "KEY", requires = "gateway")]
    pub session: Option<String>,
    /// Gateway token (default: $OPENCLAW_GATEWAY_TOKEN)
    #[arg(long, requires = "gateway")]
    pub token: Option<String>,
    /// The real OpenClaw CLI for a run (default: $OPENCLAW_BIN, then `openclaw` on PATH; not
    /// used with --gateway)
    #[arg(long, value_name = "PATH")]
    pub openclaw: Option<PathBuf>,
    /// Seconds the real run may take before its process group is killed
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub timeout: u64,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

#[cfg(feature = "verify")]
pub fn run(cli: &Cli, args: &VerifyArgs) -> u8 {
    lab::run(cli, args)
}

/// Without the lab: says so, and how to get it.
#[cfg(not(feature = "verify"))]
pub fn run(_cli: &Cli, _args: &VerifyArgs) -> u8 {
    eprintln!(
        "clawdeck verify: this clawdeck was built without the verification lab; \
         build it with the `verify` feature (on by default)"
    );
    super::exit::USAGE
}
