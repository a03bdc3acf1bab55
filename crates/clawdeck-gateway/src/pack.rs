//! A tool pack captured from a running gateway's `tools.catalog`, for exactly that OpenClaw
//! version: `$XDG_DATA_HOME/clawdeck/packs/<version>.json`.
//!
//! The file has the pack format the loader reads (assets/openclaw/README.md): `version`,
//! `capturedFrom` (a line saying where it came from), `tools[{name, label, summary,
//! description?, section?, profiles, parameters?, source}]` with `source` `core` or
//! `plugin:<id>`, `groups{"group:<section>": [tools]}` (core sections; a plugin's tools are
//! named by its id), `profiles{id: [tools]}` (`full: null`: no restriction). `capture` holds the
//! same facts as `capturedFrom` as data. What a catalog cannot report (descriptions the model
//! receives, owner and subagent rules ...) comes from the newest shipped pack when it loads
//! (`crate::semantics::synced`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pack {
    pub version: String,
    /// `openclaw <version>: tools.catalog of gateway <name> (<url>), agent <id>`.
    pub captured_from: String,
    pub capture: CapturedFrom,
    pub tools: Vec<PackTool>,
    pub groups: BTreeMap<String, Vec<String>>,
    /// Profile → its tools; `None` for `full` (no restriction).
    pub profiles: BTreeMap<String, Option<Vec<String>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CapturedFrom {
    pub gateway: String,
    pub url: String,
    pub method: String,
    pub agent_id: String,
    pub captured_at_ms: u64,
}

impl CapturedFrom {
    /// The pack's `capturedFrom` line.
    fn line(&self, version: &str) -> String {
        format!(
            "openclaw {version}: {} of gateway {} ({}), agent {}",
            self.method, self.gateway, self.url, self.agent_id
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackTool {
    pub name: String,
    /// The catalog's label when it is more than the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub summary: String,
    /// The catalog's whole description, when it says more than the summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The core catalog section the tool is listed under (`fs`); none for a plugin's tools.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Profiles that include it by default (`defaultProfiles`).
    pub profiles: Vec<String>,
    /// The parameter schema, when the gateway gives one (2026.9's `tools.catalog` does not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// `core` or `plugin:<id>`.
    pub source: String,
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// `core`, or `plugin:<id>` for a plugin's tool (the catalog says `source: "plugin"` and names
/// the plugin in `pluginId`, on the tool or on its group).
fn tool_source(tool: &Value, group: &Value) -> Result<String, String> {
    match text(tool, "source").as_str() {
        "plugin" => {
            let id = Some(text(tool, "pluginId"))
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| text(group, "pluginId"));
            if id.is_empty() {
                return Err(format!(
                    "tools.catalog lists plugin tool {} without its pluginId",
                    text(tool, "id")
                ));
            }
            Ok(format!("plugin:{id}"))
        }
        _ => Ok("core".to_string()),
    }
}

/// One catalog tool in the pack's form.
fn pack_tool(tool: &Value, group: &Value, core_section: Option<&str>) -> Result<PackTool, String> {
    let name = text(tool, "id");
    let short = text(tool, "description");
    let full = Some(text(tool, "fullDescription")).filter(|d| !d.is_empty());
    let summary = short.lines().next().unwrap_or("").to_string();
    let description = full
        .or_else(|| Some(short.clone()))
        .filter(|d| *d != summary && !d.is_empty());
    Ok(PackTool {
        label: Some(text(tool, "label")).filter(|l| !l.is_empty() && *l != name),
        summary,
        description,
        section: core_section.map(str::to_string),
        profiles: tool
            .get("defaultProfiles")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        parameters: tool
            .get("parameters")
            .or_else(|| tool.get("inputSchema"))
            .or_else(|| tool.get("schema"))
            .filter(|p| !p.is_null())
            .cloned(),
        source: tool_source(tool, group)?,
        name,
    })
}

/// Builds the pack from a `tools.catalog` payload. A payload without `groups` is an error.
pub fn pack_from_catalog(
    catalog: &Value,
    version: &str,
    captured_from: CapturedFrom,
) -> Result<Pack, String> {
    let groups_in = catalog
        .get("groups")
        .and_then(Value::as_array)
        .ok_or("tools.catalog answered without `groups`")?;
    let mut tools: Vec<PackTool> = Vec::new();
    let mut groups = BTreeMap::new();
    let mut profiles: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for profile in catalog
        .get("profiles")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = text(profile, "id");
        if !id.is_empty() {
            profiles.insert(id, Some(Vec::new()));
        }
    }
    for group in groups_in {
        let group_id = text(group, "id");
        // A plugin's tools form no `group:*`; OpenClaw names them by the plugin id.
        let core_section = (text(group, "source") != "plugin" && !group_id.is_empty())
            .then_some(group_id.as_str());
        let mut names = Vec::new();
        for tool in group
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if text(tool, "id").is_empty() {
                continue;
            }
            let tool = pack_tool(tool, group, core_section)?;
            for p in &tool.profiles {
                if let Some(members) = profiles
                    .entry(p.clone())
                    .or_insert_with(|| Some(Vec::new()))
                {
                    members.push(tool.name.clone());
                }
            }
            names.push(tool.name.clone());
            tools.push(tool);
        }
        if let Some(section) = core_section {
            groups.insert(format!("group:{section}"), names);
        }
    }
    // The `full` profile means every tool; OpenClaw lists no tool under it.
    if profiles
        .get("full")
        .is_some_and(|m| m.as_ref().is_none_or(Vec::is_empty))
    {
        profiles.insert("full".to_string(), None);
    }
    // What is stored is what a later load takes: few enough tools, each named as a tool can be.
    if tools.len() > clawdeck_core::semantics::MAX_SYNCED_TOOLS {
        return Err(format!(
            "tools.catalog lists {} tools; a synced pack holds at most {}: nothing stored",
            tools.len(),
            clawdeck_core::semantics::MAX_SYNCED_TOOLS
        ));
    }
    if let Some(problem) = tools
        .iter()
        .find_map(|t| clawdeck_core::semantics::tool_name_problem(&t.name))
    {
        return Err(format!("tools.catalog: {problem}: nothing stored"));
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Pack {
        version: version.to_string(),
        captured_from: captured_from.line(version),
        capture: captured_from,
        tools,
        groups,
        profiles,
    })
}

/// `<data dir>/packs/<version>.json`; the version must be a plain file name.
pub fn pack_path(data_dir: &Path, version: &str) -> Result<PathBuf, String> {
    let ok = !version.is_empty()
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+'))
        && !version.starts_with('.');
    if !ok {
        return Err(format!(
            "the gateway reports version {version:?}, which cannot name a pack file"
        ));
    }
    Ok(data_dir.join("packs").join(format!("{version}.json")))
}

/// Writes the pack (through a temporary file, so a reader never sees half a pack).
pub fn write_pack(path: &Path, pack: &Pack) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(pack).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("json.tmp");
    // Not through a link or into a FIFO someone left at the temporary name.
    crate::regular_file::write(
        &tmp,
        (text + "\n").as_bytes(),
        0o644,
        crate::regular_file::Links::Refuse,
    )
    .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn from() -> CapturedFrom {
        CapturedFrom {
            gateway: "g".into(),
            url: "ws://h".into(),
            method: "tools.catalog".into(),
            agent_id: "main".into(),
            captured_at_ms: 0,
        }
    }

