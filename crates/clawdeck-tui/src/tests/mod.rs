//! The console's tests, inside the crate so that its types stay `pub(crate)`. One harness
//! (`harness`) drives the `App` for all of them; snapshots live in `snapshots/`, and each
//! snapshot test also asserts what the screen means.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod analysis;
mod approval_kinds;
mod approvals;
mod background_execs;
mod code_mode;
mod conventions;
mod copy;
mod decisions;
mod flood;
mod gateways_tab;
pub(crate) mod harness;
mod header;
mod loading;
mod new_run;
mod queue_gateway_runs;
mod real_gateway;
mod scrolling;
mod session_chat;
mod session_key;
mod switches;
mod tabs;
mod text_panes;
mod views;
