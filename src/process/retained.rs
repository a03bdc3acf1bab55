//! The bounded store of retained output, shared by both streams (arrival order).
//!
//! Text sits back to back in one byte buffer; a block record per stored segment (many lines of
//! one read, or a single line) says which stream it came from, when, and how many lines it
//! holds. Lines are only split out when someone asks for them, so a flooding child costs one
//! copy per byte and a record per read, and the buffer never holds more than the limits (plus
//! at most one read) whatever the output size.

use std::collections::VecDeque;
use std::time::SystemTime;

use super::lines::LineBatch;
use super::output::{LineEnd, OutputLine, RetainedOutput, StreamKind};
use super::spec::OutputLimits;

#[derive(Debug, Clone, Copy)]
struct Block {
    stream: StreamKind,
    at: SystemTime,
    /// Absolute offset of the block's text.
    start: u64,
    len: usize,
    lines: u32,
    last_end: LineEnd,
}

impl Block {
    fn newlines(&self) -> u64 {
        u64::from(self.lines) - u64::from(self.last_end != LineEnd::Newline)
    }
}

#[derive(Debug)]
pub(crate) struct OutputBuffer {
    limits: OutputLimits,
    /// `text[head..]` is the text of `blocks`, in order; bytes before `head` await compaction.
    text: Vec<u8>,
    head: usize,
    /// Absolute offset of `text[0]`.
    base: u64,
    blocks: VecDeque<Block>,
    retained_lines: u64,
    /// Number of the first retained line.
    first_number: u64,
    dropped_lines: u64,
    dropped_bytes: u64,
    stream_bytes: [u64; 2],
    stream_lines: [u64; 2],
}

fn stream_index(stream: StreamKind) -> usize {
    match stream {
        StreamKind::Stdout => 0,
        StreamKind::Stderr => 1,
    }
}

/// Compact only when at least this much is garbage and at least `COMPACT_RATIO` times as much
/// as is live: a flood then moves a third of its bytes a second time, and the buffer holds at
/// most about four times the retained text.
const COMPACT_MIN: usize = 64 * 1024;
const COMPACT_RATIO: usize = 3;
/// Newlines are counted in windows this large when looking for the n-th one.
const COUNT_WINDOW: usize = 4096;

impl OutputBuffer {
    pub(crate) fn new(limits: OutputLimits) -> Self {
        OutputBuffer {
            limits,
            text: Vec::new(),
            head: 0,
            base: 0,
            blocks: VecDeque::new(),
            retained_lines: 0,
            first_number: 0,
            dropped_lines: 0,
            dropped_bytes: 0,
            stream_bytes: [0; 2],
            stream_lines: [0; 2],
        }
    }

    pub(crate) fn count_read(&mut self, stream: StreamKind, bytes: usize) {
        self.stream_bytes[stream_index(stream)] += bytes as u64;
    }

    pub(crate) fn append(
        &mut self,
        stream: StreamKind,
        at: SystemTime,
        batch: &LineBatch,
        input: &[u8],
    ) {
        for segment in &batch.segments {
            let bytes = batch.segment_bytes(segment, input);
            let start = self.base + self.text.len() as u64;
            self.text.extend_from_slice(bytes);
            self.blocks.push_back(Block {
                stream,
                at,
                start,
                len: bytes.len(),
                lines: segment.lines,
                last_end: segment.last_end,
            });
            self.retained_lines += u64::from(segment.lines);
            self.stream_lines[stream_index(stream)] += u64::from(segment.lines);
        }
        self.evict();
    }

    fn retained_bytes(&self) -> usize {
        self.text.len() - self.head
    }

    fn block_text(&self, block: &Block) -> &[u8] {
        let from = (block.start - self.base) as usize;
        &self.text[from..from + block.len]
    }

