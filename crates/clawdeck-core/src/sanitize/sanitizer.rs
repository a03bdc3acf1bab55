//! Child output is untrusted input. This state machine turns raw bytes into text that holds only
//! printable text and SGR colour sequences (`ESC [ … m`); every other control sequence (cursor
//! moves, clears, OSC title / clipboard / hyperlinks, DCS, SOS/PM/APC, C1 controls) is dropped.
//! `\r` without `\n` makes the next segment replace the line (progress bars: last segment wins);
//! tabs become spaces up to the next multiple of eight.

/// Longest line kept as one line; longer ones continue on the next line.
pub(crate) const MAX_LINE_CHARS: usize = 4096;
/// Longest CSI sequence accepted; longer ones are dropped whole.
const MAX_CSI_LEN: usize = 64;
/// An unterminated OSC/DCS string is given up on after this many chars (its text is dropped).
const MAX_STRING_LEN: usize = 64 * 1024;
/// Active SGR state carried to the next line is capped (older sequences dropped first).
const MAX_CARRY_LEN: usize = 256;
const TAB_WIDTH: usize = 8;

/// One finished (or partial) line: printable text with SGR sequences only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanLine {
    pub text: String,
    /// Whether `text` holds any SGR sequence (plain lines skip the ANSI parser when drawn).
    pub styled: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Ground,
    Escape,
    /// `ESC` followed by intermediates (`ESC ( B`, `ESC # 8`): dropped up to the final byte.
    EscIntermediate,
    Csi,
    /// A CSI that is not a plain SGR (or too long): dropped up to its final byte.
    CsiIgnore,
    /// OSC / DCS / SOS / PM / APC payload, dropped up to ST (`ESC \`, 0x9C) or BEL (OSC).
    String,
    /// `ESC` seen inside a string: `\` ends it.
    StringEscape,
}

/// What the sanitizer produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Finished lines (the console): `\r` makes the next segment replace the line, tabs expand,
    /// long lines are split.
    Lines,
    /// A byte stream for a terminal or a reader: text, `\n` and `\t` pass; `\r` passes when
    /// `keep_cr`; SGR passes when `keep_sgr`. Nothing else does.
    Stream { keep_sgr: bool, keep_cr: bool },
}

/// Per-stream sanitizer; keep one for stdout and one for stderr so partial lines never mix.
#[derive(Debug, Clone)]
pub struct Sanitizer {
    shape: Shape,
    /// Stream shape: the text produced since the last `take_stream`.
    stream: String,
    state: State,
    line: String,
    line_chars: usize,
    line_styled: bool,
    pending_cr: bool,
    csi: String,
    string_len: usize,
    /// SGR sequences in force (since the last reset); prefixed to each new line.
    active_sgr: String,
    /// Stream shape: an SGR passed that no reset has ended yet (so whatever we write next
    /// would be drawn with it; `close_stream` ends it).
    stream_open: bool,
    /// Trailing bytes of an incomplete UTF-8 sequence from the previous chunk.
    utf8_tail: Vec<u8>,
    /// Control sequences and control characters dropped so far.
    pub neutralised: u64,
}

impl Default for Sanitizer {
    fn default() -> Self {
        Sanitizer {
            shape: Shape::Lines,
            stream: String::new(),
            state: State::Ground,
            line: String::new(),
            line_chars: 0,
            line_styled: false,
            pending_cr: false,
            csi: String::new(),
            string_len: 0,
            active_sgr: String::new(),
            stream_open: false,
            utf8_tail: Vec::new(),
            neutralised: 0,
        }
    }
}

impl Sanitizer {
    pub fn new() -> Self {
        Self::default()
    }

    /// A sanitizer producing a stream (see [`Shape::Stream`]); read it with `take_stream`.
    pub(crate) fn stream(keep_sgr: bool, keep_cr: bool) -> Self {
        Sanitizer {
            shape: Shape::Stream { keep_sgr, keep_cr },
            ..Self::default()
        }
    }

    /// Stream shape: the safe text produced so far (a split escape or UTF-8 sequence waits for
    /// the next chunk).
    pub(crate) fn take_stream(&mut self) -> String {
        std::mem::take(&mut self.stream)
    }

    /// Stream shape: ends the attributes the text left on (a reset), so what is written after
    /// it looks as its writer meant.
    pub(crate) fn close_stream(&mut self) {
        if std::mem::take(&mut self.stream_open) {
            self.stream.push_str("\u{1b}[0m");
        }
    }

