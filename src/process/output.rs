//! The output types callers see: streams, live chunks, retained lines.

use std::time::{Duration, SystemTime};

use serde::Serialize;

/// Which pipe a piece of output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StreamKind {
    Stdout,
    Stderr,
}

impl StreamKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StreamKind::Stdout => "stdout",
            StreamKind::Stderr => "stderr",
        }
    }
}

/// How a retained line ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineEnd {
    /// A normal line ending in `\n` (the newline itself is not part of the text).
    Newline,
    /// The line hit `max_line_bytes`; its text continues in the next line of the same stream.
    Continued,
    /// The stream ended without a final newline (a partial last line, flushed).
    Eof,
}

/// Output that arrived from one read of one pipe: zero or more complete lines (each with its
/// `\n`, except a piece cut at the line cap or a final partial line). Stamped on arrival.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputChunk {
    pub stream: StreamKind,
    pub at: SystemTime,
    /// Time since spawn.
    pub elapsed: Duration,
    pub text: String,
}

/// One retained line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputLine {
    /// 0-based number among all lines of both streams (dropped ones included).
    pub number: u64,
    pub stream: StreamKind,
    pub at: SystemTime,
    pub text: String,
    pub end: LineEnd,
}

/// An owned copy of the retained output with the counts of what was dropped.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RetainedOutput {
    pub lines: Vec<OutputLine>,
    /// Lines (and their bytes) that fell out of the bounds.
    pub dropped_lines: u64,
    pub dropped_bytes: u64,
    /// Bytes read from each pipe in total (before lossy conversion).
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    /// Lines produced in total, per stream (pieces of capped lines count separately).
    pub stdout_lines: u64,
    pub stderr_lines: u64,
}

impl RetainedOutput {
    /// True when some output is no longer retained.
    pub fn truncated(&self) -> bool {
        self.dropped_lines > 0
    }

    /// The interleaved text of both streams in arrival order, as a terminal would have shown
    /// it (line granularity).
    pub fn combined_text(&self) -> String {
        join_lines(self.lines.iter())
    }

    /// The retained text of one stream.
    pub fn stream_text(&self, stream: StreamKind) -> String {
        join_lines(self.lines.iter().filter(|line| line.stream == stream))
    }

    pub fn stdout_text(&self) -> String {
        self.stream_text(StreamKind::Stdout)
    }

    pub fn stderr_text(&self) -> String {
        self.stream_text(StreamKind::Stderr)
    }
}

fn join_lines<'a>(lines: impl Iterator<Item = &'a OutputLine>) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.text);
        if line.end == LineEnd::Newline {
            out.push('\n');
        }
    }
    out
}
