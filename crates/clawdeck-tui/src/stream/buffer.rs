//! A bounded buffer of sanitized lines for one run's output, with stdout and stderr kept apart
//! (each has its own sanitizer, so partial lines never mix) and clawdeck's own notes
//! (kill, timeout, exit) interleaved in arrival order.
//!
//! Lines are addressed by an absolute sequence number so that a scrolled-up view keeps its place
//! while old lines fall off the front.

use std::collections::VecDeque;

use crate::sanitize::{CleanLine, Sanitizer, plain_text};

/// Which stream a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum StreamKind {
    Stdout,
    Stderr,
    /// A note clawdeck adds (kill sent, timeout, exit status).
    Note,
}

impl From<crate::sanitize::StdStream> for StreamKind {
    fn from(stream: crate::sanitize::StdStream) -> StreamKind {
        match stream {
            crate::sanitize::StdStream::Stdout => StreamKind::Stdout,
            crate::sanitize::StdStream::Stderr => StreamKind::Stderr,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StreamLine {
    pub(crate) kind: StreamKind,
    pub(crate) text: Box<str>,
    /// Holds SGR sequences (drawn through the ANSI parser); plain lines are drawn as they are.
    pub(crate) styled: bool,
}

impl StreamLine {
    pub(crate) fn plain(&self) -> std::borrow::Cow<'_, str> {
        plain_text(&self.text)
    }
}

/// Default number of lines retained per run.
pub(crate) const DEFAULT_MAX_LINES: usize = 100_000;

#[derive(Debug, Clone)]
pub(crate) struct StreamBuffer {
    lines: VecDeque<StreamLine>,
    max_lines: usize,
    /// Lines dropped from the front; also the sequence number of the first retained line.
    dropped: u64,
    /// Lines of child output (stdout and stderr, notes not counted) ever pushed.
    output_lines: u64,
    stdout: Sanitizer,
    stderr: Sanitizer,
    scratch: Vec<CleanLine>,
}

impl Default for StreamBuffer {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINES)
    }
}

impl StreamBuffer {
    pub fn new(max_lines: usize) -> Self {
        StreamBuffer {
            lines: VecDeque::new(),
            max_lines: max_lines.max(1),
            dropped: 0,
            output_lines: 0,
            stdout: Sanitizer::new(),
            stderr: Sanitizer::new(),
            scratch: Vec::new(),
        }
    }

    /// Appends a chunk of raw child output.
    pub(crate) fn push_chunk(&mut self, kind: StreamKind, bytes: &[u8]) {
        let mut scratch = std::mem::take(&mut self.scratch);
        match kind {
            StreamKind::Stdout => self.stdout.feed_bytes(bytes, &mut scratch),
            StreamKind::Stderr => self.stderr.feed_bytes(bytes, &mut scratch),
            StreamKind::Note => {
                let mut s = Sanitizer::new();
                s.feed_bytes(bytes, &mut scratch);
                s.finish(&mut scratch);
            }
        }
        for line in scratch.drain(..) {
            self.push_line(kind, line);
        }
        self.scratch = scratch;
    }

    /// Adds a note from clawdeck itself; any partial child lines are flushed first so the note
    /// lands after what was already shown.
    pub(crate) fn push_note(&mut self, text: &str) {
        self.flush_partials();
        self.push_chunk(StreamKind::Note, text.as_bytes());
    }

    /// Ends both streams: their partial last lines become lines.
    pub(crate) fn flush_partials(&mut self) {
        let mut scratch = std::mem::take(&mut self.scratch);
        self.stdout.finish(&mut scratch);
        let out: Vec<CleanLine> = std::mem::take(&mut scratch);
        for line in out {
            self.push_line(StreamKind::Stdout, line);
        }
        self.stderr.finish(&mut scratch);
        let err: Vec<CleanLine> = std::mem::take(&mut scratch);
        for line in err {
            self.push_line(StreamKind::Stderr, line);
        }
        self.scratch = scratch;
    }

    #[cfg(any(test, feature = "bench"))]
    /// Pushes an already-clean line (benchmarks and tests fill big buffers this way).
    pub(crate) fn push_clean(&mut self, kind: StreamKind, text: &str) {
        self.push_line(
            kind,
            CleanLine {
                text: text.to_string(),
                styled: text.contains('\u{1b}'),
            },
        );
    }

