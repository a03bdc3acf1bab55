//! Splitting pipe bytes into lines capped at `max_line_bytes`, as batches ready for the
//! retained buffer.
//!
//! The general path ([`LineSplitter::feed`]) handles one line at a time. The bulk of a flood
//! takes a fast path ([`LineSplitter::feed_into`]): the complete lines in the middle of a read
//! are checked for UTF-8 and for over-long lines in one pass and recorded as one segment that
//! still points into the read buffer, so they are copied once, into the retained ring.

use super::output::LineEnd;

/// Consecutive lines of one read as they will be stored: the lines joined by `\n`, the last one
/// followed by `\n` only when it ended with a newline. Always valid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Segment {
    /// In the read buffer the batch was built from, or in the batch's own text.
    pub(crate) in_input: bool,
    pub(crate) start: usize,
    /// Bytes, newlines included.
    pub(crate) len: usize,
    pub(crate) lines: u32,
    pub(crate) last_end: LineEnd,
}

/// The lines of one read. Only meaningful together with the read buffer (`input`) it was
/// built from.
#[derive(Debug, Default)]
pub(crate) struct LineBatch {
    pub(crate) text: String,
    pub(crate) segments: Vec<Segment>,
}

impl LineBatch {
    /// One line (or piece of a line) that gets its own text, converted with lossy UTF-8.
    pub(crate) fn push_line(&mut self, bytes: &[u8], end: LineEnd) {
        let start = self.text.len();
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text.push_str(text),
            Err(_) => self.text.push_str(&String::from_utf8_lossy(bytes)),
        }
        if end == LineEnd::Newline {
            self.text.push('\n');
        }
        self.segments.push(Segment {
            in_input: false,
            start,
            len: self.text.len() - start,
            lines: 1,
            last_end: end,
        });
    }

    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.segments.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    #[cfg(test)]
    pub(crate) fn segment_bytes<'a>(&'a self, segment: &Segment, input: &'a [u8]) -> &'a [u8] {
        let source = if segment.in_input {
            input
        } else {
            self.text.as_bytes()
        };
        &source[segment.start..segment.start + segment.len]
    }

    /// The batch's text as it will be stored.
    #[cfg(test)]
    pub fn chunk_text(&self, input: &[u8]) -> String {
        let mut out = String::with_capacity(self.segments.iter().map(|segment| segment.len).sum());
        for segment in &self.segments {
            out.push_str(&String::from_utf8_lossy(self.segment_bytes(segment, input)));
        }
        out
    }
}

/// Splits a byte stream into lines of at most `max_line_bytes`, keeping a partial line between
/// reads.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    pending: Vec<u8>,
    max_line_bytes: usize,
}

impl LineSplitter {
    pub fn new(max_line_bytes: usize) -> Self {
        // At least 4 so that a cut can always back off to a UTF-8 boundary.
        LineSplitter {
            pending: Vec::new(),
            max_line_bytes: max_line_bytes.max(4),
        }
    }

