//! The gateway client for OpenClaw's platform tools (`message`, `sessions_*`, `memory_*`,
//! `web_*`, `browser`, ...): `POST /tools/invoke {tool, args, agentId?}` with the bearer token.
//! Without a gateway, `OpenClawOnlyTool` says plainly that the tool runs only inside OpenClaw.

use std::time::Duration;

use serde_json::{Value, json};

use super::http_transport::describe_reqwest_error;
use super::texts;
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

/// A configured gateway.
#[derive(Clone)]
pub struct ToolsInvokeClient {
    base_url: String,
    token: Option<String>,
    /// The HTTP client, or why it could not be set up (reported on use, never a panic).
    client: Result<reqwest::Client, String>,
    timeout: Duration,
}

impl std::fmt::Debug for ToolsInvokeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolsInvokeClient")
            .field("base_url", &self.base_url)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl ToolsInvokeClient {
    pub fn new(base_url: impl Into<String>, token: Option<String>, timeout: Duration) -> Self {
        ToolsInvokeClient {
            base_url: base_url.into().trim_end_matches('/').to_string(),
            token,
            client: super::http_client::gateway_http_client(),
            timeout,
        }
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Invokes one tool. HTTP statuses map to tool errors the way OpenClaw reports them:
    /// 400 → input, 401/403 → unauthorized, 404 → not available on this gateway, others → failed.
    pub async fn invoke(
        &self,
        tool: &str,
        args: &Value,
        agent_id: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        let url = format!("{}/tools/invoke", self.base_url);
        let mut body = json!({"tool": tool, "args": args});
        if let (Some(agent), Value::Object(map)) = (agent_id, &mut body) {
            map.insert("agentId".into(), json!(agent));
        }
        let client = self
            .client
            .as_ref()
            .map_err(|e| ToolError::failed(format!("gateway: {e}")))?;
        let mut req = client.post(&url).json(&body).timeout(self.timeout);
        if let Some(token) = &self.token {
            req = req.bearer_auth(token);
        }
        let response = req.send().await.map_err(|e| {
            ToolError::failed(format!("gateway: {}", describe_reqwest_error(&e, &url)))
        })?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| {
            ToolError::failed(format!("gateway: {}", describe_reqwest_error(&e, &url)))
        })?;
        let parsed: Option<Value> = serde_json::from_str(&text).ok();
        if (200..300).contains(&status)
            && parsed
                .as_ref()
                .and_then(|v| v.get("ok"))
                .and_then(Value::as_bool)
                == Some(true)
        {
            let result = parsed
                .as_ref()
                .and_then(|v| v.get("result"))
                .cloned()
                .unwrap_or(Value::Null);
            return Ok(ToolResult::from_gateway(result));
        }
        let message = parsed
            .as_ref()
            .and_then(|v| {
                v.pointer("/error/message")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_else(|| text.trim().chars().take(500).collect());
        let kind = parsed
            .as_ref()
            .and_then(|v| v.pointer("/error/type").and_then(Value::as_str))
            .unwrap_or("");
        let detail = format!("gateway /tools/invoke {tool}: HTTP {status} {kind} {message}")
            .replace("  ", " ");
        Err(match status {
            400 => ToolError::Input(detail),
            401 | 403 => ToolError::Unauthorized(detail),
            404 => ToolError::failed(format!(
                "{detail} (the tool is not available on this gateway: unknown, denied by its tool policy, or on the HTTP deny list)"
            )),
            _ => ToolError::failed(detail),
        })
    }
}

/// An OpenClaw-only platform tool: through the gateway when one is configured, otherwise a
/// plain statement that it runs only inside OpenClaw.
pub struct OpenClawOnlyTool {
    spec: ToolSpec,
    gateway: Option<ToolsInvokeClient>,
    agent_id: Option<String>,
}

impl OpenClawOnlyTool {
    pub fn new(
        spec: ToolSpec,
        gateway: Option<ToolsInvokeClient>,
        agent_id: Option<String>,
    ) -> Self {
        OpenClawOnlyTool {
            spec,
            gateway,
            agent_id,
        }
    }
}

impl Tool for OpenClawOnlyTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(async move {
            let Some(gateway) = &self.gateway else {
                return Ok(ToolResult::text(
                    texts::openclaw_only(&self.spec.name),
                    json!({"status": "error", "openclawOnly": true, "tool": self.spec.name}),
                ));
            };
            tokio::select! {
                r = gateway.invoke(&self.spec.name, &call.params, self.agent_id.as_deref()) => r,
                _ = call.cancel.cancelled() => Err(ToolError::Cancelled),
            }
        })
    }
}