    fn push_line(&mut self, kind: StreamKind, line: CleanLine) {
        if kind != StreamKind::Note {
            self.output_lines += 1;
        }
        if self.lines.len() >= self.max_lines {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(StreamLine {
            kind,
            text: line.text.into_boxed_str(),
            styled: line.styled,
        });
    }

    #[cfg(any(test, feature = "bench"))]
    /// Retained complete lines.
    pub(crate) fn retained(&self) -> usize {
        self.lines.len()
    }

    /// Complete lines of child output received, kept or not (notes are not output).
    pub(crate) fn output_lines(&self) -> u64 {
        self.output_lines
    }

    /// Lines dropped from the front because of the bound.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Sequence number of the first retained line.
    pub(crate) fn first_seq(&self) -> u64 {
        self.dropped
    }

    /// Sequence number one past the last displayable line (complete lines plus live partials).
    pub(crate) fn end_seq(&self) -> u64 {
        self.dropped + self.display_len() as u64
    }

    /// Complete lines plus the partial (still-growing) lines of each stream.
    pub(crate) fn display_len(&self) -> usize {
        self.lines.len() + self.partials().count()
    }

    fn partials(&self) -> impl Iterator<Item = StreamLine> + '_ {
        [
            (StreamKind::Stdout, &self.stdout),
            (StreamKind::Stderr, &self.stderr),
        ]
        .into_iter()
        .filter_map(|(kind, s)| {
            s.partial().map(|l| StreamLine {
                kind,
                text: l.text.into_boxed_str(),
                styled: l.styled,
            })
        })
    }

