//! OpenClaw semantics as versioned data: which tools a version has (with the schemas it sends),
//! its groups, profiles, aliases and the rules that changed between versions (apply_patch
//! coupling, allowlists that name only unknown tools, subagent and owner rules, Tool Search).
//!
//! The policy engine holds no tool list: it reads the `Semantics` of the pack in use. Packs ship
//! in assets/openclaw/ (`seed`, the design the seeds describe, `2026.8` and `2026.9`), and more can be
//! synced from an operator's gateway into clawdeck's data dir (`clawdeck catalog sync`).

mod automation_management;
mod channel_account_rules;
mod channel_accounts;
mod client_caps;
mod code_mode;
mod code_mode_description;
mod code_mode_hint;
mod code_mode_index;
mod code_mode_namespaces;
mod heartbeat;
mod host_tools;
mod media;
mod model_rules;
pub mod normalize;
pub mod pack;
pub(crate) mod renames;
mod scheduled;
mod select;
mod swarm;
pub mod switches;
mod synced;
mod video_audio;
mod vision;
mod xai_tools;

pub use automation_management::{AutomationManagement, CHANNEL_OWNER, CONTROL_UI_ADMIN};
pub(crate) use channel_account_rules::{
    imessage_default_view, merged as account_view, self_resolved,
};
pub use channel_accounts::{SecretRefs, channel_has_account};
pub use client_caps::{ClientCapabilities, ClientTool, TurnClient};
pub use client_caps::{
    PERSONAL_LIBRARY, SkillLibraryRule, WORKSPACE_LIBRARY, client_mode, is_browser_client,
};
pub use code_mode::{CodeModeActivation, CodeModeRules, RunAgent};
pub use code_mode_description::{CatalogFacts, CodeModeBudgets, CodeModeDescription, Limit};
pub(crate) use code_mode_hint::collate;
pub use code_mode_hint::{
    input_hint as code_mode_input_hint, output_hint as code_mode_output_hint,
};
pub use code_mode_index::{CodeModeIndex, WrittenIndex};
pub use code_mode_namespaces::{CodeModeNamespaces, McpServer};
pub use heartbeat::HeartbeatTurn;
pub use host_tools::HostTools;
pub(crate) use media::set_credentials;
pub use media::{Credentials, MEDIA_MODEL_KEYS, MediaCredential, MediaSource, ProviderCredential};
pub use model_rules::{ClaudeImageRule, ClaudeImageRuleSpec, IdPolicy, ModelRules};
pub use scheduled::ScheduledTurn;
pub use swarm::SwarmRules;
pub use synced::{MAX_SYNCED_TOOLS, tool_name_problem};
pub use video_audio::VideoAudioReferences;
pub use vision::{
    DeclaredModel, ModelInput, VisionTool, declared_input, declared_models, find_declared,
};
pub use xai_tools::XaiTools;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::tool::ToolSpec;

pub use select::{
    Installed, KnownVersion, PackChoice, RequestedVersion, UnknownPack, VERSION_PROBE_TIMEOUT,
    VersionProbe, available_packs, choose, installed_openclaw_version, known_openclaw_version,
    probe_openclaw_version, stored_pack, synced_packs_dir, version_cache_file,
};

/// clawdeck's own tools (clawbot_router and seed 000's local system tools): in every pack.
const CLAWDECK_TOOLS_JSON: &str = include_str!("../../../../assets/openclaw/clawdeck-tools.json");

/// The packs built into clawdeck, oldest first.
pub(crate) const EMBEDDED_PACKS: &[(&str, &str)] = &[
    (
        "seed",
        include_str!("../../../../assets/openclaw/seed.json"),
    ),
    (
        "2026.8",
        include_str!("../../../../assets/openclaw/2026.8.json"),
    ),
    (
        "2026.9",
        include_str!("../../../../assets/openclaw/2026.9.json"),
    ),
];

/// The pack the seeds describe.
pub(crate) const SEED: &str = "seed";

/// What an allowlist naming only unknown or plugin tools does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownOnlyAllowlist {
    /// Seed 001 §2.3: the allowlist is dropped with a warning so core tools stay available.
    Strip,
    /// Today: the allowlist is kept; nothing matches it and the run is refused.
    Keep,
}

