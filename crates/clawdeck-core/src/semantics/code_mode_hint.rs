//! The TypeScript-like type hints Code Mode's `exec` description lists for each tool callable
//! from code (`- read { path: string; limit?: number /* integer, >= 1 */ } -> ?`): one
//! bounded line per tool, rendered from its parameter schema (the input) and its output schema
//! (the output). The rules are OpenClaw 2026.9's (`compactToolInputHint` and
//! `compactToolOutputHint`): what the bounds, depths and keyword sets below say, checked against
//! the index real runs sent (tests/realclaw_fidelity.rs,
//! `code_mode_input_hints_match_every_recorded_index`).

use std::cmp::Ordering;

use serde_json::{Map, Value};

/// What a hint may grow to, and how deep and wide it looks.
#[derive(Debug, Clone, Copy)]
struct Limits {
    max_chars: usize,
    max_depth: usize,
    max_properties: usize,
    /// Numbers carry their bounds (`number /* integer, >= 0 */`): 2026.9's inputs only.
    numeric_bounds: bool,
}

const INPUT: Limits = Limits {
    max_chars: 300,
    max_depth: 4,
    max_properties: 16,
    numeric_bounds: true,
};

const OUTPUT: Limits = Limits {
    max_chars: 800,
    max_depth: 6,
    max_properties: 22,
    numeric_bounds: false,
};

/// Longest property name a hint spells out.
const MAX_PROPERTY_NAME_CHARS: usize = 128;
/// Most members of a union of types.
const MAX_UNION_TYPES: usize = 5;
/// Most values of a literal union, and its longest text.
const MAX_ENUM_VALUES: usize = 8;
const MAX_ENUM_CHARS: usize = 96;

/// Keywords whose shape a hint cannot say: a hint of such a schema is incomplete.
const UNSUPPORTED_SHAPE_KEYWORDS: [&str; 13] = [
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "allOf",
    "patternProperties",
    "unevaluatedProperties",
    "dependentSchemas",
    "dependencies",
    "if",
    "then",
    "else",
    "prefixItems",
    "unevaluatedItems",
];

/// Numeric bounds and how a hint writes them.
const NUMERIC_BOUNDS: [(&str, &str); 4] = [
    ("minimum", ">="),
    ("maximum", "<="),
    ("exclusiveMinimum", ">"),
    ("exclusiveMaximum", "<"),
];

/// A hint, and whether it says the whole shape.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hint {
    text: String,
    complete: bool,
}

impl Hint {
    fn complete(text: impl Into<String>) -> Hint {
        Hint {
            text: text.into(),
            complete: true,
        }
    }

    fn unknown() -> Hint {
        Hint {
            text: "unknown".to_string(),
            complete: false,
        }
    }
}

/// A tool's input hint, from its parameter schema (`unknown` when it says nothing usable or
/// grows past 300 characters). `number_bounds`: numbers carry their bounds (2026.9; 2026.8
/// writes a plain `number`).
pub fn input_hint(schema: &Value, number_bounds: bool) -> String {
    let Some(object) = schema.as_object() else {
        return "unknown".to_string();
    };
    let limits = Limits {
        numeric_bounds: number_bounds,
        ..INPUT
    };
    let hint = if object.get("type").and_then(Value::as_str) == Some("object") {
        object_hint(object, 0, limits)
    } else {
        schema_hint(schema, 0, limits)
    };
    if js_len(&hint.text) <= INPUT.max_chars {
        hint.text
    } else {
        "unknown".to_string()
    }
}

/// A tool's output hint, from its output schema; `None` when the hint would not say the whole
/// shape within 800 characters (the index then writes `?`).
pub fn output_hint(schema: &Value) -> Option<String> {
    let hint = schema_hint(schema, 0, OUTPUT);
    (hint.complete && js_len(&hint.text) <= OUTPUT.max_chars).then_some(hint.text)
}

