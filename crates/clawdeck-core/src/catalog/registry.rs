//! The registry: every tool clawdeck knows for a config, with its source and groups.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use super::groups::{PLUGINS_GROUP, PluginGroups};
use super::plugins::{self, DiscoveredPlugin, PluginInfo, PluginToolCommand};
use crate::config::LoadedConfig;
use crate::mcp_servers::ServerListing;
use crate::semantics::Semantics;
use crate::tool::ToolSpec;

/// All tools for one config, in a stable order: the pack's catalog first, then plugin tools.
#[derive(Debug, Clone)]
pub struct Registry {
    /// The OpenClaw semantics the tools and groups come from.
    pub semantics: Arc<Semantics>,
    pub tools: Vec<ToolSpec>,
    pub plugins: Vec<PluginInfo>,
    /// Plugin tool name → how to run it.
    pub plugin_tool_commands: BTreeMap<String, PluginToolCommand>,
    /// Discovery problems and dropped duplicates.
    pub warnings: Vec<String>,
    /// `mcp.servers` listed for this registry: each server's tool count, or why it gave none.
    pub mcp_servers: Vec<(String, Result<usize, String>)>,
    /// The config names a model that takes images ([`Semantics::names_vision_model`], read once
    /// per build: it looks at every agent's model).
    pub names_vision_model: bool,
    /// How this registry learnt the servers' tools; a rebuild for another config asks the same.
    server_listing: ServerListing,
    plugin_groups: PluginGroups,
    index: HashMap<String, usize>,
    /// `groups_of` for every tool, in `tools` order (computed once; traces copy it).
    group_cache: Vec<Arc<[String]>>,
    names: NameIndex,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::empty(crate::semantics::seed())
    }
}

/// Tool indices sorted by name and by reversed name, so a `prefix*` or `*suffix` pattern finds
/// its tools with a binary search instead of a pass over every tool.
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    /// Tool indices ordered by name.
    pub by_name: Vec<usize>,
    /// (reversed name, tool index), ordered by reversed name.
    pub by_reversed: Vec<(String, usize)>,
}

impl NameIndex {
    fn build(tools: &[ToolSpec]) -> NameIndex {
        let mut by_name: Vec<usize> = (0..tools.len()).collect();
        by_name.sort_by(|&a, &b| tools[a].name.cmp(&tools[b].name));
        let mut by_reversed: Vec<(String, usize)> = tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.chars().rev().collect(), i))
            .collect();
        by_reversed.sort();
        NameIndex {
            by_name,
            by_reversed,
        }
    }

    /// Indices of the tools whose name starts with `prefix`.
    pub(crate) fn with_prefix<'a>(&'a self, tools: &[ToolSpec], prefix: &str) -> &'a [usize] {
        let start = self
            .by_name
            .partition_point(|&i| tools[i].name.as_str() < prefix);
        let len = self.by_name[start..].partition_point(|&i| tools[i].name.starts_with(prefix));
        &self.by_name[start..start + len]
    }

    /// Indices of the tools whose reversed name starts with `reversed` (the name ends with it
    /// read backwards).
    pub(crate) fn with_reversed_prefix(&self, reversed: &str) -> impl Iterator<Item = usize> + '_ {
        let start = self
            .by_reversed
            .partition_point(|(r, _)| r.as_str() < reversed);
        let len = self.by_reversed[start..].partition_point(|(r, _)| r.starts_with(reversed));
        self.by_reversed[start..start + len].iter().map(|(_, i)| *i)
    }
}

