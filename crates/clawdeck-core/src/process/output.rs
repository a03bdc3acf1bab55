//! The output types callers see: streams, live chunks, retained lines.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use serde::Serialize;

/// Which pipe a piece of output came from (the one stdout/stderr kind, `crate::sanitize`).
pub use crate::sanitize::StdStream;

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

/// Output of one pipe as it arrived, exactly the bytes the child wrote (never cut inside a
/// UTF-8 character a later read completes): what arrived up to the end of a line, plus any
/// partial line after it. A partial line (a prompt, a `\r` progress update) waits at most 50 ms
/// for its newline and then goes out as it is; its rest follows in a later chunk of the stream,
/// marked [`Self::continues_line`]. Joined in order, a stream's chunks give its bytes; nothing
/// is added (no newline at the end of a partial line). Serialised with its text ([`Self::text`]).
#[derive(Debug, Clone, PartialEq)]
pub struct OutputChunk {
    pub stream: StdStream,
    /// Arrival of the chunk's first byte.
    pub at: SystemTime,
    /// Time from spawn to `at`.
    pub elapsed: Duration,
    pub bytes: Bytes,
    /// The bytes continue a line that the stream's previous output left open (it did not end
    /// with `\n`); false when they start a new line.
    pub continues_line: bool,
}

impl OutputChunk {
    /// The bytes as text (lossy UTF-8: an invalid sequence shows as U+FFFD).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// The bytes end with a newline (false: the line goes on in a later chunk, or the stream
    /// ended without one).
    pub fn ends_line(&self) -> bool {
        self.bytes.last() == Some(&b'\n')
    }
}

impl Serialize for OutputChunk {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("OutputChunk", 5)?;
        out.serialize_field("stream", &self.stream)?;
        out.serialize_field("at", &self.at)?;
        out.serialize_field("elapsed", &self.elapsed)?;
        out.serialize_field("text", &self.text())?;
        out.serialize_field("continues_line", &self.continues_line)?;
        out.end()
    }
}

/// One retained line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputLine {
    /// 0-based number among all lines of both streams (dropped ones included).
    pub number: u64,
    pub stream: StdStream,
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
    pub(crate) fn stream_text(&self, stream: StdStream) -> String {
        join_lines(self.lines.iter().filter(|line| line.stream == stream))
    }

    pub fn stdout_text(&self) -> String {
        self.stream_text(StdStream::Stdout)
    }

    pub fn stderr_text(&self) -> String {
        self.stream_text(StdStream::Stderr)
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
