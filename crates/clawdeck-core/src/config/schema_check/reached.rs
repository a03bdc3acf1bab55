//! Only the part of a release's config schema a config reaches is read and compiled. OpenClaw's
//! schema is over half a megabyte (every channel, plugin and provider); reading and compiling
//! all of it was most of a cold command's CPU time and memory, while a config names a handful
//! of its keys.
//!
//! Following only `properties` from the root, a schema node whose instance is an object keeps
//! the properties that object has; the others are skipped by the parser, never built. Every
//! other keyword (`required`, `additionalProperties`, `patternProperties`, `anyOf`, `$defs`, ...)
//! is kept whole. A skipped property validates nothing (the instance does not have it) and the
//! names that stay are the instance's own, so which keys count as additional, and every error
//! with its schema path, is what the whole schema gives. The schema's references all point into
//! `$defs`, never into `properties`, so none is cut off. A skipped property that has a default
//! leaves the node's `required` here, as the adaptation does for the kept ones.

use std::fmt;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Compiled schemas kept per process (a console reloading the same config, a test run checking
/// many): at most this many shapes of config, the oldest dropped first.
const KEPT: usize = 32;

/// The reached part of a schema, adapted, and its validator.
pub(super) struct Reached {
    pub schema: Value,
    pub validator: jsonschema::Validator,
}

type Kept = Vec<(String, Arc<Reached>)>;

/// The reached part of the schema `text` for `instance`, read and compiled once per shape of
/// instance (its object keys, not its values).
pub(super) fn compiled(
    pack_id: &str,
    text: &str,
    instance: &Value,
) -> Result<Arc<Reached>, String> {
    static KEPT_SCHEMAS: Mutex<Kept> = Mutex::new(Vec::new());
    let mut shape = format!("{pack_id}:");
    shape_of(instance, &mut shape);
    if let Some((_, found)) = lock(&KEPT_SCHEMAS).iter().find(|(s, _)| *s == shape) {
        return Ok(Arc::clone(found));
    }
    let mut schema = reached_part(text, instance).map_err(|e| e.to_string())?;
    super::adapt_schema(&mut schema, false, &mut 0);
    let validator = super::compile(&schema)?;
    let reached = Arc::new(Reached { schema, validator });
    let mut kept = lock(&KEPT_SCHEMAS);
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push((shape, Arc::clone(&reached)));
    Ok(reached)
}

fn lock(kept: &Mutex<Kept>) -> std::sync::MutexGuard<'_, Kept> {
    // A panic elsewhere while holding it leaves a list that is still whole.
    kept.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The object keys of `value`, nested, as one string: what decides the reached part.
fn shape_of(value: &Value, shape: &mut String) {
    if let Value::Object(fields) = value {
        shape.push('{');
        for (name, field) in fields {
            shape.push_str(&Value::String(name.clone()).to_string());
            shape_of(field, shape);
            shape.push(',');
        }
        shape.push('}');
    }
}

/// The schema in `text` with, along `properties` from the root, only the properties
/// `instance` has.
fn reached_part(text: &str, instance: &Value) -> serde_json::Result<Value> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Node { instance }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// A schema node read for the instance at its place.
struct Node<'i> {
    instance: &'i Value,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        match self.instance {
            Value::Object(fields) => deserializer.deserialize_any(NodeVisitor { fields }),
            _ => Value::deserialize(deserializer),
        }
    }
}

struct NodeVisitor<'i> {
    fields: &'i Map<String, Value>,
}

impl<'de> Visitor<'de> for NodeVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON schema")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut node = Map::new();
        let mut skipped_defaults = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = if key == "properties" {
                map.next_value_seed(Properties {
                    fields: self.fields,
                    skipped_defaults: &mut skipped_defaults,
                })?
            } else {
                map.next_value::<Value>()?
            };
            node.insert(key, value);
        }
        if let Some(Value::Array(required)) = node.get_mut("required") {
            required.retain(|name| {
                !name
                    .as_str()
                    .is_some_and(|n| skipped_defaults.iter().any(|d| d == n))
            });
        }
        Ok(Value::Object(node))
    }
}

