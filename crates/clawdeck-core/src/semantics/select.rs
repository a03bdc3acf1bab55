//! Which pack answers: `--openclaw-version` (or `CLAWDECK_OPENCLAW_VERSION`), else
//! clawdeck.json5 `openclawVersion`, else the installed `openclaw --version`, else the config's
//! `meta.lastTouchedVersion`, else the newest pack. Every answer says which and why.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::regular_file::Links;

use super::{EMBEDDED_PACKS, Semantics, embedded, newest};

/// The pack in use and why it was chosen.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PackChoice {
    /// The pack's id (`seed`, `2026.9`, `2026.10.2`).
    pub pack: String,
    /// Why: `--openclaw-version seed`, `installed openclaw 2026.9.6 (/usr/bin/openclaw)`, ...
    pub reason: String,
    /// Stored packs that could not load (each names its file and why); another pack answered.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What the installed `openclaw --version` said (the console's header shows it).
    #[serde(skip)]
    pub installed: Installed,
}

/// What the installed `openclaw --version` contributed to a pack choice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Installed {
    /// Not asked: a version was named (flag, clawdeck.json5), the config is the demo, or no
    /// binary was found.
    #[default]
    NotAsked,
    /// The config was loaded without waiting for the answer (the console's first frame); the
    /// pack is provisional until it comes.
    Detecting,
    /// It answered with this version.
    Version(String),
    /// It gave no version, for this reason (`no answer within 5 s`).
    Unknown(String),
}

/// The OpenClaw version the operator asked for, and where they asked: `--openclaw-version` or
/// `CLAWDECK_OPENCLAW_VERSION`. It travels with a config request ([`crate::config::ConfigRequest`])
/// from the command line to every load and reload of that config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedVersion {
    pub version: String,
    /// `--openclaw-version` or `CLAWDECK_OPENCLAW_VERSION` (errors name it).
    pub from: &'static str,
}

impl RequestedVersion {
    /// `CLAWDECK_OPENCLAW_VERSION`, when set and not blank.
    pub fn from_env() -> Option<RequestedVersion> {
        std::env::var("CLAWDECK_OPENCLAW_VERSION")
            .ok()
            .filter(|v| !v.trim().is_empty())
            .map(|version| RequestedVersion {
                version,
                from: "CLAWDECK_OPENCLAW_VERSION",
            })
    }

    /// The flag's value as the command line parser gives it (it fills the flag from the
    /// variable too); `on_command_line` says whether the flag itself was written.
    pub fn from_flag(value: Option<&str>, on_command_line: bool) -> Option<RequestedVersion> {
        let value = value.filter(|v| !v.trim().is_empty())?;
        let env = RequestedVersion::from_env();
        if on_command_line || env.as_ref().is_none_or(|e| e.version != value) {
            return Some(RequestedVersion {
                version: value.to_string(),
                from: "--openclaw-version",
            });
        }
        env
    }
}

/// Where `clawdeck catalog sync` stores packs: `$XDG_DATA_HOME/clawdeck/packs`, else
/// `~/.local/share/clawdeck/packs`.
pub fn synced_packs_dir() -> Option<PathBuf> {
    crate::paths::data_dir().ok().map(|dir| dir.join("packs"))
}

/// Every pack id clawdeck can use: embedded ones, then synced ones.
pub fn available_packs() -> Vec<String> {
    let mut out: Vec<String> = EMBEDDED_PACKS
        .iter()
        .map(|(id, _)| id.to_string())
        .collect();
    if let Some(dir) = synced_packs_dir()
        && let Ok(entries) = std::fs::read_dir(dir)
    {
        let mut synced: Vec<String> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                name.strip_suffix(".json").map(str::to_string)
            })
            .collect();
        synced.sort();
        out.extend(
            synced
                .into_iter()
                .filter(|s| !out.contains(s))
                .collect::<Vec<_>>(),
        );
    }
    out
}

/// The synced pack for exactly `version`: `None` when there is none, `Err` (naming the file and
/// why) when it cannot load.
fn synced(version: &str) -> Option<Result<Arc<Semantics>, String>> {
    let path = synced_packs_dir()?.join(format!("{version}.json"));
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let shown = path.display().to_string();
    let cannot_load = |why: String| {
        let why = why
            .strip_prefix(&format!("{shown}: "))
            .map(str::to_string)
            .unwrap_or(why);
        format!("the stored pack {shown} cannot load: {why}")
    };
    if meta.len() > 64 * 1024 * 1024 {
        return Some(Err(cannot_load("larger than 64 MiB".to_string())));
    }
    Some(
        crate::regular_file::read_to_string(&path, Links::Follow)
            .map_err(|err| err.to_string())
            .and_then(|text| super::synced::over_nearest_rules(&text, &shown))
            .map(Arc::new)
            .map_err(cannot_load),
    )
}