impl Registry {
    /// Core tools plus the plugins found in `settings.plugins.dirs` and OpenClaw's
    /// `plugins.load.paths` (relative paths are taken from the config file's directory), plus
    /// the tools of `mcp.servers` as `listing` learns them (kept for [`Registry::rebuild_for`]).
    pub fn build(config: &LoadedConfig, listing: &ServerListing) -> Registry {
        let base = config
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map(|p| p.to_path_buf());
        let mut dirs: Vec<PathBuf> = Vec::new();
        for dir in &config.settings.plugins.dirs {
            dirs.push(plugins::resolve_dir(dir, base.as_deref()));
        }
        for dir in &config.openclaw.plugins.load.paths {
            dirs.push(plugins::resolve_dir(
                std::path::Path::new(dir),
                base.as_deref(),
            ));
        }
        let mut warnings = Vec::new();
        let discovered = plugins::discover(&dirs, &mut warnings);
        let semantics = Arc::clone(&config.semantics);
        let mut tools = semantics.tools.clone();
        // A bundled plugin that is off by default brings its tools only when turned on.
        for plugin in semantics.plugins_turned_on(&config.raw) {
            tools.extend(semantics.plugins_off_by_default[plugin].iter().cloned());
        }
        // So does a media tool, when the config names a model for it.
        tools.extend(semantics.media_tools_turned_on(&config.raw, &config.credentials(None)));
        // And the tools a model that takes images brings; each run keeps them only when its
        // model takes images.
        let names: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
        tools.extend(semantics.vision_tools(&names));
        // And those a gateway client's capabilities decide; each turn keeps them only when its
        // client gives them.
        tools.extend(semantics.client_tools(&names));
        // And those swarm globals bring where the release builds them only when asked; the
        // switch keeps them only while swarm globals are on.
        tools.extend(semantics.swarm_tools(&names));
        // And those only some gateway turns have; each turn keeps them when its host builds
        // them.
        tools.extend(semantics.host_tools(&names));
        // And the heartbeat's; only a heartbeat's turn keeps it.
        tools.extend(semantics.heartbeat_tools(&names));
        // And xAI's remote tools where a key can bring them; a run keeps them on an xAI model
        // or where their config turns them on.
        let names: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
        tools.extend(semantics.xai_tools(&config.raw, &config.credentials(None), &names));
        let mut registry = Registry::from_parts_with(tools, discovered, semantics);
        warnings.append(&mut registry.warnings);
        // A paired node's tools follow the plugins' (OpenClaw builds them last of its own).
        if let Some(nodes) = &config.connected_nodes {
            registry.add_node_tools(nodes, &config.raw, &mut warnings);
        }
        // MCP servers come last: OpenClaw names their tools clear of every tool already there.
        let taken: std::collections::HashSet<String> =
            registry.tools.iter().map(|t| t.name.clone()).collect();
        let mut servers =
            crate::mcp_servers::server_tools(&config.raw, base.as_deref(), &taken, listing);
        warnings.append(&mut servers.warnings);
        for spec in servers.tools {
            registry.add(spec);
        }
        registry.mcp_servers = servers.servers;
        registry.names_vision_model = registry.semantics.names_vision_model(&config.raw);
        registry.server_listing = listing.clone();
        registry.rebuild_plugin_groups();
        registry.warnings = warnings;
        registry
    }

    /// The tools the gateway's connected nodes published, named clear of every tool already
    /// here; none when the config ignores them (`gateway.nodes.pluginTools.enabled: false`).
    fn add_node_tools(
        &mut self,
        nodes: &crate::node_tools::ConnectedNodes,
        raw: &serde_json::Value,
        warnings: &mut Vec<String>,
    ) {
        warnings.extend(nodes.warnings.iter().cloned());
        if !crate::node_tools::enabled(raw) {
            if nodes.tool_count() > 0 {
                warnings.push(format!(
                    "gateway.nodes.pluginTools.enabled is false: the {} tools the nodes of {} published are ignored",
                    nodes.tool_count(),
                    nodes.origin
                ));
            }
            return;
        }
        let semantics = Arc::clone(&self.semantics);
        let normalize =
            |name: &str| crate::semantics::normalize::canonical(name, &semantics).into_owned();
        let taken: std::collections::HashSet<String> =
            self.tools.iter().map(|t| normalize(&t.name)).collect();
        for spec in crate::node_tools::tool_specs(nodes, &taken, &normalize) {
            self.add(spec);
        }
    }

    /// The registry `config` gets, its `mcp.servers` learnt the way this one's were (the what-if
    /// of another pack or config).
    pub fn rebuild_for(&self, config: &LoadedConfig) -> Registry {
        Registry::build(config, &self.server_listing)
    }

    /// How this registry learnt the `mcp.servers` tools.
    pub fn server_listing(&self) -> &ServerListing {
        &self.server_listing
    }

    fn empty(semantics: Arc<Semantics>) -> Registry {
        Registry {
            semantics,
            tools: Vec::new(),
            plugins: Vec::new(),
            plugin_tool_commands: BTreeMap::new(),
            warnings: Vec::new(),
            mcp_servers: Vec::new(),
            names_vision_model: false,
            server_listing: ServerListing::Off,
            plugin_groups: PluginGroups::default(),
            index: HashMap::new(),
            group_cache: Vec::new(),
            names: NameIndex::default(),
        }
    }

    #[cfg(test)]
    /// A registry from given specs with the seed pack's groups (tests, benchmarks); plugin
    /// tools are recognised by source.
    pub(crate) fn from_specs(tools: Vec<ToolSpec>) -> Registry {
        Registry::from_specs_with(tools, crate::semantics::seed())
    }

    /// A registry from given specs under a given pack's groups and rules.
    pub fn from_specs_with(tools: Vec<ToolSpec>, semantics: Arc<Semantics>) -> Registry {
        let mut registry = Registry::empty(semantics);
        for spec in tools {
            registry.add(spec);
        }
        registry.rebuild_plugin_groups();
        registry
    }

    /// Core specs plus discovered plugins. A plugin tool whose name is already taken is dropped
    /// with a warning: existing names win (seed 001 §2.1, OpenClaw's `existingToolNames`).
    pub fn from_parts(core: Vec<ToolSpec>, discovered: Vec<DiscoveredPlugin>) -> Registry {
        Registry::from_parts_with(core, discovered, crate::semantics::seed())
    }