/// The length JavaScript gives a string (UTF-16 code units), which the bounds count.
fn js_len(text: &str) -> usize {
    text.encode_utf16().count()
}

fn has_unsupported_shape(schema: &Map<String, Value>) -> bool {
    UNSUPPORTED_SHAPE_KEYWORDS
        .iter()
        .any(|key| schema.contains_key(*key))
}

fn schema_hint(schema: &Value, depth: usize, limits: Limits) -> Hint {
    let Some(object) = schema.as_object() else {
        return Hint::unknown();
    };
    if object.is_empty() {
        return Hint::complete("unknown");
    }
    if depth >= limits.max_depth {
        return Hint::unknown();
    }
    if let Some(nullable) = object.get("nullable") {
        return match nullable_as_type(object, nullable) {
            None => Hint::unknown(),
            Some(None) => shaped_hint(object, depth, limits),
            Some(Some(widened)) => schema_hint(&Value::Object(widened), depth, limits),
        };
    }
    shaped_hint(object, depth, limits)
}

/// OpenAPI's `nullable` as a type: `None` when it cannot be read, `Some(None)` when it changes
/// nothing, else the schema with `null` among its types.
#[allow(clippy::option_option)]
fn nullable_as_type(
    object: &Map<String, Value>,
    nullable: &Value,
) -> Option<Option<Map<String, Value>>> {
    let nullable = nullable.as_bool()?;
    let types: Vec<&str> = match object.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    if !nullable {
        return Some(None);
    }
    let mut widened = object.clone();
    widened.insert("nullable".to_string(), Value::Bool(false));
    let mut all: Vec<&str> = Vec::new();
    for t in types.into_iter().chain(["null"]) {
        if !all.contains(&t) {
            all.push(t);
        }
    }
    widened.insert(
        "type".to_string(),
        Value::Array(
            all.into_iter()
                .map(|t| Value::String(t.to_string()))
                .collect(),
        ),
    );
    Some(Some(widened))
}

/// The hint of a schema past the checks every schema gets; incomplete when a keyword whose
/// shape no hint says is there.
fn shaped_hint(object: &Map<String, Value>, depth: usize, limits: Limits) -> Hint {
    let mut hint = typed_hint(object, depth, limits);
    if has_unsupported_shape(object) {
        hint.complete = false;
    }
    hint
}

fn typed_hint(object: &Map<String, Value>, depth: usize, limits: Limits) -> Hint {
    if let Some(union) = union_hint(object, depth, limits) {
        return union;
    }
    if let Some(literal) = object.get("const").and_then(render_primitive) {
        return Hint::complete(literal);
    }
    if let Some(values) = object.get("enum")
        && let Some(union) = literal_union(values)
    {
        return union;
    }
    match object.get("type") {
        Some(Value::Array(types)) => type_union(object, types, depth, limits),
        Some(Value::String(t)) => match t.as_str() {
            "integer" | "number" => number_hint(object, t == "integer", limits),
            "array" => {
                let item = schema_hint(
                    object.get("items").unwrap_or(&Value::Null),
                    depth + 1,
                    limits,
                );
                Hint {
                    text: format!("Array<{}>", item.text),
                    complete: item.complete,
                }
            }
            "object" => object_hint(object, depth + 1, limits),
            "string" | "boolean" | "null" => Hint::complete(t.as_str()),
            _ => Hint::unknown(),
        },
        _ => Hint::unknown(),
    }
}

/// `type: [...]`: each type rendered on its own, joined.
fn type_union(object: &Map<String, Value>, types: &[Value], depth: usize, limits: Limits) -> Hint {
    if types.is_empty() || types.len() > MAX_UNION_TYPES || !types.iter().all(Value::is_string) {
        return Hint::unknown();
    }
    let mut parts = Vec::new();
    for t in types {
        let mut one = object.clone();
        one.insert("type".to_string(), t.clone());
        let hint = schema_hint(&Value::Object(one), depth + 1, limits);
        if !hint.complete {
            return Hint::unknown();
        }
        parts.push(hint.text);
    }
    Hint::complete(join_unique(parts))
}

