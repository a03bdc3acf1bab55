//! The explainer: parses a command line with tree-sitter-bash and walks it as OpenClaw's
//! `explainShellCommand` does, collecting commands (steps), shapes, risks and, for a shell
//! wrapper's payload, the commands inside it (parsed again, at most two levels deep).

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, ParseState, Parser, Tree};

use super::command_argv::{
    Argument, ParsedArgv, argv_from_command, argv_from_declaration, argv_from_test,
    has_escaped_line_continuation, named_children, node_text,
};
use super::operators::{OperatorSource, resolve_operators};
use super::risks::{Risk, RiskKind, record_command_risks, record_shape};
use super::shell_wrapper::{
    inline_command, is_parseable_shell, shell_command_flag, shell_wrapper_command,
    wrapper_argv_and_payload,
};
pub use super::steps::{PayloadBase, Span, SpanBase, Step, StepContext};
use super::tokens::{arg, normalize_executable_token};

/// Longer commands are not explained (OpenClaw counts UTF-16 units).
pub const MAX_SOURCE_CHARS: usize = 131_072;
/// A parse that runs longer is abandoned. tree-sitter checks the clock between parse
/// operations, so a pathological line (a 100 KB pipeline ending in `|`) can still take seconds.
pub const MAX_PARSE_TIME: Duration = Duration::from_millis(500);
/// More syntax nodes than this (all parsed payloads together) are not explained.
pub const MAX_NODES: usize = 50_000;
/// How deep shell-wrapper payloads are parsed.
const MAX_WRAPPER_PAYLOAD_DEPTH: usize = 2;

pub(crate) const TOO_LARGE: &str = "Shell command is too large to explain";
pub(crate) const TOO_COMPLEX: &str = "Shell command syntax is too complex to explain safely";

/// What the explainer found.
#[derive(Debug, Clone, Default)]
pub struct Explanation {
    /// The parse had no error.
    pub ok: bool,
    /// Shapes (`sequence`, `pipeline`, `if`, `subshell`, ...), first seen first.
    pub shapes: Vec<&'static str>,
    /// Every command, in walk order.
    pub steps: Vec<Step>,
    /// Operators between consecutive commands.
    pub operators: Vec<super::operators::Operator>,
    /// Risks, in walk order.
    pub risks: Vec<Risk>,
}

/// Parses shell text with tree-sitter-bash within OpenClaw's limits.
fn parse(source: &str) -> Result<Tree, String> {
    if source.encode_utf16().count() > MAX_SOURCE_CHARS {
        return Err(TOO_LARGE.to_string());
    }
    let no_tree = || "tree-sitter-bash returned no parse tree".to_string();
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|_| no_tree())?;
    let deadline = Instant::now() + MAX_PARSE_TIME;
    let timed_out = Cell::new(false);
    let mut progress = |_: &ParseState| {
        timed_out.set(Instant::now() > deadline);
        timed_out.get()
    };
    let bytes = source.as_bytes();
    let tree = parser.parse_with_options(
        &mut |i, _| bytes.get(i..).unwrap_or_default(),
        None,
        Some(ParseOptions::new().progress_callback(&mut progress)),
    );
    match tree {
        Some(tree) => Ok(tree),
        None if timed_out.get() => Err(format!(
            "tree-sitter-bash timed out after {}ms while parsing shell command",
            MAX_PARSE_TIME.as_millis()
        )),
        None => Err(no_tree()),
    }
}

/// Per-walk state: the payload depth, how offsets map out, and the wrapper step above.
struct WalkState {
    depth: usize,
    base: SpanBase,
    parent: Option<usize>,
}

/// The explainer's accumulating output.
struct Walker {
    out: Explanation,
    operator_sources: Vec<OperatorSource>,
    remaining_nodes: usize,
}

