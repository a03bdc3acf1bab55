//! Evaluating a plan: each candidate against the allowlist, then safe bins, then safe
//! builtins (OpenClaw's `evaluateAuthorizationPlan`, `resolveSegmentAllowlistMatch`,
//! `resolveSegmentSatisfaction`, `isSafeBinUsage`, `isSafeBuiltinSegment`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::packages::{Target, allowlist_target};
use super::pattern::{AllowlistEntry, match_allowlist};
use super::plan::{Candidate, Plan};
use super::resolution::{
    CommandResolution, Executable, Resolver, candidate_path, resolve_command, trust_path,
    trust_plan,
};
use super::safe_bins::{SafeBinPolicy, parent_dir, safe_bin_name};
use super::shell_wrapper::{bindable_inline_command, is_shell_wrapper_executable};
use super::wrapper_targets::{
    is_positional_carrier, path_target, positional_candidate, script_argv, script_candidate,
    segment_executable_is,
};
use super::{Allowlist, Analysis};

/// What satisfied a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SatisfiedBy {
    /// An allowlist entry matched.
    Allowlist,
    /// A safe bin used within its profile.
    SafeBins,
    /// `:`, `cd`, `false`, `pwd`, `test`, `true` or `[ ... ]`.
    SafeBuiltins,
    /// A skill's bin (node host only; never produced here: the gateway passes no skill bins).
    Skills,
}

impl SatisfiedBy {
    /// OpenClaw's name.
    pub fn as_str(self) -> &'static str {
        match self {
            SatisfiedBy::Allowlist => "allowlist",
            SatisfiedBy::SafeBins => "safeBins",
            SatisfiedBy::SafeBuiltins => "safeBuiltins",
            SatisfiedBy::Skills => "skills",
        }
    }
}

/// The answer, field for field what OpenClaw's `evaluateShellAllowlistWithAuthorization` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// The command line could be analysed.
    pub analysis_ok: bool,
    /// Why not (`redirect`, `command-substitution`, `no commands to authorize`, ...).
    pub reason: Option<String>,
    /// Every segment is satisfied.
    pub satisfied: bool,
    /// What satisfied each segment (empty when analysis failed).
    pub satisfied_by: Vec<Option<SatisfiedBy>>,
    /// Each segment's argv.
    pub argv: Vec<Vec<String>>,
}

/// `isSafeBuiltinSegment`, with the version's `DEFAULT_SAFE_BUILTINS`.
fn is_safe_builtin(candidate: &Candidate, builtins: &[String]) -> bool {
    let head = candidate
        .argv
        .first()
        .map(|a| a.trim().to_lowercase())
        .unwrap_or_default();
    if head == "[" {
        return candidate.argv.last().is_some_and(|a| a == "]")
            || candidate.raw.trim().ends_with(']');
    }
    builtins.contains(&head)
}

/// Everything one evaluation needs besides the candidate.
struct Context<'a> {
    entries: &'a [AllowlistEntry],
    safe_bins: &'a SafeBinPolicy,
    trusted_dirs: BTreeSet<String>,
    resolver: &'a dyn Resolver,
}

/// `isSafeBinUsage`.
fn is_safe_bin_usage(argv: &[String], execution: Option<&Executable>, ctx: &Context) -> bool {
    let Some(execution) = execution else {
        return false;
    };
    let name = safe_bin_name(&execution.name);
    if name.is_empty() || !ctx.safe_bins.bins.contains(&name) {
        return false;
    }
    let Some(trust) = trust_path(execution, ctx.resolver) else {
        return false;
    };
    let dir = parent_dir(&super::resolution::resolve_path(ctx.resolver.cwd(), &trust));
    if !ctx.trusted_dirs.contains(&dir) {
        return false;
    }
    ctx.safe_bins
        .profiles
        .get(&name)
        .is_some_and(|profile| profile.validate(argv.get(1..).unwrap_or_default(), &name))
}

/// The policy executable as a match target: its candidate path and trust path filled in.
fn policy_target(resolution: &CommandResolution, resolver: &dyn Resolver) -> Executable {
    let policy = &resolution.policy;
    match candidate_path(policy, resolver) {
        Some(path) => Executable {
            resolved_path: Some(path),
            real_path: trust_path(policy, resolver),
            ..policy.clone()
        },
        None => policy.clone(),
    }
}

