//! The operators between consecutive commands (`&&`, `||`, `|`, `|&`, `;`, newline, `&`), read
//! from the text between them as OpenClaw's `resolveOperators` does.

use super::steps::{Step, StepContext};

/// What joins two commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperatorKind {
    /// `&&`
    And,
    /// `||`
    Or,
    /// `|&`
    StderrPipe,
    /// `|`
    Pipe,
    /// `;`
    Sequence,
    /// `&`
    Background,
    /// a line break
    NewlineSequence,
}

/// An operator from one step to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    /// What it is.
    pub kind: OperatorKind,
    /// The step before it.
    pub from: usize,
    /// The step after it.
    pub to: usize,
    /// The shell wrapper whose payload holds both.
    pub parent: Option<usize>,
}

/// A parsed shell-wrapper payload, whose own text separates its commands.
#[derive(Debug, Clone)]
pub struct OperatorSource {
    /// The wrapper step.
    pub parent: usize,
    /// The payload text.
    pub source: String,
}

/// `topologyOperatorFromSeparator`: the operator that starts earliest in the text between two
/// commands (the longer spelling wins a tie, by list order).
fn operator_in(separator: &str) -> Option<OperatorKind> {
    const CANDIDATES: &[(&str, OperatorKind)] = &[
        ("&&", OperatorKind::And),
        ("||", OperatorKind::Or),
        ("|&", OperatorKind::StderrPipe),
        ("|", OperatorKind::Pipe),
        (";", OperatorKind::Sequence),
        ("&", OperatorKind::Background),
        ("\r\n", OperatorKind::NewlineSequence),
        ("\n", OperatorKind::NewlineSequence),
        ("\r", OperatorKind::NewlineSequence),
    ];
    let mut best: Option<(usize, OperatorKind)> = None;
    for (text, kind) in CANDIDATES {
        if let Some(offset) = separator.find(text)
            && best.is_none_or(|(b, _)| offset < b)
        {
            best = Some((offset, *kind));
        }
    }
    best.map(|(_, kind)| kind)
}

/// Where each step's text is in `source`, searched in order (None when one is missing).
fn ranges_in(source: &str, steps: &[&Step]) -> Option<Vec<(usize, usize)>> {
    let mut cursor = 0;
    let mut ranges = Vec::with_capacity(steps.len());
    for step in steps {
        let start = cursor + source.get(cursor..)?.find(&step.text)?;
        cursor = start + step.text.len();
        ranges.push((start, cursor));
    }
    Some(ranges)
}

/// Steps grouped by (context, wrapper), in order of first appearance, each sorted by position.
fn buckets(steps: &[Step]) -> Vec<Vec<&Step>> {
    let mut keys: Vec<(StepContext, Option<usize>)> = Vec::new();
    let mut buckets: Vec<Vec<&Step>> = Vec::new();
    for step in steps {
        let key = (step.context, step.parent);
        match keys.iter().position(|k| *k == key) {
            Some(at) => buckets[at].push(step),
            None => {
                keys.push(key);
                buckets.push(vec![step]);
            }
        }
    }
    for bucket in &mut buckets {
        bucket.sort_by_key(|s| s.span.start);
    }
    buckets
}

/// `resolveOperators`.
pub fn resolve_operators(
    source: &str,
    steps: &[Step],
    sources: &[OperatorSource],
) -> Vec<Operator> {
    let mut operators = Vec::new();
    for bucket in buckets(steps) {
        let Some(head) = bucket.first() else {
            continue;
        };
        let payload = match (head.context, head.parent) {
            (StepContext::WrapperPayload, Some(parent)) => sources
                .iter()
                .find(|s| s.parent == parent)
                .map(|s| s.source.as_str()),
            _ => None,
        };
        let ranges = payload.and_then(|p| ranges_in(p, &bucket));
        for (index, pair) in bucket.windows(2).enumerate() {
            let (from, to) = (pair[0], pair[1]);
            let separator = match (payload, &ranges) {
                (Some(text), Some(ranges)) => text.get(ranges[index].1..ranges[index + 1].0),
                _ => source.get(from.span.end..to.span.start),
            };
            let Some(kind) = separator.and_then(operator_in) else {
                continue;
            };
            operators.push(Operator {
                kind,
                from: from.id,
                to: to.id,
                parent: from.parent,
            });
        }
    }
    operators
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_operator_wins() {
        assert_eq!(operator_in(" && "), Some(OperatorKind::And));
        assert_eq!(operator_in(" || "), Some(OperatorKind::Or));
        assert_eq!(operator_in(" |& "), Some(OperatorKind::StderrPipe));
        assert_eq!(operator_in(" | "), Some(OperatorKind::Pipe));
        assert_eq!(operator_in("\n"), Some(OperatorKind::NewlineSequence));
        assert_eq!(operator_in(" "), None);
    }
}
