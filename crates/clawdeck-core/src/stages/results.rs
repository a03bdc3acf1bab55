//! What a tool result looks like after sanitising (seed 004 "结果处理、图像处理与多媒体支持").
//!
//! Text blocks are cut at 8000 characters with a visible marker; image blocks are decoded, their
//! MIME type taken from the bytes (a tool's declared type is not trusted), and oversized or
//! undecodable payloads replaced by a text note, so a broken image never reaches a model or the
//! console.

use base64::Engine;

use crate::tool::result::sniff_image_mime;
use crate::tool::{ContentBlock, ToolResult};

/// Characters of text kept per block (OpenClaw's tool-result limit).
pub(crate) const MAX_TEXT_CHARS: usize = 8000;
/// Appended where text was cut.
pub const TRUNCATION_MARKER: &str = "\n…(truncated)…";
/// Largest decoded image kept.
pub(crate) const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// `text` cut to `MAX_TEXT_CHARS` characters plus the marker; unchanged when short enough.
pub(crate) fn truncate_text(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => format!("{}{TRUNCATION_MARKER}", &text[..cut]),
        None => text.to_string(),
    }
}

/// Sanitises every block; `label` (the tool name) prefixes image notes.
pub fn sanitize_result(result: ToolResult, label: &str) -> ToolResult {
    let content = result
        .content
        .into_iter()
        .map(|block| match block {
            ContentBlock::Text { text } => ContentBlock::Text {
                text: truncate_text(&text),
            },
            ContentBlock::Image { data, mime_type } => sanitize_image(label, data, &mime_type),
        })
        .collect();
    ToolResult {
        content,
        details: result.details,
    }
}

fn sanitize_image(label: &str, data: String, declared: &str) -> ContentBlock {
    let note = |why: String| ContentBlock::Text {
        text: format!("[{label}] omitted image payload: {why}"),
    };
    // Base64 length bounds the decoded size: refuse before decoding a huge payload.
    let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    if compact.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return note(format!(
            "{} bytes exceeds the {} MB limit",
            compact.len() / 4 * 3,
            MAX_IMAGE_BYTES / (1024 * 1024)
        ));
    }
    let bytes = match base64::engine::general_purpose::STANDARD.decode(compact.as_bytes()) {
        Ok(bytes) => bytes,
        Err(_) => return note("invalid base64".to_string()),
    };
    if bytes.len() > MAX_IMAGE_BYTES {
        return note(format!(
            "{} bytes exceeds the {} MB limit",
            bytes.len(),
            MAX_IMAGE_BYTES / (1024 * 1024)
        ));
    }
    let Some(mime) = sniff_image_mime(&bytes) else {
        return note(format!("not a recognised image (declared {declared})"));
    };
    match fit_within_max_side(&bytes, mime) {
        Ok(None) => ContentBlock::Image {
            data: compact,
            mime_type: mime.to_string(),
        },
        Ok(Some((resized, resized_mime))) => ContentBlock::Image {
            data: base64::engine::general_purpose::STANDARD.encode(resized),
            mime_type: resized_mime.to_string(),
        },
        Err(why) => note(why),
    }
}

/// OpenClaw's limit on an image's longer side, in pixels.
pub(crate) const MAX_IMAGE_SIDE: u32 = 1200;

/// `None` when the image already fits `MAX_IMAGE_SIDE`; otherwise the image scaled down (aspect
/// kept) and re-encoded: JPEG stays JPEG, everything else becomes PNG.
fn fit_within_max_side(
    bytes: &[u8],
    mime: &str,
) -> Result<Option<(Vec<u8>, &'static str)>, String> {
    let format = match mime {
        "image/png" => image::ImageFormat::Png,
        "image/jpeg" => image::ImageFormat::Jpeg,
        "image/gif" => image::ImageFormat::Gif,
        "image/webp" => image::ImageFormat::WebP,
        // Formats without a decoder here pass as they are (their size is already checked).
        _ => return Ok(None),
    };
    let reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    // Headers that do not say how large the image is: the MIME check already passed, and the
    // model's provider is the judge of the rest, as before resizing existed.
    let Ok((width, height)) = reader.into_dimensions() else {
        return Ok(None);
    };
    if width.max(height) <= MAX_IMAGE_SIDE {
        return Ok(None);
    }
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|err| format!("unreadable {mime} ({err})"))?;
    let resized = decoded.resize(
        MAX_IMAGE_SIDE,
        MAX_IMAGE_SIDE,
        image::imageops::FilterType::Triangle,
    );
    let (out_format, out_mime) = match format {
        image::ImageFormat::Jpeg => (image::ImageFormat::Jpeg, "image/jpeg"),
        _ => (image::ImageFormat::Png, "image/png"),
    };
    let mut out = std::io::Cursor::new(Vec::new());
    let written = match out_format {
        // JPEG has no alpha channel.
        image::ImageFormat::Jpeg => {
            image::DynamicImage::ImageRgb8(resized.to_rgb8()).write_to(&mut out, out_format)
        }
        _ => resized.write_to(&mut out, out_format),
    };
    written.map_err(|err| format!("could not re-encode the resized image ({err})"))?;
    Ok(Some((out.into_inner(), out_mime)))
}

