//! Shell quote decoding, as OpenClaw's explainer does it (`extract.ts`): unquoted text with
//! backslash escapes, `"..."`, `'...'` and `$'...'`. Each decoded text keeps, for every byte of
//! its value, where that byte ends in the source, so a shell wrapper's payload can be mapped back
//! to the outer command line.

/// A decoded word and its source map: `offsets[i]` is the source offset where the decoded
/// value's byte `i` begins (`offsets[0]` the start), `offsets.len() == value.len() + 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text the shell would see.
    pub value: String,
    /// Source offsets, one more than the value's bytes.
    pub offsets: Vec<usize>,
}

impl Decoded {
    fn new(start: usize) -> Self {
        Decoded {
            value: String::new(),
            offsets: vec![start],
        }
    }

    /// Appends `text`, whose source ends at `source_end`.
    fn push(&mut self, text: &str, source_end: usize) {
        self.value.push_str(text);
        self.offsets
            .extend(std::iter::repeat_n(source_end, text.len()));
    }

    /// Moves the offset of the next value byte (a skipped line continuation).
    fn skip_to(&mut self, source: usize) {
        let at = self.value.len();
        if let Some(slot) = self.offsets.get_mut(at) {
            *slot = source;
        }
    }

    /// The identity map of `text` starting at `start`.
    pub fn identity(text: &str, start: usize) -> Self {
        Decoded {
            value: text.to_string(),
            offsets: (0..=text.len()).map(|i| start + i).collect(),
        }
    }
}

/// `text` as (byte offset, char) pairs with the char after each, for lookahead.
fn chars_with_next(text: &str) -> Vec<(usize, char)> {
    text.char_indices().collect()
}

/// Unquoted shell text: `\x` is `x`, a backslash-newline disappears.
pub fn decode_unquoted(text: &str) -> Decoded {
    let chars = chars_with_next(text);
    let mut out = Decoded::new(0);
    let mut i = 0;
    while i < chars.len() {
        let (at, ch) = chars[i];
        let next = chars.get(i + 1).map(|&(_, c)| c);
        if ch == '\\'
            && let Some(next) = next
        {
            if next == '\r' && chars.get(i + 2).map(|&(_, c)| c) == Some('\n') {
                out.skip_to(at + 3);
                i += 3;
                continue;
            }
            if next == '\n' || next == '\r' {
                out.skip_to(at + 2);
                i += 2;
                continue;
            }
            let mut buf = [0u8; 4];
            out.push(next.encode_utf8(&mut buf), at + 1 + next.len_utf8());
            i += 2;
            continue;
        }
        let mut buf = [0u8; 4];
        out.push(ch.encode_utf8(&mut buf), at + ch.len_utf8());
        i += 1;
    }
    out
}

/// A `"..."` string (quotes optional): only `\\ \" \$ \`` and backslash-newline are escapes.
pub fn decode_double_quoted(text: &str) -> Decoded {
    let quoted = text.starts_with('"') && text.ends_with('"');
    let (body, start) = if quoted {
        (text.get(1..text.len() - 1).unwrap_or(""), 1)
    } else {
        (text, 0)
    };
    let chars = chars_with_next(body);
    let mut out = Decoded::new(start);
    let mut i = 0;
    while i < chars.len() {
        let (at, ch) = chars[i];
        let source = start + at;
        let next = chars.get(i + 1).map(|&(_, c)| c);
        if ch == '\\'
            && let Some(next) = next
        {
            if next == '\r' && chars.get(i + 2).map(|&(_, c)| c) == Some('\n') {
                out.skip_to(source + 3);
                i += 3;
                continue;
            }
            if matches!(next, '\\' | '"' | '$' | '`' | '\n' | '\r') {
                if next == '\n' || next == '\r' {
                    out.skip_to(source + 2);
                } else {
                    let mut buf = [0u8; 4];
                    out.push(next.encode_utf8(&mut buf), source + 2);
                }
                i += 2;
                continue;
            }
        }
        let mut buf = [0u8; 4];
        out.push(ch.encode_utf8(&mut buf), source + ch.len_utf8());
        i += 1;
    }
    out
}

/// The simple one-letter escapes of `$'...'`.
fn ansi_c_simple(next: char) -> Option<char> {
    Some(match next {
        '\'' => '\'',
        '"' => '"',
        '?' => '?',
        '\\' => '\\',
        'a' => '\x07',
        'b' => '\x08',
        'e' | 'E' => '\x1b',
        'f' => '\x0c',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\x0b',
        _ => return None,
    })
}

/// The leading run (at most `max`) of chars in `text` that satisfy `pred`.
fn leading_run(text: &str, max: usize, pred: impl Fn(char) -> bool) -> &str {
    let end = text
        .char_indices()
        .take(max)
        .take_while(|&(_, c)| pred(c))
        .map(|(i, c)| i + c.len_utf8())
        .last()
        .unwrap_or(0);
    &text[..end]
}

