//! Shell wrappers (`bash -c '...'`, `pwsh -Command ...`, `cmd /c ...`): finding the inline
//! payload and the startup flags (login, interactive) that make it unbindable, as OpenClaw's
//! `shell-inline-command.ts` and `shell-wrapper-resolution.ts` do.

use super::carriers::unwrap_multiplexer;
use super::dispatch::{Unwrap, unwrap_dispatch};
use super::shells::{Kind, POSIX_SHELLS, wrapper_kind};
pub use super::shells::{is_opaque_posix_shell, is_parseable_shell, is_shell_wrapper_executable};
use super::tokens::{arg, arg_trimmed, js_trim, normalize_executable_token};

/// Shells whose startup files OpenClaw cannot see past.
const OPAQUE_STARTUP_SHELLS: &[&str] = &["csh", "osh", "tcsh"];
/// `-c` and its long spellings.
pub const POSIX_INLINE_FLAGS: &[&str] = &["-lc", "-c", "--command", "--commands", "--cmdline"];
const NUSHELL_EXTRA_FLAGS: &[&str] = &["-e", "--execute"];
const NUSHELL_STARTUP_VALUE_OPTIONS: &[&str] =
    &["--config", "--env-config", "--plugin-config", "--plugins"];
const POSIX_SEPARATE_VALUE_OPTIONS: &[&str] = &["--init-file", "--rcfile", "-O", "-o", "+O", "+o"];

/// How an inline-command scan treats the options before the command flag.
#[derive(Default)]
pub struct InlineScan<'a> {
    /// POSIX: `-xc` counts as `-c`, option values are skipped by their letters.
    pub allow_combined_c: bool,
    /// Flags whose command is the rest of argv (PowerShell's `-Command`).
    pub rest_value: Option<&'a dyn Fn(&str) -> bool>,
    /// Stop at the first non-option (PowerShell).
    pub stop_at_first_non_option: bool,
    /// Options that take the next token (PowerShell).
    pub value_option: Option<&'a dyn Fn(&str) -> bool>,
    /// What counts as an option token (default: `-` or `+` first).
    pub is_option: Option<&'a dyn Fn(&str) -> bool>,
}

/// The inline command a scan found, and the index of its value token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InlineMatch {
    /// The command text (trimmed, never empty).
    pub command: Option<String>,
    /// Where the command's value starts.
    pub value_index: Option<usize>,
}

