//! Recordings of what the real OpenClaw answered, kept in the repository under
//! tests/recordings/<suite>/<openclaw version>/<case>@<inputs hash>.json.
//!
//! `cargo test` compares clawdeck with them (fast, no node); `.ci/run` asks the real OpenClaw
//! again for the cases `recheck_selection` picks (no recording for their inputs, inputs changed
//! in the submission, a rotating share of the rest, or all) and fails when a fresh answer
//! differs from its recording;
//! tests/recordings/record.sh (`CLAWDECK_RECORD=1`) writes them. Nothing else writes a
//! recording, and a recording is never rewritten by a check.

// A shelf that cannot be read or written is the test's failure, said by the expect message.
#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The commits of the submission CI checks: HEAD and the commits before it, back to the first
/// gap of more than this between two commits (a session commits every few minutes, and
/// sessions are hours apart). A case changed in them (or not committed) is asked again by
/// every CI run, recorded anew or not.
pub const SUBMISSION_GAP_SECONDS: u64 = 3 * 3600;

/// The directory of a shelf that holds its pooled tool schemas (`<hash>.json` each).
pub const POOL: &str = "schemas";

/// By default a CI run re-checks one in this many of the older recordings, a different share
/// each day (`CLAWDECK_RECHECK_SHARE` changes it; `CLAWDECK_RECHECK=all` re-checks all): every
/// recording within sixteen days. Sixteen, not eight, since the cases passed 230 (an eighth
/// took ten minutes) and the channel plugins' capture days came (CI's 45-minute budget,
/// docs/benchmarks.md); the releases are pinned, so a recording can only go stale by a change
/// of the lab, which re-checks its cases when it changes.
pub const DEFAULT_SHARE: u64 = 16;

/// Where the recordings live: $CLAWDECK_RECORDINGS_DIR (the mechanism's own tests point it at
/// a copy), else tests/recordings.
pub fn recordings_root() -> PathBuf {
    std::env::var_os("CLAWDECK_RECORDINGS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings"))
}

/// Whether this run writes recordings (tests/recordings/record.sh sets `CLAWDECK_RECORD=1`) or
/// checks them.
pub fn recording() -> bool {
    std::env::var("CLAWDECK_RECORD").is_ok_and(|v| v == "1")
}

