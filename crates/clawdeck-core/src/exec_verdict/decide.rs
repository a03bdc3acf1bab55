//! The decision procedure for one exec call once the tool is visible, as OpenClaw 2026.9.6's
//! exec tool runs it (`createExecTool().execute` and `processGatewayAllowlist`): the host, the
//! security and ask the config and the approvals document leave, the allowlist per segment, and
//! whether a question can be answered on this surface or falls back to askFallback.

use serde::Serialize;

use super::approvals_doc::DocPolicy;
use super::elevated::Elevated;
use super::exec_config::ExecConfig;
use super::levels::{Ask, Security};
pub use super::surface::Surface;
use crate::exec_allowlist::persistence::Persistence;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Runs,
    Asks,
    Denied,
    Hidden,
}

/// One segment of the command as the allowlist saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SegmentCheck {
    pub text: String,
    /// `allowlist`, `safeBins`, `safeBuiltins`, or None (a miss).
    pub satisfied_by: Option<String>,
    /// The allowlist entry that matched (its key in the approvals document), when one did.
    pub entry: Option<String>,
    /// The executable resolved to a file (an approval can bind only to resolved ones).
    pub resolved: bool,
}

/// What the allowlist made of the whole command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AllowlistAnswer {
    pub analysis_ok: bool,
    /// Why the command could not be analysed (OpenClaw's word: `redirect`, ...).
    pub reason: Option<String>,
    pub satisfied: bool,
    pub segments: Vec<SegmentCheck>,
    /// `cd` (or pushd/popd) before another segment: an approval cannot bind what follows.
    pub cwd_change_before_command: bool,
    /// Why the gateway cannot pin this line to what the allowlist checked (a glob, `~`, an
    /// `sh -c` payload), when it cannot: a hit then still needs an explicit approval.
    pub rewrite_failure: Option<String>,
    /// The inline eval in the line (`python3 -c`), whatever strictInlineEval says.
    pub inline_eval: Option<String>,
    /// What allow-always could store.
    pub persistence: Persistence,
    /// What an approval would bind by content (files the gateway's user could change, scripts).
    pub mutable: Vec<String>,
}

/// What an operator answering the question may choose, and what "allow always" would do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AllowAlwaysAnswer {
    /// `allow-once`, `allow-always` (when offered), `deny`.
    pub decisions: Vec<&'static str>,
    /// Why allow-always is not offered.
    pub why_not: Option<String>,
    /// The entries it would add to the agent's allowlist (real paths).
    pub stores: Vec<String>,
    /// Whether the stored entries would let this command run next time.
    pub next_time: Option<String>,
}

/// One segment's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SegmentVerdict {
    pub text: String,
    pub verdict: Verdict,
    pub step: &'static str,
    pub key: Option<String>,
}

/// The answer: what happens, the step and key that decided it, what OpenClaw would say, and
/// the smallest change that flips it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExecVerdict {
    pub verdict: Verdict,
    pub step: &'static str,
    pub key: Option<String>,
    pub reason: String,
    pub fix: Option<String>,
    pub host: String,
    pub security: Security,
    pub ask: Ask,
    pub ask_fallback: Security,
    pub segments: Vec<SegmentVerdict>,
    /// When it asks: the decisions offered and what allow-always would store.
    pub allow_always: Option<AllowAlwaysAnswer>,
    /// The turn's elevated level and where it came from.
    pub elevated: Elevated,
}

/// The question's timeout (OpenClaw's DEFAULT_EXEC_APPROVAL_TIMEOUT_MS; no config key).
pub const APPROVAL_TIMEOUT_MS: u64 = 1_800_000;

/// Decides a visible exec call on a host that is not the sandbox, or on the sandbox.
pub fn decide(
    cfg: &ExecConfig,
    doc: &DocPolicy,
    sandboxed: bool,
    allowlist: &AllowlistAnswer,
    surface: Surface,
) -> ExecVerdict {
    let mut verdict = decide_whole(cfg, doc, sandboxed, allowlist, surface);
    if verdict.host == "node" && verdict.verdict != Verdict::Denied {
        // The gateway decides only its floor; the node re-checks with its own policy.
        verdict.reason = format!(
            "{} (host=node: this is the gateway's floor, tools.exec and the gateway's approvals \
             document; the node's own config and approvals can only make it stricter, and with \
             no node paired and connected the call fails: \"exec host=node requires a paired \
             node\")",
            verdict.reason
        );
    }
    // Decided before the allowlist (deny, full): every segment fares as the whole does.
    if verdict.segments.is_empty() {
        verdict.segments = allowlist
            .segments
            .iter()
            .map(|s| SegmentVerdict {
                text: s.text.clone(),
                verdict: verdict.verdict,
                step: verdict.step,
                key: None,
            })
            .collect();
    }
    // A segment the allowlist missed fares as the whole command does.
    for segment in &mut verdict.segments {
        if segment.verdict == Verdict::Asks {
            segment.verdict = verdict.verdict;
        }
    }
    verdict
}

