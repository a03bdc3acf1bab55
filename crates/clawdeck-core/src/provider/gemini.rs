//! Gemini schema cleaning (seed 001 §4.1, OpenClaw's `cleanSchemaForGemini`).
//!
//! Gemini's function declarations take an OpenAPI-3.0 subset of JSON Schema: no references, no
//! unions, one `type` per node, string-only enums. The cleaner inlines local `$ref`s (a cycle
//! becomes a plain node of the target's type), turns `const` into `enum`, removes `null` from
//! type arrays and unions, collapses unions into one schema and drops the keywords Gemini
//! rejects. The result never contains a keyword from [`GEMINI_FORBIDDEN_KEYWORDS`] or
//! [`GEMINI_REWRITTEN_KEYWORDS`] at a schema position.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::normalize::{META_KEYS, common_json_type, merge_property_schemas, string_list};

/// The keywords OpenClaw strips for Gemini (facts file, `GEMINI_UNSUPPORTED_SCHEMA_KEYWORDS`),
/// plus `not`.
pub const GEMINI_FORBIDDEN_KEYWORDS: &[&str] = &[
    "patternProperties",
    "additionalProperties",
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "definitions",
    "examples",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "multipleOf",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "not",
];

/// Keywords with no meaning in Gemini's schema subset that clawdeck rewrites (unions, `const`,
/// tuple items) or drops (conditionals, annotations) so that none reaches the API.
pub const GEMINI_REWRITTEN_KEYWORDS: &[&str] = &[
    "anyOf",
    "oneOf",
    "allOf",
    "const",
    "prefixItems",
    "contains",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "$comment",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
];

/// Whether `key` may not appear at a schema position of a Gemini schema.
pub(crate) fn is_gemini_forbidden(key: &str) -> bool {
    GEMINI_FORBIDDEN_KEYWORDS.contains(&key) || GEMINI_REWRITTEN_KEYWORDS.contains(&key)
}

type Defs = BTreeMap<String, Value>;

/// A Gemini-compatible copy of `schema`.
pub fn clean_for_gemini(schema: &Value) -> Value {
    let mut stack = Vec::new();
    clean_node(schema, &Defs::new(), &mut stack)
}

fn clean_node(schema: &Value, defs: &Defs, ref_stack: &mut Vec<String>) -> Value {
    let obj = match schema {
        Value::Object(obj) => obj,
        // `true` accepts anything; `false` cannot be expressed. Both become an open node.
        Value::Bool(_) => return json!({}),
        other => return other.clone(),
    };
    let defs = extend_defs(defs, obj);

    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        return inline_ref(obj, reference, &defs, ref_stack);
    }

    let mut out = Map::new();
    for (key, value) in obj {
        match key.as_str() {
            "properties" => {
                if let Some(props) = value.as_object() {
                    let cleaned = props
                        .iter()
                        .map(|(name, sub)| (name.clone(), clean_node(sub, &defs, ref_stack)))
                        .collect();
                    out.insert(key.clone(), Value::Object(cleaned));
                }
            }
            "items" => match value {
                // Tuple items: Gemini takes one item schema; the first describes the array best.
                Value::Array(items) => {
                    if let Some(first) = items.first() {
                        out.insert(key.clone(), clean_node(first, &defs, ref_stack));
                    }
                }
                other => {
                    out.insert(key.clone(), clean_node(other, &defs, ref_stack));
                }
            },
            "prefixItems" => {
                if !obj.contains_key("items")
                    && let Some(first) = value.as_array().and_then(|a| a.first())
                {
                    out.insert("items".into(), clean_node(first, &defs, ref_stack));
                }
            }
            "const" => {
                if !obj.contains_key("enum") {
                    out.insert("enum".into(), json!([value]));
                }
            }
            k if is_gemini_forbidden(k) => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }

    if let Some(variants) = obj.get("allOf").and_then(Value::as_array) {
        for variant in variants {
            if let Value::Object(part) = clean_node(variant, &defs, ref_stack) {
                merge_all_of_part(&mut out, part);
            }
        }
    }
    for union_key in ["anyOf", "oneOf"] {
        if let Some(variants) = obj.get(union_key).and_then(Value::as_array) {
            let cleaned: Vec<Value> = variants
                .iter()
                .map(|v| clean_node(v, &defs, ref_stack))
                .collect();
            if let Some(Value::Object(chosen)) = simplify_union(cleaned) {
                merge_union_choice(&mut out, chosen);
            }
        }
    }

    finish_node(&mut out);
    Value::Object(out)
}