/// A stable hash of a case's inputs (each part's name and bytes), 16 hex digits.
pub fn inputs_hash(parts: &[(&str, &[u8])]) -> String {
    let mut hasher = Sha256::new();
    for (name, bytes) in parts {
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    let digest = hasher.finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Every file directly in `dir` (sorted by name) as hash parts: a case directory's inputs.
pub fn dir_inputs_hash(dir: &Path) -> String {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("a case directory")
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("a case file");
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    let parts: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    inputs_hash(&parts)
}

/// One recorded answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recording {
    pub case: String,
    /// The inputs hash the answer belongs to (also in the file name).
    pub inputs: String,
    /// What `openclaw --version` printed.
    pub openclaw: String,
    /// When it was recorded (seconds since the epoch, UTC).
    pub recorded_at: u64,
    pub recorded_with: String,
    /// What the real OpenClaw answered, with this machine's paths replaced by placeholders.
    pub answer: Value,
}

/// The recordings of one suite against one OpenClaw version.
pub struct Shelf {
    pub dir: PathBuf,
    pub version: String,
}

impl Shelf {
    pub fn new(suite: &str, version: &str) -> Shelf {
        Shelf {
            dir: recordings_root().join(suite).join(version),
            version: version.to_string(),
        }
    }

    /// The versions a suite has recordings of.
    pub fn versions(suite: &str) -> Vec<String> {
        let mut versions: Vec<String> = std::fs::read_dir(recordings_root().join(suite))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.path().is_dir())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        versions.sort();
        versions
    }

    fn path(&self, case: &str, inputs: &str) -> PathBuf {
        self.dir.join(format!("{case}@{inputs}.json"))
    }

    /// The recording of `case` for exactly these inputs.
    pub fn find(&self, case: &str, inputs: &str) -> Option<Recording> {
        let path = self.path(case, inputs);
        let text = std::fs::read_to_string(&path).ok()?;
        let mut recording: Recording = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a recording: {e}", path.display()));
        self.unpool(&mut recording.answer);
        assert_eq!(
            (recording.case.as_str(), recording.inputs.as_str()),
            (case, inputs),
            "{}: its case and inputs are not its name's",
            path.display()
        );
        Some(recording)
    }

    /// Writes a recording made now, and removes the case's recordings of other inputs.
    pub fn write(&self, case: &str, inputs: &str, openclaw: &str, mut answer: Value) {
        std::fs::create_dir_all(&self.dir).expect("the recordings directory");
        self.pool(&mut answer);
        for (name, hash, path) in self.files() {
            if name == case && hash != inputs {
                std::fs::remove_file(path).expect("an old recording");
            }
        }
        let recording = Recording {
            case: case.to_string(),
            inputs: inputs.to_string(),
            openclaw: openclaw.to_string(),
            recorded_at: now(),
            recorded_with: "tests/recordings/record.sh".to_string(),
            answer,
        };
        let mut text = serde_json::to_string_pretty(&recording).expect("a recording");
        text.push('\n');
        std::fs::write(self.path(case, inputs), text).expect("a recording written");
    }

    /// What a real run does with a fresh answer: records it (`CLAWDECK_RECORD=1`), or checks it
    /// against its recording. None: recorded, or it matches; else why it fails (no recording
    /// for these inputs, or a stale one, with the first differing lines). `portable` maps this
    /// machine's paths to the recording's placeholders.
    pub fn record_or_check(
        &self,
        case: &str,
        inputs: &str,
        openclaw: &str,
        fresh: &Value,
        portable: &Portable,
    ) -> Option<String> {
        if recording() {
            self.write(case, inputs, openclaw, portable.to_recorded(fresh));
            return None;
        }
        let Some(recording) = self.find(case, inputs) else {
            return Some(format!(
                "{case}: no recording for its inputs ({inputs}) of openclaw {}: record it with \
                 tests/recordings/record.sh and commit it",
                self.version
            ));
        };
        let recorded = portable.to_local(&recording.answer);
        (recorded != *fresh).then(|| {
            format!(
                "{case}: the real OpenClaw now answers otherwise than its recording {} (recorded \
                 {}); a stale recording is a failure: record it again (tests/recordings/record.sh) \
                 after reading the difference:\n    {}",
                self.path(case, inputs).display(),
                recording.openclaw,
                first_differences(&recorded, fresh, 6).join("\n    ")
            )
        })
    }

    /// Every recording file: (case, inputs hash, path).
    pub fn files(&self) -> Vec<(String, String, PathBuf)> {
        let mut files: Vec<(String, String, PathBuf)> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        let stem = name.strip_suffix(".json")?;
                        let (case, hash) = stem.rsplit_once('@')?;
                        Some((case.to_string(), hash.to_string(), e.path()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }

    /// The pool of tool schemas the recordings share (most cases send the same schemas).
    fn pool_dir(&self) -> PathBuf {
        self.dir.join(POOL)
    }

    /// Moves every `function` object of `value` into the pool, leaving `{"pooled": HASH}`.
    fn pool(&self, value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    if key == "function" && item.is_object() {
                        let hash = inputs_hash(&[("function", item.to_string().as_bytes())]);
                        let path = self.pool_dir().join(format!("{hash}.json"));
                        if !path.is_file() {
                            std::fs::create_dir_all(self.pool_dir()).expect("the pool");
                            let mut text = serde_json::to_string_pretty(item).expect("JSON");
                            text.push('\n');
                            // Recordings are written from several tasks: write whole, then rename.
                            let file = tempfile::NamedTempFile::new_in(self.pool_dir())
                                .expect("a pool file");
                            std::fs::write(file.path(), text).expect("a pool file written");
                            file.persist(&path).expect("a pool file in place");
                        }
                        *item = serde_json::json!({ "pooled": hash });
                    } else {
                        self.pool(item);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.pool(item)),
            _ => {}
        }
    }

    /// Puts the pooled `function` objects back.
    fn unpool(&self, value: &mut Value) {
        match value {
            Value::Object(map) => {
                if let (1, Some(Value::String(hash))) = (map.len(), map.get("pooled")) {
                    let path = self.pool_dir().join(format!("{hash}.json"));
                    let text = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{}: a pooled schema: {e}", path.display()));
                    *value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    return;
                }
                map.values_mut().for_each(|item| self.unpool(item));
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.unpool(item)),
            _ => {}
        }
    }

    /// Removes the pooled schemas no recording refers to any more; returns how many.
    pub fn prune_pool(&self) -> usize {
        fn collect(value: &Value, used: &mut BTreeSet<String>) {
            match value {
                Value::Object(map) => match (map.len(), map.get("pooled")) {
                    (1, Some(Value::String(hash))) => {
                        used.insert(hash.clone());
                    }
                    _ => map.values().for_each(|item| collect(item, used)),
                },
                Value::Array(items) => items.iter().for_each(|item| collect(item, used)),
                _ => {}
            }
        }
        let mut used = BTreeSet::new();
        for (_, _, path) in self.files() {
            let text = std::fs::read_to_string(&path).expect("a recording");
            let value: Value = serde_json::from_str(&text).expect("a recording's JSON");
            collect(&value, &mut used);
        }
        let mut removed = 0;
        for entry in std::fs::read_dir(self.pool_dir())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.strip_suffix(".json").is_some_and(|h| used.contains(h)) {
                let _ = std::fs::remove_file(entry.path());
                removed += 1;
            }
        }
        removed
    }

    /// Recordings no live case has (its case is gone or its inputs changed): `live` maps each
    /// case to its inputs hash.
    pub fn orphans(&self, live: &BTreeMap<String, String>) -> Vec<String> {
        self.files()
            .into_iter()
            .filter(|(case, hash, _)| live.get(case) != Some(hash))
            .map(|(_, _, path)| path.display().to_string())
            .collect()
    }
}