/// Subagent rules of a version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubagentRules {
    /// Denied by default (seed: lifted when `tools.subagents.tools.allow` names them).
    pub default_deny: Vec<String>,
    pub allow_lifts_default_deny: bool,
    /// Denied for every subagent, whatever the config says.
    pub always_deny: Vec<String>,
    /// Denied for leaf subagents (those at `maxSpawnDepth`).
    pub leaf_deny: Vec<String>,
    /// `agents.defaults.subagents.maxSpawnDepth` when unset (`None`: no depth rule).
    pub default_max_spawn_depth: Option<u32>,
}

impl SubagentRules {
    /// `agents.defaults.subagents.maxSpawnDepth` as `raw` sets it (at least 1), when it does.
    pub fn configured_max_spawn_depth(raw: &Value) -> Option<u32> {
        raw.pointer("/agents/defaults/subagents/maxSpawnDepth")
            .and_then(Value::as_u64)
            .map(|m| m.clamp(1, u32::MAX as u64) as u32)
    }
}

/// How a running gateway's `tools.effective` list differs from what a run of the same
/// session sends the model, tool by tool, with the reason (the list is built without the
/// run's caller, owner flag and model capabilities).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayEffectiveRules {
    /// Listed by tools.effective although a run may not send it.
    #[serde(default)]
    pub also_lists: BTreeMap<String, String>,
    /// Never listed by tools.effective although a run sends it.
    #[serde(default)]
    pub never_lists: BTreeMap<String, String>,
}

/// Sandbox defaults of a version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxDefaults {
    pub default_allow: Vec<String>,
    pub default_deny: Vec<String>,
    pub read_only_deny: Vec<String>,
    /// A default-denied tool that `tools.sandbox.tools.allow` / `alsoAllow` names (group or
    /// glob) is no longer denied by default.
    pub explicit_allow_lifts_default_deny: bool,
    /// Tools OpenClaw never builds for a sandboxed run, whatever the sandbox policy allows.
    pub unsandboxed_only: Vec<String>,
}

/// Tool Search: which tools keep their schema in the request, and what replaces the rest.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSearchRules {
    #[serde(default)]
    pub default_enabled: bool,
    #[serde(default)]
    pub config_key: Option<String>,
    #[serde(default)]
    pub direct_tools: Vec<String>,
    /// Names, or whole tool definitions (`{name, description, parameters}`).
    #[serde(default)]
    pub meta_tools: Vec<Value>,
    #[serde(default)]
    pub prompt_section: Option<Value>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// A sentence of a description that depends on other tools being visible. The pack records it
/// as OpenClaw writes it when every tool is visible; `{tools}` in `text` stands for the visible
/// members of `listed` (`` `a`/`b` ``). The sentence goes when `requires` is absent or no
/// listed tool is visible.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct DescriptionFragment {
    pub text: String,
    #[serde(default)]
    pub requires: Option<String>,
    #[serde(default)]
    pub listed: Vec<String>,
}

/// A dotted config key (`messages.visibleReplies`) as a JSON pointer into the raw config.
pub(crate) fn key_pointer(key: &str) -> String {
    format!("/{}", key.replace('.', "/"))
}

impl ToolSearchRules {
    /// Tool Search's state for a config: `Some(mode, with why)` when on.
    pub fn mode(&self, raw: &Value) -> Option<String> {
        let key = self.config_key.as_deref().unwrap_or("tools.toolSearch");
        match raw.pointer(&key_pointer(key)) {
            None | Some(Value::Null) => self.default_enabled.then(|| {
                let mode = self
                    .extra
                    .get("defaultMode")
                    .and_then(Value::as_str)
                    .unwrap_or("tools");
                format!("{mode} (the default: {key} unset)")
            }),
            Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => Some(format!("code ({key} = true)")),
            Some(Value::String(mode)) if mode == "off" => None,
            Some(Value::String(mode)) => Some(format!("{mode} ({key} = \"{mode}\")")),
            Some(Value::Object(map)) => {
                if map.get("enabled").and_then(Value::as_bool) == Some(false) {
                    None
                } else {
                    let mode = map.get("mode").and_then(Value::as_str).unwrap_or("tools");
                    Some(format!("{mode} ({key})"))
                }
            }
            Some(_) => self.default_enabled.then(|| format!("tools ({key})")),
        }
    }

