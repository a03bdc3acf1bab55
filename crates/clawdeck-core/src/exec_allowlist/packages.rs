//! Package-manager exec forms (`npx foo`, `npm exec foo`, `pnpm dlx foo`, `yarn exec foo`):
//! matched as the package they run, and blocked when unsafe (OpenClaw's
//! `package-manager-exec-wrapper.ts` and `resolvePackageManagerAllowlistTargetArgv`).

use super::dispatch::dispatch_plan;
use super::resolution::trust_plan;
use super::shell_wrapper::{bindable_inline_command, is_shell_wrapper_executable};
use super::tokens::{arg, arg_trimmed, normalize_executable_token, parse_inline_option};

/// The options one package-manager form knows.
#[derive(Default)]
struct Options {
    with_value: &'static [&'static str],
    case_sensitive_with_value: &'static [&'static str],
    flags: &'static [&'static str],
    context_with_value: &'static [&'static str],
    context_case_sensitive: &'static [&'static str],
    context_flags: &'static [&'static str],
}

const NPM_WITH_VALUE: &[&str] = &[
    "--cache",
    "--loglevel",
    "--package",
    "--prefix",
    "--script-shell",
    "--userconfig",
    "--workspace",
    "-p",
    "-w",
];
const NPM_CONTEXT_WITH_VALUE: &[&str] = &[
    "--cache",
    "--package",
    "--prefix",
    "--script-shell",
    "--userconfig",
    "--workspace",
    "-p",
    "-w",
];
const NPM_FLAGS: &[&str] = &[
    "--no",
    "--quiet",
    "--ws",
    "--workspaces",
    "--yes",
    "-q",
    "-y",
];
const NPM_EXEC_SUBCOMMANDS: &[&str] = &["exec", "x"];
const PNPM_WITH_VALUE: &[&str] = &[
    "--config",
    "--dir",
    "--filter",
    "--reporter",
    "--stream",
    "--test-pattern",
    "--workspace-concurrency",
    "--allow-build",
    "--package",
    "-p",
];
const PNPM_FLAGS: &[&str] = &[
    "--aggregate-output",
    "--color",
    "--parallel",
    "--recursive",
    "--silent",
    "--workspace-root",
    "-r",
    "-s",
    "-w",
];
const PNPM_EXEC_SUBCOMMANDS: &[&str] = &["exec", "dlx", "node"];
const PNPM_SCRIPT_SUBCOMMANDS: &[&str] = &["restart", "run", "start", "stop", "test"];
const PNPM_NON_EXEC_SUBCOMMANDS: &[&str] = &[
    "add", "audit", "bin", "config", "dedupe", "deploy", "help", "import", "init", "install",
    "licenses", "link", "list", "outdated", "patch", "prune", "publish", "rebuild", "remove",
    "root", "server", "store", "unlink", "update", "view", "why",
];
const YARN_EXEC_SUBCOMMANDS: &[&str] = &["exec", "dlx"];
const YARN_NON_EXEC_SUBCOMMANDS: &[&str] = &[
    "add",
    "audit",
    "autoclean",
    "bin",
    "cache",
    "check",
    "config",
    "create",
    "dedupe",
    "generate-lock-entry",
    "global",
    "help",
    "import",
    "info",
    "init",
    "install",
    "licenses",
    "link",
    "list",
    "login",
    "logout",
    "outdated",
    "owner",
    "pack",
    "policies",
    "prune",
    "publish",
    "remove",
    "self-update",
    "tag",
    "team",
    "unlink",
    "upgrade",
    "upgrade-interactive",
    "version",
    "versions",
    "why",
    "workspace",
];

fn npm_direct() -> Options {
    Options {
        with_value: NPM_WITH_VALUE,
        flags: NPM_FLAGS,
        ..Options::default()
    }
}

fn npm_exec() -> Options {
    Options {
        with_value: NPM_WITH_VALUE,
        case_sensitive_with_value: &["-C"],
        flags: NPM_FLAGS,
        context_with_value: NPM_CONTEXT_WITH_VALUE,
        context_case_sensitive: &["-C"],
        context_flags: &["--ws", "--workspaces"],
    }
}

