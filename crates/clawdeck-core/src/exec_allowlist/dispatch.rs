//! Dispatch wrappers (`nice`, `timeout`, `env`, `sudo`, ...): which are unwrapped to the command
//! they run and which block a segment, as OpenClaw's `DISPATCH_WRAPPER_SPEC_BY_NAME` says on
//! Linux (`arch`, `xcrun` and `script` unwrap only on macOS/BSD, so here they block).

use super::carriers::parse_env_prelude;
use super::tokens::{arg_trimmed, normalize_executable_token, parse_inline_option};

/// Every dispatch wrapper OpenClaw knows; those without an unwrapper always block.
const DISPATCH_WRAPPERS: &[&str] = &[
    "arch",
    "caffeinate",
    "bwrap",
    "catchsegv",
    "chrt",
    "chroot",
    "cpulimit",
    "doas",
    "eatmydata",
    "env",
    "firejail",
    "flock",
    "gosu",
    "ionice",
    "linux32",
    "linux64",
    "nice",
    "nsenter",
    "nohup",
    "numactl",
    "pkexec",
    "proot",
    "proxychains",
    "proxychains4",
    "runuser",
    "sandbox-exec",
    "script",
    "setarch",
    "setsid",
    "setpriv",
    "stdbuf",
    "su",
    "sudo",
    "systemd-run",
    "taskset",
    "time",
    "timeout",
    "torify",
    "torsocks",
    "unbuffer",
    "unshare",
    "watch",
    "xcrun",
    "xvfb-run",
];

/// What one dispatch-wrapper unwrap step found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwrap {
    /// argv[0] is no dispatch wrapper.
    NotWrapper,
    /// A wrapper OpenClaw refuses to see through (or could not parse).
    Blocked(String),
    /// The wrapper and the argv it runs.
    Unwrapped(String, Vec<String>),
}

/// Whether a token names a dispatch wrapper.
pub fn is_dispatch_wrapper(token: &str) -> bool {
    DISPATCH_WRAPPERS.contains(&normalize_executable_token(token).as_str())
}

/// Moves where the wrapped command starts (past `timeout`'s duration, `flock`'s lock file).
type AdjustStart = fn(usize, &[String]) -> Option<usize>;

/// What a scan callback says about one token.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Directive {
    Continue,
    Stop,
    Invalid,
    ConsumeNext,
}

/// `scanWrapperInvocation`: walks the wrapper's options; the command starts where a token says
/// stop (or after a separator); `adjust` may move that start (the duration of `timeout`).
fn scan(
    argv: &[String],
    separators: &[&str],
    mut on_token: impl FnMut(&str, &str) -> Directive,
    adjust: Option<AdjustStart>,
) -> Option<Vec<String>> {
    let mut idx = 1;
    let mut expects_value = false;
    while idx < argv.len() {
        let token = arg_trimmed(argv, idx);
        if token.is_empty() {
            idx += 1;
            continue;
        }
        if expects_value {
            expects_value = false;
            idx += 1;
            continue;
        }
        if separators.contains(&token) {
            idx += 1;
            break;
        }
        match on_token(token, &token.to_lowercase()) {
            Directive::Stop => break,
            Directive::Invalid => return None,
            Directive::ConsumeNext => expects_value = true,
            Directive::Continue => {}
        }
        idx += 1;
    }
    if expects_value {
        return None;
    }
    let command_index = match adjust {
        Some(adjust) => adjust(idx, argv)?,
        None => idx,
    };
    (command_index < argv.len()).then(|| argv[command_index..].to_vec())
}

/// `unwrapDashOptionInvocation`: options start with `-`; `on_flag` gets the flag name (before
/// `=`) and the whole lower-cased token.
fn scan_dash_options(
    argv: &[String],
    on_flag: impl Fn(&str, &str) -> Directive,
    adjust: Option<AdjustStart>,
) -> Option<Vec<String>> {
    scan(
        argv,
        &["--"],
        |token, lower| {
            if !token.starts_with('-') || token == "-" {
                return Directive::Stop;
            }
            on_flag(parse_inline_option(lower).0, lower)
        },
        adjust,
    )
}