    /// The controls OpenClaw adds to every allowlist while Tool Search is on (its
    /// `toolSearchControlAllowlist`): the code-mode tool and the meta tools.
    pub fn controls(&self) -> Vec<String> {
        let code = self
            .extra
            .get("codeModeToolSchema")
            .and_then(|s| s.get("name"))
            .and_then(Value::as_str);
        let meta = self.meta_tools.iter().filter_map(|m| match m {
            Value::String(name) => Some(name.as_str()),
            other => other.get("name").and_then(Value::as_str),
        });
        code.into_iter().chain(meta).map(str::to_string).collect()
    }
}

impl DescriptionFragment {
    const LIST: &'static str = "{tools}";

    fn render(&self, names: &[&String]) -> String {
        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        self.text.replace(Self::LIST, &list.join("/"))
    }

    /// The sentence as the pack's recorded descriptions carry it.
    pub(crate) fn as_recorded(&self) -> String {
        self.render(&self.listed.iter().collect::<Vec<_>>())
    }

    /// The sentence for these visible tools; empty when it goes.
    pub(crate) fn adapted(&self, visible: impl Fn(&str) -> bool) -> String {
        if self.requires.as_deref().is_some_and(|r| !visible(r)) {
            return String::new();
        }
        if self.listed.is_empty() {
            return self.text.clone();
        }
        let present: Vec<&String> = self.listed.iter().filter(|n| visible(n)).collect();
        if present.is_empty() {
            return String::new();
        }
        self.render(&present)
    }

    /// A fragment that can never change anything, or whose list has no place, is a pack error.
    fn check(&self) -> Result<(), String> {
        if self.requires.is_none() && self.listed.is_empty() {
            return Err(format!(
                "\"{}\" names neither requires nor listed",
                self.text
            ));
        }
        if self.listed.is_empty() == self.text.contains(Self::LIST) {
            return Err(format!(
                "\"{}\": listed tools and {} go together",
                self.text,
                Self::LIST
            ));
        }
        Ok(())
    }
}

/// A tool's narrower form while the profiles in force withhold its config reads (gateway
/// without `config.get` / `config.schema.lookup`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ConfigReadsRule {
    pub tool: String,
    pub without: ToolForm,
}

/// A description with its parameter schema.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolForm {
    pub description: String,
    pub parameters: Value,
}

/// How OpenClaw words the session-visibility sentence of the session tools' descriptions.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionVisibilityCopy {
    /// Tools whose description carries the sentence.
    pub tools: Vec<String>,
    /// The sentence, with `{visibility}` and `{scope}`.
    pub line: String,
    /// `tools.sessions.visibility` when unset or invalid.
    pub default: String,
    /// The visibility the pack's recorded descriptions were written with.
    pub recorded: String,
    /// Each visibility's scope text.
    pub scopes: BTreeMap<String, String>,
    /// The `tree` scope text in a sandboxed session limited to the sessions it spawned.
    pub sandbox_spawned_tree: String,
}

impl SessionVisibilityCopy {
    /// The sentence for `visibility`, `restricted` to spawned sessions or not.
    pub(crate) fn sentence(&self, visibility: &str, restricted: bool) -> Option<String> {
        let scope = if restricted && visibility == "tree" {
            self.sandbox_spawned_tree.as_str()
        } else {
            self.scopes.get(visibility)?.as_str()
        };
        Some(
            self.line
                .replace("{visibility}", visibility)
                .replace("{scope}", scope),
        )
    }

    fn check(&self) -> Result<(), String> {
        for wanted in [&self.default, &self.recorded] {
            if !self.scopes.contains_key(wanted) {
                return Err(format!("\"{wanted}\" has no scope text"));
            }
        }
        Ok(())
    }
}

/// A tool's description and schema while another tool is absent.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaVariant {
    pub when_absent: String,
    pub description: String,
    pub parameters: Value,
}

