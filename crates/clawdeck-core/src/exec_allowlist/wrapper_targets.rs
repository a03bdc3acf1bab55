//! What a shell wrapper that is itself the segment can match instead of the shell: the script
//! of `bash script.sh`, or the command of `sh -c '"$0" "$@"' cmd args` (OpenClaw's
//! `resolveShellWrapperScriptCandidatePath` and `resolveShellWrapperPositionalArgvCandidate`).

use regex::Regex;

use super::dispatch::is_dispatch_wrapper;
use super::resolution::{
    Executable, Resolver, expand_home, path_candidate, resolve_command, resolve_path, trust_plan,
};
use super::shell_wrapper::{
    InlineScan, POSIX_INLINE_FLAGS, advance_posix_option_scan, inline_command_match,
    is_opaque_posix_shell, is_shell_wrapper_executable,
};
use super::tokens::{arg_trimmed, normalize_executable_token, posix_basename};

/// Shells whose `+o`-style options are skipped like `-o`.
const SHELLS_WITH_PLUS_OPTIONS: &[&str] = &[
    "ash", "bash", "dash", "ksh", "mksh", "osh", "sh", "yash", "zsh",
];
/// Shells a positional carrier (`sh -c '"$0" "$@"' cmd`) is recognised for.
const POSITIONAL_SHELLS: &[&str] = &["ash", "bash", "dash", "fish", "ksh", "sh", "zsh"];

const WS: &str = r"[^\S\r\n]+";
const ZERO: &str = r#"(?:\$(?:0|\{0\})|"\$(?:0|\{0\})")"#;

fn exec_prefix() -> String {
    format!("(?:exec{WS}(?:--{WS})?)?")
}

/// `isDirectShellPositionalCarrierCommand`: the payload only runs its positional arguments.
pub fn is_positional_carrier(command: &str) -> bool {
    let arg = r#"(?:\$(?:[@*]|[1-9]|\{[@*1-9]\})|"\$(?:[@*]|[1-9]|\{[@*1-9]\})")"#;
    let pattern = format!("^{}{ZERO}(?:{WS}{arg})*$", exec_prefix());
    let trimmed = command.trim();
    !trimmed.is_empty() && Regex::new(&pattern).is_ok_and(|re| re.is_match(trimmed))
}

/// `isDurableShellPositionalCarrierCommand`: `"$0"` alone, or `"$0" "$@"` with arguments.
fn is_durable_positional_carrier(command: &str, tail_len: usize) -> bool {
    let all = r#"(?:\$(?:@|\{@\})|"\$(?:@|\{@\})")"#;
    let pattern = if tail_len == 0 {
        format!("^{}{ZERO}$", exec_prefix())
    } else {
        format!("^{}{ZERO}{WS}{all}$", exec_prefix())
    };
    let trimmed = command.trim();
    !trimmed.is_empty() && Regex::new(&pattern).is_ok_and(|re| re.is_match(trimmed))
}

/// Whether the segment's executable (name, raw token or argv[0]) satisfies `pred`.
pub fn segment_executable_is(
    execution: Option<&Executable>,
    argv: &[String],
    pred: impl Fn(&str) -> bool,
) -> bool {
    let candidates = [
        execution.map(|e| e.name.as_str()),
        execution.map(|e| e.raw.as_str()),
        argv.first().map(String::as_str),
    ];
    candidates
        .into_iter()
        .flatten()
        .map(str::trim)
        .any(|c| !c.is_empty() && pred(c))
}

/// A path as a match target: the path, its realpath, its basename.
pub fn path_target(path: &str, resolver: &dyn Resolver) -> Executable {
    Executable {
        raw: path.to_string(),
        resolved_path: Some(path.to_string()),
        real_path: Some(resolver.realpath(path).unwrap_or_else(|| path.to_string())),
        name: posix_basename(path).to_string(),
    }
}

/// PowerShell options that take a value, for the script scan.
fn is_powershell_value_option(token: &str) -> bool {
    const NAMES: &[&str] = &[
        "executionpolicy",
        "ep",
        "windowstyle",
        "w",
        "workingdirectory",
        "wd",
        "inputformat",
        "outputformat",
        "settingsfile",
        "configurationfile",
        "version",
        "v",
        "psconsolefile",
        "pscf",
        "encodedcommand",
        "en",
        "enc",
        "encodedarguments",
        "ea",
    ];
    token
        .strip_prefix('-')
        .is_some_and(|name| NAMES.contains(&name.to_lowercase().as_str()))
}

