//! One `tools.invoke` on an attached gateway, read the way a local call is: the tool's result
//! as a `CallOutcome`, and for a refusal what refused it and what to change. `clawdeck invoke
//! --via gateway` and the console's Invoke view (gateway target) both call `run`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::client::GatewayClient;
use super::error::GatewayError;
use super::invoke::{
    InvokeAnswer, InvokeRequest, RefusalKind, catalog_lists, not_available_hint, read_answer,
};
use crate::pipeline::CallOutcome;
use crate::tool::ToolResult;

/// Why the gateway did not run the tool, as clawdeck reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalStatus {
    /// The gateway has no such tool (not in its `tools.catalog`).
    UnknownTool,
    /// Not available to this caller (tool policy, the invoke surface's deny list).
    Refused,
    /// A hook, a session rule, an approval requirement or the operator role blocked it.
    Blocked,
    /// The gateway rejected the arguments.
    InvalidParams,
    /// The call never got an answer (unreachable, dropped, timed out, method refused).
    Transport,
}

impl RefusalStatus {
    /// The `details.status` word (the same words local calls use).
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalStatus::UnknownTool => "unknown_tool",
            RefusalStatus::Refused => "refused",
            RefusalStatus::Blocked => "blocked",
            RefusalStatus::InvalidParams => "invalid_params",
            RefusalStatus::Transport => "error",
        }
    }

    /// How a person reads it (`refused by gateway local: ...`).
    pub(crate) fn verb(self) -> &'static str {
        match self {
            RefusalStatus::UnknownTool => "gateway",
            RefusalStatus::Refused => "refused by gateway",
            RefusalStatus::Blocked => "blocked by gateway",
            RefusalStatus::InvalidParams => "invalid parameters (gateway)",
            RefusalStatus::Transport => "gateway",
        }
    }
}

/// A refusal with the gateway's own words and what to change.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub gateway: String,
    pub tool: String,
    pub status: RefusalStatus,
    /// The gateway's error code (`not_found`, ...); empty for transport failures.
    pub code: String,
    pub message: String,
    pub hint: String,
}

impl Refusal {
    /// One line: `refused by gateway local: Tool not available: exec [not_found]`.
    pub fn headline(&self) -> String {
        if self.code.is_empty() {
            format!("{} {}: {}", self.status.verb(), self.gateway, self.message)
        } else {
            format!(
                "{} {}: {} [{}]",
                self.status.verb(),
                self.gateway,
                self.message,
                self.code
            )
        }
    }

    /// The outcome a caller that shows `CallOutcome`s records: an unknown tool, invalid
    /// parameters, or a block whose reason is the gateway's words and what to change.
    pub fn to_outcome(&self) -> CallOutcome {
        let tool = self.tool.clone();
        let with_hint = if self.hint.is_empty() {
            self.headline()
        } else {
            format!("{}\n{}", self.headline(), self.hint)
        };
        match self.status {
            RefusalStatus::UnknownTool => CallOutcome::UnknownTool {
                tool,
                message: with_hint,
            },
            RefusalStatus::InvalidParams => CallOutcome::InvalidParams {
                tool,
                problems: vec![with_hint],
            },
            _ => CallOutcome::Blocked {
                tool,
                reason: with_hint,
                hooks: Vec::new(),
            },
        }
    }

    /// The `{content, details}` shape `--json` prints.
    pub fn to_json(&self) -> Value {
        json!({
            "content": [{"type": "text", "text": self.message}],
            "details": {"status": self.status.as_str(), "tool": self.tool, "gateway": self.gateway,
                        "code": self.code, "hint": self.hint},
        })
    }
}

/// What one `tools.invoke` came to.
#[derive(Debug, Clone)]
pub enum GatewayCall {
    /// The tool ran (its result, an error result when it threw).
    Ran(CallOutcome),
    /// The gateway did not run it.
    Refused(Refusal),
}

