//! The exact `tools` payload each provider API receives, and the checks against each API's
//! documented constraints.

use serde::Serialize;
use serde_json::{Value, json};

use super::ProviderApi;
use super::gemini::{clean_for_gemini, gemini_violations};
use super::normalize::normalize_parameters;
use crate::stages::aliases::alias_schema;
use crate::tool::ToolSpec;

/// A provider's `tools` payload for a tool set, plus what had to be left out and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderExport {
    pub api: ProviderApi,
    /// Exactly the value of the request's `tools` field. Empty when no tool is offered, in
    /// which case a request leaves `tools` out (OpenAI rejects an empty array).
    pub payload: Value,
    /// Names of the tools in the payload, in order.
    pub tools: Vec<String>,
    /// One line per dropped tool: `<name>: <reason>`.
    pub warnings: Vec<String>,
}

/// The parameters schema a provider is given for one tool: top-level union flattened and the
/// object type filled in, parameter aliases added, and for Gemini the schema cleaned.
pub fn prepare_parameters(api: ProviderApi, schema: &Value) -> Value {
    prepare_parameters_as(api, schema, true)
}

/// `prepare_parameters`, with the parameter aliases only when the OpenClaw version adds them.
pub fn prepare_parameters_as(api: ProviderApi, schema: &Value, aliases: bool) -> Value {
    let normalized = normalize_parameters(schema);
    let provider_ready = match api {
        // Cleaning can empty a root (a lone `type: "null"`); normalising again keeps the result
        // a fixed point.
        ProviderApi::Gemini => normalize_parameters(&clean_for_gemini(&normalized)),
        _ => normalized,
    };
    // Aliases last: they copy already-clean property schemas, so no provider step undoes them.
    if aliases {
        alias_schema(&provider_ready)
    } else {
        provider_ready
    }
}

/// Builds the payload for `specs` (already filtered by policy), in their order. A tool the API
/// cannot take (a name outside its pattern, a schema that is not an object, a duplicate name)
/// is dropped with a warning.
pub fn export_tools(api: ProviderApi, specs: &[ToolSpec]) -> ProviderExport {
    export_tools_as(api, specs, true)
}

/// `export_tools`, with parameter aliases only when `aliases` (the seeds' OpenClaw).
pub fn export_tools_as(api: ProviderApi, specs: &[ToolSpec], aliases: bool) -> ProviderExport {
    let mut entries = Vec::new();
    let mut tools: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    for spec in specs {
        if tools.contains(&spec.name) {
            warnings.push(format!(
                "{}: dropped for {}: duplicate tool name",
                spec.name,
                api.id()
            ));
            continue;
        }
        let parameters = prepare_parameters_as(api, &spec.parameters, aliases);
        let problems = tool_problems(api, &spec.name, Some(&parameters));
        if !problems.is_empty() {
            warnings.push(format!(
                "{}: dropped for {}: {}",
                spec.name,
                api.id(),
                problems.join("; ")
            ));
            continue;
        }
        entries.push(tool_entry(api, spec, parameters));
        tools.push(spec.name.clone());
    }
    let payload = match api {
        ProviderApi::Gemini if entries.is_empty() => json!([]),
        ProviderApi::Gemini => json!([{ "functionDeclarations": entries }]),
        _ => Value::Array(entries),
    };
    ProviderExport {
        api,
        payload,
        tools,
        warnings,
    }
}

fn tool_entry(api: ProviderApi, spec: &ToolSpec, parameters: Value) -> Value {
    match api {
        ProviderApi::OpenAiChat => json!({
            "type": "function",
            "function": {"name": spec.name, "description": spec.description, "parameters": parameters}
        }),
        // The Responses API defaults `strict` to true, which would demand every property be
        // required and additionalProperties false; OpenClaw's schemas are not written for that.
        ProviderApi::OpenAiResponses => json!({
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": parameters,
            "strict": false
        }),
        ProviderApi::Anthropic => json!({
            "name": spec.name,
            "description": spec.description,
            "input_schema": parameters
        }),
        // `parameters` takes Gemini's OpenAPI-subset schema, which is what the cleaner produces.
        // (OpenClaw 2026.9 sends the same cleaned schema as `parametersJsonSchema`, which the API
        // also accepts.)
        ProviderApi::Gemini => {
            // Gemini rejects an OBJECT with no properties; a tool without parameters omits them.
            let empty = parameters
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.is_empty());
            if empty {
                json!({"name": spec.name, "description": spec.description})
            } else {
                json!({"name": spec.name, "description": spec.description, "parameters": parameters})
            }
        }
    }
}