fn decide_whole(
    cfg: &ExecConfig,
    doc: &DocPolicy,
    sandboxed: bool,
    allowlist: &AllowlistAnswer,
    surface: Surface,
) -> ExecVerdict {
    let host = effective_host(cfg, sandboxed);
    if host == "sandbox" {
        return in_sandbox(cfg);
    }
    let (security, security_key) = match &doc.security {
        Some((s, key)) if *s < cfg.security.value => (*s, Some(key.clone())),
        _ => (cfg.security.value, cfg.security.key.clone()),
    };
    let (ask, ask_key) = match &doc.ask {
        Some((a, key)) if *a > cfg.ask.value => (*a, Some(key.clone())),
        _ => (cfg.ask.value, cfg.ask.key.clone()),
    };
    // askFallback comes only from the document (default deny), clamped to the security.
    let (fallback, fallback_key) = match &doc.ask_fallback {
        Some((f, key)) => ((*f).min(security), Some(key.clone())),
        None => (Security::Deny, None),
    };
    let base = ExecVerdict {
        verdict: Verdict::Runs,
        step: "security",
        key: security_key.clone(),
        reason: String::new(),
        fix: None,
        host: host.clone(),
        security,
        ask,
        ask_fallback: fallback,
        segments: Vec::new(),
        allow_always: None,
        elevated: Elevated::off(),
    };
    if let Some((step, key)) = &cfg.bypass_approvals
        && security == Security::Full
        && host == "gateway"
    {
        return ExecVerdict {
            step,
            key: Some(key.clone()),
            reason: format!("{key} skips approvals: security=full runs every command"),
            ask: Ask::Off,
            ..base
        };
    }
    let strict = cfg
        .strict_inline_eval
        .value
        .then_some(())
        .and(allowlist.inline_eval.as_ref());
    match security {
        Security::Deny => ExecVerdict {
            verdict: Verdict::Denied,
            reason: format!("exec denied: host={host} security=deny"),
            fix: Some(format!(
                "set {} to \"allowlist\" or \"full\"",
                security_key.as_deref().unwrap_or("tools.exec.security")
            )),
            ..base
        },
        Security::Full if ask == Ask::Always => asks_or_falls_back(
            ExecVerdict {
                step: "ask",
                key: ask_key,
                reason: "ask=always asks before every command".to_string(),
                ..base
            },
            &Question::new(cfg, allowlist, surface, fallback_key, strict.is_some()),
        ),
        Security::Full => match strict {
            Some(hit) => asks_or_falls_back(
                strict_question(base, hit, cfg),
                &Question::new(cfg, allowlist, surface, fallback_key, true),
            ),
            None => ExecVerdict {
                reason: "security=full runs every command without asking".to_string(),
                ..base
            },
        },
        Security::Allowlist => {
            let question = Question::new(cfg, allowlist, surface, fallback_key, strict.is_some());
            on_allowlist(base, ask_key, &question, strict.map(|hit| (hit, cfg)))
        }
    }
}

/// strictInlineEval and an inline program: a question even where the command would run.
fn strict_question(base: ExecVerdict, hit: &str, cfg: &ExecConfig) -> ExecVerdict {
    ExecVerdict {
        step: "strictInlineEval",
        key: cfg.strict_inline_eval.key.clone(),
        reason: format!("strict inline-eval mode requires reviewer or explicit approval for {hit}"),
        ..base
    }
}

/// Everything a question's outcome depends on besides the verdict so far.
struct Question<'a> {
    allowlist: &'a AllowlistAnswer,
    /// Fixed chat targets a headless turn's question is forwarded to.
    forwarding: Option<&'a super::exec_config::Forwarding>,
    /// `mode: "auto"`: a reviewer model judges the question first.
    auto_review: bool,
    surface: Surface,
    fallback_key: Option<String>,
    /// Only an operator's explicit answer lets it run (strict inline eval, or a hit the
    /// gateway cannot pin): a timeout or askFallback never does.
    needs_human: bool,
}

impl<'a> Question<'a> {
    fn new(
        cfg: &'a ExecConfig,
        allowlist: &'a AllowlistAnswer,
        surface: Surface,
        fallback_key: Option<String>,
        strict_hit: bool,
    ) -> Self {
        Question {
            allowlist,
            forwarding: cfg.forwarding.as_ref(),
            auto_review: cfg.auto_review,
            surface,
            fallback_key,
            needs_human: strict_hit,
        }
    }
}

