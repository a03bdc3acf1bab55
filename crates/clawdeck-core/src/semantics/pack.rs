//! The file form of an OpenClaw semantics pack (assets/openclaw/*.json, or a pack synced from a
//! gateway) and its conversion into the `Semantics` the engine reads.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{SandboxDefaults, Semantics, SubagentRules, ToolSearchRules, UnknownOnlyAllowlist};
use crate::tool::{ToolFlags, ToolSource, ToolSpec};

/// Tools clawdeck runs itself when a pack does not say (the rest run only inside OpenClaw).
const LOCALLY_RUN: &[&str] = &["read", "write", "edit", "apply_patch", "exec", "process"];

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PackFile {
    pub version: String,
    #[serde(default)]
    pub captured_from: String,
    pub tools: Vec<PackTool>,
    #[serde(default)]
    pub group_order: Vec<String>,
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Option<Vec<String>>>,
    #[serde(default)]
    pub default_profile: Option<String>,
    /// The values a `profile` key may take; another one makes OpenClaw refuse the config.
    #[serde(default)]
    pub profile_values: Option<Vec<String>>,
    #[serde(default)]
    pub aliases: BTreeMap<String, String>,
    #[serde(default)]
    pub apply_patch_follows: Option<String>,
    #[serde(default)]
    pub unknown_only_allowlist: Option<String>,
    #[serde(default)]
    pub no_tools_error: Option<String>,
    #[serde(default)]
    pub non_owner_deny: Vec<String>,
    #[serde(default)]
    pub subagent: Option<PackSubagent>,
    #[serde(default)]
    pub sandbox: Option<PackSandbox>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub implicit_also_allow: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub tool_search: Option<Value>,
    #[serde(default)]
    pub gateway_http_deny: Vec<String>,
    #[serde(default)]
    pub exec: Option<crate::exec_allowlist::ExecVersionFacts>,
    #[serde(default)]
    pub gateway_effective: super::GatewayEffectiveRules,
    #[serde(default)]
    pub tooling_prompt: Option<Value>,
    /// Whether `tools.toolsBySender` is a layer (default: every pack but the seed's).
    #[serde(default)]
    pub sender_layer: Option<bool>,
    #[serde(default)]
    pub sender_owner_needs_allowlist: bool,
    #[serde(default)]
    pub direct_chat_policy: bool,
    #[serde(default)]
    pub plugin_tools_need_selection: bool,
    /// Whether a plugin tool allowlist entry with `*` is a pattern (absent: yes; 2026.8: exact
    /// names only).
    #[serde(default)]
    pub plugin_allowlist_patterns: Option<bool>,
    /// Whether a job an agent made finds its creator's channel in the creator's turn (absent:
    /// yes; 2026.8: in the job's own turn).
    #[serde(default)]
    pub creator_channel_from_turn: Option<bool>,
    /// Channel plugins whose per-conversation config keys match case-sensitively.
    #[serde(default)]
    pub channel_keys_case_sensitive: Vec<String>,
    /// Keys and plugin switches that keep tools from being built (see `switches`).
    #[serde(default)]
    pub switches: super::switches::ToolSwitches,
    #[serde(default)]
    pub tooling_prompt_rule: Option<super::ToolingRule>,
    #[serde(default)]
    pub param_aliases: Option<bool>,
    #[serde(default)]
    pub description_fragments: BTreeMap<String, Vec<super::DescriptionFragment>>,
    #[serde(default)]
    pub session_visibility: Option<super::SessionVisibilityCopy>,
    #[serde(default)]
    pub gateway_config_reads: Option<super::ConfigReadsRule>,
    #[serde(default)]
    pub schema_variants: BTreeMap<String, Vec<super::SchemaVariant>>,
    #[serde(default)]
    pub property_requires: BTreeMap<String, BTreeMap<String, String>>,
    #[serde(default)]
    pub channel_variants: BTreeMap<String, Vec<super::ChannelVariant>>,
    /// Channel → where its channel plugin keeps a chat group's tool policy.
    #[serde(default)]
    pub channel_group_policy: BTreeMap<String, super::GroupPolicySource>,
    /// A name that also names other tools (`canvas` → `show_widget`).
    #[serde(default)]
    pub family_expansions: BTreeMap<String, Vec<String>>,
    /// `{tools: [...]}`: tools only a primary session gets (never a subagent).
    #[serde(default)]
    pub primary_session_only: Option<Value>,
    /// Bundled plugin id → its tools, for the plugins that are off until the config turns them
    /// on (`plugins.entries.<id>.enabled: true`, or a slot naming the plugin).
    #[serde(default)]
    pub plugins_off_by_default: BTreeMap<String, Vec<PackTool>>,
    /// Bundled provider plugins whose credential brings a media tool.
    #[serde(default)]
    pub media_credentials: Vec<super::MediaCredential>,
    /// A media tool's description when a key, not a named model, brings it.
    #[serde(default)]
    pub media_credential_descriptions: BTreeMap<String, String>,
    /// video_generate's form with audio references, and the providers that bring it.
    #[serde(default)]
    pub video_audio_references: Option<super::VideoAudioReferences>,
    /// Bundled plugins' model providers and the variables that are their credentials.
    #[serde(default)]
    pub provider_credentials: Vec<super::ProviderCredential>,
    /// The manifests' providerAuthAliases, lower case: alias → the provider its stored auth
    /// profiles count for.
    #[serde(default)]
    pub provider_auth_aliases: BTreeMap<String, String>,
    /// The tools a model that takes images brings, as they are sent then.
    #[serde(default)]
    pub vision_model_tools: BTreeMap<String, super::VisionTool>,
    /// xAI's remote tools and what brings them.
    #[serde(default)]
    pub xai_tools: Option<super::XaiTools>,
    /// The tools only some gateway turns build, and which.
    #[serde(default)]
    pub host_tools: super::HostTools,
    /// What a heartbeat's turn gets.
    #[serde(default)]
    pub heartbeat_turn: Option<super::HeartbeatTurn>,
    /// What a scheduled job's turn gets.
    #[serde(default)]
    pub scheduled_turn: Option<super::ScheduledTurn>,
    /// The tools a gateway client's capabilities decide, and what its clients declare.
    #[serde(default)]
    pub client_capabilities: super::ClientCapabilities,
    /// Who is entitled to manage automations, and the form the tool takes then.
    #[serde(default)]
    pub automation_management: Option<super::AutomationManagement>,
    /// Swarm globals: their default, their tools and the forms they change.
    #[serde(default)]
    pub swarm: Option<super::SwarmRules>,
    /// A spawned subagent's envelope, as the release's builder renders it.
    #[serde(default)]
    pub subagent_envelope: PackSubagentEnvelope,
    /// The channel a gateway `agent`-method turn without one runs in.
    #[serde(default)]
    pub gateway_agent_turn_channel: Option<String>,
    /// Provider id → model id → what it takes, from the manifests' model catalogs.
    #[serde(default)]
    pub catalog_model_inputs: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Provider id → how OpenClaw normalizes a model id before looking it up.
    #[serde(default)]
    pub model_id_normalization: BTreeMap<String, super::IdPolicy>,
    /// The anthropic plugin's rule that a newer Claude model takes images.
    #[serde(default)]
    pub claude_image_rule: Option<super::ClaudeImageRuleSpec>,
    /// When Code Mode engages, and its control tools as sent.
    #[serde(default)]
    pub code_mode: Option<super::CodeModeRules>,
}