/// Adds the `$defs` / `definitions` declared on this node to the ones in scope.
fn extend_defs(defs: &Defs, obj: &Map<String, Value>) -> Defs {
    let mut next = defs.clone();
    for section in ["$defs", "definitions"] {
        if let Some(entries) = obj.get(section).and_then(Value::as_object) {
            for (name, schema) in entries {
                next.insert(name.clone(), schema.clone());
            }
        }
    }
    next
}

fn ref_name(reference: &str) -> Option<String> {
    let rest = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))?;
    Some(rest.replace("~1", "/").replace("~0", "~"))
}

/// Replaces a `$ref` node with a cleaned copy of its target. The referring node's title,
/// description and default win. A reference back into a target being inlined (a recursive
/// schema) stops there as a plain node of the target's type; an unresolvable one keeps only its
/// metadata.
fn inline_ref(
    obj: &Map<String, Value>,
    reference: &str,
    defs: &Defs,
    ref_stack: &mut Vec<String>,
) -> Value {
    let target = ref_name(reference).and_then(|name| defs.get(&name));
    let mut out = match target {
        Some(target) if ref_stack.iter().any(|r| r == reference) => {
            let mut stub = Map::new();
            if let Some(kind) = target.get("type").and_then(Value::as_str) {
                stub.insert("type".into(), json!(kind));
            } else if target.get("properties").is_some() {
                stub.insert("type".into(), json!("object"));
            }
            if let Some(description) = target.get("description") {
                stub.insert("description".into(), description.clone());
            }
            stub
        }
        Some(target) => {
            ref_stack.push(reference.to_string());
            let cleaned = clean_node(target, defs, ref_stack);
            ref_stack.pop();
            match cleaned {
                Value::Object(map) => map,
                _ => Map::new(),
            }
        }
        None => Map::new(),
    };
    for key in META_KEYS {
        if let Some(v) = obj.get(*key) {
            out.insert((*key).into(), v.clone());
        }
    }
    Value::Object(out)
}

fn is_null_schema(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return false;
    };
    if obj.get("const").is_some_and(Value::is_null) {
        return true;
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array)
        && !values.is_empty()
        && values.iter().all(Value::is_null)
    {
        return true;
    }
    match obj.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => {
            !types.is_empty() && types.iter().all(|t| t.as_str() == Some("null"))
        }
        _ => false,
    }
}

/// One schema standing for a union's (already cleaned) variants: null variants dropped; literal
/// variants of one type become an enum; object variants are merged like a top-level union;
/// otherwise a free string variant (the most permissive for a model to fill) or else the first.
fn simplify_union(variants: Vec<Value>) -> Option<Value> {
    let variants: Vec<Value> = variants
        .into_iter()
        .filter(|v| !is_null_schema(v))
        .collect();
    if variants.len() <= 1 {
        return variants.into_iter().next();
    }
    if let Some(literals) = literal_values(&variants) {
        let mut out = Map::new();
        if let Some(kind) = common_json_type(&literals) {
            out.insert("type".into(), json!(kind));
        }
        out.insert("enum".into(), Value::Array(literals));
        return Some(Value::Object(out));
    }
    let objects: Vec<&Map<String, Value>> = variants.iter().filter_map(Value::as_object).collect();
    let all_objects = objects.len() == variants.len()
        && objects.iter().all(|o| {
            o.contains_key("properties") || o.get("type").and_then(Value::as_str) == Some("object")
        });
    if all_objects {
        return Some(Value::Object(merge_object_variants(&objects)));
    }
    variants
        .iter()
        .find(|v| {
            v.get("type").and_then(Value::as_str) == Some("string") && v.get("enum").is_none()
        })
        .or_else(|| variants.first())
        .cloned()
}

