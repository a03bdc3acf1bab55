//! clawdeck.json5 `mcp`: which context each MCP client gets, and the HTTP listener's limits.
//! The server that applies them is `clawdeck-mcp`.

use serde::{Deserialize, Deserializer, Serialize};

use crate::context::PolicyContext;

/// clawdeck.json5 `mcp`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct McpSettings {
    /// Per-client contexts, first match wins.
    pub clients: Vec<McpClientEntry>,
    /// The HTTP listener's limits (`mcp --listen`, `--mcp-listen`).
    pub http: McpHttpSettings,
}

/// One entry of `mcp.clients`: how to recognise a client and the context it gets (`context`
/// takes a policy context's keys: `agent`, `channel`, `senderId`, `owner`, `sandboxed`,
/// `subagentDepth`, ...; an unknown key is an error).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct McpClientEntry {
    /// The client's `clientInfo.name` (e.g. `claude-code`, `openclaw`); matched exactly.
    pub name: Option<String>,
    /// A bearer token that identifies this client over HTTP (and lets it in).
    pub token: Option<String>,
    pub context: PolicyContext,
    /// The lane its calls wait in (the lane queue's limits apply); default `main`, or
    /// `subagent` for a subagent context.
    pub lane: Option<String>,
}

impl McpClientEntry {
    pub fn context(&self) -> PolicyContext {
        self.context
            .clone()
            .with_depth_implying_subagent()
            .with_session_key()
    }

    /// How the decision log and the console name this client.
    pub fn label(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| "token client".to_string())
    }
}

/// clawdeck.json5 `mcp.http`: the listener's limits (read for each new connection).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct McpHttpSettings {
    /// Connections open at once (1 to 100000); default 128, or a quarter of the open-file
    /// limit when that is lower (at least 8).
    #[serde(deserialize_with = "max_connections")]
    pub max_connections: Option<usize>,
    /// Milliseconds a connection gets to send a request's headers (100 to 600000); default
    /// 10000.
    #[serde(deserialize_with = "header_timeout_ms")]
    pub header_timeout_ms: Option<u64>,
    /// MCP sessions kept at once (1 to 100000); default 256. A new one over the cap closes the
    /// session idle longest; when every session is busy it is refused.
    #[serde(deserialize_with = "max_sessions")]
    pub max_sessions: Option<usize>,
    /// Milliseconds a session may stay idle before it is closed (1000 to 86400000); default
    /// 300000.
    #[serde(deserialize_with = "session_idle_ms")]
    pub session_idle_ms: Option<u64>,
}

fn max_sessions<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let value = usize::deserialize(d)?;
    if !(1..=100_000).contains(&value) {
        return Err(serde::de::Error::custom(format!(
            "maxSessions must be between 1 and 100000, not {value}"
        )));
    }
    Ok(Some(value))
}

fn session_idle_ms<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let value = u64::deserialize(d)?;
    if !(1_000..=86_400_000).contains(&value) {
        return Err(serde::de::Error::custom(format!(
            "sessionIdleMs must be between 1000 and 86400000, not {value}"
        )));
    }
    Ok(Some(value))
}

fn max_connections<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let value = usize::deserialize(d)?;
    if !(1..=100_000).contains(&value) {
        return Err(serde::de::Error::custom(format!(
            "maxConnections must be between 1 and 100000, not {value}"
        )));
    }
    Ok(Some(value))
}

fn header_timeout_ms<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let value = u64::deserialize(d)?;
    if !(100..=600_000).contains(&value) {
        return Err(serde::de::Error::custom(format!(
            "headerTimeoutMs must be between 100 and 600000, not {value}"
        )));
    }
    Ok(Some(value))
}