/// `explainShellCommand`: Err carries OpenClaw's error text (too large, too complex, timeout).
pub fn explain(source: &str) -> Result<Explanation, String> {
    let tree = parse(source)?;
    let mut walker = Walker {
        out: Explanation {
            ok: !tree.root_node().has_error(),
            ..Explanation::default()
        },
        operator_sources: Vec::new(),
        remaining_nodes: MAX_NODES,
    };
    let state = WalkState {
        depth: 0,
        base: SpanBase::Root,
        parent: None,
    };
    walker.walk(tree.root_node(), source, StepContext::TopLevel, &state)?;
    let mut out = walker.out;
    out.operators = resolve_operators(source, &out.steps, &walker.operator_sources);
    Ok(out)
}

impl Walker {
    /// Visits `root` and everything under it, depth first, children in order.
    fn walk(
        &mut self,
        root: Node,
        src: &str,
        context: StepContext,
        state: &WalkState,
    ) -> Result<(), String> {
        let count = root.descendant_count();
        if count > self.remaining_nodes {
            return Err(TOO_COMPLEX.to_string());
        }
        self.remaining_nodes -= count;
        let mut pending = vec![(root, context)];
        while let Some((node, context)) = pending.pop() {
            let child_context = self.visit(node, src, context, state)?;
            for child in named_children(&node).into_iter().rev() {
                pending.push((child, child_context));
            }
        }
        Ok(())
    }

    fn risk(&mut self, kind: RiskKind, text: &str, span: Span) {
        self.out.risks.push(Risk::new(kind, text, span));
    }

    /// `visitNode`: records the node's shape and risks, and a step for a command; returns the
    /// context its children are in.
    fn visit(
        &mut self,
        node: Node,
        src: &str,
        context: StepContext,
        state: &WalkState,
    ) -> Result<StepContext, String> {
        record_shape(&node, &mut self.out.shapes);
        let span = state.base.span(node.start_byte(), node.end_byte());
        let text = node_text(&node, src);
        let kind = node.kind();
        let continued = match kind {
            "program" => has_escaped_line_continuation(text),
            "word" => text.contains("\n\\") || text.contains("\r\\"),
            _ => false,
        };
        if continued {
            self.risk(RiskKind::LineContinuation, text, span);
        }
        let mut child_context = context;
        match kind {
            "function_definition" => {
                self.risk(RiskKind::FunctionDefinition, text, span);
                child_context = StepContext::FunctionDefinition;
            }
            "command_substitution" => {
                self.risk(RiskKind::CommandSubstitution, text, span);
                child_context = StepContext::CommandSubstitution;
            }
            "process_substitution" => {
                self.risk(RiskKind::ProcessSubstitution, text, span);
                child_context = StepContext::ProcessSubstitution;
            }
            "heredoc_redirect" => self.risk(RiskKind::Heredoc, text, span),
            "herestring_redirect" => self.risk(RiskKind::HereString, text, span),
            "file_redirect" => self.risk(RiskKind::Redirect, text, span),
            "ERROR" => self.risk(RiskKind::SyntaxError, text, span),
            _ => {}
        }
        if matches!(kind, "command" | "declaration_command" | "test_command") {
            self.visit_command(node, src, context, state, span)?;
        }
        Ok(child_context)
    }

