//! What "allow always" could store for a command line, as OpenClaw's
//! `resolveAllowAlwaysPersistenceDecision` decides before a question is sent: the real path of
//! each executable (each bound to that argv in that working directory), or nothing, with why
//! (a one-shot approval: `allow-always` is not offered).

use serde::Serialize;

use super::Analysis;
use super::evaluate::Evaluation;
use super::inline_eval::InlineEvalSpecs;
use super::packages::{Target, allowlist_target};
use super::plan::{Candidate, Plan};
use super::resolution::{Resolver, resolve_command, trust_path, trust_plan};
use super::shell_wrapper::{bindable_inline_command, is_shell_wrapper_executable};
use super::tokens::{js_trim, normalize_executable_token};

/// The decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Persistence {
    /// Allow-always stores these executables' real paths (each with a hash of its arguments
    /// and the working directory: only the same argv there matches again).
    Patterns { patterns: Vec<String> },
    /// Only allow-once: OpenClaw's reasons (`unplanned`, `prompt-only`, `runtime-payload`,
    /// `no-reusable-pattern`).
    OneShot { reasons: Vec<&'static str> },
}

/// What the decision needs besides the command's analysis and evaluation.
pub struct PersistenceInput<'a> {
    pub specs: &'a InlineEvalSpecs,
    /// `tools.exec.strictInlineEval` is on.
    pub strict_inline_eval: bool,
    pub resolver: &'a dyn Resolver,
}

/// `resolveAllowAlwaysPersistenceDecision` (the plan's state, then the pattern coverage).
pub fn allow_always(
    analysis: &Analysis,
    evaluation: &Evaluation,
    input: &PersistenceInput,
) -> Persistence {
    let mut reasons: Vec<&'static str> = Vec::new();
    let add = |reason: &'static str, reasons: &mut Vec<&'static str>| {
        if !reasons.contains(&reason) {
            reasons.push(reason);
        }
    };
    let mut reusable = true;
    match &analysis.plan {
        Plan::Failed(_) => {
            add("unplanned", &mut reasons);
            reusable = false;
        }
        Plan::Groups(groups) => {
            for group in groups {
                let in_pipeline = group.candidates.len() > 1;
                for candidate in &group.candidates {
                    let (mode_reason, allow) = candidate_trust(candidate, in_pipeline, input.specs);
                    if let Some(reason) = mode_reason {
                        add(reason, &mut reasons);
                    }
                    reusable &= allow;
                    if runtime_payload(&candidate.argv) {
                        add("runtime-payload", &mut reasons);
                    }
                }
            }
        }
    }
    let strict_hit = input.strict_inline_eval
        && input
            .specs
            .detect_in_segments(analysis.planned_segments(evaluation))
            .is_some();
    if strict_hit {
        add("runtime-payload", &mut reasons);
    }
    let hard: Vec<&'static str> = reasons
        .iter()
        .copied()
        .filter(|r| *r != "no-reusable-pattern")
        .collect();
    if !hard.is_empty() {
        return Persistence::OneShot { reasons: hard };
    }
    if reusable {
        let mut patterns: Vec<String> = Vec::new();
        for argv in &evaluation.argv {
            if let Some(p) = pattern_for(argv, input)
                && !patterns.contains(&p)
            {
                patterns.push(p);
            }
        }
        if !patterns.is_empty() {
            return Persistence::Patterns { patterns };
        }
    }
    add("no-reusable-pattern", &mut reasons);
    Persistence::OneShot { reasons }
}

/// `createCandidate`'s trust mode as a reason, and whether the candidate may be stored.
fn candidate_trust(
    candidate: &Candidate,
    in_pipeline: bool,
    specs: &InlineEvalSpecs,
) -> (Option<&'static str>, bool) {
    if candidate.prompt_only {
        return (Some("prompt-only"), false);
    }
    let head = normalize_executable_token(candidate.argv.first().map_or("", |a| js_trim(a)));
    let shell = is_shell_wrapper_executable(&head);
    if shell && !candidate.in_wrapper_payload && bindable_inline_command(&candidate.argv).is_some()
        || shell && has_inline_flag(&candidate.argv)
    {
        // A wrapper whose payload could not be planned is approved as this exact text.
        return (Some("no-reusable-pattern"), false);
    }
    let inline_eval =
        specs.detect(&candidate.trust.argv).is_some() || specs.detect(&candidate.argv).is_some();
    let allow = !(inline_eval || candidate.trust.blocked || (shell && in_pipeline));
    ((!allow).then_some("no-reusable-pattern"), allow)
}

/// `-c` (or a cluster ending in it) among a shell's options.
fn has_inline_flag(argv: &[String]) -> bool {
    argv.iter()
        .skip(1)
        .map(|a| js_trim(a))
        .take_while(|a| a.starts_with('-'))
        .any(|a| !a.starts_with("--") && a.contains('c'))
}

/// `hasRuntimeShellPayload`: a bindable `sh -c` payload that expands something at run time.
fn runtime_payload(argv: &[String]) -> bool {
    bindable_inline_command(argv).is_some_and(|payload| expands_at_run_time(&payload))
}

/// `/\$[A-Za-z0-9_@*?#$!-]|\$\{|`|\$\(/`.
fn expands_at_run_time(payload: &str) -> bool {
    let b = payload.as_bytes();
    b.contains(&b'`')
        || b.windows(2).any(|w| {
            w[0] == b'$' && (w[1].is_ascii_alphanumeric() || b"_@*?#$!-{(".contains(&w[1]))
        })
}

/// `collectAllowAlwaysPatterns` for one segment on a POSIX host.
fn pattern_for(argv: &[String], input: &PersistenceInput) -> Option<String> {
    let argv = match allowlist_target(argv) {
        Target::Blocked => return None,
        Target::Itself => argv.to_vec(),
        Target::Package(target) => target,
    };
    let plan = trust_plan(&argv);
    if plan.blocked {
        return None;
    }
    let resolution = resolve_command(&plan, input.resolver)?;
    let path = trust_path(&resolution.execution, input.resolver)?;
    if input.specs.is_interpreter_like(&path)
        && (!input.strict_inline_eval || input.specs.detect(&plan.argv).is_some())
    {
        return None;
    }
    let head = normalize_executable_token(plan.argv.first().map_or("", |a| js_trim(a)));
    if !is_shell_wrapper_executable(&head) {
        return Some(path);
    }
    // A shell with an inline command stores nothing; one running a script stores the script.
    if has_inline_flag(&plan.argv) {
        return None;
    }
    let script = plan
        .argv
        .iter()
        .skip(1)
        .map(|a| js_trim(a))
        .find(|a| !a.starts_with('-'))?;
    Some(super::resolution::resolve_path(
        input.resolver.cwd(),
        script,
    ))
}