/// One tool as a pack describes it: either clawdeck's `ToolSpec` shape or the catalog shape
/// captured from OpenClaw (`section`, `profiles`, `ownerOnly`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackTool {
    pub name: String,
    /// The plugin's manifest marks the tool optional (built only when an allowlist selects it).
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub emoji: Option<String>,
    #[serde(default)]
    pub parameters: Option<Value>,
    /// A `ToolSource` object, or the catalog's `"core"` / `"plugin:<id>"`.
    #[serde(default)]
    pub source: Option<Value>,
    #[serde(default)]
    pub flags: Option<ToolFlags>,
    #[serde(default)]
    pub owner_only: bool,
    #[serde(default)]
    pub section: Option<String>,
    #[serde(default)]
    pub profiles: Vec<String>,
    /// When the tool appears only under some condition (a channel, a backend, a plugin).
    #[serde(default)]
    pub requires: Option<Value>,
    /// The tool's line in the prompt's Tooling section.
    #[serde(default)]
    pub prompt_summary: Option<String>,
    /// Whether the version's default run exposes it (absent: yes).
    #[serde(default)]
    pub in_default_run: Option<bool>,
}

/// The pack's `subagentEnvelope`: the rendered variants and the dist file they came from.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PackSubagentEnvelope {
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PackSubagent {
    #[serde(default)]
    pub default_deny: Vec<String>,
    #[serde(default)]
    pub allow_lifts_default_deny: bool,
    #[serde(default)]
    pub always_deny: Vec<String>,
    #[serde(default, alias = "denyUnlessLeaf", alias = "leafOnlyDeny")]
    pub leaf_deny: Vec<String>,
    #[serde(default)]
    pub default_max_spawn_depth: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PackSandbox {
    #[serde(default)]
    pub default_allow: Vec<String>,
    #[serde(default)]
    pub default_deny: Vec<String>,
    #[serde(default)]
    pub read_only_deny: Option<Vec<String>>,
    #[serde(default)]
    pub explicit_allow_lifts_default_deny: bool,
    #[serde(default)]
    pub unsandboxed_only: Vec<String>,
}

fn null_as_default<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(de)?.unwrap_or_default())
}

