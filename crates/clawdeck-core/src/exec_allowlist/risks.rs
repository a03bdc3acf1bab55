//! Risks and shapes the explainer records (OpenClaw's `recordCommandRisks`, `recordShape` and
//! the carrier detectors of `command-analysis/risks.ts`). Inline-eval risks (`python -c`,
//! `node -e`) are not recorded: they only stop an "allow always" answer, never a match.

use tree_sitter::Node;

use super::carriers::{carrier_command_argv, is_command_carrier, parse_env_prelude};
use super::command_argv::{ParsedArgv, child_kinds, named_children};
use super::dispatch::{Unwrap, unwrap_dispatch};
use super::shell_wrapper::{
    inline_command, is_shell_wrapper_executable, shell_command_flag, shell_wrapper_command,
};
use super::steps::Span;
use super::tokens::normalize_executable_token;

/// The kinds of risk, named as OpenClaw names them (these names are the failure reasons).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RiskKind {
    CommandSubstitution,
    ProcessSubstitution,
    Heredoc,
    HereString,
    Redirect,
    LineContinuation,
    FunctionDefinition,
    SyntaxError,
    DynamicExecutable,
    DynamicArgument,
    ShellWrapper,
    ShellWrapperThroughCarrier,
    CommandCarrier,
    Eval,
    Source,
    Alias,
}

impl RiskKind {
    /// OpenClaw's name for the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            RiskKind::CommandSubstitution => "command-substitution",
            RiskKind::ProcessSubstitution => "process-substitution",
            RiskKind::Heredoc => "heredoc",
            RiskKind::HereString => "here-string",
            RiskKind::Redirect => "redirect",
            RiskKind::LineContinuation => "line-continuation",
            RiskKind::FunctionDefinition => "function-definition",
            RiskKind::SyntaxError => "syntax-error",
            RiskKind::DynamicExecutable => "dynamic-executable",
            RiskKind::DynamicArgument => "dynamic-argument",
            RiskKind::ShellWrapper => "shell-wrapper",
            RiskKind::ShellWrapperThroughCarrier => "shell-wrapper-through-carrier",
            RiskKind::CommandCarrier => "command-carrier",
            RiskKind::Eval => "eval",
            RiskKind::Source => "source",
            RiskKind::Alias => "alias",
        }
    }

    /// Risks that make a command line unanalyzable (`UNANALYZABLE_RISKS`).
    pub fn is_unanalyzable(self) -> bool {
        matches!(
            self,
            RiskKind::CommandSubstitution
                | RiskKind::DynamicExecutable
                | RiskKind::LineContinuation
                | RiskKind::Heredoc
                | RiskKind::HereString
                | RiskKind::ProcessSubstitution
                | RiskKind::Redirect
                | RiskKind::SyntaxError
                | RiskKind::FunctionDefinition
        )
    }

    /// Risks that make a command prompt-only (`PROMPT_ONLY_RISKS`).
    pub fn is_prompt_only(self) -> bool {
        matches!(
            self,
            RiskKind::Eval
                | RiskKind::Source
                | RiskKind::Alias
                | RiskKind::ShellWrapperThroughCarrier
                | RiskKind::CommandCarrier
        )
    }
}

/// One risk: its kind, the text it is about, where, and a shell wrapper's payload.
#[derive(Debug, Clone)]
pub struct Risk {
    /// What kind.
    pub kind: RiskKind,
    /// The text it concerns.
    pub text: String,
    /// Where.
    pub span: Span,
    /// The payload of a `shell-wrapper` risk.
    pub payload: Option<String>,
}

impl Risk {
    /// A risk without payload.
    pub fn new(kind: RiskKind, text: &str, span: Span) -> Self {
        Risk {
            kind,
            text: text.to_string(),
            span,
            payload: None,
        }
    }
}

/// `recordShape`: the control shapes a node has.
pub fn record_shape(node: &Node, shapes: &mut Vec<&'static str>) {
    let mut add = |shape: &'static str| {
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
    };
    let kinds = child_kinds(node);
    let has = |kind: &str| kinds.contains(&kind);
    let kind = node.kind();
    let command_like =
        |n: &Node| matches!(n.kind(), "command" | "declaration_command" | "test_command");
    if (kind == "program" || kind == "list")
        && (has(";")
            || named_children(node)
                .iter()
                .filter(|n| command_like(n))
                .count()
                > 1)
    {
        add("sequence");
    }
    if has("&") {
        add("background");
    }
    let shape = match kind {
        "pipeline" => Some("pipeline"),
        "if_statement" => Some("if"),
        "for_statement" => Some("for"),
        "while_statement" => Some("while"),
        "case_statement" => Some("case"),
        "subshell" => Some("subshell"),
        "compound_statement" => Some("group"),
        _ => None,
    };
    if kind == "list" {
        if has("&&") {
            add("and");
        }
        if has("||") {
            add("or");
        }
    }
    if let Some(shape) = shape {
        add(shape);
    }
}