    #[test]
    fn version_must_be_a_plain_file_name() {
        assert!(pack_path(Path::new("/d"), "../x").is_err());
        assert!(pack_path(Path::new("/d"), "").is_err());
        assert_eq!(
            pack_path(Path::new("/d"), "2026.9.6").ok(),
            Some(PathBuf::from("/d/packs/2026.9.6.json"))
        );
    }

    #[test]
    fn catalog_without_groups_is_refused() {
        assert!(pack_from_catalog(&json!({"profiles": []}), "1", from()).is_err());
    }

    #[test]
    fn profiles_collect_their_tools() {
        let catalog = json!({"profiles": [{"id": "coding", "label": "Coding"}, {"id": "full", "label": "Full"}],
            "groups": [{"id": "fs", "label": "Files", "source": "core",
                "tools": [{"id": "read", "label": "read", "description": "Read file contents", "source": "core", "defaultProfiles": ["coding"]}]}]});
        let pack = pack_from_catalog(&catalog, "1", from()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            pack.profiles["coding"].as_deref(),
            Some(&["read".to_string()][..])
        );
        assert_eq!(pack.profiles["full"], None);
        assert_eq!(pack.groups["group:fs"], ["read"]);
        assert_eq!(pack.tools[0].section.as_deref(), Some("fs"));
        assert_eq!(pack.tools[0].summary, "Read file contents");
        assert_eq!(
            pack.captured_from,
            "openclaw 1: tools.catalog of gateway g (ws://h), agent main"
        );
    }

    #[test]
    fn a_plugins_tools_name_their_plugin_and_form_no_group() {
        let catalog = json!({"profiles": [],
            "groups": [{"id": "plugin:talk-voice", "label": "talk-voice", "source": "plugin", "pluginId": "talk-voice",
                "tools": [{"id": "talk_voice", "label": "Talk Voice", "description": "List or change the voice...",
                    "fullDescription": "List or change the voice of the active call.", "source": "plugin", "pluginId": "talk-voice"}]}]});
        let pack = pack_from_catalog(&catalog, "1", from()).unwrap_or_else(|e| panic!("{e}"));
        assert!(pack.groups.is_empty(), "{:?}", pack.groups);
        let tool = &pack.tools[0];
        assert_eq!(tool.source, "plugin:talk-voice");
        assert_eq!(tool.section, None);
        assert_eq!(
            tool.description.as_deref(),
            Some("List or change the voice of the active call.")
        );
    }
}
