//! From an explanation to the groups of candidates that must each be satisfied, or the reason
//! the command line cannot be analysed (OpenClaw's `planFromExplanation`, `groupsFromSteps`,
//! `createCandidate`, `wrapperPayloadPlan`).

use std::collections::HashMap;

use super::explain::{Explanation, Span, Step, StepContext};
use super::operators::{Operator, OperatorKind};
use super::resolution::{TrustPlan, trust_plan};
use super::risks::{Risk, RiskKind};
use super::shell_wrapper::{
    bindable_inline_command, has_interactive_startup, has_login_startup, is_parseable_shell,
};
use super::tokens::{js_trim, normalize_executable_token};

/// Shapes a direct command line may not have.
const UNSUPPORTED_SHAPES: &[&str] = &[
    "background",
    "if",
    "for",
    "while",
    "case",
    "subshell",
    "group",
];

/// One command that must be satisfied.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its argv as parsed.
    pub argv: Vec<String>,
    /// Its text.
    pub raw: String,
    /// Never satisfied (env-assignment prelude, `eval`, `source`, `alias`, carriers, blocked
    /// wrappers such as `sudo`).
    pub prompt_only: bool,
    /// The argv after transparent wrappers, and whether a wrapper blocked it.
    pub trust: TrustPlan,
    /// Its text after the executable, as written (what the gateway's enforced rewrite keeps).
    pub args_source: String,
    /// It sits in a shell wrapper's payload (`sh -c '...'`).
    pub in_wrapper_payload: bool,
}

/// Commands that run together (one pipeline, or one command of a list).
#[derive(Debug, Clone, Default)]
pub struct Group {
    /// Its commands.
    pub candidates: Vec<Candidate>,
}

/// The plan: groups to satisfy, or why there are none.
#[derive(Debug, Clone)]
pub enum Plan {
    /// Analysed.
    Groups(Vec<Group>),
    /// Not analysable, with OpenClaw's reason.
    Failed(String),
}

fn inside(risk: &Risk, step: &Step) -> bool {
    step.span.contains(&risk.span)
}

/// `isShellExpansionDynamicArgument`: `$x`, `${`, `$(`, backticks, `<(`, `>(`.
fn is_shell_expansion(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        match b {
            b'`' => true,
            b'$' => next.is_ascii_alphanumeric() || b"_@*?#$!-{(".contains(&next),
            b'<' | b'>' => next == b'(',
            _ => false,
        }
    })
}

/// Where the prompt-only risks (`eval`, `source`, `alias`, carriers) are, sorted by start, so
/// each step is checked without scanning every risk.
struct PromptSpans(Vec<Span>);

impl PromptSpans {
    fn new(risks: &[Risk]) -> Self {
        let mut spans: Vec<Span> = risks
            .iter()
            .filter(|r| r.kind.is_prompt_only())
            .map(|r| r.span)
            .collect();
        spans.sort_by_key(|s| s.start);
        PromptSpans(spans)
    }

    /// `stepReasons(step).length > 0`: a prompt-only risk lies within the step.
    fn within(&self, step: &Step) -> bool {
        let from = self.0.partition_point(|s| s.start < step.span.start);
        self.0[from..]
            .iter()
            .take_while(|s| s.start <= step.span.end)
            .any(|s| step.span.contains(s))
    }
}

/// `hasBlockingRisk`: an unanalyzable risk, an unsupported shape, or a shell expansion in an
/// argument of a command that is not prompt-only anyway.
fn blocking_risk(expl: &Explanation) -> Option<&'static str> {
    if let Some(risk) = expl.risks.iter().find(|r| r.kind.is_unanalyzable()) {
        return Some(risk.kind.as_str());
    }
    if let Some(shape) = expl
        .shapes
        .iter()
        .copied()
        .find(|s| UNSUPPORTED_SHAPES.contains(s))
    {
        return Some(shape);
    }
    let prompt = PromptSpans::new(&expl.risks);
    let in_prompt_only_step = |risk: &Risk| {
        expl.steps
            .iter()
            .any(|s| inside(risk, s) && prompt.within(s))
    };
    expl.risks
        .iter()
        .find(|r| {
            r.kind == RiskKind::DynamicArgument
                && is_shell_expansion(&r.text)
                && !in_prompt_only_step(r)
        })
        .map(|r| r.kind.as_str())
}

/// The text before a step's executable (`A=1 ` in `A=1 ls`).
fn wrapper_prefix(step: &Step) -> &str {
    let mut end = step
        .exec_span
        .start
        .saturating_sub(step.span.start)
        .min(step.text.len());
    while !step.text.is_char_boundary(end) {
        end -= 1;
    }
    &step.text[..end]
}

/// The step's text after its executable.
fn args_source(step: &Step) -> &str {
    let mut start = step
        .exec_span
        .end
        .saturating_sub(step.span.start)
        .min(step.text.len());
    while !step.text.is_char_boundary(start) {
        start -= 1;
    }
    &step.text[start..]
}

/// `hasCommandPrelude`: an environment assignment before the executable.
fn has_command_prelude(step: &Step) -> bool {
    let prefix = wrapper_prefix(step).trim_start();
    let name_len = prefix
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name_len > 0
        && !prefix.as_bytes()[0].is_ascii_digit()
        && prefix.as_bytes().get(name_len) == Some(&b'=')
}

/// `canUseWrapperShellInvocation`: a bare POSIX shell name without login/interactive startup.
fn can_use_wrapper_shell(argv: &[String]) -> bool {
    let token = argv.first().map_or("", |a| js_trim(a));
    if token.contains('/') || token.contains('\\') {
        return false;
    }
    is_parseable_shell(&normalize_executable_token(token))
        && !has_interactive_startup(argv)
        && !has_login_startup(argv)
}