/// Runs `request` on `client` within `timeout`.
pub async fn run(
    client: &GatewayClient,
    request: &InvokeRequest,
    timeout: Duration,
) -> GatewayCall {
    let gateway = client.endpoint().name.clone();
    let started = Instant::now();
    let answer = client
        .request_with_timeout("tools.invoke", request.params(), timeout)
        .await;
    match answer {
        Ok(payload) => {
            let answer = read_answer(&request.tool, &payload);
            read(client, request, answer, started.elapsed()).await
        }
        Err(err) => GatewayCall::Refused(transport_refusal(&gateway, &request.tool, &err)),
    }
}

async fn read(
    client: &GatewayClient,
    request: &InvokeRequest,
    answer: InvokeAnswer,
    duration: Duration,
) -> GatewayCall {
    let gateway = client.endpoint().name.clone();
    let ran = |tool: String, result: ToolResult, is_error: bool| {
        GatewayCall::Ran(CallOutcome::Completed {
            tool,
            is_error,
            result,
            hooks: Vec::new(),
            lane: format!("gateway {gateway}"),
            duration,
        })
    };
    match answer {
        InvokeAnswer::Ran { tool, output } => {
            let result = crate::tool::ToolResult::from_gateway(output);
            let is_error = result.is_error();
            ran(tool, result, is_error)
        }
        // The tool ran and threw: an error result, as a local tool's error is.
        InvokeAnswer::Refused {
            tool,
            kind: RefusalKind::Failed,
            message,
            ..
        } => {
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
            let (status, hint) = match kind {
                RefusalKind::NotAvailable => {
                    let in_catalog = catalog_has(client, &tool, request.agent_id.as_deref()).await;
                    let hint = not_available_hint(&tool, in_catalog);
                    if in_catalog == Some(false) {
                        (RefusalStatus::UnknownTool, hint)
                    } else {
                        (RefusalStatus::Refused, hint)
                    }
                }
                RefusalKind::Invalid => (
                    RefusalStatus::InvalidParams,
                    format!("the gateway checked the arguments against {tool}'s schema"),
                ),
                _ if requires_approval => (
                    RefusalStatus::Blocked,
                    "the call needs an approval on the gateway; `clawdeck approvals watch` (or \
the console's Approvals view) shows pending ones"
                        .to_string(),
                ),
                _ => (
                    RefusalStatus::Blocked,
                    "a gateway hook, session rule or operator role blocked it".to_string(),
                ),
            };
            GatewayCall::Refused(Refusal {
                gateway,
                tool,
                status,
                code,
                message,
                hint,
            })
        }
    }
}

/// The call never got an answer (or the method itself was refused, e.g. a missing scope).
pub(crate) fn transport_refusal(gateway: &str, tool: &str, err: &GatewayError) -> Refusal {
    let status = match err {
        GatewayError::Refused { code, .. } if code.contains("INVALID") => {
            RefusalStatus::InvalidParams
        }
        GatewayError::Refused { .. } => RefusalStatus::Refused,
        _ => RefusalStatus::Transport,
    };
    Refusal {
        gateway: gateway.to_string(),
        tool: tool.to_string(),
        status,
        code: String::new(),
        message: format!("tools.invoke {tool}: {err}"),
        hint: String::new(),
    }
}

/// Whether the gateway's catalog lists the tool; None when the catalog cannot be read.
pub(crate) async fn catalog_has(
    client: &GatewayClient,
    tool: &str,
    agent: Option<&str>,
) -> Option<bool> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_as_one_line_and_as_json() {
        let r = Refusal {
            gateway: "local".into(),
            tool: "exec".into(),
            status: RefusalStatus::Refused,
            code: "not_found".into(),
            message: "Tool not available: exec".into(),
            hint: "add exec to gateway.tools.allow".into(),
        };
        assert_eq!(
            r.headline(),
            "refused by gateway local: Tool not available: exec [not_found]"
        );
        assert_eq!(r.to_json()["details"]["status"], "refused");
        assert_eq!(
            r.to_json()["details"]["hint"],
            "add exec to gateway.tools.allow"
        );
        let t = transport_refusal(
            "local",
            "exec",
            &GatewayError::Disconnected {
                reason: "gone".into(),
            },
        );
        assert_eq!(t.status, RefusalStatus::Transport);
        assert!(
            t.headline()
                .starts_with("gateway local: tools.invoke exec: ")
        );
    }
}
