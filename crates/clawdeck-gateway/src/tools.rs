//! `tools.effective` answers as a flat list: the tools a live session really has.

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectiveTool {
    pub name: String,
    pub source: String,
    pub group: String,
}

/// Every tool in a `tools.effective` payload (grouped as `groups[].tools[]`, or a flat
/// `tools[]`), sorted by name.
pub fn effective_tools(payload: &Value) -> Vec<EffectiveTool> {
    let mut out = Vec::new();
    let read = |tool: &Value, group: &str, out: &mut Vec<EffectiveTool>| {
        let name = tool
            .get("id")
            .or_else(|| tool.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if !name.is_empty() {
            out.push(EffectiveTool {
                name: name.to_string(),
                source: tool
                    .get("source")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                group: group.to_string(),
            });
        }
    };
    for group in payload
        .get("groups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = group
            .get("id")
            .or_else(|| group.get("label"))
            .and_then(Value::as_str)
            .unwrap_or("");
        for tool in group
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            read(tool, id, &mut out);
        }
    }
    for tool in payload
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        read(tool, "", &mut out);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out.dedup_by(|a, b| a.name == b.name);
    out
}
