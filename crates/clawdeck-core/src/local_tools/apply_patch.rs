//! `apply_patch`: OpenAI's patch format (as in codex-rs `apply-patch`).
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path        (then `+line`s)
//! *** Delete File: path
//! *** Update File: path
//! *** Move to: new/path     (optional)
//! @@ optional context line
//!  context / -removed / +added
//! *** End of File           (optional: the hunk ends at the end of the file)
//! *** End Patch
//! ```
//! The whole patch is parsed and every new file content computed before anything is written, so a
//! hunk that does not apply leaves every file as it was.

use std::sync::Arc;

use serde_json::json;

use super::guarded_io::OpenError;
use super::path_guard::{PathAccess, PathGuard};
use super::write::{read_whole_text, replace_file};
use crate::tool::params::{ReadOptions, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE_TO: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// One `@@` hunk of an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UpdateChunk {
    /// The text after `@@ `, a line to find before `old_lines`.
    pub context: Option<String>,
    pub old_lines: Vec<String>,
    pub new_lines: Vec<String>,
    /// `*** End of File` followed the hunk: match it at the end of the file.
    pub end_of_file: bool,
}

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PatchOp {
    Add {
        path: String,
        contents: String,
    },
    Delete {
        path: String,
    },
    Update {
        path: String,
        move_to: Option<String>,
        chunks: Vec<UpdateChunk>,
    },
}

/// Parses a whole patch. Errors quote the offending line and its 1-based number.
pub(crate) fn parse_patch(input: &str) -> Result<Vec<PatchOp>, String> {
    let lines: Vec<&str> = strip_heredoc(input.trim()).lines().collect();
    if lines.first().map(|l| l.trim()) != Some(BEGIN) {
        return Err(format!("The first line of the patch must be '{BEGIN}'"));
    }
    if lines.last().map(|l| l.trim()) != Some(END) {
        return Err(format!("The last line of the patch must be '{END}'"));
    }
    let body = &lines[1..lines.len() - 1];
    let mut ops = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let line = body[i].trim_end();
        let line_no = i + 2;
        if let Some(path) = line.strip_prefix(ADD) {
            let path = non_empty_path(path, line_no)?;
            i += 1;
            let contents = added_contents(body, &mut i)?;
            ops.push(PatchOp::Add { path, contents });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            ops.push(PatchOp::Delete {
                path: non_empty_path(path, line_no)?,
            });
            i += 1;
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            let path = non_empty_path(path, line_no)?;
            i += 1;
            let mut move_to = None;
            if let Some(dest) = body.get(i).and_then(|l| l.trim_end().strip_prefix(MOVE_TO)) {
                move_to = Some(non_empty_path(dest, i + 2)?);
                i += 1;
            }
            let chunks = update_chunks(body, &mut i, &path)?;
            let has_changes = chunks.iter().any(|c| c.old_lines != c.new_lines);
            if !has_changes && move_to.is_none() {
                return Err(format!("Update file hunk for path '{path}' is empty"));
            }
            ops.push(PatchOp::Update {
                path,
                move_to,
                chunks,
            });
        } else if line.trim().is_empty() {
            i += 1;
        } else {
            return Err(format!(
                "Line {line_no}: '{line}' is not a valid hunk header. Valid hunk headers: '*** Add File: {{path}}', '*** Delete File: {{path}}', '*** Update File: {{path}}'"
            ));
        }
    }
    if ops.is_empty() {
        return Err("The patch contains no file operations".to_string());
    }
    Ok(ops)
}

/// An added file's lines (each starts with `+`) from `body[*i]` to the next operation.
fn added_contents(body: &[&str], i: &mut usize) -> Result<String, String> {
    let mut contents = String::new();
    while *i < body.len() && !is_op_header(body[*i]) {
        match body[*i].strip_prefix('+') {
            Some(text) => {
                contents.push_str(text);
                contents.push('\n');
            }
            None => {
                return Err(format!(
                    "Line {}: every line of an added file must start with '+': '{}'",
                    *i + 2,
                    body[*i]
                ));
            }
        }
        *i += 1;
    }
    Ok(contents)
}

