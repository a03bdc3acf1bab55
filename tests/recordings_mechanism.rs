//! The recordings of the real OpenClaw's answers (tests/support/recordings.rs): which cases a CI
//! run asks again (a case changed in a commit of the submission among them), how a recording is
//! named, replaced and found orphaned, and how a machine's paths leave and come back. The real suites' own check of a deliberately wrong recording is
//! `a_wrong_recording_fails_the_recheck` in tests/realclaw_fidelity.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::json;
use support::recordings::{
    OWN_CASES_DEFER_ROTATION, Portable, Recheck, SUBMISSION_GAP_SECONDS, Shelf,
    changed_in_submission, inputs_hash, recheck_selection,
};

const DAY: u64 = 86_400;

fn shelf() -> (tempfile::TempDir, Shelf) {
    let dir = tempfile::tempdir().unwrap();
    let shelf = Shelf {
        dir: dir.path().join("2026.9.6"),
        version: "2026.9.6".into(),
    };
    (dir, shelf)
}

#[test]
fn a_changed_case_a_missing_recording_and_a_share_of_the_rest_are_asked_again() {
    let (_dir, shelf) = shelf();
    let now = 1_000 * DAY;
    let cases: Vec<(String, String)> = (0..40)
        .map(|i| {
            (
                format!("case-{i}"),
                inputs_hash(&[("c", format!("{i}").as_bytes())]),
            )
        })
        .collect();
    for (case, inputs) in &cases {
        shelf.write(case, inputs, "OpenClaw 2026.9.6", json!({"tools": []}));
    }
    // case-0's inputs changed and it was not recorded again: its recording is for the old hash.
    let mut live = cases.clone();
    live[0].1 = inputs_hash(&[("c", b"changed")]);
    // case-1 changed in a recent commit and was recorded again.
    let changed: BTreeSet<String> = ["case-1".to_string()].into();

    let picked: BTreeMap<String, Recheck> = recheck_selection(&live, &shelf, &changed, 4, now)
        .into_iter()
        .collect();
    assert_eq!(picked.get("case-0"), Some(&Recheck::Missing));
    assert_eq!(picked.get("case-1"), Some(&Recheck::Changed));
    let rotation: Vec<&String> = picked
        .iter()
        .filter(|(_, why)| **why == Recheck::Rotation)
        .map(|(case, _)| case)
        .collect();
    assert!(
        (4..=18).contains(&rotation.len()),
        "about a quarter of 38: {rotation:?}"
    );

    // Over four days every recording is asked at least once, and no day asks them all.
    let mut asked = BTreeSet::new();
    for day in 0..4 {
        let picked = recheck_selection(&live, &shelf, &BTreeSet::new(), 4, now + day * DAY);
        assert!(picked.len() < live.len());
        asked.extend(picked.into_iter().map(|(case, _)| case));
    }
    assert_eq!(asked.len(), live.len());
    // A share of 1 (CLAWDECK_RECHECK=all) asks every one.
    assert_eq!(
        recheck_selection(&live, &shelf, &BTreeSet::new(), 1, now).len(),
        live.len()
    );
    // A submission with many cases of its own leaves the day's share for later; all still
    // asks every one.
    let many: BTreeSet<String> = live
        .iter()
        .take(OWN_CASES_DEFER_ROTATION)
        .map(|(case, _)| case.clone())
        .collect();
    let picked = recheck_selection(&live, &shelf, &many, 4, now);
    assert_eq!(picked.len(), OWN_CASES_DEFER_ROTATION);
    assert!(picked.iter().all(|(_, why)| *why != Recheck::Rotation));
    // case-0 is missing anyway: with it, one fewer of its own than the threshold.
    let fewer: BTreeSet<String> = many.iter().skip(2).cloned().collect();
    let picked = recheck_selection(&live, &shelf, &fewer, 4, now);
    assert!(picked.iter().any(|(_, why)| *why == Recheck::Rotation));
    assert_eq!(
        recheck_selection(&live, &shelf, &many, 1, now).len(),
        live.len()
    );
}

