//! `clawbot_router`: the remote-brain tool (seed 000). It sends a task to a remote OpenClaw
//! (`openclaw agent ...` or the gateway's chat-completions endpoint) and returns its raw output;
//! nothing in that output is ever interpreted or executed here.
//!
//! - `declaration`: the spec the LLM sees; `guidance` (kept in the core's prompt builder): the
//!   system-prompt section.
//! - `request`: `RouterRequest`, `Mode`, `TransportKind`; `argv`/`env`: the child's argv and
//!   environment; `texts`: the exact seed texts.
//! - `service`: `RouterService` (runs, deadline, history, events); `events`: `RouterEvent`.
//! - `transport`, `cli_transport`, `http_transport`, `gateway_transport`: how bytes are
//!   obtained (CLI child, chat-completions SSE, the gateway's WebSocket `agent` method).
//! - `outcome`: how a run ended and the tool result; `clean`: the optional cleaned view.
//! - `tools_invoke`: `POST /tools/invoke` for OpenClaw-only platform tools.
//! - `clawbot_tool`: `ClawbotRouterTool`.

pub mod argv;
pub(crate) mod clawbot_tool;
pub mod clean;
pub(crate) mod cli_transport;
pub mod declaration;
pub mod env;
pub mod events;
pub(crate) mod gateway_transport;
pub mod http_client;
pub(crate) mod http_transport;
pub mod install;
pub mod outcome;
pub mod request;
pub mod service;
pub mod texts;
pub(crate) mod tools_invoke;
pub mod transport;

// The core's modules under their own names, so paths read the same in every crate.
pub(crate) use clawdeck_core::{catalog, config, local_tools, process, sanitize, tool};
pub(crate) use clawdeck_gateway as gateway;

pub use clawbot_tool::ClawbotRouterTool;
pub use clawdeck_core::prompt::router_guidance as guidance;
pub use declaration::{TOOL_NAME, spec};
pub use events::{RouterEvent, RouterEventKind, StdStream};
pub use guidance::{PRE_CALL_NOTICE, system_prompt_section};
pub use install::{gateway_client, router_tools};
pub use outcome::{RouterOutcome, RunStatus};
pub use request::{Mode, OutputMode, RouterRequest, TransportKind};
pub use service::{Refusal, RouterRun, RouterService, RunHandle};
pub use tools_invoke::{OpenClawOnlyTool, ToolsInvokeClient};