/// An update's hunks from `body[*i]` to the next operation.
fn update_chunks(body: &[&str], i: &mut usize, path: &str) -> Result<Vec<UpdateChunk>, String> {
    let mut chunks: Vec<UpdateChunk> = Vec::new();
    while *i < body.len() && !is_op_header(body[*i]) {
        let raw = body[*i];
        let line_no = *i + 2;
        let trimmed = raw.trim_end();
        if trimmed == "@@" || trimmed.starts_with("@@ ") {
            let context = trimmed
                .strip_prefix("@@")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from);
            chunks.push(UpdateChunk {
                context,
                old_lines: vec![],
                new_lines: vec![],
                end_of_file: false,
            });
        } else if trimmed == END_OF_FILE {
            match chunks.last_mut() {
                Some(chunk) => chunk.end_of_file = true,
                None => {
                    return Err(format!("Line {line_no}: '{END_OF_FILE}' before any hunk"));
                }
            }
        } else {
            // The first hunk may start without `@@`.
            if chunks.is_empty() || chunks.last().is_some_and(|c| c.end_of_file) {
                chunks.push(UpdateChunk {
                    context: None,
                    old_lines: vec![],
                    new_lines: vec![],
                    end_of_file: false,
                });
            }
            let Some(chunk) = chunks.last_mut() else {
                return Err(format!("Line {line_no}: hunk line outside a hunk"));
            };
            push_hunk_line(chunk, raw, line_no, path)?;
        }
        *i += 1;
    }
    Ok(chunks)
}

/// One context (` `), removed (`-`) or added (`+`) line of a hunk.
fn push_hunk_line(
    chunk: &mut UpdateChunk,
    raw: &str,
    line_no: usize,
    path: &str,
) -> Result<(), String> {
    match raw.chars().next() {
        // An empty line is an empty context line (editors strip the lone space).
        None => {
            chunk.old_lines.push(String::new());
            chunk.new_lines.push(String::new());
        }
        Some(' ') => {
            chunk.old_lines.push(raw[1..].to_string());
            chunk.new_lines.push(raw[1..].to_string());
        }
        Some('-') => chunk.old_lines.push(raw[1..].to_string()),
        Some('+') => chunk.new_lines.push(raw[1..].to_string()),
        Some(_) => {
            return Err(format!(
                "Line {line_no}: unexpected line in update hunk for '{path}': '{raw}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"
            ));
        }
    }
    Ok(())
}

/// Models sometimes send the shell form `apply_patch <<'EOF' ... EOF`; keep what is inside.
fn strip_heredoc(input: &str) -> &str {
    let mut lines = input.lines();
    let Some(first) = lines.next() else {
        return input;
    };
    if !first.contains("<<") {
        return input;
    }
    let start = first.len() + 1;
    let inner = input.get(start..).unwrap_or("");
    match inner.rfind('\n') {
        Some(last_nl) if !inner[last_nl + 1..].trim().starts_with("***") => &inner[..last_nl],
        _ => inner,
    }
}

fn is_op_header(line: &str) -> bool {
    let line = line.trim_end();
    line.starts_with(ADD) || line.starts_with(DELETE) || line.starts_with(UPDATE)
}

fn non_empty_path(path: &str, line_no: usize) -> Result<String, String> {
    let path = path.trim();
    if path.is_empty() {
        Err(format!("Line {line_no}: the file path is empty"))
    } else {
        Ok(path.to_string())
    }
}