    /// Drop whole lines from the front until both bounds hold.
    fn evict(&mut self) {
        let max_lines = self.limits.max_retained_lines as u64;
        let max_bytes = self.limits.max_retained_bytes;
        loop {
            let excess_lines = self.retained_lines.saturating_sub(max_lines);
            let excess_bytes = self.retained_bytes().saturating_sub(max_bytes);
            if excess_lines == 0 && excess_bytes == 0 {
                break;
            }
            let Some(front) = self.blocks.front().copied() else {
                break;
            };
            let cut = if u64::from(front.lines) <= excess_lines || front.len <= excess_bytes {
                None
            } else {
                let text = self.block_text(&front);
                let by_lines = if excess_lines > 0 {
                    after_nth_newline(text, excess_lines)
                } else {
                    Some(0)
                };
                let by_bytes = if excess_bytes > 0 {
                    memchr::memchr(b'\n', &text[excess_bytes - 1..])
                        .map(|offset| excess_bytes + offset)
                } else {
                    Some(0)
                };
                match (by_lines, by_bytes) {
                    (Some(lines), Some(bytes)) if lines.max(bytes) < front.len => {
                        Some(lines.max(bytes))
                    }
                    _ => None,
                }
            };
            match cut {
                None => {
                    self.blocks.pop_front();
                    self.drop_front(front.len, u64::from(front.lines), front.newlines());
                }
                Some(cut) => {
                    let lines =
                        memchr::memchr_iter(b'\n', &self.block_text(&front)[..cut]).count() as u64;
                    if let Some(block) = self.blocks.front_mut() {
                        block.start += cut as u64;
                        block.len -= cut;
                        block.lines -= lines as u32;
                    }
                    self.drop_front(cut, lines, lines);
                }
            }
        }
        if self.head >= COMPACT_MIN && self.head >= COMPACT_RATIO * self.retained_bytes() {
            self.text.drain(..self.head);
            self.base += self.head as u64;
            self.head = 0;
        }
    }

    fn drop_front(&mut self, bytes: usize, lines: u64, newlines: u64) {
        self.head += bytes;
        self.retained_lines -= lines;
        self.first_number += lines;
        self.dropped_lines += lines;
        self.dropped_bytes += bytes as u64 - newlines;
    }

    /// Retained lines numbered `from` and later (all of them when `from` is older than what is
    /// retained), with the totals.
    pub(crate) fn snapshot_from(&self, from: u64) -> RetainedOutput {
        let mut lines = Vec::new();
        let mut number = self.first_number;
        for block in &self.blocks {
            let count = u64::from(block.lines);
            if number + count <= from {
                number += count;
                continue;
            }
            let mut rest = self.block_text(block);
            for index in 0..count {
                let last = index + 1 == count;
                let (line, end) = if last && block.last_end != LineEnd::Newline {
                    (rest, block.last_end)
                } else {
                    let newline = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                    (&rest[..newline], LineEnd::Newline)
                };
                if number >= from {
                    lines.push(OutputLine {
                        number,
                        stream: block.stream,
                        at: block.at,
                        text: String::from_utf8_lossy(line).into_owned(),
                        end,
                    });
                }
                rest = rest.get(line.len() + 1..).unwrap_or_default();
                number += 1;
            }
        }
        RetainedOutput {
            lines,
            dropped_lines: self.dropped_lines,
            dropped_bytes: self.dropped_bytes,
            stdout_bytes: self.stream_bytes[0],
            stderr_bytes: self.stream_bytes[1],
            stdout_lines: self.stream_lines[0],
            stderr_lines: self.stream_lines[1],
        }
    }

    /// Number the next line will get.
    pub(crate) fn next_line_number(&self) -> u64 {
        self.first_number + self.retained_lines
    }

    #[cfg(test)]
    fn stored_bytes(&self) -> usize {
        self.text.len()
    }
}