/// The index of the script operand after a shell's options, or None when the shell reads a
/// command (`-c`, `-s`) or a startup file instead.
fn script_index(argv: &[String], wrapper: &str) -> Option<usize> {
    let powershell = wrapper == "powershell" || wrapper == "pwsh";
    let plus = SHELLS_WITH_PLUS_OPTIONS.contains(&wrapper);
    let single_letter = |token: &str, letter: char| {
        let lower = token.to_lowercase();
        lower.starts_with('-') && !lower[1..].contains('-') && lower[1..].contains(letter)
    };
    let mut idx = 1;
    while idx < argv.len() {
        let token = arg_trimmed(argv, idx);
        if token.is_empty() {
            idx += 1;
            continue;
        }
        if token == "--" {
            return Some(idx + 1);
        }
        if !powershell && (POSIX_INLINE_FLAGS.contains(&token) || single_letter(token, 'c')) {
            return None;
        }
        if token == "-s" || (!powershell && single_letter(token, 's')) {
            return None;
        }
        let disqualifying = ["--rcfile", "--init-file", "--startup-file"]
            .iter()
            .any(|o| token == *o || token.starts_with(&format!("{o}=")));
        if disqualifying {
            return None;
        }
        idx += if ["-c", "--command", "-o", "-O", "+O", "+o"].contains(&token)
            || (powershell && is_powershell_value_option(token))
        {
            2
        } else if !powershell && (token.starts_with('-') || (plus && token.starts_with('+'))) {
            advance_posix_option_scan(token)
        } else if token.starts_with('-') || token.starts_with('+') {
            1
        } else {
            return Some(idx);
        };
    }
    Some(idx)
}

/// `resolveShellWrapperScriptCandidatePath`: the script `bash x.sh` runs, as a path.
pub fn script_candidate(
    argv: &[String],
    execution: Option<&Executable>,
    resolver: &dyn Resolver,
) -> Option<String> {
    if !segment_executable_is(execution, argv, is_shell_wrapper_executable)
        || segment_executable_is(execution, argv, |t| {
            is_opaque_posix_shell(&normalize_executable_token(t))
        })
        || argv.len() < 2
    {
        return None;
    }
    let wrapper = normalize_executable_token(arg_trimmed(argv, 0));
    let index = script_index(argv, &wrapper)?;
    let script = arg_trimmed(argv, index);
    if script.is_empty() {
        return None;
    }
    if script.starts_with('/') {
        return Some(script.to_string());
    }
    let expanded = if script.starts_with('~') {
        expand_home(script, resolver.home())
    } else {
        script.to_string()
    };
    Some(resolve_path(resolver.cwd(), &expanded))
}

/// `resolveShellWrapperScriptArgv`: the script and the arguments after it.
pub fn script_argv(script: &str, argv: &[String], resolver: &dyn Resolver) -> Vec<String> {
    let resolved = |a: &str| {
        if a.starts_with('/') {
            a.to_string()
        } else {
            resolve_path(resolver.cwd(), a)
        }
    };
    let base = posix_basename(script).trim().to_lowercase();
    let index = argv.iter().position(|a| resolved(a) == script).or_else(|| {
        argv.iter()
            .position(|a| posix_basename(a).trim().to_lowercase() == base)
    });
    let mut out = vec![script.to_string()];
    if let Some(index) = index {
        out.extend(argv[index + 1..].iter().cloned());
    }
    out
}

/// A positional carrier's command: its path, the argv to match, and whether entries with an
/// argument pattern may match it.
pub struct PositionalCandidate {
    /// The carried executable's path.
    pub path: String,
    /// The realpath and the carried arguments.
    pub argv: Vec<String>,
    /// `"$0" "$@"` exactly: argument patterns apply.
    pub durable: bool,
}

/// `resolveShellWrapperPositionalArgvCandidate`.
pub fn positional_candidate(
    argv: &[String],
    execution: Option<&Executable>,
    resolver: &dyn Resolver,
) -> Option<PositionalCandidate> {
    if !segment_executable_is(execution, argv, is_shell_wrapper_executable) || argv.len() < 4 {
        return None;
    }
    if !POSITIONAL_SHELLS.contains(&normalize_executable_token(arg_trimmed(argv, 0)).as_str()) {
        return None;
    }
    let scan = InlineScan {
        allow_combined_c: true,
        ..InlineScan::default()
    };
    let found = inline_command_match(argv, &|t| POSIX_INLINE_FLAGS.contains(&t), &scan);
    let (command, value_index) = (found.command?, found.value_index?);
    if !is_positional_carrier(&command) {
        return None;
    }
    let carried_index =
        (value_index + 1..argv.len()).find(|&i| !arg_trimmed(argv, i).is_empty())?;
    let carried = arg_trimmed(argv, carried_index).to_string();
    let tail = &argv[carried_index + 1..];
    let durable = is_durable_positional_carrier(&command, tail.len());
    if is_dispatch_wrapper(&carried) || is_shell_wrapper_executable(&carried) {
        return None;
    }
    let resolution = resolve_command(&trust_plan(std::slice::from_ref(&carried)), resolver)?;
    let path = resolution
        .execution
        .resolved_path
        .clone()
        .or_else(|| path_candidate(&resolution.execution.raw, resolver))?;
    let mut matched = vec![resolver.realpath(&path).unwrap_or_else(|| path.clone())];
    matched.extend(tail.iter().cloned());
    Some(PositionalCandidate {
        path,
        argv: matched,
        durable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_carriers() {
        assert!(is_positional_carrier(r#""$0" "$@""#));
        assert!(is_positional_carrier("exec -- $0 $1"));
        assert!(!is_positional_carrier("echo $0"));
        assert!(is_durable_positional_carrier(r#""$0" "$@""#, 2));
        assert!(!is_durable_positional_carrier(r#""$0" "$1""#, 2));
        assert!(is_durable_positional_carrier("$0", 0));
    }
}
