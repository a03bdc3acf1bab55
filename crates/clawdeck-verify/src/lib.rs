//! The verification lab: what real OpenClaw exposes in a context, observed by running it.
//!
//! - [`mock`]: a recording OpenAI-compatible chat-completions server on loopback.
//! - [`home`] + [`runner`]: the operator's config in an isolated temporary home, the agent's
//!   model served by the mock, `openclaw agent --local` run under the process supervisor (own
//!   process group, hard timeout); the recorded request is the observation.
//! - [`private_gateway`]: turns only a gateway runs (a non-owner's, a channel sender's) on a
//!   private gateway; [`telegram_stub`] + [`sender_run`]: the sender's direct message through
//!   OpenClaw's own Telegram channel; [`job_creator`]: a job an agent made from an owner's
//!   Telegram message.
//! - [`gateway`]: the same question put to a running gateway (`tools.effective`).
//!
//! Reading and comparing observations is `clawdeck_core::comparison`, re-exported here.

mod cli_run;
pub mod gateway;
pub mod home;
mod job_creator;
mod lab_job;
mod loopback_http;
pub mod mock;
pub mod private_gateway;
pub mod runner;
pub mod sender_run;
pub(crate) mod signal_stub;
pub(crate) mod telegram_stub;

pub(crate) use clawdeck_core::{content, context, dotenv, process};
pub(crate) use clawdeck_gateway as gateway_client;
#[cfg(test)]
pub(crate) use clawdeck_router as router;

pub use clawdeck_core::comparison::*;
pub use gateway::{GatewayTarget, observe_gateway};
pub use home::run_session_key;
pub use lab_job::JOB_NAME as LAB_JOB_NAME;
pub use private_gateway::Start;
pub use runner::{
    LabProfile, MAX_LAB_PROFILES, RunOptions, VerifyError, find_openclaw, lab_profiles,
    observe_cli, observe_inbound, observe_through_gateway,
};