fn number_hint(object: &Map<String, Value>, integer: bool, limits: Limits) -> Hint {
    if !limits.numeric_bounds {
        return Hint::complete("number");
    }
    let mut constraints: Vec<String> = Vec::new();
    if integer {
        constraints.push("integer".to_string());
    }
    for (key, operator) in NUMERIC_BOUNDS {
        let Some(bound) = object.get(key) else {
            continue;
        };
        let Some(number) = bound.as_f64().filter(|n| n.is_finite()) else {
            return Hint::unknown();
        };
        constraints.push(format!("{operator} {}", js_number(number)));
    }
    if constraints.is_empty() {
        Hint::complete("number")
    } else {
        Hint::complete(format!("number /* {} */", constraints.join(", ")))
    }
}

/// `anyOf` / `oneOf`: a literal union when every variant is a `const`, else each variant's
/// hint joined; `None` for a schema with neither.
fn union_hint(object: &Map<String, Value>, depth: usize, limits: Limits) -> Option<Hint> {
    let any_of = object.get("anyOf");
    let one_of = object.get("oneOf");
    let variants = match (any_of, one_of) {
        (None, None) => return None,
        (Some(_), Some(_)) => return Some(Hint::unknown()),
        (Some(v), None) | (None, Some(v)) => v,
    };
    let Some(variants) = variants
        .as_array()
        .filter(|v| !v.is_empty() && v.len() <= MAX_ENUM_VALUES)
    else {
        return Some(Hint::unknown());
    };
    const BESIDE_A_UNION: [&str; 7] = [
        "const",
        "enum",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
    ];
    if BESIDE_A_UNION.iter().any(|key| object.contains_key(*key)) {
        return Some(Hint::unknown());
    }
    let literals: Option<Vec<Value>> = variants
        .iter()
        .map(|variant| {
            let variant = variant.as_object()?;
            if has_unsupported_shape(variant) {
                return None;
            }
            variant.get("const").cloned()
        })
        .collect();
    if let Some(union) = literals.and_then(|values| literal_union(&Value::Array(values))) {
        return Some(union);
    }
    if variants.len() > MAX_UNION_TYPES {
        return Some(Hint::unknown());
    }
    let mut parts = Vec::new();
    for variant in variants {
        let hint = schema_hint(variant, depth + 1, limits);
        if !hint.complete {
            return Some(Hint::unknown());
        }
        parts.push(hint.text);
    }
    Some(Hint::complete(join_unique(parts)))
}

/// `"a" | "b" | 3` of up to 8 primitive values in at most 96 characters; `None` otherwise.
fn literal_union(values: &Value) -> Option<Hint> {
    let values = values
        .as_array()
        .filter(|v| !v.is_empty() && v.len() <= MAX_ENUM_VALUES)?;
    let rendered: Vec<String> = values.iter().map(render_primitive).collect::<Option<_>>()?;
    let text = join_unique(rendered);
    (js_len(&text) <= MAX_ENUM_CHARS).then(|| Hint::complete(text))
}

/// Each distinct text once, in order, joined by ` | `.
fn join_unique(parts: Vec<String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for part in parts {
        if !seen.contains(&part) {
            seen.push(part);
        }
    }
    seen.join(" | ")
}

/// A primitive as JSON writes it (`"a"`, `true`, `3`, `null`); `None` for anything else.
fn render_primitive(value: &Value) -> Option<String> {
    match value {
        Value::Null | Value::Bool(_) | Value::String(_) => serde_json::to_string(value).ok(),
        Value::Number(n) => n.as_f64().filter(|f| f.is_finite()).map(|f| {
            if n.is_f64() {
                js_number(f)
            } else {
                n.to_string()
            }
        }),
        _ => None,
    }
}

