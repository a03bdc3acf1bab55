//! Parameters checked against the tool's JSON Schema before anything runs.
//!
//! Each problem names the parameter path in JSON Pointer form, the way a model (or an operator
//! typing `--params`) can fix it: `/edits/0/oldText: required`, `/limit: 1.5 is not of type
//! "integer"`.

use serde_json::Value;

use jsonschema::error::ValidationErrorKind;

/// A compiled schema.
pub struct ParamValidator {
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for ParamValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParamValidator")
    }
}

impl ParamValidator {
    /// Compiles `schema`; an invalid schema is reported with the tool name.
    pub fn new(tool: &str, schema: &Value) -> Result<ParamValidator, String> {
        jsonschema::validator_for(schema)
            .map(|validator| ParamValidator { validator })
            .map_err(|e| format!("the parameter schema of {tool} is invalid: {e}"))
    }

    /// Every problem with `params`, each as `<path>: <what is wrong>`; empty when valid.
    pub fn problems(&self, params: &Value) -> Vec<String> {
        let mut out: Vec<String> = self
            .validator
            .iter_errors(params)
            .map(|error| {
                let at = error.instance_path().as_str().to_string();
                match error.kind() {
                    ValidationErrorKind::Required { property } => {
                        let name = property
                            .as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| property.to_string());
                        format!("{at}/{}: required", escape_pointer(&name))
                    }
                    ValidationErrorKind::AdditionalProperties { unexpected } => {
                        let where_ = if at.is_empty() { "/" } else { at.as_str() };
                        format!("{where_}: unexpected properties {}", unexpected.join(", "))
                    }
                    // jsonschema shortens long enums to "or N other candidates"; list them all.
                    ValidationErrorKind::Enum { options } => {
                        let where_ = if at.is_empty() { "/" } else { at.as_str() };
                        let choices: Vec<String> = match options.as_ref() {
                            Value::Array(items) => items.iter().map(Value::to_string).collect(),
                            other => vec![other.to_string()],
                        };
                        format!(
                            "{where_}: {} is not one of {}",
                            error.instance(),
                            choices.join(", ")
                        )
                    }
                    _ => {
                        let where_ = if at.is_empty() { "/" } else { at.as_str() };
                        format!("{where_}: {error}")
                    }
                }
            })
            .collect();
        out.dedup();
        out
    }
}

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
/// Compiles and checks in one go (tests and one-off calls).
pub(crate) fn validate_params(
    tool: &str,
    schema: &Value,
    params: &Value,
) -> Result<(), Vec<String>> {
    let validator = ParamValidator::new(tool, schema).map_err(|e| vec![e])?;
    let problems = validator.problems(params);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit_schema() -> Value {
        json!({"type": "object", "properties": {
            "path": {"type": "string"},
            "limit": {"type": "integer"},
            "edits": {"type": "array", "items": {"type": "object",
                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                "required": ["oldText", "newText"]}}
        }, "required": ["path"]})
    }

    #[test]
    fn missing_nested_property_names_its_path() {
        let err = validate_params(
            "edit",
            &edit_schema(),
            &json!({"path": "a", "edits": [{"newText": "x"}]}),
        )
        .unwrap_err();
        assert_eq!(err, vec!["/edits/0/oldText: required".to_string()]);
    }

    #[test]
    fn missing_top_level_and_wrong_types_are_all_reported() {
        let err = validate_params("edit", &edit_schema(), &json!({"limit": 1.5})).unwrap_err();
        assert!(err.contains(&"/path: required".to_string()), "{err:?}");
        assert!(
            err.iter()
                .any(|e| e.starts_with("/limit: ") && e.contains("integer")),
            "{err:?}"
        );
    }

    #[test]
    fn valid_params_pass_and_non_objects_fail_at_the_root() {
        assert!(validate_params("edit", &edit_schema(), &json!({"path": "a"})).is_ok());
        let err = validate_params("edit", &edit_schema(), &json!("a")).unwrap_err();
        assert!(err[0].starts_with("/: "), "{err:?}");
    }

    #[test]
    fn enum_errors_list_every_choice() {
        let schema = json!({"type": "object", "properties": {"action": {"enum": ["a", "b", "c", "d", "e"]}}});
        let err = validate_params("t", &schema, &json!({"action": "z"})).unwrap_err();
        assert_eq!(
            err,
            vec![r#"/action: "z" is not one of "a", "b", "c", "d", "e""#.to_string()]
        );
    }

    #[test]
    fn invalid_schema_is_reported_with_the_tool_name() {
        let err = ParamValidator::new("broken", &json!({"type": 12})).unwrap_err();
        assert!(
            err.starts_with("the parameter schema of broken is invalid"),
            "{err}"
        );
    }
}
