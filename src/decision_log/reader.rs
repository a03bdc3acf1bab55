//! Reading the decision log back: every file oldest first, and following the live file as
//! records arrive, across rotations. A line that is not a record is reported with its place
//! and skipped.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::record::DecisionRecord;
use super::writer::log_file;

/// Rotated copies looked for when reading (more than anyone keeps).
const MAX_ROTATED: usize = 1000;

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
    let mut rotated: Vec<PathBuf> = (1..=MAX_ROTATED)
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
    match std::fs::read(path) {
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

/// Follows the live file: each `poll` returns the lines completed since the last one. When the
/// file is rotated away, the rest of the old file is read before the new one.
#[derive(Debug)]
pub struct LogFollower {
    dir: PathBuf,
    /// The open live file, its inode, and how far it was read.
    open: Option<(File, u64)>,
    /// Bytes read past the last newline (a record being written).
    partial: Vec<u8>,
    /// Lines read from the current file (for `file:line` in reports); None when the follower
    /// started in the middle of the file.
    line: Option<usize>,
}

impl LogFollower {
    /// Starts at the end of the live file: only records written from now on.
    pub fn from_end(dir: &Path) -> LogFollower {
        let mut follower = LogFollower {
            dir: dir.to_path_buf(),
            open: None,
            partial: Vec::new(),
            line: None,
        };
        let path = log_file(dir, 0);
        if let Ok(mut file) = File::open(&path)
            && let Ok(meta) = file.metadata()
            && file.seek(SeekFrom::End(0)).is_ok()
        {
            follower.open = Some((file, meta.ino()));
        }
        follower
    }

    /// Starts at the beginning of the live file: its records come with the first poll.
    pub fn from_start(dir: &Path) -> LogFollower {
        LogFollower {
            dir: dir.to_path_buf(),
            open: None,
            partial: Vec::new(),
            line: Some(0),
        }
    }

    /// The log's last `n` lines (at most), then follows from there. The live file is read
    /// through the follower itself, so no record falls between the two or comes twice.
    pub fn last(dir: &Path, n: usize) -> (Vec<Entry>, LogFollower) {
        let live = log_file(dir, 0);
        let mut all: Vec<Entry> = Vec::new();
        for path in log_files(dir).into_iter().filter(|p| *p != live) {
            all.extend(read_file(&path));
        }
        let mut follower = LogFollower::from_start(dir);
        all.extend(follower.poll());
        let skip = all.len().saturating_sub(n);
        all.drain(..skip);
        (all, follower)
    }

    /// Lines completed since the last poll, oldest first.
    pub fn poll(&mut self) -> Vec<Entry> {
        let mut out = Vec::new();
        let path = log_file(&self.dir, 0);
        let on_disk = std::fs::metadata(&path).ok().map(|m| m.ino());
        let rotated = match (&self.open, on_disk) {
            (Some((_, ino)), Some(now)) => *ino != now,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if rotated {
            // Finish the old file (a writer may have added to it just before the rename).
            self.read_open(&mut out);
            if !self.partial.is_empty() {
                let rest = String::from_utf8_lossy(&self.partial).into_owned();
                out.push(parse(rest.trim(), &log_file(&self.dir, 1), 0));
                self.partial.clear();
            }
            self.open = None;
        }
        if self.open.is_none() {
            if let Ok(file) = File::open(&path)
                && let Ok(meta) = file.metadata()
            {
                self.open = Some((file, meta.ino()));
                self.line = Some(0);
            } else {
                return out;
            }
        }
        self.read_open(&mut out);
        out
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