    /// `from_parts` under a given pack.
    pub(crate) fn from_parts_with(
        core: Vec<ToolSpec>,
        discovered: Vec<DiscoveredPlugin>,
        semantics: Arc<Semantics>,
    ) -> Registry {
        let mut registry = Registry::from_specs_with(core, semantics);
        for plugin in discovered {
            let mut info = plugin.info;
            info.tools.clear();
            let runnable = plugin
                .tools
                .into_iter()
                .map(|(spec, command)| (spec, Some(command)));
            let contract_only = plugin.contract_tools.into_iter().map(|spec| (spec, None));
            for (spec, command) in runnable.chain(contract_only) {
                if let Some(existing) = registry.get(&spec.name) {
                    let owner = match existing.source.plugin_id() {
                        Some(id) => format!("plugin \"{id}\""),
                        None => format!("{} tool", existing.source.kind()),
                    };
                    registry.warnings.push(format!(
                        "plugin \"{}\": tool \"{}\" dropped: the name is already taken by a {owner}",
                        info.id, spec.name
                    ));
                    continue;
                }
                info.tools.push(spec.name.clone());
                if let Some(command) = command {
                    registry
                        .plugin_tool_commands
                        .insert(spec.name.clone(), command);
                }
                registry.add(spec);
            }
            registry.plugins.push(info);
        }
        registry.rebuild_plugin_groups();
        registry
    }

    fn add(&mut self, spec: ToolSpec) {
        if self.index.contains_key(&spec.name) {
            self.warnings.push(format!(
                "tool \"{}\" defined twice (the first definition wins)",
                spec.name
            ));
            return;
        }
        self.index.insert(spec.name.clone(), self.tools.len());
        self.tools.push(spec);
    }

    fn rebuild_plugin_groups(&mut self) {
        let mut groups = PluginGroups::default();
        for spec in &self.tools {
            if let Some(id) = spec.source.plugin_id() {
                groups.all.push(spec.name.clone());
                groups
                    .by_plugin
                    .entry(id.to_string())
                    .or_default()
                    .push(spec.name.clone());
            }
        }
        for plugin in &self.plugins {
            groups.by_plugin.entry(plugin.id.clone()).or_default();
        }
        self.plugin_groups = groups;
        self.group_cache = self
            .tools
            .iter()
            .map(|t| Arc::from(self.compute_groups(&t.name)))
            .collect();
        self.names = NameIndex::build(&self.tools);
    }

    fn compute_groups(&self, name: &str) -> Vec<String> {
        let mut out: Vec<String> = self.semantics.groups_of(name);
        if let Some(id) = self.get(name).and_then(|t| t.source.plugin_id()) {
            out.push(PLUGINS_GROUP.to_string());
            out.push(id.to_string());
        }
        out
    }

    /// A tool name as this pack spells it: trimmed, lowercased, aliases resolved.
    pub(crate) fn canonical(&self, name: &str) -> String {
        crate::semantics::normalize::canonical(name, &self.semantics).into_owned()
    }

    /// Position of a tool in `tools`.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Sorted views of the tool names (for pattern-major matching).
    pub(crate) fn name_index(&self) -> &NameIndex {
        &self.names
    }

    /// `groups_of` by position in `tools`.
    pub(crate) fn groups_at(&self, index: usize) -> Arc<[String]> {
        self.group_cache
            .get(index)
            .cloned()
            .unwrap_or_else(|| Arc::from(Vec::new()))
    }

    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    pub(crate) fn plugin_groups(&self) -> &PluginGroups {
        &self.plugin_groups
    }

    /// A tool that is not a plugin tool (core, runtime, channel, remote): what the plugin-only
    /// allowlist rule calls "core".
    pub(crate) fn is_core(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|t| t.source.plugin_id().is_none())
    }

    #[cfg(test)]
    /// The groups a tool belongs to: static groups, then `group:plugins` and its plugin id.
    pub(crate) fn groups_of(&self, name: &str) -> Vec<String> {
        match self.index.get(name).and_then(|&i| self.group_cache.get(i)) {
            Some(groups) => groups.to_vec(),
            None => self.compute_groups(name),
        }
    }

    #[cfg(test)]
    /// Every group name usable in a policy: static groups, `group:plugins`, plugin ids.
    pub(crate) fn group_names(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .semantics
            .groups
            .iter()
            .map(|(g, _)| g.clone())
            .collect();
        out.push(PLUGINS_GROUP.to_string());
        out.extend(self.plugin_groups.by_plugin.keys().cloned());
        out
    }

    /// Members of a group-like entry, or `None` when it is not a group.
    pub fn expand_group(&self, entry: &str) -> Option<Vec<String>> {
        if let Some(members) = self.semantics.group(entry) {
            return Some(members.to_vec());
        }
        self.plugin_groups.expand(entry).map(<[String]>::to_vec)
    }
}
