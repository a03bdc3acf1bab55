//! Reading a pack stored by `clawdeck catalog sync` (src/gateway/pack.rs writes it).
//!
//! A synced pack carries what a gateway's `tools.catalog` reports: the tools with their labels,
//! summaries, sections, sources and default profiles, the core groups and the profiles. It is
//! laid over the nearest shipped pack (the newest one not newer than the gateway's version:
//! 2026.8.2 over 2026.8, 2026.9.6 or 2026.10.1 over 2026.9), which gives what a catalog cannot: the descriptions and
//! schemas the model receives, owner, subagent and sandbox rules, Tool Search. The synced pack
//! adds to the shipped data and never takes away: a tool the catalog does not list (one that
//! appears only under some condition) stays, a tool the shipped pack knows keeps its recorded
//! facts (the catalog fills gaps and adds profiles), and groups and profiles gain members.
//!
//! Packs written before the writer followed the pack format (`capturedFrom`, groups and
//! profiles as objects, `source: "plugin"` with `pluginId`) are read too.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{EMBEDDED_PACKS, Semantics};

/// Most tools a synced pack may list (today's OpenClaw has under a hundred; a gateway that
/// reports more is refused rather than slowing every later command).
pub const MAX_SYNCED_TOOLS: usize = 2_000;

/// Why `name` cannot be a tool name, if it cannot: what the model providers OpenClaw sends
/// tools to accept (`^[A-Za-z0-9_-]{1,64}$`), so no stored name can be longer or stranger.
pub fn tool_name_problem(name: &str) -> Option<String> {
    let shown: String = name.chars().take(40).collect();
    if name.is_empty() || name.len() > 64 {
        return Some(format!(
            "tool name {shown:?}{} is {} bytes: a tool name has 1 to 64",
            if name.chars().count() > 40 { "…" } else { "" },
            name.len()
        ));
    }
    name.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        .map(|c| {
            format!("tool name {shown:?} has {c:?}: a tool name has only A-Z, a-z, 0-9, _ and -")
        })
}

/// The synced tools are few enough and each named as a tool can be.
fn check_synced_tools(tools: &[Value]) -> Result<(), String> {
    if tools.len() > MAX_SYNCED_TOOLS {
        return Err(format!(
            "{} tools listed; a synced pack holds at most {MAX_SYNCED_TOOLS}",
            tools.len()
        ));
    }
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
        if let Some(problem) = tool_name_problem(name) {
            return Err(problem);
        }
    }
    Ok(())
}

/// Tool fields that are what the model receives; a gateway that reports a schema replaces them.
const MODEL_FACING: &[&str] = &["description", "parameters"];

/// The synced pack `text` over the nearest shipped pack; `origin` names the file in errors.
pub(crate) fn over_nearest_rules(text: &str, origin: &str) -> Result<Semantics, String> {
    let merged = merged_with_nearest(text).map_err(|err| format!("{origin}: {err}"))?;
    Semantics::from_pack_text(&merged, origin)
}

/// A release's numbers (`2026.8.2` → [2026, 8, 2]); `None` for `seed` and other names.
fn release_numbers(version: &str) -> Option<Vec<u64>> {
    version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .map(|part| part.parse().ok())
        .collect()
}

/// The shipped pack whose rules a synced pack of `version` is laid over: the newest shipped
/// release pack not newer than `version` (a pack `2026.8` covers every `2026.8.x`), else the
/// oldest release pack, else (a version that is no release number) the newest pack.
pub(crate) fn nearest_shipped(version: &str) -> (&'static str, &'static str) {
    let newest = EMBEDDED_PACKS.last().copied().unwrap_or(("none", "{}"));
    let Some(wanted) = release_numbers(version) else {
        return newest;
    };
    let mut releases: Vec<(Vec<u64>, (&'static str, &'static str))> = EMBEDDED_PACKS
        .iter()
        .filter_map(|&(id, text)| release_numbers(id).map(|n| (n, (id, text))))
        .collect();
    releases.sort_by(|a, b| a.0.cmp(&b.0));
    let covers = |pack: &[u64]| wanted.iter().take(pack.len()).cmp(pack.iter()).is_ge();
    releases
        .iter()
        .rev()
        .find(|(numbers, _)| covers(numbers))
        .or(releases.first())
        .map(|(_, pack)| *pack)
        .unwrap_or(newest)
}

/// The merged pack's JSON text.
fn merged_with_nearest(text: &str) -> Result<String, String> {
    let mut synced: Value = serde_json::from_str(text).map_err(|err| err.to_string())?;
    let Some(synced) = synced.as_object_mut() else {
        return Err("a pack is a JSON object".to_string());
    };
    upgrade_earlier_shape(synced);
    let version = synced.get("version").and_then(Value::as_str).unwrap_or("");
    let (_, base_text) = nearest_shipped(version);
    let mut merged: Value = serde_json::from_str(base_text).map_err(|err| err.to_string())?;
    if let Some(base) = merged.as_object_mut() {
        lay_over(base, std::mem::take(synced))?;
    }
    serde_json::to_string(&merged).map_err(|err| err.to_string())
}

