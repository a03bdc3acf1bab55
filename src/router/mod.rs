//! `clawbot_router`: the remote-brain tool (seed 000). It sends a task to a remote OpenClaw
//! (`openclaw agent ...` or the gateway's chat-completions endpoint) and returns its raw output;
//! nothing in that output is ever interpreted or executed here.
//!
//! - `declaration`: the spec the LLM sees; `guidance`: the system-prompt section.
//! - `request`: `RouterRequest`, `Mode`, `TransportKind`; `argv`/`env`: the child's argv and
//!   environment; `texts`: the exact seed texts.
//! - `service`: `RouterService` (runs, deadline, history, events); `events`: `RouterEvent`.
//! - `transport`, `cli_transport`, `http_transport`, `gateway_transport`: how bytes are
//!   obtained (CLI child, chat-completions SSE, the gateway's WebSocket `agent` method).
//! - `outcome`: how a run ended and the tool result; `clean`: the optional cleaned view.
//! - `gateway`: `POST /tools/invoke` for OpenClaw-only platform tools.
//! - `tool`: `ClawbotRouterTool`.

pub mod argv;
pub mod clean;
pub mod cli_transport;
pub mod declaration;
pub mod env;
pub mod events;
pub mod gateway;
pub mod gateway_transport;
pub mod guidance;
pub mod http_client;
pub mod http_transport;
pub mod install;
pub mod outcome;
pub mod request;
pub mod service;
pub mod texts;
pub mod tool;
pub mod transport;

pub use declaration::{TOOL_NAME, spec};
pub use events::{OutputStream, RouterEvent, RouterEventKind};
pub use gateway::{GatewayClient, OpenClawOnlyTool};
pub use guidance::{PRE_CALL_NOTICE, system_prompt_section};
pub use install::{gateway_client, router_tools};
pub use outcome::{RouterOutcome, RunStatus};
pub use request::{Mode, OutputMode, RouterRequest, TransportKind};
pub use service::{Refusal, RouterRun, RouterService, RunHandle};
pub use tool::ClawbotRouterTool;
