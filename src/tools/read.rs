//! `read`: a text file with line paging, or an image as an image block.

use std::sync::Arc;

use base64::Engine;
use serde_json::json;

use super::path_guard::{PathAccess, PathGuard};
use crate::adapter::results::sniff_image_mime;
use crate::tool::params::{ReadOptions, read_integer, read_string};
use crate::tool::{BoxFuture, ContentBlock, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

/// Lines returned when the call gives no limit (OpenClaw's read default).
pub const DEFAULT_LINE_LIMIT: usize = 2000;
/// Bytes of text returned at most per call; the rest is reached with `offset`.
pub const MAX_TEXT_BYTES: usize = 50 * 1024;

pub struct ReadTool {
    spec: ToolSpec,
    guard: Arc<PathGuard>,
}

impl ReadTool {
    pub fn new(spec: ToolSpec, guard: Arc<PathGuard>) -> Self {
        ReadTool { spec, guard }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let raw_path =
            read_string(&call.params, "path", ReadOptions::required())?.unwrap_or_default();
        let offset = read_integer(&call.params, "offset", false)?;
        let limit = read_integer(&call.params, "limit", false)?;
        let path = self.guard.resolve(&raw_path, PathAccess::Read)?;
        let bytes = tokio::fs::read(&path)
            .await
            .map_err(|e| ToolError::failed(format!("Cannot read {raw_path}: {e}")))?;
        if let Some(mime) = sniff_image_mime(&bytes) {
            let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
            return Ok(ToolResult {
                content: vec![
                    ContentBlock::Text {
                        text: format!("Read image file [{mime}]"),
                    },
                    ContentBlock::Image {
                        data,
                        mime_type: mime.to_string(),
                    },
                ],
                details: json!({"path": raw_path, "mimeType": mime, "bytes": bytes.len()}),
            });
        }
        let text = String::from_utf8_lossy(&bytes);
        page_text(&raw_path, &text, offset, limit)
    }
}

/// Cuts `text` to the requested lines and to `MAX_TEXT_BYTES`, telling the model how to continue.
pub fn page_text(
    label: &str,
    text: &str,
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<ToolResult, ToolError> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let total = lines.len();
    let start = match offset {
        Some(n) if n < 1 => {
            return Err(ToolError::input(format!(
                "offset must be 1 or more, got {n}"
            )));
        }
        Some(n) => n as usize,
        None => 1,
    };
    if total == 0 && start == 1 {
        return Ok(ToolResult::text("", json!({"path": label, "lines": 0})));
    }
    if start > total {
        return Err(ToolError::input(format!(
            "Offset {start} is beyond end of file ({total} lines total)"
        )));
    }
    let limit = match limit {
        Some(n) if n < 1 => {
            return Err(ToolError::input(format!(
                "limit must be 1 or more, got {n}"
            )));
        }
        Some(n) => n as usize,
        None => DEFAULT_LINE_LIMIT,
    };
    let mut out = String::new();
    let mut end = start - 1;
    for line in lines.iter().skip(start - 1).take(limit) {
        if !out.is_empty() && out.len() + line.len() > MAX_TEXT_BYTES {
            break;
        }
        out.push_str(line);
        end += 1;
    }
    if out.len() > MAX_TEXT_BYTES {
        // A single line longer than the cap: keep its head on a char boundary.
        let mut cut = MAX_TEXT_BYTES;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str(&format!(
            "\n\n[Line {start} is longer than {MAX_TEXT_BYTES} bytes; only its start is shown.]"
        ));
    } else if end < total {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!(
            "\n[Showing lines {start}-{end} of {total}. Use offset={} to continue.]",
            end + 1
        ));
    }
    Ok(ToolResult::text(
        out,
        json!({"path": label, "lines": total, "from": start, "to": end}),
    ))
}

impl Tool for ReadTool {
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
    fn pages_by_line_and_says_how_to_continue() {
        let text = "a\nb\nc\nd\n";
        let r = page_text("f", text, Some(2), Some(2)).unwrap();
        assert_eq!(
            r.joined_text(),
            "b\nc\n\n[Showing lines 2-3 of 4. Use offset=4 to continue.]"
        );
        let r = page_text("f", text, Some(4), None).unwrap();
        assert_eq!(r.joined_text(), "d\n");
        let err = page_text("f", text, Some(9), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Offset 9 is beyond end of file (4 lines total)"
        );
    }

    #[test]
    fn long_text_is_cut_at_the_byte_cap() {
        let text = "x".repeat(100) + "\n";
        let big = text.repeat(1000);
        let r = page_text("f", &big, None, None).unwrap();
        let out = r.joined_text();
        assert!(out.len() <= MAX_TEXT_BYTES + 100);
        assert!(out.contains("Use offset="));
    }
}
