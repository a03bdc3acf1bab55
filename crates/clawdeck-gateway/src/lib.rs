//! Attaching to running OpenClaw gateways over their WebSocket protocol (v4): device identity
//! and handshake, requests and events, reconnecting clients, and the typed views of the
//! events clawdeck shows (tool calls, approvals, sessions). Core: no terminal code.

pub mod client;
pub mod connection;
pub mod endpoint;
pub mod error;
pub mod event_stream;
pub mod feed;
pub mod frames;
pub mod identity;

pub use client::{Backoff, ClientEvent, GatewayClient};
pub use connection::{ADMIN_SCOPE, ConnectOptions, Connection, OPERATOR_SCOPES};
pub use endpoint::{GatewayAuth, GatewayEndpoint, GatewayEntry, GatewaySecret, resolve_endpoints};
pub use error::GatewayError;
pub use event_stream::{EventStream, FEED_CAPACITY};
pub use frames::{EventFrame, Frame, Hello, PROTOCOL_VERSION};
pub use identity::DeviceIdentity;
pub mod approval_board;
pub mod approval_ledger;
pub mod approvals;
pub mod chat;
pub mod config_get;
pub mod desk;
pub mod desk_session;
pub mod exec_approvals_get;
pub mod health;
pub mod history;
pub mod invoke;
pub mod invoke_run;
pub mod logs;
pub mod pack;
pub mod pulse;
pub mod roster;
pub mod session_describe;
pub mod session_pages;
pub mod sessions;
pub mod tools;
pub mod transcript;
pub mod watch;

// The core's modules under their own names, so paths read the same in every crate.
pub(crate) use clawdeck_core::{config, paths, pipeline, regular_file, sanitize, tool};
