//! Provider-independent schema normalisation (seed 001 §4.1, OpenClaw's `normalizeToolParameters`).
//!
//! Every provider wants a top-level `type: "object"`; TypeBox root unions compile to
//! `{anyOf: [...]}` without one. A top-level anyOf/oneOf is flattened into one object: the
//! variants' properties are merged (enum values unioned when two variants disagree), and a key
//! stays required only when every variant requires it.

use serde_json::{Map, Value, json};

/// Keys copied from a schema onto whatever replaces it (a flattened union, an inlined `$ref`).
pub(crate) const META_KEYS: &[&str] = &["title", "description", "default"];

/// The root schema with a top-level union flattened and `type: "object"` filled in.
///
/// A root that is not a JSON object (or declares a non-object type) is returned as it is; the
/// exporter refuses such tools with a warning rather than guessing.
pub fn normalize_parameters(schema: &Value) -> Value {
    let Some(root) = schema.as_object() else {
        return schema.clone();
    };
    let root = merge_top_level_all_of(root);
    let mut out = if let Some(variants) = top_level_union(&root) {
        flatten_union(&root, variants)
    } else {
        root.clone()
    };
    complete_object_type(&mut out);
    Value::Object(out)
}

/// A root `allOf` (every part applies): the parts' properties and required keys join the
/// root's, so no provider sees a top-level `allOf`.
fn merge_top_level_all_of(root: &Map<String, Value>) -> Map<String, Value> {
    let Some(parts) = root.get("allOf").and_then(Value::as_array) else {
        return root.clone();
    };
    let mut out = root.clone();
    out.remove("allOf");
    let mut properties = out
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut required = string_list(out.get("required"));
    let mut any_object_part = false;
    for part in parts.iter().filter_map(|p| resolve_local_ref(root, p)) {
        if !is_object_variant(&part) {
            continue;
        }
        any_object_part = true;
        if let Some(props) = part.get("properties").and_then(Value::as_object) {
            for (key, incoming) in props {
                let merged = match properties.get(key) {
                    Some(existing) => merge_property_schemas(existing, incoming),
                    None => incoming.clone(),
                };
                properties.insert(key.clone(), merged);
            }
        }
        for key in string_list(part.get("required")) {
            if !required.contains(&key) {
                required.push(key);
            }
        }
    }
    if any_object_part || !properties.is_empty() {
        out.insert("properties".into(), Value::Object(properties));
    }
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    out
}

fn top_level_union(root: &Map<String, Value>) -> Option<&Vec<Value>> {
    root.get("anyOf")
        .and_then(Value::as_array)
        .or_else(|| root.get("oneOf").and_then(Value::as_array))
}

/// Adds `type: "object"` where the root is object-shaped but untyped, reduces a nullable object
/// type (`["object", "null"]`) to `"object"`, and gives an object root an empty `properties`.
fn complete_object_type(root: &mut Map<String, Value>) {
    match root.get("type") {
        None => {
            root.insert("type".into(), json!("object"));
        }
        Some(Value::Array(types)) => {
            let non_null: Vec<&Value> = types
                .iter()
                .filter(|t| t.as_str() != Some("null"))
                .collect();
            if non_null.len() == 1 && non_null[0].as_str() == Some("object") {
                root.insert("type".into(), json!("object"));
            }
        }
        Some(_) => {}
    }
    if root.get("type").and_then(Value::as_str) == Some("object")
        && !root.contains_key("properties")
    {
        root.insert("properties".into(), json!({}));
    }
}

/// Flattens the root's anyOf/oneOf variants into one object schema. Variants may be local
/// `$ref`s into the root's `$defs` / `definitions`; non-object variants (a bare string, null)
/// cannot describe a tool's argument object and contribute nothing.
fn flatten_union(root: &Map<String, Value>, variants: &[Value]) -> Map<String, Value> {
    let resolved: Vec<Map<String, Value>> = variants
        .iter()
        .filter_map(|v| resolve_local_ref(root, v))
        .filter(is_object_variant)
        .collect();
    let mut properties: Map<String, Value> = root
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for variant in &resolved {
        if let Some(props) = variant.get("properties").and_then(Value::as_object) {
            for (key, incoming) in props {
                let merged = match properties.get(key) {
                    Some(existing) => merge_property_schemas(existing, incoming),
                    None => incoming.clone(),
                };
                properties.insert(key.clone(), merged);
            }
        }
    }
    let base_required = string_list(root.get("required"));
    let required = if !base_required.is_empty() {
        base_required
    } else {
        required_by_every(&resolved)
    };

    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    for key in ["title", "description"] {
        if let Some(v) = root.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    // Keep what the merged properties may still point at, and the root's own strictness.
    for key in ["$defs", "definitions", "additionalProperties", "$schema"] {
        if let Some(v) = root.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    out
}

/// A variant describes (part of) an object when it has properties, a required list, or an
/// object type.
fn is_object_variant(variant: &Map<String, Value>) -> bool {
    variant.contains_key("properties")
        || variant.contains_key("required")
        || type_names(variant.get("type")).contains(&"object")
}

/// The variant itself, or the `$defs` / `definitions` entry its local `$ref` names.
fn resolve_local_ref(root: &Map<String, Value>, variant: &Value) -> Option<Map<String, Value>> {
    let object = variant.as_object()?;
    let Some(reference) = object.get("$ref").and_then(Value::as_str) else {
        return Some(object.clone());
    };
    lookup_local_ref(root, reference)
        .and_then(Value::as_object)
        .cloned()
}

/// Looks up `#/$defs/Name` or `#/definitions/Name` (JSON-pointer escapes decoded) in `root`.
pub(crate) fn lookup_local_ref<'a>(
    root: &'a Map<String, Value>,
    reference: &str,
) -> Option<&'a Value> {
    let rest = reference.strip_prefix("#/")?;
    let (section, name) = rest.split_once('/')?;
    if section != "$defs" && section != "definitions" {
        return None;
    }
    let name = name.replace("~1", "/").replace("~0", "~");
    root.get(section)?.as_object()?.get(&name)
}

