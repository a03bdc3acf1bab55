//! `clawdeck --version` names the commit the binary is built from: build.rs asks `git rev-parse
//! --short HEAD` and falls back to "unknown" where git cannot answer (a source tarball, no git,
//! a tarball unpacked inside another repository). build.rs's own functions are tested here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../build.rs"]
#[allow(dead_code)]
mod build_script;

use std::path::Path;
use std::process::Command;

/// `git ARGS` in `dir`, trimmed; None when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

#[test]
fn version_prints_the_package_version_and_the_commit() {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let commit = git(root, &["rev-parse", "--short", "HEAD"]).unwrap_or("unknown".into());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("clawdeck {} ({commit})\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn outside_a_checkout_the_commit_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(build_script::git_commit(dir.path()), "unknown");
}

#[test]
fn a_crate_unpacked_inside_another_repository_does_not_take_its_commit() {
    if git(Path::new("."), &["--version"]).is_none() {
        eprintln!("no git: nothing to compare with");
        return;
    }
    let repo = tempfile::tempdir().unwrap();
    let quiet = |args: &[&str]| {
        let mut all = vec!["-c", "user.name=t", "-c", "user.email=t@example.com"];
        all.extend(args);
        git(repo.path(), &all).unwrap()
    };
    quiet(&["init", "-q"]);
    quiet(&["commit", "-q", "--allow-empty", "-m", "x"]);
    let head = quiet(&["rev-parse", "--short", "HEAD"]);
    assert_eq!(build_script::git_commit(repo.path()), head);
    let unpacked = repo.path().join("clawdeck-0.1.0");
    std::fs::create_dir(&unpacked).unwrap();
    assert_eq!(build_script::git_commit(&unpacked), "unknown");
}

/// A crate built by this very build.rs in a fresh repository: `cargo build --release` twice, and
/// the second compiles nothing. The repository starts with its refs unpacked (no packed-refs,
/// as `git init` and a commit leave it), then packs them; a new commit is noticed either way.
#[test]
fn an_unchanged_checkout_builds_nothing_twice_with_or_without_packed_refs() {
    if git(Path::new("."), &["--version"]).is_none() {
        eprintln!("no git: nothing to build");
        return;
    }
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("build.rs"),
        root.join("build.rs"),
    )
    .unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        "fn main() { println!(\"{}\", env!(\"CLAWDECK_GIT_COMMIT\")); }\n",
    )
    .unwrap();
    std::fs::write(root.join(".gitignore"), "/target\n").unwrap();
    let git_in = |args: &[&str]| {
        let mut all = vec!["-c", "user.name=t", "-c", "user.email=t@example.com"];
        all.extend(args);
        git(root, &all).unwrap()
    };
    git_in(&["init", "-q", "-b", "main"]);
    git_in(&["add", "."]);
    git_in(&["commit", "-q", "-m", "one"]);
    assert!(
        !root.join(".git/packed-refs").exists(),
        "refs start unpacked"
    );

    // What `cargo build --release -v` compiled (`Compiling` lines) and whether the build
    // script ran, and the commit the binary names.
    let build = || {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--release", "-v", "--offline"])
            .current_dir(root)
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{log}");
        let compiled = log.lines().any(|l| l.trim_start().starts_with("Compiling"));
        let bin = Command::new(root.join("target/release/probe"))
            .output()
            .unwrap();
        let commit = String::from_utf8(bin.stdout).unwrap().trim().to_string();
        (compiled, commit, log)
    };
    let head = || git_in(&["rev-parse", "--short", "HEAD"]);

    let (compiled, commit, _) = build();
    assert!(compiled);
    assert_eq!(commit, head());
    let (compiled, _, log) = build();
    assert!(!compiled, "the second build compiled again:\n{log}");

    git_in(&["commit", "-q", "--allow-empty", "-m", "two"]);
    let (compiled, commit, _) = build();
    assert!(compiled, "a new commit is noticed");
    assert_eq!(commit, head());
    let (compiled, _, log) = build();
    assert!(!compiled, "unpacked refs, after a commit:\n{log}");

    git_in(&["pack-refs", "--all"]);
    assert!(root.join(".git/packed-refs").is_file());
    assert!(!root.join(".git/refs/heads/main").exists());
    build();
    let (compiled, _, log) = build();
    assert!(!compiled, "packed refs:\n{log}");
    git_in(&["commit", "-q", "--allow-empty", "-m", "three"]);
    let (compiled, commit, _) = build();
    assert!(compiled, "a new commit on packed refs is noticed");
    assert_eq!(commit, head());
    let (compiled, _, log) = build();
    assert!(!compiled, "after a commit on packed refs:\n{log}");
}
