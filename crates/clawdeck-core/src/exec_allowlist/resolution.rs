//! Which executable a segment runs: transparent wrappers unwrapped (`resolveExecWrapperTrustPlan`,
//! pure), then the executable found on disk through a [`Resolver`] (`resolveExecutablePath`:
//! PATH lookup for a bare name, cwd-relative for a path, X_OK regular files, realpath).

use std::os::unix::fs::PermissionsExt;

use super::carriers::{carrier_command_argv, unwrap_multiplexer};
use super::dispatch::{Unwrap, dispatch_plan, unwrap_dispatch};
use super::tokens::{arg_trimmed, js_trim, posix_basename};

/// How many wrappers are unwrapped before OpenClaw gives up (and blocks).
const MAX_WRAPPER_DEPTH: usize = 4;

/// A segment's argv after transparent wrappers (`nice`, `timeout`, `env`, `command`, `exec`,
/// `busybox sh`, ...), and whether a wrapper blocked it (`sudo`, `env FOO=1`, `command -v`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustPlan {
    /// The argv that runs.
    pub argv: Vec<String>,
    /// The argv policy matches (differs only behind `busybox`/`toybox`).
    pub policy_argv: Vec<String>,
    /// A wrapper blocked the segment: it can never be satisfied.
    pub blocked: bool,
}

/// `command`/`builtin`/`exec` carriers: Some(Ok(argv)) unwrapped, Some(Err(())) blocked.
fn unwrap_shell_argv_carrier(argv: &[String]) -> Option<Result<Vec<String>, ()>> {
    let token0 = arg_trimmed(argv, 0);
    if !matches!(token0, "builtin" | "command" | "exec") {
        return None;
    }
    if token0 == "command" {
        for index in 1..argv.len() {
            let token = arg_trimmed(argv, index);
            if token == "--" || !token.starts_with('-') {
                break;
            }
            if token[1..]
                .split('-')
                .next()
                .is_some_and(|head| head.contains('p'))
            {
                return Some(Err(()));
            }
        }
    }
    match carrier_command_argv(argv, true) {
        Some(inner) if !inner.is_empty() => Some(Ok(inner)),
        _ => Some(Err(())),
    }
}

/// One unwrapping step of the trust plan.
enum Step {
    /// Blocked; a dispatch wrapper gives the argv it stopped at.
    Blocked(Option<Vec<String>>),
    Dispatch(usize, Vec<String>),
    Carrier(Vec<String>),
    Multiplexer(Vec<String>),
    Done,
}

fn next_step(current: &[String], depth_left: usize) -> Step {
    let dispatch = dispatch_plan(current, depth_left);
    if dispatch.blocked {
        return Step::Blocked(Some(dispatch.argv));
    }
    if !dispatch.wrappers.is_empty() {
        return Step::Dispatch(dispatch.wrappers.len(), dispatch.argv);
    }
    match unwrap_shell_argv_carrier(current) {
        Some(Err(())) => return Step::Blocked(None),
        Some(Ok(inner)) => return Step::Carrier(inner),
        None => {}
    }
    match unwrap_multiplexer(current) {
        Some(Err(_)) => Step::Blocked(None),
        Some(Ok(inner)) => Step::Multiplexer(inner),
        None => Step::Done,
    }
}

/// Whether anything at `argv` would unwrap further (past the depth limit that blocks).
fn unwraps_further(argv: &[String]) -> bool {
    unwrap_dispatch(argv) != Unwrap::NotWrapper
        || unwrap_shell_argv_carrier(argv).is_some()
        || unwrap_multiplexer(argv).is_some()
}

/// `resolveExecWrapperTrustPlan`.
pub fn trust_plan(argv: &[String]) -> TrustPlan {
    let mut current = argv.to_vec();
    let mut policy_argv = argv.to_vec();
    let mut saw_multiplexer = false;
    let mut depth = 0;
    for _ in 0..MAX_WRAPPER_DEPTH {
        let (count, inner) = match next_step(&current, MAX_WRAPPER_DEPTH - depth) {
            Step::Blocked(Some(at)) => {
                return TrustPlan {
                    argv: at.clone(),
                    policy_argv: at,
                    blocked: true,
                };
            }
            Step::Blocked(None) => {
                return TrustPlan {
                    argv: current,
                    policy_argv,
                    blocked: true,
                };
            }
            Step::Dispatch(count, inner) => (count, inner),
            Step::Carrier(inner) => (1, inner),
            Step::Multiplexer(inner) => {
                if !saw_multiplexer {
                    policy_argv = current.clone();
                    saw_multiplexer = true;
                }
                (1, inner)
            }
            Step::Done => break,
        };
        depth += count;
        current = inner;
        if !saw_multiplexer {
            policy_argv = current.clone();
        }
        if depth >= MAX_WRAPPER_DEPTH {
            break;
        }
    }
    if depth >= MAX_WRAPPER_DEPTH && unwraps_further(&current) {
        return TrustPlan {
            argv: current,
            policy_argv,
            blocked: true,
        };
    }
    TrustPlan {
        argv: current,
        policy_argv,
        blocked: false,
    }
}