/// The pack `clawdeck catalog sync` stored at `path`, laid over its nearest shipped pack, as
/// every command reads it (the fidelity suite reads a pack it synced into a directory of its own).
pub fn stored_pack(path: &std::path::Path) -> Result<Arc<Semantics>, String> {
    let shown = path.display().to_string();
    crate::regular_file::read_to_string(path, Links::Follow)
        .map_err(|err| format!("{shown}: {err}"))
        .and_then(|text| super::synced::over_nearest_rules(&text, &shown))
        .map(Arc::new)
}

/// `2026.9.6` → `2026.9`; `seed` stays.
fn series(version: &str) -> String {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() >= 2 {
        format!("{}.{}", parts[0], parts[1])
    } else {
        version.to_string()
    }
}

/// A version named by the operator (flag, variable, clawdeck.json5) that has no pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPack {
    /// Where it was named: `--openclaw-version`, `CLAWDECK_OPENCLAW_VERSION`,
    /// `<clawdeck.json5>: openclawVersion`.
    pub place: String,
    pub message: String,
}

impl std::fmt::Display for UnknownPack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// The pack for a version: a synced pack for exactly that version, else the embedded pack of
/// its series (`2026.9.6` → `2026.9`). A synced pack that cannot load is a warning in
/// `warnings`, and the search goes on without it.
fn pack_for(version: &str, warnings: &mut Vec<String>) -> Option<Arc<Semantics>> {
    let version = version.trim().trim_start_matches('v');
    match synced(version) {
        Some(Ok(found)) => return Some(found),
        Some(Err(err)) => warnings.push(err),
        None => {}
    }
    embedded(version).or_else(|| embedded(&series(version)))
}

/// Chooses the pack. `requested`: the flag; `settings`: clawdeck.json5 `openclawVersion` with
/// its origin; `installed`: `openclaw --version` with the binary; `meta`: the config's
/// `meta.lastTouchedVersion`. A stored pack that cannot load never fails the choice: it is a
/// warning in the choice, and a shipped pack answers.
pub fn choose(
    requested: Option<(&str, &str)>,
    settings: Option<(&str, &str)>,
    installed: Option<(&str, &str)>,
    meta: Option<&str>,
) -> Result<(Arc<Semantics>, PackChoice), UnknownPack> {
    let unknown = |v: &str, from: &str| UnknownPack {
        place: from.to_string(),
        message: format!(
            "no OpenClaw semantics pack for \"{v}\" (known: {}; `clawdeck catalog sync` stores one from a running gateway)",
            available_packs().join(", ")
        ),
    };
    let mut warnings = Vec::new();
    // What the operator names must exist.
    let named = requested
        .map(|(v, from)| {
            let why = if from.starts_with("--") {
                format!("{from} {v}")
            } else {
                format!("{from}={v}")
            };
            (v, why, from.to_string())
        })
        .or_else(|| {
            settings.map(|(v, origin)| {
                (
                    v,
                    format!("openclawVersion \"{v}\" in {origin}"),
                    format!("{origin}: openclawVersion"),
                )
            })
        });
    if let Some((v, why, place)) = named {
        return match pack_for(v, &mut warnings) {
            Some(s) => Ok(choice(s, why, warnings)),
            // It exists but cannot load: the newest shipped pack answers, and says why.
            None if !warnings.is_empty() => {
                let s = newest();
                let reason =
                    format!("the newest shipped pack: {why} names a stored pack that cannot load");
                Ok(choice(s, reason, warnings))
            }
            None => Err(unknown(v, &place)),
        };
    }
    // What is detected falls back to the newest pack when none matches, and says so.
    let mut fallback_note = None;
    for (version, what) in installed
        .map(|(v, bin)| (v, format!("installed openclaw {v} ({bin})")))
        .into_iter()
        .chain(meta.map(|v| (v, format!("the config's meta.lastTouchedVersion {v}"))))
    {
        if let Some(s) = pack_for(version, &mut warnings) {
            return Ok(choice(s, what, warnings));
        }
        fallback_note.get_or_insert(format!(
            "{what} has no pack; `clawdeck catalog sync` stores one"
        ));
    }
    let s = newest();
    let reason = match fallback_note {
        Some(note) => format!("the newest pack: {note}"),
        None => "the newest pack: no --openclaw-version, no openclaw installed, no meta.lastTouchedVersion".to_string(),
    };
    Ok(choice(s, reason, warnings))
}

