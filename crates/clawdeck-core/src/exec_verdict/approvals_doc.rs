//! The host approvals document (OpenClaw's "exec approvals"): per agent and `*`, settings that
//! can only tighten the config (security the smaller, ask the larger), the askFallback a
//! question falls back to when nobody can answer it, and the allowlist. The shape is what
//! `openclaw approvals set --file` takes and `approvals get --json` prints under `file`:
//! `{ version, defaults: {security, ask, askFallback, autoAllowSkills}, agents: { "<id>" | "*":
//! { security, ask, askFallback, allowlist: ["pattern" | {pattern, argPattern, source}] } } }`.

use serde::Serialize;
use serde_json::Value;

use super::levels::{Ask, Security};

/// One allowlist entry as the document holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllowEntry {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// `allow-always` for entries the operator's answer stored (they match only the command
    /// and directory they were stored for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Where it is in the document (`agents.ops.allowlist[0]`).
    pub key: String,
}

/// The document's values for one agent, each with the key that set it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DocPolicy {
    pub security: Option<(Security, String)>,
    pub ask: Option<(Ask, String)>,
    pub ask_fallback: Option<(Security, String)>,
    /// `agents."*".allowlist` then `agents.<id>.allowlist`.
    pub allowlist: Vec<AllowEntry>,
}

/// Reads a document from a file the operator named: a regular file only (a FIFO never blocks),
/// bounded as a config file is; the error names the file.
pub fn read(path: &std::path::Path) -> Result<Value, String> {
    let origin = path.display().to_string();
    let text =
        crate::config::read_text::read_config_text(path).map_err(|e| format!("{origin}: {e}"))?;
    parse(&text, &origin)
}

/// Parses a document (JSON5); the error names the place.
pub fn parse(text: &str, origin: &str) -> Result<Value, String> {
    let value: Value = json5::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
    if !value.is_object() {
        return Err(format!("{origin}: an approvals document is a JSON object"));
    }
    Ok(value)
}

/// What the document says for `agent`: each field from `agents.<id>`, else `agents."*"`,
/// else `defaults` (an invalid value is passed over, as OpenClaw drops it).
pub fn for_agent(doc: &Value, agent: &str) -> DocPolicy {
    let agents = doc.get("agents");
    // OpenClaw merges the legacy `agents.default` into `main`.
    let own_id = if agent == "main" && agents.and_then(|a| a.get("main")).is_none() {
        "default"
    } else {
        agent
    };
    let scopes: Vec<(&Value, String)> = [
        agents
            .and_then(|a| a.get(own_id))
            .map(|v| (v, format!("agents.{own_id}"))),
        agents
            .and_then(|a| a.get("*"))
            .map(|v| (v, "agents.\"*\"".to_string())),
        doc.get("defaults").map(|v| (v, "defaults".to_string())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let field = |name: &str| {
        scopes.iter().find_map(|(scope, at)| {
            let text = scope.get(name)?.as_str()?;
            Some((text.to_string(), format!("{at}.{name}")))
        })
    };
    let mut allowlist = Vec::new();
    for (scope, at) in scopes.iter().filter(|(_, at)| at != "defaults").rev() {
        allowlist.extend(entries(scope, at));
    }
    DocPolicy {
        security: field("security").and_then(|(v, k)| Some((Security::parse(&v)?, k))),
        ask: field("ask").and_then(|(v, k)| Some((Ask::parse(&v)?, k))),
        ask_fallback: field("askFallback").and_then(|(v, k)| Some((Security::parse(&v)?, k))),
        allowlist,
    }
}

/// The allowlist entries of one scope (`"pattern"` or `{pattern, argPattern, source}`).
fn entries(scope: &Value, at: &str) -> Vec<AllowEntry> {
    let Some(list) = scope.get("allowlist").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter_map(|(i, entry)| {
            let key = format!("{at}.allowlist[{i}]");
            let text = |name: &str| entry.get(name).and_then(Value::as_str).map(str::to_string);
            match entry {
                Value::String(pattern) => Some(AllowEntry {
                    pattern: pattern.clone(),
                    arg_pattern: None,
                    source: None,
                    key,
                }),
                Value::Object(_) => Some(AllowEntry {
                    pattern: text("pattern")?,
                    arg_pattern: text("argPattern"),
                    source: text("source"),
                    key,
                }),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_from_the_agent_then_star_then_defaults_and_allowlists_join() {
        let doc = parse(
            r#"{ version: 1, defaults: { security: "allowlist", askFallback: "full" },
                 agents: { "*": { ask: "on-miss", allowlist: ["git"] },
                           ops: { ask: "always", allowlist: [{ pattern: "/usr/bin/ls", argPattern: "^-la$" }] } } }"#,
            "doc",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let ops = for_agent(&doc, "ops");
        assert_eq!(ops.ask, Some((Ask::Always, "agents.ops.ask".to_string())));
        assert_eq!(
            ops.security,
            Some((Security::Allowlist, "defaults.security".to_string()))
        );
        assert_eq!(ops.ask_fallback.map(|f| f.0), Some(Security::Full));
        let patterns: Vec<&str> = ops.allowlist.iter().map(|e| e.pattern.as_str()).collect();
        assert_eq!(patterns, ["git", "/usr/bin/ls"]);
        assert_eq!(ops.allowlist[1].key, "agents.ops.allowlist[0]");
        let main = for_agent(&doc, "main");
        assert_eq!(main.ask.map(|a| a.0), Some(Ask::OnMiss));
        assert!(parse("[1]", "x").is_err());
        assert!(parse("{", "x").unwrap_err().starts_with("x: "));
    }
}
