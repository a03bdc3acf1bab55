//! `read`: a text file with line paging, or an image as an image block.

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;

use base64::Engine;
use serde_json::json;

use super::path_guard::{PathAccess, PathGuard};
use crate::tool::params::{ReadOptions, read_integer, read_string};
use crate::tool::result::sniff_image_mime;
use crate::tool::{BoxFuture, ContentBlock, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

/// Lines returned when the call gives no limit (OpenClaw's read default).
pub(crate) const DEFAULT_LINE_LIMIT: usize = 2000;
/// Bytes of text returned at most per call; the rest is reached with `offset`.
pub(crate) const MAX_TEXT_BYTES: usize = 50 * 1024;

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
        let guard = Arc::clone(&self.guard);
        tokio::task::spawn_blocking(move || {
            let file = guard
                .open_regular(&raw_path, PathAccess::Read)
                .map_err(|e| e.into_tool_error(&format!("Cannot read {raw_path}")))?;
            read_file(&raw_path, file, offset, limit).map_err(|e| match e {
                PageError::Tool(e) => e,
                PageError::Io(e) => ToolError::failed(format!("Cannot read {raw_path}: {e}")),
            })
        })
        .await
        .map_err(|e| ToolError::failed(format!("read stopped: {e}")))?
    }
}

/// Largest image `read` returns as an image block (it is held in memory and base64-encoded).
pub(crate) const MAX_IMAGE_BYTES: u64 = 20 * 1024 * 1024;
/// Bytes scanned past the returned lines to count the file's lines for the continuation note;
/// past this the note says "more than N".
pub(crate) const LINE_COUNT_SCAN_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug)]
enum PageError {
    Tool(ToolError),
    Io(std::io::Error),
}

impl From<ToolError> for PageError {
    fn from(e: ToolError) -> Self {
        PageError::Tool(e)
    }
}

impl From<std::io::Error> for PageError {
    fn from(e: std::io::Error) -> Self {
        PageError::Io(e)
    }
}

/// An image as an image block, anything else paged as text; only what is returned is held.
fn read_file(
    label: &str,
    file: std::fs::File,
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<ToolResult, PageError> {
    let size = file.metadata()?.len();
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mime = sniff_image_mime(reader.fill_buf()?);
    if let Some(mime) = mime {
        if size > MAX_IMAGE_BYTES {
            return Err(ToolError::input(format!(
                "{label} is a {mime} image of {size} bytes; read returns images up to {MAX_IMAGE_BYTES} bytes"
            ))
            .into());
        }
        let mut bytes = Vec::new();
        reader.take(MAX_IMAGE_BYTES).read_to_end(&mut bytes)?;
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
            details: json!({"path": label, "mimeType": mime, "bytes": bytes.len()}),
        });
    }
    page_lines(label, reader, offset, limit)
}

/// Consumes one line (through its `\n`) from `reader`, keeping at most `keep` bytes of it in
/// `out`; returns the line's full length, 0 at the end of input.
fn next_line(reader: &mut impl BufRead, keep: usize, out: &mut Vec<u8>) -> std::io::Result<u64> {
    let mut length = 0u64;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(length);
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        let room = keep.saturating_sub(out.len()).min(take);
        out.extend_from_slice(&buf[..room]);
        reader.consume(take);
        length += take as u64;
        if done {
            return Ok(length);
        }
    }
}

