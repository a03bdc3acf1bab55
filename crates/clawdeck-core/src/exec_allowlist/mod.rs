//! Whether a shell command line satisfies an exec allowlist, answered as OpenClaw 2026.9.6's
//! `evaluateShellAllowlistWithAuthorization` answers it on a Linux gateway host (the recorded
//! oracle is `tests/recordings/exec_allowlist/`).
//!
//! Two steps: [`analyze`] parses the command line with tree-sitter-bash (the grammar OpenClaw
//! ships as WASM) and plans it: which commands must each be satisfied, or why the line cannot
//! be analysed (a redirect, `$(...)`, a heredoc, an `if`, ...). It touches no filesystem.
//! [`evaluate`] then resolves each command's executable through a [`Resolver`] and tries the
//! allowlist, the safe bins and the safe builtins, in that order.
//!
//! The host is Linux, as in the recording: `arch`, `xcrun` and `script` do not unwrap, and
//! paths compare case-sensitively. Not modelled, as it never changes an answer here: skill
//! bins (node host only), inline-eval risks and "allow always" persistence. Where this module
//! differs from OpenClaw:
//! - `allow-always` entries, which OpenClaw matches through a cwd-bound argv hash, never match
//!   (nor does any `sha256:cwd-argv:v1:` argument pattern);
//! - argument patterns are read by the `regex` crate, so look-around and back-references never
//!   match (OpenClaw's ECMAScript regexes do);
//! - malformed input is recovered by the native parser, which can place an `ERROR` node
//!   differently from OpenClaw's WASM build (`[ x ] ]`): the answer is still a syntax error,
//!   but the commands listed with it may differ.

mod carriers;
mod command_argv;
mod dispatch;
pub mod enforced;
mod evaluate;
mod explain;
mod inline_eval;
mod operators;
mod packages;
mod pattern;
pub mod persistence;
mod plan;
mod powershell;
mod resolution;
mod risks;
mod safe_bins;
mod shell_wrapper;
mod shells;
mod steps;
mod tokens;
mod words;
mod wrapper_targets;

pub use evaluate::{Evaluation, SatisfiedBy, evaluate};
pub use explain::{MAX_NODES, MAX_PARSE_TIME, MAX_SOURCE_CHARS};
pub use inline_eval::{InlineEvalHit, InlineEvalSpecs};
pub use pattern::{Allowlist, AllowlistEntry, glob_matches};
pub use plan::{Candidate, Group, Plan};
pub use resolution::{
    Executable, PathResolver, Resolver, TrustPlan, expand_home, resolve_executable,
};
pub use safe_bins::{
    DEFAULT_SAFE_BINS, DEFAULT_SAFE_BUILTINS, DEFAULT_TRUSTED_DIRS, ExecVersionFacts, ModePolicy,
    SafeBinPolicy, SafeBinProfile, SafeBinProfileConfig, builtin_profiles,
};
pub use shell_wrapper::is_shell_wrapper_executable;
pub use words::{Decoded, decode_ansi_c, decode_double_quoted, decode_unquoted};

use explain::StepContext;

/// An analysed command line: its plan, and every command's argv (what OpenClaw reports as the
/// segments when the analysis fails).
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The command line.
    pub command: String,
    /// The groups of candidates, or the failure reason.
    pub plan: Plan,
    /// Every command found, top level first, then nested ones, each in source order.
    pub steps_argv: Vec<Vec<String>>,
}

impl Analysis {
    /// Whether the command line could be analysed.
    pub fn ok(&self) -> bool {
        matches!(self.plan, Plan::Groups(_))
    }

    /// Each planned command's argv after wrappers and as written (what inline-eval detection
    /// reads); when the analysis failed, each segment's argv as `evaluation` lists it.
    pub fn planned_segments<'a>(
        &'a self,
        evaluation: &'a Evaluation,
    ) -> Vec<(&'a [String], &'a [String])> {
        match &self.plan {
            Plan::Groups(groups) => groups
                .iter()
                .flat_map(|g| &g.candidates)
                .map(|c| (c.trust.argv.as_slice(), c.argv.as_slice()))
                .collect(),
            Plan::Failed(_) => evaluation
                .argv
                .iter()
                .map(|a| (a.as_slice(), a.as_slice()))
                .collect(),
        }
    }

    /// Why it could not (OpenClaw's reason text).
    pub fn reason(&self) -> Option<&str> {
        match &self.plan {
            Plan::Failed(reason) => Some(reason),
            Plan::Groups(_) => None,
        }
    }
}

/// Parses and plans a command line. Never panics: a line over [`MAX_SOURCE_CHARS`], one with
/// more than [`MAX_NODES`] syntax nodes or one that takes longer than [`MAX_PARSE_TIME`] to
/// parse is a failed analysis with OpenClaw's reason.
pub fn analyze(command: &str) -> Analysis {
    match explain::explain(command) {
        Err(reason) => Analysis {
            command: command.to_string(),
            plan: Plan::Failed(reason),
            steps_argv: Vec::new(),
        },
        Ok(explanation) => {
            let top = explanation
                .steps
                .iter()
                .filter(|s| s.context == StepContext::TopLevel);
            let nested = explanation
                .steps
                .iter()
                .filter(|s| s.context != StepContext::TopLevel);
            Analysis {
                command: command.to_string(),
                plan: plan::plan(&explanation),
                steps_argv: top.chain(nested).map(|s| s.argv.clone()).collect(),
            }
        }
    }
}

#[cfg(test)]
mod tests;
