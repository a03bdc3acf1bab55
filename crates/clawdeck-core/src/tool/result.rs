//! Tool results: content blocks plus details (seed 001 §1.1, §1.4).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One block of a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        /// Base64 payload.
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
}

/// What a tool returns: `{content: [...], details: {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub content: Vec<ContentBlock>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub details: Value,
}

impl ToolResult {
    /// A gateway's tool result: `{content: [...], details?}` is taken as it is; anything else
    /// is shown as JSON.
    pub fn from_gateway(result: Value) -> ToolResult {
        if let Some(content) = result
            .get("content")
            .and_then(|c| serde_json::from_value::<Vec<ContentBlock>>(c.clone()).ok())
        {
            let details = result.get("details").cloned().unwrap_or(Value::Null);
            return ToolResult { content, details };
        }
        ToolResult::json(result)
    }

    /// A single text block with the given details.
    pub fn text(text: impl Into<String>, details: Value) -> Self {
        ToolResult {
            content: vec![ContentBlock::Text { text: text.into() }],
            details,
        }
    }

    /// OpenClaw's `jsonResult`: the payload pretty-printed as text, and as details.
    pub(crate) fn json(payload: Value) -> Self {
        let text = serde_json::to_string_pretty(&payload).unwrap_or_else(|_| payload.to_string());
        ToolResult {
            content: vec![ContentBlock::Text { text }],
            details: payload,
        }
    }

    /// OpenClaw's `imageResult`: a text line (`MEDIA:<path>` unless given) and the image block.
    pub fn image(
        label: &str,
        path: Option<&str>,
        base64: String,
        mime_type: &str,
        extra_text: Option<String>,
    ) -> Self {
        let text = extra_text.unwrap_or_else(|| format!("MEDIA:{}", path.unwrap_or(label)));
        ToolResult {
            content: vec![
                ContentBlock::Text { text },
                ContentBlock::Image {
                    data: base64,
                    mime_type: mime_type.to_string(),
                },
            ],
            details: serde_json::json!({ "label": label, "path": path, "mimeType": mime_type }),
        }
    }

    /// The text blocks joined with newlines.
    pub fn joined_text(&self) -> String {
        let parts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                ContentBlock::Image { .. } => None,
            })
            .collect();
        parts.join("\n")
    }

    /// `details.status`, lowercased, when present.
    pub fn status(&self) -> Option<String> {
        self.details
            .get("status")
            .and_then(Value::as_str)
            .map(|s| s.to_ascii_lowercase())
    }

    /// OpenClaw's error detection: `details.status` is `error` or `timeout`.
    pub fn is_error(&self) -> bool {
        matches!(self.status().as_deref(), Some("error") | Some("timeout"))
    }
}

/// The image type the bytes say they are (PNG, JPEG, GIF, WebP, BMP), if any.
pub(crate) fn sniff_image_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(b"BM") && bytes.len() >= 26 {
        Some("image/bmp")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_result_has_pretty_text_and_details() {
        let r = ToolResult::json(json!({"ok": true}));
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"content": [{"type": "text", "text": "{\n  \"ok\": true\n}"}], "details": {"ok": true}})
        );
    }

    #[test]
    fn image_block_serialises_with_mime_type() {
        let r = ToolResult::image("shot", Some("/a.png"), "AAAA".into(), "image/png", None);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v["content"][0],
            json!({"type": "text", "text": "MEDIA:/a.png"})
        );
        assert_eq!(
            v["content"][1],
            json!({"type": "image", "data": "AAAA", "mimeType": "image/png"})
        );
    }

    #[test]
    fn error_detection_reads_details_status() {
        assert!(ToolResult::text("x", json!({"status": "Timeout"})).is_error());
        assert!(!ToolResult::text("x", json!({"status": "completed"})).is_error());
        assert!(!ToolResult::text("x", Value::Null).is_error());
    }
}