fn choice(
    s: Arc<Semantics>,
    reason: String,
    warnings: Vec<String>,
) -> (Arc<Semantics>, PackChoice) {
    let pack = s.id.clone();
    let reason = if warnings.is_empty() || reason.contains("cannot load") {
        reason
    } else {
        format!("{reason}; its stored pack cannot load, so the shipped {pack} pack answers")
    };
    let warnings = warnings
        .into_iter()
        .map(|w| format!("{w}; the shipped {pack} pack answers instead (`clawdeck catalog sync` stores the pack again)"))
        .collect();
    (
        s,
        PackChoice {
            pack,
            reason,
            warnings,
            installed: Installed::NotAsked,
        },
    )
}

/// How long `openclaw --version` may take (it starts Node, about a second).
pub const VERSION_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// What one `openclaw --version` said. Asked once per binary per process; an answer (or a run
/// that ended without one) is also kept in clawdeck's cache dir per binary (path, size, mtime).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionProbe {
    /// The binary asked (its path).
    pub bin: String,
    /// The version it printed.
    pub version: Option<String>,
    /// Why there is no version (`no answer within 5 s`, `exited with code 1 without a version`).
    pub problem: Option<String>,
}

impl VersionProbe {
    /// `(version, binary)` when it answered.
    pub(crate) fn answer(&self) -> Option<(String, String)> {
        self.version.clone().map(|v| (v, self.bin.clone()))
    }

    /// What it contributes to a pack choice.
    pub fn installed(&self) -> Installed {
        match (&self.version, &self.problem) {
            (Some(version), _) => Installed::Version(version.clone()),
            (None, Some(problem)) => Installed::Unknown(problem.clone()),
            (None, None) => Installed::Unknown("no version".to_string()),
        }
    }
}

/// What is known about a binary's version without running anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnownVersion {
    /// There is no such binary: nothing to ask.
    NoBinary,
    /// Asked before (in this process, or cached for this very file).
    Remembered(VersionProbe),
    /// Only running it would tell.
    NotYet,
}

#[derive(Serialize, Deserialize)]
struct VersionCache {
    bin: String,
    modified_ns: u128,
    len: u64,
    /// `None`: the binary gave no version (remembered too, so a broken binary costs one try).
    version: Option<String>,
}

/// Where the installed `openclaw --version` answer is remembered:
/// `$XDG_CACHE_HOME/clawdeck/openclaw-version.json`, else `~/.cache/clawdeck/...`.
pub fn version_cache_file() -> Option<PathBuf> {
    crate::paths::cache_dir()
        .ok()
        .map(|dir| dir.join("openclaw-version.json"))
}

/// Finds `bin` on PATH unless it is a path already.
fn which(bin: &str) -> Option<PathBuf> {
    if bin.contains('/') {
        let p = PathBuf::from(bin);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(bin))
            .find(|p| p.is_file())
    })
}

/// The first `N.N[.N]` in `openclaw --version`'s output (`OpenClaw 2026.9.6 (eb377ac)`).
pub(crate) fn parse_version_output(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .map(|w| w.trim_start_matches('v'))
        .find(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() >= 2
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        })
        .map(str::to_string)
}

/// A binary as the cache knows it: its path, size and mtime.
struct BinaryStamp {
    path: PathBuf,
    shown: String,
    modified_ns: u128,
    len: u64,
}

fn stamp(bin: &str) -> Option<BinaryStamp> {
    let path = which(bin)?;
    let meta = std::fs::metadata(&path).ok()?;
    let modified_ns = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some(BinaryStamp {
        shown: path.display().to_string(),
        path,
        modified_ns,
        len: meta.len(),
    })
}

/// Each binary's one probe in this process; later askers wait for the first one's answer.
type ProbeCells = Mutex<HashMap<String, Arc<OnceLock<VersionProbe>>>>;

