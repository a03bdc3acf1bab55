//! The parts of OpenClaw's own config (`openclaw.json`, JSON5) that clawdeck interprets: tool
//! policy, agents, channel groups, sandbox, owners, providers and plugin paths. Every other
//! OpenClaw section is accepted as opaque data so a real config loads without noise.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The typed view of an OpenClaw config. Field names follow OpenClaw (camelCase in the file).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OpenClawConfig {
    pub tools: ToolsConfig,
    pub agents: AgentsConfig,
    pub channels: BTreeMap<String, ChannelConfig>,
    pub models: ModelsConfig,
    pub plugins: PluginsConfig,
    pub commands: CommandsConfig,
    // Sections OpenClaw knows that clawdeck does not interpret (kept so they never warn).
    #[serde(rename = "$schema")]
    pub schema: Option<Value>,
    pub meta: Option<Value>,
    pub env: Option<Value>,
    pub wizard: Option<Value>,
    pub diagnostics: Option<Value>,
    pub logging: Option<Value>,
    pub update: Option<Value>,
    pub telemetry: Option<Value>,
    pub browser: Option<Value>,
    pub ui: Option<Value>,
    pub secrets: Option<Value>,
    pub auth: Option<Value>,
    pub access_groups: Option<Value>,
    pub acp: Option<Value>,
    pub node_host: Option<Value>,
    pub worktree_root: Option<Value>,
    pub worktree_acceleration: Option<Value>,
    pub security: Option<Value>,
    pub bindings: Option<Value>,
    pub broadcast: Option<Value>,
    pub attachments: Option<Value>,
    pub messages: Option<Value>,
    pub tts: Option<Value>,
    pub approvals: Option<Value>,
    pub session: Option<Value>,
    pub cron: Option<Value>,
    pub transcripts: Option<Value>,
    pub hooks: Option<Value>,
    pub discovery: Option<Value>,
    pub talk: Option<Value>,
    pub gateway: Option<Value>,
    pub cloud_workers: Option<Value>,
    pub desktop: Option<Value>,
    pub memory: Option<Value>,
    pub mcp: Option<Value>,
    pub skills: Option<Value>,
    pub surfaces: Option<Value>,
    pub proxy: Option<Value>,
    // Older OpenClaw sections still found in configs.
    pub web: Option<Value>,
    pub canvas_host: Option<Value>,
    pub audio: Option<Value>,
    pub identity: Option<Value>,
}

/// One `{allow, alsoAllow, deny}` policy. `None` and `Some(vec![])` differ: an explicit empty
/// sandbox allow list means "allow all", an absent one means "use the defaults".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ToolPolicyConfig {
    pub allow: Option<Vec<String>>,
    pub also_allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
}

/// `tools.byProvider.<key>`: a policy that may also carry its own profile.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ProviderPolicyConfig {
    pub profile: Option<String>,
    pub allow: Option<Vec<String>>,
    pub also_allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
}

/// `tools.sandbox` / `agents.<id>.tools.sandbox`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SandboxToolsConfig {
    pub tools: Option<ToolPolicyConfig>,
}

/// `tools.subagents`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubagentToolsConfig {
    pub tools: Option<ToolPolicyConfig>,
    pub model: Option<Value>,
    pub max_concurrent: Option<Value>,
}

/// The top-level `tools` section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ToolsConfig {
    pub profile: Option<String>,
    pub allow: Option<Vec<String>>,
    pub also_allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
    pub by_provider: BTreeMap<String, ProviderPolicyConfig>,
    pub sandbox: Option<SandboxToolsConfig>,
    pub subagents: Option<SubagentToolsConfig>,
    pub elevated: Option<Value>,
    pub exec: Option<Value>,
    pub fs: Option<Value>,
    pub tools_by_sender: Option<Value>,
    pub web: Option<Value>,
    pub github: Option<Value>,
    pub media: Option<Value>,
    pub links: Option<Value>,
    pub sessions: Option<Value>,
    pub loop_detection: Option<Value>,
    pub tool_search: Option<Value>,
    pub code_mode: Option<Value>,
    pub swarm: Option<Value>,
    pub message: Option<Value>,
    pub agent_to_agent: Option<Value>,
    pub update_plan: Option<Value>,
}