fn empty_schema() -> Value {
    serde_json::json!({"type": "object", "properties": {}})
}

fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, word) in name.split('_').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

fn parse_source(value: Option<Value>) -> Result<ToolSource, String> {
    match value {
        None | Some(Value::Null) => Ok(ToolSource::Core),
        Some(Value::String(s)) => match s.split_once(':') {
            None if s == "core" => Ok(ToolSource::Core),
            Some(("plugin", id)) if !id.is_empty() => Ok(ToolSource::plugin(id)),
            _ => Err(format!(
                "source \"{s}\" is neither \"core\" nor \"plugin:<id>\""
            )),
        },
        Some(other) => serde_json::from_value(other).map_err(|err| format!("source: {err}")),
    }
}

impl PackTool {
    fn into_spec(self, owner_only: bool) -> Result<ToolSpec, String> {
        let summary = self.summary.unwrap_or_default();
        let description = self
            .description
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| summary.clone());
        let mut flags = self.flags.unwrap_or_else(|| ToolFlags {
            openclaw_only: !LOCALLY_RUN.contains(&self.name.as_str()),
            ..ToolFlags::default()
        });
        flags.owner_only |= self.owner_only || owner_only;
        flags.optional |= self.optional;
        let source =
            parse_source(self.source).map_err(|err| format!("tool {}: {err}", self.name))?;
        Ok(ToolSpec {
            label: self.label.unwrap_or_else(|| title_case(&self.name)),
            summary,
            description,
            emoji: self.emoji.unwrap_or_else(|| "🧩".to_string()),
            parameters: match self.parameters {
                None | Some(Value::Null) => empty_schema(),
                Some(p) => p,
            },
            source,
            flags,
            name: self.name,
        })
    }
}

/// The pack's tools sorted into the catalog and what the tools say about groups and profiles.
struct PackCatalog {
    /// The tools in the default run, then clawdeck's own ones the pack does not name.
    tools: Vec<ToolSpec>,
    /// Profile name → the tools that name it.
    profile_members: BTreeMap<String, Vec<String>>,
    /// `group:<section>` → the tools in that section.
    sections: BTreeMap<String, Vec<String>>,
    /// Tools not in the default run, with what they require.
    conditional: Vec<(String, String)>,
    /// Those tools' specs (a config may bring them: [`super::Semantics::media_tools_turned_on`]).
    conditional_specs: Vec<ToolSpec>,
    prompt_summaries: BTreeMap<String, String>,
}