fn lay_over(base: &mut Map<String, Value>, synced: Map<String, Value>) -> Result<(), String> {
    for (key, value) in synced {
        match key.as_str() {
            "tools" => {
                let Value::Array(tools) = value else {
                    return Err("tools: expected a list".to_string());
                };
                check_synced_tools(&tools).map_err(|e| format!("tools: {e}"))?;
                let base_tools = base
                    .entry("tools")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(base_tools) = base_tools {
                    merge_tools(base_tools, tools);
                }
            }
            "groups" | "profiles" => {
                let Value::Object(entries) = value else {
                    return Err(format!("{key}: expected an object"));
                };
                let base_entries = base
                    .entry(key.clone())
                    .or_insert_with(|| Value::Object(Map::new()));
                match base_entries {
                    Value::Object(base_entries) => merge_lists(base_entries, entries),
                    other => *other = Value::Object(entries),
                }
            }
            _ => {
                base.insert(key, value);
            }
        }
    }
    Ok(())
}

/// Each synced tool with the shipped tool of the same name: the shipped pack's facts were
/// recorded from real runs and stay; the catalog fills what it lacks and adds the profiles it
/// names. A schema from the gateway (with its description) is what the model receives and
/// replaces the recorded one. New tools are added; sorted by name, as OpenClaw sends them.
fn merge_tools(base: &mut Vec<Value>, synced: Vec<Value>) {
    let name_of = |t: &Value| {
        t.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    // By name, so each synced tool finds its shipped one at once (linear in both lists).
    let mut index: HashMap<String, usize> = base
        .iter()
        .enumerate()
        .map(|(i, t)| (name_of(t), i))
        .collect();
    for tool in synced {
        let name = name_of(&tool);
        let known = index.get(&name).and_then(|&i| base.get_mut(i));
        match (known, tool) {
            (Some(Value::Object(known)), Value::Object(fields)) => {
                let has_schema = fields.get("parameters").is_some_and(|p| !p.is_null());
                for (field, value) in fields {
                    let replaces = has_schema && MODEL_FACING.contains(&field.as_str());
                    match known.get_mut(&field) {
                        _ if value.is_null() => {}
                        Some(Value::Array(members)) if field == "profiles" => {
                            add_missing(members, value.as_array().cloned().unwrap_or_default());
                        }
                        Some(current) if !current.is_null() && !replaces => {}
                        _ => {
                            known.insert(field, value);
                        }
                    }
                }
            }
            (_, tool) => {
                index.insert(name, base.len());
                base.push(tool);
            }
        }
    }
    base.sort_by_cached_key(name_of);
}

/// Appends the members of `more` that `members` lacks, in order (one pass over each).
fn add_missing(members: &mut Vec<Value>, more: Vec<Value>) {
    let mut present: HashSet<String> = members.iter().map(Value::to_string).collect();
    for member in more {
        if present.insert(member.to_string()) {
            members.push(member);
        }
    }
}

/// Group or profile members: the shipped list gains the synced members it lacks; `null` (no
/// restriction) stays `null`.
fn merge_lists(base: &mut Map<String, Value>, synced: Map<String, Value>) {
    for (key, value) in synced {
        match (base.get_mut(&key), value) {
            (Some(Value::Array(members)), Value::Array(more)) => add_missing(members, more),
            (Some(Value::Null), _) => {}
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The shape `catalog sync` wrote before it followed the pack format, rewritten in place.
fn upgrade_earlier_shape(pack: &mut Map<String, Value>) {
    if let Some(Value::Object(from)) = pack.get("capturedFrom").cloned() {
        let field = |k: &str| {
            from.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let version = pack.get("version").and_then(Value::as_str).unwrap_or("");
        pack.insert(
            "capturedFrom".to_string(),
            Value::String(format!(
                "openclaw {version}: {} of gateway {} ({}), agent {}",
                field("method"),
                field("gateway"),
                field("url"),
                field("agentId")
            )),
        );
        pack.insert("capture".to_string(), Value::Object(from));
    }
    if let Some(Value::Object(groups)) = pack.get_mut("groups") {
        let earlier = std::mem::take(groups);
        for (id, group) in earlier {
            match group {
                Value::Object(group) => {
                    if group.get("source").and_then(Value::as_str) == Some("plugin") {
                        continue;
                    }
                    let key = if id.starts_with("group:") {
                        id
                    } else {
                        format!("group:{id}")
                    };
                    groups.insert(key, group.get("tools").cloned().unwrap_or(Value::Null));
                }
                members => {
                    groups.insert(id, members);
                }
            }
        }
    }
    if let Some(Value::Object(profiles)) = pack.get_mut("profiles") {
        for members in profiles.values_mut() {
            if let Value::Object(profile) = members {
                let tools = profile.get("tools").cloned().unwrap_or(Value::Null);
                let everything = tools.as_array().is_some_and(|t| t == &["*"]);
                *members = if everything { Value::Null } else { tools };
            }
        }
    }
    if let Some(Value::Array(tools)) = pack.get_mut("tools") {
        for tool in tools.iter_mut().filter_map(Value::as_object_mut) {
            if tool.get("source").and_then(Value::as_str) == Some("plugin")
                && let Some(id) = tool.get("pluginId").and_then(Value::as_str)
            {
                let source = format!("plugin:{id}");
                tool.insert("source".to_string(), Value::String(source));
            }
            if tool
                .get("section")
                .and_then(Value::as_str)
                .is_some_and(|s| s.starts_with("plugin:"))
            {
                tool.remove("section");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merged(synced: Value) -> Value {
        serde_json::from_str(&merged_with_nearest(&synced.to_string()).unwrap()).unwrap()
    }

    #[test]
    fn a_synced_version_is_laid_over_the_nearest_shipped_pack() {
        assert_eq!(nearest_shipped("2026.8.2").0, "2026.8");
        assert_eq!(nearest_shipped("2026.8.0").0, "2026.8");
        assert_eq!(nearest_shipped("2026.9.6").0, "2026.9");
        assert_eq!(nearest_shipped("2026.12.1").0, "2026.9");
        assert_eq!(nearest_shipped("2027.1.0").0, "2026.9");
        // Older than every shipped release: the oldest release pack, never the seed.
        assert_eq!(nearest_shipped("2026.7.9").0, "2026.8");
        assert_eq!(nearest_shipped("nightly").0, "2026.9");
    }

    #[test]
    fn a_2026_8_sync_keeps_the_2026_8_rules() {
        let pack = merged(
            json!({"version": "2026.8.2", "capturedFrom": "x", "tools": [],
            "groups": {"group:fs": ["read"]}, "profiles": {"minimal": ["session_status"]}}),
        );
        assert_eq!(pack["subagent"]["defaultMaxSpawnDepth"], 1);
        assert_eq!(pack["pluginAllowlistPatterns"], false);
        assert_eq!(pack["profiles"]["minimal"], json!(["session_status"]));
        let openclaw = pack["groups"]["group:openclaw"].as_array().unwrap();
        assert!(!openclaw.is_empty() && !openclaw.contains(&json!("openclaw")));
        assert_eq!(pack["version"], "2026.8.2");
    }

    #[test]
    fn a_known_tool_keeps_its_recorded_facts_and_gains_profiles() {
        let pack = merged(json!({"version": "2026.9.6", "capturedFrom": "x",
            "tools": [{"name": "read", "summary": "Read it", "description": "catalog text",
                "profiles": ["messaging"], "source": "core"},
                {"name": "brand_new", "summary": "New", "profiles": [], "source": "plugin:p"}]}));
        let read = pack["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "read")
            .unwrap();
        assert_eq!(read["summary"], "Read file contents");
        assert_ne!(read["description"], "catalog text");
        assert_eq!(read["profiles"], json!(["coding", "messaging"]));
        assert!(
            pack["tools"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["name"] == "brand_new")
        );
        assert!(
            read["parameters"]["properties"]["path"].is_object(),
            "{read}"
        );
        // Tools the catalog did not list stay.
        assert!(pack["tools"].as_array().unwrap().len() > 50);
    }

    #[test]
    fn groups_and_profiles_gain_members_and_keep_the_shipped_ones() {
        let pack = merged(
            json!({"version": "2026.9.6", "capturedFrom": "x", "tools": [],
            "groups": {"group:fs": ["read", "new_fs_tool"]},
            "profiles": {"coding": ["new_fs_tool"], "full": null}}),
        );
        let fs = pack["groups"]["group:fs"].as_array().unwrap();
        assert!(fs.contains(&json!("new_fs_tool")) && fs.contains(&json!("write")));
        assert!(pack["groups"]["group:openclaw"].is_array());
        let coding = pack["profiles"]["coding"].as_array().unwrap();
        assert!(coding.contains(&json!("new_fs_tool")) && coding.contains(&json!("bundle-mcp")));
        assert!(pack["profiles"]["full"].is_null());
    }

    #[test]
    fn the_earlier_shape_is_upgraded() {
        let mut pack = json!({"version": "2026.9.6",
            "capturedFrom": {"gateway": "g", "url": "ws://h", "method": "tools.catalog", "agentId": "main", "capturedAtMs": 1},
            "tools": [{"name": "intent", "section": "plugin:memory-core", "source": "plugin", "pluginId": "memory-core"}],
            "groups": {"fs": {"label": "Files", "source": "core", "tools": ["read"]},
                       "plugin:memory-core": {"label": "m", "source": "plugin", "tools": ["intent"]}},
            "profiles": {"coding": {"label": "Coding", "tools": ["read"]}, "full": {"label": "Full", "tools": ["*"]}}});
        upgrade_earlier_shape(pack.as_object_mut().unwrap());
        assert_eq!(
            pack["capturedFrom"],
            "openclaw 2026.9.6: tools.catalog of gateway g (ws://h), agent main"
        );
        assert_eq!(pack["groups"], json!({"group:fs": ["read"]}));
        assert_eq!(pack["profiles"], json!({"coding": ["read"], "full": null}));
        assert_eq!(pack["tools"][0]["source"], "plugin:memory-core");
        assert!(pack["tools"][0].get("section").is_none());
    }
}