/// `matchExecutableAllowlistForSegment`: a shell wrapper with a payload (or with arguments)
/// matches its own entry only through an argument pattern or the bare `*`.
fn executable_match<'a>(
    argv: &[String],
    resolution: Option<&CommandResolution>,
    inline: Option<&str>,
    ctx: &Context<'a>,
) -> Option<&'a AllowlistEntry> {
    if inline.is_some_and(is_positional_carrier) {
        return None;
    }
    let target = resolution.map(|r| policy_target(r, ctx.resolver));
    let entry = match_allowlist(ctx.entries, target.as_ref(), argv, ctx.resolver.home())?;
    let bound = entry
        .arg_pattern
        .as_deref()
        .is_some_and(|p| !p.trim().is_empty());
    let bare_wild = entry.pattern.trim() == "*" && !bound;
    let execution = resolution.map(|r| &r.execution);
    let same_target = resolution.is_some_and(|r| r.policy == r.execution);
    let shell_wrapper = segment_executable_is(execution, argv, is_shell_wrapper_executable);
    if same_target
        && (inline.is_some() || (shell_wrapper && argv.len() > 1))
        && !bound
        && !bare_wild
    {
        return None;
    }
    Some(entry)
}

/// `resolveSegmentAllowlistMatch`: the executable, else a positional carrier's command, else a
/// wrapper's script.
fn allowlist_match<'a>(
    argv: &[String],
    resolution: Option<&CommandResolution>,
    ctx: &Context<'a>,
) -> Option<&'a AllowlistEntry> {
    let inline = bindable_inline_command(argv);
    if let Some(entry) = executable_match(argv, resolution, inline.as_deref(), ctx) {
        return Some(entry);
    }
    let execution = resolution.map(|r| &r.execution);
    let home = ctx.resolver.home();
    if inline.is_some() {
        let carried = positional_candidate(argv, execution, ctx.resolver)?;
        let target = path_target(&carried.path, ctx.resolver);
        let entries: Vec<AllowlistEntry> = ctx
            .entries
            .iter()
            .filter(|e| carried.durable || e.arg_pattern.is_none())
            .cloned()
            .collect();
        let hit = match_allowlist(&entries, Some(&target), &carried.argv, home)?;
        return ctx.entries.iter().find(|e| *e == hit);
    }
    let script = script_candidate(argv, execution, ctx.resolver)?;
    let target = path_target(&script, ctx.resolver);
    match_allowlist(
        ctx.entries,
        Some(&target),
        &script_argv(&script, argv, ctx.resolver),
        home,
    )
}

/// `evaluateAuthorizationCandidate`.
fn evaluate_candidate(candidate: &Candidate, ctx: &Context) -> Option<SatisfiedBy> {
    if candidate.prompt_only {
        return None;
    }
    let resolution = resolve_command(&candidate.trust, ctx.resolver);
    let argv = match &resolution {
        Some(r) if !r.effective_argv.is_empty() => r.effective_argv.clone(),
        _ => candidate.argv.clone(),
    };
    let matched = match allowlist_target(&argv) {
        Target::Blocked => None,
        Target::Itself => allowlist_match(&argv, resolution.as_ref(), ctx),
        Target::Package(target) => {
            let package = resolve_command(&trust_plan(&target), ctx.resolver);
            allowlist_match(&target, package.as_ref(), ctx)
        }
    };
    if matched.is_some() {
        return Some(SatisfiedBy::Allowlist);
    }
    if is_safe_bin_usage(&argv, resolution.as_ref().map(|r| &r.execution), ctx) {
        return Some(SatisfiedBy::SafeBins);
    }
    is_safe_builtin(candidate, &ctx.safe_bins.facts.safe_builtins)
        .then_some(SatisfiedBy::SafeBuiltins)
}

/// Evaluates an analysed command line against an allowlist and the safe-bin policy, with
/// executables resolved through `resolver` (shell mode: safe builtins allowed).
pub fn evaluate(
    analysis: &Analysis,
    allowlist: &Allowlist,
    safe_bins: &SafeBinPolicy,
    resolver: &dyn Resolver,
) -> Evaluation {
    let groups = match &analysis.plan {
        Plan::Failed(reason) => {
            return Evaluation {
                analysis_ok: false,
                reason: Some(reason.clone()),
                satisfied: false,
                satisfied_by: Vec::new(),
                argv: analysis.steps_argv.clone(),
            };
        }
        Plan::Groups(groups) => groups,
    };
    let ctx = Context {
        entries: &allowlist.0,
        safe_bins,
        trusted_dirs: safe_bins.trusted_dirs(resolver),
        resolver,
    };
    let candidates: Vec<&Candidate> = groups.iter().flat_map(|g| &g.candidates).collect();
    let satisfied_by: Vec<Option<SatisfiedBy>> = candidates
        .iter()
        .map(|c| evaluate_candidate(c, &ctx))
        .collect();
    Evaluation {
        analysis_ok: true,
        reason: None,
        satisfied: satisfied_by.iter().all(Option::is_some),
        satisfied_by,
        argv: candidates.iter().map(|c| c.argv.clone()).collect(),
    }
}
