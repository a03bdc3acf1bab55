//! A catalog tool clawdeck has no local runner for (OpenClaw's platform tools: message,
//! sessions_*, browser, ...). Calling it says so plainly; the router module replaces these with
//! gateway-backed tools when a gateway is configured.

use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub(crate) struct UnavailableTool {
    spec: ToolSpec,
}

impl UnavailableTool {
    pub fn new(spec: ToolSpec) -> Self {
        UnavailableTool { spec }
    }
}

/// The message for a tool that only runs inside OpenClaw.
pub(crate) fn openclaw_only_message(name: &str) -> String {
    format!(
        "{name} runs only inside OpenClaw; configure a gateway (clawdeck.json5 router.gateway.url and token, or OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN) to invoke it through OpenClaw's POST /tools/invoke"
    )
}

impl Tool for UnavailableTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, _call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        let message = openclaw_only_message(&self.spec.name);
        Box::pin(async move { Err(ToolError::Failed(message)) })
    }
}
