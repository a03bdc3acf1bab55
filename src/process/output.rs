//! Child output: line splitting with a length cap, live chunks, and the bounded retained buffer.
//!
//! Bytes from each pipe go through a [`LineSplitter`] (one per stream), are converted to text
//! with lossy UTF-8 per line, and land in one [`OutputBuffer`] shared by both streams, so the
//! buffer holds the interleaved output in arrival order (at line granularity). The buffer keeps
//! its text in one byte ring plus small per-line records, so flooding children cost a memcpy and
//! a record per line, and memory stays within the configured bounds whatever the output size.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use serde::Serialize;

use super::spec::OutputLimits;

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

    fn index(self) -> usize {
        match self {
            StreamKind::Stdout => 0,
            StreamKind::Stderr => 1,
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

/// Splits a byte stream into lines of at most `max_line_bytes`, keeping a partial line between
/// reads. Pieces are handed to a callback as raw bytes with how they ended.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    pending: Vec<u8>,
    max_line_bytes: usize,
}

impl LineSplitter {
    pub(crate) fn new(max_line_bytes: usize) -> Self {
        LineSplitter {
            pending: Vec::new(),
            max_line_bytes: max_line_bytes.max(4),
        }
    }

    pub(crate) fn feed(&mut self, mut data: &[u8], emit: &mut impl FnMut(&[u8], LineEnd)) {
        while let Some(newline) = memchr::memchr(b'\n', data) {
            let line = &data[..newline];
            if self.pending.is_empty() {
                emit_capped(line, self.max_line_bytes, emit);
            } else {
                self.pending.extend_from_slice(line);
                let pending = std::mem::take(&mut self.pending);
                emit_capped(&pending, self.max_line_bytes, emit);
                self.pending = pending;
                self.pending.clear();
            }
            data = &data[newline + 1..];
        }
        if data.is_empty() {
            return;
        }
        // No newline in the rest: emit full-size pieces now (an endless line must not grow
        // memory or stay invisible), keep the remainder.
        let mut rest = data;
        if !self.pending.is_empty() {
            let room = self.max_line_bytes.saturating_sub(self.pending.len());
            let take = room.min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() >= self.max_line_bytes {
                let pending = std::mem::take(&mut self.pending);
                let cut = char_boundary_cut(&pending, self.max_line_bytes);
                emit(&pending[..cut], LineEnd::Continued);
                self.pending = pending;
                self.pending.drain(..cut);
            }
        }
        while self.pending.is_empty() && rest.len() >= self.max_line_bytes {
            let cut = char_boundary_cut(rest, self.max_line_bytes);
            emit(&rest[..cut], LineEnd::Continued);
            rest = &rest[cut..];
        }
        self.pending.extend_from_slice(rest);
    }

    /// Flush a partial last line at end of stream.
    pub(crate) fn finish(&mut self, emit: &mut impl FnMut(&[u8], LineEnd)) {
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let mut rest: &[u8] = &pending;
            while rest.len() > self.max_line_bytes {
                let cut = char_boundary_cut(rest, self.max_line_bytes);
                emit(&rest[..cut], LineEnd::Continued);
                rest = &rest[cut..];
            }
            emit(rest, LineEnd::Eof);
        }
    }
}

fn emit_capped(mut line: &[u8], max: usize, emit: &mut impl FnMut(&[u8], LineEnd)) {
    while line.len() > max {
        let cut = char_boundary_cut(line, max);
        emit(&line[..cut], LineEnd::Continued);
        line = &line[cut..];
    }
    emit(line, LineEnd::Newline);
}

/// Where to cut `bytes` so that the first piece is at most `max` bytes and does not end in the
/// middle of a UTF-8 sequence (when the bytes are valid UTF-8 there). Always > 0.
fn char_boundary_cut(bytes: &[u8], max: usize) -> usize {
    let cut = max.min(bytes.len());
    if cut == bytes.len() {
        return cut;
    }
    // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
    let mut lead = cut;
    while lead > 0 && cut - lead < 4 {
        lead -= 1;
        let byte = bytes[lead];
        if byte & 0b1100_0000 != 0b1000_0000 {
            let width = match byte {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => 1,
            };
            if lead + width > cut && lead > 0 {
                return lead;
            }
            return cut;
        }
    }
    cut
}

#[derive(Debug, Clone, Copy)]
struct LineRecord {
    stream: StreamKind,
    at: SystemTime,
    /// Absolute offset of the line's text in the ring.
    start: u64,
    len: u32,
    end: LineEnd,
}

/// The bounded, shared store of retained output (both streams, arrival order).
#[derive(Debug)]
pub(crate) struct OutputBuffer {
    limits: OutputLimits,
    text: VecDeque<u8>,
    /// Absolute offset of `text[0]`.
    base: u64,
    lines: VecDeque<LineRecord>,
    /// Number of the first retained line.
    first_number: u64,
    dropped_lines: u64,
    dropped_bytes: u64,
    stream_bytes: [u64; 2],
    stream_lines: [u64; 2],
}

