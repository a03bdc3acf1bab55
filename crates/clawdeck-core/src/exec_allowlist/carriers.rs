//! Command carriers: `env`, `command`/`builtin`, `sudo`/`doas`, `exec` and the `busybox`/`toybox`
//! multiplexers, and the argv each carries (OpenClaw's `command-carriers.ts`).

use super::shells::is_shell_wrapper_executable;
use super::tokens::parse_inline_option;
use super::tokens::{arg, arg_trimmed, is_env_assignment_token, normalize_executable_token};

/// How deep `env -S` payloads nest before OpenClaw gives up.
const MAX_ENV_SPLIT_DEPTH: usize = 32;

const ENV_VALUE_OPTIONS: &[&str] = &[
    "-C",
    "-P",
    "-S",
    "-s",
    "-u",
    "--argv0",
    "--block-signal",
    "--chdir",
    "--default-signal",
    "--ignore-signal",
    "--split-string",
    "--unset",
];
const ENV_SPLIT_OPTIONS: &[&str] = &["-S", "-s", "--split-string"];
const ENV_STANDALONE_OPTIONS: &[&str] = &["-0", "-i", "--ignore-environment", "--null"];
const SUDO_VALUE_OPTIONS: &[&str] = &[
    "-C",
    "-D",
    "-g",
    "-h",
    "-p",
    "-R",
    "-T",
    "-U",
    "-u",
    "--chdir",
    "--chroot",
    "--close-from",
    "--command-timeout",
    "--group",
    "--host",
    "--other-user",
    "--prompt",
    "--role",
    "--type",
    "--user",
];
const SUDO_STANDALONE_OPTIONS: &[&str] = &[
    "-A",
    "-B",
    "-b",
    "-E",
    "-H",
    "-i",
    "-k",
    "-N",
    "-n",
    "-P",
    "-S",
    "-s",
    "--askpass",
    "--background",
    "--bell",
    "--login",
    "--no-update",
    "--non-interactive",
    "--preserve-env",
    "--preserve-groups",
    "--reset-home",
    "--reset-timestamp",
    "--set-home",
    "--shell",
    "--stdin",
];
const SUDO_NON_EXEC_OPTIONS: &[&str] = &[
    "-K",
    "-l",
    "-V",
    "-v",
    "-e",
    "--edit",
    "--help",
    "--list",
    "--remove-timestamp",
    "--validate",
    "--version",
];
const DOAS_VALUE_OPTIONS: &[&str] = &["-a", "-C", "-u"];
const DOAS_STANDALONE_OPTIONS: &[&str] = &["-L", "-n", "-s"];
const EXEC_VALUE_OPTIONS: &[&str] = &["-a"];
const EXEC_STANDALONE_OPTIONS: &[&str] = &["-c", "-l"];

/// The option tables of one carrier.
struct OptionTable<'a> {
    standalone: &'a [&'a str],
    with_value: &'a [&'a str],
    non_exec: &'a [&'a str],
}

/// One parsed option of a carrier.
struct CarrierOption {
    name: String,
    inline_value: Option<String>,
}

/// `parseCarrierOptionToken`: a long option, or a cluster of short ones (a value option ends
/// the cluster, the rest being its value); None for an unknown option.
fn parse_carrier_option(token: &str, table: &OptionTable) -> Option<Vec<CarrierOption>> {
    let known = |name: &str| {
        table.standalone.contains(&name)
            || table.with_value.contains(&name)
            || table.non_exec.contains(&name)
    };
    if token.starts_with("--") {
        let (name, inline) = parse_inline_option(token);
        return known(name).then(|| {
            vec![CarrierOption {
                name: name.to_string(),
                inline_value: inline.map(str::to_string),
            }]
        });
    }
    let second = token.chars().nth(1)?;
    if !token.starts_with('-') || !second.is_ascii_alphanumeric() {
        return None;
    }
    let mut options = Vec::new();
    for (at, ch) in token.char_indices().skip(1) {
        let name = format!("-{ch}");
        let rest = &token[at + ch.len_utf8()..];
        if table.with_value.contains(&name.as_str()) {
            let inline_value = (!rest.is_empty()).then(|| rest.to_string());
            options.push(CarrierOption { name, inline_value });
            return Some(options);
        }
        if !known(&name) {
            return None;
        }
        options.push(CarrierOption {
            name,
            inline_value: None,
        });
    }
    (!options.is_empty()).then_some(options)
}

/// Whether the options take the next token as a value; None when one means "does not run".
fn consumes_next_value(options: &[CarrierOption], table: &OptionTable) -> Option<bool> {
    let mut consumes = false;
    for option in options {
        if table.non_exec.contains(&option.name.as_str()) {
            return None;
        }
        if table.with_value.contains(&option.name.as_str()) {
            consumes = option.inline_value.is_none();
        }
    }
    Some(consumes)
}

/// The prelude of an `env` call: where its command starts and whether it changes anything.
#[derive(Debug, Clone)]
pub struct EnvPrelude {
    /// Index of the carried command in the argv.
    pub command_index: usize,
    /// The argv rebuilt from an `env -S` payload.
    pub split_argv: Option<Vec<String>>,
    /// Assignments or options were given (`env FOO=1`, `env -i`).
    pub uses_modifiers: bool,
}