fn pnpm_exec() -> Options {
    Options {
        with_value: PNPM_WITH_VALUE,
        case_sensitive_with_value: &["-C"],
        flags: PNPM_FLAGS,
        context_with_value: &[
            "--allow-build",
            "--config",
            "--dir",
            "--filter",
            "--package",
            "-p",
        ],
        context_case_sensitive: &["-C"],
        context_flags: &["--recursive", "--workspace-root", "-r", "-w"],
    }
}

fn pnpm_dlx() -> Options {
    Options {
        with_value: PNPM_WITH_VALUE,
        flags: PNPM_FLAGS,
        ..Options::default()
    }
}

fn yarn_exec() -> Options {
    Options {
        with_value: &["--cwd", "--package", "-p"],
        flags: &["--immutable", "--silent", "-s", "--quiet", "-q"],
        context_with_value: &["--cwd"],
        ..Options::default()
    }
}

fn yarn_dlx() -> Options {
    Options {
        with_value: &["--package", "-p"],
        flags: &["--quiet", "-q"],
        context_with_value: &["--package", "-p"],
        ..Options::default()
    }
}

fn yarn_leading() -> Options {
    Options {
        with_value: &["--cwd"],
        flags: &["--immutable", "--silent", "-s"],
        ..Options::default()
    }
}

/// What a `--` does to the option scan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terminator {
    Skip,
    Stop,
    Reject,
}

/// How many tokens a value option takes (`--x=v` one, `--x v` two).
fn value_step(token: &str) -> usize {
    if token.contains('=') { 1 } else { 2 }
}

/// `findFirstNonOptionIndex`.
fn first_non_option(
    argv: &[String],
    start: usize,
    options: &Options,
    terminator: Terminator,
) -> Option<usize> {
    let mut idx = start;
    while idx < argv.len() {
        let token = arg_trimmed(argv, idx);
        if token.is_empty() {
            idx += 1;
            continue;
        }
        if token == "--" {
            match terminator {
                Terminator::Reject => return None,
                Terminator::Stop => return (idx + 1 < argv.len()).then_some(idx + 1),
                Terminator::Skip => {
                    idx += 1;
                    continue;
                }
            }
        }
        if !token.starts_with('-') {
            return Some(idx);
        }
        let name = parse_inline_option(token).0;
        let flag = name.trim().to_lowercase();
        if options.case_sensitive_with_value.contains(&name)
            || options.with_value.contains(&flag.as_str())
        {
            idx += value_step(token);
        } else if options.flags.contains(&flag.as_str()) {
            idx += 1;
        } else {
            return None;
        }
    }
    None
}

/// `hasContextOption`: an option that changes where the package comes from or runs.
fn has_context_option(argv: &[String], start: usize, options: &Options, leading: bool) -> bool {
    let mut idx = start;
    while idx < argv.len() {
        let token = arg_trimmed(argv, idx);
        if token.is_empty() || (token == "--" && leading) {
            idx += 1;
            continue;
        }
        if token == "--" {
            return false;
        }
        if !token.starts_with('-') {
            if leading {
                return false;
            }
            idx += 1;
            continue;
        }
        let name = parse_inline_option(token).0;
        let flag = name.trim().to_lowercase();
        if options.context_case_sensitive.contains(&name)
            || options.context_with_value.contains(&flag.as_str())
            || options.context_flags.contains(&flag.as_str())
        {
            return true;
        }
        if options.case_sensitive_with_value.contains(&name)
            || options.with_value.contains(&flag.as_str())
        {
            idx += value_step(token);
        } else if options.flags.contains(&flag.as_str()) || !leading {
            idx += 1;
        } else {
            return false;
        }
    }
    false
}

