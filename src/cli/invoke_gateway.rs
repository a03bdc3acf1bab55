//! `clawdeck invoke --via gateway TOOL`: runs the tool on a live OpenClaw gateway through its
//! `tools.invoke` method (the same policy path as its `POST /tools/invoke`) and reports the
//! result like a local call, with the same exit statuses. The gateway's refusals are refusals
//! (exit 3) with the key that changes them; a tool the gateway does not know is bad usage (2).

use std::time::Duration;

use serde_json::Value;

use super::call_report::report;
use super::exit;
use super::gateway_args::{GatewayArgs, attach, endpoints};
use super::{Cli, output_guard};
use crate::gateway::invoke::InvokeRequest;
use crate::gateway::invoke_run::{self, GatewayCall, Refusal, RefusalStatus};
use crate::pipeline::CallOutcome;
use crate::process::stop_signals::stop_signals;

/// What `--via gateway` needs besides the tool and its parameters.
pub struct GatewayInvoke<'a> {
    pub gateway: &'a GatewayArgs,
    pub session: Option<String>,
    pub agent: Option<String>,
    /// `--call-id`: the gateway's idempotency key (it derives the tool-call id from it).
    pub call_id: Option<String>,
    pub timeout: Duration,
    pub json: bool,
}

pub fn run(cli: &Cli, tool: &str, params: Value, opts: &GatewayInvoke<'_>) -> u8 {
    let (endpoints, identity) = match endpoints(cli, opts.gateway) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("clawdeck invoke --via gateway: {e}");
            return exit::USAGE;
        }
    };
    let Some(endpoint) = endpoints.first().cloned() else {
        eprintln!(
            "clawdeck invoke --via gateway: no gateway configured (--gateway URL, clawdeck.json5 `gateways`, or OPENCLAW_GATEWAY_URL)"
        );
        return exit::USAGE;
    };
    if endpoints.len() > 1 {
        eprintln!(
            "clawdeck invoke: {} gateways configured; using {} ({}); --gateway URL picks another",
            endpoints.len(),
            endpoint.name,
            endpoint.url
        );
    }
    let runtime = match super::async_runtime() {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("clawdeck invoke: {err}");
            return exit::TOOL_ERROR;
        }
    };
    let request = InvokeRequest {
        tool: tool.to_string(),
        args: params,
        session_key: opts.session.clone(),
        agent_id: opts.agent.clone(),
        idempotency_key: opts.call_id.clone(),
    };
    runtime.block_on(async {
        // The client waits out a gateway that is still starting, within the call's timeout.
        let client = match attach(&endpoint, &identity, false, Some(opts.timeout)).await {
            Ok(c) => c,
            Err(err) => {
                eprintln!(
                    "clawdeck invoke: gateway {} ({}): {err}",
                    endpoint.name, endpoint.origin
                );
                return exit::TOOL_ERROR;
            }
        };
        let stop = stop_signals();
        let call = tokio::select! {
            c = invoke_run::run(&client, &request, opts.timeout) => c,
            _ = stop => {
                client.close();
                let outcome = CallOutcome::Cancelled {
                    tool: request.tool.clone(),
                    killed_by_operator: false,
                };
                return report(&outcome, opts.json, output_guard(cli));
            }
        };
        client.close();
        match call {
            GatewayCall::Ran(outcome) => report(&outcome, opts.json, output_guard(cli)),
            GatewayCall::Refused(refusal) => present_refusal(&refusal, opts.json),
        }
    })
}

/// Prints a refusal (stderr, and the `{content, details}` body with `--json`) and returns the
/// exit status: unknown tool and invalid arguments are bad usage (2), refusals and blocks 3,
/// a call that got no answer 1.
fn present_refusal(refusal: &Refusal, json: bool) -> u8 {
    if json {
        outln!("{}", crate::cli::json_text::pretty(&refusal.to_json()));
    }
    eprintln!("clawdeck invoke: {}", refusal.headline());
    if !refusal.hint.is_empty() {
        eprintln!("  {}", refusal.hint);
    }
    match refusal.status {
        RefusalStatus::UnknownTool | RefusalStatus::InvalidParams => exit::USAGE,
        RefusalStatus::Refused | RefusalStatus::Blocked => exit::REFUSED,
        RefusalStatus::Transport => exit::TOOL_ERROR,
    }
}
