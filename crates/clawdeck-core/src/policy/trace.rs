//! What the engine returns: for every tool and every layer, skipped / kept / removed, with the
//! rule that decided it. The CLI prints it, the console renders it; nothing recomputes policy.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use super::layer::LayerId;
use crate::context::PolicyContext;

/// How a switched-off tool's rule begins (`absent: tools.web.search.enabled is false`).
pub(crate) const ABSENT: &str = "absent: ";

/// Shared, immutable text: a layer's label or a reason is written once per layer or rule and
/// shared by every tool's trace instead of being copied ten thousand times. A thin pointer
/// (`Arc<String>`, not `Arc<str>`): every layer decision holds two, and a resolution holds
/// ten thousand decisions, so eight bytes less each is a smaller resolution to build and free.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedText(Arc<String>);

impl SharedText {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // pad, not write_str: tables align labels with `{:<width$}`.
        f.pad(&self.0)
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<String> for SharedText {
    fn from(s: String) -> Self {
        SharedText(Arc::new(s))
    }
}

impl From<&str> for SharedText {
    fn from(s: &str) -> Self {
        SharedText(Arc::new(s.to_string()))
    }
}

impl From<SharedText> for String {
    fn from(s: SharedText) -> Self {
        Arc::unwrap_or_clone(s.0)
    }
}

impl<'a> From<SharedText> for Cow<'a, str> {
    fn from(s: SharedText) -> Self {
        Cow::Owned(Arc::unwrap_or_clone(s.0))
    }
}

impl PartialEq<str> for SharedText {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<&str> for SharedText {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

impl Serialize for SharedText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The layer does not apply in this context.
    Skipped,
    Kept,
    Removed,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Skipped => "skipped",
            Decision::Kept => "kept",
            Decision::Removed => "removed",
        }
    }
}

/// The rule behind a decision: the pattern as written, the group it expanded from, and where it
/// is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleRef {
    /// The entry as written (`"group:fs"`, `"exec"`, `"sessions_*"`); `null` for "not in the
    /// allowlist".
    pub pattern: Option<String>,
    /// The group or plugin id the matching name came from.
    pub expanded_from: Option<String>,
    /// Config key path of the entry (or of the allowlist); `null` for built-in rules.
    pub config_path: Option<String>,
    /// For built-in rules: which one (`default subagent deny list`).
    pub builtin: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RemovalKind {
    /// A deny entry matched.
    Denied,
    /// The layer has an allowlist and nothing in it matched.
    NotAllowed,
}

/// Why a tool is hidden: the first layer that removed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Removal {
    pub layer: LayerId,
    pub kind: RemovalKind,
    pub pattern: Option<String>,
    pub expanded_from: Option<String>,
    pub config_path: Option<String>,
    pub builtin: Option<String>,
    /// One sentence for people.
    pub reason: String,
}

impl Removal {
    /// What switched the tool off, when a config switch keeps OpenClaw from building it at all
    /// (`tools.web.search.enabled is false`).
    pub fn switched_off(&self) -> Option<&str> {
        self.builtin.as_deref().and_then(|b| b.strip_prefix(ABSENT))
    }

    /// `Layer: reason [config.path]` (the path only when the reason does not already name it).
    pub fn rule_text(&self) -> String {
        let mut text = format!("{}: {}", self.layer.title(), self.reason);
        if let Some(path) = &self.config_path
            && !self.reason.contains(path.as_str())
        {
            text.push_str(&format!(" [{path}]"));
        }
        text
    }
}

/// One tool at one layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LayerDecision {
    pub id: LayerId,
    pub label: SharedText,
    pub decision: Decision,
    /// False when an earlier layer already removed the tool (the decision is still computed, so
    /// the table shows every layer that would hide it).
    pub reached: bool,
    /// The rule that decided (the deny entry, the allow entry, or the allowlist that missed).
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub rule: Option<Arc<RuleRef>>,
    pub reason: SharedText,
}

/// One tool's path through the layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolTrace {
    #[serde(rename = "tool")]
    pub name: String,
    /// `core`, `runtime`, `channel`, `plugin`, `remote`.
    pub source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin_id: Option<String>,
    /// The paired node that published it (the gateway's node.list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<crate::tool::NodeRef>,
    /// Shared with the registry (one copy per tool, not per resolution).
    #[serde(rename = "group")]
    pub groups: Arc<[String]>,
    pub visible: bool,
    pub removed_by: Option<Removal>,
    #[serde(rename = "layers")]
    pub decisions: Vec<LayerDecision>,
    /// One of clawdeck's own tools (clawbot_router, the local system tools): never in
    /// OpenClaw's catalog, so left out of comparisons with a real OpenClaw.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub clawdeck_own: bool,
    /// How calls go once visible (exec approvals and host, HTTP invocation).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<super::call_notes::CallNote>,
    /// What brought a tool OpenClaw builds only when something does (a media model, a key, a
    /// model that takes images), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub built_because: Option<String>,
}

impl ToolTrace {
    /// `plugin <id>` for plugin tools, `clawdeck's own <kind>` for clawdeck's (OpenClaw never
    /// has them), else the source kind (`core`, `runtime`, ...).
    pub fn source_label(&self) -> String {
        match &self.plugin_id {
            Some(id) => format!("plugin {id}"),
            None if self.clawdeck_own => format!("clawdeck's own {}", self.source),
            None => self.source.to_string(),
        }
    }