/// `agents.list[].tools` / `agents.entries.<id>.tools`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AgentToolsConfig {
    pub profile: Option<String>,
    pub allow: Option<Vec<String>>,
    pub also_allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
    pub by_provider: BTreeMap<String, ProviderPolicyConfig>,
    pub sandbox: Option<SandboxToolsConfig>,
    pub elevated: Option<Value>,
    pub exec: Option<Value>,
    pub fs: Option<Value>,
    pub tools_by_sender: Option<Value>,
    pub code_mode: Option<Value>,
    pub swarm: Option<Value>,
    pub github: Option<Value>,
    pub loop_detection: Option<Value>,
    pub message: Option<Value>,
}

/// Sandbox settings (`agents.defaults.sandbox`, `agents.list[].sandbox`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SandboxConfig {
    /// `off` (default) | `non-main` | `all`.
    pub mode: Option<String>,
    /// `session` | `agent` (default) | `shared`.
    pub scope: Option<String>,
    /// `none` (default) | `ro` | `rw`.
    pub workspace_access: Option<String>,
    pub backend: Option<Value>,
    pub session_tools_visibility: Option<Value>,
    pub workspace_root: Option<Value>,
    pub docker: Option<Value>,
    pub ssh: Option<Value>,
    pub browser: Option<Value>,
    pub prune: Option<Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AgentsConfig {
    pub defaults: AgentDefaults,
    /// Older form: a list of agents with `id`.
    pub list: Vec<AgentEntry>,
    /// Newer form: agents keyed by id.
    pub entries: BTreeMap<String, AgentEntry>,
    pub ownership: Option<Value>,
}

/// `agents.defaults`: only the keys clawdeck reads are typed; the rest is tolerated.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AgentDefaults {
    pub sandbox: Option<SandboxConfig>,
    pub workspace: Option<String>,
    pub model: Option<Value>,
    pub max_concurrent: Option<u64>,
    pub subagents: Option<Value>,
}

/// One agent, from `agents.list[]` (with `id`) or `agents.entries.<id>`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AgentEntry {
    pub id: Option<String>,
    /// Where the agent keeps its own state (its auth profiles): `<state>/agents/<id>/agent`
    /// when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_dir: Option<String>,
    pub default: Option<bool>,
    pub name: Option<String>,
    pub workspace: Option<String>,
    pub model: Option<Value>,
    pub tools: Option<AgentToolsConfig>,
    pub sandbox: Option<SandboxConfig>,
    pub subagents: Option<Value>,
}

/// A channel (`channels.<ch>`): only groups and accounts matter to clawdeck.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChannelConfig {
    pub groups: Option<BTreeMap<String, GroupConfig>>,
    /// Direct chats by chat id (`*` = every direct chat): their `tools` / `toolsBySender`.
    pub direct: Option<BTreeMap<String, GroupConfig>>,
    pub accounts: BTreeMap<String, ChannelAccountConfig>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChannelAccountConfig {
    pub groups: Option<BTreeMap<String, GroupConfig>>,
    pub direct: Option<BTreeMap<String, GroupConfig>>,
}

/// One group entry (`channels.<ch>.groups.<id>`, `"*"` = every group).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GroupConfig {
    pub tools: Option<ToolPolicyConfig>,
    /// Sender key (`id:`, `e164:`, `username:`, `name:`, `*`, or untyped = id) → policy.
    pub tools_by_sender: BTreeMap<String, ToolPolicyConfig>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ModelsConfig {
    pub providers: BTreeMap<String, ModelProviderConfig>,
    pub mode: Option<Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ModelProviderConfig {
    pub models: Vec<ModelEntry>,
}

/// A model under `models.providers.<p>.models[]`: a bare id string or `{id, ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ModelEntry {
    Id(String),
    Object {
        id: String,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    },
}

impl ModelEntry {
    pub fn id(&self) -> &str {
        match self {
            ModelEntry::Id(id) => id,
            ModelEntry::Object { id, .. } => id,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginsConfig {
    pub load: PluginLoadConfig,
    pub enabled: Option<Value>,
    pub allow: Option<Value>,
    pub deny: Option<Value>,
    pub entries: Option<Value>,
    pub slots: Option<Value>,
    pub installs: Option<Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginLoadConfig {
    /// Plugin directories (each holds `openclaw.plugin.json`, or children that do).
    pub paths: Vec<String>,
}

/// `commands`: clawdeck reads the owner list only.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CommandsConfig {
    /// Owner senders: `"<channel>:<id>"` or a bare id.
    pub owner_allow_from: Option<Vec<Value>>,
}
