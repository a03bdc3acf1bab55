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
