//! What real OpenClaw's `openclaw config validate --json` says about configs clawdeck ships or
//! judges: the embedded demo is accepted, and an unknown tool profile is refused at every key
//! OpenClaw refuses it, as clawdeck refuses it. The tests are `#[ignore]`d (they need the real
//! CLI); `.ci/run` runs them with `--ignored` when OPENCLAW_BIN is the real OpenClaw. Asked to
//! run without it, they fail.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The real CLI from OPENCLAW_BIN; panics when it is missing or not OpenClaw.
fn real_openclaw() -> String {
    let bin = std::env::var("OPENCLAW_BIN")
        .ok()
        .filter(|b| !b.is_empty())
        .expect("OPENCLAW_BIN must name the real OpenClaw CLI (see ../shared/realclaw/README.md)");
    let out = Command::new(&bin).arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.trim_start().starts_with("OpenClaw 20"),
        "{bin} is not the real OpenClaw CLI (--version said {text:?})"
    );
    bin
}

/// `openclaw config validate --json` on `path`.
fn validate(bin: &str, path: &Path) -> Value {
    let out = Command::new(bin)
        .args(["config", "validate", "--json"])
        .env("OPENCLAW_CONFIG_PATH", path)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "openclaw config validate printed no JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn real_openclaw_accepts_the_embedded_demo_config() {
    let bin = real_openclaw();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openclaw.json5");
    std::fs::write(&path, clawdeck_core::config::DEMO_CONFIG).unwrap();
    let verdict = validate(&bin, &path);
    assert_eq!(verdict["valid"], true, "{verdict:#}");
    assert!(
        verdict["issues"].as_array().is_none_or(Vec::is_empty),
        "{verdict:#}"
    );
}

/// Every key a tool profile can be set at, with an unknown profile there.
const UNKNOWN_PROFILE_AT: &[(&str, &str)] = &[
    ("tools.profile", r#"{ tools: { profile: "codng" } }"#),
    (
        "tools.byProvider.openai.profile",
        r#"{ tools: { byProvider: { openai: { profile: "codng" } } } }"#,
    ),
    (
        "agents.list[0].tools.profile",
        r#"{ agents: { list: [{ id: "main", tools: { profile: "codng" } }] } }"#,
    ),
    (
        "agents.list[0].tools.byProvider.openai.profile",
        r#"{ agents: { list: [{ id: "main", tools: { byProvider: { openai: { profile: "codng" } } } }] } }"#,
    ),
    (
        "agents.entries.main.tools.profile",
        r#"{ agents: { entries: { main: { tools: { profile: "Coding" } } } } }"#,
    ),
];

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn real_openclaw_and_clawdeck_refuse_an_unknown_profile_at_every_key() {
    let bin = real_openclaw();
    let dir = tempfile::tempdir().unwrap();
    for (i, (key, text)) in UNKNOWN_PROFILE_AT.iter().enumerate() {
        let path = dir.path().join(format!("c{i}.json5"));
        std::fs::write(&path, text).unwrap();
        let verdict = validate(&bin, &path);
        assert_eq!(verdict["valid"], false, "{key}: {verdict:#}");
        let issue = &verdict["issues"][0];
        assert!(
            issue["path"].as_str().unwrap_or("").ends_with(".profile"),
            "{key}: {verdict:#}"
        );
        assert_eq!(
            issue["allowedValues"],
            serde_json::json!(["minimal", "coding", "messaging", "full"]),
            "{key}"
        );

        let out = assert_cmd::Command::cargo_bin("clawdeck")
            .unwrap()
            .args(["tools", "--config"])
            .arg(&path)
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .env_remove("CLAWDECK_OPENCLAW_VERSION")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{key}: clawdeck accepted it: {stderr}"
        );
        assert!(stderr.contains(key), "{key}: {stderr}");
    }
    // The known profiles pass both.
    let path = dir.path().join("known.json5");
    std::fs::write(
        &path,
        r#"{ tools: { profile: "coding", byProvider: { openai: { profile: "minimal" } } } }"#,
    )
    .unwrap();
    assert_eq!(validate(&bin, &path)["valid"], true);
}

