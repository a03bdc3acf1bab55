//! Which pack answers: `--openclaw-version` (or `CLAWDECK_OPENCLAW_VERSION`), else
//! clawdeck.json5 `openclawVersion`, else the installed `openclaw --version`, else the config's
//! `meta.lastTouchedVersion`, else the newest pack. Every answer says which and why.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::regular_file::Links;

use super::{EMBEDDED_PACKS, Semantics, embedded, newest};

/// The pack in use and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackChoice {
    /// The pack's id (`seed`, `2026.9`, `2026.10.2`).
    pub pack: String,
    /// Why: `--openclaw-version seed`, `installed openclaw 2026.9.6 (/usr/bin/openclaw)`, ...
    pub reason: String,
}

static REQUESTED: OnceLock<Option<String>> = OnceLock::new();

/// Records `--openclaw-version` for every config loaded by this process (the CLI sets it once,
/// before anything is loaded).
pub fn set_requested_version(version: Option<String>) {
    let _ = REQUESTED.set(version.filter(|v| !v.trim().is_empty()));
}

/// The version asked for, and where: `--openclaw-version` or `CLAWDECK_OPENCLAW_VERSION`.
pub fn requested_version() -> Option<(String, &'static str)> {
    let env = std::env::var("CLAWDECK_OPENCLAW_VERSION")
        .ok()
        .filter(|v| !v.trim().is_empty());
    if let Some(Some(v)) = REQUESTED.get() {
        // clap fills the flag from the variable too; the command line says which it was.
        let on_command_line = std::env::args().any(|a| a.starts_with("--openclaw-version"));
        if on_command_line || env.as_deref() != Some(v.as_str()) {
            return Some((v.clone(), "--openclaw-version"));
        }
    }
    env.map(|v| (v, "CLAWDECK_OPENCLAW_VERSION"))
}

/// Where `clawdeck catalog sync` stores packs: `$XDG_DATA_HOME/clawdeck/packs`, else
/// `~/.local/share/clawdeck/packs`.
pub fn synced_packs_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".local").join("share"))
        })?;
    Some(base.join("clawdeck").join("packs"))
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

fn synced(version: &str) -> Option<Result<Arc<Semantics>, String>> {
    let path = synced_packs_dir()?.join(format!("{version}.json"));
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() {
        return None;
    }
    if meta.len() > 64 * 1024 * 1024 {
        return Some(Err(format!("{}: larger than 64 MiB", path.display())));
    }
    Some(
        crate::regular_file::read_to_string(&path, Links::Follow)
            .map_err(|err| format!("{}: {err}", path.display()))
            .and_then(|text| over_newest_rules(&text, &path.display().to_string()))
            .map(Arc::new),
    )
}