#[cfg(test)]
/// Cuts `text` to the requested lines and to `MAX_TEXT_BYTES`, telling the model how to continue.
pub(crate) fn page_text(
    label: &str,
    text: &str,
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<ToolResult, ToolError> {
    page_lines(label, text.as_bytes(), offset, limit).map_err(|e| match e {
        PageError::Tool(e) => e,
        PageError::Io(e) => ToolError::failed(format!("Cannot read {label}: {e}")),
    })
}

/// `page_text` over a stream: lines before `offset` are skipped without being kept, at most
/// `MAX_TEXT_BYTES` (plus a little) of the returned lines is held, and the lines after them are
/// only counted, up to `LINE_COUNT_SCAN_BYTES`.
fn page_lines(
    label: &str,
    mut reader: impl BufRead,
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<ToolResult, PageError> {
    let start = positive_count("offset", offset)?.unwrap_or(1);
    let limit = positive_count("limit", limit)?.unwrap_or(DEFAULT_LINE_LIMIT);
    let mut scratch = Vec::new();
    let mut seen = skip_lines(&mut reader, start - 1, &mut scratch)?;
    let mut page = Page::default();
    if seen == start - 1 {
        page = take_page(&mut reader, limit, &mut scratch)?;
        seen += page.read;
    }
    let Page {
        text: mut out,
        lines,
        first_too_long,
        ..
    } = page;
    let end = start - 1 + lines;
    let (rest, exact) = count_rest(&mut reader, &mut scratch)?;
    seen += rest;
    let total = seen;
    if total == 0 && start == 1 {
        return Ok(ToolResult::text("", json!({"path": label, "lines": 0})));
    }
    if start > total {
        return Err(ToolError::input(format!(
            "Offset {start} is beyond end of file ({total} lines total)"
        ))
        .into());
    }
    let total_text = if exact {
        total.to_string()
    } else {
        format!("more than {total}")
    };
    if first_too_long {
        // A single line longer than the cap: keep its head on a char boundary.
        let mut cut = MAX_TEXT_BYTES.min(out.len());
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str(&format!(
            "\n\n[Line {start} is longer than {MAX_TEXT_BYTES} bytes; only its start is shown.]"
        ));
    } else if end < total || !exact {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!(
            "\n[Showing lines {start}-{end} of {total_text}. Use offset={} to continue.]",
            end + 1
        ));
    }
    let details = if exact {
        json!({"path": label, "lines": total, "from": start, "to": end})
    } else {
        json!({"path": label, "linesAtLeast": total, "from": start, "to": end})
    };
    Ok(ToolResult::text(out, details))
}

/// A 1-based line count parameter (`offset`, `limit`): 1 or more when given.
fn positive_count(name: &str, value: Option<i64>) -> Result<Option<usize>, PageError> {
    match value {
        Some(n) if n < 1 => {
            Err(ToolError::input(format!("{name} must be 1 or more, got {n}")).into())
        }
        Some(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
        None => Ok(None),
    }
}

/// Skips up to `count` lines without keeping them; how many there were.
fn skip_lines(
    reader: &mut impl BufRead,
    count: usize,
    scratch: &mut Vec<u8>,
) -> Result<usize, PageError> {
    let mut seen = 0usize;
    while seen < count {
        scratch.clear();
        if next_line(reader, 0, scratch)? == 0 {
            break;
        }
        seen += 1;
    }
    Ok(seen)
}

/// The lines returned to the model.
#[derive(Default)]
struct Page {
    text: String,
    /// Lines in `text`.
    lines: usize,
    /// Lines read (one more than `lines` when the next did not fit).
    read: usize,
    /// The first line alone is longer than `MAX_TEXT_BYTES`; `text` holds its start.
    first_too_long: bool,
}

/// Up to `limit` lines and `MAX_TEXT_BYTES` (a first line longer than that is cut later).
fn take_page(
    reader: &mut impl BufRead,
    limit: usize,
    scratch: &mut Vec<u8>,
) -> Result<Page, PageError> {
    // Lines kept: each at most this many bytes (enough to know it was longer than the cap).
    let keep = MAX_TEXT_BYTES + 4;
    let mut page = Page::default();
    while page.lines < limit {
        scratch.clear();
        let length = next_line(reader, keep, scratch)?;
        if length == 0 {
            break;
        }
        page.read += 1;
        if !page.text.is_empty() && page.text.len() as u64 + length > MAX_TEXT_BYTES as u64 {
            break;
        }
        if length > MAX_TEXT_BYTES as u64 {
            page.first_too_long = true;
        }
        page.text.push_str(&String::from_utf8_lossy(scratch));
        page.lines += 1;
        if page.first_too_long {
            break;
        }
    }
    Ok(page)
}

/// Counts the lines that follow, within the scan budget; false when the budget ran out.
fn count_rest(
    reader: &mut impl BufRead,
    scratch: &mut Vec<u8>,
) -> Result<(usize, bool), PageError> {
    let mut scanned = 0u64;
    let mut lines = 0usize;
    loop {
        if scanned > LINE_COUNT_SCAN_BYTES {
            return Ok((lines, false));
        }
        scratch.clear();
        let length = next_line(reader, 0, scratch)?;
        if length == 0 {
            return Ok((lines, true));
        }
        scanned += length;
        lines += 1;
    }
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