/// A tool's description and schema while `channels.<when_channel>` is configured, in a turn
/// that comes over `when_turn_channel` (message in a webchat turn; with both, a gateway's turn
/// over a chat of that configured channel: message scoped to it) and, when it says so,
/// authors in `when_skill_library`, or in a turn whose reply goes through the message tool
/// (`when_message_tool_reply`: 2026.8's message in a heartbeat's turn), or in a scheduled turn
/// that keeps the widget tool pinned-only (`when_pinned_widget`: 2026.9's show_widget).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelVariant {
    #[serde(default)]
    pub when_channel: Option<String>,
    #[serde(default)]
    pub when_turn_channel: Option<String>,
    /// The skill library the turn authors in (skill_workshop's `workspace` and `personal`
    /// forms); a turn without one keeps the tool's plain form.
    #[serde(default)]
    pub when_skill_library: Option<String>,
    #[serde(default)]
    pub when_message_tool_reply: bool,
    #[serde(default)]
    pub when_pinned_widget: bool,
    pub description: String,
    pub parameters: LazySchema,
}

/// A schema kept as the pack's JSON text until a turn takes it: the channel forms are a good
/// part of a pack, and most commands never read them (parsed at load, they cost every cold
/// start its memory).
#[derive(Debug, Clone)]
pub struct LazySchema(Box<serde_json::value::RawValue>);

impl LazySchema {
    /// The schema, parsed (`null` for text that is no JSON, which a pack's parse rules out).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }
}

impl PartialEq for LazySchema {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl<'de> Deserialize<'de> for LazySchema {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(deserializer).map(LazySchema)
    }
}

/// The Tooling section's shape: header, the order of summarised tools, the closing lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolingRule {
    pub header: String,
    #[serde(default)]
    pub summary_order: Vec<String>,
    #[serde(default)]
    pub footer: String,
}