/// `canUseReusableWrapperPayloadCandidates`.
fn reusable_payload(steps: &[&Step]) -> bool {
    let head = |s: &Step| {
        s.argv
            .first()
            .map_or(String::new(), |a| js_trim(a).to_string())
    };
    let Some(first) = steps.first() else {
        return false;
    };
    !head(first).is_empty()
        && !steps
            .iter()
            .any(|s| head(s).contains('/') || head(s).contains('\\'))
        && !steps.iter().any(|s| {
            normalize_executable_token(s.argv.first().map_or("", String::as_str))
                .ends_with("-wrapper")
        })
}

/// `createCandidate`: whether the step can be satisfied at all.
fn candidate(step: &Step, direct: bool, prompt: &PromptSpans) -> Candidate {
    let trust = trust_plan(&step.argv);
    let direct_wrapper = direct && bindable_inline_command(&step.argv).is_some();
    let prompt_only =
        trust.blocked || has_command_prelude(step) || (!direct_wrapper && prompt.within(step));
    Candidate {
        argv: step.argv.clone(),
        raw: step.text.clone(),
        prompt_only,
        trust,
        args_source: args_source(step).to_string(),
        in_wrapper_payload: step.context == StepContext::WrapperPayload,
    }
}

/// `groupsFromSteps`: pipelines stay together, every other operator starts a new group.
fn groups_from_steps(
    steps: &[&Step],
    operators: &[&Operator],
    direct: bool,
    risks: &[Risk],
) -> Vec<Group> {
    let mut sorted: Vec<&Step> = steps.to_vec();
    sorted.sort_by_key(|s| s.span.start);
    let prompt = PromptSpans::new(risks);
    let make = |group: &[&Step]| Group {
        candidates: group
            .iter()
            .map(|s| candidate(s, direct, &prompt))
            .collect(),
    };
    if sorted.len() > 1 && operators.is_empty() {
        return vec![make(&sorted)];
    }
    let after: HashMap<usize, OperatorKind> = operators.iter().map(|o| (o.from, o.kind)).collect();
    let pipe_after = |id: usize| {
        after
            .get(&id)
            .is_some_and(|k| matches!(k, OperatorKind::Pipe | OperatorKind::StderrPipe))
    };
    let mut groups = Vec::new();
    let mut current: Vec<&Step> = Vec::new();
    for step in sorted {
        if let Some(previous) = current.last()
            && !pipe_after(previous.id)
        {
            groups.push(make(&current));
            current.clear();
        }
        current.push(step);
    }
    if !current.is_empty() {
        groups.push(make(&current));
    }
    groups
}

fn shell_wrapper_risk<'a>(step: &Step, risks: &'a [Risk]) -> Option<&'a Risk> {
    risks
        .iter()
        .find(|r| r.kind == RiskKind::ShellWrapper && inside(r, step))
}

/// `wrapperPayloadPlan`: a lone `sh -c '...'` is judged by the commands of its payload.
fn wrapper_payload_plan(
    expl: &Explanation,
    top: &[&Step],
    allow_nested: bool,
) -> Option<Vec<Group>> {
    let wrapper = *top.first()?;
    shell_wrapper_risk(wrapper, &expl.risks)?;
    if has_command_prelude(wrapper) || !can_use_wrapper_shell(&wrapper.argv) || !allow_nested {
        return None;
    }
    let any_nested = expl
        .steps
        .iter()
        .any(|s| s.context == StepContext::WrapperPayload);
    let nested: Vec<&Step> = expl
        .steps
        .iter()
        .filter(|s| s.context == StepContext::WrapperPayload && s.parent == Some(wrapper.id))
        .collect();
    if top.len() != 1 || !any_nested || !reusable_payload(&nested) {
        return None;
    }
    let operators: Vec<&Operator> = expl
        .operators
        .iter()
        .filter(|o| o.parent == Some(wrapper.id))
        .collect();
    let groups = groups_from_steps(&nested, &operators, false, &expl.risks);
    (!groups.is_empty()).then_some(groups)
}

/// `planFromExplanation`.
pub fn plan(expl: &Explanation) -> Plan {
    let top: Vec<&Step> = expl
        .steps
        .iter()
        .filter(|s| s.context == StepContext::TopLevel)
        .collect();
    let blocking = blocking_risk(expl);
    let unanalyzable = expl.risks.iter().find(|r| r.kind.is_unanalyzable());
    let can_fall_back = top.len() == 1
        && top.first().is_some_and(|step| {
            shell_wrapper_risk(step, &expl.risks).is_some()
                && unanalyzable.is_none_or(|r| inside(r, step))
        });
    if !expl.ok || (blocking.is_some() && !can_fall_back) {
        return Plan::Failed(blocking.unwrap_or("unable to parse command").to_string());
    }
    let allow_nested = blocking.is_none();
    let groups = wrapper_payload_plan(expl, &top, allow_nested).unwrap_or_else(|| {
        let operators: Vec<&Operator> = expl
            .operators
            .iter()
            .filter(|o| o.parent.is_none())
            .collect();
        groups_from_steps(&top, &operators, true, &expl.risks)
    });
    if groups.is_empty() {
        return Plan::Failed("no commands to authorize".to_string());
    }
    Plan::Groups(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_expansions() {
        for text in [
            "$HOME", "${X}", "$(ls)", "`ls`", "<(ls)", "a=$x", "$1", "$-",
        ] {
            assert!(is_shell_expansion(text), "{text}");
        }
        for text in ["*.txt", "$", "a$", "{a,b}", "~"] {
            assert!(!is_shell_expansion(text), "{text}");
        }
    }
}
