//! Defensive parameter readers with OpenClaw's semantics (seed 001 §1.3, seed 003 §22.1.4).
//!
//! Every reader looks up `key`, then its snake_case spelling (`oldText` → `old_text`), because
//! models trained on different tool sets spell keys differently.

use serde_json::{Map, Value};

use super::ToolError;

/// Options shared by the readers.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions<'a> {
    pub required: bool,
    /// Trim strings (default true).
    pub trim: bool,
    /// Keep an empty string instead of treating it as missing.
    pub allow_empty: bool,
    /// Name used in `<label> required`; the key when absent.
    pub label: Option<&'a str>,
}

impl Default for ReadOptions<'_> {
    fn default() -> Self {
        ReadOptions {
            required: false,
            trim: true,
            allow_empty: false,
            label: None,
        }
    }
}

impl<'a> ReadOptions<'a> {
    pub(crate) fn required() -> Self {
        ReadOptions {
            required: true,
            ..Default::default()
        }
    }
    pub fn label(mut self, label: &'a str) -> Self {
        self.label = Some(label);
        self
    }
    pub fn untrimmed(mut self) -> Self {
        self.trim = false;
        self
    }
    pub fn allow_empty(mut self) -> Self {
        self.allow_empty = true;
        self
    }
}

/// `oldText` → `old_text`; keys without capitals come back unchanged.
pub(crate) fn snake_case_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for ch in key.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The value under `key`, or under its snake_case spelling.
pub fn lookup<'v>(params: &'v Value, key: &str) -> Option<&'v Value> {
    let map: &Map<String, Value> = params.as_object()?;
    match map.get(key) {
        Some(Value::Null) | None => {
            let snake = snake_case_key(key);
            if snake != key {
                map.get(&snake).filter(|v| !v.is_null())
            } else {
                None
            }
        }
        Some(v) => Some(v),
    }
}

fn required_error(key: &str, opts: &ReadOptions<'_>) -> ToolError {
    ToolError::input(format!("{} required", opts.label.unwrap_or(key)))
}

/// A string parameter; non-strings count as missing.
pub fn read_string(
    params: &Value,
    key: &str,
    opts: ReadOptions<'_>,
) -> Result<Option<String>, ToolError> {
    let value = match lookup(params, key) {
        Some(Value::String(s)) => {
            let s = if opts.trim {
                s.trim().to_string()
            } else {
                s.clone()
            };
            if s.is_empty() && !opts.allow_empty {
                None
            } else {
                Some(s)
            }
        }
        _ => None,
    };
    match value {
        None if opts.required => Err(required_error(key, &opts)),
        v => Ok(v),
    }
}

/// A number, from a JSON number or a numeric string; `integer` truncates toward zero.
pub(crate) fn read_number(
    params: &Value,
    key: &str,
    required: bool,
    integer: bool,
) -> Result<Option<f64>, ToolError> {
    let number = match lookup(params, key) {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok().filter(|n| n.is_finite()),
        _ => None,
    };
    match number {
        None if required => Err(ToolError::input(format!("{key} required"))),
        Some(n) if integer => Ok(Some(n.trunc())),
        n => Ok(n),
    }
}

/// An integer parameter (truncated), saturating into `i64`.
pub fn read_integer(params: &Value, key: &str, required: bool) -> Result<Option<i64>, ToolError> {
    Ok(read_number(params, key, required, true)?.map(|n| n as i64))
}

/// A boolean parameter; accepts `true`/`false` and the strings `"true"`/`"false"`.
pub(crate) fn read_bool(params: &Value, key: &str) -> Option<bool> {
    match lookup(params, key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A list of strings; a single string becomes a one-element list; blanks are dropped.
pub(crate) fn read_string_array(
    params: &Value,
    key: &str,
    required: bool,
) -> Result<Option<Vec<String>>, ToolError> {
    let list = match lookup(params, key) {
        Some(Value::Array(items)) => {
            let v: Vec<String> = items
                .iter()
                .filter_map(|i| i.as_str())
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if v.is_empty() { None } else { Some(v) }
        }
        Some(Value::String(s)) if !s.trim().is_empty() => Some(vec![s.trim().to_string()]),
        _ => None,
    };
    match list {
        None if required => Err(ToolError::input(format!("{key} required"))),
        v => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn string_is_trimmed_and_required_names_the_label() {
        let p = json!({"path": "  a.txt  ", "blank": "   "});
        assert_eq!(
            read_string(&p, "path", ReadOptions::default()).unwrap(),
            Some("a.txt".to_string())
        );
        assert_eq!(
            read_string(&p, "blank", ReadOptions::default()).unwrap(),
            None
        );
        let err = read_string(&p, "blank", ReadOptions::required().label("Path")).unwrap_err();
        assert_eq!(err, ToolError::Input("Path required".to_string()));
        assert_eq!(err.status_code(), 400);
    }

    #[test]
    fn snake_case_fallback() {
        let p = json!({"old_text": "x"});
        assert_eq!(
            read_string(&p, "oldText", ReadOptions::default()).unwrap(),
            Some("x".to_string())
        );
        assert_eq!(snake_case_key("sessionId"), "session_id");
    }

    #[test]
    fn numbers_truncate_and_parse_strings() {
        let p = json!({"a": 3.9, "b": "-2.7", "c": "x"});
        assert_eq!(read_number(&p, "a", false, true).unwrap(), Some(3.0));
        assert_eq!(read_number(&p, "b", false, true).unwrap(), Some(-2.0));
        assert_eq!(read_number(&p, "c", false, false).unwrap(), None);
        assert!(read_number(&p, "c", true, false).is_err());
    }

    #[test]
    fn string_arrays_accept_a_single_string() {
        let p = json!({"one": "x", "many": ["a", " ", 3, "b"]});
        assert_eq!(
            read_string_array(&p, "one", false).unwrap(),
            Some(vec!["x".to_string()])
        );
        assert_eq!(
            read_string_array(&p, "many", false).unwrap(),
            Some(vec!["a".to_string(), "b".to_string()])
        );
    }
}