/// The version `openclaw --version` names (`2026.9.6`) and the whole line it printed: the
/// shelf a real run's answers belong on.
pub fn openclaw_version(bin: &Path) -> (String, String) {
    let out = std::process::Command::new(bin)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let version = printed
        .split_whitespace()
        .find(|w| w.starts_with("20") && w.contains('.'))
        .unwrap_or_else(|| panic!("{}: no version in {printed:?}", bin.display()))
        .to_string();
    (version, printed)
}

/// The cases a real run asks about, each with why, printed as it goes.
pub fn announce(suite: &str, picked: &[(String, Recheck)], of: usize, share: u64) {
    for (name, why) in picked {
        eprintln!(
            "{suite}: asks the real OpenClaw about {name}: {}",
            why.label()
        );
    }
    eprintln!(
        "{suite}: {} of {of} cases asked again (those without a recording or changed lately, \
         and one in {share} of the others each day; CLAWDECK_RECHECK=all asks all)",
        picked.len(),
    );
}

/// Seconds since the epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Why a case is asked of the real OpenClaw again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recheck {
    /// No recording for its inputs (a new case, or one whose inputs changed).
    Missing,
    /// Its inputs changed in the submission (see `SUBMISSION_GAP_SECONDS`), recorded anew.
    Changed,
    /// Today's share of the other recordings.
    Rotation,
    /// `CLAWDECK_RECHECK=all` or recording.
    All,
}

impl Recheck {
    pub fn label(self) -> &'static str {
        match self {
            Recheck::Missing => "no recording for its inputs",
            Recheck::Changed => "its inputs changed in this submission",
            Recheck::Rotation => "today's rotating share",
            Recheck::All => "all asked",
        }
    }
}