fn probe_cell(shown: &str) -> Arc<OnceLock<VersionProbe>> {
    static CELLS: OnceLock<ProbeCells> = OnceLock::new();
    let cells = CELLS.get_or_init(Default::default);
    let mut cells = cells.lock().unwrap_or_else(|p| p.into_inner());
    Arc::clone(cells.entry(shown.to_string()).or_default())
}

fn cached(stamp: &BinaryStamp) -> Option<VersionProbe> {
    // A FIFO or link planted here is refused, never waited on or followed.
    let text = crate::regular_file::read_to_string(&version_cache_file()?, Links::Refuse).ok()?;
    let cached: VersionCache = serde_json::from_str(&text).ok()?;
    (cached.bin == stamp.shown
        && cached.modified_ns == stamp.modified_ns
        && cached.len == stamp.len)
        .then(|| VersionProbe {
            bin: stamp.shown.clone(),
            problem: cached
                .version
                .is_none()
                .then(|| "printed no version (remembered from an earlier run)".to_string()),
            version: cached.version,
        })
}

fn store(stamp: &BinaryStamp, version: Option<String>) {
    let Some(cache) = version_cache_file() else {
        return;
    };
    let entry = VersionCache {
        bin: stamp.shown.clone(),
        modified_ns: stamp.modified_ns,
        len: stamp.len,
        version,
    };
    if let Some(dir) = cache.parent() {
        let _ = crate::process::private_fs::create_private_dir_all(dir);
    }
    if let Ok(text) = serde_json::to_string(&entry) {
        let _ = crate::regular_file::write(&cache, text.as_bytes(), 0o600, Links::Refuse);
    }
}

/// What is known about `bin`'s version without running it (the console's first frame).
pub fn known_openclaw_version(bin: &str) -> KnownVersion {
    let Some(stamp) = stamp(bin) else {
        return KnownVersion::NoBinary;
    };
    let cell = probe_cell(&stamp.shown);
    if let Some(probe) = cell.get() {
        return KnownVersion::Remembered(probe.clone());
    }
    match cached(&stamp) {
        Some(probe) => KnownVersion::Remembered(cell.get_or_init(|| probe).clone()),
        None => KnownVersion::NotYet,
    }
}

/// The installed OpenClaw's answer to `--version`; None when there is no such binary. Asked
/// once per binary per process (a failure included: a hanging binary costs its timeout once),
/// and from clawdeck's cache dir when this very file answered before.
pub fn probe_openclaw_version(bin: &str) -> Option<VersionProbe> {
    let stamp = stamp(bin)?;
    let cell = probe_cell(&stamp.shown);
    Some(
        cell.get_or_init(|| match cached(&stamp) {
            Some(probe) => probe,
            None => run_version(&stamp),
        })
        .clone(),
    )
}

/// The installed OpenClaw's version and the binary asked (see [`probe_openclaw_version`]).
pub fn installed_openclaw_version(bin: &str) -> Option<(String, String)> {
    probe_openclaw_version(bin)?.answer()
}

