//! `tools.invoke` over the gateway protocol: the request parameters and what the answer means
//! (a result, or a refusal with the reason and, when the gateway's own config is the cause,
//! the key that changes it).

use serde_json::{Value, json};

/// Tools OpenClaw's gateway keeps off `/tools/invoke` and the `tools.invoke` method by default
/// (2026.9.6 `DEFAULT_GATEWAY_HTTP_TOOL_DENY`, applied to the RPC surface too), even when the
/// session's tool policy allows them. `cron` is the scheduler's permanent alias.
pub(crate) const DEFAULT_DENY: &[&str] = &[
    "exec",
    "spawn",
    "shell",
    "fs_write",
    "fs_delete",
    "fs_move",
    "apply_patch",
    "terminal",
    "portal",
    "sessions_spawn",
    "sessions_send",
    "conversations_list",
    "conversations_send",
    "conversations_turn",
    "automations",
    "cron",
    "gateway",
    "plugins",
    "nodes",
    "computer",
    "mobile_ui",
    "openclaw",
];

/// One call: the tool, its arguments, and optionally the session or agent it runs for.
#[derive(Debug, Clone, PartialEq)]
pub struct InvokeRequest {
    pub tool: String,
    pub args: Value,
    pub session_key: Option<String>,
    pub agent_id: Option<String>,
    /// The gateway derives the tool-call id from it (a retried call keeps its id).
    pub idempotency_key: Option<String>,
}

impl InvokeRequest {
    /// The `tools.invoke` parameters.
    pub(crate) fn params(&self) -> Value {
        let mut params = json!({"name": self.tool, "args": self.args});
        if let Value::Object(map) = &mut params {
            if let Some(key) = &self.session_key {
                map.insert("sessionKey".into(), json!(key));
            }
            if let Some(agent) = &self.agent_id {
                map.insert("agentId".into(), json!(agent));
            }
            if let Some(key) = &self.idempotency_key {
                map.insert("idempotencyKey".into(), json!(key));
            }
        }
        params
    }
}

/// Why the gateway did not run the tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RefusalKind {
    /// Not available to this caller: unknown there, hidden by the tool policy, or denied on
    /// the gateway's invoke surface (`not_found`).
    NotAvailable,
    /// Blocked by a hook, a session rule or an approval requirement (`forbidden`,
    /// `requires_approval`).
    Blocked,
    /// The request or the arguments were invalid (`validation_error`).
    Invalid,
    /// The tool ran and failed (`internal_error`).
    Failed,
}

/// What a `tools.invoke` answer says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum InvokeAnswer {
    /// The tool ran; `output` is its result (`{content, details}` for OpenClaw tools).
    Ran { tool: String, output: Value },
    /// The gateway refused or the tool failed: `code` and `message` as the gateway gave them.
    Refused {
        tool: String,
        kind: RefusalKind,
        code: String,
        message: String,
        requires_approval: bool,
    },
}