fn non_empty(text: &str) -> Option<String> {
    let trimmed = js_trim(text);
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// `resolveInlineCommandMatch`: the first inline-command flag and its value.
pub fn inline_command_match(
    argv: &[String],
    is_flag: &dyn Fn(&str) -> bool,
    scan: &InlineScan,
) -> InlineMatch {
    let mut i = 1;
    while i < argv.len() {
        let token = arg_trimmed(argv, i);
        if token.is_empty() {
            i += 1;
            continue;
        }
        let lower = token.to_lowercase();
        if lower == "--" {
            break;
        }
        let comparable = if scan.allow_combined_c {
            token
        } else {
            lower.as_str()
        };
        if is_flag(comparable) {
            let value_index = (i + 1 < argv.len()).then_some(i + 1);
            if scan.rest_value.is_some_and(|rest| rest(comparable)) {
                let rest: Vec<&str> = argv[i + 1..].iter().map(|a| js_trim(a)).collect();
                let command = non_empty(&rest.join(" "));
                return InlineMatch {
                    command,
                    value_index,
                };
            }
            let command = argv.get(i + 1).and_then(|a| non_empty(a));
            return InlineMatch {
                command,
                value_index,
            };
        }
        if scan.allow_combined_c
            && let Some(combined) = parse_combined_command_flag(token)
        {
            if let Some(attached) = combined.attached {
                return InlineMatch {
                    command: non_empty(&attached),
                    value_index: Some(i),
                };
            }
            let value_index = i + 1 + combined.separate_values;
            return InlineMatch {
                command: argv.get(value_index).and_then(|a| non_empty(a)),
                value_index: Some(value_index),
            };
        }
        if scan.value_option.is_some_and(|f| f(&lower)) {
            i += 2;
            continue;
        }
        let is_option = match scan.is_option {
            Some(f) => f(token),
            None => token.starts_with('-') || token.starts_with('+'),
        };
        if scan.stop_at_first_non_option && !is_option {
            break;
        }
        if scan.allow_combined_c && !token.starts_with('-') && !token.starts_with('+') {
            break;
        }
        i += if scan.allow_combined_c {
            advance_posix_option_scan(token)
        } else {
            1
        };
    }
    InlineMatch::default()
}

/// `resolvePowerShellInlineCommandMatch`: `-Command` and the rest of PowerShell's inline
/// flags, options and their values as `super::powershell` spells them.
pub fn powershell_inline_match(argv: &[String]) -> InlineMatch {
    use super::powershell::{is_command_flag, is_inline_flag, is_option_token, is_value_option};
    let scan = InlineScan {
        allow_combined_c: false,
        rest_value: Some(&is_command_flag),
        stop_at_first_non_option: true,
        value_option: Some(&is_value_option),
        is_option: Some(&is_option_token),
    };
    inline_command_match(argv, &is_inline_flag, &scan)
}

/// A `-xc`-style cluster: the command attached after `c`, or how many values its `o`/`O`
/// letters take from the following tokens.
struct Combined {
    attached: Option<String>,
    separate_values: usize,
}

fn count_separate_value_letters(token: &str) -> usize {
    token
        .chars()
        .skip(1)
        .filter(|&c| c == 'o' || c == 'O')
        .count()
}

fn parse_combined_command_flag(token: &str) -> Option<Combined> {
    let bytes = token.as_bytes();
    if bytes.len() < 2 || bytes[0] != b'-' || bytes[1] == b'-' {
        return None;
    }
    let option_chars = &token[1..];
    let c_at = option_chars.find('c')?;
    if option_chars.contains('-') {
        return None;
    }
    let suffix = &option_chars[c_at + 1..];
    if !suffix.is_empty() && !suffix.chars().all(|c| c.is_ascii_alphabetic()) {
        return Some(Combined {
            attached: Some(suffix.to_string()),
            separate_values: 0,
        });
    }
    Some(Combined {
        attached: None,
        separate_values: count_separate_value_letters(token),
    })
}

/// Whether a token is a `-c` flag alone or in a cluster.
fn is_combined_command_flag(token: &str) -> bool {
    parse_combined_command_flag(token).is_some()
}

/// `advancePosixInlineOptionScan`: how many tokens an option takes.
pub fn advance_posix_option_scan(token: &str) -> usize {
    let bytes = token.as_bytes();
    let clustered = bytes.len() >= 2
        && (bytes[0] == b'-' || bytes[0] == b'+')
        && bytes[1] != b'-'
        && !token[1..].contains('-');
    let combined = if clustered {
        count_separate_value_letters(token)
    } else {
        0
    };
    if combined > 0 {
        1 + combined
    } else if POSIX_SEPARATE_VALUE_OPTIONS.contains(&token) {
        2
    } else {
        1
    }
}

/// `-x` or a cluster holding letter `option`.
fn is_posix_short_option(token: &str, option: char) -> bool {
    let bytes = token.as_bytes();
    if bytes.len() < 2 || bytes[0] != b'-' || bytes[1] == b'-' {
        return false;
    }
    !token[1..].contains('-') && token[1..].contains(option)
}

/// Whether a startup mode (`is_mode`) is switched on before the inline command flag.
fn startup_before_inline(argv: &[String], is_mode: impl Fn(&str) -> bool) -> bool {
    let mut seen = false;
    let mut i = 1;
    while i < argv.len() {
        let token = arg_trimmed(argv, i);
        if token.is_empty() {
            i += 1;
            continue;
        }
        if token == "--" {
            return false;
        }
        if is_mode(token) {
            seen = true;
        }
        if POSIX_INLINE_FLAGS.contains(&token) || is_combined_command_flag(token) {
            return seen;
        }
        if !token.starts_with('-') && !token.starts_with('+') {
            return false;
        }
        i += advance_posix_option_scan(token);
    }
    false
}

/// `-i`/`--interactive` before the command flag.
pub fn has_interactive_startup(argv: &[String]) -> bool {
    startup_before_inline(argv, |t| {
        t == "--interactive" || is_posix_short_option(t, 'i')
    })
}

/// `-l`/`--login` before the command flag (`-lc` included).
pub fn has_login_startup(argv: &[String]) -> bool {
    startup_before_inline(argv, |t| t == "--login" || is_posix_short_option(t, 'l'))
}

/// The shell argv a dispatch wrapper or multiplexer chain leads to (at most 4 deep).
pub fn shell_wrapper_candidate(argv: &[String], depth: usize) -> Option<Vec<String>> {
    if depth > 4 || arg_trimmed(argv, 0).is_empty() {
        return None;
    }
    match unwrap_dispatch(argv) {
        Unwrap::Blocked(_) => return None,
        Unwrap::Unwrapped(_, inner) => return shell_wrapper_candidate(&inner, depth + 1),
        Unwrap::NotWrapper => {}
    }
    match unwrap_multiplexer(argv) {
        Some(Err(_)) => None,
        Some(Ok(inner)) => shell_wrapper_candidate(&inner, depth + 1),
        None => Some(argv.to_vec()),
    }
}

/// `nu --commands=...`: the attached command.
fn nushell_attached(argv: &[String]) -> Option<String> {
    for i in 1..argv.len() {
        let token = arg_trimmed(argv, i);
        if token.is_empty() || token == "--" {
            return None;
        }
        if let Some((flag, value)) = token.split_once('=') {
            let flag = flag.to_lowercase();
            if flag.starts_with("--") && is_nushell_inline_flag(&flag) {
                return Some(value.to_string());
            }
        }
    }
    None
}

fn is_nushell_inline_flag(token: &str) -> bool {
    POSIX_INLINE_FLAGS.contains(&token) || NUSHELL_EXTRA_FLAGS.contains(&token)
}

fn is_nushell_boundary(token: &str) -> bool {
    let lower = token.to_lowercase();
    is_nushell_inline_flag(&lower)
        || lower
            .split_once('=')
            .is_some_and(|(flag, _)| flag.starts_with("--") && is_nushell_inline_flag(flag))
}

fn nushell_startup_option(argv: &[String]) -> bool {
    for i in 1..argv.len() {
        let token = js_trim(arg(argv, i)).to_lowercase();
        if token.is_empty() || token == "--" || is_nushell_boundary(&token) {
            return false;
        }
        let is_startup = NUSHELL_STARTUP_VALUE_OPTIONS
            .iter()
            .any(|o| token == *o || token.starts_with(&format!("{o}=")));
        if is_startup {
            return true;
        }
    }
    false
}

fn nushell_mode_before_inline(argv: &[String], long: &str, short: char) -> bool {
    let mut seen = false;
    for i in 1..argv.len() {
        let token = arg_trimmed(argv, i);
        if token.is_empty() || token == "--" {
            return false;
        }
        let lower = token.to_lowercase();
        let bytes = lower.as_bytes();
        let short_hit =
            bytes.len() >= 2 && bytes[0] == b'-' && bytes[1] != b'-' && lower[1..].contains(short);
        if lower == long || short_hit {
            seen = true;
        }
        if is_nushell_boundary(token) {
            return seen;
        }
        if !token.starts_with('-') && !token.starts_with('+') {
            return false;
        }
    }
    false
}

fn posix_payload(argv: &[String], base: &str) -> Option<String> {
    if OPAQUE_STARTUP_SHELLS.contains(&base) {
        return None;
    }
    let scan = InlineScan {
        allow_combined_c: true,
        ..InlineScan::default()
    };
    if base == "nu" {
        if nushell_startup_option(argv) {
            return None;
        }
        if let Some(attached) = nushell_attached(argv) {
            return non_empty(&attached);
        }
        return inline_command_match(argv, &|t| is_nushell_inline_flag(t), &scan).command;
    }
    inline_command_match(argv, &|t| POSIX_INLINE_FLAGS.contains(&t), &scan).command
}

fn cmd_payload(argv: &[String]) -> Option<String> {
    let idx = argv.iter().position(|item| {
        let token = js_trim(item).to_lowercase();
        matches!(token.as_str(), "/c" | "/k" | "-c" | "-k")
    })?;
    let tail = &argv[idx + 1..];
    if tail.is_empty() {
        return None;
    }
    non_empty(&tail.join(" "))
}

/// The shell's inline payload, whatever its family.
fn wrapper_payload(argv: &[String], kind: Kind, base: &str) -> Option<String> {
    match kind {
        Kind::Posix => posix_payload(argv, base),
        Kind::Cmd => cmd_payload(argv),
        Kind::PowerShell => powershell_inline_match(argv).command,
    }
}

/// `resolveShellWrapperSpecAndArgvInternal`: the shell argv and its payload.
pub fn wrapper_argv_and_payload(argv: &[String]) -> Option<(Vec<String>, String)> {
    let candidate = shell_wrapper_candidate(argv, 0)?;
    let base = normalize_executable_token(arg_trimmed(&candidate, 0));
    let kind = wrapper_kind(&base)?;
    let payload = wrapper_payload(&candidate, kind, &base)?;
    Some((candidate, payload))
}

/// `extractShellWrapperInlineCommand`: the payload, startup flags notwithstanding.
pub fn inline_command(argv: &[String]) -> Option<String> {
    wrapper_argv_and_payload(argv).map(|(_, payload)| payload)
}

fn fish_option(argv: &[String], hit: impl Fn(&str) -> bool) -> bool {
    for i in 1..argv.len() {
        let token = arg_trimmed(argv, i);
        if token.is_empty() {
            continue;
        }
        if token == "--" {
            return false;
        }
        if hit(token) {
            return true;
        }
        if !token.starts_with('-') && !token.starts_with('+') {
            return false;
        }
    }
    false
}

/// Startup that runs code before the payload (login, interactive, fish `-C`).
fn startup_requires_full_argv(argv: &[String], kind: Kind, base: &str) -> bool {
    if kind != Kind::Posix {
        return false;
    }
    let fish_init = |t: &str| {
        t == "-C"
            || t == "--init-command"
            || t.starts_with("-C")
            || t.starts_with("--init-command=")
    };
    if base == "fish" && fish_option(argv, fish_init) {
        return true;
    }
    if base == "nu" {
        return nushell_mode_before_inline(argv, "--login", 'l')
            || nushell_mode_before_inline(argv, "--interactive", 'i');
    }
    if POSIX_SHELLS.contains(&base) && has_login_startup(argv) {
        return true;
    }
    has_interactive_startup(argv)
}

/// `extractShellWrapperCommand` without raw text: (is a wrapper, its bindable payload).
pub fn shell_wrapper_command(argv: &[String]) -> (bool, Option<String>) {
    let Some(candidate) = shell_wrapper_candidate(argv, 0) else {
        return (false, None);
    };
    let base = normalize_executable_token(arg_trimmed(&candidate, 0));
    let Some(kind) = wrapper_kind(&base) else {
        return (false, None);
    };
    let Some(payload) = wrapper_payload(&candidate, kind, &base) else {
        return (false, None);
    };
    let fish_attached = |t: &str| t.starts_with("-c") && t != "-c";
    if kind == Kind::Posix && base == "fish" && fish_option(&candidate, fish_attached) {
        return (true, None);
    }
    if startup_requires_full_argv(&candidate, kind, &base) {
        return (true, None);
    }
    (true, Some(payload))
}

/// `extractBindableShellWrapperInlineCommand`.
pub fn bindable_inline_command(argv: &[String]) -> Option<String> {
    shell_wrapper_command(argv).1
}

/// The explainer's `shellCommandFlag`: the first flag that carries the command.
pub fn shell_command_flag(argv: &[String], start: usize) -> Option<(String, usize)> {
    let shell_token = argv
        .get(start.wrapping_sub(1))
        .or_else(|| argv.first())
        .map_or("", String::as_str);
    let shell = normalize_executable_token(shell_token);
    for index in start..argv.len() {
        let token = arg_trimmed(argv, index);
        if token.is_empty() {
            continue;
        }
        if token == "--" {
            break;
        }
        let lower = token.to_lowercase();
        let hit = match shell.as_str() {
            "cmd" => lower == "/c" || lower == "/k",
            "powershell" | "pwsh" => matches!(
                lower.as_str(),
                "-c" | "-command"
                    | "--command"
                    | "-encodedcommand"
                    | "-enc"
                    | "-e"
                    | "-f"
                    | "-file"
            ),
            _ => {
                lower == "-c"
                    || lower == "--command"
                    || (token.starts_with('-')
                        && !token.starts_with("--")
                        && lower[1..].contains('c'))
            }
        };
        if hit {
            return Some((token.to_string(), index));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn payloads_and_startup() {
        assert_eq!(
            shell_wrapper_command(&v(&["bash", "-c", "ls"])),
            (true, Some("ls".into()))
        );
        assert_eq!(
            shell_wrapper_command(&v(&["bash", "-lc", "ls"])),
            (true, None)
        );
        assert_eq!(
            inline_command(&v(&["bash", "-lc", "ls"])),
            Some("ls".into())
        );
        assert_eq!(shell_wrapper_command(&v(&["bash", "x.sh"])), (false, None));
        assert_eq!(
            shell_wrapper_command(&v(&["timeout", "5", "sh", "-c", "ls"])),
            (true, Some("ls".into()))
        );
        assert_eq!(inline_command(&v(&["sh", "-xc", "ls"])), Some("ls".into()));
        assert_eq!(
            inline_command(&v(&["cmd", "/c", "dir", "x"])),
            Some("dir x".into())
        );
        assert_eq!(inline_command(&v(&["tcsh", "-c", "ls"])), None);
    }
}