/// One OpenClaw version's semantics.
#[derive(Debug, Clone, PartialEq)]
pub struct Semantics {
    /// Pack id: `seed`, `2026.9`, or an exact synced version.
    pub id: String,
    pub captured_from: String,
    /// The version's tools in its order, then clawdeck's own.
    pub tools: Vec<ToolSpec>,
    /// Static groups in the version's order.
    pub groups: Vec<(String, Vec<String>)>,
    /// Profile id → allowlist (`None`: no restriction).
    pub profiles: BTreeMap<String, Option<Vec<String>>>,
    /// The profile that applies when none is configured.
    pub default_profile: Option<String>,
    /// The only values a `profile` key may take, in the version's order: another one makes
    /// OpenClaw refuse the config. `None`: an unknown profile is ignored (the seed).
    pub profile_values: Option<Vec<String>>,
    /// Alias → canonical name (`bash` → `exec`).
    pub aliases: BTreeMap<String, String>,
    /// The tool whose allow/deny also decides apply_patch (`exec` in the seed, `write` today).
    pub apply_patch_follows: String,
    pub unknown_only_allowlist: UnknownOnlyAllowlist,
    /// The refusal when no callable tool remains after an explicit allowlist.
    pub no_tools_error: Option<String>,
    /// Tools removed for non-owner senders (besides tools flagged owner-only).
    pub non_owner_deny: Vec<String>,
    pub subagent: SubagentRules,
    pub sandbox: SandboxDefaults,
    /// A config section → tools it implicitly adds to the profile (`tools.exec` → exec, process).
    pub implicit_also_allow: BTreeMap<String, Vec<String>>,
    pub tool_search: Option<ToolSearchRules>,
    /// Whether the version has the `tools.toolsBySender` layer (global and per agent).
    pub sender_layer: bool,
    /// Whether a channel sender is an owner only when `commands.ownerAllowFrom` names them
    /// (without the list, today's OpenClaw owns no sender; the seed's owns every one).
    pub sender_owner_needs_allowlist: bool,
    /// Whether a direct chat's `channels.<channel>.direct` entry is its conversation policy.
    pub direct_chat_policy: bool,
    /// Whether a plugin's tools are built only when the combined allowlists select them (its
    /// id, `group:plugins`, `*` or a matching pattern; a core group does not).
    pub plugin_tools_need_selection: bool,
    /// Whether a `*` in an allowlist entry selects plugin tools by pattern (2026.9's
    /// createPluginToolAllowlist compiles globs; 2026.8's isPluginToolAllowed matches exact
    /// names only, so `memory_*` selects nothing there).
    pub plugin_allowlist_patterns: bool,
    /// Where a job an agent made finds the channel of its creator's account and group when
    /// the creator's session key names no group: the channel the creator's turn came over
    /// (2026.9's `ownerOrigin`), else the job's own turn's message provider (2026.8).
    pub creator_channel_from_turn: bool,
    /// Channel plugins (`slack`) whose `channels.<plugin>.channels.<key>` entries match the
    /// conversation's id case-sensitively; every other channel plugin's match ignores case.
    pub channel_keys_case_sensitive: Vec<String>,
    /// Config keys and plugin switches that keep tools from being built at all.
    pub switches: switches::ToolSwitches,
    /// Tools of the version absent from its default run, with the condition that brings them.
    pub conditional_tools: Vec<(String, String)>,
    /// The specs of those tools, for the ones a config can bring.
    pub conditional_specs: Vec<ToolSpec>,
    /// A name that also names other tools in a policy (`canvas` → `show_widget`).
    pub family_expansions: BTreeMap<String, Vec<String>>,
    /// Tools only a primary session gets (never a subagent).
    pub primary_session_only: Vec<String>,
    /// How the version writes the Tooling section of the system prompt, when captured.
    pub tooling_rule: Option<ToolingRule>,
    /// A tool's one-line summary in that section.
    pub prompt_summaries: BTreeMap<String, String>,
    /// Sentences of a tool's description present only while another tool is visible.
    pub description_fragments: BTreeMap<String, Vec<DescriptionFragment>>,
    /// The session tools' visibility sentence, when this version writes one.
    pub session_visibility: Option<SessionVisibilityCopy>,
    /// The gateway tool's form without config reads, when this version has one.
    pub gateway_config_reads: Option<ConfigReadsRule>,
    /// Whole schemas a tool is sent with while another tool is not visible.
    pub schema_variants: BTreeMap<String, Vec<SchemaVariant>>,
    /// A tool's schema while a channel is configured (message grows with channel actions).
    pub channel_variants: BTreeMap<String, Vec<ChannelVariant>>,
    /// Channel → where its channel plugin keeps a chat group's tool policy (empty: every
    /// channel reads `channels.<ch>.groups`, as the seed's OpenClaw does).
    pub channel_group_policy: BTreeMap<String, GroupPolicySource>,
    /// Parameters a tool has only while another tool is visible (tool → property → tool).
    pub property_requires: BTreeMap<String, BTreeMap<String, String>>,
    /// Whether the Claude Code parameter aliases (`file_path` ...) are added to schemas (the
    /// seeds'; today's OpenClaw sends schemas as they are).
    pub param_aliases: bool,
    /// Tools `/tools/invoke` refuses unless `gateway.tools.allow` names them.
    pub gateway_http_deny: Vec<String>,
    /// What the version's exec treats as safe without an allowlist entry; None: the pack does
    /// not say (the seed, packs captured before it was read), and 2026.9.6's apply.
    pub exec: Option<crate::exec_allowlist::ExecVersionFacts>,
    /// How a gateway's `tools.effective` differs from a run's tools.
    pub gateway_effective: GatewayEffectiveRules,
    /// The Tooling section of the system prompt as this version writes it, when captured.
    pub tooling_prompt: Option<String>,
    /// Bundled plugin id (lower case) → its tools, for plugins off until the config turns them
    /// on; the registry holds them only then (see [`Semantics::plugins_turned_on`]).
    pub plugins_off_by_default: BTreeMap<String, Vec<ToolSpec>>,
    /// Bundled provider plugins whose credential brings a media tool (see `media`).
    pub media_credentials: Vec<MediaCredential>,
    /// A media tool's description when a key, not a named model, brings it.
    pub media_credential_descriptions: BTreeMap<String, String>,
    /// video_generate's form with audio references and the providers that bring it.
    pub video_audio: Option<VideoAudioReferences>,
    /// Bundled plugins' model providers and their credentials' variables (see `media`).
    pub provider_credentials: Vec<ProviderCredential>,
    /// Provider ids whose stored auth profiles are filed under another (`x-ai` → `xai`).
    pub provider_auth_aliases: BTreeMap<String, String>,
    /// The tools a model that takes images brings, as they are sent then (see `vision`).
    pub vision_model_tools: BTreeMap<String, VisionTool>,
    /// xAI's remote tools and what brings them (packs without them: none).
    pub xai_tools: Option<XaiTools>,
    /// The tools only some gateway turns have (see `host_tools`); none for packs without them.
    pub host_tools: HostTools,
    /// What a heartbeat's turn gets (see `heartbeat`); none for packs without it.
    pub heartbeat_turn: Option<HeartbeatTurn>,
    /// What a scheduled job's turn gets (see `scheduled`); none for packs without it.
    pub scheduled_turn: Option<ScheduledTurn>,
    /// The tools a gateway client's capabilities decide, and what its clients declare (see
    /// `client_caps`).
    pub client_capabilities: ClientCapabilities,
    /// Who OpenClaw entitles to manage automations, and the form it gives the tool then (see
    /// `automation_management`); none for packs without it.
    pub automation_management: Option<AutomationManagement>,
    /// Swarm globals' default, the tools they bring and the forms they change (see `swarm`).
    pub swarm: Option<SwarmRules>,
    /// A spawned subagent's envelope, rendered by the release's builder (`1:spawn`, `1:leaf`,
    /// `2:spawn`, `2:leaf`: the child's depth and whether it may spawn); none for packs
    /// without it.
    pub subagent_envelope: BTreeMap<String, String>,
    /// The channel a turn the gateway's `agent` method starts without one runs in (2026.8:
    /// `webchat`; 2026.9: none), which a subagent it spawns takes as its requester's.
    pub gateway_agent_turn_channel: Option<String>,
    /// When Code Mode engages and what it sends (see `code_mode`); none for packs without it.
    pub code_mode: Option<CodeModeRules>,
    /// Provider id → model id → what it takes, from the manifests' model catalogs (see
    /// `vision`).
    pub catalog_model_inputs: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// The id a model reference normalizes to, and the anthropic plugin's newer-Claude image
    /// rule (see `model_rules`).
    pub model_rules: ModelRules,
}

