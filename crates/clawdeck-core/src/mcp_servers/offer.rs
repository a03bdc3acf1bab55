//! What an MCP server offered when asked, and who asks. The asking needs an MCP client, which
//! lives above the core (`clawdeck-mcp`); the core only sees the answers.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::declared::DeclaredServer;

/// One tool as the server lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub input_schema: Value,
}

/// What a server offers: its tools, and whether it has resources or prompts (OpenClaw adds
/// utility tools for those).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerOffer {
    pub tools: Vec<OfferedTool>,
    pub resources: bool,
    pub prompts: bool,
}

/// One server's answer.
#[derive(Debug, Clone)]
pub struct ListedServer {
    pub server: DeclaredServer,
    pub outcome: Result<ServerOffer, String>,
}

/// Starts or connects to each declared server and asks for its tools. Blocks the calling
/// thread; must be safe to call inside or outside a Tokio runtime.
pub trait ServerLister: Send + Sync {
    fn list(&self, servers: &[DeclaredServer]) -> Arc<Vec<ListedServer>>;
}

/// Whether the registry asks the configured `mcp.servers` for their tools.
#[derive(Clone, Default)]
pub enum ServerListing {
    /// Not started (`--no-mcp-servers`, tests, benchmarks): their tools are unknown and a
    /// warning says so.
    #[default]
    Off,
    By(Arc<dyn ServerLister>),
}

impl fmt::Debug for ServerListing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerListing::Off => f.write_str("ServerListing::Off"),
            ServerListing::By(_) => f.write_str("ServerListing::By(..)"),
        }
    }
}
