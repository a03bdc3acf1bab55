//! Puts the git commit the binary is built from in `CLAWDECK_GIT_COMMIT` (`clawdeck --version`
//! shows it): `git rev-parse --short HEAD` in the crate root, or "unknown" where that cannot
//! answer (a tarball from crates.io, no git installed). Never fails the build.

use std::path::Path;
use std::process::Command;

fn main() {
    let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let root = Path::new(&root);
    println!("cargo:rustc-env=CLAWDECK_GIT_COMMIT={}", git_commit(root));
    println!("cargo:rerun-if-changed=build.rs");
    // A new commit or checkout changes HEAD or the ref it points to (a worktree keeps HEAD in
    // its own git dir and the refs in the common one; `--git-path` finds both).
    for name in ["HEAD", "packed-refs"] {
        if let Some(path) = git(root, &["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={}", root.join(path).display());
        }
    }
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"])
        && let Some(path) = git(root, &["rev-parse", "--git-path", &branch])
    {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
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
