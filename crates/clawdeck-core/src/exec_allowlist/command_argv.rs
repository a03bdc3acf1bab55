//! The argv of one parsed command: each word's shell value (literal or dynamic) with OpenClaw's
//! quote decoding, and the argv of `command`, `declaration_command` and `test_command` nodes
//! (`shellWordValue`, `argvFromCommand`, ... in OpenClaw's `extract.ts`).

use tree_sitter::Node;

use super::steps::{Span, SpanBase};
use super::words::{
    Decoded, decode_ansi_c, decode_double_quoted, decode_unquoted, has_unescaped_dynamic_pattern,
};

/// Node types whose value is only known when the shell runs.
const DYNAMIC_WORD_TYPES: &[&str] = &[
    "arithmetic_expansion",
    "command_substitution",
    "expansion",
    "process_substitution",
    "simple_expansion",
];

/// Node types that are command arguments.
const ARGUMENT_TYPES: &[&str] = &[
    "ansi_c_string",
    "arithmetic_expansion",
    "command_substitution",
    "concatenation",
    "expansion",
    "number",
    "process_substitution",
    "raw_string",
    "simple_expansion",
    "string",
    "word",
];

/// A word's value: what the shell sees, and whether it is only known at run time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordValue {
    /// Expansion, substitution or glob: the value is a guess.
    pub dynamic: bool,
    /// The decoded text.
    pub value: String,
}

/// One argument of a command, with where it is and how its value maps to its text.
#[derive(Debug, Clone)]
pub struct Argument {
    /// The argument as written.
    pub text: String,
    /// Its decoded value.
    pub value: String,
    /// Where it is in the outermost command line.
    pub span: Span,
    /// For each value byte, its offset in `text`.
    pub offsets: Vec<usize>,
    /// Only known at run time.
    pub dynamic: bool,
}

/// A command's argv with its arguments (argv[0] excluded from `arguments`).
#[derive(Debug, Clone, Default)]
pub struct ParsedArgv {
    /// The argv.
    pub argv: Vec<String>,
    /// Every argument after argv[0].
    pub arguments: Vec<Argument>,
}

/// The text of a node in `src`.
pub fn node_text<'a>(node: &Node, src: &'a str) -> &'a str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// A node's named children (through a cursor: `named_child(i)` walks from the first child,
/// quadratic for a long list or pipeline).
pub fn named_children<'t>(node: &Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The kinds of all of a node's children, anonymous ones (`;`, `&`, `&&`) included.
pub fn child_kinds(node: &Node) -> Vec<&'static str> {
    let mut cursor = node.walk();
    node.children(&mut cursor).map(|c| c.kind()).collect()
}

/// Whether a dynamic node type occurs anywhere under `root` (itself included).
fn has_dynamic_part(root: Node) -> bool {
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if DYNAMIC_WORD_TYPES.contains(&node.kind()) {
            return true;
        }
        pending.extend(named_children(&node));
    }
    false
}

fn literal(value: String) -> WordValue {
    WordValue {
        dynamic: false,
        value,
    }
}

/// Unquoted text, dynamic when it holds a glob or brace pattern.
fn pattern_checked(text: &str) -> WordValue {
    WordValue {
        dynamic: has_unescaped_dynamic_pattern(text),
        value: decode_unquoted(text).value,
    }
}

/// `shellWordValue`.
pub fn word_value(node: Node, src: &str) -> WordValue {
    let kind = node.kind();
    let text = node_text(&node, src);
    if DYNAMIC_WORD_TYPES.contains(&kind) {
        return WordValue {
            dynamic: true,
            value: text.to_string(),
        };
    }
    let children = named_children(&node);
    if kind != "command_name"
        && kind != "concatenation"
        && children.iter().any(|c| has_dynamic_part(*c))
    {
        let value = if kind == "string" {
            decode_double_quoted(text).value
        } else {
            text.to_string()
        };
        return WordValue {
            dynamic: true,
            value,
        };
    }
    match kind {
        "command_name" if children.is_empty() => pattern_checked(text),
        "command_name" => {
            let mut value = String::new();
            for part in children {
                let part = word_value(part, src);
                value.push_str(&part.value);
                if part.dynamic {
                    return WordValue {
                        dynamic: true,
                        value,
                    };
                }
            }
            literal(value)
        }
        "word" => pattern_checked(text),
        "raw_string" => literal(strip_ends(text, 1, 1).to_string()),
        "string" => literal(decode_double_quoted(text).value),
        "ansi_c_string" => literal(decode_ansi_c(text).value),
        "concatenation" if has_unescaped_dynamic_pattern(text) => pattern_checked(text),
        "concatenation" => {
            let mut value = String::new();
            let mut dynamic = false;
            for child in children {
                let child = word_value(child, src);
                value.push_str(&child.value);
                dynamic |= child.dynamic;
            }
            WordValue { dynamic, value }
        }
        _ => WordValue {
            dynamic: children.iter().any(|c| word_value(*c, src).dynamic),
            value: decode_unquoted(text).value,
        },
    }
}