impl Semantics {
    /// Parses a pack file's text; `origin` names it in errors.
    pub(crate) fn from_pack_text(text: &str, origin: &str) -> Result<Semantics, String> {
        let file: pack::PackFile =
            serde_json::from_str(text).map_err(|err| format!("{origin}: {err}"))?;
        file.into_semantics(clawdeck_tools())
            .map_err(|err| format!("{origin}: {err}"))
    }

    /// Members of a static group.
    pub(crate) fn group(&self, name: &str) -> Option<&[String]> {
        self.groups
            .iter()
            .find(|(group, _)| group == name)
            .map(|(_, members)| members.as_slice())
    }

    /// The static groups a tool belongs to, in the version's order.
    pub(crate) fn groups_of(&self, tool: &str) -> Vec<String> {
        self.groups
            .iter()
            .filter(|(_, members)| members.iter().any(|m| m == tool))
            .map(|(group, _)| group.clone())
            .collect()
    }

    /// The profile's allowlist: `Some(None)` is a known profile without restriction, `None` an
    /// unknown profile.
    pub(crate) fn profile(&self, id: &str) -> Option<Option<&[String]>> {
        self.profiles
            .get(&id.trim().to_lowercase())
            .map(|members| members.as_deref())
    }

    /// The canonical name of an alias, if `name` is one.
    pub(crate) fn alias_target(&self, name: &str) -> Option<&str> {
        self.aliases.get(name).map(String::as_str)
    }

    /// The condition that brings a tool this version has but its default run lacks.
    pub(crate) fn conditional(&self, name: &str) -> Option<&str> {
        self.conditional_tools
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, why)| why.as_str())
    }

    /// The forms of the tools the default run lacks that `named` picks, as the pack holds
    /// them; those `already` names are left out (what a registry adds for a condition).
    pub(crate) fn conditional_specs_named(
        &self,
        named: impl Fn(&str) -> bool,
        already: &[String],
    ) -> Vec<ToolSpec> {
        self.conditional_specs
            .iter()
            .filter(|spec| named(&spec.name) && !already.contains(&spec.name))
            .cloned()
            .collect()
    }

    /// The off-by-default plugins `raw` (the OpenClaw config) turns on: as OpenClaw's plugin
    /// activation does for a bundled plugin, `plugins.entries.<id>.enabled: true`, or
    /// `plugins.slots.memory` / `contextEngine` naming it. Whether the plugin then loads
    /// (`plugins.enabled`, `deny`, `allow`) is the plugin switches' question.
    pub fn plugins_turned_on(&self, raw: &Value) -> Vec<&str> {
        self.plugins_off_by_default
            .keys()
            .map(String::as_str)
            .filter(|id| switches::PluginSwitches::turned_on(raw, id))
            .collect()
    }

    /// Whether this is the seeds' design.
    pub(crate) fn is_seed(&self) -> bool {
        self.id == SEED
    }
}