/// The new content of a file after its hunks, or an error naming the hunk that did not match.
pub(crate) fn apply_chunks(
    path: &str,
    original: &str,
    chunks: &[UpdateChunk],
) -> Result<String, String> {
    let mut lines: Vec<String> = original.split('\n').map(String::from).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut line_index = 0;
    for chunk in chunks {
        if let Some(context) = &chunk.context {
            match seek_sequence(&lines, std::slice::from_ref(context), line_index, false) {
                Some(at) => line_index = at + 1,
                None => return Err(format!("Failed to find context '{context}' in {path}")),
            }
        }
        if chunk.old_lines.is_empty() {
            // A pure addition goes at the end of the file.
            replacements.push((lines.len(), 0, chunk.new_lines.clone()));
            continue;
        }
        let mut pattern: &[String] = &chunk.old_lines;
        let mut new_lines: &[String] = &chunk.new_lines;
        let mut found = seek_sequence(&lines, pattern, line_index, chunk.end_of_file);
        if found.is_none() && pattern.last().is_some_and(String::is_empty) {
            // A trailing empty context line stands for the file's final newline.
            pattern = &pattern[..pattern.len() - 1];
            if new_lines.last().is_some_and(String::is_empty) {
                new_lines = &new_lines[..new_lines.len() - 1];
            }
            found = seek_sequence(&lines, pattern, line_index, chunk.end_of_file);
        }
        match found {
            Some(start) => {
                replacements.push((start, pattern.len(), new_lines.to_vec()));
                line_index = start + pattern.len();
            }
            None => {
                return Err(format!(
                    "Failed to find expected lines in {path}:\n{}",
                    chunk.old_lines.join("\n")
                ));
            }
        }
    }
    replacements.sort_by_key(|r| r.0);
    for (start, len, new_lines) in replacements.into_iter().rev() {
        lines.splice(start..start + len, new_lines);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// Finds `pattern` in `lines` at or after `start`: exactly, then ignoring trailing whitespace,
/// then ignoring surrounding whitespace, then with typographic punctuation made plain.
fn seek_sequence(
    lines: &[String],
    pattern: &[String],
    start: usize,
    end_of_file: bool,
) -> Option<usize> {
    if pattern.is_empty() {
        return Some(start);
    }
    if pattern.len() > lines.len() {
        return None;
    }
    let last = lines.len() - pattern.len();
    let from = if end_of_file { last } else { start };
    if from > last {
        return None;
    }
    let comparers: [fn(&str, &str) -> bool; 4] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
        |a, b| plain_punctuation(a.trim()) == plain_punctuation(b.trim()),
    ];
    for same in comparers {
        for at in from..=last {
            if pattern
                .iter()
                .enumerate()
                .all(|(k, p)| same(&lines[at + k], p))
            {
                return Some(at);
            }
        }
    }
    None
}

fn plain_punctuation(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// A change ready to be written; paths are the patch's own, checked again when used.
enum Planned {
    Write { path: String, contents: String },
    Remove { path: String },
}

pub struct ApplyPatchTool {
    spec: ToolSpec,
    guard: Arc<PathGuard>,
}

impl ApplyPatchTool {
    pub fn new(spec: ToolSpec, guard: Arc<PathGuard>) -> Self {
        ApplyPatchTool { spec, guard }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let input = read_string(&call.params, "input", ReadOptions::required().untrimmed())?
            .unwrap_or_default();
        let ops =
            parse_patch(&input).map_err(|e| ToolError::input(format!("Invalid patch: {e}")))?;
        let mut plan = Vec::new();
        let (mut added, mut modified, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
        for op in &ops {
            match op {
                PatchOp::Add { path, contents } => {
                    self.guard.resolve(path, PathAccess::Write)?;
                    plan.push(Planned::Write {
                        path: path.clone(),
                        contents: contents.clone(),
                    });
                    added.push(path.clone());
                }
                PatchOp::Delete { path } => {
                    let guard = Arc::clone(&self.guard);
                    let raw = path.clone();
                    tokio::task::spawn_blocking(move || guard.check_removable(&raw))
                        .await
                        .unwrap_or_else(|e| Err(OpenError::Io(std::io::Error::other(e))))
                        .map_err(|e| e.into_tool_error(&format!("Failed to delete {path}")))?;
                    plan.push(Planned::Remove { path: path.clone() });
                    deleted.push(path.clone());
                }
                PatchOp::Update {
                    path,
                    move_to,
                    chunks,
                } => {
                    let source = self.guard.resolve(path, PathAccess::Write)?;
                    let original = read_whole_text(&self.guard, path, PathAccess::Write)
                        .await
                        .map_err(|e| {
                            e.into_tool_error(&format!("Failed to read file to update {path}"))
                        })?;
                    let contents =
                        apply_chunks(path, &original, chunks).map_err(ToolError::input)?;
                    match move_to {
                        Some(dest) => {
                            let target = self.guard.resolve(dest, PathAccess::Write)?;
                            plan.push(Planned::Write {
                                path: dest.clone(),
                                contents,
                            });
                            if target != source {
                                plan.push(Planned::Remove { path: path.clone() });
                            }
                            modified.push(dest.clone());
                        }
                        None => {
                            plan.push(Planned::Write {
                                path: path.clone(),
                                contents,
                            });
                            modified.push(path.clone());
                        }
                    }
                }
            }
        }
        for step in plan {
            match step {
                Planned::Write { path, contents } => {
                    replace_file(&self.guard, &path, contents.into_bytes())
                        .await
                        .map_err(|e| e.into_tool_error(&format!("Failed to write {path}")))?
                }
                Planned::Remove { path } => {
                    let guard = Arc::clone(&self.guard);
                    let raw = path.clone();
                    tokio::task::spawn_blocking(move || guard.remove_file(&raw))
                        .await
                        .unwrap_or_else(|e| Err(OpenError::Io(std::io::Error::other(e))))
                        .map_err(|e| e.into_tool_error(&format!("Failed to delete {path}")))?
                }
            }
        }
        let mut summary = String::from("Success. Updated the following files:");
        for (mark, list) in [("A", &added), ("M", &modified), ("D", &deleted)] {
            for p in list.iter() {
                summary.push_str(&format!("\n{mark} {p}"));
            }
        }
        Ok(ToolResult::text(
            summary,
            json!({"added": added, "modified": modified, "deleted": deleted}),
        ))
    }
}

impl Tool for ApplyPatchTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_operation() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** Delete File: b.txt\n*** Update File: c.txt\n*** Move to: d.txt\n@@ fn main\n-old\n+new\n*** End of File\n*** End Patch";
        let ops = parse_patch(patch).unwrap();
        assert_eq!(
            ops[0],
            PatchOp::Add {
                path: "a.txt".into(),
                contents: "hello\n".into()
            }
        );
        assert_eq!(
            ops[1],
            PatchOp::Delete {
                path: "b.txt".into()
            }
        );
        let PatchOp::Update {
            move_to, chunks, ..
        } = &ops[2]
        else {
            panic!()
        };
        assert_eq!(move_to.as_deref(), Some("d.txt"));
        assert_eq!(chunks[0].context.as_deref(), Some("fn main"));
        assert!(chunks[0].end_of_file);
    }

    #[test]
    fn bad_envelopes_and_lines_are_named() {
        assert!(parse_patch("hello").unwrap_err().contains("first line"));
        assert!(
            parse_patch("*** Begin Patch\n*** Add File: a\n+x")
                .unwrap_err()
                .contains("last line")
        );
        let err = parse_patch("*** Begin Patch\n*** Frobnicate: a\n*** End Patch").unwrap_err();
        assert!(
            err.contains("Line 2") && err.contains("not a valid hunk header"),
            "{err}"
        );
        let err =
            parse_patch("*** Begin Patch\n*** Update File: a\n@@\n?x\n*** End Patch").unwrap_err();
        assert!(err.contains("Line 4"), "{err}");
        let err = parse_patch("*** Begin Patch\n*** Update File: a\n*** End Patch").unwrap_err();
        assert!(err.contains("is empty"), "{err}");
    }

    #[test]
    fn heredoc_wrapping_is_accepted() {
        let ops = parse_patch(
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF",
        )
        .unwrap();
        assert_eq!(ops, vec![PatchOp::Delete { path: "x".into() }]);
    }

    fn chunk(ctx: Option<&str>, old: &[&str], new: &[&str]) -> UpdateChunk {
        UpdateChunk {
            context: ctx.map(String::from),
            old_lines: old.iter().map(|s| s.to_string()).collect(),
            new_lines: new.iter().map(|s| s.to_string()).collect(),
            end_of_file: false,
        }
    }

    #[test]
    fn hunks_apply_with_context_and_fuzz() {
        let original = "a\nb\nc\nb\nd\n";
        // The context moves the search past the first `b`.
        let out = apply_chunks("f", original, &[chunk(Some("c"), &["b"], &["B"])]).unwrap();
        assert_eq!(out, "a\nb\nc\nB\nd\n");
        // Trailing whitespace differences still match.
        let out = apply_chunks("f", "x  \ny\n", &[chunk(None, &["x", "y"], &["z"])]).unwrap();
        assert_eq!(out, "z\n");
        // Pure additions go at the end.
        let out = apply_chunks("f", "a\n", &[chunk(None, &[], &["b"])]).unwrap();
        assert_eq!(out, "a\nb\n");
        let err = apply_chunks("f", "a\n", &[chunk(None, &["zzz"], &["b"])]).unwrap_err();
        assert!(
            err.starts_with("Failed to find expected lines in f"),
            "{err}"
        );
        let err = apply_chunks("f", "a\n", &[chunk(Some("nope"), &["a"], &["b"])]).unwrap_err();
        assert_eq!(err, "Failed to find context 'nope' in f");
    }
}
