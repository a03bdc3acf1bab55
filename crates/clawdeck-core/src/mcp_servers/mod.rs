//! The tools OpenClaw's `mcp.servers` bring (`<server>__<tool>`, plugin `bundle-mcp`): real
//! OpenClaw starts each server and lists its tools for every run, so clawdeck does the same to
//! answer as it would.
//!
//! - `declared`: which servers are enabled and how each is launched, as OpenClaw reads them;
//! - `names`: the provider-safe `<server>__<tool>` names;
//! - `offer`: what a server offered, and the [`ServerLister`] that asks it (the MCP client in
//!   `clawdeck-mcp`; the core has no MCP SDK);
//! - `project`: the tool specs OpenClaw makes of the listings.
//!
//! Whether servers are started at all is the caller's choice, passed in as a [`ServerListing`]
//! (`--no-mcp-servers` passes `ServerListing::Off`).

pub mod declared;
pub mod names;
pub mod offer;
pub(crate) mod project;

use std::collections::HashSet;
use std::path::Path;

pub use declared::{DeclaredServer, Launch, ToolFilter, declared_servers};
pub use offer::{ListedServer, OfferedTool, ServerLister, ServerListing, ServerOffer};
pub use project::{BUNDLE_MCP, tool_specs};

use crate::tool::ToolSpec;

/// What the config's servers bring: their tools (clear of `taken`) and a warning, naming
/// `mcp.servers.<name>`, for each server that was skipped or could not be listed.
#[derive(Debug, Clone, Default)]
pub(crate) struct ServerTools {
    pub tools: Vec<ToolSpec>,
    pub warnings: Vec<String>,
    /// Servers listed, with how many tools each offered (after its toolFilter), or its error.
    pub servers: Vec<(String, Result<usize, String>)>,
}

/// Lists the config's servers through `listing` and projects their tools. Blocks the calling
/// thread (the lister decides how; the SDK lister runs on a thread of its own).
pub(crate) fn server_tools(
    raw: &serde_json::Value,
    base: Option<&Path>,
    taken: &HashSet<String>,
    listing: &ServerListing,
) -> ServerTools {
    let (servers, mut warnings) = declared_servers(raw, base);
    if servers.is_empty() {
        return ServerTools {
            warnings,
            ..ServerTools::default()
        };
    }
    let ServerListing::By(lister) = listing else {
        warnings.push(format!(
            "mcp.servers: {} server(s) not started (--no-mcp-servers): their tools are unknown",
            servers.len()
        ));
        return ServerTools {
            warnings,
            ..ServerTools::default()
        };
    };
    let listed = lister.list(&servers);
    let mut summary = Vec::new();
    for l in listed.iter() {
        match &l.outcome {
            Ok(offer) => summary.push((
                l.server.name.clone(),
                Ok(offer
                    .tools
                    .iter()
                    .filter(|t| l.server.tool_filter.admits(&t.name))
                    .count()),
            )),
            Err(e) => {
                warnings.push(format!(
                    "{}: could not list its tools: {e}",
                    l.server.config_path()
                ));
                summary.push((l.server.name.clone(), Err(e.clone())));
            }
        }
    }
    ServerTools {
        tools: tool_specs(&listed, taken),
        warnings,
        servers: summary,
    }
}
