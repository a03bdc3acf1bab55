//! Reading the decision log back: every file oldest first, and following the live file as
//! records arrive, across rotations. A line that is not a record is reported with its place
//! and skipped.

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::record::DecisionRecord;
use super::writer::log_file;
use crate::regular_file::Links;

/// Opens a file of the log: a regular file only, never a link, and never waiting (a FIFO at
/// its place is refused at once).
fn open_log_file(path: &Path) -> std::io::Result<File> {
    crate::regular_file::open_read(path, Links::Refuse)
}

/// A line that is not a decision record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub file: PathBuf,
    /// 1-based; 0 when the place in the file is unknown (a followed file read from its middle).
    pub line: usize,
    pub problem: String,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.problem)
        }
    }
}

/// One line of the log, read.
pub type Entry = Result<DecisionRecord, BadLine>;

fn parse(line: &str, file: &Path, number: usize) -> Entry {
    serde_json::from_str(line).map_err(|err| BadLine {
        file: file.to_path_buf(),
        line: number,
        problem: format!("not a decision record: {err}"),
    })
}

/// The files of the log, oldest first (`.N` .. `.1`, then the live file), those that exist.
pub fn log_files(dir: &Path) -> Vec<PathBuf> {
    let mut rotated: Vec<PathBuf> = (1..=super::MAX_KEEP)
        .map(|n| log_file(dir, n))
        .take_while(|p| p.exists())
        .collect();
    rotated.reverse();
    let live = log_file(dir, 0);
    if live.exists() {
        rotated.push(live);
    }
    rotated
}

/// Every line of every file, oldest first. An unreadable file is one `BadLine`.
pub fn read_all(dir: &Path) -> Vec<Entry> {
    log_files(dir).iter().flat_map(|p| read_file(p)).collect()
}

/// Every line of one file.
fn read_file(path: &Path) -> Vec<Entry> {
    let bytes = open_log_file(path).and_then(|mut file| {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map(|_| bytes)
    });
    match bytes {
        Ok(bytes) => String::from_utf8_lossy(&bytes)
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| parse(line, path, i + 1))
            .collect(),
        Err(err) => vec![Err(BadLine {
            file: path.to_path_buf(),
            line: 0,
            problem: format!("cannot read: {err}"),
        })],
    }
}

/// A file of the log as the follower knows it: its first line. Records are appended and never
/// rewritten, and each holds a unique id, so the first line names a file across renames (an
/// inode can be reused by the next file once a rotated one is deleted).
fn identity(path: &Path) -> Option<String> {
    let mut head = vec![0u8; 4096];
    let mut file = open_log_file(path).ok()?;
    let n = file.read(&mut head).ok()?;
    let end = head[..n].iter().position(|b| *b == b'\n')?;
    Some(String::from_utf8_lossy(&head[..end]).into_owned())
}

/// Follows the log: each `poll` returns the lines completed since the last one, oldest first.
/// Rotations between polls lose nothing: the rest of the file it was reading comes first, then
/// any file rotated away unseen, then the new live file.
#[derive(Debug)]
pub struct LogFollower {
    dir: PathBuf,
    /// The file being read, and its identity.
    open: Option<(File, String)>,
    /// Bytes read past the last newline (a record being written).
    partial: Vec<u8>,
    /// Lines read from the open file (for `file:line`); None when it was opened at its end.
    line: Option<usize>,
    /// Files read to their end (or skipped by `from_end`), by identity.
    seen: HashSet<String>,
    /// Paths already reported as no regular file (each is reported once while it stays).
    refused: HashSet<PathBuf>,
}

impl LogFollower {
    /// Starts at the beginning: the first poll returns every record of the log.
    pub(crate) fn from_start(dir: &Path) -> LogFollower {
        LogFollower {
            dir: dir.to_path_buf(),
            open: None,
            partial: Vec::new(),
            line: Some(0),
            seen: HashSet::new(),
            refused: HashSet::new(),
        }
    }

    /// The log's last `n` lines (at most), then follows from there: one reader for both, so
    /// no record falls between them or comes twice.
    pub fn last(dir: &Path, n: usize) -> (Vec<Entry>, LogFollower) {
        let mut follower = LogFollower::from_start(dir);
        let mut all = follower.poll();
        let skip = all.len().saturating_sub(n);
        all.drain(..skip);
        (all, follower)
    }

    /// Lines completed since the last poll, oldest first.
    pub fn poll(&mut self) -> Vec<Entry> {
        let mut out = Vec::new();
        self.read_open(&mut out);
        let live = log_file(&self.dir, 0);
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        for path in log_files(&self.dir) {
            match identity(&path) {
                Some(id) => files.push((path, id)),
                None => self.report_refused(&path, &mut out),
            }
        }
        let open_id = self.open.as_ref().map(|(_, id)| id.clone());
        if let Some(open_id) = &open_id
            && !files.iter().any(|(p, id)| id == open_id && *p == live)
        {
            // Rotated away (or deleted): what was added before the rename, then done with it.
            self.read_open(&mut out);
            self.close(&mut out);
            self.seen.insert(open_id.clone());
        }
        for (path, id) in &files {
            if self.seen.contains(id) || open_id.as_ref() == Some(id) {
                continue;
            }
            if *path == live {
                if let Ok(file) = open_log_file(path) {
                    self.open = Some((file, id.clone()));
                    self.line = Some(0);
                    self.read_open(&mut out);
                }
            } else {
                out.extend(read_file(path));
                self.seen.insert(id.clone());
            }
        }
        // Forget files that are gone (the set stays as small as the log).
        self.seen.retain(|id| files.iter().any(|(_, f)| f == id));
        self.refused
            .retain(|p| std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_file()));
        out
    }

    /// Reports, once, a file of the log that is a FIFO, device, directory or link.
    fn report_refused(&mut self, path: &Path, out: &mut Vec<Entry>) {
        let Err(err) = open_log_file(path) else {
            return;
        };
        if crate::regular_file::is_not_regular(&err) && self.refused.insert(path.to_path_buf()) {
            out.push(Err(BadLine {
                file: path.to_path_buf(),
                line: 0,
                problem: format!("cannot read: {err}"),
            }));
        }
    }

    /// Reports an unfinished last line of the closed file and forgets it.
    fn close(&mut self, out: &mut Vec<Entry>) {
        if !self.partial.is_empty() {
            let rest = String::from_utf8_lossy(&self.partial).into_owned();
            out.push(parse(rest.trim(), &log_file(&self.dir, 1), 0));
            self.partial.clear();
        }
        self.open = None;
    }

    fn read_open(&mut self, out: &mut Vec<Entry>) {
        let Some((file, _)) = self.open.as_mut() else {
            return;
        };
        let path = log_file(&self.dir, 0);
        let mut fresh = Vec::new();
        if let Err(err) = file.read_to_end(&mut fresh) {
            out.push(Err(BadLine {
                file: path,
                line: 0,
                problem: format!("cannot read: {err}"),
            }));
            return;
        }
        self.partial.extend_from_slice(&fresh);
        let Some(last_newline) = self.partial.iter().rposition(|b| *b == b'\n') else {
            return;
        };
        let complete: Vec<u8> = self.partial.drain(..=last_newline).collect();
        for line in String::from_utf8_lossy(&complete).lines() {
            if let Some(n) = self.line.as_mut() {
                *n += 1;
            }
            if !line.trim().is_empty() {
                out.push(parse(line, &path, self.line.unwrap_or(0)));
            }
        }
    }
}