/// `auto` is the sandbox when the session is sandboxed, else the gateway.
fn effective_host(cfg: &ExecConfig, sandboxed: bool) -> String {
    match cfg.host.value.as_str() {
        "auto" if sandboxed => "sandbox".to_string(),
        "auto" => "gateway".to_string(),
        other => other.to_string(),
    }
}

/// The sandbox host skips the approvals document, the allowlist and ask: only a deny the
/// config sets (`mode: "deny"`, an explicit `security: "deny"`) stops a command there.
fn in_sandbox(cfg: &ExecConfig) -> ExecVerdict {
    let denied = cfg.configured_deny;
    ExecVerdict {
        verdict: if denied {
            Verdict::Denied
        } else {
            Verdict::Runs
        },
        step: "host",
        key: if denied {
            cfg.security.key.clone()
        } else {
            cfg.host.key.clone()
        },
        reason: if denied {
            "exec denied: host=sandbox security=deny".to_string()
        } else {
            "the sandbox runs it: ask, the allowlist and the approvals document do not apply there"
                .to_string()
        },
        fix: None,
        host: "sandbox".to_string(),
        security: cfg.security.value,
        ask: cfg.ask.value,
        ask_fallback: Security::Deny,
        segments: Vec::new(),
        allow_always: None,
        elevated: Elevated::off(),
    }
}

/// security=allowlist: every segment must be satisfied; a miss asks (on-miss) or is denied
/// (off); always asks regardless. A hit the gateway cannot pin, or an inline program under
/// strictInlineEval, asks even with ask=off.
fn on_allowlist(
    base: ExecVerdict,
    ask_key: Option<String>,
    question: &Question,
    strict: Option<(&String, &ExecConfig)>,
) -> ExecVerdict {
    let allowlist = question.allowlist;
    let segments = segment_verdicts(allowlist);
    let hit = allowlist.analysis_ok && allowlist.satisfied;
    let first_miss = segments.iter().find(|s| s.verdict != Verdict::Runs);
    let miss_text = first_miss.map(|s| s.text.clone()).unwrap_or_default();
    let base = ExecVerdict { segments, ..base };
    if base.ask == Ask::Always {
        let v = ExecVerdict {
            step: "ask",
            key: ask_key,
            reason: "ask=always asks before every command".to_string(),
            ..base
        };
        return asks_or_falls_back(v, question);
    }
    let unpinned = allowlist.rewrite_failure.as_ref().filter(|_| hit);
    if let Some(why) = unpinned {
        return unpinned_hit(base, why, question);
    }
    if let Some((hit_text, cfg)) = strict {
        return asks_or_falls_back(strict_question(base, hit_text, cfg), question);
    }
    if hit {
        return ExecVerdict {
            step: "allowlist",
            key: None,
            reason: "every segment is allowlisted, a safe bin or a safe builtin".to_string(),
            ..base
        };
    }
    let why = match &allowlist.reason {
        Some(reason) => format!("the command cannot be analysed ({reason})"),
        None => format!("`{miss_text}` is not allowlisted"),
    };
    if base.ask == Ask::Off {
        return ExecVerdict {
            verdict: Verdict::Denied,
            step: "allowlist",
            key: ask_key.clone(),
            reason: format!("exec denied: allowlist miss: {why}"),
            fix: Some(miss_fix(allowlist, &miss_text, ask_key.as_deref())),
            ..base
        };
    }
    let v = ExecVerdict {
        step: "allowlist",
        key: ask_key,
        reason: format!("{why}; ask=on-miss asks"),
        ..base
    };
    asks_or_falls_back(v, question)
}

/// An allowlist hit the gateway cannot pin to what it checked: an explicit approval is needed
/// (with ask=off and askFallback deny, a glob is denied outright).
fn unpinned_hit(base: ExecVerdict, why: &str, question: &Question) -> ExecVerdict {
    let fix = if why == crate::exec_allowlist::enforced::WRAPPER_PAYLOAD {
        "run the command itself instead of through `sh -c`, so the allowlist entry lets it run \
         unasked"
    } else {
        "quote the glob, brace or `~` (`'*.md'`) or spell the paths out, so the allowlist entry \
         lets it run unasked"
    }
    .to_string();
    if base.ask == Ask::Off
        && base.ask_fallback == Security::Deny
        && why == crate::exec_allowlist::enforced::SHELL_EXPANSION
    {
        return ExecVerdict {
            verdict: Verdict::Denied,
            step: "rewrite",
            key: None,
            reason: "Exec denied (ask-fallback-deny: execution-plan-miss): the allowlisted \
                     command has a shell expansion in its arguments and nothing may ask"
                .to_string(),
            fix: Some(fix),
            ..base
        };
    }
    let v = ExecVerdict {
        step: "rewrite",
        key: None,
        reason: format!(
            "allowlisted, but the gateway cannot pin it to what it checked ({why}): reviewer \
             or explicit approval is required"
        ),
        fix: Some(fix),
        ..base
    };
    let question = Question {
        needs_human: true,
        fallback_key: question.fallback_key.clone(),
        ..*question
    };
    asks_or_falls_back(v, &question)
}