/// Lines of one read, converted to text, ready to be appended under one lock.
#[derive(Debug, Default)]
pub(crate) struct LineBatch {
    pub(crate) text: String,
    /// (offset into `text`, length, end) per line.
    pub(crate) lines: Vec<(usize, usize, LineEnd)>,
}

impl LineBatch {
    pub(crate) fn push(&mut self, bytes: &[u8], end: LineEnd) {
        let start = self.text.len();
        self.text.push_str(&String::from_utf8_lossy(bytes));
        self.lines.push((start, self.text.len() - start, end));
    }

    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.lines.clear();
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The text as a live chunk would show it (newlines restored).
    pub(crate) fn chunk_text(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + self.lines.len());
        for &(start, len, end) in &self.lines {
            out.push_str(&self.text[start..start + len]);
            if end == LineEnd::Newline {
                out.push('\n');
            }
        }
        out
    }
}

impl OutputBuffer {
    pub(crate) fn new(limits: OutputLimits) -> Self {
        OutputBuffer {
            limits,
            text: VecDeque::new(),
            base: 0,
            lines: VecDeque::new(),
            first_number: 0,
            dropped_lines: 0,
            dropped_bytes: 0,
            stream_bytes: [0; 2],
            stream_lines: [0; 2],
        }
    }

    pub(crate) fn count_read(&mut self, stream: StreamKind, bytes: usize) {
        self.stream_bytes[stream.index()] += bytes as u64;
    }

    pub(crate) fn append(&mut self, stream: StreamKind, at: SystemTime, batch: &LineBatch) {
        let max_lines = self.limits.max_retained_lines;
        let max_bytes = self.limits.max_retained_bytes;
        self.stream_lines[stream.index()] += batch.lines.len() as u64;
        // Lines of this batch that would be evicted right away are only counted.
        let mut skip = batch.lines.len().saturating_sub(max_lines);
        let mut tail_bytes: usize = 0;
        for (index, &(_, len, _)) in batch.lines.iter().enumerate().rev() {
            if index < skip {
                break;
            }
            tail_bytes += len;
            if tail_bytes > max_bytes {
                skip = index + 1;
                break;
            }
        }
        if skip > 0 {
            // A line of this batch is dropped, so every older retained line goes too.
            while let Some(record) = self.lines.pop_front() {
                self.dropped_lines += 1;
                self.dropped_bytes += u64::from(record.len);
                self.first_number += 1;
            }
        }
        for &(_, len, _) in &batch.lines[..skip] {
            self.dropped_lines += 1;
            self.dropped_bytes += len as u64;
            self.first_number += 1;
        }
        // `first_number` counts lines that never made it into the ring too, so the number of
        // the next pushed line is first_number + lines.len().
        let kept = &batch.lines[skip..];
        if let (Some(first), Some(last)) = (kept.first(), kept.last()) {
            let from = first.0;
            let to = last.0 + last.1;
            let ring_start = self.base + self.text.len() as u64;
            self.text.extend(batch.text.as_bytes()[from..to].iter());
            for &(offset, len, end) in kept {
                self.lines.push_back(LineRecord {
                    stream,
                    at,
                    start: ring_start + (offset - from) as u64,
                    len: len as u32,
                    end,
                });
            }
        }
        self.evict();
    }

    fn retained_bytes(&self) -> usize {
        match self.lines.front() {
            Some(first) => (self.base + self.text.len() as u64 - first.start) as usize,
            None => 0,
        }
    }

    fn evict(&mut self) {
        let max_lines = self.limits.max_retained_lines;
        let max_bytes = self.limits.max_retained_bytes;
        while self.lines.len() > max_lines
            || (self.retained_bytes() > max_bytes && !self.lines.is_empty())
        {
            if let Some(record) = self.lines.pop_front() {
                self.dropped_lines += 1;
                self.dropped_bytes += u64::from(record.len);
                self.first_number += 1;
            }
        }
        // Release ring bytes before the first retained line (including gaps of skipped text).
        let keep_from = self
            .lines
            .front()
            .map_or(self.base + self.text.len() as u64, |first| first.start);
        let release = (keep_from - self.base) as usize;
        if release > 0 {
            self.text.drain(..release);
            self.base = keep_from;
        }
    }

    fn line_text(&self, record: &LineRecord) -> String {
        let from = (record.start - self.base) as usize;
        let to = from + record.len as usize;
        let mut bytes = Vec::with_capacity(record.len as usize);
        bytes.extend(self.text.range(from..to));
        // The ring only ever holds text that came from a String.
        String::from_utf8(bytes)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
    }

