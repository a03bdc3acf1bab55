//! Plugin discovery. A plugin is a directory holding OpenClaw's `openclaw.plugin.json` manifest.
//! Real OpenClaw plugins register their tools in code, which clawdeck cannot run, so clawdeck
//! reads the tools a plugin offers from the manifest's `clawdeck.tools` array or from a sibling
//! `clawdeck.tools.json` (format in docs/configuration.md, "Plugins"); each tool runs as a command.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::config::parse_json5;
use crate::tool::{ToolFlags, ToolSource, ToolSpec};

pub(crate) use crate::paths::PLUGIN_MANIFEST as MANIFEST_FILE;
pub(crate) const TOOLS_FILE: &str = "clawdeck.tools.json";
/// Default timeout of a plugin tool command.
pub(crate) const DEFAULT_TIMEOUT_SECONDS: u64 = 60;

/// What clawdeck knows about one discovered plugin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginInfo {
    pub id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub dir: PathBuf,
    pub manifest: PathBuf,
    /// Where the tool declarations came from (the manifest or `clawdeck.tools.json`).
    pub tools_file: Option<PathBuf>,
    /// Tool names this plugin contributes (after duplicates were dropped).
    pub tools: Vec<String>,
}

/// How to run a plugin tool: params as JSON on stdin, the result on stdout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PluginToolCommand {
    pub plugin_id: String,
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    pub timeout: Duration,
}

/// A plugin with the tools it declared, before duplicate names are resolved.
#[derive(Debug, Clone)]
pub struct DiscoveredPlugin {
    pub info: PluginInfo,
    pub tools: Vec<(ToolSpec, PluginToolCommand)>,
    /// Tools named only by the manifest's `contracts.tools` (OpenClaw's discovery contract):
    /// known to the policy, run only inside OpenClaw.
    pub contract_tools: Vec<ToolSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Manifest {
    id: Option<String>,
    name: Option<String>,
    description: Option<String>,
    version: Option<String>,
    clawdeck: Option<ManifestClawdeck>,
    contracts: Option<ManifestContracts>,
    /// `toolMetadata.<tool>.optional`: tools built only when an allowlist selects them.
    tool_metadata: Option<std::collections::BTreeMap<String, Value>>,
}

/// The part of OpenClaw's `contracts` clawdeck reads: which tools the plugin owns.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ManifestContracts {
    tools: Option<Vec<Value>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ManifestClawdeck {
    tools: Option<Vec<ToolDecl>>,
}

/// `clawdeck.tools.json`: `{"tools": [...]}` or a bare array.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ToolsFile {
    Wrapped { tools: Vec<ToolDecl> },
    Bare(Vec<ToolDecl>),
}

/// One declared tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ToolDecl {
    name: String,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    summary: Option<String>,
    #[serde(default)]
    emoji: Option<String>,
    #[serde(default)]
    parameters: Option<Value>,
    command: Vec<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    timeout_seconds: Option<u64>,
    #[serde(default)]
    owner_only: bool,
    #[serde(default)]
    local_system: bool,
}

/// Expands `~/` and resolves relative paths against `base`.
pub(crate) fn resolve_dir(raw: &Path, base: Option<&Path>) -> PathBuf {
    let text = raw.to_string_lossy();
    if let Some(rest) = text.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(rest);
    }
    if raw.is_relative()
        && let Some(base) = base
    {
        return base.join(raw);
    }
    raw.to_path_buf()
}

/// Finds plugins in `dirs`: each dir that holds a manifest is a plugin, otherwise its direct
/// children that hold one are. Problems become warnings; nothing here fails the load.
pub fn discover(dirs: &[PathBuf], warnings: &mut Vec<String>) -> Vec<DiscoveredPlugin> {
    let mut plugins: Vec<DiscoveredPlugin> = Vec::new();
    for dir in dirs {
        if !dir.is_dir() {
            warnings.push(format!(
                "plugins: {} is not a directory (skipped)",
                dir.display()
            ));
            continue;
        }
        let mut candidates = Vec::new();
        if dir.join(MANIFEST_FILE).is_file() {
            candidates.push(dir.clone());
        } else {
            match std::fs::read_dir(dir) {
                Ok(entries) => {
                    let mut children: Vec<PathBuf> = entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.join(MANIFEST_FILE).is_file())
                        .collect();
                    children.sort();
                    candidates.extend(children);
                }
                Err(err) => warnings.push(format!("plugins: cannot read {}: {err}", dir.display())),
            }
        }
        for plugin_dir in candidates {
            if let Some(plugin) = load_plugin(&plugin_dir, warnings) {
                if plugins.iter().any(|p| p.info.id == plugin.info.id) {
                    warnings.push(format!(
                        "plugins: plugin id \"{}\" at {} already loaded (skipped)",
                        plugin.info.id,
                        plugin_dir.display()
                    ));
                    continue;
                }
                plugins.push(plugin);
            }
        }
    }
    plugins
}