/// A node's `properties`: the instance's kept, the rest skipped (noting those with a default).
struct Properties<'i, 'd> {
    fields: &'i Map<String, Value>,
    skipped_defaults: &'d mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Properties<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Properties<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a schema's properties")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut kept = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            match self.fields.get(&name) {
                Some(instance) => {
                    let sub = map.next_value_seed(Node { instance })?;
                    kept.insert(name, sub);
                }
                None => {
                    if map.next_value_seed(HasDefault)? {
                        self.skipped_defaults.push(name);
                    }
                }
            }
        }
        Ok(Value::Object(kept))
    }
}

/// Whether a skipped property's schema has a `default`, read without building it.
struct HasDefault;

impl<'de> DeserializeSeed<'de> for HasDefault {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HasDefault {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON schema")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut has_default = false;
        while let Some(key) = map.next_key::<String>()? {
            has_default |= key == "default";
            map.next_value::<IgnoredAny>()?;
        }
        Ok(has_default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "tools": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["profile", "mode"],
                    "properties": {
                        "profile": {"enum": ["minimal", "coding"]},
                        "mode": {"type": "string", "default": "on"},
                        "exec": {"type": "object", "properties": {"ask": {"type": "string"}}}
                    }
                },
                "channels": {"type": "object", "properties": {"telegram": {"type": "object"}}},
                "agents": {"anyOf": [{"type": "object", "properties": {"x": {"type": "number"}}}]}
            }
        })
    }

    fn errors(schema: &Value, instance: &Value) -> Vec<(String, String, String)> {
        let validator = super::super::compile(schema).unwrap();
        let mut out: Vec<_> = validator
            .iter_errors(instance)
            .map(|e| {
                let at = (e.instance_path().to_string(), e.schema_path().to_string());
                (at.0, at.1, e.to_string())
            })
            .collect();
        out.sort();
        out
    }

    /// The whole schema, adapted as before: a defaulted field is not required.
    fn whole() -> Value {
        let mut whole = schema();
        super::super::adapt_schema(&mut whole, false, &mut 0);
        whole
    }

    #[test]
    fn the_reached_part_finds_what_the_whole_schema_finds() {
        let instances = [
            json!({"tools": {"profile": "full", "elevated": true}}),
            json!({"tools": {"exec": {"ask": 3}}, "unknown": 1}),
            json!({"agents": {"x": "no"}, "tools": {"profile": "coding"}}),
            json!({"channels": {"telegram": 5, "slack": {}}}),
            json!({}),
            json!([1, 2]),
        ];
        for instance in instances {
            let mut reached = reached_part(&schema().to_string(), &instance).unwrap();
            super::super::adapt_schema(&mut reached, false, &mut 0);
            assert_eq!(
                errors(&reached, &instance),
                errors(&whole(), &instance),
                "{instance}"
            );
        }
        // It did cut: a config of tools only keeps neither channels nor agents, and the
        // skipped defaulted `mode` left `required`.
        let reached = reached_part(&schema().to_string(), &json!({"tools": {}})).unwrap();
        let kept: Vec<&String> = reached["properties"].as_object().unwrap().keys().collect();
        assert_eq!(kept, ["tools"]);
        assert_eq!(
            reached["properties"]["tools"]["required"],
            json!(["profile"])
        );
    }

    #[test]
    fn each_shape_is_compiled_once_and_named_by_its_keys() {
        let (mut a, mut b) = (String::new(), String::new());
        shape_of(&json!({"tools": {"exec": {}}}), &mut a);
        shape_of(&json!({"tools": {"exec": {"ask": "x"}}}), &mut b);
        assert_eq!(a, r#"{"tools"{"exec"{},},}"#);
        assert_eq!(b, r#"{"tools"{"exec"{"ask",},},}"#);
        let text = schema().to_string();
        let first = compiled("t", &text, &json!({"tools": {"mode": "x"}})).unwrap();
        let again = compiled("t", &text, &json!({"tools": {"mode": "y"}})).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        let other = compiled("t", &text, &json!({"tools": {}})).unwrap();
        assert!(!Arc::ptr_eq(&first, &other));
    }

    #[test]
    fn a_broken_schema_text_is_an_error_not_a_panic() {
        for text in ["{", "{\"properties\": 3}", "[]", "{} x"] {
            let _ = reached_part(text, &json!({"a": {}}));
        }
        assert!(reached_part("{", &json!({})).is_err());
        assert!(reached_part("{} x", &json!({})).is_err());
    }
}
