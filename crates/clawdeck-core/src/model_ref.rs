//! A model reference as OpenClaw's config writes one (a leaf: the config and the semantics
//! both read it).

use serde_json::Value;

/// A model reference: `"provider/model"` or `{primary: "provider/model"}`, trimmed.
pub(crate) fn model_ref(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Object(map) => map
            .get("primary")
            .and_then(|v| v.as_str())
            .map(|s| s.trim().to_string()),
        _ => None,
    }
}