/// The config-validity corpus (tests/fixtures/config-validity) asked of the real CLI again: the
/// cases without a recording for their config, those changed in a recent commit and today's
/// share of the rest (tests/support/recordings.rs). A fresh answer must be its recording, and
/// clawdeck's verdict (valid or not, and every key path) OpenClaw's. With `CLAWDECK_RECORD=1`
/// (tests/recordings/record.sh) every case is asked and recorded. A case clawdeck does not
/// answer is printed with its reason.
#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn real_openclaw_and_clawdeck_agree_on_the_config_validity_corpus() {
    use support::config_validity::{Corpus, SUITE, Verdict, clawdeck_verdict, corpus_dir};
    use support::recordings::{self, Shelf};
    let bin = real_openclaw();
    let (version, printed) = recordings::openclaw_version(Path::new(&bin));
    let shelf = Shelf::new(SUITE, &version);
    let home = tempfile::tempdir().unwrap();
    let corpus = Corpus::load();
    let cases: Vec<(String, String)> = corpus
        .cases
        .iter()
        .map(|c| (c.name.clone(), c.inputs()))
        .collect();
    // A case is a file: `unknown_profile.json5` changed is the case `unknown_profile`.
    let changed =
        recordings::changed_in_submission(&corpus_dir(), recordings::SUBMISSION_GAP_SECONDS)
            .into_iter()
            .map(|file| file.trim_end_matches(".json5").to_string())
            .collect();
    let share = recordings::share_from_env();
    let picked = recordings::recheck_selection(&cases, &shelf, &changed, share, recordings::now());
    recordings::announce("openclaw_validate_real", &picked, cases.len(), share);
    let (mut agree, mut rows, mut problems) = (0, Vec::new(), Vec::new());
    for case in corpus
        .cases
        .iter()
        .filter(|c| picked.iter().any(|(name, _)| *name == c.name))
    {
        let out = Command::new(&bin)
            .args(["config", "validate", "--json"])
            .env("OPENCLAW_CONFIG_PATH", &case.path)
            .env("REALCLAW_HOME", home.path())
            .output()
            .unwrap();
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: openclaw config validate printed no JSON ({e})",
                case.name
            )
        });
        let fresh = support::config_validity::recorded_answer(&answer);
        let same = recordings::Portable::new(&[]);
        problems.extend(shelf.record_or_check(&case.name, &case.inputs(), &printed, &fresh, &same));
        let real = Verdict::from_openclaw(&answer);
        if let Some(why) = corpus.not_modelled(&case.name) {
            rows.push(format!("NOT ANSWERED {:<40} {why}", case.name));
            continue;
        }
        let ours = clawdeck_verdict(&case.text, &case.name);
        let same = ours == real;
        rows.push(format!(
            "{} {:<40} openclaw {} {:?}",
            if same { "agree       " } else { "DISAGREE    " },
            case.name,
            if real.valid { "valid  " } else { "invalid" },
            real.paths
        ));
        if same {
            agree += 1;
        } else {
            problems.push(format!(
                "{}: openclaw {real:?}, clawdeck {ours:?}",
                case.name
            ));
        }
    }
    if recordings::recording() {
        let live = cases.into_iter().collect();
        for path in shelf.orphans(&live) {
            eprintln!("openclaw_validate_real: removes {path} (no case has it)");
            let _ = std::fs::remove_file(path);
        }
    }
    println!("{}", rows.join("\n"));
    println!(
        "{} cases asked: {agree} agree, {} problems, {} not answered",
        picked.len(),
        problems.len(),
        rows.iter()
            .filter(|r| r.starts_with("NOT ANSWERED"))
            .count()
    );
    assert!(problems.is_empty(), "{problems:#?}");
}