/// clawdeck's own tools, from the embedded asset (checked by a unit test).
pub(crate) fn clawdeck_tools() -> Vec<ToolSpec> {
    #[derive(Deserialize)]
    struct File {
        tools: Vec<ToolSpec>,
    }
    match serde_json::from_str::<File>(CLAWDECK_TOOLS_JSON) {
        Ok(file) => file.tools,
        Err(err) => {
            tracing::error!("assets/openclaw/clawdeck-tools.json is invalid: {err}");
            Vec::new()
        }
    }
}

/// An embedded pack by id, parsed once per process.
pub fn embedded(id: &str) -> Option<Arc<Semantics>> {
    use std::sync::OnceLock;
    // Each pack is parsed the first time it is asked for: a command needs one, and parsing
    // every embedded pack cost a cold command its time and memory.
    static PARSED: [OnceLock<Option<Arc<Semantics>>>; EMBEDDED_PACKS.len()] =
        [const { OnceLock::new() }; EMBEDDED_PACKS.len()];
    let index = EMBEDDED_PACKS.iter().position(|(k, _)| *k == id)?;
    let (id, text) = EMBEDDED_PACKS[index];
    PARSED[index]
        .get_or_init(|| {
            match Semantics::from_pack_text(text, &format!("assets/openclaw/{id}.json")) {
                Ok(s) => Some(Arc::new(s)),
                Err(err) => {
                    tracing::error!("{err}");
                    None
                }
            }
        })
        .clone()
}

/// The newest embedded pack (the default when nothing says otherwise).
pub fn newest() -> Arc<Semantics> {
    EMBEDDED_PACKS
        .iter()
        .rev()
        .find_map(|(id, _)| embedded(id))
        .unwrap_or_else(|| {
            Arc::new(Semantics {
                id: "none".into(),
                captured_from: String::new(),
                tools: clawdeck_tools(),
                groups: Vec::new(),
                profiles: BTreeMap::new(),
                default_profile: None,
                profile_values: None,
                aliases: BTreeMap::new(),
                apply_patch_follows: "exec".into(),
                unknown_only_allowlist: UnknownOnlyAllowlist::Strip,
                no_tools_error: None,
                non_owner_deny: Vec::new(),
                subagent: SubagentRules::default(),
                sandbox: SandboxDefaults::default(),
                implicit_also_allow: BTreeMap::new(),
                tool_search: None,
                gateway_http_deny: Vec::new(),
                exec: None,
                gateway_effective: GatewayEffectiveRules::default(),
                sender_layer: false,
                sender_owner_needs_allowlist: false,
                direct_chat_policy: false,
                plugin_tools_need_selection: false,
                plugin_allowlist_patterns: true,
                creator_channel_from_turn: true,
                channel_keys_case_sensitive: Vec::new(),
                switches: switches::ToolSwitches::default(),
                conditional_tools: Vec::new(),
                conditional_specs: Vec::new(),
                family_expansions: BTreeMap::new(),
                primary_session_only: Vec::new(),
                tooling_rule: None,
                prompt_summaries: BTreeMap::new(),
                param_aliases: false,
                description_fragments: BTreeMap::new(),
                session_visibility: None,
                gateway_config_reads: None,
                schema_variants: BTreeMap::new(),
                property_requires: BTreeMap::new(),
                channel_variants: BTreeMap::new(),
                channel_group_policy: BTreeMap::new(),
                tooling_prompt: None,
                plugins_off_by_default: BTreeMap::new(),
                media_credentials: Vec::new(),
                media_credential_descriptions: BTreeMap::new(),
                provider_credentials: Vec::new(),
                provider_auth_aliases: BTreeMap::new(),
                video_audio: None,
                vision_model_tools: BTreeMap::new(),
                xai_tools: None,
                host_tools: HostTools::default(),
                heartbeat_turn: None,
                scheduled_turn: None,
                client_capabilities: ClientCapabilities::default(),
                automation_management: None,
                swarm: None,
                subagent_envelope: BTreeMap::new(),
                gateway_agent_turn_channel: None,
                code_mode: None,
                catalog_model_inputs: BTreeMap::new(),
                model_rules: ModelRules::default(),
            })
        })
}