/// Keys required by every variant (in first-seen order); none when there are no variants.
pub(crate) fn required_by_every(variants: &[Map<String, Value>]) -> Vec<String> {
    let Some(first) = variants.first() else {
        return Vec::new();
    };
    string_list(first.get("required"))
        .into_iter()
        .filter(|key| {
            variants
                .iter()
                .all(|v| string_list(v.get("required")).contains(key))
        })
        .collect()
}

/// Two variants' schemas for the same property: when either is an enumeration the values are
/// unioned (so `action: "create"` and `action: "delete"` become one enum); otherwise the first
/// wins.
pub(crate) fn merge_property_schemas(existing: &Value, incoming: &Value) -> Value {
    let existing_enum = enum_values(existing);
    let incoming_enum = enum_values(incoming);
    if existing_enum.is_none() && incoming_enum.is_none() {
        return existing.clone();
    }
    let mut values: Vec<Value> = Vec::new();
    for value in existing_enum
        .into_iter()
        .flatten()
        .chain(incoming_enum.into_iter().flatten())
    {
        if !values.contains(&value) {
            values.push(value);
        }
    }
    let mut merged = Map::new();
    for source in [existing, incoming] {
        if let Some(record) = source.as_object() {
            for key in META_KEYS {
                if !merged.contains_key(*key)
                    && let Some(v) = record.get(*key)
                {
                    merged.insert((*key).into(), v.clone());
                }
            }
        }
    }
    if let Some(kind) = common_json_type(&values) {
        merged.insert("type".into(), json!(kind));
    }
    merged.insert("enum".into(), Value::Array(values));
    Value::Object(merged)
}

/// Enumerated values of a schema: `enum`, `const`, or the literals of an anyOf/oneOf.
fn enum_values(schema: &Value) -> Option<Vec<Value>> {
    let record = schema.as_object()?;
    if let Some(values) = record.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    if let Some(value) = record.get("const") {
        return Some(vec![value.clone()]);
    }
    let variants = record
        .get("anyOf")
        .and_then(Value::as_array)
        .or_else(|| record.get("oneOf").and_then(Value::as_array))?;
    let values: Vec<Value> = variants.iter().filter_map(enum_values).flatten().collect();
    (!values.is_empty()).then_some(values)
}

/// The JSON Schema type shared by every value, if there is exactly one.
pub(crate) fn common_json_type(values: &[Value]) -> Option<&'static str> {
    let mut kinds = values.iter().map(json_type_of);
    let first = kinds.next()?;
    kinds.all(|k| k == first).then_some(first)
}

fn json_type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The names in a `type` keyword (a string or an array of strings).
pub(crate) fn type_names(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The strings of a `required`-style list, ignoring anything else.
pub(crate) fn string_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn top_level_any_of_is_flattened_with_common_required() {
        let schema = json!({
            "anyOf": [
                {"type": "object", "properties": {"action": {"const": "send"}, "to": {"type": "string"}, "message": {"type": "string"}}, "required": ["action", "to"]},
                {"type": "object", "properties": {"action": {"const": "react"}, "emoji": {"type": "string"}}, "required": ["action", "emoji"]}
            ]
        });
        let out = normalize_parameters(&schema);
        assert_eq!(out["type"], "object");
        assert_eq!(out["required"], json!(["action"]));
        assert_eq!(
            out["properties"]["action"],
            json!({"type": "string", "enum": ["send", "react"]})
        );
        assert!(out["properties"].get("emoji").is_some());
        assert!(out.get("anyOf").is_none());
    }

    #[test]
    fn one_of_with_refs_into_defs_is_flattened() {
        let schema = json!({
            "oneOf": [{"$ref": "#/$defs/ByPath"}, {"$ref": "#/$defs/ById"}, {"type": "null"}],
            "$defs": {
                "ByPath": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
                "ById": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
            }
        });
        let out = normalize_parameters(&schema);
        assert_eq!(out["properties"]["path"], json!({"type": "string"}));
        assert_eq!(out["properties"]["id"], json!({"type": "integer"}));
        assert!(out.get("required").is_none());
    }

    #[test]
    fn missing_type_is_completed() {
        let out = normalize_parameters(
            &json!({"properties": {"q": {"type": "string"}}, "required": ["q"]}),
        );
        assert_eq!(out["type"], "object");
        let empty = normalize_parameters(&json!({}));
        assert_eq!(empty, json!({"type": "object", "properties": {}}));
        let nullable = normalize_parameters(&json!({"type": ["object", "null"], "properties": {}}));
        assert_eq!(nullable["type"], "object");
    }

    #[test]
    fn non_object_roots_are_left_alone() {
        assert_eq!(
            normalize_parameters(&json!({"type": "string"})),
            json!({"type": "string"})
        );
        assert_eq!(normalize_parameters(&json!(true)), json!(true));
    }

    #[test]
    fn base_required_wins_over_variant_intersection() {
        let schema = json!({
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
            "anyOf": [{"required": ["a"], "properties": {"a": {"type": "string"}}}, {"required": ["b"]}]
        });
        let out = normalize_parameters(&schema);
        assert_eq!(out["required"], json!(["id"]));
        assert_eq!(out["properties"]["a"], json!({"type": "string"}));
    }
}