/// A number as JavaScript prints it (`3`, `0.5`).
fn js_number(number: f64) -> String {
    if number.fract() == 0.0 && number.abs() < 1e21 {
        format!("{number:.0}")
    } else {
        number.to_string()
    }
}

/// A property name as a hint writes it: bare when it is an identifier, else quoted.
fn property_name(key: &str) -> String {
    let mut chars = key.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        key.to_string()
    } else {
        serde_json::to_string(key).unwrap_or_default()
    }
}

/// `{ a: string; b?: number; ... }`: the required properties, then the optional ones, each
/// group in collation order and at most `max_properties` together, within `max_chars`.
fn object_hint(object: &Map<String, Value>, depth: usize, limits: Limits) -> Hint {
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return bare_object_hint(object, limits);
    };
    let required_values: &[Value] = object
        .get("required")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let invalid_required = required_values.len() <= limits.max_properties
        && required_values.iter().any(|v| !v.is_string());
    let mut required: Vec<&str> = Vec::new();
    for value in required_values.iter().take(limits.max_properties) {
        if let Some(key) = value.as_str().filter(|k| !required.contains(k)) {
            required.push(key);
        }
    }
    let mut required_keys: Vec<&str> = Vec::new();
    let mut missing_required = false;
    for key in &required {
        if js_len(key) > MAX_PROPERTY_NAME_CHARS || !properties.contains_key(*key) {
            missing_required = true;
            continue;
        }
        insert_bounded(&mut required_keys, key, limits.max_properties);
    }
    let optional_limit = limits.max_properties - required_keys.len();
    let mut optional_keys: Vec<&str> = Vec::new();
    let mut optional_count = 0;
    let mut oversized_optional = false;
    for key in properties
        .keys()
        .filter(|k| !required.contains(&k.as_str()))
    {
        optional_count += 1;
        if js_len(key) > MAX_PROPERTY_NAME_CHARS {
            oversized_optional = true;
            continue;
        }
        insert_bounded(&mut optional_keys, key, optional_limit);
    }
    let incomplete_structure = required_values.len() > limits.max_properties
        || invalid_required
        || missing_required
        || oversized_optional
        || optional_count > optional_limit;
    let additional = object.get("additionalProperties");
    let mut omitted = incomplete_structure
        || additional == Some(&Value::Bool(true))
        || additional.is_some_and(Value::is_object);
    let mut complete = !incomplete_structure && additional == Some(&Value::Bool(false));
    let keys: Vec<&str> = required_keys
        .iter()
        .chain(&optional_keys)
        .copied()
        .collect();
    let mut body = String::new();
    for key in &keys {
        let hint = schema_hint(&properties[*key], depth, limits);
        complete &= hint.complete;
        let mark = if required.contains(key) { "" } else { "?" };
        let part = format!("{}{mark}: {}", property_name(key), hint.text);
        let next = if body.is_empty() {
            part
        } else {
            format!("{body}; {part}")
        };
        if js_len(&next) + 4 > limits.max_chars {
            omitted = true;
            complete = false;
            break;
        }
        body = next;
    }
    if body.is_empty() {
        return if keys.is_empty() && !omitted {
            Hint {
                text: "{}".to_string(),
                complete,
            }
        } else {
            Hint {
                text: "{ ... }".to_string(),
                complete: false,
            }
        };
    }
    let more = if omitted { "; ..." } else { "" };
    Hint {
        text: format!("{{ {body}{more} }}"),
        complete,
    }
}

/// An object schema without `properties`: `{}` when it admits nothing, else `{ ... }`.
fn bare_object_hint(object: &Map<String, Value>, limits: Limits) -> Hint {
    let required: &[Value] = object
        .get("required")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let names_none =
        !(required.len() > limits.max_properties || required.iter().any(Value::is_string));
    if names_none && object.get("additionalProperties") == Some(&Value::Bool(false)) {
        Hint::complete("{}")
    } else {
        Hint {
            text: "{ ... }".to_string(),
            complete: false,
        }
    }
}