impl PackCatalog {
    fn from_tools(
        pack_tools: Vec<PackTool>,
        own_tools: Vec<ToolSpec>,
        non_owner: &[String],
    ) -> Result<PackCatalog, String> {
        let mut catalog = PackCatalog {
            tools: Vec::with_capacity(pack_tools.len() + own_tools.len()),
            profile_members: BTreeMap::new(),
            sections: BTreeMap::new(),
            conditional: Vec::new(),
            conditional_specs: Vec::new(),
            prompt_summaries: BTreeMap::new(),
        };
        for tool in pack_tools {
            if let Some(summary) = &tool.prompt_summary {
                catalog
                    .prompt_summaries
                    .insert(tool.name.clone(), summary.clone());
            }
            for profile in &tool.profiles {
                catalog
                    .profile_members
                    .entry(profile.clone())
                    .or_default()
                    .push(tool.name.clone());
            }
            if let Some(section) = &tool.section {
                catalog
                    .sections
                    .entry(format!("group:{section}"))
                    .or_default()
                    .push(tool.name.clone());
            }
            let owner_only = non_owner.contains(&tool.name);
            if tool.in_default_run == Some(false) {
                let requires = match &tool.requires {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => "a condition this pack does not record".to_string(),
                };
                catalog.conditional.push((tool.name.clone(), requires));
                catalog.conditional_specs.push(tool.into_spec(owner_only)?);
                continue;
            }
            catalog.tools.push(tool.into_spec(owner_only)?);
        }
        let core_names: Vec<String> = catalog.tools.iter().map(|t| t.name.clone()).collect();
        for own in own_tools {
            if !core_names.contains(&own.name) {
                catalog.tools.push(own);
            }
        }
        Ok(catalog)
    }
}

/// Alias → name, both trimmed and lower case.
fn lower_case_pairs(aliases: BTreeMap<String, String>) -> BTreeMap<String, String> {
    aliases
        .into_iter()
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_lowercase()))
        .collect()
}

/// The tools of the plugins off by default, by lower-case plugin id.
fn off_by_default_specs(
    plugins: BTreeMap<String, Vec<PackTool>>,
) -> Result<BTreeMap<String, Vec<ToolSpec>>, String> {
    let mut out = BTreeMap::new();
    for (plugin, pack_tools) in plugins {
        let specs = pack_tools
            .into_iter()
            .map(|t| t.into_spec(false))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| format!("pluginsOffByDefault.{plugin}: {err}"))?;
        out.insert(plugin.trim().to_lowercase(), specs);
    }
    Ok(out)
}

/// The groups in the pack's `groupOrder`, then the rest in name order.
fn ordered_groups(
    group_order: &[String],
    groups_map: &BTreeMap<String, Vec<String>>,
) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for name in group_order {
        if let Some(members) = groups_map.get(name) {
            groups.push((name.clone(), members.clone()));
        }
    }
    for (name, members) in groups_map {
        if !group_order.contains(name) {
            groups.push((name.clone(), members.clone()));
        }
    }
    groups
}

/// The pack's profiles (else the ones its tools name, plus `full`), each with the tools that
/// name it.
fn profiles_with_members(
    listed: BTreeMap<String, Option<Vec<String>>>,
    profile_members: BTreeMap<String, Vec<String>>,
) -> BTreeMap<String, Option<Vec<String>>> {
    if listed.is_empty() {
        let mut out: BTreeMap<String, Option<Vec<String>>> = profile_members
            .into_iter()
            .map(|(k, v)| (k, Some(v)))
            .collect();
        out.insert("full".to_string(), None);
        return out;
    }
    // A tool that names a profile belongs to it even when the profile's own list (the
    // core catalog's) does not say so: plugins declare their profiles on their tools.
    let mut profiles = listed;
    for (profile, members) in profile_members {
        if let Some(Some(list)) = profiles.get_mut(&profile) {
            for member in members {
                if !list.contains(&member) {
                    list.push(member);
                }
            }
        }
    }
    profiles
}