    /// Feeds raw bytes (UTF-8 decoded lossily; a sequence split across chunks is joined).
    pub fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<CleanLine>) {
        let mut buf;
        let data: &[u8] = if self.utf8_tail.is_empty() {
            bytes
        } else {
            buf = std::mem::take(&mut self.utf8_tail);
            buf.extend_from_slice(bytes);
            &buf
        };
        let keep = incomplete_utf8_suffix(data);
        let (complete, tail) = data.split_at(data.len() - keep);
        let text = String::from_utf8_lossy(complete);
        let tail = tail.to_vec();
        self.feed_str(&text, out);
        self.utf8_tail = tail;
    }

    /// Feeds already-decoded text.
    pub(crate) fn feed_str(&mut self, text: &str, out: &mut Vec<CleanLine>) {
        for c in text.chars() {
            self.step(c, out);
        }
    }

    /// The current unfinished line, if it has visible text.
    pub fn partial(&self) -> Option<CleanLine> {
        if self.line_chars == 0 {
            return None;
        }
        Some(CleanLine {
            text: self.line.clone(),
            styled: self.line_styled,
        })
    }

    /// Ends the stream: flushes the partial line (a child's last line often has no newline).
    pub fn finish(&mut self, out: &mut Vec<CleanLine>) {
        if !self.utf8_tail.is_empty() {
            self.utf8_tail.clear();
            self.push_char('\u{FFFD}', out);
        }
        if self.line_chars > 0 && self.shape == Shape::Lines {
            self.end_line(out);
        }
        self.state = State::Ground;
    }

    fn step(&mut self, c: char, out: &mut Vec<CleanLine>) {
        match self.state {
            State::Ground => self.ground(c, out),
            State::Escape => self.escape(c),
            State::EscIntermediate => {
                if ('\u{30}'..='\u{7e}').contains(&c) {
                    self.state = State::Ground;
                } else if !('\u{20}'..='\u{2f}').contains(&c) {
                    self.state = State::Ground;
                    self.ground(c, out);
                }
            }
            State::Csi | State::CsiIgnore => self.csi(c, out),
            State::String => match c {
                '\u{07}' | '\u{9c}' => self.state = State::Ground,
                '\u{1b}' => self.state = State::StringEscape,
                '\u{18}' | '\u{1a}' => self.state = State::Ground,
                _ => {
                    self.string_len += 1;
                    if self.string_len > MAX_STRING_LEN {
                        self.state = State::Ground;
                    }
                }
            },
            State::StringEscape => {
                // `ESC \` is ST; any other ESC sequence also ends the string (as xterm does).
                self.state = State::Ground;
                if c != '\\' {
                    self.state = State::Escape;
                    self.escape(c);
                }
            }
        }
    }

    fn ground(&mut self, c: char, out: &mut Vec<CleanLine>) {
        if let Shape::Stream { keep_cr, .. } = self.shape {
            match c {
                '\n' | '\t' => return self.stream.push(c),
                '\r' if keep_cr => return self.stream.push(c),
                '\r' => return,
                _ => {}
            }
        }
        match c {
            '\n' => {
                self.pending_cr = false;
                self.end_line(out);
            }
            '\r' => self.pending_cr = true,
            '\t' => {
                let spaces = TAB_WIDTH - (self.line_chars % TAB_WIDTH);
                for _ in 0..spaces {
                    self.push_char(' ', out);
                }
            }
            '\u{1b}' => {
                self.state = State::Escape;
            }
            '\u{9b}' => self.begin_csi(),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => self.begin_string(),
            c if (c as u32) < 0x20 || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) => {
                self.neutralised += 1;
            }
            c => self.push_char(c, out),
        }
    }

    fn escape(&mut self, c: char) {
        match c {
            '[' => self.begin_csi(),
            ']' | 'P' | 'X' | '^' | '_' => self.begin_string(),
            '\u{20}'..='\u{2f}' => {
                self.neutralised += 1;
                self.state = State::EscIntermediate;
            }
            '\u{1b}' => {
                self.neutralised += 1;
            }
            _ => {
                // A two-char escape (ESC 7, ESC c, ESC M, ...): dropped.
                self.neutralised += 1;
                self.state = State::Ground;
            }
        }
    }

    fn begin_csi(&mut self) {
        self.csi.clear();
        self.state = State::Csi;
    }

    fn begin_string(&mut self) {
        self.neutralised += 1;
        self.string_len = 0;
        self.state = State::String;
    }

    fn csi(&mut self, c: char, out: &mut Vec<CleanLine>) {
        match c {
            '\u{40}'..='\u{7e}' => {
                let keep = self.state == State::Csi && c == 'm';
                self.state = State::Ground;
                if keep {
                    self.apply_sgr(out);
                } else {
                    self.neutralised += 1;
                }
            }
            '\u{18}' | '\u{1a}' => {
                self.neutralised += 1;
                self.state = State::Ground;
            }
            '\u{1b}' => {
                self.neutralised += 1;
                self.state = State::Escape;
            }
            c if (c as u32) < 0x20 => {
                // C0 controls inside a CSI are executed by terminals; here they are dropped.
                self.neutralised += 1;
            }
            c => {
                // Only digits, `;` and `:` make an SGR; anything else (private `?`, intermediates)
                // turns the sequence into one to drop.
                let sgr_param = c.is_ascii_digit() || c == ';' || c == ':';
                if self.state == State::Csi && sgr_param && self.csi.len() < MAX_CSI_LEN {
                    self.csi.push(c);
                } else {
                    self.state = State::CsiIgnore;
                }
            }
        }
    }

    fn apply_sgr(&mut self, _out: &mut Vec<CleanLine>) {
        let Some(params) = without_concealing(&std::mem::take(&mut self.csi)) else {
            // Only "hide the text": dropped, so nothing after it can be made invisible.
            self.neutralised += 1;
            return;
        };
        let seq = format!("\u{1b}[{params}m");
        let resets = params.is_empty()
            || params == "0"
            || params.split(';').all(|p| p.is_empty() || p == "0");
        if let Shape::Stream { keep_sgr, .. } = self.shape {
            if keep_sgr {
                self.stream.push_str(&seq);
                self.stream_open = !resets;
            }
            return;
        }
        self.take_pending_cr();
        if resets {
            self.active_sgr.clear();
        } else if params.starts_with("0;") {
            self.active_sgr = seq.clone();
        } else {
            self.active_sgr.push_str(&seq);
            while self.active_sgr.len() > MAX_CARRY_LEN {
                // Drop the oldest sequence; the newest settings matter most.
                match self.active_sgr[1..].find('\u{1b}') {
                    Some(next) => {
                        self.active_sgr.drain(..next + 1);
                    }
                    None => {
                        self.active_sgr.clear();
                        break;
                    }
                }
            }
        }
        self.line.push_str(&seq);
        self.line_styled = true;
    }

    fn take_pending_cr(&mut self) {
        if self.pending_cr {
            self.pending_cr = false;
            self.reset_line();
        }
    }

    fn push_char(&mut self, c: char, out: &mut Vec<CleanLine>) {
        if matches!(self.shape, Shape::Stream { .. }) {
            return self.stream.push(c);
        }
        self.take_pending_cr();
        if self.line_chars >= MAX_LINE_CHARS {
            self.end_line(out);
        }
        self.line.push(c);
        self.line_chars += 1;
    }

    fn end_line(&mut self, out: &mut Vec<CleanLine>) {
        let text = std::mem::take(&mut self.line);
        out.push(CleanLine {
            text,
            styled: self.line_styled,
        });
        self.reset_line();
    }

    /// Starts a fresh line carrying the SGR state in force.
    fn reset_line(&mut self) {
        self.line.clear();
        self.line.push_str(&self.active_sgr);
        self.line_styled = !self.active_sgr.is_empty();
        self.line_chars = 0;
    }
}