/// Inserts `value` into sorted `values`, keeping the first `limit` in collation order.
fn insert_bounded<'a>(values: &mut Vec<&'a str>, value: &'a str, limit: usize) {
    if limit == 0 {
        return;
    }
    let at = values.partition_point(|v| collate(v, value) == Ordering::Less);
    if at >= limit {
        return;
    }
    values.insert(at, value);
    values.truncate(limit);
}

/// Property names in the order JavaScript's `localeCompare` gives them (ICU's root collation):
/// punctuation before digits before letters, letters without regard to case first, then a
/// lower-case letter before its capital.
pub(crate) fn collate(a: &str, b: &str) -> Ordering {
    let primary = |s: &str| s.chars().map(primary_weight).collect::<Vec<_>>();
    primary(a).cmp(&primary(b)).then_with(|| {
        let tertiary = |s: &str| s.chars().map(|c| c.is_uppercase()).collect::<Vec<_>>();
        tertiary(a).cmp(&tertiary(b))
    })
}

/// A character's primary weight for [`collate`].
fn primary_weight(c: char) -> (u8, u32) {
    match c {
        '_' => (0, 0),
        '-' => (0, 1),
        '.' => (0, 2),
        '$' => (1, 0),
        '0'..='9' => (2, c as u32),
        c if c.is_alphabetic() => (3, c.to_lowercase().next().unwrap_or(c) as u32),
        c => (0, 100 + c as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_fields_come_first_then_optional_ones_with_their_bounds() {
        let schema = json!({
            "type": "object",
            "required": ["path"],
            "properties": {
                "path": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1},
                "offset": {"type": "number"},
                "mode": {"type": "string", "enum": ["a", "b"]},
            },
        });
        assert_eq!(
            input_hint(&schema, true),
            r#"{ path: string; limit?: number /* integer, >= 1 */; mode?: "a" | "b"; offset?: number }"#
        );
        assert_eq!(
            input_hint(&schema, false),
            r#"{ path: string; limit?: number; mode?: "a" | "b"; offset?: number }"#
        );
    }

    #[test]
    fn an_open_object_says_there_is_more_and_a_closed_one_does_not() {
        let open = json!({"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": true});
        assert_eq!(input_hint(&open, true), "{ a?: boolean; ... }");
        let closed = json!({"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": false});
        assert_eq!(output_hint(&closed).as_deref(), Some("{ a?: boolean }"));
        // An output hint that is not the whole shape is left out.
        let unclosed = json!({"type": "object", "properties": {"a": {"type": "boolean"}}});
        assert_eq!(output_hint(&unclosed), None);
    }

    #[test]
    fn a_long_object_is_cut_within_its_budget() {
        let properties: Map<String, Value> = (0..40)
            .map(|i| (format!("field{i:02}"), json!({"type": "string"})))
            .collect();
        let schema = json!({"type": "object", "properties": properties});
        let hint = input_hint(&schema, true);
        assert!(hint.ends_with("; ... }"), "{hint}");
        assert!(js_len(&hint) <= 300, "{hint}");
    }

    #[test]
    fn unions_nullable_and_arrays() {
        let schema = json!({"type": "object", "required": ["x"], "properties": {
            "x": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "number"}}]},
            "y": {"type": "string", "nullable": true},
            "z": {"type": ["string", "null"]},
        }});
        assert_eq!(
            input_hint(&schema, true),
            "{ x: string | Array<number>; y?: string | null; z?: string | null }"
        );
        assert_eq!(input_hint(&json!("nope"), true), "unknown");
        assert_eq!(input_hint(&json!({}), true), "unknown");
    }

    #[test]
    fn names_sort_as_javascript_compares_them() {
        let mut keys = Vec::new();
        for key in ["zeta", "Alpha", "beta", "_x", "a1", "alpha"] {
            insert_bounded(&mut keys, key, 16);
        }
        assert_eq!(keys, ["_x", "a1", "alpha", "Alpha", "beta", "zeta"]);
    }
}
