//! Nesting depth of JSON5 text, checked before parsing: the parser and the value tree recurse
//! once per level, so a document nested tens of thousands of levels deep would overflow the
//! stack (an abort, not an error).

/// Deepest nesting of objects and arrays accepted (serde_json's own default limit).
pub(crate) const MAX_NESTING_DEPTH: usize = 128;

/// The 1-based line and column of the bracket that goes past `max` levels, if any. Strings and
/// comments are skipped; the text need not be valid (the parser reports that).
pub(crate) fn too_deep_at(text: &str, max: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut depth, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    let column = text[line_start..i].chars().count() + 1;
                    return Some((line, column));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    match bytes[i] {
                        b'\\' => {
                            // An escaped line break continues the string on the next line.
                            if bytes.get(i + 1) == Some(&b'\n') {
                                line += 1;
                                line_start = i + 2;
                            }
                            i += 1;
                        }
                        b'\n' => {
                            line += 1;
                            line_start = i + 1;
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_bracket_past_the_limit_outside_strings_and_comments() {
        assert_eq!(too_deep_at("[[[]]]", 3), None);
        assert_eq!(too_deep_at("[[[[]]]]", 3), Some((1, 4)));
        assert_eq!(
            too_deep_at("{a: \"[[[[\", // [[[[\n b: [[[\n[]]]]}", 3),
            Some((2, 7))
        );
        assert_eq!(too_deep_at("/* [[[[ */ 'x[[[['", 1), None);
        let deep = "[".repeat(30_000);
        assert_eq!(too_deep_at(&deep, MAX_NESTING_DEPTH), Some((1, 129)));
    }
}
