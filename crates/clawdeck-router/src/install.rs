//! Adds the router's tools to a tool set: `clawbot_router` on the shared service, and, when a
//! gateway is configured, every OpenClaw-only platform tool through `POST /tools/invoke`.

use std::sync::Arc;
use std::time::Duration;

use super::clawbot_tool::ClawbotRouterTool;
use super::service::RouterService;
use super::tools_invoke::{OpenClawOnlyTool, ToolsInvokeClient};
use crate::local_tools::ToolSupplier;
use crate::tool::{SharedTool, ToolSpec};

/// The tools to insert (into `ToolSet` with `insert`, replacing same-named runners):
/// `clawbot_router`, plus gateway-backed runners for the `openclaw_only` specs among `specs`
/// when a gateway is configured. Without a gateway those keep their "runs only inside
/// OpenClaw" runner.
pub fn router_tools(
    service: &RouterService,
    specs: &[ToolSpec],
    agent_id: Option<&str>,
) -> Vec<SharedTool> {
    let mut tools: Vec<SharedTool> = vec![Arc::new(ClawbotRouterTool::new(service.clone()))];
    if let Some(client) = gateway_client(service) {
        for spec in specs.iter().filter(|s| s.flags.openclaw_only) {
            tools.push(Arc::new(OpenClawOnlyTool::new(
                spec.clone(),
                Some(client.clone()),
                agent_id.map(str::to_string),
            )));
        }
    }
    tools
}

/// The gateway client for the service's settings/env, with the router's maximum timeout.
pub fn gateway_client(service: &RouterService) -> Option<ToolsInvokeClient> {
    let (url, token) = service.gateway()?;
    let timeout = Duration::from_secs(service.effective_timeout(Some(u64::MAX)));
    Some(ToolsInvokeClient::new(url, token, timeout))
}

/// The router as the tool runtime's supplier of its tools.
impl ToolSupplier for RouterService {
    fn tools(&self, catalog: &[ToolSpec], agent: Option<&str>) -> Vec<SharedTool> {
        router_tools(self, catalog, agent)
    }
}
