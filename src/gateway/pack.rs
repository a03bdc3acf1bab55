//! A tool pack captured from a running gateway's `tools.catalog`, for exactly that OpenClaw
//! version: `$XDG_DATA_HOME/clawdeck/packs/<version>.json`.
//!
//! Fields (interim, until the pack format of assets/openclaw/README.md lands): `version`,
//! `capturedFrom`, `tools[{name, label, summary, description?, section, profiles,
//! parameters?, source, pluginId?, optional?}]`, `groups{id: {label, source, tools[]}}`,
//! `profiles{id: {label, tools[]}}`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pack {
    pub version: String,
    pub captured_from: CapturedFrom,
    pub tools: Vec<PackTool>,
    pub groups: BTreeMap<String, PackGroup>,
    pub profiles: BTreeMap<String, PackProfile>,
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

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackTool {
    pub name: String,
    pub label: String,
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The catalog group the tool is listed under.
    pub section: String,
    /// Profiles that include it by default (`defaultProfiles`).
    pub profiles: Vec<String>,
    /// The parameter schema, when the gateway gives one (2026.9's `tools.catalog` does not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackGroup {
    pub label: String,
    pub source: String,
    pub tools: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackProfile {
    pub label: String,
    pub tools: Vec<String>,
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
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
    let mut profiles: BTreeMap<String, PackProfile> = BTreeMap::new();
    for profile in catalog
        .get("profiles")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = text(profile, "id");
        if !id.is_empty() {
            profiles.insert(
                id,
                PackProfile {
                    label: text(profile, "label"),
                    tools: Vec::new(),
                },
            );
        }
    }
    for group in groups_in {
        let group_id = text(group, "id");
        let mut names = Vec::new();
        for tool in group
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = text(tool, "id");
            if name.is_empty() {
                continue;
            }
            let in_profiles: Vec<String> = tool
                .get("defaultProfiles")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            for p in &in_profiles {
                profiles
                    .entry(p.clone())
                    .or_insert_with(|| PackProfile {
                        label: p.clone(),
                        tools: Vec::new(),
                    })
                    .tools
                    .push(name.clone());
            }
            let description = text(tool, "description");
            names.push(name.clone());
            tools.push(PackTool {
                label: Some(text(tool, "label"))
                    .filter(|l| !l.is_empty())
                    .unwrap_or_else(|| name.clone()),
                summary: description.lines().next().unwrap_or("").to_string(),
                description: Some(description).filter(|d| d.contains('\n')),
                section: group_id.clone(),
                profiles: in_profiles,
                parameters: tool
                    .get("parameters")
                    .or_else(|| tool.get("inputSchema"))
                    .or_else(|| tool.get("schema"))
                    .cloned(),
                source: text(tool, "source"),
                plugin_id: tool
                    .get("pluginId")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                optional: tool.get("optional").and_then(Value::as_bool),
                name,
            });
        }
        groups.insert(
            group_id,
            PackGroup {
                label: text(group, "label"),
                source: text(group, "source"),
                tools: names,
            },
        );
    }
    // The `full` profile means every tool; OpenClaw lists no tool under it.
    if let Some(full) = profiles.get_mut("full")
        && full.tools.is_empty()
    {
        full.tools.push("*".to_string());
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Pack {
        version: version.to_string(),
        captured_from,
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
        assert_eq!(pack.profiles["coding"].tools, ["read"]);
        assert_eq!(pack.profiles["full"].tools, ["*"]);
        assert_eq!(pack.tools[0].section, "fs");
        assert_eq!(pack.tools[0].summary, "Read file contents");
    }
}
