//! `edit`: exact-text replacement, one (`oldText`/`newText`) or several (`edits[]`).
//!
//! Every `oldText` is located in the original file and must occur exactly once; the edits must not
//! overlap; they are applied together, so one failing edit leaves the file untouched.

use std::sync::Arc;

use serde_json::{Value, json};

use super::path_guard::{PathAccess, PathGuard};
use super::write::{read_whole_text, replace_file};
use crate::tool::params::{ReadOptions, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub struct EditTool {
    spec: ToolSpec,
    guard: Arc<PathGuard>,
}

/// One requested replacement; `label` names it in errors (`oldText` or `edits[2]`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextEdit {
    pub label: String,
    pub old_text: String,
    pub new_text: String,
}

impl EditTool {
    pub fn new(spec: ToolSpec, guard: Arc<PathGuard>) -> Self {
        EditTool { spec, guard }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let raw_path =
            read_string(&call.params, "path", ReadOptions::required())?.unwrap_or_default();
        let edits = edits_from_params(&call.params)?;
        let original = read_whole_text(&self.guard, &raw_path, PathAccess::Write)
            .await
            .map_err(|e| e.into_tool_error(&format!("Cannot read {raw_path}")))?;
        let updated = apply_edits(&raw_path, &original, &edits)?;
        replace_file(&self.guard, &raw_path, updated.clone().into_bytes())
            .await
            .map_err(|e| e.into_tool_error(&format!("Cannot write {raw_path}")))?;
        let text = if edits.len() == 1 {
            format!("Successfully replaced text in {raw_path}.")
        } else {
            format!(
                "Successfully replaced {} blocks in {raw_path}.",
                edits.len()
            )
        };
        Ok(ToolResult::text(text, {
            let (first_changed_line, diff) = changed_region(&original, &updated);
            json!({"path": raw_path, "replacements": edits.len(),
                       "firstChangedLine": first_changed_line, "diff": diff})
        }))
    }
}

/// `oldText`/`newText` (first) and then `edits[]`; at least one edit is required.
pub(crate) fn edits_from_params(params: &Value) -> Result<Vec<TextEdit>, ToolError> {
    let exact = ReadOptions::default().untrimmed().allow_empty();
    let mut edits = Vec::new();
    let old = read_string(params, "oldText", exact)?;
    let new = read_string(params, "newText", exact)?;
    match (old, new) {
        (Some(old_text), Some(new_text)) => edits.push(TextEdit {
            label: "oldText".into(),
            old_text,
            new_text,
        }),
        (Some(_), None) => return Err(ToolError::input("newText required")),
        (None, Some(_)) => return Err(ToolError::input("oldText required")),
        (None, None) => {}
    }
    if let Some(list) = params.get("edits").filter(|v| !v.is_null()) {
        let Some(items) = list.as_array() else {
            return Err(ToolError::input(
                "edits must be an array of {oldText, newText}",
            ));
        };
        for (i, item) in items.iter().enumerate() {
            let label = format!("edits[{i}]");
            let old_text = read_string(item, "oldText", exact)?
                .ok_or_else(|| ToolError::input(format!("{label}.oldText required")))?;
            let new_text = read_string(item, "newText", exact)?
                .ok_or_else(|| ToolError::input(format!("{label}.newText required")))?;
            edits.push(TextEdit {
                label,
                old_text,
                new_text,
            });
        }
    }
    if edits.is_empty() {
        return Err(ToolError::input(
            "Provide oldText and newText, or edits[] with at least one {oldText, newText}",
        ));
    }
    Ok(edits)
}

/// Locates every edit in `original` and applies them all at once.
pub(crate) fn apply_edits(
    path: &str,
    original: &str,
    edits: &[TextEdit],
) -> Result<String, ToolError> {
    let crlf = original.contains("\r\n");
    let mut spans: Vec<(usize, usize, String, &str)> = Vec::with_capacity(edits.len());
    for edit in edits {
        if edit.old_text.is_empty() {
            return Err(ToolError::input(format!(
                "{} must not be empty",
                old_label(edit)
            )));
        }
        let (needle, replacement) = match unique_match(path, original, &edit.old_text, edit)? {
            Some(at) => (at, edit.new_text.clone()),
            None if crlf => {
                // A model writes `\n`; the file says `\r\n`. Match and replace in the file's style.
                let old = edit.old_text.replace("\r\n", "\n").replace('\n', "\r\n");
                match unique_match(path, original, &old, edit)? {
                    Some(at) => (
                        at,
                        edit.new_text.replace("\r\n", "\n").replace('\n', "\r\n"),
                    ),
                    None => return Err(not_found(path, edit)),
                }
            }
            None => return Err(not_found(path, edit)),
        };
        let (start, len) = needle;
        spans.push((start, start + len, replacement, edit.label.as_str()));
    }
    spans.sort_by_key(|s| s.0);
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(ToolError::input(format!(
                "{} and {} overlap in {path}; merge them into one edit",
                pair[0].3, pair[1].3
            )));
        }
    }
    let mut out = String::with_capacity(original.len());
    let mut cursor = 0;
    for (start, end, replacement, _) in &spans {
        out.push_str(&original[cursor..*start]);
        out.push_str(replacement);
        cursor = *end;
    }
    out.push_str(&original[cursor..]);
    if out == original {
        return Err(ToolError::input(format!(
            "No changes made to {path}. The replacement produced identical content."
        )));
    }
    Ok(out)
}