fn parse_unknown_only_allowlist(value: Option<&str>) -> Result<UnknownOnlyAllowlist, String> {
    match value {
        None | Some("strip") => Ok(UnknownOnlyAllowlist::Strip),
        Some("keep") => Ok(UnknownOnlyAllowlist::Keep),
        Some(other) => Err(format!(
            "unknownOnlyAllowlist: \"{other}\" is neither \"strip\" nor \"keep\""
        )),
    }
}

/// The tooling prompt: a string, or an object's `template` (else `text`).
fn tooling_prompt_text(value: Option<Value>) -> Option<String> {
    match value {
        Some(Value::String(s)) => Some(s),
        Some(Value::Object(map)) => map
            .get("template")
            .or_else(|| map.get("text"))
            .and_then(Value::as_str)
            .map(str::to_string),
        _ => None,
    }
}

fn subagent_rules(subagent: PackSubagent) -> SubagentRules {
    SubagentRules {
        default_deny: subagent.default_deny,
        allow_lifts_default_deny: subagent.allow_lifts_default_deny,
        always_deny: subagent.always_deny,
        leaf_deny: subagent.leaf_deny,
        default_max_spawn_depth: subagent.default_max_spawn_depth,
    }
}

/// The pack's sandbox defaults; without `readOnlyDeny`, a read-only sandbox denies the
/// writing tools.
fn sandbox_defaults(sandbox: PackSandbox) -> SandboxDefaults {
    SandboxDefaults {
        default_allow: sandbox.default_allow,
        default_deny: sandbox.default_deny,
        explicit_allow_lifts_default_deny: sandbox.explicit_allow_lifts_default_deny,
        unsandboxed_only: sandbox.unsandboxed_only,
        read_only_deny: sandbox
            .read_only_deny
            .unwrap_or_else(|| vec!["write".into(), "edit".into(), "apply_patch".into()]),
    }
}

impl PackFile {
    /// The pack's prompt copy (description fragments, the session visibility text) is
    /// well formed.
    fn check_copy(
        description_fragments: &BTreeMap<String, Vec<super::DescriptionFragment>>,
        session_visibility: Option<&super::SessionVisibilityCopy>,
    ) -> Result<(), String> {
        for (tool, fragments) in description_fragments {
            for fragment in fragments {
                fragment
                    .check()
                    .map_err(|err| format!("descriptionFragments.{tool}: {err}"))?;
            }
        }
        if let Some(copy) = session_visibility {
            copy.check()
                .map_err(|err| format!("sessionVisibility: {err}"))?;
        }
        Ok(())
    }