/// Where executables are looked up: PATH, the working directory, HOME, and the filesystem.
/// Tests and callers that are not the real host can supply their own.
pub trait Resolver {
    /// The PATH to search (`:`-separated).
    fn path_env(&self) -> &str;
    /// The working directory commands run in (absolute).
    fn cwd(&self) -> &str;
    /// The home directory `~` expands to.
    fn home(&self) -> Option<&str>;
    /// A regular file (links followed) this process may execute.
    fn is_executable_file(&self, path: &str) -> bool;
    /// The canonical path (links resolved), if the file exists.
    fn realpath(&self, path: &str) -> Option<String>;
    /// Whether this user could change the file at `path` (`pathLooksMutableForShellPayloadSync`:
    /// it or its directory is writable or owned by the user, or it cannot be resolved). An
    /// approval for such a file binds its content and is one-shot. Default: no.
    fn could_change(&self, _path: &str) -> bool {
        false
    }
}

/// The real filesystem, with a given PATH, working directory and home.
#[derive(Debug, Clone)]
pub struct PathResolver {
    /// PATH, `:`-separated.
    pub path: String,
    /// The working directory.
    pub cwd: String,
    /// Where `~` points.
    pub home: Option<String>,
    /// Whether [`Resolver::could_change`] looks at the files (off: nothing could; for answers
    /// that must not depend on who runs them, such as snapshots).
    pub check_ownership: bool,
}

impl PathResolver {
    /// As this process finds executables: its PATH (else `/usr/bin:/bin`) and working
    /// directory.
    pub fn from_env() -> Self {
        let path = std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".to_string());
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "/".to_string());
        Self::new(&path, &cwd)
    }

    /// PATH and cwd as given; HOME from the environment.
    pub fn new(path: &str, cwd: &str) -> Self {
        PathResolver {
            path: path.to_string(),
            cwd: cwd.to_string(),
            home: std::env::var("HOME").ok().filter(|h| !h.is_empty()),
            check_ownership: true,
        }
    }

    /// The same lookups, with no file counted as changeable by this user.
    pub fn ignoring_ownership(self) -> Self {
        PathResolver {
            check_ownership: false,
            ..self
        }
    }
}

impl Resolver for PathResolver {
    fn path_env(&self) -> &str {
        &self.path
    }

    fn cwd(&self) -> &str {
        &self.cwd
    }

    fn home(&self) -> Option<&str> {
        self.home.as_deref()
    }

    /// A regular file with an execute bit. std has no access(2): as root (OpenClaw's gateway
    /// usually is) X_OK holds exactly when some execute bit is set, which is what is checked.
    fn is_executable_file(&self, path: &str) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }

    fn realpath(&self, path: &str) -> Option<String> {
        let real = std::fs::canonicalize(path).ok()?;
        real.to_str().map(str::to_string)
    }

    fn could_change(&self, path: &str) -> bool {
        if !self.check_ownership {
            return false;
        }
        let Some(real) = self.realpath(path) else {
            return true;
        };
        let mine = |p: &std::path::Path| {
            nix::unistd::access(p, nix::unistd::AccessFlags::W_OK).is_ok()
                || std::fs::metadata(p).is_ok_and(|m| {
                    std::os::unix::fs::MetadataExt::uid(&m) == nix::unistd::geteuid().as_raw()
                })
        };
        [path, real.as_str()].iter().any(|p| {
            let p = std::path::Path::new(p);
            mine(p) || p.parent().is_some_and(mine)
        })
    }
}

/// `path.posix.normalize` of an absolute path (`.` and `..` resolved, no trailing slash).
pub fn normalize_absolute(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `path.resolve(base, path)` for an absolute base.
pub fn resolve_path(base: &str, path: &str) -> String {
    if path.starts_with('/') {
        normalize_absolute(path)
    } else {
        normalize_absolute(&format!("{base}/{path}"))
    }
}

/// `expandHomePrefix`: `~` alone or `~/...` (and `~\...`) becomes the home directory.
pub fn expand_home(text: &str, home: Option<&str>) -> String {
    let Some(home) = home else {
        return text.to_string();
    };
    match text.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') || rest.starts_with('\\') => {
            format!("{home}{rest}")
        }
        _ => text.to_string(),
    }
}

/// The path a token names when it has a separator (`~` expanded, cwd-relative), else None.
pub fn path_candidate(raw: &str, resolver: &dyn Resolver) -> Option<String> {
    let expanded = if raw.starts_with('~') {
        expand_home(raw, resolver.home())
    } else {
        raw.to_string()
    };
    if !expanded.contains('/') && !expanded.contains('\\') {
        return None;
    }
    Some(resolve_path(resolver.cwd(), &expanded))
}