/// `{"error": message}` as a result, exactly OpenClaw's `jsonResult({error})` (seed 001 §4.5).
/// Its details carry no status, so callers that need to know it failed keep that themselves
/// (the pipeline's `Completed { is_error }`).
pub(crate) fn error_result(message: &str) -> ToolResult {
    ToolResult::json(serde_json::json!({ "error": message }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn text_is_cut_at_8000_chars_with_the_marker() {
        let long = "é".repeat(9000);
        let out = truncate_text(&long);
        assert!(out.ends_with(TRUNCATION_MARKER));
        assert_eq!(
            out.chars().count(),
            MAX_TEXT_CHARS + TRUNCATION_MARKER.chars().count()
        );
        assert_eq!(truncate_text("short"), "short");
        assert_eq!(truncate_text(&"x".repeat(8000)), "x".repeat(8000));
    }

    #[test]
    fn image_mime_comes_from_the_bytes() {
        let png = [b"\x89PNG\r\n\x1a\n".as_slice(), &[0u8; 16]].concat();
        let r = ToolResult {
            content: vec![ContentBlock::Image {
                data: b64(&png),
                mime_type: "image/jpeg".into(),
            }],
            details: json!({}),
        };
        let out = sanitize_result(r, "shot");
        assert_eq!(
            out.content[0],
            ContentBlock::Image {
                data: b64(&png),
                mime_type: "image/png".into()
            }
        );
    }

    #[test]
    fn large_images_are_scaled_to_the_max_side_and_small_ones_pass() {
        let encode = |w: u32, h: u32, format: image::ImageFormat| {
            let img = image::DynamicImage::new_rgb8(w, h);
            let mut out = std::io::Cursor::new(Vec::new());
            img.write_to(&mut out, format).unwrap();
            out.into_inner()
        };
        let dims = |block: &ContentBlock| match block {
            ContentBlock::Image { data, mime_type } => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .unwrap();
                let img = image::load_from_memory(&bytes).unwrap();
                (img.width(), img.height(), mime_type.clone())
            }
            other => panic!("{other:?}"),
        };
        let big = sanitize_image(
            "shot",
            b64(&encode(2400, 600, image::ImageFormat::Png)),
            "image/png",
        );
        assert_eq!(dims(&big), (1200, 300, "image/png".to_string()));
        let tall = sanitize_image(
            "photo",
            b64(&encode(800, 3000, image::ImageFormat::Jpeg)),
            "image/jpeg",
        );
        assert_eq!(dims(&tall), (320, 1200, "image/jpeg".to_string()));
        let small_png = encode(640, 480, image::ImageFormat::Png);
        match sanitize_image("ok", b64(&small_png), "image/png") {
            ContentBlock::Image { data, .. } => assert_eq!(data, b64(&small_png)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_images_become_text_notes() {
        let bad = ToolResult {
            content: vec![ContentBlock::Image {
                data: "@@not base64@@".into(),
                mime_type: "image/png".into(),
            }],
            details: Value::Null,
        };
        assert_eq!(
            sanitize_result(bad, "shot").joined_text(),
            "[shot] omitted image payload: invalid base64"
        );
        let big = [
            b"\x89PNG\r\n\x1a\n".as_slice(),
            &vec![0u8; MAX_IMAGE_BYTES + 1],
        ]
        .concat();
        let r = ToolResult {
            content: vec![ContentBlock::Image {
                data: b64(&big),
                mime_type: "image/png".into(),
            }],
            details: Value::Null,
        };
        assert!(
            sanitize_result(r, "shot")
                .joined_text()
                .contains("exceeds the 5 MB limit")
        );
        let text = ToolResult {
            content: vec![ContentBlock::Image {
                data: b64(b"hello world"),
                mime_type: "image/png".into(),
            }],
            details: Value::Null,
        };
        assert!(
            sanitize_result(text, "shot")
                .joined_text()
                .contains("not a recognised image")
        );
    }

    #[test]
    fn error_results_are_openclaws_json_result() {
        let r = error_result("boom");
        assert_eq!(r.details, json!({"error": "boom"}));
        assert_eq!(r.joined_text(), "{\n  \"error\": \"boom\"\n}");
    }
}