/// The values of variants that are each a single literal (`enum` of one value after `const`
/// was rewritten), or None when any variant is not.
fn literal_values(variants: &[Value]) -> Option<Vec<Value>> {
    let mut values = Vec::new();
    for variant in variants {
        let single = variant
            .get("enum")
            .and_then(Value::as_array)
            .filter(|e| e.len() == 1)?;
        if !values.contains(&single[0]) {
            values.push(single[0].clone());
        }
    }
    Some(values)
}

fn merge_object_variants(objects: &[&Map<String, Value>]) -> Map<String, Value> {
    let mut properties = Map::new();
    for object in objects {
        if let Some(props) = object.get("properties").and_then(Value::as_object) {
            for (key, incoming) in props {
                let merged = match properties.get(key) {
                    Some(existing) => merge_property_schemas(existing, incoming),
                    None => incoming.clone(),
                };
                properties.insert(key.clone(), merged);
            }
        }
    }
    let owned: Vec<Map<String, Value>> = objects.iter().map(|o| (*o).clone()).collect();
    let required = super::normalize::required_by_every(&owned);
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    out
}

/// allOf: every part applies, so properties and required lists are unioned; other keys fill
/// gaps only.
fn merge_all_of_part(out: &mut Map<String, Value>, part: Map<String, Value>) {
    for (key, value) in part {
        match key.as_str() {
            "properties" => merge_properties(out, value),
            "required" => {
                let mut required = string_list(out.get("required"));
                for key in string_list(Some(&value)) {
                    if !required.contains(&key) {
                        required.push(key);
                    }
                }
                out.insert("required".into(), json!(required));
            }
            _ => {
                out.entry(key).or_insert(value);
            }
        }
    }
}

/// anyOf/oneOf: the simplified variant describes the value; the node's own keys (its
/// description, its declared type) win, and the variant's required keys join the node's.
fn merge_union_choice(out: &mut Map<String, Value>, chosen: Map<String, Value>) {
    merge_all_of_part(out, chosen);
}

fn merge_properties(out: &mut Map<String, Value>, incoming: Value) {
    let Value::Object(incoming) = incoming else {
        return;
    };
    let mut props = out
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (key, schema) in incoming {
        let merged = match props.get(&key) {
            Some(existing) => merge_property_schemas(existing, &schema),
            None => schema,
        };
        props.insert(key, merged);
    }
    out.insert("properties".into(), Value::Object(props));
}