/// `normalizePackageManagerExecToken`: the executable name without `.js`/`.cjs`/`.mjs`.
fn package_manager(token: &str) -> String {
    let name = normalize_executable_token(token);
    for suffix in [".cjs", ".mjs", ".js"] {
        if let Some(stripped) = name.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    name
}

/// `hasKnownPackageManagerExecContextOptions`.
fn has_exec_context_options(argv: &[String]) -> bool {
    match package_manager(arg(argv, 0)).as_str() {
        "npm" => {
            let options = npm_exec();
            has_context_option(argv, 1, &options, true)
                || first_non_option(argv, 1, &options, Terminator::Skip).is_some_and(|i| {
                    NPM_EXEC_SUBCOMMANDS.contains(&arg(argv, i))
                        && has_context_option(argv, i + 1, &options, false)
                })
        }
        "npx" | "bunx" => has_context_option(argv, 1, &npm_exec(), true),
        "pnpm" => {
            let options = pnpm_exec();
            has_context_option(argv, 1, &options, true)
                || first_non_option(argv, 1, &options, Terminator::Skip).is_some_and(|i| {
                    arg(argv, i) == "dlx" && has_context_option(argv, i + 1, &options, true)
                })
        }
        "yarn" => {
            let options = yarn_exec();
            has_context_option(argv, 1, &options, true)
                || first_non_option(argv, 1, &options, Terminator::Skip).is_some_and(|i| {
                    arg(argv, i) == "dlx" && has_context_option(argv, i + 1, &yarn_dlx(), true)
                })
        }
        _ => false,
    }
}

/// How a package-manager invocation reads.
enum Invocation {
    /// No package manager.
    Other,
    /// A package manager, not running a package.
    Plain,
    /// An exec form OpenClaw refuses.
    Unsafe,
    /// The package argv it runs.
    Unwrapped(Vec<String>),
}

/// The arguments after the options of a direct exec form.
fn exec_arguments(
    argv: &[String],
    start: usize,
    options: &Options,
    terminator: Terminator,
) -> Option<Vec<String>> {
    first_non_option(argv, start, options, terminator).map(|i| argv[i..].to_vec())
}

/// The tail after a subcommand, a leading `--` dropped.
fn tail_after(argv: &[String], idx: usize) -> Vec<String> {
    let tail = argv.get(idx + 1..).unwrap_or_default();
    if tail.first().is_some_and(|t| t == "--") {
        tail[1..].to_vec()
    } else {
        tail.to_vec()
    }
}

fn unwrap_npm(argv: &[String]) -> Option<Vec<String>> {
    let idx = first_non_option(argv, 1, &npm_exec(), Terminator::Reject)?;
    if !NPM_EXEC_SUBCOMMANDS.contains(&arg_trimmed(argv, idx)) {
        return None;
    }
    let tail = argv.get(idx + 1..).unwrap_or_default();
    if tail.first().is_some_and(|t| t == "--") {
        return (tail.len() > 1).then(|| tail[1..].to_vec());
    }
    exec_arguments(argv, idx + 1, &npm_direct(), Terminator::Reject)
}

fn unwrap_pnpm(argv: &[String]) -> Option<Vec<String>> {
    let idx = first_non_option(argv, 1, &pnpm_exec(), Terminator::Skip)?;
    match arg_trimmed(argv, idx) {
        "exec" => {
            let tail = tail_after(argv, idx);
            let first = tail.first().map_or(String::new(), |t| {
                parse_inline_option(t).0.trim().to_lowercase()
            });
            (first != "-c" && first != "--shell-mode" && !tail.is_empty()).then_some(tail)
        }
        "dlx" => exec_arguments(argv, idx + 1, &pnpm_dlx(), Terminator::Stop),
        "node" => {
            let mut out = vec!["node".to_string()];
            out.extend(tail_after(argv, idx));
            Some(out)
        }
        _ => None,
    }
}

fn unwrap_yarn(argv: &[String]) -> Option<Vec<String>> {
    let idx = first_non_option(argv, 1, &yarn_leading(), Terminator::Skip)?;
    match arg_trimmed(argv, idx) {
        "exec" => Some(tail_after(argv, idx)).filter(|t| !t.is_empty()),
        "dlx" => exec_arguments(argv, idx + 1, &yarn_dlx(), Terminator::Stop),
        _ => None,
    }
}

/// The first subcommand after the options, lower-cased.
fn first_subcommand(argv: &[String], options: &Options) -> Option<String> {
    first_non_option(argv, 1, options, Terminator::Skip).map(|i| arg(argv, i).trim().to_lowercase())
}

fn mentions(argv: &[String], subcommands: &[&str]) -> bool {
    argv.iter()
        .skip(1)
        .any(|t| subcommands.contains(&t.trim().to_lowercase().as_str()))
}

/// `resolveKnownPackageManagerExecInvocation`.
fn classify(argv: &[String]) -> Invocation {
    let unwrapped = |inner: Option<Vec<String>>, unsafe_exec: bool| match inner {
        Some(inner) => Invocation::Unwrapped(inner),
        None if unsafe_exec => Invocation::Unsafe,
        None => Invocation::Plain,
    };
    match package_manager(arg(argv, 0)).as_str() {
        "npm" => {
            let first = first_subcommand(argv, &npm_exec());
            let hidden = first.is_none() && mentions(argv, NPM_EXEC_SUBCOMMANDS);
            let unsafe_exec = first
                .as_deref()
                .is_some_and(|s| NPM_EXEC_SUBCOMMANDS.contains(&s))
                || hidden;
            unwrapped(unwrap_npm(argv), unsafe_exec)
        }
        "npx" | "bunx" => unwrapped(
            exec_arguments(argv, 1, &npm_direct(), Terminator::Reject),
            true,
        ),
        "pnpm" => {
            let first = first_subcommand(argv, &pnpm_exec());
            let unsafe_exec = match first.as_deref() {
                Some(s) => {
                    PNPM_EXEC_SUBCOMMANDS.contains(&s)
                        || (!PNPM_SCRIPT_SUBCOMMANDS.contains(&s)
                            && !PNPM_NON_EXEC_SUBCOMMANDS.contains(&s))
                }
                None => mentions(argv, PNPM_EXEC_SUBCOMMANDS),
            };
            unwrapped(unwrap_pnpm(argv), unsafe_exec)
        }
        "yarn" => {
            let first = first_subcommand(argv, &yarn_exec());
            let unsafe_exec = match first.as_deref() {
                Some(s) => {
                    YARN_EXEC_SUBCOMMANDS.contains(&s)
                        || s == "run"
                        || !YARN_NON_EXEC_SUBCOMMANDS.contains(&s)
                }
                None => mentions(argv, YARN_EXEC_SUBCOMMANDS),
            };
            unwrapped(unwrap_yarn(argv), unsafe_exec)
        }
        _ => Invocation::Other,
    }
}

/// What the allowlist should match for a segment's (unwrapped) argv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Not a package-manager exec form: match the argv itself.
    Itself,
    /// A package-manager exec form: match the package it runs.
    Package(Vec<String>),
    /// An unsafe form: nothing matches.
    Blocked,
}