/// Whether `name` fits the API's function-name rule: `^[a-zA-Z0-9_-]{1,64}$` for OpenAI and
/// Anthropic; Gemini's `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`.
pub fn valid_tool_name(api: ProviderApi, name: &str) -> bool {
    let len = name.chars().count();
    if !(1..=64).contains(&len) {
        return false;
    }
    match api {
        ProviderApi::Gemini => {
            let mut chars = name.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
        }
        _ => name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
    }
}

/// What the API would reject about one tool (empty when it is acceptable). `parameters` is None
/// only for a Gemini declaration without parameters.
pub(crate) fn tool_problems(
    api: ProviderApi,
    name: &str,
    parameters: Option<&Value>,
) -> Vec<String> {
    let mut problems = Vec::new();
    if !valid_tool_name(api, name) {
        problems.push(format!(
            "name `{name}` does not match the {} name pattern",
            api.id()
        ));
    }
    let Some(parameters) = parameters else {
        if api != ProviderApi::Gemini {
            problems.push("parameters missing".to_string());
        }
        return problems;
    };
    if parameters.get("type").and_then(Value::as_str) != Some("object") {
        problems.push("parameters are not a top-level object schema".to_string());
    }
    for key in ["anyOf", "oneOf", "allOf", "enum", "not"] {
        if parameters.get(key).is_some() {
            problems.push(format!("top-level `{key}` in parameters"));
        }
    }
    if api == ProviderApi::Gemini {
        problems.extend(
            gemini_violations(parameters)
                .into_iter()
                .map(|p| format!("parameters {p}")),
        );
    }
    problems
}