    /// A command node: its argv becomes a step (or a dynamic-executable risk), its risks are
    /// recorded, and a shell wrapper's payload is parsed and walked.
    fn visit_command(
        &mut self,
        node: Node,
        src: &str,
        context: StepContext,
        state: &WalkState,
        span: Span,
    ) -> Result<(), String> {
        let name = if node.kind() == "command" {
            node.child_by_field_name("name")
        } else {
            None
        };
        let parsed = match node.kind() {
            "command" => name.and_then(|name| argv_from_command(node, name, src, &state.base)),
            "declaration_command" => argv_from_declaration(node, src, &state.base),
            _ => argv_from_test(node, src, &state.base),
        };
        let Some(parsed) = parsed else {
            if let Some(name) = name {
                let name_span = state.base.span(name.start_byte(), name.end_byte());
                self.risk(
                    RiskKind::DynamicExecutable,
                    node_text(&name, src),
                    name_span,
                );
            }
            return Ok(());
        };
        if parsed.argv.first().is_none_or(String::is_empty) {
            return Ok(());
        }
        let exec_span = match name {
            Some(name) => state.base.span(name.start_byte(), name.end_byte()),
            None => parsed.arguments.first().map_or(span, |a| a.span),
        };
        let id = self.out.steps.len();
        let text = node_text(&node, src);
        self.out.steps.push(Step {
            id,
            context,
            argv: parsed.argv.clone(),
            text: text.to_string(),
            span,
            exec_span,
            parent: state.parent,
        });
        record_command_risks(&parsed, text, span, &mut self.out.risks);
        match wrapper_payload(&parsed) {
            Some((payload, base)) if state.depth < MAX_WRAPPER_PAYLOAD_DEPTH => {
                self.walk_payload(&payload, base, id, state)
            }
            _ => Ok(()),
        }
    }

    /// Parses and walks a shell wrapper's payload.
    fn walk_payload(
        &mut self,
        payload: &str,
        base: SpanBase,
        parent: usize,
        state: &WalkState,
    ) -> Result<(), String> {
        let tree = parse(payload)?;
        self.operator_sources.push(OperatorSource {
            parent,
            source: payload.to_string(),
        });
        let root = tree.root_node();
        if root.has_error() {
            self.out.ok = false;
            let span = base.span(root.start_byte(), root.end_byte());
            self.risk(RiskKind::SyntaxError, payload, span);
        }
        let nested = WalkState {
            depth: state.depth + 1,
            base,
            parent: Some(parent),
        };
        self.walk(root, payload, StepContext::WrapperPayload, &nested)
    }
}

/// `payloadBaseFromArgument`: where `payload` sits inside `argument`'s value.
fn payload_base(argument: &Argument, payload: &str) -> Option<SpanBase> {
    let payload_offset = argument.value.find(payload)?;
    let raw_payload_offset = *argument.offsets.get(payload_offset)?;
    Some(SpanBase::Payload(Rc::new(PayloadBase {
        argument_start: argument.span.start,
        argument_offsets: argument.offsets.clone(),
        payload_offset,
        raw_payload_offset,
    })))
}

/// `shellWrapperPayloadForParsing`: the payload of a POSIX shell wrapper that can be parsed,
/// with how its offsets map out; None for a dynamic payload or another shell.
fn wrapper_payload(parsed: &ParsedArgv) -> Option<(String, SpanBase)> {
    let argv = &parsed.argv;
    let (is_wrapper, command) = shell_wrapper_command(argv);
    let payload = command.or_else(|| inline_command(argv))?;
    let dynamic = parsed
        .arguments
        .iter()
        .any(|a| a.dynamic && a.value == payload);
    if !is_wrapper || dynamic {
        return None;
    }
    let base = parsed
        .arguments
        .iter()
        .find(|a| a.value == payload)
        .and_then(|a| payload_base(a, &payload))
        .or_else(|| {
            parsed
                .arguments
                .iter()
                .find_map(|a| payload_base(a, &payload))
        })?;
    let transport = wrapper_argv_and_payload(argv).map_or_else(|| argv.clone(), |(t, _)| t);
    let flag = shell_command_flag(&transport, 1)
        .or_else(|| shell_command_flag(argv, 1))
        .map(|(flag, _)| flag.to_lowercase())
        .unwrap_or_default();
    let shell = normalize_executable_token(arg(&transport, 0));
    let c_flag = flag == "-c"
        || flag == "--command"
        || (flag.starts_with('-') && flag[1..].contains('c') && !flag[1..].contains('-'));
    (is_parseable_shell(&shell) && c_flag).then_some((payload, base))
}