/// `git` in `dir` with a fixed author and commit time.
fn git_at(dir: &Path, when: u64, args: &[&str]) {
    let date = format!("@{when} +0000");
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[test]
fn a_case_changed_in_a_commit_of_the_submission_is_asked_again() {
    let repo = tempfile::tempdir().unwrap();
    let cases = repo.path().join("tests/fixtures/fidelity");
    for case in ["alpha", "beta", "gamma", "delta"] {
        std::fs::create_dir_all(cases.join(case)).unwrap();
        std::fs::write(cases.join(case).join("openclaw.json5"), "{}").unwrap();
    }
    let start = 1_000 * DAY;
    git_at(repo.path(), start, &["init", "-q"]);
    git_at(repo.path(), start, &["add", "."]);
    git_at(repo.path(), start, &["commit", "-q", "-m", "cases"]);
    // The session before: delta changed, and the last commit of that session 10 days later.
    let earlier = start + 10 * DAY;
    std::fs::write(cases.join("delta/openclaw.json5"), "{ tools: {} }").unwrap();
    git_at(repo.path(), earlier, &["commit", "-qam", "delta"]);
    // This submission, 11 hours on: beta changed, then two more commits 40 minutes apart.
    let now = earlier + 11 * 3600;
    std::fs::write(cases.join("beta/openclaw.json5"), "{ tools: {} }").unwrap();
    git_at(repo.path(), now, &["commit", "-qam", "beta"]);
    for (i, minutes) in [40u64, 80].iter().enumerate() {
        std::fs::write(repo.path().join("README"), format!("{i}")).unwrap();
        git_at(repo.path(), now + minutes * 60, &["add", "README"]);
        git_at(
            repo.path(),
            now + minutes * 60,
            &["commit", "-qm", "readme"],
        );
    }
    // gamma is changed and not committed; epsilon is a new case, not committed.
    std::fs::write(cases.join("gamma/context.json"), "{}").unwrap();
    std::fs::create_dir_all(cases.join("epsilon")).unwrap();
    std::fs::write(cases.join("epsilon/openclaw.json5"), "{}").unwrap();

    let changed = changed_in_submission(&cases, SUBMISSION_GAP_SECONDS);
    let want: BTreeSet<String> = ["beta", "epsilon", "gamma"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(changed, want, "delta changed in the session before");
    // A submission made of one long session with no long gap takes delta in too.
    assert!(changed_in_submission(&cases, 12 * 3600).contains("delta"));
    // Unless .ci/landed names the commit CI last passed on: then only what came after it.
    let commit = |rev: &str| {
        let out = Command::new("git")
            .args(["rev-parse", rev])
            .current_dir(repo.path())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let (delta, first) = (commit("HEAD~3"), commit("HEAD~4"));
    // Each landing is appended: the newest is the last line that names an ancestor of HEAD
    // (a commit of another history, as after a rebase, is passed over).
    std::fs::create_dir_all(repo.path().join(".ci")).unwrap();
    std::fs::write(
        repo.path().join(".ci/landed"),
        format!(
            "{} landed: the first\n{} landed: the newest\n{} landed: elsewhere\n",
            first.trim(),
            delta.trim(),
            "0123456789abcdef0123456789abcdef01234567"
        ),
    )
    .unwrap();
    assert_eq!(
        changed_in_submission(&cases, 12 * 3600),
        want,
        "after the landed delta"
    );
    // Outside a checkout git says nothing: only missing recordings and the rotation are asked.
    let plain = tempfile::tempdir().unwrap();
    assert!(changed_in_submission(plain.path(), SUBMISSION_GAP_SECONDS).is_empty());
}

#[test]
fn a_new_recording_replaces_the_old_inputs_and_orphans_are_named() {
    let (_dir, shelf) = shelf();
    let (old, new) = (inputs_hash(&[("a", b"1")]), inputs_hash(&[("a", b"2")]));
    assert_ne!(old, new);
    assert_eq!(old.len(), 16);
    shelf.write("alpha", &old, "OpenClaw 2026.9.6", json!({"n": 1}));
    shelf.write("beta", &old, "OpenClaw 2026.9.6", json!({"n": 2}));
    shelf.write("alpha", &new, "OpenClaw 2026.9.6", json!({"n": 3}));
    assert!(
        shelf.find("alpha", &old).is_none(),
        "the old inputs' recording is gone"
    );
    let alpha = shelf.find("alpha", &new).unwrap();
    assert_eq!(alpha.answer, json!({"n": 3}));
    assert_eq!(alpha.openclaw, "OpenClaw 2026.9.6");
    assert!(shelf.dir.join(format!("alpha@{new}.json")).is_file());

    // beta's case is gone; alpha's inputs changed again.
    let live: BTreeMap<String, String> = [("alpha".to_string(), old.clone())].into();
    let orphans = shelf.orphans(&live);
    assert_eq!(orphans.len(), 2, "{orphans:?}");
    assert!(orphans.iter().any(|p| p.contains("beta@")));
    assert!(orphans.iter().any(|p| p.contains(&format!("alpha@{new}"))));
}

#[test]
fn hashes_name_every_part_and_its_bytes() {
    let a = inputs_hash(&[("openclaw.json5", b"{}"), ("context.json", b"{}")]);
    assert_eq!(
        a,
        inputs_hash(&[("openclaw.json5", b"{}"), ("context.json", b"{}")])
    );
    assert_ne!(
        a,
        inputs_hash(&[("openclaw.json5", b"{} "), ("context.json", b"{}")])
    );
    // Moving a byte from one part to the next is another input.
    assert_ne!(
        inputs_hash(&[("x", b"ab"), ("y", b"c")]),
        inputs_hash(&[("x", b"a"), ("y", b"bc")])
    );
}

#[test]
fn a_machines_paths_become_placeholders_and_come_back() {
    let here = Portable::new(&[
        (
            "@FIXTURES@",
            "/work/main/tests/fixtures/fidelity".to_string(),
        ),
        ("@SSH_WORKSPACES@", "/tmp/x/workspaces".to_string()),
        ("@CHANNEL_PLUGINS@", String::new()),
    ]);
    let answer = json!({"tools": [{"description": "runs /work/main/tests/fixtures/fidelity/mcp/server.py in /tmp/x/workspaces/a"}]});
    let recorded = here.to_recorded(&answer);
    assert_eq!(
        recorded["tools"][0]["description"],
        "runs @FIXTURES@/mcp/server.py in @SSH_WORKSPACES@/a"
    );
    let there = Portable::new(&[
        (
            "@FIXTURES@",
            "/ci/checkout/tests/fixtures/fidelity".to_string(),
        ),
        ("@SSH_WORKSPACES@", "/tmp/y/workspaces".to_string()),
    ]);
    assert_eq!(
        there.to_local(&recorded)["tools"][0]["description"],
        "runs /ci/checkout/tests/fixtures/fidelity/mcp/server.py in /tmp/y/workspaces/a"
    );
    assert_eq!(here.to_local(&recorded), answer);
}

/// The recordings in the repository are well formed: each names its case and inputs as its
/// file name does, and says which OpenClaw answered.
#[test]
fn every_recording_in_the_repository_reads_back() {
    let root = support::recordings::recordings_root();
    let mut count = 0;
    for suite in std::fs::read_dir(&root).unwrap().flatten() {
        if !suite.path().is_dir() {
            continue;
        }
        let name = suite.file_name().to_string_lossy().into_owned();
        for version in Shelf::versions(&name) {
            let shelf = Shelf::new(&name, &version);
            for (case, inputs, path) in shelf.files() {
                let recording = shelf.find(&case, &inputs).unwrap();
                assert!(
                    recording.openclaw.contains(&version),
                    "{}: recorded from {} but kept under {version}",
                    path.display(),
                    recording.openclaw
                );
                assert_eq!(recording.recorded_with, "tests/recordings/record.sh");
                count += 1;
            }
        }
    }
    assert!(count > 0, "no recordings under {}", root.display());
}

/// Tool schemas are kept once per shelf, in its pool: a recording names them by hash and reads
/// back whole; a schema no recording uses any more is pruned.
#[test]
fn shared_schemas_are_pooled_and_read_back_whole() {
    let (_dir, shelf) = shelf();
    let read = json!({"name": "read", "parameters": {"type": "object"}});
    let exec = json!({"name": "exec", "parameters": {"type": "object", "required": ["command"]}});
    let one = json!({"kind": "single", "view": {"tools": [
        {"name": "read", "function": read.clone(), "owner": null},
        {"name": "exec", "function": exec.clone(), "owner": null}]}});
    let two = json!({"kind": "pair",
        "base": {"tools": [{"name": "read", "function": read.clone(), "owner": null}]},
        "run": {"tools": [{"name": "read", "function": read.clone(), "owner": null}]}});
    let (a, b) = (inputs_hash(&[("a", b"1")]), inputs_hash(&[("b", b"1")]));
    shelf.write("one", &a, "OpenClaw 2026.9.6", one.clone());
    shelf.write("two", &b, "OpenClaw 2026.9.6", two.clone());
    let pool = shelf.dir.join(support::recordings::POOL);
    assert_eq!(
        std::fs::read_dir(&pool).unwrap().count(),
        2,
        "read and exec, once each"
    );
    let on_disk = std::fs::read_to_string(shelf.dir.join(format!("one@{a}.json"))).unwrap();
    assert!(on_disk.contains("\"pooled\"") && !on_disk.contains("\"required\""));
    assert_eq!(shelf.find("one", &a).unwrap().answer, one);
    assert_eq!(shelf.find("two", &b).unwrap().answer, two);

    // `one` is recorded again without exec: exec's schema is no longer used.
    let without_exec = json!({"kind": "single", "view": {"tools": [
        {"name": "read", "function": read.clone(), "owner": null}]}});
    shelf.write("one", &a, "OpenClaw 2026.9.6", without_exec.clone());
    assert_eq!(shelf.prune_pool(), 1);
    assert_eq!(std::fs::read_dir(&pool).unwrap().count(), 1);
    assert_eq!(shelf.find("one", &a).unwrap().answer, without_exec);
    assert_eq!(shelf.find("two", &b).unwrap().answer, two);
}
