//! Will this command run? The exec verdict for one command line in one context, joined from
//! what OpenClaw 2026.9.6 looks at in turn: the tool policy (is `exec` visible), where it runs
//! (`tools.exec.host`, the sandbox), the security and ask the config and the host approvals
//! document leave, the allowlist per segment (`crate::exec_allowlist`), and whether anyone can
//! answer a question on the surface the turn came from. Pure: the caller hands in the config,
//! the policy resolution, the approvals document and how executables resolve.
//!
//! Also modelled: the gateway's enforced rewrite (a glob or `sh -c` payload asks although
//! allowlisted), strict inline-eval, what a question offers and allow-always would store,
//! `approvals.exec` forwarding as a headless route, and when the caller knows them a session's
//! permission mode, its elevated level (`elevated` has who may use it) and a turn's `/exec`
//! security and ask. Not modelled yet (docs/policy.md lists them for operators): the node
//! host's own policy (a node verdict is the gateway's floor), a session's persisted `/exec
//! host=...`, `mode: "auto"`'s reviewer model (named, not predicted), and cron standing grants.

pub mod approvals_doc;
pub mod decide;
pub mod elevated;
pub mod exec_config;
pub mod levels;
pub mod permission_mode;
pub mod surface;

use serde_json::Value;

pub use decide::{
    AllowlistAnswer, ExecVerdict, SegmentCheck, SegmentVerdict, Surface, Verdict,
    answered_for_automation, decide, is_automation_session,
};

use crate::config::LoadedConfig;
use crate::exec_allowlist::{self, Allowlist, AllowlistEntry, Resolver, SafeBinPolicy};
use crate::policy::Resolution;

/// The question: a command line, the surface, and the host approvals document if one is known.
pub struct ExecQuestion<'a> {
    pub command: &'a str,
    pub surface: Surface,
    pub approvals: Option<&'a Value>,
    /// The session's permission mode (`read-only`, `guarded`, `workspace`, `full`), when it
    /// has one: it replaces the configured exec policy.
    pub permission_mode: Option<&'a str>,
    /// The session's elevated level (`/elevated`, `sessions.patch {elevatedLevel}`), when
    /// known; else the config's default for a sender who may use it.
    pub elevated: Option<elevated::ElevatedLevel>,
    /// The turn's own `/exec security=... ask=...` (a chat turn only).
    pub turn_exec: permission_mode::TurnExec,
}

/// The verdict for `question` in the resolution's context. `resolver` finds executables as the
/// gateway host would (PATH, cwd).
pub fn explain(
    cfg: &LoadedConfig,
    res: &Resolution,
    question: &ExecQuestion,
    resolver: &dyn Resolver,
) -> ExecVerdict {
    let agent = res.resolved.agent.clone();
    let mut exec_cfg = exec_config::ExecConfig::for_agent(cfg, &agent);
    let mut doc = question
        .approvals
        .map(|d| approvals_doc::for_agent(d, &agent))
        .unwrap_or_default();
    // `/exec` is read from a chat message only: a headless run keeps the session's policy.
    let turn = match question.surface {
        Surface::Interactive => question.turn_exec,
        _ => permission_mode::TurnExec::default(),
    };
    if let Some(mode) = question.permission_mode {
        let facts = cfg.semantics.exec.as_ref();
        // An unknown mode is refused before a question is asked (`check_permission_mode`).
        let _ = permission_mode::apply(
            mode,
            facts.and_then(|f| f.permission_modes.as_ref()),
            facts.and_then(|f| f.modes.as_ref()),
            &mut exec_cfg,
            &mut doc,
            &turn,
        );
    } else {
        turn.replace_in(&mut exec_cfg);
    }
    let answer = allowlist_answer(
        question.command,
        cfg.semantics.exec.as_ref(),
        &exec_cfg,
        &doc,
        resolver,
    );
    if let Some(hidden) = hidden(res, &exec_cfg, &answer) {
        return hidden;
    }
    let level = elevated::resolve(
        cfg,
        &agent,
        &res.context,
        question.surface,
        question.elevated,
    );
    let sandboxed = apply_elevated(&level, res.resolved.sandboxed, &mut exec_cfg, &doc);
    let mut verdict = decide(&exec_cfg, &doc, sandboxed, &answer, question.surface);
    verdict.elevated = level;
    verdict
}