/// How many trailing bytes form the start of a UTF-8 sequence that the next chunk may complete.
fn incomplete_utf8_suffix(data: &[u8]) -> usize {
    let n = data.len();
    for back in 1..=3.min(n) {
        let b = data[n - back];
        if b & 0b1100_0000 == 0b1000_0000 {
            continue; // continuation byte: look further back
        }
        let need = if b & 0b1110_0000 == 0b1100_0000 {
            2
        } else if b & 0b1111_0000 == 0b1110_0000 {
            3
        } else if b & 0b1111_1000 == 0b1111_0000 {
            4
        } else {
            return 0;
        };
        return if need > back { back } else { 0 };
    }
    0
}

/// SGR parameters without conceal (8), which makes text invisible; `None` when nothing else
/// was asked (the sequence is then dropped: an emptied `ESC[m` would be a reset). The
/// colour forms `38;5;N` / `38;2;R;G;B` (and 48, 58) are kept whole, their numbers are not
/// attributes.
fn without_concealing(params: &str) -> Option<String> {
    let parts: Vec<&str> = params.split(';').collect();
    let mut kept: Vec<&str> = Vec::with_capacity(parts.len());
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i];
        let operands = match (part, parts.get(i + 1).copied()) {
            ("38" | "48" | "58", Some("5")) => 2,
            ("38" | "48" | "58", Some("2")) => 4,
            _ => 0,
        };
        if operands > 0 {
            let end = (i + 1 + operands).min(parts.len());
            kept.extend_from_slice(&parts[i..end]);
            i = end;
            continue;
        }
        if part.trim_start_matches('0') != "8" || part.is_empty() {
            kept.push(part);
        }
        i += 1;
    }
    if kept.is_empty() && !parts.iter().all(|p| p.is_empty()) {
        return None;
    }
    Some(kept.join(";"))
}

