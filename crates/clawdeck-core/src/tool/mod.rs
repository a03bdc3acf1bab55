//! The define layer: what a tool is, what it returns, and how it fails.
//!
//! A tool is data (`ToolSpec`) plus behaviour (`Tool::execute`). The policy engine and the
//! provider exports only ever look at specs; only the execution pipeline calls `execute`.

pub mod params;
pub mod result;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use result::{ContentBlock, ToolResult};

/// A boxed, sendable future; tools are called through `dyn Tool`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where a tool comes from (seed 001 §2.1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSource {
    /// OpenClaw's coding and platform tools.
    Core,
    /// Tools OpenClaw builds at run time (exec, process, apply_patch) and clawdeck's local ones.
    Runtime,
    /// Tools a messaging channel contributes (whatsapp_login, ...).
    Channel { channel: String },
    /// Tools a plugin declares; an MCP server's tools (plugin `bundle-mcp`) also name their
    /// server (its provider-safe name, as OpenClaw's catalog keeps it); a tool a paired node
    /// published names its node (and its MCP server, plugin `node-mcp`).
    Plugin {
        plugin_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<NodeRef>,
    },
    /// Tools that do their work on a remote OpenClaw (clawbot_router).
    Remote,
}

/// The plugin id OpenClaw gives every MCP server tool (`bundle-mcp` in allow and deny lists).
pub const BUNDLE_MCP: &str = "bundle-mcp";

/// A paired node, as a tool it published names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NodeRef {
    pub id: String,
    /// Its display name, else its id (what OpenClaw's descriptions call it).
    pub label: String,
}

impl ToolSource {
    /// Short name used in tables and JSON (`core`, `runtime`, `channel`, `plugin`, `remote`).
    pub fn kind(&self) -> &'static str {
        match self {
            ToolSource::Core => "core",
            ToolSource::Runtime => "runtime",
            ToolSource::Channel { .. } => "channel",
            ToolSource::Plugin { .. } => "plugin",
            ToolSource::Remote => "remote",
        }
    }

    pub fn plugin_id(&self) -> Option<&str> {
        match self {
            ToolSource::Plugin { plugin_id, .. } => Some(plugin_id),
            _ => None,
        }
    }

    /// A plugin's tool.
    pub fn plugin(plugin_id: impl Into<String>) -> ToolSource {
        ToolSource::Plugin {
            plugin_id: plugin_id.into(),
            mcp_server: None,
            node: None,
        }
    }

    /// The node that published the tool (a paired node's tool, not one of this gateway's).
    pub fn node(&self) -> Option<&NodeRef> {
        match self {
            ToolSource::Plugin { node, .. } => node.as_ref(),
            _ => None,
        }
    }

    /// A tool OpenClaw classifies as an MCP tool (an `mcp.servers` tool, a node host's MCP
    /// server tool): Tool Search finds it, its directory only counts it.
    pub fn is_mcp(&self) -> bool {
        match self {
            ToolSource::Plugin {
                plugin_id,
                mcp_server,
                ..
            } => plugin_id == BUNDLE_MCP || mcp_server.is_some(),
            _ => false,
        }
    }

    /// The MCP server (its safe name) an MCP server tool comes from.
    pub fn mcp_server(&self) -> Option<&str> {
        match self {
            ToolSource::Plugin { mcp_server, .. } => mcp_server.as_deref(),
            _ => None,
        }
    }
}

/// Properties the pipeline must respect regardless of policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolFlags {
    /// Removed for non-owner senders before the policy chain (seed 001 §3.6).
    pub owner_only: bool,
    /// Touches this computer directly (seed 000 §1): never offered to remote or subagent contexts.
    pub local_system: bool,
    /// Only runs inside a real OpenClaw (or through its gateway); clawdeck cannot run it locally.
    pub openclaw_only: bool,
    /// Its parameter schema is not known to clawdeck (a plugin tool named only by its manifest's
    /// `contracts.tools`): the schema shown is a placeholder.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub schema_unknown: bool,
    /// A plugin tool its manifest marks optional (`toolMetadata.<tool>.optional`): OpenClaw
    /// builds it only when an allowlist selects it (its name, its plugin, `group:plugins` or
    /// `*`), never as a default.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

/// Everything about a tool except how to run it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Identifier used by policy matching and by the LLM (snake_case).
    pub name: String,
    /// Human-readable name.
    pub label: String,
    /// What the LLM reads to decide whether to call it.
    pub description: String,
    /// One-line summary for the system prompt's Tooling section.
    #[serde(default)]
    pub summary: String,
    /// Display emoji (OpenClaw's tool-display data); `🧩` when unknown.
    #[serde(default = "default_emoji")]
    pub emoji: String,
    /// JSON Schema of the parameters (a top-level object).
    pub parameters: Value,
    pub source: ToolSource,
    #[serde(default)]
    pub flags: ToolFlags,
}

fn default_emoji() -> String {
    "🧩".to_string()
}

/// Progress updates a running tool may publish (seed 001 §1.1 `onUpdate`).
impl ToolSpec {
    /// clawdeck's own tools (clawbot_router, seed 000's local system tools): in every pack, never
    /// in OpenClaw's own catalog.
    pub(crate) fn is_clawdecks(&self) -> bool {
        self.source == ToolSource::Remote || self.flags.local_system
    }
}

pub type ProgressSink = Arc<dyn Fn(ToolResult) + Send + Sync>;

/// One call of a tool.
#[derive(Clone)]
pub struct ToolCall {
    /// Unique id of this call (the LLM's tool-call id).
    pub call_id: String,
    /// Parameters, already validated against the schema by the adapter.
    pub params: Value,
    /// Fires when the caller or the run is cancelled.
    pub cancel: CancellationToken,
    /// Receives partial results.
    pub progress: ProgressSink,
}

impl ToolCall {
    /// A call with no progress listener and a fresh cancellation token.
    pub fn new(call_id: impl Into<String>, params: Value) -> Self {
        ToolCall {
            call_id: call_id.into(),
            params,
            cancel: CancellationToken::new(),
            progress: Arc::new(|_| {}),
        }
    }
}

/// How a tool call fails. Input and authorization errors carry HTTP-like codes so that the
/// headless commands and the gateway client can report them the way OpenClaw does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// Bad parameters (400).
    #[error("{0}")]
    Input(String),
    /// The caller may not use this tool (403).
    #[error("{0}")]
    Unauthorized(String),
    /// The call was cancelled; never turned into an error result (seed 001 §4.5).
    #[error("cancelled")]
    Cancelled,
    /// Anything else that went wrong while running.
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    pub(crate) fn input(msg: impl Into<String>) -> Self {
        ToolError::Input(msg.into())
    }
    pub fn failed(msg: impl Into<String>) -> Self {
        ToolError::Failed(msg.into())
    }
    #[cfg(test)]
    /// HTTP-like status code: 400, 403, 499 (cancelled) or 500.
    pub(crate) fn status_code(&self) -> u16 {
        match self {
            ToolError::Input(_) => 400,
            ToolError::Unauthorized(_) => 403,
            ToolError::Cancelled => 499,
            ToolError::Failed(_) => 500,
        }
    }
}

/// A tool that can run.
pub trait Tool: Send + Sync {
    fn spec(&self) -> &ToolSpec;
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>>;
}

/// A shareable tool handle.
pub type SharedTool = Arc<dyn Tool>;