/// `resolveExecutablePath`.
fn find_executable(raw: &str, resolver: &dyn Resolver) -> Option<String> {
    if let Some(candidate) = path_candidate(raw, resolver) {
        return resolver.is_executable_file(&candidate).then_some(candidate);
    }
    let name = if raw.starts_with('~') {
        expand_home(raw, resolver.home())
    } else {
        raw.to_string()
    };
    for entry in resolver.path_env().split(':') {
        let traversal = entry.split('/').any(|p| p == "..");
        let candidate = if traversal {
            let dir = if entry.starts_with('/') {
                entry.to_string()
            } else {
                format!("{}/{entry}", resolver.cwd())
            };
            format!("{dir}/{name}")
        } else {
            resolve_path(&resolve_path(resolver.cwd(), entry), &name)
        };
        if resolver.is_executable_file(&candidate) {
            return Some(candidate);
        }
    }
    None
}

/// One executable as resolved: the raw token, the path found, its realpath and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
    /// The token as written (after wrappers).
    pub raw: String,
    /// The path found (may be a link).
    pub resolved_path: Option<String>,
    /// The path with links resolved.
    pub real_path: Option<String>,
    /// The basename of the path found, or the raw token when none was.
    pub name: String,
}

/// `buildExecutableResolution`.
pub fn resolve_executable(raw: &str, resolver: &dyn Resolver) -> Executable {
    let resolved_path = find_executable(raw, resolver);
    let real_path = resolved_path.as_deref().and_then(|p| resolver.realpath(p));
    let name = resolved_path
        .as_deref()
        .map_or_else(|| raw.to_string(), |p| posix_basename(p).to_string());
    Executable {
        raw: raw.to_string(),
        resolved_path,
        real_path,
        name,
    }
}

/// `resolveExecutableTrustPath`: the realpath, or for a path token the path (or its realpath)
/// even when it is not an executable file.
pub fn trust_path(executable: &Executable, resolver: &dyn Resolver) -> Option<String> {
    if let Some(real) = executable
        .real_path
        .as_deref()
        .filter(|r| !js_trim(r).is_empty())
    {
        return Some(real.to_string());
    }
    let candidate = candidate_path(executable, resolver)?;
    Some(resolver.realpath(&candidate).unwrap_or(candidate))
}

/// `resolveExecutableCandidatePathFromResolution`.
pub fn candidate_path(executable: &Executable, resolver: &dyn Resolver) -> Option<String> {
    if let Some(path) = &executable.resolved_path {
        return Some(path.clone());
    }
    let raw = js_trim(&executable.raw);
    if raw.is_empty() {
        return None;
    }
    path_candidate(raw, resolver)
}

/// A segment's resolution: what runs, what policy matches, and the unwrapped argv.
#[derive(Debug, Clone)]
pub struct CommandResolution {
    /// The executable that runs.
    pub execution: Executable,
    /// The executable policy matches.
    pub policy: Executable,
    /// The argv after wrappers.
    pub effective_argv: Vec<String>,
}

/// `resolveCommandResolutionFromArgv` (the trust plan given): None when no executable is left.
pub fn resolve_command(trust: &TrustPlan, resolver: &dyn Resolver) -> Option<CommandResolution> {
    let raw = arg_trimmed(&trust.argv, 0);
    if raw.is_empty() {
        return None;
    }
    let execution = resolve_executable(raw, resolver);
    let policy_raw = arg_trimmed(&trust.policy_argv, 0);
    let policy = if policy_raw.is_empty() {
        execution.clone()
    } else {
        resolve_executable(policy_raw, resolver)
    };
    Some(CommandResolution {
        execution,
        policy,
        effective_argv: trust.argv.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn wrappers_unwrap_or_block() {
        assert_eq!(trust_plan(&v(&["timeout", "5", "ls"])).argv, v(&["ls"]));
        assert!(!trust_plan(&v(&["env", "ls"])).blocked);
        assert!(trust_plan(&v(&["env", "FOO=1", "ls"])).blocked);
        assert!(trust_plan(&v(&["sudo", "ls"])).blocked);
        assert!(trust_plan(&v(&["command", "-v", "ls"])).blocked);
        assert!(trust_plan(&v(&["command", "-p", "ls"])).blocked);
        assert_eq!(trust_plan(&v(&["exec", "nice", "ls"])).argv, v(&["ls"]));
        let deep = v(&["nice", "nice", "nice", "nice", "nice", "ls"]);
        assert!(trust_plan(&deep).blocked);
        let mux = trust_plan(&v(&["busybox", "sh", "-c", "ls"]));
        assert_eq!(mux.policy_argv[0], "busybox");
        assert_eq!(mux.argv[0], "sh");
    }

    #[test]
    fn paths() {
        assert_eq!(resolve_path("/tmp", "../usr/./bin/"), "/usr/bin");
        assert_eq!(resolve_path("/tmp", ""), "/tmp");
        assert_eq!(expand_home("~/x", Some("/root")), "/root/x");
        assert_eq!(expand_home("~user", Some("/root")), "~user");
    }
}