/// What an elevated level does to the call: out of the sandbox (to the gateway, or the node
/// when that is the host), and with `full` over a policy that asks for nothing, no approvals.
/// Returns whether the call still runs sandboxed.
fn apply_elevated(
    level: &elevated::Elevated,
    sandboxed: bool,
    cfg: &mut exec_config::ExecConfig,
    doc: &approvals_doc::DocPolicy,
) -> bool {
    use levels::{Ask, Security};
    if level.level == elevated::ElevatedLevel::Off {
        return sandboxed;
    }
    if cfg.host.value != "node" && (sandboxed || cfg.host.value == "sandbox") {
        cfg.host = exec_config::Keyed {
            value: "gateway".to_string(),
            key: Some(format!("elevated: {}", level.why)),
        };
    }
    let permissive = |security: Security, ask: Ask| security == Security::Full && ask == Ask::Off;
    let doc_permissive = permissive(
        doc.security.as_ref().map_or(Security::Full, |s| s.0),
        doc.ask.as_ref().map_or(Ask::Off, |a| a.0),
    );
    if level.level == elevated::ElevatedLevel::Full
        && permissive(cfg.security.value, cfg.ask.value)
        && doc_permissive
        && cfg.bypass_approvals.is_none()
    {
        cfg.bypass_approvals = Some(("elevated", level.why.clone()));
    }
    false
}

/// Whether `mode` is a permission mode of `cfg`'s OpenClaw version; the error lists those there
/// are.
pub fn check_permission_mode(cfg: &LoadedConfig, mode: &str) -> Result<(), String> {
    let facts = cfg.semantics.exec.as_ref();
    permission_mode::apply(
        mode,
        facts.and_then(|f| f.permission_modes.as_ref()),
        facts.and_then(|f| f.modes.as_ref()),
        &mut exec_config::ExecConfig::for_agent(cfg, "main"),
        &mut approvals_doc::DocPolicy::default(),
        &permission_mode::TurnExec::default(),
    )
}

/// A command's verdict on both surfaces, as this machine sees it: the approvals document
/// OpenClaw stored under its state directory (none when nothing is stored or no directory is
/// given) and executables on this process's PATH. What the console shows beside the tool's
/// layers.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalVerdicts {
    pub command: String,
    pub interactive: ExecVerdict,
    pub headless: ExecVerdict,
    /// Where the approvals document came from (None: nothing stored).
    pub approvals: Option<String>,
    /// Whose config judged it: None this machine's, else the gateway's URL (`config.get`).
    pub config_from: Option<String>,
}

/// [`LocalVerdicts`] for `command` in `res`'s context, with OpenClaw's state directory
/// `state` ([`crate::paths::openclaw_state_dir`]) and executables found through `resolver`; the error
/// names a document that cannot be read.
pub fn explain_locally(
    cfg: &LoadedConfig,
    res: &Resolution,
    command: &str,
    state: Option<&std::path::Path>,
    resolver: &dyn Resolver,
) -> Result<LocalVerdicts, String> {
    let doc = state.map(approvals_doc::read_state).transpose()?.flatten();
    let approvals = state
        .filter(|_| doc.is_some())
        .map(approvals_doc::state_locator);
    let on = |surface| {
        let question = ExecQuestion {
            command,
            surface,
            approvals: doc.as_ref(),
            permission_mode: None,
            elevated: None,
            turn_exec: Default::default(),
        };
        explain(cfg, res, &question, resolver)
    };
    Ok(LocalVerdicts {
        command: command.to_string(),
        interactive: on(Surface::Interactive),
        headless: on(Surface::Headless),
        approvals,
        config_from: None,
    })
}

/// `exec` is not visible in this context: the layer that removed it decides.
fn hidden(
    res: &Resolution,
    cfg: &exec_config::ExecConfig,
    answer: &AllowlistAnswer,
) -> Option<ExecVerdict> {
    let trace = res.trace("exec")?;
    if trace.visible {
        return None;
    }
    let removal = trace.removed_by.as_ref();
    let layer = removal.map(|r| r.layer.to_string()).unwrap_or_default();
    let key = removal.and_then(|r| r.config_path.clone());
    Some(ExecVerdict {
        verdict: Verdict::Hidden,
        step: "policy",
        key: key.clone(),
        reason: format!(
            "exec is not among the agent's tools: removed at the {layer} layer{}",
            removal
                .map(|r| format!(" ({})", r.reason))
                .unwrap_or_default()
        ),
        fix: key.map(|k| format!("allow exec at {k} (`clawdeck explain exec` shows every layer)")),
        host: cfg.host.value.clone(),
        security: cfg.security.value,
        ask: cfg.ask.value,
        ask_fallback: levels::Security::Deny,
        allow_always: None,
        elevated: elevated::Elevated::off(),
        segments: answer
            .segments
            .iter()
            .map(|s| SegmentVerdict {
                text: s.text.clone(),
                verdict: Verdict::Hidden,
                step: "policy",
                key: None,
            })
            .collect(),
    })
}