/// A value flag: its value inline (`=` or attached) or in the next token.
fn value_flag(flag: &str, lower: &str) -> Directive {
    if lower.contains('=') || lower != flag {
        Directive::Continue
    } else {
        Directive::ConsumeNext
    }
}

/// A value flag whose value only counts as inline after `=`.
fn value_flag_eq(lower: &str) -> Directive {
    if lower.contains('=') {
        Directive::Continue
    } else {
        Directive::ConsumeNext
    }
}

fn unwrap_nice(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| {
            let digits = lower.strip_prefix('-').unwrap_or("");
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                Directive::Continue
            } else if ["-n", "--adjustment", "--priority"].contains(&flag) {
                value_flag(flag, lower)
            } else if lower.starts_with("-n") && lower.len() > 2 {
                Directive::Continue
            } else {
                Directive::Invalid
            }
        },
        None,
    )
}

fn unwrap_caffeinate(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| match flag {
            "-d" | "-i" | "-m" | "-s" | "-u" => Directive::Continue,
            "-t" | "-w" => value_flag(flag, lower),
            _ => Directive::Invalid,
        },
        None,
    )
}

fn unwrap_nohup(argv: &[String]) -> Option<Vec<String>> {
    scan(
        argv,
        &["--"],
        |token, lower| {
            if !token.starts_with('-') || token == "-" {
                Directive::Stop
            } else if lower == "--help" || lower == "--version" {
                Directive::Continue
            } else {
                Directive::Invalid
            }
        },
        None,
    )
}

fn unwrap_sandbox_exec(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| match flag {
            "-f" | "-p" | "-d" => value_flag(flag, lower),
            _ => Directive::Invalid,
        },
        None,
    )
}

fn unwrap_stdbuf(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| match flag {
            "-i" | "--input" | "-o" | "--output" | "-e" | "--error" => value_flag_eq(lower),
            _ => Directive::Invalid,
        },
        None,
    )
}

const TIME_FLAGS: &[&str] = &[
    "-a",
    "--append",
    "-h",
    "--help",
    "-l",
    "-p",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "-V",
    "--version",
];
const TIME_VALUE_FLAGS: &[&str] = &["-f", "--format", "-o", "--output"];

fn unwrap_time(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| {
            if TIME_FLAGS.contains(&flag) {
                Directive::Continue
            } else if TIME_VALUE_FLAGS.contains(&flag) {
                value_flag_eq(lower)
            } else {
                Directive::Invalid
            }
        },
        None,
    )
}

/// `time -o FILE` writes a file, which makes `time` no longer transparent.
fn time_writes_output_file(argv: &[String]) -> bool {
    let mut expects_value = false;
    for idx in 1..argv.len() {
        let token = arg_trimmed(argv, idx);
        if token.is_empty() {
            continue;
        }
        if expects_value {
            expects_value = false;
            continue;
        }
        if token == "--" || !token.starts_with('-') || token == "-" {
            return false;
        }
        let lower = token.to_lowercase();
        let flag = parse_inline_option(&lower).0;
        if flag == "-o" || flag == "--output" {
            return true;
        }
        if TIME_VALUE_FLAGS.contains(&flag) && !lower.contains('=') {
            expects_value = true;
        }
    }
    false
}

fn unwrap_flock(argv: &[String]) -> Option<Vec<String>> {
    scan(
        argv,
        &["--"],
        |token, lower| {
            if !token.starts_with('-') || token == "-" {
                return Directive::Stop;
            }
            let (name, inline) = parse_inline_option(token);
            let lower_flag = parse_inline_option(lower).0;
            let short_cluster =
                token.len() > 1 && token[1..].bytes().all(|b| b"eFnsxo".contains(&b));
            if [
                "--close",
                "--exclusive",
                "--nb",
                "--no-fork",
                "--nonblock",
                "--shared",
                "--verbose",
            ]
            .contains(&lower_flag)
            {
                Directive::Continue
            } else if ["--conflict-exit-code", "--timeout", "--wait"].contains(&lower_flag) {
                if inline.is_some() {
                    Directive::Continue
                } else {
                    Directive::ConsumeNext
                }
            } else if short_cluster || ["-e", "-F", "-n", "-o", "-s", "-x"].contains(&name) {
                Directive::Continue
            } else if ["-E", "-w"].contains(&name) {
                if inline.is_some() || token != name {
                    Directive::Continue
                } else {
                    Directive::ConsumeNext
                }
            } else {
                Directive::Invalid
            }
        },
        Some(|index, argv| {
            let wrapped = arg_trimmed(argv, index + 1);
            (!wrapped.is_empty() && (!wrapped.starts_with('-') || wrapped == "-"))
                .then_some(index + 1)
        }),
    )
}