    /// Who the tool belongs to: `openclaw`, or `clawdeck` for clawdeck's own.
    pub fn owner(&self) -> &'static str {
        if self.clawdeck_own {
            "clawdeck"
        } else {
            "openclaw"
        }
    }

    pub fn decision(&self, layer: LayerId) -> Option<&LayerDecision> {
        self.decisions.iter().find(|d| d.id == layer)
    }
}

/// One layer as a whole, for the layer list of the console and the header of tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LayerSummary {
    pub id: LayerId,
    pub label: String,
    pub present: bool,
    /// Config object the layer comes from.
    pub source_path: Option<String>,
    /// Allow entries as written (`null`: no allowlist, after plugin-only stripping).
    pub allow: Option<Vec<String>>,
    pub deny: Vec<String>,
    /// Why the layer applies or not, where its settings come from.
    pub note: String,
    /// Tools this layer removed first.
    pub removed: usize,
}

/// A warning tied to its layer (or to none: context-level notes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyWarning {
    pub layer: Option<LayerId>,
    pub message: String,
    pub config_path: Option<String>,
}

/// The context as the engine resolved it (defaults filled in, with where they came from).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedContext {
    pub agent: String,
    /// `agents.list[1]`, `agents.entries.ops`, or `null` for the implicit `main`.
    pub agent_path: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    /// Where provider/model came from (`--provider/--model`, `agents.list[1].model`).
    pub model_source: Option<String>,
    /// What the config's `models.providers` entry for that model declares it takes (whether
    /// it takes images decides view_image and computer); unset when it declares nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_input: Option<crate::semantics::ModelInput>,
    /// Whether OpenClaw's Code Mode engages for the run (the model is then sent `exec`, `wait`
    /// and the direct-only tools; the others are called from code); unset for packs without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_mode: Option<crate::semantics::CodeModeActivation>,
    pub owner: bool,
    pub owner_source: String,
    pub subagent: bool,
    pub subagent_source: Option<String>,
    pub sandboxed: bool,
    pub sandbox_source: Option<String>,
    pub remote: bool,
    /// What runs the turn: a local run, a gateway's agent method or its reply to a message.
    pub turn: crate::context::TurnHost,
    /// Where a scheduled job's turn delivers its answer; unset for any other turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery: Option<crate::context::ScheduledDelivery>,
    /// The session of the agent's turn that created the scheduled job, for a job an agent
    /// made; unset for any other turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_owner: Option<String>,
    /// The channel a job an agent made reads its creator's account in, when its creator's
    /// session key names no group (the release says whose: the creator's turn's, or the job's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_owner_channel: Option<String>,
    /// The channel the group and sender policies read (a session key's, else the flag's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The channel the turn came over, when a session key names another one (webchat into a
    /// Telegram group's session).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_channel: Option<String>,
    /// The OpenClaw semantics pack that answered (`seed`, `2026.9`, ...).
    pub openclaw: String,
    /// Why that pack (`--openclaw-version seed`, `installed openclaw 2026.9.6 (...)`).
    pub openclaw_reason: String,
    /// Whether the profiles in force leave the gateway tool its config reads (OpenClaw then
    /// sends its larger schema): no profile restricts, or their alsoAllow names `gateway`.
    #[serde(skip)]
    pub gateway_config_reads: bool,
    /// The turn's reply goes through the message tool (a heartbeat's where
    /// `messages.visibleReplies` says so).
    #[serde(skip)]
    pub message_tool_reply: bool,
    /// The turn keeps the widget tool for pinned dashboard widgets only (a scheduled job's
    /// whose cap names it, outside the job's own session).
    #[serde(skip)]
    pub pinned_widget: bool,
    /// Whether the run's swarm globals are on (`None`: the pack does not model them).
    #[serde(skip)]
    pub swarm: Option<bool>,
}

/// The whole answer for one context.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolution {
    pub context: PolicyContext,
    pub resolved: ResolvedContext,
    pub layers: Vec<LayerSummary>,
    pub tools: Vec<ToolTrace>,
    pub warnings: Vec<PolicyWarning>,
    /// Why the run would be refused (no callable tool left after an explicit allowlist).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

impl Resolution {
    /// The final tool list, in registry order.
    pub fn visible(&self) -> impl Iterator<Item = &ToolTrace> {
        self.tools.iter().filter(|t| t.visible)
    }

    /// What an MCP client is offered (`clawdeck mcp`, `tools --mcp`): the visible tools,
    /// OpenClaw's and clawdeck's own; none when the run is refused, as OpenClaw gives its model
    /// nothing.
    pub fn served(&self) -> impl Iterator<Item = &ToolTrace> {
        self.tools
            .iter()
            .filter(|t| t.visible && self.refusal.is_none())
    }

    pub fn visible_names(&self) -> Vec<&str> {
        self.visible().map(|t| t.name.as_str()).collect()
    }

    /// One tool's trace; the name is normalised (`Bash` finds `exec`).
    pub fn trace(&self, name: &str) -> Option<&ToolTrace> {
        // An MCP server's tool keeps its server's capitals (`Fixture-Files__read`): both sides
        // are normalised (without a copy for a name already normal).
        let wanted = super::normalize::normalized(name);
        self.tools
            .iter()
            .find(|t| super::normalize::normalized(&t.name) == wanted)
    }

    pub fn layer(&self, id: LayerId) -> Option<&LayerSummary> {
        self.layers.iter().find(|l| l.id == id)
    }

    /// Warnings tied to one layer.
    pub fn warnings_for(&self, id: LayerId) -> impl Iterator<Item = &PolicyWarning> {
        self.warnings.iter().filter(move |w| w.layer == Some(id))
    }
}
