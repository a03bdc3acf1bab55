//! Rows of OpenClaw's state database (`<state>/state/openclaw.sqlite`), read-only and bounded as a
//! config file is: the host approvals document, the installed plugin index.

use std::path::Path;

/// The largest row read: as large as a config file may be (`config::read_text`).
const MAX_ROW_BYTES: u64 = 16 * 1024 * 1024;

/// Which row of which table: the table, its key and text columns, the key.
#[derive(Debug, Clone, Copy)]
pub struct StateRow {
    table: &'static str,
    key_column: &'static str,
    text_column: &'static str,
    key: &'static str,
}

impl StateRow {
    /// The row `key` of `table`, found by `key_column`, its document in `text_column`.
    pub const fn new(
        table: &'static str,
        key_column: &'static str,
        text_column: &'static str,
        key: &'static str,
    ) -> Self {
        Self {
            table,
            key_column,
            text_column,
            key,
        }
    }

    /// The row's key.
    pub fn key(&self) -> &'static str {
        self.key
    }
}

/// The host exec approvals document (2026.8 and 2026.9).
pub const APPROVALS: StateRow =
    StateRow::new("exec_approvals_config", "config_key", "raw_json", "current");

/// The installed plugin index OpenClaw keeps (2026.9): every plugin it discovered, and its
/// install records.
pub const INSTALLED_PLUGINS: StateRow = StateRow::new(
    "config_machine_state",
    "state_key",
    "value_json",
    "plugins.installedIndex",
);

/// The database under OpenClaw's state directory.
pub fn database(state: &Path) -> std::path::PathBuf {
    state.join("state/openclaw.sqlite")
}

/// The text of `row` in the database `db`; None when the table or the row is not there. The error
/// says why the row could not be read (a locked or broken database, a row too large).
pub fn text_row(db: &Path, row: StateRow) -> Result<Option<String>, String> {
    use rusqlite::{Connection, OpenFlags, OptionalExtension};
    let StateRow {
        table,
        key_column,
        text_column,
        key,
    } = row;
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| e.to_string())?;
    // The gateway may be writing: wait a moment for its lock rather than fail.
    conn.busy_timeout(std::time::Duration::from_millis(500))
        .map_err(|e| e.to_string())?;
    let has_table: bool = conn
        .query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |found| found.get(0),
        )
        .map_err(|e| e.to_string())?;
    if !has_table {
        return Ok(None);
    }
    // Names from the constants above, never from outside.
    let sql = format!(
        "SELECT length(CAST({text_column} AS BLOB)), \
         CASE WHEN length(CAST({text_column} AS BLOB)) <= ?1 THEN {text_column} END \
         FROM {table} WHERE {key_column} = ?2"
    );
    let max = MAX_ROW_BYTES;
    let found: Option<(Option<i64>, Option<String>)> = conn
        .query_row(&sql, rusqlite::params![max as i64, key], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()
        .map_err(|e| e.to_string())?;
    match found {
        None => Ok(None),
        Some((_, Some(text))) => Ok(Some(text)),
        Some((None, None)) => Err(format!("row `{key}` holds no document")),
        Some((Some(len), None)) => Err(format!(
            "the stored document is {len} bytes (at most {max})"
        )),
    }
}