/// Final per-node fixes: one type name, string-only enums, array items, required ⊆ properties.
fn finish_node(out: &mut Map<String, Value>) {
    // The shape a node's keywords imply; it decides between the names of a type array.
    let structural = if out.contains_key("properties") {
        Some("object")
    } else if out.contains_key("items") {
        Some("array")
    } else {
        None
    };
    if let Some(Value::Array(types)) = out.get("type") {
        let names: Vec<&str> = types
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect();
        let chosen = structural
            .filter(|s| names.contains(s))
            .or_else(|| names.contains(&"string").then_some("string"))
            .or_else(|| names.first().copied())
            .map(str::to_string);
        match chosen {
            Some(name) => {
                out.insert("type".into(), json!(name));
            }
            None => {
                out.remove("type");
            }
        }
    } else if out.get("type").and_then(Value::as_str) == Some("null") {
        out.remove("type");
    }

    if let Some(values) = out.get("enum").and_then(Value::as_array).cloned() {
        // Gemini rejects null and empty-string enum entries.
        let values: Vec<Value> = values
            .into_iter()
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
            .collect();
        if values.is_empty() {
            out.remove("enum");
        } else if values.iter().all(Value::is_string) {
            out.insert("enum".into(), Value::Array(values));
            out.entry("type").or_insert_with(|| json!("string"));
        } else {
            // Gemini enums are string-only: keep the allowed values in the description instead.
            out.remove("enum");
            let listed: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let note = format!("Allowed values: {}.", listed.join(", "));
            let description = match out.get("description").and_then(Value::as_str) {
                Some(d) if !d.is_empty() => format!("{d} {note}"),
                _ => note,
            };
            out.insert("description".into(), json!(description));
            if let Some(kind) = common_json_type(&values) {
                out.entry("type").or_insert_with(|| json!(kind));
            }
        }
    }

    // `properties` and `required` are only allowed on OBJECT nodes, `items` only on ARRAY ones.
    if !out.contains_key("type")
        && let Some(kind) = structural
    {
        out.insert("type".into(), json!(kind));
    }
    let kind = out.get("type").and_then(Value::as_str).map(str::to_string);
    if kind.as_deref() != Some("object") {
        out.remove("properties");
        out.remove("required");
    }
    if kind.as_deref() != Some("array") {
        out.remove("items");
    } else if !out.contains_key("items") {
        out.insert("items".into(), json!({"type": "string"}));
    }

    if out.contains_key("required") {
        let known: Vec<String> = out
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let mut required: Vec<String> = Vec::new();
        for key in string_list(out.get("required")) {
            if known.contains(&key) && !required.contains(&key) {
                required.push(key);
            }
        }
        if required.is_empty() {
            out.remove("required");
        } else {
            out.insert("required".into(), json!(required));
        }
    }
}

/// Every place in `schema` that Gemini would reject, as `path: problem` lines. Walks schema
/// positions only, so a property *named* `format` is fine.
pub fn gemini_violations(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    walk_violations(schema, "$", &mut problems);
    problems
}

