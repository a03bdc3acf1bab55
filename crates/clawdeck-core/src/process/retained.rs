//! The bounded store of retained output, shared by both streams (arrival order).
//!
//! A block per stored segment (many lines of one read, or a single line) holds a shared slice
//! of the buffer the read went into, with its stream, arrival time and line count. Valid UTF-8
//! is never copied and lines are only split out when someone asks for them, so a flooding child
//! costs a block record per read. Reads fill their buffers front to back and blocks leave oldest
//! first, so the buffers kept alive hold little more than the retained text, whatever the
//! output size.

use std::collections::VecDeque;
use std::time::SystemTime;

use bytes::Bytes;

use super::lines::LineBatch;
use super::output::{LineEnd, OutputLine, RetainedOutput, StdStream};
use super::spec::OutputLimits;

#[derive(Debug, Clone)]
struct Block {
    stream: StdStream,
    at: SystemTime,
    /// The block's lines joined by `\n`, the last one followed by `\n` only when it ended
    /// with a newline.
    text: Bytes,
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
    blocks: VecDeque<Block>,
    retained_bytes: usize,
    retained_lines: u64,
    /// Number of the first retained line.
    first_number: u64,
    dropped_lines: u64,
    dropped_bytes: u64,
    stream_bytes: [u64; 2],
    stream_lines: [u64; 2],
}

fn stream_index(stream: StdStream) -> usize {
    match stream {
        StdStream::Stdout => 0,
        StdStream::Stderr => 1,
    }
}

/// Newlines are counted in windows this large when looking for the n-th one.
const COUNT_WINDOW: usize = 4096;

impl OutputBuffer {
    pub fn new(limits: OutputLimits) -> Self {
        OutputBuffer {
            limits,
            blocks: VecDeque::new(),
            retained_bytes: 0,
            retained_lines: 0,
            first_number: 0,
            dropped_lines: 0,
            dropped_bytes: 0,
            stream_bytes: [0; 2],
            stream_lines: [0; 2],
        }
    }

    pub(crate) fn count_read(&mut self, stream: StdStream, bytes: usize) {
        self.stream_bytes[stream_index(stream)] += bytes as u64;
    }

    /// Store a batch built from the read `input`: its input segments become slices of
    /// `input`, its own text (converted or cross-read lines) is copied once.
    pub(crate) fn append(
        &mut self,
        stream: StdStream,
        at: SystemTime,
        batch: &LineBatch,
        input: &Bytes,
    ) {
        let mut own: Option<Bytes> = None;
        for segment in &batch.segments {
            let source = if segment.in_input {
                input
            } else {
                own.get_or_insert_with(|| Bytes::copy_from_slice(batch.text.as_bytes()))
            };
            let text = source.slice(segment.start..segment.start + segment.len);
            self.retained_bytes += text.len();
            self.blocks.push_back(Block {
                stream,
                at,
                text,
                lines: segment.lines,
                last_end: segment.last_end,
            });
            self.retained_lines += u64::from(segment.lines);
            self.stream_lines[stream_index(stream)] += u64::from(segment.lines);
        }
        self.evict();
    }

