//! clawdeck: a tool runtime and operator console for OpenClaw-style agent tool systems.
//!
//! Core modules (no terminal code): `tool`, `context`, `config`, `catalog`, `policy`, `adapter`,
//! `queue`, `process`, `tools`, `router`, `skills`, `prompt`. Front ends: `cli` (headless) and
//! `tui` (the console).

pub mod cli;
pub mod context;
pub mod tool;
pub mod tui;