fn load_plugin(dir: &Path, warnings: &mut Vec<String>) -> Option<DiscoveredPlugin> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let origin = manifest_path.display().to_string();
    let text = match crate::config::read_text::read_config_text(&manifest_path) {
        Ok(text) => text,
        Err(err) => {
            warnings.push(format!("{origin}: {err} (plugin skipped)"));
            return None;
        }
    };
    let manifest: Manifest = match parse_json5(&text, &origin) {
        Ok(m) => m,
        Err(err) => {
            warnings.push(format!("{err} (plugin skipped)"));
            return None;
        }
    };
    let id = manifest
        .id
        .clone()
        .map(|id| id.trim().to_lowercase())
        .filter(|id| !id.is_empty())
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().to_lowercase()))
        .unwrap_or_default();
    if id.is_empty() {
        warnings.push(format!("{origin}: plugin without an id (skipped)"));
        return None;
    }

    let tools_path = dir.join(TOOLS_FILE);
    let (decls, tools_file) = if let Some(decls) = manifest.clawdeck.and_then(|c| c.tools) {
        (decls, Some(manifest_path.clone()))
    } else if tools_path.is_file() {
        let tools_origin = tools_path.display().to_string();
        match crate::config::read_text::read_config_text(&tools_path)
            .map_err(|e| format!("{tools_origin}: {e}"))
            .and_then(|t| parse_json5::<ToolsFile>(&t, &tools_origin).map_err(|e| e.to_string()))
        {
            Ok(ToolsFile::Wrapped { tools }) | Ok(ToolsFile::Bare(tools)) => {
                (tools, Some(tools_path.clone()))
            }
            Err(err) => {
                warnings.push(format!("{err} (plugin \"{id}\" has no tools)"));
                (Vec::new(), None)
            }
        }
    } else {
        (Vec::new(), None)
    };

    let mut tools = declared_tools(decls, &id, dir, tools_file.as_deref(), warnings);
    let mut contract_tools = contract_tools(
        manifest.contracts.and_then(|c| c.tools).unwrap_or_default(),
        &id,
        &tools,
        &origin,
        warnings,
    );
    let metadata = manifest.tool_metadata.unwrap_or_default();
    let specs = tools.iter_mut().map(|(t, _)| t).chain(&mut contract_tools);
    mark_optional(&metadata, specs);
    let info = PluginInfo {
        id,
        name: manifest.name,
        description: manifest.description,
        version: manifest.version,
        dir: dir.to_path_buf(),
        manifest: manifest_path,
        tools_file,
        tools: tools.iter().map(|(t, _)| t.name.clone()).collect(),
    };
    Some(DiscoveredPlugin {
        info,
        tools,
        contract_tools,
    })
}

