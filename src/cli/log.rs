//! `clawdeck log [--follow] [--json] [--limit N] [--tool T] [--client C]`: the decision log,
//! one line per call (or the JSON records). A line that is not a record is reported on stderr
//! with its file and line, and skipped.
//!
//! Exit status: 0 (also when the reader of `--follow` leaves); 2 when there is no state dir to
//! read.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::columns::ColumnLayout;
use super::{Cli, exit};
use crate::decision_log::{COLUMNS, DecisionRecord, Entry, LogFollower, default_dir, read_all};

/// How often `--follow` looks for new records.
const FOLLOW_POLL: Duration = Duration::from_millis(200);
/// Records shown before following when `--limit` is not given.
const FOLLOW_BACKLOG: usize = 10;

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Keep printing records as they are written (across rotations) until interrupted
    #[arg(long, short = 'f')]
    pub follow: bool,
    /// Print the JSON records, one per line
    #[arg(long)]
    pub json: bool,
    /// Only the last N records (with --follow: before following; default 10 there)
    #[arg(long, short = 'n', value_name = "N")]
    pub limit: Option<usize>,
    /// Only calls of this tool (as requested or after aliases)
    #[arg(long, value_name = "TOOL")]
    pub tool: Option<String>,
    /// Only calls of this client (`invoke`, `console`, an MCP client's name)
    #[arg(long, value_name = "CLIENT")]
    pub client: Option<String>,
    /// The log directory (default: <state dir>/decisions)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl LogArgs {
    fn wants(&self, record: &DecisionRecord) -> bool {
        let tool_ok = self
            .tool
            .as_deref()
            .is_none_or(|t| record.tool.canonical == t || record.tool.requested.trim() == t);
        let client_ok = self
            .client
            .as_deref()
            .is_none_or(|c| record.client.as_deref() == Some(c));
        tool_ok && client_ok
    }
}

pub fn run(_cli: &Cli, args: &LogArgs) -> u8 {
    let dir = match args.dir.clone().map(Ok).unwrap_or_else(default_dir) {
        Ok(dir) => dir,
        Err(err) => {
            eprintln!("clawdeck log: {err}");
            return exit::USAGE;
        }
    };
    let mut printer = Printer {
        json: args.json,
        layout: ColumnLayout::fit::<Vec<String>>(&COLUMNS, &[], MAX_COLUMN),
        header_done: false,
    };
    if !args.follow {
        let entries = read_all(&dir);
        let recorded = entries.iter().filter(|e| e.is_ok()).count();
        let records = keep(args, entries, args.limit.unwrap_or(usize::MAX));
        if records.is_empty() && !args.json {
            eprintln!("clawdeck log: {}", nothing_to_show(args, recorded, &dir));
        }
        printer.size(&records);
        for record in &records {
            printer.print(record);
        }
        return exit::OK;
    }
    let (backlog, mut follower) = LogFollower::last(&dir, usize::MAX);
    let records = keep(args, backlog, args.limit.unwrap_or(FOLLOW_BACKLOG));
    printer.size(&records);
    for record in &records {
        printer.print(record);
    }
    // Until interrupted, or until the reader leaves (`clawdeck log -f | head`).
    while !super::quiet_out::reader_gone() {
        std::thread::sleep(FOLLOW_POLL);
        for record in keep(args, follower.poll(), usize::MAX) {
            printer.print(&record);
        }
    }
    exit::OK
}

/// Why nothing is listed: nothing recorded, or records none of which matches the filters.
fn nothing_to_show(args: &LogArgs, recorded: usize, dir: &std::path::Path) -> String {
    if recorded == 0 {
        return format!("no decisions recorded in {}", dir.display());
    }
    let filters: Vec<String> = [("--tool", &args.tool), ("--client", &args.client)]
        .into_iter()
        .filter_map(|(flag, value)| value.as_ref().map(|v| format!("{flag} {v}")))
        .collect();
    let why = if filters.is_empty() {
        "--limit 0 shows none".to_string()
    } else {
        format!("none matches {}", filters.join(" and "))
    };
    format!(
        "{recorded} decision{} recorded in {}, {why}",
        if recorded == 1 { "" } else { "s" },
        dir.display(),
    )
}

/// The wanted records, the last `limit` of them; bad lines are reported and skipped.
fn keep(args: &LogArgs, entries: Vec<Entry>, limit: usize) -> Vec<DecisionRecord> {
    let mut records: Vec<DecisionRecord> = entries
        .into_iter()
        .filter_map(|entry| match entry {
            Ok(record) => Some(record),
            Err(bad) => {
                eprintln!(
                    "clawdeck log: skipped {}",
                    crate::sanitize::for_terminal_if_tty_stderr(&bad.to_string())
                );
                None
            }
        })
        .filter(|r| args.wants(r))
        .collect();
    let skip = records.len().saturating_sub(limit);
    records.drain(..skip);
    records
}

/// No column of the listing grows wider than this (a longer cell overflows).
const MAX_COLUMN: usize = 40;

struct Printer {
    json: bool,
    layout: ColumnLayout,
    header_done: bool,
}

impl Printer {
    /// Column widths from the records at hand (later ones may overflow; the last column is
    /// never padded).
    fn size(&mut self, records: &[DecisionRecord]) {
        for record in records {
            self.layout.widen(&record.columns());
        }
    }

    fn print(&mut self, record: &DecisionRecord) {
        if self.json {
            out!("{}", record.to_line());
            return;
        }
        if !self.header_done {
            self.header_done = true;
            outln!("{}", self.layout.line(&COLUMNS));
        }
        outln!("{}", self.layout.line(&record.columns()));
    }
}