/// `text.slice(head, -tail)` (empty when too short).
fn strip_ends(text: &str, head: usize, tail: usize) -> &str {
    text.len()
        .checked_sub(tail)
        .and_then(|end| text.get(head..end))
        .unwrap_or("")
}

/// `decodedSourceOffsetsForNode`: how the value maps onto the node's text.
fn value_offsets(kind: &str, text: &str, value: &str) -> Vec<usize> {
    let decoded = match kind {
        "raw_string" => Decoded::identity(strip_ends(text, 1, 1), 1),
        "string" => decode_double_quoted(text),
        "ansi_c_string" => decode_ansi_c(text),
        _ => decode_unquoted(text),
    };
    if decoded.value == value && decoded.offsets.len() == value.len() + 1 {
        return decoded.offsets;
    }
    let prefix = match kind {
        "string" | "raw_string" => 1,
        "ansi_c_string" => 2,
        _ => 0,
    };
    (0..=value.len()).map(|i| prefix + i).collect()
}

/// Appends one argument node to the argv.
fn append_argument(node: Node, src: &str, base: &SpanBase, parsed: &mut ParsedArgv) {
    let value = word_value(node, src);
    let text = node_text(&node, src);
    parsed.arguments.push(Argument {
        text: text.to_string(),
        offsets: value_offsets(node.kind(), text, &value.value),
        value: value.value.clone(),
        span: base.span(node.start_byte(), node.end_byte()),
        dynamic: value.dynamic,
    });
    parsed.argv.push(value.value);
}

/// A backslash-newline anywhere in the text.
pub fn has_escaped_line_continuation(text: &str) -> bool {
    text.contains("\\\n") || text.contains("\\\r")
}

/// A backslash-newline ending the first word (the executable):
/// `/^[^\s]*\\(?:\r\n|[\r\n])/`.
fn has_executable_line_continuation(text: &str) -> bool {
    let first_space = text.find(char::is_whitespace).unwrap_or(text.len());
    text[..first_space].ends_with('\\')
        && matches!(text.as_bytes().get(first_space), Some(b'\n' | b'\r'))
}

/// `argvFromCommand`: None when the executable is dynamic or split by a line continuation.
pub fn argv_from_command(node: Node, name: Node, src: &str, base: &SpanBase) -> Option<ParsedArgv> {
    if has_escaped_line_continuation(node_text(&name, src))
        || has_executable_line_continuation(node_text(&node, src))
    {
        return None;
    }
    let executable = word_value(name, src);
    if executable.dynamic {
        return None;
    }
    let mut parsed = ParsedArgv {
        argv: vec![executable.value],
        arguments: Vec::new(),
    };
    let mut cursor = node.walk();
    let arguments: Vec<Node> = node
        .children_by_field_name("argument", &mut cursor)
        .collect();
    for child in arguments {
        if ARGUMENT_TYPES.contains(&child.kind()) {
            append_argument(child, src, base, &mut parsed);
        }
    }
    Some(parsed)
}

/// `argvFromDeclarationCommand`: `export`, `local`, ... with their words and assignments.
pub fn argv_from_declaration(node: Node, src: &str, base: &SpanBase) -> Option<ParsedArgv> {
    let executable = node_text(&node, src).split_whitespace().next()?;
    let mut parsed = ParsedArgv {
        argv: vec![executable.to_string()],
        arguments: Vec::new(),
    };
    for child in named_children(&node) {
        if ARGUMENT_TYPES.contains(&child.kind()) || child.kind() == "variable_assignment" {
            append_argument(child, src, base, &mut parsed);
        }
    }
    Some(parsed)
}

/// `argvFromTestCommand`: `[` or `[[` and the operators and words inside, in order.
pub fn argv_from_test(node: Node, src: &str, base: &SpanBase) -> Option<ParsedArgv> {
    let trimmed = node_text(&node, src).trim_start();
    let executable = if trimmed.starts_with("[[") {
        "[["
    } else if trimmed.starts_with('[') {
        "["
    } else {
        return None;
    };
    let mut parsed = ParsedArgv {
        argv: vec![executable.to_string()],
        arguments: Vec::new(),
    };
    for child in named_children(&node) {
        let mut pending = vec![child];
        while let Some(current) = pending.pop() {
            if current.kind() == "test_operator" || ARGUMENT_TYPES.contains(&current.kind()) {
                append_argument(current, src, base, &mut parsed);
                continue;
            }
            pending.extend(named_children(&current).into_iter().rev());
        }
    }
    Some(parsed)
}