fn unwrap_timeout(argv: &[String]) -> Option<Vec<String>> {
    scan_dash_options(
        argv,
        |flag, lower| match flag {
            "--foreground" | "--preserve-status" | "-v" | "--verbose" => Directive::Continue,
            "-k" | "--kill-after" | "-s" | "--signal" => value_flag_eq(lower),
            _ => Directive::Invalid,
        },
        Some(|index, argv| (index + 1 < argv.len()).then_some(index + 1)),
    )
}

/// `unwrapKnownDispatchWrapperInvocation` on Linux.
pub fn unwrap_dispatch(argv: &[String]) -> Unwrap {
    let token0 = arg_trimmed(argv, 0);
    if token0.is_empty() {
        return Unwrap::NotWrapper;
    }
    let wrapper = normalize_executable_token(token0);
    let unwrapped = match wrapper.as_str() {
        "caffeinate" => unwrap_caffeinate(argv),
        "env" => parse_env_prelude(argv, 0).map(|p| p.carried(argv)),
        "flock" => unwrap_flock(argv),
        "nice" => unwrap_nice(argv),
        "nohup" => unwrap_nohup(argv),
        "sandbox-exec" => unwrap_sandbox_exec(argv),
        "stdbuf" => unwrap_stdbuf(argv),
        "time" => unwrap_time(argv),
        "timeout" => unwrap_timeout(argv),
        name if DISPATCH_WRAPPERS.contains(&name) => None,
        _ => return Unwrap::NotWrapper,
    };
    match unwrapped {
        Some(inner) => Unwrap::Unwrapped(wrapper, inner),
        None => Unwrap::Blocked(wrapper),
    }
}

/// Whether this use of an unwrappable wrapper changes what runs (`env FOO=1`, `time -o f`).
fn is_semantic_usage(wrapper: &str, argv: &[String]) -> bool {
    match wrapper {
        "env" => parse_env_prelude(argv, 0).is_none_or(|p| p.uses_modifiers),
        "time" => time_writes_output_file(argv),
        "caffeinate" | "flock" | "nice" | "nohup" | "sandbox-exec" | "stdbuf" | "timeout" => false,
        _ => true,
    }
}

/// `resolveDispatchWrapperTrustPlan`: unwraps up to `max_depth` transparent wrappers.
#[derive(Debug, Clone)]
pub struct DispatchPlan {
    /// The argv after the wrappers.
    pub argv: Vec<String>,
    /// The wrappers seen, outermost first.
    pub wrappers: Vec<String>,
    /// A wrapper blocked the segment.
    pub blocked: bool,
}

/// Unwraps transparent dispatch wrappers; a blocking or semantic one blocks the plan.
pub fn dispatch_plan(argv: &[String], max_depth: usize) -> DispatchPlan {
    let mut current = argv.to_vec();
    let mut wrappers = Vec::new();
    let blocked = |argv: Vec<String>, wrappers: Vec<String>| DispatchPlan {
        argv,
        wrappers,
        blocked: true,
    };
    for _ in 0..max_depth {
        match unwrap_dispatch(&current) {
            Unwrap::Blocked(_) => return blocked(current, wrappers),
            Unwrap::Unwrapped(wrapper, inner) if !inner.is_empty() => {
                let semantic = is_semantic_usage(&wrapper, &current);
                wrappers.push(wrapper);
                if semantic {
                    return blocked(current, wrappers);
                }
                current = inner;
            }
            _ => break,
        }
    }
    if wrappers.len() >= max_depth && unwrap_dispatch(&current) != Unwrap::NotWrapper {
        return blocked(current, wrappers);
    }
    DispatchPlan {
        argv: current,
        wrappers,
        blocked: false,
    }
}