/// The change that turns a miss into a hit (or makes it ask).
fn miss_fix(allowlist: &AllowlistAnswer, miss: &str, ask_key: Option<&str>) -> String {
    match &allowlist.reason {
        Some(reason) => format!(
            "the allowlist never takes a command with {reason}: rewrite it without that, or set \
             {} to \"on-miss\" so it asks",
            ask_key.unwrap_or("tools.exec.ask")
        ),
        None => format!(
            "add the executable of `{miss}` to the approvals document's allowlist \
             (openclaw approvals set), or set {} to \"on-miss\" so it asks",
            ask_key.unwrap_or("tools.exec.ask")
        ),
    }
}

/// A question: denied when it cannot bind the command, else asked on an interactive surface
/// or settled by askFallback on a headless one.
fn asks_or_falls_back(v: ExecVerdict, question: &Question) -> ExecVerdict {
    let allowlist = question.allowlist;
    if let Some(why) = unbindable(allowlist) {
        return ExecVerdict {
            verdict: Verdict::Denied,
            reason: format!("Exec denied (SYSTEM_RUN_DENIED: {why})"),
            fix: Some(
                "an approval binds only plain commands with resolved executables: rewrite it \
                 (no redirects, substitutions or cd before other commands)"
                    .to_string(),
            ),
            ..v
        };
    }
    let v = if question.auto_review && question.surface != Surface::Local {
        ExecVerdict {
            reason: format!(
                "{} (mode \"auto\": a reviewer model judges it first and may let it run; \
                 what it defers goes on as said here)",
                v.reason
            ),
            ..v
        }
    } else {
        v
    };
    match question.surface {
        Surface::Local => unregistered(v),
        Surface::Interactive => asked(v, question),
        Surface::Headless => match question.forwarding {
            Some(forwarding) => forwarded(v, question, forwarding),
            None => fallen_back(v, question),
        },
        // Chat channels never get an automation's approvals: approvals.exec does not apply.
        Surface::Cron => fallen_back(v, question),
    }
}

/// An embedded (`--local`) run: the question is never registered.
fn unregistered(v: ExecVerdict) -> ExecVerdict {
    // The embedded run registers its question with the configured gateway; none runs for
    // this state directory (else `--local` is refused), so the registration fails and
    // askFallback is never consulted.
    ExecVerdict {
        verdict: Verdict::Denied,
        reason: format!(
            "{}; an embedded (--local) run cannot register the question: Exec approval \
             registration failed (the gateway is not reachable), askFallback is not consulted",
            v.reason
        ),
        fix: Some(
            "run the turn through the gateway (`openclaw agent` without --local) from a \
             surface that can answer, or let the command run without a question (an \
             allowlist entry with ask \"on-miss\", or security \"full\" and ask \"off\")"
                .to_string(),
        ),
        ..v
    }
}

/// An interactive turn: an approver answers the question.
fn asked(v: ExecVerdict, question: &Question) -> ExecVerdict {
    let allow_always = Some(allow_always(&v, question));
    ExecVerdict {
        verdict: Verdict::Asks,
        reason: format!(
            "{}: an operator with operator.approvals answers within {} minutes (the Control \
             UI, an app, clawdeck's Approvals view or `clawdeck approvals resolve`)",
            v.reason,
            APPROVAL_TIMEOUT_MS / 60_000
        ),
        allow_always,
        ..v
    }
}

/// A headless turn whose question `approvals.exec` forwards to chat targets: it waits there.
fn forwarded(
    v: ExecVerdict,
    question: &Question,
    forwarding: &super::exec_config::Forwarding,
) -> ExecVerdict {
    let filter = if forwarding.session_filter.is_empty() {
        String::new()
    } else {
        format!(
            " (for session keys matching approvals.exec.sessionFilter {}; other sessions fall \
             back to askFallback)",
            forwarding.session_filter.join(", ")
        )
    };
    let allow_always = Some(allow_always(&v, question));
    ExecVerdict {
        verdict: Verdict::Asks,
        key: Some("approvals.exec.targets".to_string()),
        reason: format!(
            "{}: approvals.exec forwards the question to {}{filter}; the turn waits up to {} \
             minutes for `/approve` there, then askFallback={} settles it",
            v.reason,
            forwarding.targets.join(", "),
            APPROVAL_TIMEOUT_MS / 60_000,
            v.ask_fallback.as_str()
        ),
        allow_always,
        ..v
    }
}

