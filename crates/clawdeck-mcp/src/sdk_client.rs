//! The client half of the MCP SDK, used to ask an MCP server what it offers (the tools OpenClaw
//! would give its agents from `mcp.servers`). Besides `sdk`, the only module that uses `rmcp`.

use std::collections::BTreeMap;

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

pub use crate::mcp_servers::{OfferedTool, ServerOffer};

/// Announces itself as clawdeck and answers nothing else.
#[derive(Clone)]
struct Lister;

impl ClientHandler for Lister {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("clawdeck", env!("CARGO_PKG_VERSION")),
        )
    }
}

fn offer_of(
    tools: Vec<rmcp::model::Tool>,
    info: Option<&rmcp::model::ServerPeerInfo>,
) -> ServerOffer {
    ServerOffer {
        tools: tools
            .into_iter()
            .map(|t| OfferedTool {
                name: t.name.to_string(),
                title: t.title.clone(),
                description: t.description.as_ref().map(|d| d.to_string()),
                input_schema: Value::Object((*t.input_schema).clone()),
            })
            .collect(),
        resources: info.is_some_and(|i| i.capabilities.resources.is_some()),
        prompts: info.is_some_and(|i| i.capabilities.prompts.is_some()),
    }
}

/// Initializes over a byte stream pair (a child's stdout and stdin), lists every tool, closes.
pub(crate) async fn list_over_streams<R, W>(read: R, write: W) -> Result<ServerOffer, String>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let service = Lister
        .serve((read, write))
        .await
        .map_err(|e| format!("initialize failed: {e}"))?;
    list_and_close(service).await
}

/// Initializes over streamable HTTP, lists every tool, closes.
pub async fn list_over_http(
    url: &str,
    headers: &BTreeMap<String, String>,
) -> Result<ServerOffer, String> {
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let mut custom = std::collections::HashMap::new();
    let mut bearer = None;
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("authorization") {
            // The SDK sets the Authorization header itself from a bare token.
            bearer = Some(value.strip_prefix("Bearer ").unwrap_or(value).to_string());
            continue;
        }
        let name = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|e| format!("header \"{name}\": {e}"))?;
        let value =
            http::HeaderValue::from_str(value).map_err(|e| format!("header \"{name}\": {e}"))?;
        custom.insert(name, value);
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom);
    if let Some(token) = bearer {
        config = config.auth_header(token);
    }
    let transport = StreamableHttpClientTransport::with_client(reqwest::Client::new(), config);
    let service = Lister
        .serve(transport)
        .await
        .map_err(|e| format!("initialize failed: {e}"))?;
    list_and_close(service).await
}

async fn list_and_close(
    service: rmcp::service::RunningService<rmcp::RoleClient, Lister>,
) -> Result<ServerOffer, String> {
    let info = service.peer_info();
    let listed = service.list_all_tools().await;
    let _ = service.cancel().await;
    let tools = listed.map_err(|e| format!("tools/list failed: {e}"))?;
    Ok(offer_of(tools, info.as_deref()))
}