/// `detectCommandCarrierArgv`: `find -exec`, `xargs`, blocked dispatch wrappers, `env -S`.
fn command_carrier_count(argv: &[String], normalized: &str) -> usize {
    let find_exec = normalized == "find"
        && argv
            .iter()
            .any(|a| matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"));
    let blocked = matches!(unwrap_dispatch(argv), Unwrap::Blocked(_));
    let env_split =
        normalized == "env" && parse_env_prelude(argv, 0).is_some_and(|p| p.split_argv.is_some());
    [find_exec, normalized == "xargs", blocked, env_split]
        .iter()
        .filter(|hit| **hit)
        .count()
}

/// The most carriers followed in one command.
const MAX_CARRIER_CHAIN: usize = 64;

/// The argvs a chain of carriers (`sudo env command ...`) runs, outermost first.
fn carrier_chain(argv: &[String]) -> Vec<Vec<String>> {
    let mut chain: Vec<Vec<String>> = Vec::new();
    let mut current = argv.to_vec();
    // Each level is shorter than the one above; the cap only guards against a loop.
    while chain.len() < MAX_CARRIER_CHAIN
        && is_command_carrier(&normalize_executable_token(first(&current)), true)
    {
        let Some(carried) = carrier_command_argv(&current, true) else {
            break;
        };
        chain.push(carried.clone());
        current = carried;
    }
    chain
}

fn first(argv: &[String]) -> &str {
    argv.first().map_or("", String::as_str)
}

/// `detectShellWrapperThroughCarrierArgv`: a carrier that runs `sh -c ...` at some depth.
fn shell_wrapper_through_carrier(argv: &[String]) -> bool {
    carrier_chain(argv).iter().any(|carried| {
        is_shell_wrapper_executable(first(carried)) && shell_command_flag(carried, 1).is_some()
    })
}

/// `detectCarriedShellBuiltinArgv`: `eval` or `source` run through a carrier, deepest first.
fn carried_shell_builtin(argv: &[String]) -> Option<RiskKind> {
    carrier_chain(argv).iter().rev().find_map(|carried| {
        match normalize_executable_token(first(carried)).as_str() {
            "eval" => Some(RiskKind::Eval),
            "." | "source" => Some(RiskKind::Source),
            _ => None,
        }
    })
}

/// `recordCommandRisks` for one command.
pub fn record_command_risks(parsed: &ParsedArgv, text: &str, span: Span, risks: &mut Vec<Risk>) {
    let argv = &parsed.argv;
    let Some(executable) = argv.first().filter(|e| !e.is_empty()) else {
        return;
    };
    let normalized = normalize_executable_token(executable);
    for argument in parsed.arguments.iter().filter(|a| a.dynamic) {
        risks.push(Risk::new(
            RiskKind::DynamicArgument,
            &argument.text,
            argument.span,
        ));
    }
    let (is_wrapper, command) = shell_wrapper_command(argv);
    let payload = command.or_else(|| inline_command(argv));
    if is_wrapper && let Some(payload) = payload {
        if is_shell_wrapper_executable(executable) {
            let mut risk = Risk::new(RiskKind::ShellWrapper, text, span);
            risk.payload = Some(payload);
            risks.push(risk);
        } else {
            risks.push(Risk::new(RiskKind::ShellWrapperThroughCarrier, text, span));
        }
    }
    for _ in 0..command_carrier_count(argv, &normalized) {
        risks.push(Risk::new(RiskKind::CommandCarrier, text, span));
    }
    match normalized.as_str() {
        "eval" => risks.push(Risk::new(RiskKind::Eval, text, span)),
        "." | "source" => risks.push(Risk::new(RiskKind::Source, text, span)),
        "alias" => risks.push(Risk::new(RiskKind::Alias, text, span)),
        _ => {}
    }
    if !is_wrapper && shell_wrapper_through_carrier(argv) {
        risks.push(Risk::new(RiskKind::ShellWrapperThroughCarrier, text, span));
    }
    if let Some(kind) = carried_shell_builtin(argv) {
        risks.push(Risk::new(kind, text, span));
    }
}