    /// The general path: every line or piece goes to `emit` as raw bytes with how it ended.
    pub fn feed(&mut self, mut data: &[u8], emit: &mut impl FnMut(&[u8], LineEnd)) {
        while let Some(newline) = memchr::memchr(b'\n', data) {
            let line = &data[..newline];
            if self.pending.is_empty() {
                emit_capped(line, self.max_line_bytes, emit);
            } else {
                self.pending.extend_from_slice(line);
                emit_capped(&self.pending, self.max_line_bytes, emit);
                self.pending.clear();
            }
            data = &data[newline + 1..];
        }
        if data.is_empty() {
            return;
        }
        // No newline in the rest: emit full-size pieces now (an endless line must neither grow
        // memory nor stay invisible) and keep the remainder.
        let mut rest = data;
        if !self.pending.is_empty() {
            let room = self.max_line_bytes.saturating_sub(self.pending.len());
            let take = room.min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() >= self.max_line_bytes {
                let cut = char_boundary_cut(&self.pending, self.max_line_bytes);
                emit(&self.pending[..cut], LineEnd::Continued);
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

    /// Same result as [`Self::feed`] with `batch.push_line`, faster for complete lines.
    pub(crate) fn feed_into(&mut self, data: &[u8], batch: &mut LineBatch) {
        let Some(last_newline) = memchr::memrchr(b'\n', data) else {
            self.feed(data, &mut |bytes, end| batch.push_line(bytes, end));
            return;
        };
        let mut start = 0;
        if !self.pending.is_empty() {
            let first_newline = memchr::memchr(b'\n', data).unwrap_or(last_newline);
            self.feed(&data[..=first_newline], &mut |bytes, end| {
                batch.push_line(bytes, end)
            });
            start = first_newline + 1;
        }
        if start <= last_newline {
            push_complete_lines(data, start, last_newline + 1, self.max_line_bytes, batch);
        }
        self.feed(&data[last_newline + 1..], &mut |bytes, end| {
            batch.push_line(bytes, end)
        });
    }

    /// Flush a partial last line at end of stream.
    pub fn finish(&mut self, emit: &mut impl FnMut(&[u8], LineEnd)) {
        if self.pending.is_empty() {
            return;
        }
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

/// `data[start..end]` holds complete lines, each ending in `\n`.
fn push_complete_lines(data: &[u8], start: usize, end: usize, max: usize, batch: &mut LineBatch) {
    let region = &data[start..end];
    if !region.is_ascii() && std::str::from_utf8(region).is_err() {
        for line in region[..region.len() - 1].split(|&byte| byte == b'\n') {
            emit_capped(line, max, &mut |bytes, end| batch.push_line(bytes, end));
        }
        return;
    }
    // Walk in windows of max + 1 bytes: if a window holds a newline, every line before that
    // newline is within the cap; if not, the line starting there is too long.
    let mut segment_start = start;
    let mut line_start = start;
    while line_start < end {
        let window_end = (line_start + max + 1).min(end);
        if let Some(offset) = memchr::memrchr(b'\n', &data[line_start..window_end]) {
            line_start += offset + 1;
            continue;
        }
        push_input_lines(data, segment_start, line_start, batch);
        let newline = memchr::memchr(b'\n', &data[line_start..end])
            .map_or(end - 1, |offset| line_start + offset);
        emit_capped(&data[line_start..newline], max, &mut |bytes, end| {
            batch.push_line(bytes, end)
        });
        line_start = newline + 1;
        segment_start = line_start;
    }
    push_input_lines(data, segment_start, line_start, batch);
}

fn push_input_lines(data: &[u8], from: usize, to: usize, batch: &mut LineBatch) {
    if to > from {
        let lines = memchr::memchr_iter(b'\n', &data[from..to]).count();
        batch.segments.push(Segment {
            in_input: true,
            start: from,
            len: to - from,
            lines: u32::try_from(lines).unwrap_or(u32::MAX),
            last_end: LineEnd::Newline,
        });
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// Through `feed_into`, then the batch's segments split back into lines.
    fn split_into(max: usize, inputs: &[&[u8]]) -> Vec<(String, LineEnd)> {
        let mut splitter = LineSplitter::new(max);
        let mut batch = LineBatch::default();
        let mut out = Vec::new();
        let collect = |batch: &LineBatch, input: &[u8], out: &mut Vec<(String, LineEnd)>| {
            for segment in &batch.segments {
                let text =
                    String::from_utf8_lossy(batch.segment_bytes(segment, input)).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if segment.last_end == LineEnd::Newline {
                    assert_eq!(lines.pop(), Some(""));
                }
                assert_eq!(lines.len(), segment.lines as usize);
                let count = lines.len();
                for (index, line) in lines.into_iter().enumerate() {
                    let end = if index + 1 == count {
                        segment.last_end
                    } else {
                        LineEnd::Newline
                    };
                    out.push((line.to_string(), end));
                }
            }
        };
        for input in inputs {
            batch.clear();
            splitter.feed_into(input, &mut batch);
            collect(&batch, input, &mut out);
        }
        batch.clear();
        splitter.finish(&mut |bytes, end| batch.push_line(bytes, end));
        collect(&batch, &[], &mut out);
        out
    }

    #[test]
    fn lines_across_reads_and_partial_last_line() {
        let want = vec![
            ("abc".to_string(), LineEnd::Newline),
            ("def".to_string(), LineEnd::Newline),
            (String::new(), LineEnd::Newline),
            ("g".to_string(), LineEnd::Eof),
        ];
        assert_eq!(split(100, &[b"ab", b"c\nde", b"f\n\ng"]), want);
        assert_eq!(split_into(100, &[b"ab", b"c\nde", b"f\n\ng"]), want);
    }

    #[test]
    fn long_line_is_cut_at_the_cap_without_splitting_a_char() {
        // "é" is two bytes; a cap of 5 would fall inside the third "é".
        for got in [
            split(5, &["ééééé\n".as_bytes()]),
            split_into(5, &["ééééé\n".as_bytes()]),
        ] {
            let texts: Vec<&str> = got.iter().map(|(text, _)| text.as_str()).collect();
            assert_eq!(texts, vec!["éé", "éé", "é"]);
            assert_eq!(got[0].1, LineEnd::Continued);
            assert_eq!(got[2].1, LineEnd::Newline);
        }
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
        assert_eq!(split(100, &[b"a\xff\xfeb\n"])[0].0, "a\u{fffd}\u{fffd}b");
        assert_eq!(
            split_into(100, &[b"ok\na\xff\xfeb\n"])[1].0,
            "a\u{fffd}\u{fffd}b"
        );
    }

    #[test]
    fn a_fast_path_read_is_one_segment() {
        let mut splitter = LineSplitter::new(10);
        let mut batch = LineBatch::default();
        splitter.feed_into(b"one\ntwo\nthree\nfour", &mut batch);
        assert_eq!(batch.segments.len(), 1);
        assert_eq!(
            batch.segments[0],
            Segment {
                in_input: true,
                start: 0,
                len: 14,
                lines: 3,
                last_end: LineEnd::Newline
            }
        );
        assert_eq!(
            batch.chunk_text(b"one\ntwo\nthree\nfour"),
            "one\ntwo\nthree\n"
        );
    }

    fn bytes_strategy() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b'\n'),
                Just(b'a'),
                Just(0xc3u8),
                Just(0xa9u8),
                Just(0xffu8),
                Just(0xe2u8)
            ],
            0..200,
        )
    }

    proptest! {
        #[test]
        fn the_fast_path_splits_like_the_general_path(
            data in bytes_strategy(),
            cuts in proptest::collection::vec(0usize..200, 0..6),
            max in 4usize..20,
            ascii in any::<bool>(),
        ) {
            let data: Vec<u8> = if ascii { data.iter().map(|&b| if b == b'\n' { b } else { b'x' }).collect() } else { data };
            let mut points: Vec<usize> = cuts.into_iter().map(|cut| cut.min(data.len())).collect();
            points.sort();
            let mut pieces = Vec::new();
            let mut last = 0;
            for point in points {
                pieces.push(&data[last..point]);
                last = point;
            }
            pieces.push(&data[last..]);
            let general = split(max, &pieces);
            let fast = split_into(max, &pieces);
            prop_assert_eq!(&general, &fast);
            // The cap is on raw bytes; each invalid byte may become a 3-byte U+FFFD.
            prop_assert!(fast.iter().all(|(text, _)| text.len() <= 3 * max));
            if ascii {
                let mut rebuilt = String::new();
                for (text, end) in &fast {
                    rebuilt.push_str(text);
                    if *end == LineEnd::Newline {
                        rebuilt.push('\n');
                    }
                }
                prop_assert_eq!(rebuilt.as_bytes(), &data[..]);
            }
        }
    }
}