/// The visible text of a clean line (SGR sequences removed): for search and copy.
pub fn plain_text(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8]) -> Vec<String> {
        let mut s = Sanitizer::new();
        let mut out = Vec::new();
        s.feed_bytes(input, &mut out);
        s.finish(&mut out);
        out.into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn keeps_sgr_and_text() {
        assert_eq!(
            run(b"\x1b[31mred\x1b[0m plain\n"),
            vec!["\x1b[31mred\x1b[0m plain"]
        );
    }

    #[test]
    fn drops_cursor_moves_clears_and_private_modes() {
        let out = run(b"a\x1b[2J\x1b[H\x1b[10;5Hb\x1b[?1049h\x1b[?25lc\x1b[Kd\x1b7\x1b8\x1bce\n");
        assert_eq!(out, vec!["abcde"]);
    }

    #[test]
    fn drops_osc_title_clipboard_and_hyperlinks() {
        let out = run(b"x\x1b]0;evil title\x07y\x1b]52;c;ZXZpbA==\x1b\\z\x1b]8;;http://e.vil\x1b\\link\x1b]8;;\x1b\\\n");
        assert_eq!(out, vec!["xyzlink"]);
    }

    #[test]
    fn drops_dcs_apc_pm_sos_and_c1_controls() {
        let out = run("a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c\x1b^pm\x1b\\d\x1bXsos\x1b\\e\u{9b}2Jf\u{9d}0;t\u{9c}g\u{85}h\n".as_bytes());
        assert_eq!(out, vec!["abcdefgh"]);
    }

    #[test]
    fn carriage_return_last_segment_wins() {
        assert_eq!(run(b"10%\r50%\r100%\ndone\r\n"), vec!["100%", "done"]);
    }

    #[test]
    fn tabs_expand_to_eight_columns() {
        assert_eq!(run(b"a\tb\tc\n"), vec!["a       b       c"]);
    }

    #[test]
    fn sgr_state_carries_to_next_line_and_resets() {
        assert_eq!(
            run(b"\x1b[32mgreen\nstill\x1b[0m\nplain\n"),
            vec!["\x1b[32mgreen", "\x1b[32mstill\x1b[0m", "plain"]
        );
    }

    #[test]
    fn split_utf8_and_split_escape_across_chunks() {
        let mut s = Sanitizer::new();
        let mut out = Vec::new();
        let bytes = "é\x1b[31mx\x1b]0;t\x07\n".as_bytes();
        for b in bytes {
            s.feed_bytes(std::slice::from_ref(b), &mut out);
        }
        assert_eq!(out[0].text, "é\x1b[31mx");
    }

    #[test]
    fn invalid_utf8_becomes_replacement() {
        assert_eq!(run(b"a\xffb\n"), vec!["a\u{FFFD}b"]);
    }

    #[test]
    fn long_lines_are_split() {
        let long = "x".repeat(MAX_LINE_CHARS + 10);
        let out = run(long.as_bytes());
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].len(), 10);
    }

    #[test]
    fn unterminated_osc_gives_up_after_cap() {
        let mut input = b"\x1b]0;".to_vec();
        input.extend(std::iter::repeat_n(b'a', MAX_STRING_LEN + 5));
        // `0;` and the first MAX_STRING_LEN - 1 `a`s are the payload; the cap's char is dropped
        // too; the rest shows up as text.
        let out = run(&input);
        assert_eq!(out, vec!["aaaaaa"]);
    }

    #[test]
    fn plain_text_strips_sgr() {
        assert_eq!(plain_text("\x1b[1;31mhi\x1b[0m there"), "hi there");
    }

    proptest::proptest! {
        #[test]
        fn output_never_holds_non_sgr_controls(input in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            for line in run(&input) {
                let plain = plain_text(&line);
                proptest::prop_assert!(!plain.chars().any(|c| (c as u32) < 0x20 || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c)), "{line:?}");
                // every ESC left is the start of an SGR `ESC [ digits ; : m`
                let mut rest = line.as_str();
                while let Some(pos) = rest.find('\u{1b}') {
                    let seq = &rest[pos + 1..];
                    proptest::prop_assert!(seq.starts_with('['));
                    let end = seq.find('m');
                    proptest::prop_assert!(end.is_some());
                    let end = end.unwrap_or(0);
                    proptest::prop_assert!(seq[1..end].chars().all(|c| c.is_ascii_digit() || c == ';' || c == ':'));
                    rest = &seq[end..];
                }
            }
        }
    }
}