    /// Drop whole lines from the front until both bounds hold.
    fn evict(&mut self) {
        let max_lines = self.limits.max_retained_lines as u64;
        let max_bytes = self.limits.max_retained_bytes;
        loop {
            let excess_lines = self.retained_lines.saturating_sub(max_lines);
            let excess_bytes = self.retained_bytes.saturating_sub(max_bytes);
            if excess_lines == 0 && excess_bytes == 0 {
                break;
            }
            let Some(front) = self.blocks.front() else {
                break;
            };
            let front_len = front.text.len();
            let cut = if u64::from(front.lines) <= excess_lines || front_len <= excess_bytes {
                None
            } else {
                let text: &[u8] = &front.text;
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
                    (Some(lines), Some(bytes)) if lines.max(bytes) < front_len => {
                        Some(lines.max(bytes))
                    }
                    _ => None,
                }
            };
            match cut {
                None => {
                    let lines = u64::from(front.lines);
                    let newlines = front.newlines();
                    self.blocks.pop_front();
                    self.drop_front(front_len, lines, newlines);
                }
                Some(cut) => {
                    let lines = memchr::memchr_iter(b'\n', &front.text[..cut]).count() as u64;
                    if let Some(block) = self.blocks.front_mut() {
                        block.text = block.text.slice(cut..);
                        block.lines -= lines as u32;
                    }
                    self.drop_front(cut, lines, lines);
                }
            }
        }
    }

    fn drop_front(&mut self, bytes: usize, lines: u64, newlines: u64) {
        self.retained_bytes -= bytes;
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
            let mut rest: &[u8] = &block.text;
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
    pub fn next_line_number(&self) -> u64 {
        self.first_number + self.retained_lines
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
            StdStream::Stdout,
            SystemTime::now(),
            &newline_batch(&["aaa", "bbb"]),
            &Bytes::new(),
        );
        buffer.append(
            StdStream::Stderr,
            SystemTime::now(),
            &newline_batch(&["cc", "dd", "ee"]),
            &Bytes::new(),
        );
        let snap = buffer.snapshot_from(0);
        assert_eq!(texts(&snap), vec!["cc", "dd", "ee"]);
        assert_eq!(snap.lines[0].number, 2);
        assert_eq!((snap.dropped_lines, snap.dropped_bytes), (2, 6));
        buffer.append(
            StdStream::Stdout,
            SystemTime::now(),
            &newline_batch(&["12345", "6"]),
            &Bytes::new(),
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
        buffer.append(
            StdStream::Stdout,
            SystemTime::now(),
            &lines_batch,
            &Bytes::from_static(input),
        );
        let snap = buffer.snapshot_from(0);
        assert_eq!(snap.combined_text(), "l3\nl4\n");
        assert_eq!(snap.lines[1].number, 4);
        assert_eq!((snap.dropped_lines, snap.dropped_bytes), (3, 6));
        assert_eq!(buffer.snapshot_from(4).lines.len(), 1);
        assert_eq!(buffer.snapshot_from(9).lines.len(), 0);
    }

    #[test]
    fn only_the_retained_text_keeps_read_buffers_alive() {
        let mut buffer = OutputBuffer::new(limits(1000, 10_000));
        let line = "x".repeat(99);
        for _ in 0..50 {
            let input = Bytes::from(format!("{line}\n").repeat(500));
            let mut batch = LineBatch::default();
            batch.segments.push(super::super::lines::Segment {
                in_input: true,
                start: 0,
                len: input.len(),
                lines: 500,
                last_end: LineEnd::Newline,
            });
            buffer.append(StdStream::Stdout, SystemTime::now(), &batch, &input);
            // Blocks keep reads alive; only the ones holding retained text may remain.
            assert!(buffer.retained_bytes <= 10_000);
            assert!(buffer.blocks.len() <= 2, "{}", buffer.blocks.len());
        }
        let snap = buffer.snapshot_from(0);
        assert_eq!(snap.lines.len(), 100);
        assert_eq!(snap.dropped_lines + 100, 25_000);
        assert_eq!(snap.stdout_lines, 25_000);
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
        lines: VecDeque<(StdStream, String, LineEnd)>,
        first: u64,
        dropped_bytes: u64,
    }

    impl Model {
        fn append(
            &mut self,
            stream: StdStream,
            lines: &[(String, LineEnd)],
            max_lines: usize,
            max_bytes: usize,
        ) {
            for (text, end) in lines {
                self.lines.push_back((stream, text.clone(), *end));
            }
            let bytes = |lines: &VecDeque<(StdStream, String, LineEnd)>| {
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
                let stream = if *stderr { StdStream::Stderr } else { StdStream::Stdout };
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
                buffer.append(stream, SystemTime::UNIX_EPOCH, &lines_batch, &Bytes::from(input));
                model.append(stream, lines, max_lines, max_bytes);
                let snap = buffer.snapshot_from(0);
                let got: Vec<(StdStream, String, LineEnd)> = snap.lines.iter().map(|line| (line.stream, line.text.clone(), line.end)).collect();
                let want: Vec<(StdStream, String, LineEnd)> = model.lines.iter().cloned().collect();
                prop_assert_eq!(got, want);
                prop_assert_eq!(snap.dropped_lines, model.first);
                prop_assert_eq!(snap.dropped_bytes, model.dropped_bytes);
                prop_assert_eq!(snap.lines.first().map(|line| line.number), (!model.lines.is_empty()).then_some(model.first));
                prop_assert_eq!(buffer.next_line_number(), model.first + model.lines.len() as u64);
            }
        }
    }
}
