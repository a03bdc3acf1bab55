//! The shells OpenClaw treats as wrappers (POSIX-family, `cmd`, PowerShell) and which of them
//! it can parse.

use super::tokens::normalize_executable_token;

/// POSIX-family shells OpenClaw recognises as wrappers.
pub(super) const POSIX_SHELLS: &[&str] = &[
    "ash", "bash", "csh", "dash", "elvish", "fish", "ksh", "mksh", "nu", "osh", "sh", "tcsh",
    "xonsh", "yash", "zsh",
];
/// The shells whose payload OpenClaw parses with tree-sitter-bash.
pub const PARSEABLE_SHELLS: &[&str] = &[
    "ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "yash", "zsh",
];

/// Which family a wrapper belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Posix,
    Cmd,
    PowerShell,
}

pub(super) fn wrapper_kind(base: &str) -> Option<Kind> {
    if POSIX_SHELLS.contains(&base) {
        Some(Kind::Posix)
    } else if base == "cmd" {
        Some(Kind::Cmd)
    } else if base == "powershell" || base == "pwsh" {
        Some(Kind::PowerShell)
    } else {
        None
    }
}

/// Whether a token names a shell wrapper (any family).
pub fn is_shell_wrapper_executable(token: &str) -> bool {
    wrapper_kind(&normalize_executable_token(token)).is_some()
}

/// Whether a normalized name is a POSIX shell OpenClaw parses.
pub fn is_parseable_shell(normalized: &str) -> bool {
    PARSEABLE_SHELLS.contains(&normalized)
}

/// Whether a normalized name is a POSIX-family wrapper OpenClaw cannot parse (`csh`, `nu`, ...).
pub fn is_opaque_posix_shell(normalized: &str) -> bool {
    POSIX_SHELLS.contains(&normalized) && !PARSEABLE_SHELLS.contains(&normalized)
}
