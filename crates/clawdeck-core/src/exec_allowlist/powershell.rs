//! PowerShell's inline command flags (`-Command`, `-File`, `-EncodedCommand` and their
//! abbreviations), so `pwsh -c ...` is recognised as a wrapper with a payload like OpenClaw does
//! (`shell_wrapper::powershell_inline_match` scans with them).

/// Whether `lower` is `-p`, `--p` or `/p` with `p` an abbreviation of `word` at least as long as
/// `shortest` (`expandPowerShellSwitchPrefixForms`).
fn is_prefix_form(lower: &str, word: &str, shortest: &str) -> bool {
    let body = lower
        .strip_prefix("--")
        .or_else(|| lower.strip_prefix('-'))
        .or_else(|| lower.strip_prefix('/'));
    body.is_some_and(|p| {
        p.len() >= shortest.len() && word.starts_with(p) && p.starts_with(shortest)
    })
}

/// Whether `lower` is `-n`, `--n` or `/n` for one of `names` (`expandPowerShellSwitchForms`).
fn is_exact_form(lower: &str, names: &[&str]) -> bool {
    let body = lower
        .strip_prefix("--")
        .or_else(|| lower.strip_prefix('-'))
        .or_else(|| lower.strip_prefix('/'));
    body.is_some_and(|p| names.contains(&p))
}

/// `-Command`, `-CommandWithArgs`: the command is the rest of argv.
pub(super) fn is_command_flag(lower: &str) -> bool {
    is_prefix_form(lower, "command", "c")
        || is_prefix_form(lower, "commandwithargs", "cwa")
        || is_exact_form(lower, &["cwa"])
}

pub(super) fn is_inline_flag(lower: &str) -> bool {
    is_command_flag(lower)
        || is_prefix_form(lower, "file", "f")
        || is_prefix_form(lower, "encodedcommand", "e")
        || is_prefix_form(lower, "ec", "e")
}

/// Options that take the next token as their value.
pub(super) fn is_value_option(lower: &str) -> bool {
    const PREFIXES: &[(&str, &str)] = &[
        ("configurationfile", "conf"),
        ("configurationname", "config"),
        ("custompipename", "cus"),
        ("encodedarguments", "encodeda"),
        ("executionpolicy", "ex"),
        ("inputformat", "inp"),
        ("outputformat", "o"),
        ("psconsolefile", "pscf"),
        ("settingsfile", "settings"),
        ("token", "to"),
        ("utctimestamp", "utc"),
        ("version", "v"),
        ("windowstyle", "w"),
        ("workingdirectory", "w"),
    ];
    PREFIXES
        .iter()
        .any(|(word, shortest)| is_prefix_form(lower, word, shortest))
        || is_exact_form(lower, &["ea", "ep", "if", "of", "pscf", "wd"])
}

/// `-x` or `/Word`.
pub(super) fn is_option_token(token: &str) -> bool {
    if token.starts_with('-') {
        return true;
    }
    let Some(rest) = token.strip_prefix('/') else {
        return false;
    };
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::super::shell_wrapper::powershell_inline_match as inline_match;
    use super::*;

    #[test]
    fn command_flags() {
        let argv: Vec<String> = ["pwsh", "-NoProfile", "-c", "Get-Item", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(inline_match(&argv).command.as_deref(), Some("Get-Item x"));
        assert!(is_inline_flag("-enc"));
        assert!(!is_inline_flag("-x"));
    }
}