    /// Retained lines numbered `from` and later (all of them when `from` is older than what is
    /// retained), with the totals.
    pub(crate) fn snapshot_from(&self, from: u64) -> RetainedOutput {
        let skip = from.saturating_sub(self.first_number) as usize;
        let lines = self
            .lines
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(index, record)| OutputLine {
                number: self.first_number + index as u64,
                stream: record.stream,
                at: record.at,
                text: self.line_text(record),
                end: record.end,
            })
            .collect();
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
        self.first_number + self.lines.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(max: usize, inputs: &[&[u8]]) -> Vec<(String, LineEnd)> {
        let mut splitter = LineSplitter::new(max);
        let mut out = Vec::new();
        let mut emit = |bytes: &[u8], end: LineEnd| {
            out.push((String::from_utf8_lossy(bytes).into_owned(), end))
        };
        for input in inputs {
            splitter.feed(input, &mut emit);
        }
        splitter.finish(&mut emit);
        out
    }

    #[test]
    fn lines_across_reads_and_partial_last_line() {
        let got = split(100, &[b"ab", b"c\nde", b"f\n\ng"]);
        assert_eq!(
            got,
            vec![
                ("abc".to_string(), LineEnd::Newline),
                ("def".to_string(), LineEnd::Newline),
                (String::new(), LineEnd::Newline),
                ("g".to_string(), LineEnd::Eof),
            ]
        );
    }

    #[test]
    fn long_line_is_cut_at_the_cap_without_splitting_a_char() {
        // "é" is two bytes; a cap of 5 would fall inside the third "é".
        let got = split(5, &["ééééé\n".as_bytes()]);
        let texts: Vec<&str> = got.iter().map(|(text, _)| text.as_str()).collect();
        assert_eq!(texts, vec!["éé", "éé", "é"]);
        assert_eq!(got[0].1, LineEnd::Continued);
        assert_eq!(got[2].1, LineEnd::Newline);
    }

    #[test]
    fn endless_line_is_emitted_in_pieces_while_it_grows() {
        let mut splitter = LineSplitter::new(8);
        let mut pieces = 0;
        let mut emit = |bytes: &[u8], end: LineEnd| {
            assert!(bytes.len() <= 8);
            assert_eq!(end, LineEnd::Continued);
            pieces += 1;
        };
        for _ in 0..10 {
            splitter.feed(b"xxx", &mut emit);
        }
        assert_eq!(pieces, 3);
        assert!(splitter.pending.len() < 8);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_chars() {
        let got = split(100, &[b"a\xff\xfeb\n"]);
        assert_eq!(got[0].0, "a\u{fffd}\u{fffd}b");
    }

    fn batch(lines: &[&str]) -> LineBatch {
        let mut batch = LineBatch::default();
        for line in lines {
            batch.push(line.as_bytes(), LineEnd::Newline);
        }
        batch
    }

    #[test]
    fn buffer_keeps_the_last_lines_within_both_bounds() {
        let limits = OutputLimits {
            max_line_bytes: 10,
            max_retained_lines: 3,
            max_retained_bytes: 8,
        };
        let mut buffer = OutputBuffer::new(limits);
        buffer.append(
            StreamKind::Stdout,
            SystemTime::now(),
            &batch(&["aaa", "bbb"]),
        );
        buffer.append(
            StreamKind::Stderr,
            SystemTime::now(),
            &batch(&["cc", "dd", "ee"]),
        );
        let snap = buffer.snapshot_from(0);
        let texts: Vec<&str> = snap.lines.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts, vec!["cc", "dd", "ee"]);
        assert_eq!(snap.lines[0].number, 2);
        assert_eq!(snap.dropped_lines, 2);
        assert_eq!(snap.dropped_bytes, 6);
        buffer.append(
            StreamKind::Stdout,
            SystemTime::now(),
            &batch(&["12345", "678"]),
        );
        let snap = buffer.snapshot_from(0);
        let texts: Vec<&str> = snap.lines.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts, vec!["12345", "678"]);
        assert_eq!(snap.lines[0].number, 5);
        assert_eq!(buffer.next_line_number(), 7);
        assert_eq!(snap.combined_text(), "12345\n678\n");
        assert!(buffer.text.len() <= 8);
    }

    #[test]
    fn a_batch_larger_than_the_bounds_only_keeps_its_tail() {
        let limits = OutputLimits {
            max_line_bytes: 10,
            max_retained_lines: 2,
            max_retained_bytes: 100,
        };
        let mut buffer = OutputBuffer::new(limits);
        let lines: Vec<String> = (0..1000).map(|i| format!("l{i}")).collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        buffer.append(StreamKind::Stdout, SystemTime::now(), &batch(&refs));
        let snap = buffer.snapshot_from(0);
        assert_eq!(snap.combined_text(), "l998\nl999\n");
        assert_eq!(snap.lines[1].number, 999);
        assert_eq!(snap.dropped_lines, 998);
        assert_eq!(snap.stdout_lines, 1000);
        assert!(buffer.text.len() <= 8);
        assert_eq!(buffer.snapshot_from(999).lines.len(), 1);
    }
}