    /// The displayable lines from `start_seq`, at most `count` of them (only this slice is
    /// ever materialised for drawing).
    pub(crate) fn slice(
        &self,
        start_seq: u64,
        count: usize,
    ) -> Vec<std::borrow::Cow<'_, StreamLine>> {
        let start = start_seq.saturating_sub(self.dropped) as usize;
        let mut out: Vec<std::borrow::Cow<'_, StreamLine>> = self
            .lines
            .iter()
            .skip(start)
            .take(count)
            .map(std::borrow::Cow::Borrowed)
            .collect();
        if out.len() < count {
            let skip_partials = start.saturating_sub(self.lines.len());
            for p in self.partials().skip(skip_partials) {
                if out.len() >= count {
                    break;
                }
                out.push(std::borrow::Cow::Owned(p));
            }
        }
        out
    }

    /// Control sequences neutralised so far (shown in the status of the stream pane).
    pub(crate) fn neutralised(&self) -> u64 {
        self.stdout.neutralised + self.stderr.neutralised
    }

    /// Next line at or after (`forward`) / before `from` whose visible text contains `needle`
    /// (case-insensitive), wrapping around.
    pub(crate) fn search(&self, needle: &str, from: u64, forward: bool) -> Option<u64> {
        if needle.is_empty() || self.lines.is_empty() {
            return None;
        }
        let needle = needle.to_lowercase();
        let n = self.lines.len();
        let from_idx = (from.saturating_sub(self.dropped) as usize).min(n - 1);
        let hit = |i: usize| self.lines[i].plain().to_lowercase().contains(&needle);
        for step in 0..n {
            let i = if forward {
                (from_idx + step) % n
            } else {
                (from_idx + n - step) % n
            };
            if hit(i) {
                return Some(self.dropped + i as u64);
            }
        }
        None
    }

    /// Where a hit stands among the matches: (its 1-based rank, how many lines match).
    pub(crate) fn match_rank(&self, needle: &str, hit: u64) -> (usize, usize) {
        if needle.is_empty() {
            return (0, 0);
        }
        let needle = needle.to_lowercase();
        let mut rank = 0;
        let mut total = 0;
        for (i, line) in self.lines.iter().enumerate() {
            if line.plain().to_lowercase().contains(&needle) {
                total += 1;
                if self.dropped + i as u64 <= hit {
                    rank = total;
                }
            }
        }
        (rank, total)
    }

    /// The whole retained output as plain text (stderr lines prefixed so they stay apart).
    pub(crate) fn plain_text(&self) -> String {
        let mut out = String::new();
        for line in self.lines.iter().cloned().chain(self.partials()) {
            match line.kind {
                StreamKind::Stdout => {}
                StreamKind::Stderr => out.push_str("[stderr] "),
                StreamKind::Note => out.push_str("[clawdeck] "),
            }
            out.push_str(&line.plain());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(buf: &StreamBuffer) -> Vec<(StreamKind, String)> {
        buf.slice(buf.first_seq(), usize::MAX)
            .iter()
            .map(|l| (l.kind, l.text.to_string()))
            .collect()
    }

    #[test]
    fn streams_are_kept_apart_and_partials_shown() {
        let mut b = StreamBuffer::new(10);
        b.push_chunk(StreamKind::Stdout, b"out1\nout");
        b.push_chunk(StreamKind::Stderr, b"err1\n");
        b.push_chunk(StreamKind::Stdout, b"2\n");
        assert_eq!(
            texts(&b),
            vec![
                (StreamKind::Stdout, "out1".into()),
                (StreamKind::Stderr, "err1".into()),
                (StreamKind::Stdout, "out2".into())
            ]
        );
        b.push_chunk(StreamKind::Stdout, b"progress 10%\rprogress 90%");
        assert_eq!(
            texts(&b).last(),
            Some(&(StreamKind::Stdout, "progress 90%".to_string()))
        );
        assert_eq!(b.display_len(), 4);
        b.push_note("killed");
        assert_eq!(
            texts(&b)[3..],
            [
                (StreamKind::Stdout, "progress 90%".into()),
                (StreamKind::Note, "killed".into())
            ]
        );
    }

    #[test]
    fn pieces_of_one_line_render_as_one_line() {
        // A line delivered live in pieces (the supervisor sends partial lines as they arrive).
        let mut b = StreamBuffer::new(10);
        for piece in [&b"Passw"[..], b"ord: ", b"\xc3", b"\xa9t\xc3\xa9"] {
            b.push_chunk(StreamKind::Stdout, piece);
            assert_eq!(b.display_len(), 1, "still one (partial) line");
            assert_eq!(b.retained(), 0);
        }
        assert_eq!(
            texts(&b),
            vec![(StreamKind::Stdout, "Password: \u{e9}t\u{e9}".into())]
        );
        b.push_chunk(StreamKind::Stdout, b" ok\r");
        b.push_chunk(StreamKind::Stdout, b"\nnext\n");
        assert_eq!(
            texts(&b),
            vec![
                (StreamKind::Stdout, "Password: \u{e9}t\u{e9} ok".into()),
                (StreamKind::Stdout, "next".into())
            ],
            "a CR LF split between pieces ends the line without clearing it"
        );
    }

    #[test]
    fn carriage_returns_within_pieces_keep_the_last_segment() {
        let mut b = StreamBuffer::new(10);
        b.push_chunk(StreamKind::Stdout, b"progress 1");
        b.push_chunk(StreamKind::Stdout, b"0%\r");
        assert_eq!(texts(&b), vec![(StreamKind::Stdout, "progress 10%".into())]);
        b.push_chunk(StreamKind::Stdout, b"progress 5");
        b.push_chunk(StreamKind::Stdout, b"0%");
        // A stderr line in between does not disturb the stdout line being redrawn.
        b.push_chunk(StreamKind::Stderr, b"warn\n");
        b.push_chunk(StreamKind::Stdout, b"\rprogress 90%");
        assert_eq!(
            texts(&b),
            vec![
                (StreamKind::Stderr, "warn".into()),
                (StreamKind::Stdout, "progress 90%".into())
            ]
        );
        b.push_chunk(StreamKind::Stdout, b"\rdone\n");
        assert_eq!(b.retained(), 2);
        assert_eq!(b.display_len(), 2);
        assert_eq!(b.plain_text(), "[stderr] warn\ndone\n");
    }

    #[test]
    fn bound_drops_oldest_and_keeps_sequence_numbers() {
        let mut b = StreamBuffer::new(3);
        for i in 0..5 {
            b.push_clean(StreamKind::Stdout, &format!("l{i}"));
        }
        assert_eq!(b.dropped(), 2);
        assert_eq!(b.first_seq(), 2);
        assert_eq!(b.slice(3, 1)[0].text.as_ref(), "l3");
        assert_eq!(b.slice(0, 10).len(), 3);
    }

    #[test]
    fn search_wraps_and_ignores_sgr() {
        let mut b = StreamBuffer::new(10);
        b.push_chunk(
            StreamKind::Stdout,
            b"alpha\n\x1b[31mBe\x1b[0mta\ngamma\nbeta two\n",
        );
        assert_eq!(b.search("beta", 0, true), Some(1));
        assert_eq!(b.search("beta", 2, true), Some(3));
        assert_eq!(b.search("beta", 0, false), Some(3));
        assert_eq!(b.search("zeta", 0, true), None);
    }

    #[test]
    fn plain_text_marks_streams() {
        let mut b = StreamBuffer::new(10);
        b.push_chunk(StreamKind::Stdout, b"\x1b[1mhi\x1b[0m\n");
        b.push_chunk(StreamKind::Stderr, b"oops\n");
        assert_eq!(b.plain_text(), "hi\n[stderr] oops\n");
    }
}