/// Whether `session_key` is an automation's run (`agent:<id>:cron:<job>:run:<run>`): its
/// questions reach only connected approval clients, and allow-always mints a standing grant.
pub fn is_automation_session(session_key: &str) -> bool {
    session_key.split(':').nth(2) == Some("cron")
}

/// A question an automation's run raised, as an approval client answers it: allow-always
/// mints a standing grant for the job instead of storing allowlist entries.
pub fn answered_for_automation(v: &mut ExecVerdict) {
    let Some(offer) = v.allow_always.as_mut() else {
        return;
    };
    if offer.why_not.is_none() {
        offer.stores = vec![
            "a standing grant for this job's exact command, working directory and environment \
             (no allowlist entry)"
                .to_string(),
        ];
        offer.next_time = Some(
            "later runs of this job run it unasked while the grant lasts (until revoked, or \
             tools.exec.grantExpiryDays); a changed job, command, directory or environment asks \
             again"
                .to_string(),
        );
    }
}

/// The decisions the question offers (`resolveExecApprovalAllowedDecisions` after the
/// gateway's one-shot rules) and what allow-always would store.
fn allow_always(v: &ExecVerdict, question: &Question) -> AllowAlwaysAnswer {
    let allowlist = question.allowlist;
    let patterns = match &allowlist.persistence {
        Persistence::Patterns { patterns } => Some(patterns),
        Persistence::OneShot { .. } => None,
    };
    let why_not = if v.ask == Ask::Always {
        Some("ask=always asks before every run: an approval is for this run only".to_string())
    } else if !allowlist.mutable.is_empty() {
        Some(format!(
            "the approval binds the content of what could change ({}): it is for this run \
             only",
            allowlist.mutable.join(", ")
        ))
    } else if let (Some(why), Some(_)) = (&allowlist.rewrite_failure, patterns) {
        Some(format!(
            "the gateway cannot pin this line ({why}): nothing stored would let it run unasked"
        ))
    } else if let Persistence::OneShot { reasons } = &allowlist.persistence {
        Some(format!(
            "nothing reusable to store ({})",
            reasons.join(", ")
        ))
    } else {
        None
    };
    let offered = why_not.is_none();
    let stores = patterns.filter(|_| offered).cloned().unwrap_or_default();
    let next_time = offered.then(|| {
        "each entry is bound to this command's arguments and working directory: the same \
         command there runs unasked next time, other arguments ask again"
            .to_string()
    });
    let mut decisions = vec!["allow-once"];
    if offered {
        decisions.push("allow-always");
    }
    decisions.push("deny");
    AllowAlwaysAnswer {
        decisions,
        why_not,
        stores,
        next_time,
    }
}

/// A headless turn: nobody can answer, askFallback settles it (never for a question only an
/// operator may answer).
fn fallen_back(v: ExecVerdict, question: &Question) -> ExecVerdict {
    let allowlist = question.allowlist;
    let pinned_hit =
        allowlist.analysis_ok && allowlist.satisfied && allowlist.rewrite_failure.is_none();
    let runs = !question.needs_human
        && match v.ask_fallback {
            Security::Full => true,
            Security::Allowlist => pinned_hit,
            Security::Deny => false,
        };
    if runs {
        return ExecVerdict {
            verdict: Verdict::Runs,
            step: "askFallback",
            key: question.fallback_key.clone(),
            reason: format!(
                "{}; nobody can answer on this surface, askFallback={} lets it run",
                v.reason,
                v.ask_fallback.as_str()
            ),
            ..v
        };
    }
    let (step, key) = if question.needs_human {
        (v.step, v.key.clone())
    } else {
        ("askFallback", question.fallback_key.clone())
    };
    let cron = question.surface == Surface::Cron;
    let (runs_label, waits) = if cron {
        (
            "Automation runs",
            "an automation run waits instead while an approval client such as the Control UI, an \
             app or clawdeck's approver is connected to the gateway, and allow-always there mints \
             a standing grant for this job's exact command, working directory and environment \
             (tools.exec.grantExpiryDays sets how long it lasts)",
        )
    } else {
        (
            "Headless runs",
            "a headless turn waits instead while an approval client such as the Control UI or \
             clawdeck's approver is connected to the gateway",
        )
    };
    ExecVerdict {
        verdict: Verdict::Denied,
        step,
        key,
        reason: format!(
            "exec denied: {runs_label} cannot wait for interactive exec approval. Effective host \
             exec policy: security={} ask={} askFallback={} ({}; {waits})",
            v.security.as_str(),
            v.ask.as_str(),
            v.ask_fallback.as_str(),
            v.reason
        ),
        fix: Some(if cron {
            "keep an approval client connected and answer the next run's card with allow-always \
             (a standing grant), add an allowlist entry and set askFallback \"allowlist\" in the \
             approvals document, or set security \"full\" and ask \"off\" for trusted automation"
                .to_string()
        } else {
            "run it from a surface that can answer (a chat.send turn with an approver attached), \
             add an allowlist entry and set askFallback \"allowlist\" in the approvals document, \
             or set security \"full\" and ask \"off\" for trusted automation"
                .to_string()
        }),
        ..v
    }
}