impl EnvPrelude {
    /// The argv `env` runs.
    pub fn carried(&self, argv: &[String]) -> Vec<String> {
        self.split_argv
            .clone()
            .unwrap_or_else(|| argv.get(self.command_index..).unwrap_or_default().to_vec())
    }
}

/// `parseEnvInvocationPrelude`.
pub fn parse_env_prelude(argv: &[String], depth: usize) -> Option<EnvPrelude> {
    if depth > MAX_ENV_SPLIT_DEPTH || normalize_executable_token(arg(argv, 0)) != "env" {
        return None;
    }
    let table = OptionTable {
        standalone: ENV_STANDALONE_OPTIONS,
        with_value: ENV_VALUE_OPTIONS,
        non_exec: &[],
    };
    let mut uses_modifiers = false;
    let mut index = 1;
    while index < argv.len() {
        let token = arg(argv, index);
        if token.is_empty() {
            return None;
        }
        if is_env_assignment_token(token) {
            uses_modifiers = true;
            index += 1;
            continue;
        }
        if token == "--" || token == "-" {
            return (index + 1 < argv.len()).then_some(EnvPrelude {
                command_index: index + 1,
                split_argv: None,
                uses_modifiers,
            });
        }
        if !token.starts_with('-') {
            return Some(EnvPrelude {
                command_index: index,
                split_argv: None,
                uses_modifiers,
            });
        }
        let options = parse_carrier_option(token, &table)?;
        uses_modifiers = true;
        if let Some(split) = options
            .iter()
            .find(|o| ENV_SPLIT_OPTIONS.contains(&o.name.as_str()))
        {
            let payload_index = if split.inline_value.is_none() {
                index + 1
            } else {
                index
            };
            let payload = split
                .inline_value
                .clone()
                .or_else(|| argv.get(payload_index).cloned())?;
            let trailing = argv.get(payload_index + 1..).unwrap_or_default();
            let split_argv = env_split_payload(&payload, trailing, depth)?;
            return Some(EnvPrelude {
                command_index: payload_index + 1,
                split_argv: Some(split_argv),
                uses_modifiers,
            });
        }
        if consumes_next_value(&options, &table) == Some(true) {
            index += 1;
        }
        index += 1;
    }
    None
}

/// The argv an `env -S PAYLOAD` runs (the payload split like a shell would, then re-read as
/// another `env` prelude).
fn env_split_payload(payload: &str, trailing: &[String], depth: usize) -> Option<Vec<String>> {
    let inner = split_shell_args(payload)?;
    if inner.is_empty() {
        return None;
    }
    let mut carried = inner;
    carried.extend_from_slice(trailing);
    let mut as_env = vec!["env".to_string()];
    as_env.extend(carried.iter().cloned());
    Some(
        parse_env_prelude(&as_env, depth + 1)
            .map(|p| p.carried(&as_env))
            .unwrap_or(carried),
    )
}

/// `splitShellArgs`: whitespace-separated words with quotes and backslashes; None for an
/// unterminated quote or escape.
pub fn split_shell_args(raw: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut buf = String::new();
    let (mut in_single, mut in_double, mut escaped) = (false, false, false);
    let mut chars = raw.chars().peekable();
    while let Some(ch) = chars.next() {
        if escaped {
            buf.push(ch);
            escaped = false;
        } else if in_single {
            if ch == '\'' {
                in_single = false;
            } else {
                buf.push(ch);
            }
        } else if in_double {
            let next = chars.peek().copied();
            if ch == '\\' && matches!(next, Some('\\' | '"' | '$' | '`' | '\n' | '\r')) {
                buf.extend(next);
                chars.next();
            } else if ch == '"' {
                in_double = false;
            } else {
                buf.push(ch);
            }
        } else if ch == '\\' {
            escaped = true;
        } else if ch == '\'' {
            in_single = true;
        } else if ch == '"' {
            in_double = true;
        } else if ch == '#' && buf.is_empty() {
            break;
        } else if ch.is_whitespace() {
            if !buf.is_empty() {
                tokens.push(std::mem::take(&mut buf));
            }
        } else {
            buf.push(ch);
        }
    }
    if escaped || in_single || in_double {
        return None;
    }
    if !buf.is_empty() {
        tokens.push(buf);
    }
    Some(tokens)
}

/// `command ARGS` / `builtin ARGS`: the carried argv; None for `-v`/`-V` or unknown options.
fn command_builtin_carried(argv: &[String]) -> Option<Vec<String>> {
    for index in 1..argv.len() {
        let token = arg(argv, index);
        if token == "--" {
            return Some(argv[index + 1..].to_vec());
        }
        if !token.starts_with('-') {
            return Some(argv[index..].to_vec());
        }
        if parse_inline_option(token).0 != "-p" {
            return None;
        }
    }
    None
}

