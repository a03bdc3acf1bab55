//! The commands the explainer finds in a command line, and where each one is.

use std::rc::Rc;

/// A byte range of the outermost command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// Whether `other` lies within this span.
    pub fn contains(&self, other: &Span) -> bool {
        other.start >= self.start && other.end <= self.end
    }
}

/// How offsets in a parsed payload map to the outermost command line.
#[derive(Debug, Clone, Default)]
pub enum SpanBase {
    /// The command line itself.
    #[default]
    Root,
    /// A shell wrapper's payload, decoded from one argument.
    Payload(Rc<PayloadBase>),
}

/// Where a payload sits in the argument it was decoded from.
#[derive(Debug)]
pub struct PayloadBase {
    pub(super) argument_start: usize,
    pub(super) argument_offsets: Vec<usize>,
    pub(super) payload_offset: usize,
    pub(super) raw_payload_offset: usize,
}

impl SpanBase {
    fn map(&self, offset: usize) -> usize {
        match self {
            SpanBase::Root => offset,
            SpanBase::Payload(base) => {
                let raw = base
                    .argument_offsets
                    .get(base.payload_offset + offset)
                    .copied()
                    .unwrap_or(base.raw_payload_offset + offset);
                base.argument_start + raw
            }
        }
    }

    /// A payload range as a range of the outermost command line.
    pub fn span(&self, start: usize, end: usize) -> Span {
        Span {
            start: self.map(start),
            end: self.map(end),
        }
    }
}

/// The construct a command was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepContext {
    /// The command line itself.
    TopLevel,
    /// Inside a shell wrapper's payload.
    WrapperPayload,
    /// Inside a function body.
    FunctionDefinition,
    /// Inside `$(...)` or backticks.
    CommandSubstitution,
    /// Inside `<(...)` or `>(...)`.
    ProcessSubstitution,
}

/// One command found in the command line.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its number, in walk order.
    pub id: usize,
    /// Where it was found.
    pub context: StepContext,
    /// Its argv, quotes decoded.
    pub argv: Vec<String>,
    /// Its text as written.
    pub text: String,
    /// Where it is.
    pub span: Span,
    /// Where its executable is.
    pub exec_span: Span,
    /// The shell wrapper whose payload holds it.
    pub parent: Option<usize>,
}
