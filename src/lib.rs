//! The `clawdeck` command: argument parsing and dispatch over the workspace's crates
//! (`clawdeck-core`, `-gateway`, `-router`, `-deck`, `-mcp`, `-tui`, and the `verify` lab).
//! A library target only so the tests can walk the clap definition.

pub mod cli;

// The crates' modules under their own names, so paths read the same as inside them.
pub(crate) use clawdeck_core::{
    catalog, config, context, decision_log, exec_allowlist, exec_verdict, lint, local_tools,
    mcp_servers, node_tools, paths, pipeline, policy, process, prompt, provider, queue,
    regular_file, sanitize, semantics, skills, stages, tool,
};
pub(crate) use clawdeck_deck as deck;
pub(crate) use clawdeck_gateway as gateway;
pub(crate) use clawdeck_mcp as mcp;
pub(crate) use clawdeck_router as router;
pub(crate) use clawdeck_tui as tui;
#[cfg(feature = "verify")]
pub(crate) use clawdeck_verify as verify;
