//! The host approvals document (OpenClaw's "exec approvals"): per agent and `*`, settings that
//! can only tighten the config (security the smaller, ask the larger), the askFallback a
//! question falls back to when nobody can answer it, and the allowlist. The shape is what
//! `openclaw approvals set --file` takes and `approvals get --json` prints under `file`:
//! `{ version, defaults: {security, ask, askFallback, autoAllowSkills}, agents: { "<id>" | "*":
//! { security, ask, askFallback, allowlist: ["pattern" | {pattern, argPattern, source}] } } }`.

use crate::paths::openclaw_state_dir;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::levels::{Ask, Security};

/// One allowlist entry as the document holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllowEntry {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// `allow-always` for entries the operator's answer stored (they match only the command
    /// and directory they were stored for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Where it is in the document (`agents.ops.allowlist[0]`).
    pub key: String,
}

/// The document's values for one agent, each with the key that set it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DocPolicy {
    pub security: Option<(Security, String)>,
    pub ask: Option<(Ask, String)>,
    pub ask_fallback: Option<(Security, String)>,
    /// `agents."*".allowlist` then `agents.<id>.allowlist`.
    pub allowlist: Vec<AllowEntry>,
}

/// Reads a document from a file the operator named: a regular file only (a FIFO never blocks),
/// bounded as a config file is; the error names the file.
pub fn read(path: &std::path::Path) -> Result<Value, String> {
    let origin = path.display().to_string();
    let text =
        crate::config::read_text::read_config_text(path).map_err(|e| format!("{origin}: {e}"))?;
    parse(&text, &origin)
}

/// Parses a document (JSON5); the error names the place.
pub fn parse(text: &str, origin: &str) -> Result<Value, String> {
    let value: Value = json5::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
    if !value.is_object() {
        return Err(format!("{origin}: an approvals document is a JSON object"));
    }
    Ok(value)
}

/// Where OpenClaw (2026.8 and 2026.9) keeps the host approvals document: the row `current` of
/// the table `exec_approvals_config` (column `raw_json`) in `<state>/state/openclaw.sqlite`.
pub fn state_locator(state: &Path) -> String {
    format!(
        "{}#exec_approvals_config",
        crate::state_db::database(state).display()
    )
}

/// Reads the stored document from the state directory, read-only. `Ok(None)`: nothing stored
/// (no database, no table or no row: OpenClaw's defaults apply). The error names the place:
/// a legacy `exec-approvals.json` that OpenClaw refuses to read past, a database that is not a
/// regular file or cannot be read, a row that is too large or not a JSON object (OpenClaw then
/// denies every exec: it fails closed).
pub fn read_state(state: &Path) -> Result<Option<Value>, String> {
    let legacy = state.join("exec-approvals.json");
    if legacy.exists() {
        return Err(format!(
            "{}: a legacy approvals file; OpenClaw reads no approvals (and runs no exec that \
             needs them) until `openclaw doctor --fix` imports it",
            legacy.display()
        ));
    }
    let db = state.join("state/openclaw.sqlite");
    let locator = state_locator(state);
    let meta = match std::fs::metadata(&db) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{locator}: {e}")),
    };
    if !meta.is_file() {
        return Err(format!("{locator}: not a regular file"));
    }
    let raw = stored_row(&db)
        .map_err(|e| format!("{locator}: {e} (OpenClaw fails closed: exec denied)"))?;
    raw.map(|text| parse(&text, &locator)).transpose()
}

/// The document in use and where it came from: `file` when given, else the row OpenClaw stored
/// under its state directory (`OPENCLAW_STATE_DIR`, else `$HOME/.openclaw`); `(None, None)`
/// when nothing is stored. The error names the place.
pub fn find(file: Option<&Path>) -> Result<(Option<Value>, Option<String>), String> {
    if let Some(path) = file {
        return Ok((Some(read(path)?), Some(path.display().to_string())));
    }
    let Some(state) = openclaw_state_dir() else {
        return Ok((None, None));
    };
    let doc = read_state(&state)?;
    let from = doc.is_some().then(|| state_locator(&state));
    Ok((doc, from))
}

/// The `raw_json` of row `current`, bounded as a config file is.
fn stored_row(db: &Path) -> Result<Option<String>, String> {
    crate::state_db::text_row(db, crate::state_db::APPROVALS)
}

