//! The live view of one output stream: its bytes as they arrive, for observers (`on_chunk`,
//! `subscribe`), partial lines included. Bytes stay bytes; a chunk never ends inside a UTF-8
//! character the next read may complete, so each chunk decodes on its own as the whole would. The retained output is built separately,
//! line by line, and is not affected.
//!
//! When a chunk goes out: a read that completes a line (or a capped piece of one) publishes at
//! once, together with any partial line after it. Bytes of a partial line alone (a prompt, a
//! `\r` progress update, or a line a child writes in several pieces) wait for their newline at
//! most [`PARTIAL_LINE_DELAY`] from the first of them, then go out as they are. So a line
//! written in quick pieces is still one chunk, a prompt shows within 50 ms, and a child writing
//! a byte at a time yields a chunk per 50 ms, not one per byte.

use std::time::{Duration, Instant, SystemTime};

/// Longest the bytes of a partial line wait for their newline before observers see them.
pub(crate) const PARTIAL_LINE_DELAY: Duration = Duration::from_millis(50);
/// Waiting partial text this long goes out at once.
const PARTIAL_LINE_MAX_BYTES: usize = 64 * 1024;

/// Bytes waiting to be published, and what the next chunk needs to know.
#[derive(Debug, Default)]
pub(crate) struct LiveText {
    bytes: Vec<u8>,
    /// An incomplete UTF-8 sequence at the end of the last read, completed by the next one.
    utf8_carry: Vec<u8>,
    /// Arrival of the first byte of `bytes` (or of the carry that starts it).
    first_arrival: Option<(SystemTime, Instant)>,
    /// The bytes before `bytes` did not end with `\n`: they continue an open line.
    starts_mid_line: bool,
}

/// What one publication carries.
#[derive(Debug, PartialEq)]
pub(crate) struct LivePiece {
    pub(crate) bytes: Vec<u8>,
    pub(crate) at: SystemTime,
    pub(crate) arrived: Instant,
    pub(crate) continues_line: bool,
}

impl LiveText {
    /// Takes one read. With nobody observing, nothing is kept; only whether the
    /// stream stands in the middle of a line is tracked, for a later observer's first chunk.
    pub(crate) fn push(&mut self, data: &[u8], at: SystemTime, now: Instant, observed: bool) {
        if data.is_empty() {
            return;
        }
        if !observed {
            self.bytes.clear();
            self.utf8_carry.clear();
            self.first_arrival = None;
            self.starts_mid_line = data.last() != Some(&b'\n');
            return;
        }
        self.first_arrival.get_or_insert((at, now));
        let start = self.bytes.len();
        self.bytes.append(&mut self.utf8_carry);
        self.bytes.extend_from_slice(data);
        let whole = start + complete_prefix(&self.bytes[start..]);
        self.utf8_carry.extend_from_slice(&self.bytes[whole..]);
        self.bytes.truncate(whole);
    }

    /// Whether the waiting bytes should go out before a read of `incoming` bytes is added, so
    /// that a chunk stays within about one read.
    pub(crate) fn publish_before(&self, incoming: usize) -> bool {
        !self.bytes.is_empty() && self.bytes.len() + incoming > PARTIAL_LINE_MAX_BYTES
    }

    /// Whether the waiting text should go out now, after a read that did (`completed_line`) or
    /// did not complete a line.
    pub(crate) fn publish_now(&self, completed_line: bool, now: Instant) -> bool {
        !self.bytes.is_empty()
            && (completed_line
                || self.bytes.len() >= PARTIAL_LINE_MAX_BYTES
                || self.due().is_some_and(|due| now >= due))
    }

    /// When the waiting partial text is due at the latest; None when nothing waits.
    pub(crate) fn due(&self) -> Option<Instant> {
        if self.bytes.is_empty() {
            return None;
        }
        let (_, arrived) = self.first_arrival?;
        Some(arrived + PARTIAL_LINE_DELAY)
    }

    /// The end of the stream: an unfinished UTF-8 sequence goes out as it is.
    pub fn finish(&mut self) {
        self.bytes.append(&mut self.utf8_carry);
    }

    /// Hands out the waiting bytes (None when there are none).
    pub(crate) fn take(&mut self) -> Option<LivePiece> {
        if self.bytes.is_empty() {
            return None;
        }
        let bytes = std::mem::take(&mut self.bytes);
        // Set by `push` for every observed read; the fallback is never expected.
        let (at, arrived) = self
            .first_arrival
            .take()
            .unwrap_or_else(|| (SystemTime::now(), Instant::now()));
        let continues_line = self.starts_mid_line;
        self.starts_mid_line = bytes.last() != Some(&b'\n');
        Some(LivePiece {
            bytes,
            at,
            arrived,
            continues_line,
        })
    }
}

