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

/// Every model a model setting names: the reference itself, or its `primary` and `fallbacks`
/// (`{primary, fallbacks: [...]}`), trimmed, blanks left out.
pub(crate) fn setting_refs(setting: &Value) -> Vec<&str> {
    let (primary, fallbacks) = match setting {
        Value::String(s) => (Some(s.as_str()), None),
        Value::Object(map) => (
            map.get("primary").and_then(Value::as_str),
            map.get("fallbacks").and_then(Value::as_array),
        ),
        _ => (None, None),
    };
    primary
        .into_iter()
        .chain(fallbacks.into_iter().flatten().filter_map(Value::as_str))
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect()
}

/// `model` without its `provider/` prefix, when it carries one (compared without case, as
/// OpenClaw's model lookups compare ids).
pub(crate) fn model_id<'a>(provider: &str, model: &'a str) -> &'a str {
    match model.split_once('/') {
        Some((prefix, rest)) if prefix.trim().eq_ignore_ascii_case(provider.trim()) => rest,
        _ => model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_settings_models_are_its_primary_and_fallbacks() {
        assert_eq!(setting_refs(&json!(" a/b ")), ["a/b"]);
        let setting = json!({"primary": "a/b", "fallbacks": ["c/d", " ", 3, "e/f"]});
        assert_eq!(setting_refs(&setting), ["a/b", "c/d", "e/f"]);
        assert!(setting_refs(&json!({"primary": ""})).is_empty());
        assert!(setting_refs(&json!(7)).is_empty());
        assert_eq!(model_id("OpenAI", "openai/gpt-5.5"), "gpt-5.5");
        assert_eq!(model_id("openai", "z-ai/glm-5.2"), "z-ai/glm-5.2");
    }
}