/// `sudo`/`doas` options, then the carried argv (leading assignments dropped for sudo).
fn sudo_like_carried(argv: &[String], sudo: bool) -> Option<Vec<String>> {
    let table = if sudo {
        OptionTable {
            standalone: SUDO_STANDALONE_OPTIONS,
            with_value: SUDO_VALUE_OPTIONS,
            non_exec: SUDO_NON_EXEC_OPTIONS,
        }
    } else {
        OptionTable {
            standalone: DOAS_STANDALONE_OPTIONS,
            with_value: DOAS_VALUE_OPTIONS,
            non_exec: &[],
        }
    };
    let strip = |rest: &[String]| -> Option<Vec<String>> {
        let skip = if sudo {
            rest.iter()
                .take_while(|t| is_env_assignment_token(t))
                .count()
        } else {
            0
        };
        (skip < rest.len()).then(|| rest[skip..].to_vec())
    };
    let mut index = 1;
    while index < argv.len() {
        let token = arg(argv, index);
        if token == "--" {
            return strip(&argv[index + 1..]);
        }
        if !token.starts_with('-') {
            return strip(&argv[index..]);
        }
        let options = parse_carrier_option(token, &table)?;
        if consumes_next_value(&options, &table)? {
            index += 1;
        }
        index += 1;
    }
    None
}

/// `exec [-cl] [-a NAME] ARGS`: the carried argv.
fn exec_carried(argv: &[String]) -> Option<Vec<String>> {
    let table = OptionTable {
        standalone: EXEC_STANDALONE_OPTIONS,
        with_value: EXEC_VALUE_OPTIONS,
        non_exec: &[],
    };
    let mut index = 1;
    while index < argv.len() {
        let token = arg(argv, index);
        if token == "--" {
            return Some(argv[index + 1..].to_vec());
        }
        if !token.starts_with('-') {
            return Some(argv[index..].to_vec());
        }
        let options = parse_carrier_option(token, &table)?;
        if consumes_next_value(&options, &table) == Some(true) {
            index += 1;
        }
        index += 1;
    }
    None
}

/// Whether an executable is a command carrier (`exec` counted only when asked).
pub fn is_command_carrier(normalized: &str, include_exec: bool) -> bool {
    matches!(normalized, "sudo" | "doas" | "env" | "command" | "builtin")
        || (include_exec && normalized == "exec")
}

/// `resolveCarrierCommandArgv`: the argv a carrier runs, if it runs one.
pub fn carrier_command_argv(argv: &[String], include_exec: bool) -> Option<Vec<String>> {
    match normalize_executable_token(arg(argv, 0)).as_str() {
        "env" => parse_env_prelude(argv, 0).map(|p| p.carried(argv)),
        "command" | "builtin" => command_builtin_carried(argv),
        "sudo" => sudo_like_carried(argv, true),
        "doas" => sudo_like_carried(argv, false),
        "exec" if include_exec => exec_carried(argv),
        _ => None,
    }
}

/// `busybox sh ...` / `toybox sh ...`: Some(Ok(argv)) for a shell applet, Some(Err(wrapper))
/// for any other applet (blocked), None when argv[0] is no multiplexer.
pub fn unwrap_multiplexer(argv: &[String]) -> Option<Result<Vec<String>, String>> {
    let token0 = arg_trimmed(argv, 0);
    if token0.is_empty() {
        return None;
    }
    let wrapper = normalize_executable_token(token0);
    if wrapper != "busybox" && wrapper != "toybox" {
        return None;
    }
    let mut applet_index = 1;
    if arg_trimmed(argv, applet_index) == "--" {
        applet_index += 1;
    }
    let applet = arg_trimmed(argv, applet_index);
    if applet.is_empty() || !is_shell_wrapper_executable(applet) {
        return Some(Err(wrapper));
    }
    Some(Ok(argv[applet_index..].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn env_preludes() {
        let p = parse_env_prelude(&v(&["env", "ls"]), 0).unwrap();
        assert!(!p.uses_modifiers);
        let p = parse_env_prelude(&v(&["env", "FOO=1", "ls"]), 0).unwrap();
        assert!(p.uses_modifiers);
        assert_eq!(p.carried(&v(&["env", "FOO=1", "ls"])), v(&["ls"]));
        let argv = v(&["env", "-S", "ls -l", "x"]);
        assert_eq!(
            parse_env_prelude(&argv, 0).unwrap().carried(&argv),
            v(&["ls", "-l", "x"])
        );
        assert!(parse_env_prelude(&v(&["env", "-Z", "ls"]), 0).is_none());
    }

    #[test]
    fn carriers() {
        assert_eq!(
            carrier_command_argv(&v(&["sudo", "-u", "x", "A=1", "ls"]), false),
            Some(v(&["ls"]))
        );
        assert_eq!(carrier_command_argv(&v(&["sudo", "-l"]), false), None);
        assert_eq!(
            carrier_command_argv(&v(&["command", "-v", "ls"]), false),
            None
        );
        assert_eq!(
            carrier_command_argv(&v(&["exec", "ls"]), true),
            Some(v(&["ls"]))
        );
        assert_eq!(
            split_shell_args("a 'b c' \"d\\\"\""),
            Some(v(&["a", "b c", "d\""]))
        );
        assert_eq!(split_shell_args("'open"), None);
    }
}