/// Reads a `tools.invoke` response payload (`{ok, toolName, output}` or `{ok:false, error}`).
pub(crate) fn read_answer(requested: &str, payload: &Value) -> InvokeAnswer {
    let tool = payload
        .get("toolName")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .unwrap_or(requested)
        .to_string();
    if payload.get("ok").and_then(Value::as_bool) == Some(true) {
        return InvokeAnswer::Ran {
            tool,
            output: payload.get("output").cloned().unwrap_or(Value::Null),
        };
    }
    let code = payload
        .pointer("/error/code")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    let message = payload
        .pointer("/error/message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("the gateway answered without ok: {payload}"));
    let requires_approval = payload.get("requiresApproval").and_then(Value::as_bool) == Some(true)
        || code == "requires_approval";
    let kind = match code.as_str() {
        "not_found" => RefusalKind::NotAvailable,
        "forbidden" | "requires_approval" => RefusalKind::Blocked,
        "validation_error" => RefusalKind::Invalid,
        _ if requires_approval => RefusalKind::Blocked,
        _ => RefusalKind::Failed,
    };
    InvokeAnswer::Refused {
        tool,
        kind,
        code,
        message,
        requires_approval,
    }
}

/// What an operator can change when the gateway says a tool is not available. `in_catalog`:
/// whether the gateway's `tools.catalog` lists the tool at all (None when unknown).
pub(crate) fn not_available_hint(tool: &str, in_catalog: Option<bool>) -> String {
    if DEFAULT_DENY.contains(&tool) {
        return format!(
            "`{tool}` is on the gateway's default deny list for /tools/invoke and tools.invoke \
(even when the session's tool policy allows it); to lift it, add \"{tool}\" to \
`gateway.tools.allow` in the gateway's openclaw.json (and keep it allowed by the agent's tool \
policy: tools.allow / agents.<id>.tools.allow)"
        );
    }
    match in_catalog {
        Some(false) => format!(
            "the gateway has no tool `{tool}` (not in its tools.catalog); `clawdeck catalog sync` \
then `clawdeck tools` lists what it has"
        ),
        _ => format!(
            "`{tool}` exists but is not available to this session: the gateway's tool policy \
hides it (tools.profile / tools.allow / tools.deny, agents.<id>.tools, group or subagent \
policy) or `gateway.tools.deny` lists it; `clawdeck gateway effective --session KEY` shows \
what a session has"
        ),
    }
}

/// Whether a `tools.catalog` payload lists `tool` (groups[].tools[].id or a flat tools[]).
pub(crate) fn catalog_lists(payload: &Value, tool: &str) -> bool {
    super::tools::effective_tools(payload)
        .iter()
        .any(|t| t.name == tool)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    // Payloads as the real 2026.9.6 gateway answered `tools.invoke` (recorded with
    // `openclaw gateway call tools.invoke`).
    const RAN: &str = r#"{"ok":true,"toolName":"sessions_list","output":{"content":[{"type":"text","text":"{\"count\":0}"}],"details":{"count":0,"sessions":[]}}}"#;
    const EXEC_DENIED: &str = r#"{"ok":false,"toolName":"exec","error":{"code":"not_found","message":"Tool not available: exec"}}"#;
    const BAD_ARGS: &str = r#"{"ok":false,"toolName":"sessions_list","error":{"code":"internal_error","message":"limit must be a positive integer"}}"#;

    #[test]
    fn params_carry_name_args_and_the_optional_target() {
        let mut req = InvokeRequest {
            tool: "sessions_list".into(),
            args: json!({"limit": 2}),
            session_key: None,
            agent_id: Some("ops".into()),
            idempotency_key: None,
        };
        assert_eq!(
            req.params(),
            json!({"name": "sessions_list", "args": {"limit": 2}, "agentId": "ops"})
        );
        req.session_key = Some("agent:ops:main".into());
        req.idempotency_key = Some("call-1".into());
        assert_eq!(req.params()["sessionKey"], "agent:ops:main");
        assert_eq!(req.params()["idempotencyKey"], "call-1");
    }

    #[test]
    fn recorded_answers_are_read() {
        let ran = read_answer("sessions_list", &serde_json::from_str(RAN).unwrap());
        let InvokeAnswer::Ran { tool, output } = ran else {
            panic!("{ran:?}")
        };
        assert_eq!(tool, "sessions_list");
        assert_eq!(output["details"]["count"], 0);

        let denied = read_answer("exec", &serde_json::from_str(EXEC_DENIED).unwrap());
        assert_eq!(
            denied,
            InvokeAnswer::Refused {
                tool: "exec".into(),
                kind: RefusalKind::NotAvailable,
                code: "not_found".into(),
                message: "Tool not available: exec".into(),
                requires_approval: false,
            }
        );
        let failed = read_answer("sessions_list", &serde_json::from_str(BAD_ARGS).unwrap());
        assert!(matches!(
            failed,
            InvokeAnswer::Refused { kind: RefusalKind::Failed, ref message, .. }
                if message == "limit must be a positive integer"
        ));
        let approval = read_answer(
            "x",
            &json!({"ok": false, "requiresApproval": true, "error": {"code": "requires_approval", "message": "needs approval"}}),
        );
        assert!(matches!(
            approval,
            InvokeAnswer::Refused {
                kind: RefusalKind::Blocked,
                requires_approval: true,
                ..
            }
        ));
    }

    #[test]
    fn hints_name_the_key_that_changes_the_answer() {
        let exec = not_available_hint("exec", Some(true));
        assert!(exec.contains("gateway.tools.allow"), "{exec}");
        assert!(exec.contains("\"exec\""), "{exec}");
        let unknown = not_available_hint("nosuch", Some(false));
        assert!(unknown.contains("no tool `nosuch`"), "{unknown}");
        let hidden = not_available_hint("browser", Some(true));
        assert!(hidden.contains("tool policy"), "{hidden}");
        assert!(catalog_lists(
            &json!({"groups": [{"id": "web", "tools": [{"id": "browser"}]}]}),
            "browser"
        ));
        assert!(!catalog_lists(&json!({"groups": []}), "browser"));
    }
}
