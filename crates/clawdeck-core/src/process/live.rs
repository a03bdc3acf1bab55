//! The live view of one output stream: its bytes decoded as they arrive, for observers
//! (`on_chunk`, `subscribe`), partial lines included. The retained output is built separately,
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

/// Decoded text waiting to be published, and what the next chunk needs to know.
#[derive(Debug, Default)]
pub(crate) struct LiveText {
    text: String,
    /// An incomplete UTF-8 sequence at the end of the last read, completed by the next one.
    utf8_carry: Vec<u8>,
    /// Arrival of the first byte of `text` (or of the carry that starts it).
    first_arrival: Option<(SystemTime, Instant)>,
    /// The bytes before `text` did not end with `\n`: it continues an open line.
    starts_mid_line: bool,
}

/// What one publication carries.
#[derive(Debug, PartialEq)]
pub(crate) struct LivePiece {
    pub(crate) text: String,
    pub(crate) at: SystemTime,
    pub(crate) arrived: Instant,
    pub(crate) continues_line: bool,
}

impl LiveText {
    /// Takes one read. With nobody observing, nothing is decoded or kept; only whether the
    /// stream stands in the middle of a line is tracked, for a later observer's first chunk.
    pub(crate) fn push(&mut self, data: &[u8], at: SystemTime, now: Instant, observed: bool) {
        if data.is_empty() {
            return;
        }
        if !observed {
            self.text.clear();
            self.utf8_carry.clear();
            self.first_arrival = None;
            self.starts_mid_line = data.last() != Some(&b'\n');
            return;
        }
        self.first_arrival.get_or_insert((at, now));
        if self.utf8_carry.is_empty() {
            decode_into(data, &mut self.text, &mut self.utf8_carry);
        } else {
            let mut joined = std::mem::take(&mut self.utf8_carry);
            joined.extend_from_slice(data);
            decode_into(&joined, &mut self.text, &mut self.utf8_carry);
        }
    }

    /// Whether the waiting text should go out before a read of `incoming` bytes is added, so
    /// that a chunk stays within about one read.
    pub(crate) fn publish_before(&self, incoming: usize) -> bool {
        !self.text.is_empty() && self.text.len() + incoming > PARTIAL_LINE_MAX_BYTES
    }

    /// Whether the waiting text should go out now, after a read that did (`completed_line`) or
    /// did not complete a line.
    pub(crate) fn publish_now(&self, completed_line: bool, now: Instant) -> bool {
        !self.text.is_empty()
            && (completed_line
                || self.text.len() >= PARTIAL_LINE_MAX_BYTES
                || self.due().is_some_and(|due| now >= due))
    }

    /// When the waiting partial text is due at the latest; None when nothing waits.
    pub(crate) fn due(&self) -> Option<Instant> {
        if self.text.is_empty() {
            return None;
        }
        let (_, arrived) = self.first_arrival?;
        Some(arrived + PARTIAL_LINE_DELAY)
    }

    /// The end of the stream: an unfinished UTF-8 sequence becomes U+FFFD.
    pub fn finish(&mut self) {
        if !self.utf8_carry.is_empty() {
            self.utf8_carry.clear();
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
    }

    /// Hands out the waiting text (None when there is none).
    pub(crate) fn take(&mut self) -> Option<LivePiece> {
        if self.text.is_empty() {
            return None;
        }
        let text = std::mem::take(&mut self.text);
        // Set by `push` for every observed read; the fallback is never expected.
        let (at, arrived) = self
            .first_arrival
            .take()
            .unwrap_or_else(|| (SystemTime::now(), Instant::now()));
        let continues_line = self.starts_mid_line;
        self.starts_mid_line = !text.ends_with('\n');
        Some(LivePiece {
            text,
            at,
            arrived,
            continues_line,
        })
    }
}

/// Lossy UTF-8 like `String::from_utf8_lossy`, except that an incomplete sequence at the very
/// end is kept in `carry` (the next read may complete it).
fn decode_into(mut bytes: &[u8], out: &mut String, carry: &mut Vec<u8>) {
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                return;
            }
            Err(err) => {
                let valid = err.valid_up_to();
                out.push_str(&String::from_utf8_lossy(&bytes[..valid]));
                match err.error_len() {
                    Some(len) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        bytes = &bytes[valid + len..];
                    }
                    None => {
                        carry.extend_from_slice(&bytes[valid..]);
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn feed(live: &mut LiveText, data: &[u8]) {
        live.push(data, SystemTime::now(), Instant::now(), true);
    }

    #[test]
    fn a_split_char_waits_for_its_last_byte() {
        let mut live = LiveText::default();
        let bytes = "aé".as_bytes();
        feed(&mut live, &bytes[..2]);
        let first = live.take().map(|piece| piece.text);
        assert_eq!(first.as_deref(), Some("a"));
        feed(&mut live, &bytes[2..]);
        let second = live.take().map(|piece| piece.text);
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
        assert!(second.is_some_and(|piece| piece.continues_line && piece.text == "ok\nnext"));
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
                .is_some_and(|piece| piece.continues_line && piece.text == " done\n")
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
        assert!(piece.is_some_and(|piece| piece.text == "err 1\n" && piece.arrived == start));
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
        assert!(live.take().is_some_and(|piece| piece.text == "10%\r20%"));
        live.push(b"x", SystemTime::now(), later, true);
        assert!(!live.publish_before(100));
        assert!(live.publish_before(PARTIAL_LINE_MAX_BYTES));
    }

    #[test]
    fn finish_turns_an_unfinished_char_into_a_replacement() {
        let mut live = LiveText::default();
        feed(&mut live, b"x\xe2\x82");
        live.finish();
        let piece = live.take().map(|piece| piece.text);
        assert_eq!(piece.as_deref(), Some("x\u{fffd}"));
    }

    proptest! {
        #[test]
        fn pieces_join_to_the_lossy_text(
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
            let mut joined = String::new();
            let mut last = 0;
            for point in points.into_iter().chain([data.len()]) {
                feed(&mut live, &data[last..point]);
                last = point;
                if let Some(piece) = live.take() {
                    joined.push_str(&piece.text);
                }
            }
            live.finish();
            if let Some(piece) = live.take() {
                joined.push_str(&piece.text);
            }
            prop_assert_eq!(joined, String::from_utf8_lossy(&data).into_owned());
        }
    }
}