fn walk_violations(schema: &Value, path: &str, problems: &mut Vec<String>) {
    let Some(obj) = schema.as_object() else {
        problems.push(format!("{path}: schema is not an object"));
        return;
    };
    for key in obj.keys() {
        if is_gemini_forbidden(key) {
            problems.push(format!("{path}: keyword `{key}`"));
        }
    }
    match obj.get("type") {
        None | Some(Value::String(_)) => {}
        Some(other) => problems.push(format!("{path}: type must be one name, got {other}")),
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array)
        && values.iter().any(|v| v.as_str().is_none_or(str::is_empty))
    {
        problems.push(format!("{path}: enum values must be non-empty strings"));
    }
    let kind = obj.get("type").and_then(Value::as_str);
    if (obj.contains_key("properties") || obj.contains_key("required")) && kind != Some("object") {
        problems.push(format!(
            "{path}: properties/required only allowed for OBJECT type"
        ));
    }
    if obj.contains_key("items") && kind != Some("array") {
        problems.push(format!("{path}: items only allowed for ARRAY type"));
    }
    let properties = obj.get("properties").and_then(Value::as_object);
    for key in string_list(obj.get("required")) {
        if !properties.is_some_and(|p| p.contains_key(&key)) {
            problems.push(format!("{path}: required `{key}` is not a property"));
        }
    }
    if let Some(props) = properties {
        for (name, sub) in props {
            walk_violations(sub, &format!("{path}.properties.{name}"), problems);
        }
    }
    if let Some(items) = obj.get("items") {
        walk_violations(items, &format!("{path}.items"), problems);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn strips_forbidden_keywords_and_converts_const() {
        let schema = json!({
            "type": "object",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "additionalProperties": false,
            "properties": {
                "url": {"type": "string", "format": "uri", "pattern": "^https?://", "minLength": 1},
                "mode": {"const": "fast"},
                "count": {"type": ["integer", "null"], "minimum": 0, "maximum": 10},
                "format": {"type": "string", "examples": ["json"]}
            },
            "required": ["url", "ghost"]
        });
        let out = clean_for_gemini(&schema);
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "url": {"type": "string"},
                    "mode": {"type": "string", "enum": ["fast"]},
                    "count": {"type": "integer"},
                    "format": {"type": "string"}
                },
                "required": ["url"]
            })
        );
        assert!(gemini_violations(&out).is_empty());
    }

    #[test]
    fn inlines_refs_and_stops_at_cycles() {
        let schema = json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node", "description": "Tree root"}},
            "$defs": {"Node": {
                "type": "object",
                "description": "A node",
                "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}
            }}
        });
        let out = clean_for_gemini(&schema);
        let root = &out["properties"]["root"];
        assert_eq!(root["description"], "Tree root");
        assert_eq!(
            root["properties"]["children"]["items"],
            json!({"type": "object", "description": "A node"})
        );
        assert!(out.get("$defs").is_none());
        assert!(gemini_violations(&out).is_empty());
    }

    #[test]
    fn unions_collapse() {
        let schema = json!({"type": "object", "properties": {
            "nullable": {"anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}], "description": "outer"},
            "literals": {"anyOf": [{"const": "a", "type": "string"}, {"const": "b", "type": "string"}]},
            "mixed": {"oneOf": [{"type": "number"}, {"type": "string"}]},
            "shapes": {"anyOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
                {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind"]}
            ]},
            "both": {"allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}
        }});
        let out = clean_for_gemini(&schema);
        let p = &out["properties"];
        assert_eq!(
            p["nullable"],
            json!({"type": "string", "description": "outer"})
        );
        assert_eq!(p["literals"], json!({"type": "string", "enum": ["a", "b"]}));
        assert_eq!(p["mixed"], json!({"type": "string"}));
        assert_eq!(
            p["shapes"]["properties"]["kind"],
            json!({"type": "string", "enum": ["circle", "square"]})
        );
        assert_eq!(p["shapes"]["required"], json!(["kind"]));
        assert_eq!(p["both"]["required"], json!(["a", "b"]));
        assert!(
            gemini_violations(&out).is_empty(),
            "{:?}",
            gemini_violations(&out)
        );
    }

    #[test]
    fn non_string_enums_move_to_the_description() {
        let out = clean_for_gemini(
            &json!({"type": "integer", "enum": [1, 2, null], "description": "Level."}),
        );
        assert_eq!(
            out,
            json!({"type": "integer", "description": "Level. Allowed values: 1, 2."})
        );
    }

    #[test]
    fn structure_keywords_fit_the_type() {
        let schema = json!({"type": "object", "properties": {
            "either": {"type": ["string", "object"], "properties": {"a": {"type": "string"}}},
            "untyped": {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
            "list": {"items": {"type": "string"}},
            "odd": {"type": "string", "items": {"type": "string"}, "properties": {"x": {}}},
            "choice": {"enum": ["", "a", null]}
        }});
        let out = clean_for_gemini(&schema);
        let p = &out["properties"];
        assert_eq!(p["either"]["type"], "object");
        assert_eq!(
            p["untyped"],
            json!({"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]})
        );
        assert_eq!(
            p["list"],
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(p["odd"], json!({"type": "string"}));
        assert_eq!(p["choice"], json!({"type": "string", "enum": ["a"]}));
        assert!(
            gemini_violations(&out).is_empty(),
            "{:?}",
            gemini_violations(&out)
        );
    }

    #[test]
    fn violations_name_the_path() {
        let bad = json!({"type": "object", "properties": {"x": {"anyOf": [], "type": ["string", "null"]}}, "required": ["y"]});
        let problems = gemini_violations(&bad);
        assert!(
            problems.contains(&"$.properties.x: keyword `anyOf`".to_string()),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("$.properties.x: type must be one name"))
        );
        assert!(problems.contains(&"$: required `y` is not a property".to_string()));
    }
}