/// The tools the plugin declares for clawdeck to run, each checked; `tools_file` names where
/// they were read in warnings.
fn declared_tools(
    decls: Vec<ToolDecl>,
    id: &str,
    dir: &Path,
    tools_file: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Vec<(ToolSpec, PluginToolCommand)> {
    let mut tools = Vec::new();
    for (index, decl) in decls.into_iter().enumerate() {
        let where_ = format!(
            "{}: tools[{index}]",
            tools_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
        match tool_from_decl(decl, id, dir) {
            Ok(tool) => {
                if tools
                    .iter()
                    .any(|(t, _): &(ToolSpec, PluginToolCommand)| t.name == tool.0.name)
                {
                    warnings.push(format!(
                        "{where_}: tool \"{}\" declared twice (dropped)",
                        tool.0.name
                    ));
                } else {
                    tools.push(tool);
                }
            }
            Err(msg) => warnings.push(format!("{where_}: {msg} (dropped)")),
        }
    }
    tools
}

/// Flags the tools the manifest's `toolMetadata` marks optional.
fn mark_optional<'a>(
    metadata: &std::collections::BTreeMap<String, Value>,
    tools: impl Iterator<Item = &'a mut ToolSpec>,
) {
    for tool in tools {
        let meta = metadata.get(&tool.name);
        tool.flags.optional = meta.and_then(|m| m.get("optional")) == Some(&Value::Bool(true));
    }
}

/// The tools `contracts.tools` names that no clawdeck declaration runs: their schemas are in
/// the plugin's code, which only OpenClaw loads.
fn contract_tools(
    names: Vec<Value>,
    plugin_id: &str,
    declared: &[(ToolSpec, PluginToolCommand)],
    origin: &str,
    warnings: &mut Vec<String>,
) -> Vec<ToolSpec> {
    let mut out: Vec<ToolSpec> = Vec::new();
    for (index, value) in names.into_iter().enumerate() {
        let where_ = format!("{origin}: contracts.tools[{index}]");
        let Some(name) = value.as_str().map(str::trim) else {
            warnings.push(format!("{where_}: not a string (ignored)"));
            continue;
        };
        if !valid_tool_name(name) {
            warnings.push(format!(
                "{where_}: \"{name}\" is not a tool name (lowercase letters, digits, _ and -; ignored)"
            ));
            continue;
        }
        if declared.iter().any(|(t, _)| t.name == name) || out.iter().any(|t| t.name == name) {
            continue;
        }
        let description = format!(
            "Tool of plugin \"{plugin_id}\" (named in its manifest's contracts.tools; its parameters are known only to OpenClaw)."
        );
        out.push(ToolSpec {
            name: name.to_string(),
            label: name.to_string(),
            summary: description.clone(),
            description,
            emoji: "🧩".to_string(),
            parameters: json!({"type": "object", "properties": {}}),
            source: ToolSource::plugin(plugin_id),
            flags: ToolFlags {
                openclaw_only: true,
                schema_unknown: true,
                ..ToolFlags::default()
            },
        });
    }
    out
}

fn valid_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

fn tool_from_decl(
    decl: ToolDecl,
    plugin_id: &str,
    dir: &Path,
) -> Result<(ToolSpec, PluginToolCommand), String> {
    let name = decl.name.trim().to_lowercase();
    if !valid_tool_name(&name) {
        return Err(format!("tool name \"{}\" is not snake_case", decl.name));
    }
    // `bash` and `apply-patch` name core tools (`invoke bash` runs exec): a plugin tool by such
    // a name would slip past `tools.deny: ["exec"]` while being called as exec.
    let normal = crate::semantics::normalize::normalize_tool_name(&name);
    if normal != name {
        return Err(format!(
            "tool \"{name}\" is an alias of the core tool \"{normal}\""
        ));
    }
    if decl.command.is_empty() || decl.command[0].trim().is_empty() {
        return Err(format!("tool \"{name}\" has an empty command"));
    }
    let parameters = decl
        .parameters
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    if parameters.get("type").and_then(|t| t.as_str()) != Some("object") {
        return Err(format!(
            "tool \"{name}\": parameters must be a JSON Schema with \"type\": \"object\""
        ));
    }
    let description = decl.description.unwrap_or_default();
    let summary = decl.summary.unwrap_or_else(|| {
        description
            .split(". ")
            .next()
            .unwrap_or("")
            .trim_end_matches('.')
            .to_string()
    });
    let mut argv = decl.command;
    // A program given relative to the plugin (`./run.sh`, `bin/tool`) runs from the plugin dir.
    if argv[0].starts_with("./") || (argv[0].contains('/') && !argv[0].starts_with('/')) {
        let relative = argv[0].trim_start_matches("./").to_string();
        argv[0] = dir.join(relative).display().to_string();
    }
    let cwd = decl
        .cwd
        .map(|c| resolve_dir(Path::new(&c), Some(dir)))
        .unwrap_or_else(|| dir.to_path_buf());
    let spec = ToolSpec {
        label: decl.label.unwrap_or_else(|| name.clone()),
        name: name.clone(),
        description,
        summary,
        emoji: decl.emoji.unwrap_or_else(|| "🧩".to_string()),
        parameters,
        source: ToolSource::plugin(plugin_id),
        flags: ToolFlags {
            owner_only: decl.owner_only,
            local_system: decl.local_system,
            ..ToolFlags::default()
        },
    };
    let command = PluginToolCommand {
        plugin_id: plugin_id.to_string(),
        argv,
        cwd,
        timeout: Duration::from_secs(
            decl.timeout_seconds
                .unwrap_or(DEFAULT_TIMEOUT_SECONDS)
                .clamp(1, crate::bounds::MAX_TIMEOUT_SECONDS),
        ),
    };
    Ok((spec, command))
}