/// The offset just past the `n`-th newline (n >= 1), counting whole windows with the
/// vectorised counter and only walking newlines one by one in the last window.
fn after_nth_newline(text: &[u8], n: u64) -> Option<usize> {
    let mut seen = 0u64;
    let mut offset = 0;
    while offset < text.len() {
        let window = &text[offset..(offset + COUNT_WINDOW).min(text.len())];
        let count = memchr::memchr_iter(b'\n', window).count() as u64;
        if seen + count >= n {
            let index = (n - seen - 1) as usize;
            return memchr::memchr_iter(b'\n', window)
                .nth(index)
                .map(|position| offset + position + 1);
        }
        seen += count;
        offset += window.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn batch(lines: &[(&str, LineEnd)]) -> LineBatch {
        let mut batch = LineBatch::default();
        for (line, end) in lines {
            batch.push_line(line.as_bytes(), *end);
        }
        batch
    }

    fn newline_batch(lines: &[&str]) -> LineBatch {
        batch(
            &lines
                .iter()
                .map(|line| (*line, LineEnd::Newline))
                .collect::<Vec<_>>(),
        )
    }

    fn limits(lines: usize, bytes: usize) -> OutputLimits {
        OutputLimits {
            max_line_bytes: 10,
            max_retained_lines: lines,
            max_retained_bytes: bytes,
        }
    }

    fn texts(output: &RetainedOutput) -> Vec<&str> {
        output.lines.iter().map(|line| line.text.as_str()).collect()
    }

    #[test]
    fn keeps_the_last_lines_within_both_bounds() {
        // Bytes count newlines too: "cc\ndd\nee\n" is 9 bytes.
        let mut buffer = OutputBuffer::new(limits(3, 9));
        buffer.append(
            StreamKind::Stdout,
            SystemTime::now(),
            &newline_batch(&["aaa", "bbb"]),
            &[],
        );
        buffer.append(
            StreamKind::Stderr,
            SystemTime::now(),
            &newline_batch(&["cc", "dd", "ee"]),
            &[],
        );
        let snap = buffer.snapshot_from(0);
        assert_eq!(texts(&snap), vec!["cc", "dd", "ee"]);
        assert_eq!(snap.lines[0].number, 2);
        assert_eq!((snap.dropped_lines, snap.dropped_bytes), (2, 6));
        buffer.append(
            StreamKind::Stdout,
            SystemTime::now(),
            &newline_batch(&["12345", "6"]),
            &[],
        );
        let snap = buffer.snapshot_from(0);
        assert_eq!(texts(&snap), vec!["12345", "6"]);
        assert_eq!(snap.lines[0].number, 5);
        assert_eq!(buffer.next_line_number(), 7);
        assert_eq!(snap.combined_text(), "12345\n6\n");
        assert_eq!(snap.stdout_lines, 4);
        assert_eq!(snap.stderr_lines, 3);
    }

    #[test]
    fn one_segment_of_many_lines_is_cut_at_line_boundaries() {
        let input = b"l0\nl1\nl2\nl3\nl4\n";
        let mut lines_batch = LineBatch::default();
        lines_batch.segments.push(super::super::lines::Segment {
            in_input: true,
            start: 0,
            len: input.len(),
            lines: 5,
            last_end: LineEnd::Newline,
        });
        let mut buffer = OutputBuffer::new(limits(2, 100));
        buffer.append(StreamKind::Stdout, SystemTime::now(), &lines_batch, input);
        let snap = buffer.snapshot_from(0);
        assert_eq!(snap.combined_text(), "l3\nl4\n");
        assert_eq!(snap.lines[1].number, 4);
        assert_eq!((snap.dropped_lines, snap.dropped_bytes), (3, 6));
        assert_eq!(buffer.snapshot_from(4).lines.len(), 1);
        assert_eq!(buffer.snapshot_from(9).lines.len(), 0);
    }

    #[test]
    fn memory_stays_bounded_over_many_appends() {
        let mut buffer = OutputBuffer::new(limits(1000, 10_000));
        let line = "x".repeat(99);
        let lines: Vec<&str> = (0..500).map(|_| line.as_str()).collect();
        let big = newline_batch(&lines);
        for _ in 0..200 {
            buffer.append(StreamKind::Stdout, SystemTime::now(), &big, &[]);
            assert!(
                buffer.stored_bytes() <= (COMPACT_RATIO + 1) * 10_000 + COMPACT_MIN + 50_000,
                "{}",
                buffer.stored_bytes()
            );
        }
        let snap = buffer.snapshot_from(0);
        assert_eq!(snap.lines.len(), 100);
        assert_eq!(snap.dropped_lines + 100, 100_000);
    }

    #[test]
    fn finds_the_nth_newline_across_windows() {
        let text: Vec<u8> = b"ab\n".iter().copied().cycle().take(3 * 5000).collect();
        assert_eq!(after_nth_newline(&text, 1), Some(3));
        assert_eq!(after_nth_newline(&text, 2000), Some(6000));
        assert_eq!(after_nth_newline(&text, 5000), Some(15000));
        assert_eq!(after_nth_newline(&text, 5001), None);
    }

    /// The simple model: a list of lines, oldest dropped first.
    #[derive(Default)]
    struct Model {
        lines: VecDeque<(StreamKind, String, LineEnd)>,
        first: u64,
        dropped_bytes: u64,
    }

    impl Model {
        fn append(
            &mut self,
            stream: StreamKind,
            lines: &[(String, LineEnd)],
            max_lines: usize,
            max_bytes: usize,
        ) {
            for (text, end) in lines {
                self.lines.push_back((stream, text.clone(), *end));
            }
            let bytes = |lines: &VecDeque<(StreamKind, String, LineEnd)>| {
                lines
                    .iter()
                    .map(|(_, text, end)| text.len() + usize::from(*end == LineEnd::Newline))
                    .sum::<usize>()
            };
            while self.lines.len() > max_lines || bytes(&self.lines) > max_bytes {
                if let Some((_, text, _)) = self.lines.pop_front() {
                    self.first += 1;
                    self.dropped_bytes += text.len() as u64;
                }
            }
        }
    }

    fn line_strategy() -> impl Strategy<Value = (String, LineEnd)> {
        (
            "[a-c]{0,6}",
            prop_oneof![
                Just(LineEnd::Newline),
                Just(LineEnd::Newline),
                Just(LineEnd::Continued),
                Just(LineEnd::Eof)
            ],
        )
    }

    proptest! {
        #[test]
        fn matches_the_simple_model(
            appends in proptest::collection::vec((any::<bool>(), any::<bool>(), proptest::collection::vec(line_strategy(), 0..8)), 0..20),
            max_lines in 1usize..10,
            max_bytes in 1usize..40,
        ) {
            let mut buffer = OutputBuffer::new(OutputLimits { max_line_bytes: 10, max_retained_lines: max_lines, max_retained_bytes: max_bytes });
            let mut model = Model::default();
            for (stderr, as_input, lines) in &appends {
                let stream = if *stderr { StreamKind::Stderr } else { StreamKind::Stdout };
                // As one input segment when all lines end in newlines (like the fast path).
                let mut input = Vec::new();
                let mut lines_batch = LineBatch::default();
                if *as_input && !lines.is_empty() && lines.iter().all(|(_, end)| *end == LineEnd::Newline) {
                    for (text, _) in lines {
                        input.extend_from_slice(text.as_bytes());
                        input.push(b'\n');
                    }
                    lines_batch.segments.push(super::super::lines::Segment {
                        in_input: true, start: 0, len: input.len(), lines: lines.len() as u32, last_end: LineEnd::Newline,
                    });
                } else {
                    for (text, end) in lines {
                        lines_batch.push_line(text.as_bytes(), *end);
                    }
                }
                buffer.append(stream, SystemTime::UNIX_EPOCH, &lines_batch, &input);
                model.append(stream, lines, max_lines, max_bytes);
                let snap = buffer.snapshot_from(0);
                let got: Vec<(StreamKind, String, LineEnd)> = snap.lines.iter().map(|line| (line.stream, line.text.clone(), line.end)).collect();
                let want: Vec<(StreamKind, String, LineEnd)> = model.lines.iter().cloned().collect();
                prop_assert_eq!(got, want);
                prop_assert_eq!(snap.dropped_lines, model.first);
                prop_assert_eq!(snap.dropped_bytes, model.dropped_bytes);
                prop_assert_eq!(snap.lines.first().map(|line| line.number), (!model.lines.is_empty()).then_some(model.first));
                prop_assert_eq!(buffer.next_line_number(), model.first + model.lines.len() as u64);
            }
        }
    }
}