/// How many of the other recordings a run re-checks: one in `share` (1: every one).
pub fn share_from_env() -> u64 {
    if std::env::var("CLAWDECK_RECHECK").is_ok_and(|v| v == "all") || recording() {
        return 1;
    }
    std::env::var("CLAWDECK_RECHECK_SHARE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_SHARE)
}

/// A submission that asks this many of its own cases (new, or changed in it) or more leaves the
/// day's rotating share to a later day: its own cases cost a CI run what the share would (some
/// 10 minutes for 20 cases), and CI's budget is 45 minutes (docs/benchmarks.md). The share's
/// cases come round again `share` days later.
pub const OWN_CASES_DEFER_ROTATION: usize = 12;

/// The cases (name, inputs hash) a run asks the real OpenClaw about, with why; the others keep
/// their recordings unchecked this time. Every one without a recording for its inputs, every
/// one in `changed` (the submission's), and the share of the rest whose stable slot is today's
/// (`now` in days since the epoch, modulo `share`): over `share` days every recording is
/// checked, but for a day whose submission asks [`OWN_CASES_DEFER_ROTATION`] of its own.
pub fn recheck_selection(
    cases: &[(String, String)],
    shelf: &Shelf,
    changed: &BTreeSet<String>,
    share: u64,
    now: u64,
) -> Vec<(String, Recheck)> {
    let today = (now / 86_400) % share.max(1);
    let mut picked = cases
        .iter()
        .filter_map(|(case, inputs)| {
            let why = if shelf.find(case, inputs).is_none() {
                Recheck::Missing
            } else if changed.contains(case) {
                Recheck::Changed
            } else if share <= 1 {
                Recheck::All
            } else if slot(case, share) == today {
                Recheck::Rotation
            } else {
                return None;
            };
            Some((case.clone(), why))
        })
        .collect::<Vec<_>>();
    let own = picked
        .iter()
        .filter(|(_, why)| matches!(why, Recheck::Missing | Recheck::Changed))
        .count();
    if own >= OWN_CASES_DEFER_ROTATION {
        picked.retain(|(_, why)| *why != Recheck::Rotation);
    }
    picked
}

/// A case's stable place in the rotation.
pub fn slot(case: &str, share: u64) -> u64 {
    let digest = Sha256::digest(case.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().unwrap_or_default()) % share.max(1)
}

/// The cases (entries right under `cases_dir`) whose files changed in the commits of the
/// submission (after the commit `.ci/landed` names, else back to the first gap of `gap`, see
/// `SUBMISSION_GAP_SECONDS`), or are changed and not committed. Empty
/// where git cannot say (no git, not a checkout): then only missing recordings and the
/// rotation are asked.
pub fn changed_in_submission(cases_dir: &Path, gap: u64) -> BTreeSet<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(cases_dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let Some(prefix) = git(&["rev-parse", "--show-prefix"]) else {
        return BTreeSet::new();
    };
    let prefix = prefix.trim().to_string();
    let mut changed = BTreeSet::new();
    let mut case_of = |path: &str| {
        if let Some(case) = path
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split('/').next())
            && !case.is_empty()
        {
            changed.insert(case.to_string());
        }
    };
    // Newest first, on the first-parent line: a line `@TIME` starts a commit, the lines after
    // it are its files under `cases_dir`. The submission ends at the first long gap.
    let log = git(&[
        "log",
        "--first-parent",
        "-n",
        "1000",
        "--format=@%ct",
        "--name-only",
        "--",
        ".",
    ])
    .unwrap_or_default();
    let all = git(&["log", "--first-parent", "-n", "1000", "--format=%ct"]).unwrap_or_default();
    let start = match landed(&git) {
        // After the commit CI last passed on: the submission is exactly what followed it.
        Some(landed) => git(&["log", "-1", "--format=%ct", &landed])
            .and_then(|t| t.trim().parse::<u64>().ok())
            .map_or_else(|| submission_start(&all, gap), |t| t + 1),
        None => submission_start(&all, gap),
    };
    let mut inside = false;
    for line in log.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(time) = line.strip_prefix('@') {
            inside = time.parse::<u64>().is_ok_and(|t| t >= start);
        } else if inside {
            case_of(line);
        }
    }
    let status = git(&[
        "status",
        "--porcelain",
        "--no-renames",
        "--untracked-files=all",
        "--",
        ".",
    ])
    .unwrap_or_default();
    for line in status.lines() {
        if let Some(path) = line.get(3..) {
            case_of(path);
        }
    }
    changed
}

