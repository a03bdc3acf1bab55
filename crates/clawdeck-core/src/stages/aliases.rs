//! Parameter aliases for models trained on other tool vocabularies (seed 001 §4.4).
//!
//! Models trained on Claude Code say `file_path` / `old_string` / `new_string` where OpenClaw's
//! tools say `path` / `oldText` / `newText`. The schema side offers the aliases next to the
//! originals (and takes the originals out of `required`, so either spelling validates); the call
//! side maps an alias back to its original before the tool runs, but only when the original is
//! absent, so an explicit original always wins.

use serde_json::{Map, Value};

/// Each original parameter name with the aliases a model may use for it, in the order they are
/// tried on the call side.
pub(crate) const PARAM_ALIASES: &[(&str, &[&str])] = &[
    ("path", &["file_path", "filePath", "file"]),
    ("oldText", &["old_string", "old_text", "oldString"]),
    ("newText", &["new_string", "new_text", "newString"]),
];

/// The schema a model is offered: every original property present in `schema.properties` gains
/// its aliases as copies of its own sub-schema (an alias already declared by the tool is left as
/// it is), and the originals leave `required`. A schema without any original is returned unchanged.
pub(crate) fn alias_schema(schema: &Value) -> Value {
    let mut out = schema.clone();
    let Some(object) = out.as_object_mut() else {
        return out;
    };
    let Some(properties) = object.get_mut("properties").and_then(Value::as_object_mut) else {
        return out;
    };
    let mut aliased: Vec<&str> = Vec::new();
    for (original, aliases) in PARAM_ALIASES {
        let Some(original_schema) = properties.get(*original).cloned() else {
            continue;
        };
        for alias in *aliases {
            if !properties.contains_key(*alias) {
                properties.insert((*alias).to_string(), original_schema.clone());
            }
        }
        aliased.push(original);
    }
    if aliased.is_empty() {
        return out;
    }
    if let Some(required) = object.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|key| !key.as_str().is_some_and(|k| aliased.contains(&k)));
        if required.is_empty() {
            object.remove("required");
        }
    }
    out
}

/// Maps aliases in a tool call's parameters back to the originals. For each original that is
/// absent (or `null`), the first alias present takes its place and is removed; when the original
/// is present the aliases are left untouched. Non-object parameters are left as they are.
/// Returns the `(alias, original)` pairs that were applied, for tracing.
pub(crate) fn apply_param_aliases(params: &mut Value) -> Vec<(&'static str, &'static str)> {
    let Some(object) = params.as_object_mut() else {
        return Vec::new();
    };
    let mut applied = Vec::new();
    for (original, aliases) in PARAM_ALIASES {
        if has_value(object, original) {
            continue;
        }
        for alias in *aliases {
            if !has_value(object, alias) {
                continue;
            }
            if let Some(value) = object.remove(*alias) {
                object.insert((*original).to_string(), value);
                applied.push((*alias, *original));
            }
            break;
        }
    }
    applied
}

fn has_value(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key).is_some_and(|v| !v.is_null())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File to edit"},
                "oldText": {"type": "string"},
                "newText": {"type": "string"},
                "dryRun": {"type": "boolean"}
            },
            "required": ["path", "oldText", "newText", "dryRun"]
        })
    }

    #[test]
    fn schema_gains_aliases_and_originals_leave_required() {
        let aliased = alias_schema(&edit_schema());
        let props = aliased["properties"].as_object().unwrap();
        for key in [
            "path",
            "file_path",
            "filePath",
            "file",
            "oldText",
            "old_string",
            "old_text",
            "oldString",
            "newText",
            "new_string",
            "new_text",
            "newString",
        ] {
            assert!(props.contains_key(key), "missing {key}");
        }
        assert_eq!(props["file_path"], props["path"]);
        assert_eq!(aliased["required"], json!(["dryRun"]));
    }

    #[test]
    fn empty_required_is_removed() {
        let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
        let aliased = alias_schema(&schema);
        assert!(aliased.get("required").is_none());
        assert_eq!(aliased["properties"]["file"], json!({"type": "string"}));
    }

    #[test]
    fn schema_without_originals_is_unchanged() {
        let schema = json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]});
        assert_eq!(alias_schema(&schema), schema);
        assert_eq!(alias_schema(&json!(true)), json!(true));
    }

    #[test]
    fn declared_alias_is_not_overwritten() {
        let schema = json!({"type": "object", "properties": {
            "path": {"type": "string"}, "file": {"type": "integer"}}});
        let aliased = alias_schema(&schema);
        assert_eq!(aliased["properties"]["file"], json!({"type": "integer"}));
        assert_eq!(aliased["properties"]["filePath"], json!({"type": "string"}));
    }

    #[test]
    fn call_aliases_map_to_originals_when_absent() {
        let mut params = json!({"file_path": "/a", "old_string": "x", "newString": "y"});
        let applied = apply_param_aliases(&mut params);
        assert_eq!(
            params,
            json!({"path": "/a", "oldText": "x", "newText": "y"})
        );
        assert_eq!(
            applied,
            vec![
                ("file_path", "path"),
                ("old_string", "oldText"),
                ("newString", "newText")
            ]
        );
    }

    #[test]
    fn original_wins_over_alias() {
        let mut params = json!({"path": "/real", "file_path": "/alias"});
        assert!(apply_param_aliases(&mut params).is_empty());
        assert_eq!(params, json!({"path": "/real", "file_path": "/alias"}));
    }

    #[test]
    fn null_original_is_replaced_and_first_alias_wins() {
        let mut params = json!({"path": null, "filePath": "/b", "file": "/c"});
        apply_param_aliases(&mut params);
        assert_eq!(params, json!({"path": "/b", "file": "/c"}));
    }

    #[test]
    fn non_object_params_are_untouched() {
        let mut params = json!("text");
        assert!(apply_param_aliases(&mut params).is_empty());
        assert_eq!(params, json!("text"));
    }
}