/// How much of `bytes` may go out now: all but an incomplete UTF-8 sequence at the very end
/// (the next read may complete it). Invalid sequences elsewhere go out as they are.
fn complete_prefix(mut bytes: &[u8]) -> usize {
    let total = bytes.len();
    loop {
        match std::str::from_utf8(bytes) {
            Ok(_) => return total,
            Err(err) => match err.error_len() {
                Some(len) => bytes = &bytes[err.valid_up_to() + len..],
                None => return total - bytes.len() + err.valid_up_to(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lossy(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    fn feed(live: &mut LiveText, data: &[u8]) {
        live.push(data, SystemTime::now(), Instant::now(), true);
    }

    #[test]
    fn a_split_char_waits_for_its_last_byte() {
        let mut live = LiveText::default();
        let bytes = "aé".as_bytes();
        feed(&mut live, &bytes[..2]);
        let first = live.take().map(|piece| lossy(&piece.bytes));
        assert_eq!(first.as_deref(), Some("a"));
        feed(&mut live, &bytes[2..]);
        let second = live.take().map(|piece| lossy(&piece.bytes));
        assert_eq!(second.as_deref(), Some("é"));
    }

    #[test]
    fn continuation_follows_the_last_published_byte() {
        let mut live = LiveText::default();
        feed(&mut live, b"Password: ");
        let first = live.take();
        assert!(first.is_some_and(|piece| !piece.continues_line));
        feed(&mut live, b"ok\nnext");
        let second = live.take();
        assert!(
            second.is_some_and(|piece| piece.continues_line && lossy(&piece.bytes) == "ok\nnext")
        );
        feed(&mut live, b" part\n");
        let third = live.take();
        assert!(third.is_some_and(|piece| piece.continues_line));
        feed(&mut live, b"fresh");
        assert!(live.take().is_some_and(|piece| !piece.continues_line));
        // Unobserved reads are not kept but still tell where the line stands.
        live.push(b"half", SystemTime::now(), Instant::now(), false);
        feed(&mut live, b" done\n");
        assert!(
            live.take()
                .is_some_and(|piece| piece.continues_line && lossy(&piece.bytes) == " done\n")
        );
    }

    #[test]
    fn partial_text_waits_for_its_newline_at_most_the_delay() {
        let mut live = LiveText::default();
        let start = Instant::now();
        live.push(b"err ", SystemTime::now(), start, true);
        assert!(!live.publish_now(false, start + Duration::from_millis(1)));
        assert_eq!(live.due(), Some(start + PARTIAL_LINE_DELAY));
        live.push(
            b"1\n",
            SystemTime::now(),
            start + Duration::from_millis(1),
            true,
        );
        assert!(live.publish_now(true, start + Duration::from_millis(1)));
        let piece = live.take();
        assert!(
            piece.is_some_and(|piece| lossy(&piece.bytes) == "err 1\n" && piece.arrived == start)
        );
        assert_eq!(live.due(), None);
        assert!(!live.publish_now(true, start), "nothing waits");
        // A prompt alone goes out once the delay from its first byte passed.
        let later = start + Duration::from_secs(1);
        live.push(b"10%", SystemTime::now(), later, true);
        live.push(
            b"\r20%",
            SystemTime::now(),
            later + Duration::from_millis(30),
            true,
        );
        assert!(!live.publish_now(false, later + Duration::from_millis(30)));
        assert!(live.publish_now(false, later + PARTIAL_LINE_DELAY));
        assert!(
            live.take()
                .is_some_and(|piece| lossy(&piece.bytes) == "10%\r20%")
        );
        live.push(b"x", SystemTime::now(), later, true);
        assert!(!live.publish_before(100));
        assert!(live.publish_before(PARTIAL_LINE_MAX_BYTES));
    }

    #[test]
    fn finish_sends_an_unfinished_char_as_it_is() {
        let mut live = LiveText::default();
        feed(&mut live, b"x\xe2\x82");
        live.finish();
        let piece = live.take().map(|piece| piece.bytes);
        assert_eq!(piece.as_deref(), Some(&b"x\xe2\x82"[..]));
    }

    proptest! {
        #[test]
        fn pieces_join_to_the_bytes_and_each_decodes_as_the_whole(
            data in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), Just(0xc3u8), Just(0xa9u8), Just(0xffu8),
                    Just(0xe2u8), Just(0x82u8), Just(0xacu8)],
                0..120,
            ),
            cuts in proptest::collection::vec(0usize..120, 0..8),
        ) {
            let mut points: Vec<usize> = cuts.into_iter().map(|cut| cut.min(data.len())).collect();
            points.sort();
            let mut live = LiveText::default();
            let mut joined = Vec::new();
            let mut text = String::new();
            let mut last = 0;
            for point in points.into_iter().chain([data.len()]) {
                feed(&mut live, &data[last..point]);
                last = point;
                if let Some(piece) = live.take() {
                    joined.extend_from_slice(&piece.bytes);
                    text.push_str(&lossy(&piece.bytes));
                }
            }
            live.finish();
            if let Some(piece) = live.take() {
                joined.extend_from_slice(&piece.bytes);
                text.push_str(&lossy(&piece.bytes));
            }
            prop_assert_eq!(&joined, &data);
            prop_assert_eq!(text, lossy(&data));
        }
    }
}