/// The commit CI last passed on, as `.ci/landed` names it (a line appended each time a session
/// sees its stop landed, so the newest is last), if it is an ancestor of HEAD: the submission
/// is what came after it.
fn landed(git: &dyn Fn(&[&str]) -> Option<String>) -> Option<String> {
    let root = git(&["rev-parse", "--show-toplevel"])?;
    let text = std::fs::read_to_string(Path::new(root.trim()).join(".ci/landed")).ok()?;
    newest_landed(&text, |commit| {
        git(&["merge-base", "--is-ancestor", commit, "HEAD"]).is_some()
    })
}

/// The newest commit of `.ci/landed`'s text (its last line naming one) that `is_ancestor`.
fn newest_landed(text: &str, is_ancestor: impl Fn(&str) -> bool) -> Option<String> {
    text.lines()
        .rev()
        .filter_map(|line| line.split_whitespace().next())
        .find(|commit| is_ancestor(commit))
        .map(str::to_string)
}

/// The time of the submission's first commit: `times` are commit times, newest first; the
/// submission goes back until two neighbours are more than `gap` apart.
fn submission_start(times: &str, gap: u64) -> u64 {
    let mut start = u64::MAX;
    for time in times.lines().filter_map(|l| l.trim().parse::<u64>().ok()) {
        if start != u64::MAX && start.saturating_sub(time) > gap {
            break;
        }
        start = time;
    }
    start
}

/// This machine's paths in an answer, and the placeholders a recording keeps instead (a
/// recording made on one machine is read on another).
pub struct Portable {
    /// (local text, placeholder), the longest local text first.
    subs: Vec<(String, String)>,
}

impl Portable {
    pub fn new(subs: &[(&str, String)]) -> Portable {
        let mut subs: Vec<(String, String)> = subs
            .iter()
            .filter(|(_, local)| !local.is_empty())
            .map(|(placeholder, local)| (local.clone(), placeholder.to_string()))
            .collect();
        subs.sort_by_key(|(local, _)| std::cmp::Reverse(local.len()));
        Portable { subs }
    }

    /// The answer as recorded: local paths replaced by their placeholders.
    pub fn to_recorded(&self, answer: &Value) -> Value {
        let mut text = answer.to_string();
        for (local, placeholder) in &self.subs {
            text = text.replace(local.as_str(), placeholder);
        }
        serde_json::from_str(&text).expect("JSON with its strings replaced")
    }

    /// `text` rewritten by `f` with this machine's paths out of its reach: they are their
    /// placeholders while `f` runs, and put back after.
    pub fn around(&self, text: &str, f: impl Fn(&str) -> String) -> String {
        let mut text = text.to_string();
        for (local, placeholder) in &self.subs {
            text = text.replace(local.as_str(), placeholder);
        }
        let mut text = f(&text);
        for (local, placeholder) in &self.subs {
            text = text.replace(placeholder.as_str(), local);
        }
        text
    }

    /// A recorded answer with this machine's paths put back.
    pub fn to_local(&self, recorded: &Value) -> Value {
        let mut text = recorded.to_string();
        for (local, placeholder) in &self.subs {
            text = text.replace(placeholder.as_str(), local);
        }
        serde_json::from_str(&text).expect("JSON with its strings replaced")
    }
}

/// The first lines where two answers differ (pretty JSON, line by line), for a report.
pub fn first_differences(recorded: &Value, fresh: &Value, at_most: usize) -> Vec<String> {
    let a = serde_json::to_string_pretty(recorded).unwrap_or_default();
    let b = serde_json::to_string_pretty(fresh).unwrap_or_default();
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        if x != y {
            out.push(format!(
                "line {}: recorded {:?}, fresh {:?}",
                i + 1,
                x.unwrap_or("<end>"),
                y.unwrap_or("<end>")
            ));
            if out.len() >= at_most {
                break;
            }
        }
    }
    out
}
