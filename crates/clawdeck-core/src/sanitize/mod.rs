//! Text from untrusted sources (child output, tool results, plugin descriptions, config keys)
//! on its way to a terminal or a model. One sanitizer (`sanitize`) serves the console's line
//! buffers, `route` / `invoke` / `prompt` output and the router's clean view, so they agree on
//! what passes: printable text, newlines, tabs, and (for terminals) SGR colours.

pub mod sanitizer;
pub mod visible;

use std::io::IsTerminal;

pub use sanitizer::{CleanLine, Sanitizer, plain_text};
pub use visible::{HIDDEN_CHARS_WARNING, VisibleText, escape_hidden_in_json, visible};

/// Which of the two output streams of a process (a child's or our own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StdStream {
    Stdout,
    Stderr,
}

impl StdStream {
    pub fn as_str(self) -> &'static str {
        match self {
            StdStream::Stdout => "stdout",
            StdStream::Stderr => "stderr",
        }
    }
}

/// What a terminal may be sent: text, `\n`, `\t`, `\r` and SGR colours; every other control
/// sequence and control character is dropped.
/// Attributes the text leaves on are reset at its end, and conceal is dropped, so nothing
/// written after it is hidden or restyled.
pub(crate) fn for_terminal(text: &str) -> String {
    neutralised(text, true)
}

fn neutralised(text: &str, keep_cr: bool) -> String {
    let mut s = Sanitizer::stream(true, keep_cr);
    let mut sink = Vec::new();
    s.feed_str(text, &mut sink);
    s.finish(&mut sink);
    s.close_stream();
    s.take_stream()
}

/// Finished lines (a table, a warning) as a terminal may be sent them: like [`for_terminal`],
/// and a carriage return is dropped too (it would let a later part of a line overwrite an
/// earlier one).
pub(crate) fn for_terminal_lines(text: &str) -> String {
    neutralised(text, false)
}

/// What a reader (or a model) is given: the visible text only (no SGR, no `\r`), newlines and
/// tabs kept.
pub fn plain(text: &str) -> String {
    let mut s = Sanitizer::stream(false, false);
    let mut sink = Vec::new();
    s.feed_str(text, &mut sink);
    s.finish(&mut sink);
    s.take_stream()
}

/// A warning (it may quote config keys or plugin text) as it may go to our stderr: neutralised
/// when stderr is a terminal.
pub fn for_terminal_if_tty_stderr(text: &str) -> std::borrow::Cow<'_, str> {
    OutputGuard::detect(false).lines(StdStream::Stderr, text)
}

/// How our own output treats untrusted text: neutralised when the stream is a terminal, exact
/// bytes when it is a pipe or a file, or when the operator asked for `--raw`.
#[derive(Debug, Clone, Copy)]
pub struct OutputGuard {
    stdout: bool,
    stderr: bool,
}

impl OutputGuard {
    /// Decides from the process's own stdout / stderr; `raw` turns neutralising off.
    pub fn detect(raw: bool) -> OutputGuard {
        OutputGuard {
            stdout: !raw && std::io::stdout().is_terminal(),
            stderr: !raw && std::io::stderr().is_terminal(),
        }
    }

    /// A guard that neutralises on both streams (or on neither).
    pub fn fixed(neutralise: bool) -> OutputGuard {
        OutputGuard {
            stdout: neutralise,
            stderr: neutralise,
        }
    }

    pub fn neutralises(&self, stream: StdStream) -> bool {
        match stream {
            StdStream::Stdout => self.stdout,
            StdStream::Stderr => self.stderr,
        }
    }

