//! Puts the git commit the binary is built from in `CLAWDECK_GIT_COMMIT` (`clawdeck --version`
//! shows it): `git rev-parse --short HEAD` in the crate root, or "unknown" where that cannot
//! answer (a tarball from crates.io, no git installed). Never fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let root = Path::new(&root);
    println!("cargo:rustc-env=CLAWDECK_GIT_COMMIT={}", git_commit(root));
    println!("cargo:rerun-if-changed=build.rs");
    for path in watched_git_files(root) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The git files whose change means a new commit: HEAD, the directory of the ref HEAD points
/// to (a commit writes the loose ref there, also when the ref was packed before) and
/// `packed-refs`. Only files that exist: cargo takes a watched path that is missing for a
/// changed one and would rebuild the crate on every build (a checkout whose refs were never
/// packed has no `packed-refs`). A worktree keeps HEAD in its own git dir and the refs in the
/// common one; `--git-path` finds both.
/// (Public for tests/version_cli.rs, which includes this file.)
pub fn watched_git_files(root: &Path) -> Vec<PathBuf> {
    let git_path = |name: &str| {
        git(root, &["rev-parse", "--git-path", name])
            .map(|path| root.join(path))
            .filter(|path| path.exists())
    };
    let mut watched: Vec<PathBuf> = git_path("HEAD").into_iter().collect();
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"])
        && let Some((dir, _)) = branch.rsplit_once('/')
    {
        watched.extend(git_path(dir));
    }
    watched.extend(git_path("packed-refs"));
    watched
}

/// The short commit of HEAD in `dir`, or "unknown" (also when `dir` is not the top of its
/// checkout: a source tarball unpacked inside some other repository is not that repository).
/// (Public for tests/version_cli.rs, which includes this file.)
pub fn git_commit(dir: &Path) -> String {
    let top = git(dir, &["rev-parse", "--show-toplevel"]);
    let same = |top: &String| match (Path::new(top).canonicalize(), dir.canonicalize()) {
        (Ok(top), Ok(dir)) => top == dir,
        _ => false,
    };
    match top {
        Some(top) if same(&top) => git(dir, &["rev-parse", "--short", "HEAD"]),
        _ => None,
    }
    .unwrap_or_else(|| "unknown".to_string())
}

/// What `git ARGS` prints in `dir` (trimmed), if it succeeds with one printable line.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    let printable =
        !text.is_empty() && !text.contains(['\n', '\r']) && !text.contains(char::is_control);
    (out.status.success() && printable).then(|| text.to_string())
}