/// `resolvePackageManagerAllowlistTargetArgv`.
pub fn allowlist_target(argv: &[String]) -> Target {
    const MAX_DEPTH: usize = 6;
    let mut current = argv.to_vec();
    let mut saw_exec = false;
    for _ in 0..MAX_DEPTH {
        let dispatch = dispatch_plan(&current, 4);
        if dispatch.blocked {
            return Target::Blocked;
        }
        current = dispatch.argv;
        match classify(&current) {
            Invocation::Unwrapped(_) if has_exec_context_options(&current) => {
                return Target::Blocked;
            }
            Invocation::Unsafe => return Target::Blocked,
            Invocation::Unwrapped(inner) => {
                saw_exec = true;
                current = inner;
            }
            Invocation::Other | Invocation::Plain if !saw_exec => return Target::Itself,
            Invocation::Other | Invocation::Plain => {
                let plan = trust_plan(&current);
                let shell = plan
                    .argv
                    .first()
                    .is_some_and(|a| is_shell_wrapper_executable(a.trim()))
                    && bindable_inline_command(&plan.argv).is_some();
                return if plan.blocked || shell {
                    Target::Blocked
                } else {
                    Target::Package(plan.argv)
                };
            }
        }
    }
    Target::Blocked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn package_manager_forms() {
        assert_eq!(allowlist_target(&v(&["npm", "test"])), Target::Itself);
        assert_eq!(
            allowlist_target(&v(&["npx", "foo", "x"])),
            Target::Package(v(&["foo", "x"]))
        );
        assert_eq!(
            allowlist_target(&v(&["npm", "exec", "--", "foo"])),
            Target::Package(v(&["foo"]))
        );
        assert_eq!(
            allowlist_target(&v(&["npx", "-p", "x", "foo"])),
            Target::Blocked
        );
        assert_eq!(allowlist_target(&v(&["pnpm", "foo"])), Target::Blocked);
        assert_eq!(allowlist_target(&v(&["pnpm", "install"])), Target::Itself);
        assert_eq!(allowlist_target(&v(&["yarn", "build"])), Target::Blocked);
        assert_eq!(allowlist_target(&v(&["ls"])), Target::Itself);
    }
}