/// A synced pack carries what a gateway reports (catalog, groups, profiles); the rules it
/// cannot report (subagent, sandbox, owner lists, Tool Search ...) come from the newest shipped
/// pack, which the synced keys override.
fn over_newest_rules(text: &str, origin: &str) -> Result<Semantics, String> {
    let synced: serde_json::Value =
        serde_json::from_str(text).map_err(|err| format!("{origin}: {err}"))?;
    let Some(synced_map) = synced.as_object() else {
        return Err(format!("{origin}: a pack is a JSON object"));
    };
    let newest_text = EMBEDDED_PACKS.last().map(|(_, t)| *t).unwrap_or("{}");
    let mut merged: serde_json::Value =
        serde_json::from_str(newest_text).map_err(|err| format!("{origin}: {err}"))?;
    if let Some(base) = merged.as_object_mut() {
        for (key, value) in synced_map {
            base.insert(key.clone(), value.clone());
        }
    }
    let text = serde_json::to_string(&merged).map_err(|err| format!("{origin}: {err}"))?;
    Semantics::from_pack_text(&text, origin)
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

/// The pack for a version: a synced pack for exactly that version, else the embedded pack of
/// its series (`2026.9.6` → `2026.9`).
fn pack_for(version: &str) -> Option<Result<Arc<Semantics>, String>> {
    let version = version.trim().trim_start_matches('v');
    if let Some(found) = synced(version) {
        return Some(found);
    }
    embedded(version)
        .or_else(|| embedded(&series(version)))
        .map(Ok)
}

/// Chooses the pack. `requested`: the flag; `settings`: clawdeck.json5 `openclawVersion` with
/// its origin; `installed`: `openclaw --version` with the binary; `meta`: the config's
/// `meta.lastTouchedVersion`.
pub fn choose(
    requested: Option<(&str, &str)>,
    settings: Option<(&str, &str)>,
    installed: Option<(&str, &str)>,
    meta: Option<&str>,
) -> Result<(Arc<Semantics>, PackChoice), String> {
    let unknown = |v: &str, from: &str| {
        format!(
            "{from}: no OpenClaw semantics pack for \"{v}\" (known: {}; `clawdeck catalog sync` stores one from a running gateway)",
            available_packs().join(", ")
        )
    };
    // What the operator names must exist.
    if let Some((v, from)) = requested {
        let why = if from.starts_with("--") {
            format!("{from} {v}")
        } else {
            format!("{from}={v}")
        };
        return match pack_for(v) {
            Some(Ok(s)) => Ok(choice(s, why)),
            Some(Err(err)) => Err(err),
            None => Err(unknown(v, from)),
        };
    }
    if let Some((v, origin)) = settings {
        return match pack_for(v) {
            Some(Ok(s)) => Ok(choice(s, format!("openclawVersion \"{v}\" in {origin}"))),
            Some(Err(err)) => Err(err),
            None => Err(unknown(v, &format!("{origin}: openclawVersion"))),
        };
    }
    // What is detected falls back to the newest pack when none matches, and says so.
    let mut fallback_note = None;
    for (version, what) in installed
        .map(|(v, bin)| (v, format!("installed openclaw {v} ({bin})")))
        .into_iter()
        .chain(meta.map(|v| (v, format!("the config's meta.lastTouchedVersion {v}"))))
    {
        match pack_for(version) {
            Some(Ok(s)) => return Ok(choice(s, what)),
            Some(Err(err)) => return Err(err),
            None => {
                fallback_note.get_or_insert(format!(
                    "{what} has no pack; `clawdeck catalog sync` stores one"
                ));
            }
        }
    }
    let s = newest();
    let reason = match fallback_note {
        Some(note) => format!("the newest pack: {note}"),
        None => "the newest pack: no --openclaw-version, no openclaw installed, no meta.lastTouchedVersion".to_string(),
    };
    Ok(choice(s, reason))
}

fn choice(s: Arc<Semantics>, reason: String) -> (Arc<Semantics>, PackChoice) {
    let pack = s.id.clone();
    (s, PackChoice { pack, reason })
}

#[derive(Serialize, Deserialize)]
struct VersionCache {
    bin: String,
    modified_ns: u128,
    len: u64,
    /// `None`: the binary gave no version (remembered too, so a broken binary costs one try).
    version: Option<String>,
}

fn cache_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".cache"))
        })?;
    Some(base.join("clawdeck").join("openclaw-version.json"))
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
pub fn parse_version_output(text: &str) -> Option<String> {
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

/// The installed OpenClaw's version and the binary asked, remembered per binary (path, size,
/// mtime) in clawdeck's cache dir: `openclaw --version` starts Node, which takes a second.
pub fn installed_openclaw_version(bin: &str) -> Option<(String, String)> {
    let path = which(bin)?;
    let meta = std::fs::metadata(&path).ok()?;
    let modified_ns = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let shown = path.display().to_string();
    let cache = cache_file();
    if let Some(cached) = cache
        .as_ref()
        .and_then(|c| crate::regular_file::read_to_string(c, Links::Refuse).ok())
        .and_then(|t| serde_json::from_str::<VersionCache>(&t).ok())
        && cached.bin == shown
        && cached.modified_ns == modified_ns
        && cached.len == meta.len()
    {
        return cached.version.map(|v| (v, shown));
    }
    let version = run_version(&path);
    if let Some(cache) = cache {
        let entry = VersionCache {
            bin: shown.clone(),
            modified_ns,
            len: meta.len(),
            version: version.clone(),
        };
        if let Some(dir) = cache.parent() {
            let _ = crate::gateway::paths::create_private_dir(dir);
        }
        if let Ok(text) = serde_json::to_string(&entry) {
            // A FIFO or link planted here is refused, never waited on or written through.
            let _ = crate::regular_file::write(&cache, text.as_bytes(), 0o600, Links::Refuse);
        }
    }
    version.map(|v| (v, shown))
}

/// Runs `<bin> --version` with null stdin, its own process group, a 5 s limit and only the
/// first 4 KiB of its output read (the pipe closes after that, so a binary that floods or hangs
/// costs at most the limit); the group is killed afterwards.
fn run_version(path: &Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()?;
    let stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(4096).read_to_end(&mut out);
        out
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let exited = loop {
        match child.try_wait() {
            Ok(Some(_)) => break true,
            Ok(None) if std::time::Instant::now() < deadline && !reader.is_finished() => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Ok(None) if reader.is_finished() && std::time::Instant::now() < deadline => {
                // 4 KiB read or the pipe closed: the answer is in; do not wait for more.
                break false;
            }
            _ => break false,
        }
    };
    if !exited {
        // Still running (or flooding): the whole group goes.
        let pgid = nix::unistd::Pid::from_raw(child.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
        let _ = child.wait();
    }
    let out = reader.join().ok()?;
    parse_version_output(&String::from_utf8_lossy(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let err = choose(Some(("1999.1", "--openclaw-version")), None, None, None).unwrap_err();
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