/// A numeric escape of `$'...'` at `rest` (after the backslash): the decoded text and how many
/// bytes of `rest` it used, or None when `rest` starts no numeric escape.
fn ansi_c_numeric(rest: &str) -> Option<(String, usize)> {
    let mut chars = rest.chars();
    let kind = chars.next()?;
    let (digits, radix, skip) = match kind {
        'x' => (leading_run(&rest[1..], 2, |c| c.is_ascii_hexdigit()), 16, 1),
        'u' => (leading_run(&rest[1..], 4, |c| c.is_ascii_hexdigit()), 16, 1),
        'U' => (leading_run(&rest[1..], 8, |c| c.is_ascii_hexdigit()), 16, 1),
        '0'..='7' => (leading_run(rest, 3, |c| ('0'..='7').contains(&c)), 8, 0),
        _ => return None,
    };
    if digits.is_empty() {
        return None;
    }
    let code = u32::from_str_radix(digits, radix).ok()?;
    let text = match char::from_u32(code) {
        Some(c) => c.to_string(),
        // JavaScript keeps a lone surrogate; a Rust string cannot, so it becomes U+FFFD.
        None if code <= 0x10FFFF => '\u{FFFD}'.to_string(),
        None => format!("\\{kind}{digits}"),
    };
    Some((text, skip + digits.len()))
}

/// A `$'...'` string (quotes optional) with its C escapes.
pub fn decode_ansi_c(text: &str) -> Decoded {
    let quoted = text.starts_with("$'") && text.ends_with('\'');
    let (body, start) = if quoted {
        (text.get(2..text.len() - 1).unwrap_or(""), 2)
    } else {
        (text, 0)
    };
    let mut out = Decoded::new(start);
    let mut at = 0;
    while at < body.len() {
        let Some(ch) = body[at..].chars().next() else {
            break;
        };
        let source = start + at;
        if ch != '\\' {
            let mut buf = [0u8; 4];
            out.push(ch.encode_utf8(&mut buf), source + ch.len_utf8());
            at += ch.len_utf8();
            continue;
        }
        let rest = &body[at + 1..];
        let Some(next) = rest.chars().next() else {
            out.push("\\", source + 1);
            at += 1;
            continue;
        };
        if let Some(simple) = ansi_c_simple(next) {
            let mut buf = [0u8; 4];
            out.push(simple.encode_utf8(&mut buf), source + 2);
            at += 2;
            continue;
        }
        if let Some((text, used)) = ansi_c_numeric(rest) {
            out.push(&text, source + 1 + used);
            at += 1 + used;
            continue;
        }
        let mut buf = [0u8; 4];
        out.push(next.encode_utf8(&mut buf), source + 1 + next.len_utf8());
        at += 1 + next.len_utf8();
    }
    out
}

/// Whether unquoted text has an unescaped glob or brace pattern (`*`, `?`, `[..]`, `{..}`).
pub fn has_unescaped_dynamic_pattern(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'*' | b'?' => return true,
            b'[' if closes_after(text, i, ']') => return true,
            b'{' if closes_after(text, i, '}') => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether `close` occurs in `text` after `open_at + 1` (a non-empty bracket pair).
fn closes_after(text: &str, open_at: usize, close: char) -> bool {
    text.get(open_at + 1..)
        .and_then(|rest| rest.find(close))
        .is_some_and(|found| found > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_escapes_and_continuations() {
        assert_eq!(decode_unquoted(r"a\ b").value, "a b");
        let d = decode_unquoted("l\\\ns");
        assert_eq!(d.value, "ls");
        assert_eq!(d.offsets, vec![0, 3, 4]);
        assert_eq!(decode_unquoted("x\\").value, "x\\");
    }

    #[test]
    fn double_quotes_keep_other_backslashes() {
        assert_eq!(decode_double_quoted(r#""a\"b\n""#).value, "a\"b\\n");
        assert_eq!(decode_double_quoted(r#""$HOME""#).value, "$HOME");
        let d = decode_double_quoted("\"ab\"");
        assert_eq!(d.offsets, vec![1, 2, 3]);
    }

    #[test]
    fn ansi_c_escapes() {
        assert_eq!(decode_ansi_c(r"$'a\tb'").value, "a\tb");
        assert_eq!(decode_ansi_c(r"$'\x41\101\u00e9'").value, "AAé");
        assert_eq!(decode_ansi_c(r"$'\q'").value, "q");
        assert_eq!(decode_ansi_c(r"$'\xZ'").value, "xZ");
        assert_eq!(decode_ansi_c(r"$'\U110000'").value, "\\U110000");
        assert_eq!(decode_ansi_c(r"$'\ud800'").value, "\u{FFFD}");
        assert_eq!(decode_ansi_c("$'\\'").value, "\\");
    }

    #[test]
    fn invalid_escapes_never_panic() {
        for text in [
            "$'\\u",
            "$'\\x",
            "$'\\",
            "\\",
            "\"\\",
            "$'\\777\\U'",
            "é\\é",
            "\"é\\\"",
        ] {
            let _ = decode_ansi_c(text);
            let _ = decode_unquoted(text);
            let _ = decode_double_quoted(text);
            let _ = has_unescaped_dynamic_pattern(text);
        }
    }

    #[test]
    fn dynamic_patterns() {
        assert!(has_unescaped_dynamic_pattern("*.txt"));
        assert!(has_unescaped_dynamic_pattern("{a,b}"));
        assert!(!has_unescaped_dynamic_pattern(r"\*"));
        assert!(!has_unescaped_dynamic_pattern("[]"));
        assert!(!has_unescaped_dynamic_pattern("a-z"));
    }
}
