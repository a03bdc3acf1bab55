//! Will this command run? clawdeck's `explain exec` against every real turn of the exec verdict
//! matrix, as recorded from the real OpenClaw (tests/recordings/exec_verdicts/<version>/, made
//! by tests/recordings/record.sh; tests/exec_verdict_real.rs asks the real releases again, a
//! share of the cases a run). No OpenClaw needed: the matrix's config and approvals document
//! as tests/support/exec_matrix.rs writes them, under the release's pack.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;

use support::exec_matrix::{MatrixCase, RecordedConfig, SUITE, disagreement};
use support::recordings::Shelf;

#[test]
fn explain_exec_agrees_with_every_recorded_real_turn() {
    let versions = Shelf::versions(SUITE);
    assert!(
        versions.len() >= 2,
        "recordings of both releases expected (tests/recordings/record.sh): {versions:?}"
    );
    let cases = MatrixCase::all();
    assert!(cases.len() >= 70, "the matrix has {} cases", cases.len());
    let mut problems = Vec::new();
    let mut compared = 0;
    for version in versions {
        let shelf = Shelf::new(SUITE, &version);
        let live: BTreeMap<String, String> = cases.iter().map(|c| (c.id(), c.inputs())).collect();
        problems.extend(
            shelf
                .orphans(&live)
                .into_iter()
                .map(|path| format!("{path}: a recording no case has")),
        );
        let config = RecordedConfig::new(&version);
        let answers = std::thread::scope(|scope| {
            let halves: Vec<_> = cases
                .chunks(cases.len().div_ceil(2))
                .map(|half| {
                    scope.spawn(|| half.iter().map(|c| config.verdict(c)).collect::<Vec<_>>())
                })
                .collect();
            halves
                .into_iter()
                .flat_map(|h| h.join().expect("a half ran"))
                .collect::<Vec<_>>()
        });
        for (case, ours) in cases.iter().zip(answers) {
            let Some(recording) = shelf.find(&case.id(), &case.inputs()) else {
                problems.push(format!(
                    "{} (openclaw {version}): no recording for its inputs: \
                     tests/recordings/record.sh records it",
                    case.label()
                ));
                continue;
            };
            compared += 1;
            if let Some(why) = disagreement(&recording.answer, &ours) {
                problems.push(format!("{} (openclaw {version}): {why}", case.label()));
            }
        }
    }
    eprintln!("exec verdicts: {compared} recorded real turns compared");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_case_is_named_by_a_readable_stable_id() {
    let case = MatrixCase::all()[0];
    assert_eq!(case.label(), "main \"ls /\" interactive");
    assert!(
        case.id().starts_with("main-ls-interactive-"),
        "{}",
        case.id()
    );
    let ids: std::collections::BTreeSet<String> =
        MatrixCase::all().iter().map(|c| c.id()).collect();
    assert_eq!(
        ids.len(),
        MatrixCase::all().len(),
        "every case has its own id"
    );
}

/// The comparison can fail: each recorded turn with another verdict, and a denial with a
/// wording clawdeck's reason lacks, is a disagreement.
#[test]
fn a_wrong_recording_is_a_disagreement() {
    let version = Shelf::versions(SUITE).pop().expect("a release recorded");
    let shelf = Shelf::new(SUITE, &version);
    let config = RecordedConfig::new(&version);
    let case = MatrixCase::all()[0];
    let recording = shelf
        .find(&case.id(), &case.inputs())
        .expect("the first case is recorded");
    let ours = config.verdict(&case);
    assert_eq!(disagreement(&recording.answer, &ours), None);
    for verdict in ["runs", "asks", "denied", "hidden"] {
        if recording.answer["verdict"] == verdict {
            continue;
        }
        let mut wrong = recording.answer.clone();
        wrong["verdict"] = verdict.into();
        assert!(disagreement(&wrong, &ours).is_some(), "{verdict}: {ours}");
    }
    let mut wording = recording.answer.clone();
    wording["verdict"] = ours["verdict"].clone();
    wording["mark"] = "a reason no verdict gives".into();
    assert!(disagreement(&wording, &ours).is_some());
}
