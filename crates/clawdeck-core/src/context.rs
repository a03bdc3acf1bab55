//! Who is asking: the context every policy decision and every call is made for.

use serde::{Deserialize, Serialize};

/// The context of a tool listing or call (seed 001 §3.3–§3.6). Every field is optional so that a
/// bare context means "the default agent, talking directly to its owner".
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyContext {
    /// Agent id (`agents.list[].id` or an `agents.entries` key); the default agent when absent.
    pub agent: Option<String>,
    /// Model provider id (`openai`, `anthropic`, `google`, ...).
    pub provider: Option<String>,
    /// Model id (`gpt-5`, or `anthropic/claude-opus-4`).
    pub model: Option<String>,
    /// Messaging channel (`telegram`, `discord`, `whatsapp`, ...).
    pub channel: Option<String>,
    /// Channel account id (`channels.<ch>.accounts.<acct>`).
    pub account: Option<String>,
    /// Group or chat id within the channel.
    pub group: Option<String>,
    #[serde(alias = "senderId")]
    pub sender_id: Option<String>,
    #[serde(alias = "senderE164")]
    pub sender_e164: Option<String>,
    #[serde(alias = "senderUsername")]
    pub sender_username: Option<String>,
    #[serde(alias = "senderName")]
    pub sender_name: Option<String>,
    /// Whether the sender is an owner; owner-only tools are removed otherwise. Defaults to true
    /// (an operator at the console is the owner).
    pub owner: Option<bool>,
    /// Session key; `subagent:` keys make the context a subagent.
    #[serde(alias = "sessionKey")]
    pub session_key: Option<String>,
    /// Forces the subagent layer on.
    pub subagent: bool,
    /// Spawn depth of a subagent session (1: spawned by a main session). A subagent at
    /// `maxSpawnDepth` is a leaf and loses the spawning tools (today's OpenClaw).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "subagentDepth")]
    pub subagent_depth: Option<u32>,
    /// Forces the sandbox layer on.
    pub sandboxed: bool,
    /// The caller is a remote agent (a clawBot reaching back); local system tools are never offered.
    pub remote: bool,
}

impl PolicyContext {
    /// A spawn depth makes the context a subagent's (flags and config entries may give only
    /// the depth).
    pub fn with_depth_implying_subagent(mut self) -> PolicyContext {
        self.subagent = self.subagent || self.subagent_depth.is_some();
        self
    }

    pub fn is_owner(&self) -> bool {
        self.owner.unwrap_or(true)
    }
}