    /// The engine's view of the pack; `own_tools` (clawdeck's) are appended to the catalog.
    pub(crate) fn into_semantics(self, own_tools: Vec<ToolSpec>) -> Result<Semantics, String> {
        let non_owner: Vec<String> = self.non_owner_deny.clone();
        let PackCatalog {
            tools,
            profile_members,
            sections,
            conditional,
            conditional_specs,
            prompt_summaries,
        } = PackCatalog::from_tools(self.tools, own_tools, &non_owner)?;
        let groups = ordered_groups(&self.group_order, &listed_or(self.groups, sections));
        let profiles = profiles_with_members(self.profiles, profile_members);
        let unknown_only_allowlist =
            parse_unknown_only_allowlist(self.unknown_only_allowlist.as_deref())?;
        let sandbox = self.sandbox.unwrap_or_default();
        let tool_search = parse_tool_search(self.tool_search)?;
        let tooling_prompt = tooling_prompt_text(self.tooling_prompt);
        let sender_layer = self.sender_layer.unwrap_or(self.version != super::SEED);
        let primary_session_only = primary_session_tools(self.primary_session_only.as_ref());
        let param_aliases = self.param_aliases.unwrap_or(self.version == super::SEED);
        Self::check_copy(
            &self.description_fragments,
            self.session_visibility.as_ref(),
        )?;
        self.switches.check(|name| {
            tools.iter().any(|t| t.name == name) || conditional.iter().any(|(n, _)| n == name)
        })?;
        self.host_tools.check(&conditional_specs)?;
        Ok(Semantics {
            plugins_off_by_default: off_by_default_specs(self.plugins_off_by_default)?,
            media_credentials: self.media_credentials,
            media_credential_descriptions: self.media_credential_descriptions,
            provider_credentials: self.provider_credentials,
            provider_auth_aliases: self.provider_auth_aliases,
            video_audio: self.video_audio_references,
            vision_model_tools: self.vision_model_tools,
            xai_tools: self.xai_tools,
            host_tools: self.host_tools,
            heartbeat_turn: self.heartbeat_turn,
            scheduled_turn: self.scheduled_turn,
            client_capabilities: self.client_capabilities,
            automation_management: self.automation_management,
            swarm: self.swarm,
            subagent_envelope: self.subagent_envelope.variants,
            gateway_agent_turn_channel: self.gateway_agent_turn_channel,
            code_mode: self.code_mode,
            catalog_model_inputs: self.catalog_model_inputs,
            model_rules: super::ModelRules::from_pack(
                self.model_id_normalization,
                self.claude_image_rule,
            )?,
            tooling_rule: self.tooling_prompt_rule,
            prompt_summaries,
            param_aliases,
            description_fragments: self.description_fragments,
            session_visibility: self.session_visibility,
            gateway_config_reads: self.gateway_config_reads,
            schema_variants: self.schema_variants,
            property_requires: self.property_requires,
            channel_variants: self.channel_variants,
            channel_group_policy: by_lower_key(self.channel_group_policy),
            conditional_tools: conditional,
            conditional_specs,
            family_expansions: self.family_expansions,
            primary_session_only,
            sender_layer,
            sender_owner_needs_allowlist: self.sender_owner_needs_allowlist,
            direct_chat_policy: self.direct_chat_policy,
            plugin_tools_need_selection: self.plugin_tools_need_selection,
            plugin_allowlist_patterns: self.plugin_allowlist_patterns.unwrap_or(true),
            creator_channel_from_turn: self.creator_channel_from_turn.unwrap_or(true),
            channel_keys_case_sensitive: self.channel_keys_case_sensitive,
            switches: self.switches,
            id: self.version,
            captured_from: self.captured_from,
            tools,
            groups,
            profiles: by_lower_key(profiles),
            default_profile: self.default_profile,
            profile_values: self.profile_values,
            aliases: lower_case_pairs(self.aliases),
            apply_patch_follows: self
                .apply_patch_follows
                .unwrap_or_else(|| "exec".to_string()),
            unknown_only_allowlist,
            no_tools_error: self.no_tools_error,
            non_owner_deny: non_owner,
            subagent: subagent_rules(self.subagent.unwrap_or_default()),
            sandbox: sandbox_defaults(sandbox),
            implicit_also_allow: self.implicit_also_allow,
            tool_search,
            gateway_http_deny: self.gateway_http_deny,
            exec: self.exec,
            gateway_effective: self.gateway_effective,
            tooling_prompt,
        })
    }
}

/// The groups as the pack lists them, else from the tools' sections.
fn listed_or(
    listed: BTreeMap<String, Vec<String>>,
    sections: BTreeMap<String, Vec<String>>,
) -> BTreeMap<String, Vec<String>> {
    if listed.is_empty() { sections } else { listed }
}

/// `map` keyed as OpenClaw compares its keys: trimmed, in lower case.
fn by_lower_key<V>(map: BTreeMap<String, V>) -> BTreeMap<String, V> {
    map.into_iter()
        .map(|(k, v)| (k.trim().to_lowercase(), v))
        .collect()
}

/// The tools of the pack's `primarySessionOnly` (`{tools: [...]}`).
fn primary_session_tools(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(|v| v.get("tools"))
        .and_then(|v| serde_json::from_value::<Vec<String>>(v.clone()).ok())
        .unwrap_or_default()
}

/// The pack's `toolSearch` rules (`null` or absent: none).
fn parse_tool_search(value: Option<Value>) -> Result<Option<ToolSearchRules>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(value) => serde_json::from_value::<ToolSearchRules>(value)
            .map(Some)
            .map_err(|err| format!("toolSearch: {err}")),
    }
}
