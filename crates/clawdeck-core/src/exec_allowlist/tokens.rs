//! Small token helpers shared by the wrapper, carrier and resolution code, each a copy of the
//! OpenClaw helper of the same job (`exec-wrapper-tokens.ts`, `inline-option-token.ts`).

/// The last component of a POSIX path (`path.posix.basename`: trailing slashes ignored).
pub fn posix_basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "";
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// The last component with either separator (`path.win32.basename`, drive prefix dropped).
fn win32_basename(path: &str) -> &str {
    let bytes = path.as_bytes();
    let path = if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        &path[2..]
    } else {
        path
    };
    let trimmed = path.trim_end_matches(['/', '\\']);
    if trimmed.is_empty() {
        return "";
    }
    trimmed.rsplit(['/', '\\']).next().unwrap_or(trimmed)
}

/// An executable token as wrapper and policy tables know it: the lower-cased basename (the
/// shorter of the POSIX and Windows readings) without a `.exe`/`.cmd`/`.bat`/`.com` suffix.
pub fn normalize_executable_token(token: &str) -> String {
    let posix = posix_basename(token);
    let win = win32_basename(token);
    let base = if win.len() < posix.len() { win } else { posix };
    let lower = base.trim().to_lowercase();
    for suffix in [".exe", ".cmd", ".bat", ".com"] {
        if let Some(stripped) = lower.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    lower
}

/// Whether `c` is a JavaScript regex line terminator (what `.` never matches).
fn is_js_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `NAME=value` (`/^[A-Za-z_][A-Za-z0-9_]*=.*$/u`: the value has no line break).
pub fn is_env_assignment_token(token: &str) -> bool {
    let Some((name, value)) = token.split_once('=') else {
        return false;
    };
    crate::dotenv::is_env_name(name) && !value.chars().any(is_js_line_terminator)
}

/// An option token split at its first `=`: the name and the inline value, if any.
pub fn parse_inline_option(token: &str) -> (&str, Option<&str>) {
    match token.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (token, None),
    }
}

/// JavaScript's `String.prototype.trim` white space (what OpenClaw trims tokens with).
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// `argv[index].trim()`, empty when out of range.
pub fn arg_trimmed(argv: &[String], index: usize) -> &str {
    argv.get(index).map_or("", |a| js_trim(a))
}

/// `argv[index]` untrimmed, empty when out of range.
pub fn arg(argv: &[String], index: usize) -> &str {
    argv.get(index).map_or("", String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_like_openclaw() {
        assert_eq!(normalize_executable_token("/usr/bin/Bash"), "bash");
        assert_eq!(normalize_executable_token("C:\\x\\pwsh.exe"), "pwsh");
        assert_eq!(normalize_executable_token("ls"), "ls");
        assert_eq!(normalize_executable_token("a/b/"), "b");
    }

    #[test]
    fn env_assignments() {
        assert!(is_env_assignment_token("A=1"));
        assert!(is_env_assignment_token("_x="));
        assert!(!is_env_assignment_token("1A=1"));
        assert!(!is_env_assignment_token("A=1\n"));
        assert!(!is_env_assignment_token("-A=1"));
    }
}