/// What the document says for `agent`: each field from `agents.<id>`, else `agents."*"`,
/// else `defaults` (an invalid value is passed over, as OpenClaw drops it).
pub fn for_agent(doc: &Value, agent: &str) -> DocPolicy {
    let agents = doc.get("agents");
    // OpenClaw merges the legacy `agents.default` into `main`.
    let own_id = if agent == "main" && agents.and_then(|a| a.get("main")).is_none() {
        "default"
    } else {
        agent
    };
    let scopes: Vec<(&Value, String)> = [
        agents
            .and_then(|a| a.get(own_id))
            .map(|v| (v, format!("agents.{own_id}"))),
        agents
            .and_then(|a| a.get("*"))
            .map(|v| (v, "agents.\"*\"".to_string())),
        doc.get("defaults").map(|v| (v, "defaults".to_string())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let field = |name: &str| {
        scopes.iter().find_map(|(scope, at)| {
            let text = scope.get(name)?.as_str()?;
            Some((text.to_string(), format!("{at}.{name}")))
        })
    };
    let mut allowlist = Vec::new();
    for (scope, at) in scopes.iter().filter(|(_, at)| at != "defaults").rev() {
        allowlist.extend(entries(scope, at));
    }
    DocPolicy {
        security: field("security").and_then(|(v, k)| Some((Security::parse(&v)?, k))),
        ask: field("ask").and_then(|(v, k)| Some((Ask::parse(&v)?, k))),
        ask_fallback: field("askFallback").and_then(|(v, k)| Some((Security::parse(&v)?, k))),
        allowlist,
    }
}

/// The allowlist entries of one scope (`"pattern"` or `{pattern, argPattern, source}`).
fn entries(scope: &Value, at: &str) -> Vec<AllowEntry> {
    let Some(list) = scope.get("allowlist").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter_map(|(i, entry)| {
            let key = format!("{at}.allowlist[{i}]");
            let text = |name: &str| entry.get(name).and_then(Value::as_str).map(str::to_string);
            match entry {
                Value::String(pattern) => Some(AllowEntry {
                    pattern: pattern.clone(),
                    arg_pattern: None,
                    source: None,
                    key,
                }),
                Value::Object(_) => Some(AllowEntry {
                    pattern: text("pattern")?,
                    arg_pattern: text("argPattern"),
                    source: text("source"),
                    key,
                }),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_from_the_agent_then_star_then_defaults_and_allowlists_join() {
        let doc = parse(
            r#"{ version: 1, defaults: { security: "allowlist", askFallback: "full" },
                 agents: { "*": { ask: "on-miss", allowlist: ["git"] },
                           ops: { ask: "always", allowlist: [{ pattern: "/usr/bin/ls", argPattern: "^-la$" }] } } }"#,
            "doc",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let ops = for_agent(&doc, "ops");
        assert_eq!(ops.ask, Some((Ask::Always, "agents.ops.ask".to_string())));
        assert_eq!(
            ops.security,
            Some((Security::Allowlist, "defaults.security".to_string()))
        );
        assert_eq!(ops.ask_fallback.map(|f| f.0), Some(Security::Full));
        let patterns: Vec<&str> = ops.allowlist.iter().map(|e| e.pattern.as_str()).collect();
        assert_eq!(patterns, ["git", "/usr/bin/ls"]);
        assert_eq!(ops.allowlist[1].key, "agents.ops.allowlist[0]");
        let main = for_agent(&doc, "main");
        assert_eq!(main.ask.map(|a| a.0), Some(Ask::OnMiss));
        assert!(parse("[1]", "x").is_err());
        assert!(parse("{", "x").unwrap_err().starts_with("x: "));
    }

    fn state_with(raw: Option<&str>) -> tempfile::TempDir {
        let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(state.path().join("state")).unwrap_or_else(|e| panic!("{e}"));
        let conn = rusqlite::Connection::open(state.path().join("state/openclaw.sqlite"))
            .unwrap_or_else(|e| panic!("{e}"));
        conn.execute(
            "CREATE TABLE exec_approvals_config (config_key TEXT PRIMARY KEY, raw_json TEXT)",
            [],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        if let Some(raw) = raw {
            conn.execute(
                "INSERT INTO exec_approvals_config VALUES ('current', ?1)",
                [raw],
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        state
    }

    #[test]
    fn the_stored_document_is_read_from_the_state_database() {
        let state = state_with(Some(r#"{"version":1,"agents":{"ops":{"ask":"always"}}}"#));
        let doc = read_state(state.path())
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("a stored document"));
        assert_eq!(for_agent(&doc, "ops").ask.map(|a| a.0), Some(Ask::Always));
        assert!(
            state_locator(state.path()).ends_with("state/openclaw.sqlite#exec_approvals_config")
        );
        // A table without the row, and no database at all: nothing stored.
        assert_eq!(read_state(state_with(None).path()), Ok(None));
        let empty = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_state(empty.path()), Ok(None));
    }

    #[test]
    fn a_bad_state_is_an_error_naming_the_place() {
        let broken = state_with(Some("{ not json"));
        let err = read_state(broken.path()).unwrap_err();
        assert!(
            err.contains("openclaw.sqlite#exec_approvals_config"),
            "{err}"
        );
        let legacy = state_with(None);
        std::fs::write(legacy.path().join("exec-approvals.json"), "{}")
            .unwrap_or_else(|e| panic!("{e}"));
        let err = read_state(legacy.path()).unwrap_err();
        assert!(
            err.contains("exec-approvals.json") && err.contains("doctor --fix"),
            "{err}"
        );
        // A FIFO where the database should be is refused without opening it (no hang).
        let fifo = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(fifo.path().join("state")).unwrap_or_else(|e| panic!("{e}"));
        nix::unistd::mkfifo(
            &fifo.path().join("state/openclaw.sqlite"),
            nix::sys::stat::Mode::S_IRWXU,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            read_state(fifo.path())
                .unwrap_err()
                .contains("not a regular file")
        );
        let garbage = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(garbage.path().join("state")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(
            garbage.path().join("state/openclaw.sqlite"),
            "not a database at all",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            read_state(garbage.path())
                .unwrap_err()
                .contains("fails closed")
        );
    }
}