/// Why an approval could not bind this command, if it could not.
fn unbindable(allowlist: &AllowlistAnswer) -> Option<&'static str> {
    if !allowlist.analysis_ok {
        Some("approval cannot safely bind this command")
    } else if allowlist.cwd_change_before_command {
        Some("approval cannot safely bind commands after cwd changes")
    } else if allowlist.segments.iter().any(|s| !s.resolved) {
        Some("approval requires a resolved executable")
    } else {
        None
    }
}

fn segment_verdicts(allowlist: &AllowlistAnswer) -> Vec<SegmentVerdict> {
    allowlist
        .segments
        .iter()
        .map(|s| SegmentVerdict {
            text: s.text.clone(),
            verdict: if s.satisfied_by.is_some() {
                Verdict::Runs
            } else {
                Verdict::Asks
            },
            step: match s.satisfied_by.as_deref() {
                Some("safeBins") => "safeBins",
                Some("safeBuiltins") => "safeBuiltins",
                _ => "allowlist",
            },
            key: s.entry.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::exec_config::Keyed;
    use super::*;

    fn config(security: Security, ask: Ask, host: &str) -> ExecConfig {
        ExecConfig {
            host: Keyed {
                value: host.to_string(),
                key: None,
            },
            security: Keyed {
                value: security,
                key: Some("tools.exec.security".into()),
            },
            ask: Keyed {
                value: ask,
                key: Some("tools.exec.ask".into()),
            },
            mode: None,
            configured_deny: security == Security::Deny,
            safe_bins: None,
            strict_inline_eval: Keyed {
                value: false,
                key: None,
            },
            auto_review: false,
            forwarding: None,
            invalid: Vec::new(),
            bypass_approvals: None,
        }
    }

    fn answer(hit: bool) -> AllowlistAnswer {
        AllowlistAnswer {
            analysis_ok: true,
            reason: None,
            satisfied: hit,
            segments: vec![SegmentCheck {
                text: "git status".into(),
                satisfied_by: hit.then(|| "allowlist".to_string()),
                entry: None,
                resolved: true,
            }],
            cwd_change_before_command: false,
            rewrite_failure: None,
            inline_eval: None,
            persistence: Persistence::Patterns {
                patterns: vec!["/usr/bin/git".into()],
            },
            mutable: Vec::new(),
        }
    }

    fn doc(security: Option<Security>, ask: Option<Ask>, fallback: Option<Security>) -> DocPolicy {
        DocPolicy {
            security: security.map(|s| (s, "defaults.security".into())),
            ask: ask.map(|a| (a, "defaults.ask".into())),
            ask_fallback: fallback.map(|f| (f, "defaults.askFallback".into())),
            allowlist: Vec::new(),
        }
    }

    #[test]
    fn the_document_only_tightens_and_ask_fallback_is_clamped_to_security() {
        let cfg = config(Security::Full, Ask::Off, "gateway");
        let d = doc(
            Some(Security::Allowlist),
            Some(Ask::OnMiss),
            Some(Security::Full),
        );
        let v = decide(&cfg, &d, false, &answer(false), Surface::Headless);
        assert_eq!(
            (v.security, v.ask, v.ask_fallback),
            (Security::Allowlist, Ask::OnMiss, Security::Allowlist)
        );
        assert_eq!(v.verdict, Verdict::Denied, "{v:?}");
        assert!(
            v.reason
                .starts_with("exec denied: Headless runs cannot wait"),
            "{}",
            v.reason
        );
        assert_eq!(v.segments[0].verdict, Verdict::Denied);
        // Allowlisted: askFallback allowlist lets it run headless... and it runs anyway.
        let v = decide(&cfg, &d, false, &answer(true), Surface::Headless);
        assert_eq!(v.verdict, Verdict::Runs, "{v:?}");
        // A looser document changes nothing.
        let loose = doc(Some(Security::Full), Some(Ask::Off), None);
        let strict = config(Security::Allowlist, Ask::OnMiss, "gateway");
        let v = decide(&strict, &loose, false, &answer(false), Surface::Interactive);
        assert_eq!(
            (v.security, v.ask, v.verdict),
            (Security::Allowlist, Ask::OnMiss, Verdict::Asks)
        );
    }

    #[test]
    fn full_with_on_miss_never_asks_and_always_asks_on_any_security_but_deny() {
        let v = decide(
            &config(Security::Full, Ask::OnMiss, "gateway"),
            &DocPolicy::default(),
            false,
            &answer(false),
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Runs);
        // Decided before the allowlist: each segment is listed with the whole's verdict.
        assert_eq!(
            (v.segments.len(), v.segments[0].verdict, v.segments[0].step),
            (1, Verdict::Runs, "security")
        );
        let v = decide(
            &config(Security::Full, Ask::Always, "gateway"),
            &DocPolicy::default(),
            false,
            &answer(true),
            Surface::Interactive,
        );
        assert_eq!((v.verdict, v.step), (Verdict::Asks, "ask"));
    }

    #[test]
    fn the_sandbox_ignores_ask_the_allowlist_and_the_documents_deny() {
        let cfg = config(Security::Allowlist, Ask::Always, "auto");
        let d = doc(Some(Security::Deny), None, None);
        let v = decide(&cfg, &d, true, &answer(false), Surface::Headless);
        assert_eq!((v.host.as_str(), v.verdict), ("sandbox", Verdict::Runs));
        let denied = config(Security::Deny, Ask::Off, "auto");
        let v = decide(
            &denied,
            &DocPolicy::default(),
            true,
            &answer(true),
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Denied);
        assert_eq!(v.reason, "exec denied: host=sandbox security=deny");
    }

    #[test]
    fn a_miss_without_ask_is_denied_and_an_unbindable_question_is_denied_too() {
        let v = decide(
            &config(Security::Allowlist, Ask::Off, "gateway"),
            &DocPolicy::default(),
            false,
            &answer(false),
            Surface::Interactive,
        );
        assert_eq!(
            (v.verdict, v.key.as_deref()),
            (Verdict::Denied, Some("tools.exec.ask"))
        );
        assert!(v.fix.is_some());
        let mut cd_first = answer(false);
        cd_first.cwd_change_before_command = true;
        let v = decide(
            &config(Security::Allowlist, Ask::OnMiss, "gateway"),
            &DocPolicy::default(),
            false,
            &cd_first,
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Denied);
        assert!(v.reason.contains("cwd changes"), "{}", v.reason);
    }

    #[test]
    fn an_embedded_run_cannot_register_a_question_and_never_falls_back() {
        // askFallback full would let a headless gateway turn run; a --local one is denied.
        let d = doc(None, None, Some(Security::Full));
        let cfg = config(Security::Full, Ask::Always, "gateway");
        let headless = decide(&cfg, &d, false, &answer(true), Surface::Headless);
        assert_eq!(headless.verdict, Verdict::Runs, "{headless:?}");
        let local = decide(&cfg, &d, false, &answer(true), Surface::Local);
        assert_eq!(local.verdict, Verdict::Denied, "{local:?}");
        assert!(
            local.reason.contains("registration failed"),
            "{}",
            local.reason
        );
        // Nothing to ask: a --local turn runs as any other.
        let quiet = config(Security::Full, Ask::Off, "gateway");
        let v = decide(&quiet, &d, false, &answer(false), Surface::Local);
        assert_eq!(v.verdict, Verdict::Runs);
    }

    #[test]
    fn a_hit_the_gateway_cannot_pin_asks_and_headless_nothing_rescues_it() {
        let mut glob = answer(true);
        glob.rewrite_failure = Some(crate::exec_allowlist::enforced::SHELL_EXPANSION.into());
        let on_miss = config(Security::Allowlist, Ask::OnMiss, "gateway");
        let v = decide(
            &on_miss,
            &DocPolicy::default(),
            false,
            &glob,
            Surface::Interactive,
        );
        assert_eq!((v.verdict, v.step), (Verdict::Asks, "rewrite"), "{v:?}");
        // The stored entry would never let it run unasked: allow-always is withheld.
        let offered = v.allow_always.expect("a question says what it offers");
        assert_eq!(offered.decisions, vec!["allow-once", "deny"]);
        // askFallback full lets an ordinary question run headless, never this one.
        let d = doc(None, None, Some(Security::Full));
        let v = decide(&on_miss, &d, false, &glob, Surface::Headless);
        assert_eq!(v.verdict, Verdict::Denied, "{v:?}");
        // ask=off with askFallback deny: denied before any question.
        let off = config(Security::Allowlist, Ask::Off, "gateway");
        let v = decide(
            &off,
            &DocPolicy::default(),
            false,
            &glob,
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Denied);
        assert!(
            v.reason.contains("ask-fallback-deny: execution-plan-miss"),
            "{}",
            v.reason
        );
        // A wrapper payload still asks with ask=off.
        glob.rewrite_failure = Some(crate::exec_allowlist::enforced::WRAPPER_PAYLOAD.into());
        let v = decide(
            &off,
            &DocPolicy::default(),
            false,
            &glob,
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Asks, "{v:?}");
    }

    #[test]
    fn strict_inline_eval_asks_even_on_full_and_allow_always_follows_the_persistence() {
        let mut cfg = config(Security::Full, Ask::Off, "gateway");
        let mut py = answer(true);
        py.inline_eval = Some("python3 -c".into());
        py.persistence = Persistence::OneShot {
            reasons: vec!["runtime-payload"],
        };
        let v = decide(
            &cfg,
            &DocPolicy::default(),
            false,
            &py,
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Runs, "strictInlineEval is off");
        cfg.strict_inline_eval = Keyed {
            value: true,
            key: Some("tools.exec.strictInlineEval".into()),
        };
        let v = decide(
            &cfg,
            &DocPolicy::default(),
            false,
            &py,
            Surface::Interactive,
        );
        assert_eq!((v.verdict, v.step), (Verdict::Asks, "strictInlineEval"));
        let offered = v.allow_always.expect("offers");
        assert_eq!(offered.decisions, vec!["allow-once", "deny"]);
        assert!(
            offered
                .why_not
                .is_some_and(|w| w.contains("runtime-payload"))
        );
        let v = decide(
            &cfg,
            &doc(None, None, Some(Security::Full)),
            false,
            &py,
            Surface::Headless,
        );
        assert_eq!(v.verdict, Verdict::Denied, "askFallback never answers it");
        // An ordinary miss offers allow-always and says what it stores, unless the file could
        // change under the approval.
        let on_miss = config(Security::Allowlist, Ask::OnMiss, "gateway");
        let v = decide(
            &on_miss,
            &DocPolicy::default(),
            false,
            &answer(false),
            Surface::Interactive,
        );
        let offered = v.allow_always.expect("offers");
        assert_eq!(
            offered.decisions,
            vec!["allow-once", "allow-always", "deny"]
        );
        assert_eq!(offered.stores, vec!["/usr/bin/git".to_string()]);
        let mut writable = answer(false);
        writable.mutable = vec!["/usr/bin/git".into()];
        let v = decide(
            &on_miss,
            &DocPolicy::default(),
            false,
            &writable,
            Surface::Interactive,
        );
        assert_eq!(
            v.allow_always.expect("offers").decisions,
            vec!["allow-once", "deny"]
        );
    }

    #[test]
    fn a_node_host_verdict_is_the_gateways_floor_and_says_so() {
        let v = decide(
            &config(Security::Full, Ask::Off, "node"),
            &DocPolicy::default(),
            false,
            &answer(true),
            Surface::Interactive,
        );
        assert_eq!((v.verdict, v.host.as_str()), (Verdict::Runs, "node"));
        assert!(v.reason.contains("the gateway's floor"), "{}", v.reason);
        let v = decide(
            &config(Security::Deny, Ask::Off, "node"),
            &DocPolicy::default(),
            false,
            &answer(true),
            Surface::Interactive,
        );
        assert_eq!(v.verdict, Verdict::Denied);
        assert_eq!(v.reason, "exec denied: host=node security=deny");
    }

    #[test]
    fn an_automations_allow_always_mints_a_grant_where_a_chats_would_store_entries() {
        let mut v = decide(
            &config(Security::Allowlist, Ask::OnMiss, "gateway"),
            &DocPolicy::default(),
            false,
            &answer(false),
            Surface::Interactive,
        );
        let offer = v.allow_always.clone().expect("it asks");
        assert!(offer.why_not.is_none(), "{offer:?}");
        answered_for_automation(&mut v);
        let minted = v.allow_always.expect("it asks");
        assert_eq!(minted.decisions, offer.decisions);
        assert!(
            minted.stores[0].starts_with("a standing grant"),
            "{minted:?}"
        );
        assert!(is_automation_session("agent:main:cron:job-1:run:r-1"));
        assert!(!is_automation_session("agent:main:main"));
        assert!(!is_automation_session("agent:cron:main"));
    }
}