/// Runs `<bin> --version` under the process supervisor: null stdin, its own process group
/// (registered with the stop policy), [`VERSION_PROBE_TIMEOUT`], a few KiB of output kept. An
/// answer, or a run that exited without one, goes to the cache; a timeout, a stop or a death by
/// a signal does not (the next clawdeck asks again).
fn run_version(stamp: &BinaryStamp) -> VersionProbe {
    use crate::process::{OutputLimits, ProcessSpec};
    let spec = ProcessSpec::new(stamp.path.display().to_string())
        .arg("--version")
        .timeout(Some(VERSION_PROBE_TIMEOUT))
        .kill_grace(Duration::from_millis(500))
        .drain_grace(Duration::from_millis(200))
        .limits(OutputLimits {
            max_line_bytes: 1024,
            max_retained_lines: 64,
            max_retained_bytes: 4096,
        });
    let probe = |version: Option<String>, problem: Option<String>| VersionProbe {
        bin: stamp.shown.clone(),
        version,
        problem,
    };
    let outcome = match crate::process::run_blocking(spec) {
        Ok(outcome) => outcome,
        Err(err) => return probe(None, Some(err.to_string())),
    };
    let version = parse_version_output(&outcome.output.stdout_text());
    match outcome.killed_by {
        Some(crate::process::KillReason::Timeout) => probe(
            None,
            Some(format!(
                "no answer within {} s",
                VERSION_PROBE_TIMEOUT.as_secs()
            )),
        ),
        Some(reason) => probe(None, Some(format!("stopped ({reason})"))),
        None => {
            // Only an answer of the binary's own is kept: not a death by a signal (clawdeck's
            // stop policy killing it, an OOM kill).
            if outcome.exit.code().is_some() {
                store(stamp, version.clone());
            }
            let problem = version
                .is_none()
                .then(|| format!("{} without a version", outcome.summary()));
            probe(version, problem)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_requested_version_names_where_it_was_asked() {
        let flag = RequestedVersion::from_flag(Some("2026.8"), true).unwrap();
        assert_eq!(
            (flag.version.as_str(), flag.from),
            ("2026.8", "--openclaw-version")
        );
        assert_eq!(RequestedVersion::from_flag(Some("  "), true), None);
        assert_eq!(RequestedVersion::from_flag(None, false), None);
    }

    #[test]
    fn version_output_parses() {
        assert_eq!(
            parse_version_output("OpenClaw 2026.9.6 (eb377ac)\n").as_deref(),
            Some("2026.9.6")
        );
        assert_eq!(
            parse_version_output("v2026.10.1").as_deref(),
            Some("2026.10.1")
        );
        assert_eq!(parse_version_output("openclaw, no version"), None);
    }

    #[test]
    fn a_failed_probe_is_remembered_for_the_process() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("openclaw");
        // Not executable: the probe fails to start (nothing is cached on disk for that).
        std::fs::write(&bin, "#!/bin/sh\necho 'OpenClaw 2026.9.6'\n").unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o644)).unwrap();
        let bin = bin.display().to_string();
        assert_eq!(known_openclaw_version(&bin), KnownVersion::NotYet);
        let first = probe_openclaw_version(&bin).unwrap();
        assert_eq!(first.version, None);
        assert!(
            first
                .problem
                .as_deref()
                .is_some_and(|p| p.contains("permission denied")),
            "{first:?}"
        );
        // Now it would answer, but this process does not ask again.
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(probe_openclaw_version(&bin), Some(first.clone()));
        assert_eq!(
            known_openclaw_version(&bin),
            KnownVersion::Remembered(first.clone())
        );
        assert_eq!(
            first.installed(),
            Installed::Unknown(first.problem.clone().unwrap_or_default())
        );
        let missing = dir.path().join("nowhere").display().to_string();
        assert_eq!(known_openclaw_version(&missing), KnownVersion::NoBinary);
        assert_eq!(probe_openclaw_version(&missing), None);
    }

    #[test]
    fn a_probe_killed_by_a_signal_is_not_cached_on_disk() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("openclaw");
        // Dies as clawdeck's stop would kill it.
        std::fs::write(&bin, "#!/bin/sh\nkill -TERM $$\nsleep 5\n").unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let shown = bin.display().to_string();
        let probe = probe_openclaw_version(&shown).unwrap();
        assert_eq!(probe.version, None);
        assert!(
            probe
                .problem
                .as_deref()
                .is_some_and(|p| p.contains("SIGTERM")),
            "{probe:?}"
        );
        let stamp = stamp(&shown).unwrap();
        assert_eq!(cached(&stamp), None, "the next clawdeck asks again");
    }

    #[test]
    fn choice_order_and_reasons() {
        let (s, c) = choose(
            Some(("seed", "--openclaw-version")),
            None,
            Some(("2026.9.6", "/bin/openclaw")),
            None,
        )
        .unwrap();
        assert_eq!(s.id, "seed");
        assert_eq!(c.reason, "--openclaw-version seed");
        let (s, c) = choose(None, Some(("seed", "x/clawdeck.json5")), None, None).unwrap();
        assert_eq!(s.id, "seed");
        assert!(c.reason.contains("x/clawdeck.json5"));
        let (_, c) = choose(None, None, None, None).unwrap();
        assert!(c.reason.starts_with("the newest pack"));
        let err = choose(Some(("1999.1", "--openclaw-version")), None, None, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("no OpenClaw semantics pack for \"1999.1\""),
            "{err}"
        );
        let (s, c) = choose(None, None, Some(("1999.1.0", "/bin/openclaw")), None).unwrap();
        assert_eq!(s.id, newest().id);
        assert!(
            c.reason.contains("installed openclaw 1999.1.0"),
            "{}",
            c.reason
        );
    }
}
