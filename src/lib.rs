//! clawdeck: a tool runtime and operator console for OpenClaw-style agent tool systems.
//!
//! Core modules (no terminal code): `tool`, `context`, `config`, `catalog`, `policy`, `adapter`,
//! `queue`, `process`, `tools`, `pipeline`, `router`, `provider`, `skills`, `prompt`.
//! Front ends: `cli` (headless) and `tui` (the console).

pub mod adapter;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod context;
pub mod decision_log;
pub mod deck;
pub mod gateway;
pub mod lint;
pub mod mcp;
pub mod mcp_servers;
pub mod pipeline;
pub mod policy;
pub mod process;
pub mod prompt;
pub mod provider;
pub mod queue;
pub mod regular_file;
pub mod router;
pub mod semantics;
pub mod skills;
pub mod term;
pub mod tool;
pub mod tools;
pub mod tui;
pub mod verify;
