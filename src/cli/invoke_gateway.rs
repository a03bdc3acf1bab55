//! `clawdeck invoke --via gateway TOOL`: runs the tool on a live OpenClaw gateway through its
//! `tools.invoke` method (the same policy path as its `POST /tools/invoke`) and reports the
//! result like a local call, with the same exit statuses. The gateway's refusals are refusals
//! (exit 3) with the key that changes them; a tool the gateway does not know is bad usage (2).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::exit;
use super::gateway_args::{GatewayArgs, attach, endpoints};
use super::invoke::report;
use super::{Cli, output_guard};
use crate::gateway::invoke::{
    InvokeAnswer, InvokeRequest, RefusalKind, catalog_lists, not_available_hint, read_answer,
};
use crate::gateway::{GatewayClient, GatewayError};
use crate::pipeline::CallOutcome;
use crate::process::stop_signals::stop_signals;
use crate::router::gateway::result_from_gateway;
use crate::tool::ToolResult;

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
        let started = Instant::now();
        let stop = stop_signals();
        let answer = tokio::select! {
            a = client.request_with_timeout("tools.invoke", request.params(), opts.timeout) => a,
            _ = stop => {
                client.close();
                let outcome = CallOutcome::Cancelled { tool: request.tool.clone() };
                return report(&outcome, opts.json, output_guard(cli));
            }
        };
        let code = match answer {
            Ok(payload) => {
                let answer = read_answer(&request.tool, &payload);
                present(cli, &client, &request, answer, started.elapsed(), opts.json).await
            }
            Err(err) => transport_failure(&endpoint.name, &request.tool, &err, opts.json),
        };
        client.close();
        code
    })
}

/// Prints an answer the way local `invoke` prints its outcome and returns the exit status.
async fn present(
    cli: &Cli,
    client: &GatewayClient,
    request: &InvokeRequest,
    answer: InvokeAnswer,
    duration: Duration,
    json: bool,
) -> u8 {
    let gateway = client.endpoint().name.clone();
    // A result the gateway's tool gave is reported as a local tool's is.
    let ran = |tool: String, result: ToolResult, is_error: bool| {
        let outcome = CallOutcome::Completed {
            tool,
            is_error,
            result,
            hooks: Vec::new(),
            lane: format!("gateway {gateway}"),
            duration,
        };
        report(&outcome, json, output_guard(cli))
    };
    match answer {
        InvokeAnswer::Ran { tool, output } => {
            let result = result_from_gateway(output);
            let is_error = result.is_error();
            ran(tool, result, is_error)
        }
        InvokeAnswer::Refused {
            tool,
            kind: RefusalKind::Failed,
            message,
            ..
        } => {
            // The tool ran and threw: an error result, as a local tool's error is.
            let result = ToolResult::text(
                message,
                json!({"status": "error", "tool": tool, "gateway": gateway}),
            );
            ran(tool, result, true)
        }
        InvokeAnswer::Refused {
            tool,
            kind,
            code,
            message,
            requires_approval,
        } => {
            let (status, hint, exit_code) = match kind {
                RefusalKind::NotAvailable => {
                    let in_catalog = catalog_has(client, &tool, request.agent_id.as_deref()).await;
                    let hint = not_available_hint(&tool, in_catalog);
                    if in_catalog == Some(false) {
                        ("unknown_tool", hint, exit::USAGE)
                    } else {
                        ("refused", hint, exit::REFUSED)
                    }
                }
                RefusalKind::Invalid => (
                    "invalid_params",
                    format!("the gateway checked the arguments against {tool}'s schema"),
                    exit::USAGE,
                ),
                _ if requires_approval => (
                    "blocked",
                    "the call needs an approval on the gateway; `clawdeck approvals watch` shows \
pending ones"
                        .to_string(),
                    exit::REFUSED,
                ),
                _ => (
                    "blocked",
                    "a gateway hook, session rule or operator role blocked it".to_string(),
                    exit::REFUSED,
                ),
            };
            if json {
                let body = json!({
                    "content": [{"type": "text", "text": message}],
                    "details": {"status": status, "tool": tool, "gateway": gateway, "code": code, "hint": hint},
                });
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&body).unwrap_or_default()
                );
            }
            let what = match status {
                "refused" => "refused by gateway",
                "blocked" => "blocked by gateway",
                "invalid_params" => "invalid parameters (gateway)",
                _ => "gateway",
            };
            eprintln!("clawdeck invoke: {what} {gateway}: {message} [{code}]");
            eprintln!("  {hint}");
            exit_code
        }
    }
}

/// Whether the gateway's catalog lists the tool; None when the catalog cannot be read.
async fn catalog_has(client: &GatewayClient, tool: &str, agent: Option<&str>) -> Option<bool> {
    let mut params = json!({"includePlugins": true});
    if let (Some(agent), Value::Object(map)) = (agent, &mut params) {
        map.insert("agentId".into(), json!(agent));
    }
    let catalog = client
        .request_with_timeout("tools.catalog", params, Duration::from_secs(10))
        .await
        .ok()?;
    Some(catalog_lists(&catalog, tool))
}

/// The call never got an answer (or the method itself was refused, e.g. a missing scope).
fn transport_failure(gateway: &str, tool: &str, err: &GatewayError, json: bool) -> u8 {
    let (status, code) = match err {
        GatewayError::Refused { code, .. } if code.contains("INVALID") => {
            ("invalid_params", exit::USAGE)
        }
        GatewayError::Refused { .. } => ("refused", exit::REFUSED),
        _ => ("error", exit::TOOL_ERROR),
    };
    if json {
        let body = json!({
            "content": [{"type": "text", "text": err.to_string()}],
            "details": {"status": status, "tool": tool, "gateway": gateway},
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&body).unwrap_or_default()
        );
    }
    eprintln!("clawdeck invoke: gateway {gateway}: tools.invoke {tool}: {err}");
    code
}
