//! clawdeck's core: the tool pipeline of an OpenClaw-style agent, from a config to a result.
//!
//! Config and packs (`config`, `semantics`), the tool model and catalog (`tool`, `catalog`,
//! `mcp_servers`), the policy (`policy`, `context`, `lint`), the pipeline (`stages`, `pipeline`,
//! `queue`, `decision_log`), execution (`process`, `local_tools`), what the model sees (`skills`,
//! `prompt`, `provider`), comparison with real OpenClaw (`comparison`), where clawdeck keeps its
//! files (`paths`) and the one sanitizer every untrusted text passes (`sanitize`).
//!
//! No terminal code, no server, no MCP SDK: those live in the crates above this one.

pub mod auth_profiles;
pub mod bounds;
pub mod call_outcome;
pub mod catalog;
pub mod comparison;
pub mod config;
pub mod content;
pub mod context;
pub mod decision_log;
pub mod dotenv;
pub mod exec_allowlist;
pub mod exec_verdict;
pub mod lint;
pub mod local_tools;
pub mod login_shell_env;
pub mod mcp_servers;
mod model_ref;
pub mod node_tools;
pub mod paths;
pub mod pipeline;
pub mod policy;
pub mod process;
pub mod prompt;
pub mod provider;
pub mod queue;
pub mod regular_file;
pub mod sanitize;
pub mod semantics;
pub mod session_key;
pub mod skills;
pub mod stages;
pub mod state_db;
pub mod tool;
