//! clawdeck as an MCP server: any LLM client (Claude Desktop, Claude Code, Codex, OpenClaw's own
//! `mcp.servers`) gets the tools the policy shows for its context and calls them through the
//! same pipeline as every other caller.
//!
//! - `clients`: which context a client gets (flags, or clawdeck.json5 `mcp.clients`);
//! - `server`: the listing and the call, free of the SDK;
//! - `sdk`: the only module that uses `rmcp` (handler, stdio, the HTTP service);
//! - `lines`: stdio framing in front of the SDK (an undecodable line gets a parse error);
//! - `http`: the loopback listener: Origin, bearer token, header timeout, connection cap;
//! - `host`: running it on a Deck (stdio, HTTP; used by `clawdeck mcp` and the console);
//! - `watch`: config edits reload the Deck and tell clients their tool list changed.

pub mod clients;
pub mod host;
pub mod http;
#[cfg(feature = "http-server")]
mod http_listener;
pub mod lines;
pub(crate) mod sdk;
pub mod sdk_client;
pub mod server;
pub mod server_listing;
pub mod watch;

// The core's modules under their own names, so paths read the same in every crate.
pub(crate) use clawdeck_core::{
    catalog, config, context, mcp_servers, pipeline, policy, process, provider, sanitize, tool,
};
pub(crate) use clawdeck_deck as deck;

pub use clients::{ClientIdentity, FlagContext, McpClientEntry, McpSettings};
pub use sdk::{Handler, Peers};
pub use server::{CallReply, ListedTool, ToolServer, listed_tools, reply_for};
pub use server_listing::SdkServerLister;