/// Reads a payload back in the API's shape and lists every constraint it breaks (empty when
/// the API would accept it). Independent of how the payload was built, so tests can hold the
/// exporter to the documented rules.
pub fn check_payload(api: ProviderApi, payload: &Value) -> Vec<String> {
    let Some(items) = payload.as_array() else {
        return vec!["tools payload is not an array".to_string()];
    };
    let mut problems = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut check =
        |problems: &mut Vec<String>, name: Option<&str>, parameters: Option<&Value>, at: String| {
            let Some(name) = name else {
                problems.push(format!("{at}: no name"));
                return;
            };
            if seen.iter().any(|s| s == name) {
                problems.push(format!("{at}: duplicate name `{name}`"));
            }
            seen.push(name.to_string());
            problems.extend(
                tool_problems(api, name, parameters)
                    .into_iter()
                    .map(|p| format!("{at} ({name}): {p}")),
            );
        };
    for (i, item) in items.iter().enumerate() {
        match api {
            ProviderApi::OpenAiChat => {
                if item.get("type").and_then(Value::as_str) != Some("function") {
                    problems.push(format!("tools[{i}]: type is not \"function\""));
                }
                let function = item.get("function");
                check(
                    &mut problems,
                    function.and_then(|f| f.get("name")).and_then(Value::as_str),
                    function.and_then(|f| f.get("parameters")),
                    format!("tools[{i}]"),
                );
            }
            ProviderApi::OpenAiResponses => {
                if item.get("type").and_then(Value::as_str) != Some("function") {
                    problems.push(format!("tools[{i}]: type is not \"function\""));
                }
                check(
                    &mut problems,
                    item.get("name").and_then(Value::as_str),
                    item.get("parameters"),
                    format!("tools[{i}]"),
                );
            }
            ProviderApi::Anthropic => {
                check(
                    &mut problems,
                    item.get("name").and_then(Value::as_str),
                    item.get("input_schema"),
                    format!("tools[{i}]"),
                );
            }
            ProviderApi::Gemini => {
                let Some(declarations) = item.get("functionDeclarations").and_then(Value::as_array)
                else {
                    problems.push(format!("tools[{i}]: no functionDeclarations"));
                    continue;
                };
                for (j, declaration) in declarations.iter().enumerate() {
                    let parameters = declaration.get("parameters");
                    if let Some(props) = parameters
                        .and_then(|p| p.get("properties"))
                        .and_then(Value::as_object)
                        && props.is_empty()
                    {
                        problems.push(format!(
                            "tools[{i}].functionDeclarations[{j}]: empty OBJECT properties"
                        ));
                    }
                    check(
                        &mut problems,
                        declaration.get("name").and_then(Value::as_str),
                        parameters,
                        format!("tools[{i}].functionDeclarations[{j}]"),
                    );
                }
            }
        }
    }
    problems
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::tool::{ToolFlags, ToolSource};

    fn spec(name: &str, parameters: Value) -> ToolSpec {
        ToolSpec {
            name: name.to_string(),
            label: name.to_string(),
            description: format!("{name} tool"),
            summary: String::new(),
            emoji: "🧩".to_string(),
            parameters,
            source: ToolSource::Core,
            flags: ToolFlags::default(),
        }
    }

    #[test]
    fn names_follow_each_api_pattern() {
        assert!(valid_tool_name(ProviderApi::OpenAiChat, "web-search_2"));
        assert!(!valid_tool_name(ProviderApi::OpenAiChat, "mcp.github"));
        assert!(valid_tool_name(ProviderApi::Gemini, "mcp.github"));
        assert!(!valid_tool_name(ProviderApi::Gemini, "2fa"));
        assert!(!valid_tool_name(ProviderApi::Anthropic, &"x".repeat(65)));
        assert!(!valid_tool_name(ProviderApi::Anthropic, ""));
    }

    #[test]
    fn unacceptable_tools_are_dropped_with_a_warning() {
        let specs = vec![
            spec(
                "read",
                json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
            ),
            spec("mcp.github", json!({"type": "object", "properties": {}})),
            spec("echo", json!({"type": "string"})),
            spec("read", json!({"type": "object"})),
        ];
        let export = export_tools(ProviderApi::Anthropic, &specs);
        assert_eq!(export.tools, vec!["read"]);
        assert_eq!(export.warnings.len(), 3, "{:?}", export.warnings);
        assert!(
            export.warnings[0].starts_with("mcp.github: dropped for anthropic: name `mcp.github`")
        );
        assert!(export.warnings[1].contains("not a top-level object"));
        assert!(export.warnings[2].contains("duplicate"));
        assert!(check_payload(ProviderApi::Anthropic, &export.payload).is_empty());
        // Aliases reach the payload: path left `required`, file_path offered.
        let schema = &export.payload[0]["input_schema"];
        assert!(schema["properties"].get("file_path").is_some());
        assert!(schema.get("required").is_none());
    }

    #[test]
    fn gemini_omits_empty_parameters_and_allows_dotted_names() {
        let specs = vec![
            spec(
                "session_status",
                json!({"type": "object", "properties": {}}),
            ),
            spec("mcp.github", json!({})),
        ];
        let export = export_tools(ProviderApi::Gemini, &specs);
        assert_eq!(export.tools, vec!["session_status", "mcp.github"]);
        assert_eq!(
            export.payload[0]["functionDeclarations"][0],
            json!({"name": "session_status", "description": "session_status tool"})
        );
        assert!(check_payload(ProviderApi::Gemini, &export.payload).is_empty());
        assert_eq!(export_tools(ProviderApi::Gemini, &[]).payload, json!([]));
    }

    #[test]
    fn check_payload_catches_broken_payloads() {
        let bad =
            json!([{"type": "function", "function": {"name": "a b", "parameters": {"anyOf": []}}}]);
        let problems = check_payload(ProviderApi::OpenAiChat, &bad);
        assert!(problems.iter().any(|p| p.contains("name pattern")));
        assert!(problems.iter().any(|p| p.contains("top-level `anyOf`")));
        let gemini = json!([{"functionDeclarations": [{"name": "x", "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}}]}]);
        assert!(
            check_payload(ProviderApi::Gemini, &gemini)
                .iter()
                .any(|p| p.contains("`$ref`"))
        );
    }
}