    /// The text as it may be written to `stream`.
    pub fn text<'a>(&self, stream: StdStream, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.neutralises(stream) && text.chars().any(needs_check) {
            std::borrow::Cow::Owned(for_terminal(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// Finished lines (tables, warnings, errors quoting config or gateway text) as they may be
    /// written to `stream`: see [`for_terminal_lines`].
    pub fn lines<'a>(&self, stream: StdStream, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.neutralises(stream) && text.chars().any(needs_check) {
            std::borrow::Cow::Owned(for_terminal_lines(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// A streaming filter for `stream` (live child output split across chunks).
    pub fn filter(&self, stream: StdStream) -> StreamFilter {
        StreamFilter {
            sanitizer: self
                .neutralises(stream)
                .then(|| Sanitizer::stream(true, true)),
        }
    }
}

/// Characters the fast path cannot let through unexamined.
fn needs_check(c: char) -> bool {
    (c as u32) < 0x20 && c != '\n' && c != '\t' || ('\u{7f}'..='\u{9f}').contains(&c)
}

/// Live output on its way to one of our streams: sanitized when that stream is a terminal.
pub struct StreamFilter {
    sanitizer: Option<Sanitizer>,
}

impl StreamFilter {
    /// The bytes to write for this chunk (raw when not neutralising).
    pub fn feed<'a>(&mut self, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        match &mut self.sanitizer {
            None => std::borrow::Cow::Borrowed(bytes),
            Some(s) => {
                let mut sink = Vec::new();
                s.feed_bytes(bytes, &mut sink);
                std::borrow::Cow::Owned(s.take_stream().into_bytes())
            }
        }
    }

    /// What ends the attributes the text so far left on (a reset, or nothing): written before
    /// a line of our own, so the stream cannot hide or restyle it.
    pub fn close(&mut self) -> Vec<u8> {
        match &mut self.sanitizer {
            None => Vec::new(),
            Some(s) => {
                s.close_stream();
                s.take_stream().into_bytes()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "title\x1b]0;pwned\x07 clip\x1b]52;c;aGk=\x1b\\ dcs\x1bPq#0\x1b\\ apc\x1b_x\x1b\\ \x1b[31mred\x1b[0m \x1b[2J\x1b[?1049h\x07\x08\u{9b}2J end\r\n";

    #[test]
    fn terminal_text_keeps_sgr_and_drops_everything_else() {
        let out = for_terminal(HOSTILE);
        assert_eq!(out, "title clip dcs apc \x1b[31mred\x1b[0m  end\r\n");
    }

    #[test]
    fn plain_text_has_no_escape_at_all() {
        let out = plain(HOSTILE);
        assert_eq!(out, "title clip dcs apc red  end\n");
        assert!(!out.contains('\x1b'));
    }

    #[test]
    fn a_sequence_split_across_chunks_is_still_dropped() {
        let mut filter = OutputGuard::fixed(true).filter(StdStream::Stdout);
        let mut out = Vec::new();
        for chunk in [
            &b"a\x1b]0;ti"[..],
            b"tle\x07b\x1b[3",
            b"2mc\xe2\x82",
            b"\xac\n",
        ] {
            out.extend_from_slice(&filter.feed(chunk));
        }
        assert_eq!(String::from_utf8_lossy(&out), "ab\x1b[32mc€\n");
    }

    /// Untrusted text ends where it began: conceal is dropped (alone, or among other
    /// attributes), colour index 8 is not conceal, and what is left on is reset at the end.
    #[test]
    fn conceal_is_dropped_and_open_attributes_are_reset_at_the_end() {
        assert_eq!(for_terminal("reply\x1b[8m"), "reply");
        assert_eq!(for_terminal("a\x1b[1;8;31mb"), "a\x1b[1;31mb\x1b[0m");
        assert_eq!(for_terminal("a\x1b[08mb"), "ab");
        assert_eq!(
            for_terminal("\x1b[38;5;8mgrey\x1b[48;2;8;8;8m"),
            "\x1b[38;5;8mgrey\x1b[48;2;8;8;8m\x1b[0m"
        );
        assert_eq!(for_terminal("\x1b[31mred\x1b[0m"), "\x1b[31mred\x1b[0m");
        assert_eq!(for_terminal_lines("\x1b[7mx\n"), "\x1b[7mx\n\x1b[0m");
        let mut filter = OutputGuard::fixed(true).filter(StdStream::Stdout);
        assert_eq!(&*filter.feed(b"\x1b[5;8mblink"), b"\x1b[5mblink");
        assert_eq!(filter.close(), b"\x1b[0m");
        assert_eq!(filter.close(), b"", "closed once");
        assert!(
            OutputGuard::fixed(false)
                .filter(StdStream::Stdout)
                .close()
                .is_empty()
        );
    }

    #[test]
    fn not_neutralising_passes_bytes_exactly() {
        let guard = OutputGuard::fixed(false);
        assert_eq!(guard.text(StdStream::Stdout, HOSTILE), HOSTILE);
        let mut filter = guard.filter(StdStream::Stderr);
        assert_eq!(
            &*filter.feed(b"\x1b]52;c;x\x07\xff"),
            b"\x1b]52;c;x\x07\xff"
        );
    }
}
