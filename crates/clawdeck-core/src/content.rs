//! The text of a message's `content` as OpenClaw's transcripts, the gateway's events and the
//! model APIs write it: a string, or a list of blocks whose `text` fields count. One reader for
//! every place that shows or compares such a message.

use serde_json::Value;

/// The `text` of each block that has one, joined with `separator`.
pub fn blocks_text<'a>(blocks: impl IntoIterator<Item = &'a Value>, separator: &str) -> String {
    blocks
        .into_iter()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join(separator)
}

/// A `content` that is a string as it is, a list of blocks as [`blocks_text`]; None for
/// anything else (absent, a number, an object).
pub fn content_text(content: Option<&Value>, separator: &str) -> Option<String> {
    match content? {
        Value::String(text) => Some(text.clone()),
        Value::Array(blocks) => Some(blocks_text(blocks, separator)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_string_is_itself_and_blocks_give_their_text_fields() {
        let blocks = json!([{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}]);
        assert_eq!(content_text(Some(&blocks), "\n").as_deref(), Some("a\nb"));
        assert_eq!(content_text(Some(&blocks), "").as_deref(), Some("ab"));
        assert_eq!(
            content_text(Some(&json!("plain")), "\n").as_deref(),
            Some("plain")
        );
        assert_eq!(content_text(Some(&json!(3)), "\n"), None);
        assert_eq!(content_text(None, "\n"), None);
        assert_eq!(blocks_text(&[json!({"text": 5})], ","), "");
    }
}