/// The seed pack.
pub fn seed() -> Arc<Semantics> {
    embedded(SEED).unwrap_or_else(newest)
}

/// Where a channel plugin keeps a chat group's tool policy (OpenClaw's
/// `plugin.groups.resolveToolPolicy`; `channels.<ch>.groups` when it has none or it finds none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GroupPolicySource {
    /// `channels.<ch>.groups.<id>`, else `"*"` (Telegram, WhatsApp, iMessage, Signal, ...).
    Groups,
    /// Slack's `channels.slack.channels.<id>` (the id as given, lower-, upper-cased, with
    /// `channel:`), else `"*"`; one entry, no fallback.
    SlackChannels,
    /// Discord's `channels.discord.guilds.<guild>` and its `channels.<id>`.
    DiscordGuilds,
    /// Matrix's `channels.matrix.groups` (else `rooms`) `<room>` / `room:<room>`, else `"*"`;
    /// `tools` only.
    MatrixRooms,
    /// Telegram's own reader: a forum topic's policy is its chat's (`X:topic:T` → `X`), then
    /// `"*"`, in `channels.telegram.groups`.
    TelegramGroups,
    /// Feishu's `channels.feishu.groups` (never an account's): the id exactly, else
    /// case-insensitively, else `"*"`; `tools` only.
    FeishuGroups,
    /// IRC's `groups` (an account's replaces the channel's): the `#channel` exactly, else
    /// case-insensitively; its `tools`, else `"*"`'s.
    IrcGroups,
    /// Microsoft Teams' `channels.msteams.teams.<team>.channels.<conversation>`, then the team.
    MsteamsTeams,
    /// Nextcloud Talk's `rooms` (an account's replaces the channel's): the room token exactly,
    /// else by slug; its `tools`, else `"*"`'s.
    NextcloudTalkRooms,
    /// Zalo Personal's `groups` (an account's replaces the channel's): the id exactly, else
    /// `"*"`; one entry's `tools`.
    ZalouserGroups,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_releases_pack_says_what_its_exec_treats_as_safe() {
        for id in ["2026.9", "2026.8"] {
            let facts = embedded(id)
                .and_then(|s| s.exec.clone())
                .unwrap_or_else(|| panic!("{id}: no exec facts"));
            assert!(facts.default_safe_bins.contains(&"wc".to_string()), "{id}");
            assert!(facts.safe_builtins.contains(&"cd".to_string()), "{id}");
        }
        assert_eq!(embedded("seed").and_then(|s| s.exec.clone()), None);
    }

    #[test]
    fn every_embedded_pack_parses_and_keeps_clawdecks_tools() {
        for (id, text) in EMBEDDED_PACKS {
            let s = Semantics::from_pack_text(text, id).unwrap();
            assert_eq!(&s.id, id);
            for own in [
                "clawbot_router",
                "system_volume_control",
                "start_app",
                "open_website",
            ] {
                assert!(s.tools.iter().any(|t| t.name == own), "{id} lacks {own}");
            }
            let mut names: Vec<&str> = s.tools.iter().map(|t| t.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), s.tools.len(), "{id}: a tool is listed twice");
        }
    }

    #[test]
    fn seed_pack_is_the_seeds_design() {
        let s = seed();
        assert_eq!(s.tools.len(), 29);
        assert_eq!(s.apply_patch_follows, "exec");
        assert_eq!(s.unknown_only_allowlist, UnknownOnlyAllowlist::Strip);
        assert_eq!(
            s.group("group:fs").unwrap(),
            &["read", "write", "edit", "apply_patch"]
        );
        assert_eq!(s.groups_of("browser"), vec!["group:ui", "group:openclaw"]);
        assert_eq!(s.group("group:openclaw").map(|m| m.len()), Some(17));
        assert_eq!(
            s.profile("minimal"),
            Some(Some(&["session_status".to_string()][..]))
        );
        assert_eq!(s.profile("full"), Some(None));
        assert_eq!(s.profile("nope"), None);
        assert_eq!(s.alias_target("bash"), Some("exec"));
    }
}