/// The 1-based line where `before` and `after` first differ, and the changed region as one
/// `-`/`+` hunk (the lines between the common prefix and the common suffix).
pub(crate) fn changed_region(before: &str, after: &str) -> (usize, String) {
    let old: Vec<&str> = before.split('\n').collect();
    let new: Vec<&str> = after.split('\n').collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let mut diff = format!("@@ line {} @@", prefix + 1);
    for line in &old[prefix..old.len() - suffix] {
        diff.push_str(&format!("\n-{line}"));
    }
    for line in &new[prefix..new.len() - suffix] {
        diff.push_str(&format!("\n+{line}"));
    }
    (prefix + 1, diff)
}

fn old_label(edit: &TextEdit) -> String {
    if edit.label == "oldText" {
        "oldText".to_string()
    } else {
        format!("{}.oldText", edit.label)
    }
}

fn not_found(path: &str, edit: &TextEdit) -> ToolError {
    ToolError::input(format!(
        "Could not find the exact text of {} in {path}. The old text must match exactly including all whitespace and newlines.",
        old_label(edit)
    ))
}

/// `Some((start, len))` for exactly one occurrence, `None` for none, an error for several.
fn unique_match(
    path: &str,
    haystack: &str,
    needle: &str,
    edit: &TextEdit,
) -> Result<Option<(usize, usize)>, ToolError> {
    let mut found = haystack.match_indices(needle);
    let Some((first, _)) = found.next() else {
        return Ok(None);
    };
    let more = found.count();
    if more > 0 {
        return Err(ToolError::input(format!(
            "Found {} occurrences of {} in {path}. The text must be unique. Please provide more context to make it unique.",
            more + 1,
            old_label(edit)
        )));
    }
    Ok(Some((first, needle.len())))
}

impl Tool for EditTool {
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

    fn e(label: &str, old: &str, new: &str) -> TextEdit {
        TextEdit {
            label: label.into(),
            old_text: old.into(),
            new_text: new.into(),
        }
    }

    #[test]
    fn several_edits_apply_against_the_original() {
        let out = apply_edits(
            "f",
            "one two three",
            &[e("edits[0]", "three", "3"), e("edits[1]", "one", "1")],
        )
        .unwrap();
        assert_eq!(out, "1 two 3");
    }

    #[test]
    fn ambiguous_missing_overlapping_and_noop_edits_fail() {
        let err = apply_edits("f", "a a", &[e("oldText", "a", "b")]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Found 2 occurrences of oldText in f"),
            "{err}"
        );
        let err = apply_edits("f", "abc", &[e("edits[1]", "zz", "b")]).unwrap_err();
        assert!(err.to_string().contains("edits[1].oldText"), "{err}");
        let err = apply_edits(
            "f",
            "abcdef",
            &[e("edits[0]", "abc", "x"), e("edits[1]", "cde", "y")],
        )
        .unwrap_err();
        assert!(err.to_string().contains("overlap"), "{err}");
        let err = apply_edits("f", "abc", &[e("oldText", "b", "b")]).unwrap_err();
        assert!(err.to_string().starts_with("No changes made"), "{err}");
    }

    #[test]
    fn the_changed_region_is_one_hunk() {
        let (line, diff) = changed_region("a\nb\nc\nd\n", "a\nB\nC\nd\n");
        assert_eq!(line, 2);
        assert_eq!(diff, "@@ line 2 @@\n-b\n-c\n+B\n+C");
        let (line, diff) = changed_region("a\n", "a\nb\n");
        assert_eq!((line, diff.as_str()), (2, "@@ line 2 @@\n+b"));
    }

    #[test]
    fn crlf_files_accept_lf_old_text() {
        let out = apply_edits("f", "a\r\nb\r\nc", &[e("oldText", "a\nb", "x\ny")]).unwrap();
        assert_eq!(out, "x\r\ny\r\nc");
    }

    #[test]
    fn params_accept_both_forms_and_name_missing_parts() {
        let edits = edits_from_params(
            &json!({"oldText": "a", "newText": "", "edits": [{"oldText": "b", "newText": "c"}]}),
        )
        .unwrap();
        assert_eq!(edits.len(), 2);
        assert_eq!(edits[0].new_text, "");
        let err = edits_from_params(&json!({"edits": [{"oldText": "b"}]})).unwrap_err();
        assert_eq!(err.to_string(), "edits[0].newText required");
        assert!(edits_from_params(&json!({"path": "x"})).is_err());
    }
}
