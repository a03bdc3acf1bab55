//! The tools OpenClaw's `mcp.servers` bring (`<server>__<tool>`, plugin `bundle-mcp`): real
//! OpenClaw starts each server and lists its tools for every run, so clawdeck does the same to
//! answer as it would.
//!
//! - `declared`: which servers are enabled and how each is launched, as OpenClaw reads them;
//! - `names`: the provider-safe `<server>__<tool>` names;
//! - `listing`: connecting and listing (concurrently, each within its connect timeout);
//! - `project`: the tool specs OpenClaw makes of the listings.
//!
//! Listings are kept per process for an unchanged `mcp.servers` section, so a config reload that
//! leaves the servers alone does not start them again. `--no-mcp-servers` turns listing off.

pub mod declared;
pub mod listing;
pub mod names;
pub mod project;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub use declared::{DeclaredServer, Launch, ToolFilter, declared_servers};
pub use listing::ListedServer;
pub use project::{BUNDLE_MCP, tool_specs};

use crate::tool::ToolSpec;

static LISTING_OFF: AtomicBool = AtomicBool::new(false);

/// `--no-mcp-servers`: answer without starting the configured servers (their tools unknown).
pub fn set_listing(enabled: bool) {
    LISTING_OFF.store(!enabled, Ordering::Relaxed);
}

pub fn listing_enabled() -> bool {
    !LISTING_OFF.load(Ordering::Relaxed)
}

type Cache = Mutex<HashMap<Vec<DeclaredServer>, Arc<Vec<ListedServer>>>>;

fn cache() -> &'static Cache {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// What the config's servers bring: their tools (clear of `taken`) and a warning, naming
/// `mcp.servers.<name>`, for each server that was skipped or could not be listed.
#[derive(Debug, Clone, Default)]
pub struct ServerTools {
    pub tools: Vec<ToolSpec>,
    pub warnings: Vec<String>,
    /// Servers listed, with how many tools each offered (after its toolFilter), or its error.
    pub servers: Vec<(String, Result<usize, String>)>,
}

/// Lists the config's servers (or takes the listing kept for the same servers) and projects
/// their tools. Blocks the calling thread; safe inside or outside a Tokio runtime (the listing
/// runs on a thread of its own).
pub fn server_tools(
    raw: &serde_json::Value,
    base: Option<&Path>,
    taken: &HashSet<String>,
) -> ServerTools {
    let (servers, mut warnings) = declared_servers(raw, base);
    if servers.is_empty() {
        return ServerTools {
            warnings,
            ..ServerTools::default()
        };
    }
    if !listing_enabled() {
        warnings.push(format!(
            "mcp.servers: {} server(s) not started (--no-mcp-servers): their tools are unknown",
            servers.len()
        ));
        return ServerTools {
            warnings,
            ..ServerTools::default()
        };
    }
    let cached = cache()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&servers)
        .cloned();
    let listed = match cached {
        Some(listed) => listed,
        None => {
            let listed = Arc::new(list_on_own_thread(servers.clone()));
            // Only complete answers are kept: a server that failed is tried again next time.
            if listed.iter().all(|l| l.outcome.is_ok()) {
                cache()
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(servers, Arc::clone(&listed));
            }
            listed
        }
    };
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

fn list_on_own_thread(servers: Vec<DeclaredServer>) -> Vec<ListedServer> {
    let worker = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        match runtime {
            Ok(rt) => rt.block_on(listing::list_all(&servers)),
            Err(e) => servers
                .into_iter()
                .map(|server| ListedServer {
                    server,
                    outcome: Err(format!("no async runtime for the listing: {e}")),
                })
                .collect(),
        }
    });
    worker.join().unwrap_or_default()
}