/// The allowlist's answer, segment by segment, with what an approval needs to bind.
fn allowlist_answer(
    command: &str,
    version_facts: Option<&exec_allowlist::ExecVersionFacts>,
    cfg: &exec_config::ExecConfig,
    doc: &approvals_doc::DocPolicy,
    resolver: &dyn Resolver,
) -> AllowlistAnswer {
    let analysis = exec_allowlist::analyze(command);
    let allowlist = Allowlist(
        doc.allowlist
            .iter()
            .map(|e| AllowlistEntry {
                pattern: e.pattern.clone(),
                arg_pattern: e.arg_pattern.clone(),
                source: e.source.clone(),
            })
            .collect(),
    );
    let bins = cfg.safe_bins.as_ref().map(|b| b.value.clone());
    let facts = version_facts.cloned().unwrap_or_default();
    let safe_bins = SafeBinPolicy::for_version(bins.as_deref(), &Default::default(), &[], &facts);
    let evaluation = exec_allowlist::evaluate(&analysis, &allowlist, &safe_bins, resolver);
    let specs = inline_eval_specs(version_facts);
    let persistence = exec_allowlist::persistence::allow_always(
        &analysis,
        &evaluation,
        &exec_allowlist::persistence::PersistenceInput {
            specs: &specs,
            strict_inline_eval: cfg.strict_inline_eval.value,
            resolver,
        },
    );
    let rewrite_failure = evaluation
        .analysis_ok
        .then(|| {
            exec_allowlist::enforced::rewrite_failure(&analysis.plan, &evaluation.satisfied_by)
        })
        .flatten();
    let inline_eval = specs
        .detect_in_segments(analysis.planned_segments(&evaluation))
        .map(|hit| hit.describe());
    let mutable = changeable_operands(&evaluation.argv, &specs, resolver);
    let segments: Vec<SegmentCheck> = evaluation
        .argv
        .iter()
        .enumerate()
        .map(|(i, argv)| SegmentCheck {
            text: shell_words(argv),
            satisfied_by: evaluation
                .satisfied_by
                .get(i)
                .copied()
                .flatten()
                .map(|s| s.as_str().to_string()),
            entry: None,
            resolved: argv.first().is_some_and(|exe| {
                exec_allowlist::resolve_executable(exe, resolver)
                    .resolved_path
                    .is_some()
            }),
        })
        .collect();
    let changes_cwd = |argv: &Vec<String>| {
        argv.first()
            .is_some_and(|a| ["cd", "pushd", "popd"].contains(&a.as_str()))
    };
    let cwd_change_before_command = evaluation
        .argv
        .iter()
        .position(changes_cwd)
        .is_some_and(|at| at + 1 < evaluation.argv.len());
    AllowlistAnswer {
        analysis_ok: evaluation.analysis_ok,
        reason: evaluation.reason.clone(),
        satisfied: evaluation.satisfied,
        segments,
        cwd_change_before_command,
        rewrite_failure,
        inline_eval,
        persistence,
        mutable,
    }
}

/// The version's inline-eval interpreters; a pack that does not list them gets the newest
/// shipped release's.
fn inline_eval_specs(
    facts: Option<&exec_allowlist::ExecVersionFacts>,
) -> exec_allowlist::InlineEvalSpecs {
    facts
        .and_then(|f| f.inline_eval.clone())
        .or_else(|| {
            crate::semantics::newest()
                .exec
                .as_ref()
                .and_then(|f| f.inline_eval.clone())
        })
        .unwrap_or_default()
}

/// What an approval would bind by content (`prepareSystemRunMutableFileBinding`): each
/// executable the gateway's user could change, and every script an interpreter or shell is
/// handed. Such an approval is one-shot.
fn changeable_operands(
    argvs: &[Vec<String>],
    specs: &exec_allowlist::InlineEvalSpecs,
    resolver: &dyn Resolver,
) -> Vec<String> {
    let mut out = Vec::new();
    for argv in argvs {
        let Some(exe) = argv.first() else { continue };
        let executable = exec_allowlist::resolve_executable(exe, resolver);
        let Some(path) = executable.resolved_path.clone() else {
            continue;
        };
        if resolver.could_change(&path) && !out.contains(&path) {
            out.push(path.clone());
        }
        let runs_scripts =
            specs.is_interpreter_like(&path) || exec_allowlist::is_shell_wrapper_executable(exe);
        if runs_scripts
            && specs.detect(argv).is_none()
            && let Some(script) = argv.iter().skip(1).find(|a| !a.starts_with('-'))
        {
            let script = format!("{script} (a script)");
            if !out.contains(&script) {
                out.push(script);
            }
        }
    }
    out
}

/// An argv as a shell line (words with spaces or quotes single-quoted).
fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
