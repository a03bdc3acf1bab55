//! Gateway events as clawdeck shows them: a tool call (name, arguments, output), a transcript
//! message, an exec approval, a session change, or the connection's own news. One `WatchItem`
//! per event; `to_json` is the line `clawdeck gateway watch --json` prints.

use serde_json::{Value, json};

use super::approvals::{Approval, ApprovalKind};
use super::client::ClientEvent;

/// Keep-alive and presence chatter nobody watches.
const QUIET_EVENTS: &[&str] = &["tick", "health", "presence", "heartbeat"];

#[derive(Debug, Clone, PartialEq)]
pub enum WatchKind {
    Connected {
        server_version: String,
        reconnect: bool,
        /// The connection holds `operator.admin`: other operators' approvals reach it too.
        all_operators: bool,
    },
    Disconnected {
        reason: String,
        retry_in_ms: u64,
    },
    Failed {
        error: String,
    },
    Subscribed {
        method: String,
    },
    Tool(ToolCall),
    Message {
        role: String,
        text: String,
    },
    /// Boxed: it carries every field it approves, the other kinds are small.
    ApprovalRequested(Box<Approval>),
    ApprovalResolved {
        kind: ApprovalKind,
        id: String,
        decision: String,
        resolved_by: String,
    },
    SessionChanged {
        reason: String,
    },
    Other,
}

/// One step of a tool call (`start`, `update`, `result`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub phase: String,
    pub call_id: String,
    pub args: Value,
    /// The tool's result text (or partial output for `update`), when the event carries it.
    pub output: Option<String>,
    pub is_error: bool,
    pub run_id: String,
    /// The event's timestamp (ms since the epoch).
    pub ts: Option<u64>,
    /// From the call's start to this event (filled in by `ToolCallTracker`).
    pub duration_ms: Option<u64>,
}

/// Remembers each call's arguments and start time, so that its updates and its result (which
/// the gateway sends without arguments) carry them too.
#[derive(Debug, Default)]
pub struct ToolCallTracker {
    started: std::collections::HashMap<(String, String), (Value, Option<u64>)>,
}

/// Calls whose result never came are forgotten beyond this many.
const TRACKED_CALLS: usize = 4096;

impl ToolCallTracker {
    pub fn annotate(&mut self, item: &mut WatchItem) {
        let WatchKind::Tool(call) = &mut item.kind else {
            return;
        };
        let key = (
            format!("{}/{}", item.gateway, call.run_id),
            call.call_id.clone(),
        );
        if call.phase == "start" {
            if self.started.len() >= TRACKED_CALLS {
                self.started.clear();
            }
            self.started.insert(key, (call.args.clone(), call.ts));
            return;
        }
        let known = if call.phase == "result" {
            self.started.remove(&key)
        } else {
            self.started.get(&key).cloned()
        };
        if let Some((args, started)) = known {
            if call.args.is_null() {
                call.args = args;
            }
            if let (Some(start), Some(now)) = (started, call.ts) {
                call.duration_ms = Some(now.saturating_sub(start));
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct WatchItem {
    pub gateway: String,
    pub event: String,
    pub session_key: Option<String>,
    pub kind: WatchKind,
    pub payload: Value,
}

impl WatchItem {
    /// The item for a client event; `None` for keep-alive chatter.
    pub fn from_client_event(gateway: &str, event: &ClientEvent) -> Option<WatchItem> {
        let item = |event: &str, kind: WatchKind, payload: Value| WatchItem {
            gateway: gateway.to_string(),
            event: event.to_string(),
            session_key: None,
            kind,
            payload,
        };
        Some(match event {
            ClientEvent::Connected { hello, reconnect } => item(
                "clawdeck.connected",
                WatchKind::Connected {
                    server_version: hello.server_version.clone(),
                    reconnect: *reconnect,
                    all_operators: hello.sees_all_operators(),
                },
                Value::Null,
            ),
            ClientEvent::Disconnected { reason, retry_in } => item(
                "clawdeck.disconnected",
                WatchKind::Disconnected {
                    reason: reason.clone(),
                    retry_in_ms: retry_in.as_millis() as u64,
                },
                Value::Null,
            ),
            ClientEvent::Failed(err) => item(
                "clawdeck.failed",
                WatchKind::Failed {
                    error: err.to_string(),
                },
                Value::Null,
            ),
            ClientEvent::Subscribed { method, .. } => item(
                "clawdeck.resubscribed",
                WatchKind::Subscribed {
                    method: method.clone(),
                },
                Value::Null,
            ),
            ClientEvent::SubscribeFailed { method, error } => item(
                "clawdeck.resubscribe-failed",
                WatchKind::Failed {
                    error: format!("{method}: {error}"),
                },
                Value::Null,
            ),
            // The reader rebuilds from a fresh list; shown for what it is.
            ClientEvent::Lagged { dropped } => item(
                "clawdeck.lagged",
                WatchKind::Other,
                serde_json::json!({ "dropped": dropped }),
            ),
            ClientEvent::Event(frame) => {
                if QUIET_EVENTS.contains(&frame.event.as_str()) {
                    return None;
                }
                classify(gateway, &frame.event, &frame.payload)
            }
        })
    }

    /// The JSON line: gateway, event, sessionKey, kind and the kind's fields, plus the raw
    /// payload for anything clawdeck does not read.
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "gateway": self.gateway,
            "event": self.event,
        });
        if let Some(key) = &self.session_key {
            out["sessionKey"] = json!(key);
        }
        let (kind, fields) = match &self.kind {
            WatchKind::Connected {
                server_version,
                reconnect,
                all_operators,
            } => (
                "connected",
                json!({"serverVersion": server_version, "reconnect": reconnect,
                       "allOperators": all_operators}),
            ),
            WatchKind::Disconnected {
                reason,
                retry_in_ms,
            } => (
                "disconnected",
                json!({"reason": reason, "retryInMs": retry_in_ms}),
            ),
            WatchKind::Failed { error } => ("failed", json!({"error": error})),
            WatchKind::Subscribed { method } => ("subscribed", json!({"method": method})),
            WatchKind::Tool(tool) => (
                "tool",
                json!({"tool": {
                    "name": tool.name,
                    "phase": tool.phase,
                    "toolCallId": tool.call_id,
                    "runId": tool.run_id,
                    "args": tool.args,
                    "output": tool.output,
                    "isError": tool.is_error,
                    "durationMs": tool.duration_ms,
                }}),
            ),
            WatchKind::Message { role, text } => ("message", json!({"role": role, "text": text})),
            WatchKind::ApprovalRequested(a) => ("approval", json!({"approval": a.to_json()})),
            WatchKind::ApprovalResolved {
                kind,
                id,
                decision,
                resolved_by,
            } => (
                "approval-resolved",
                json!({"id": id, "decision": decision, "resolvedBy": resolved_by,
                       "approvalKind": kind.as_str()}),
            ),
            WatchKind::SessionChanged { reason } => ("session", json!({"reason": reason})),
            WatchKind::Other => ("event", json!({"payload": self.payload})),
        };
        out["kind"] = json!(kind);
        if let (Some(out), Some(fields)) = (out.as_object_mut(), fields.as_object()) {
            for (k, v) in fields {
                out.insert(k.clone(), v.clone());
            }
        }
        out
    }
}

fn text_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or("").to_string()
}

/// A tool result as text: a string, or the `content[].text` blocks of an MCP-style result.
pub fn result_text(result: &Value) -> Option<String> {
    match result {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => {
            let blocks = other
                .get("content")
                .and_then(Value::as_array)
                .map(|blocks| clawdeck_core::content::blocks_text(blocks, "\n"));
            match blocks {
                Some(text) if !text.is_empty() => Some(text),
                _ => Some(other.to_string()),
            }
        }
    }
}

/// Reads a server event.
pub fn classify(gateway: &str, event: &str, payload: &Value) -> WatchItem {
    let session_key = payload
        .get("sessionKey")
        .or_else(|| payload.get("key"))
        .or_else(|| payload.pointer("/request/sessionKey"))
        .or_else(|| payload.pointer("/task/sessionKey"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let kind = match event {
        "session.tool" | "agent"
            if payload.get("stream").and_then(Value::as_str) == Some("tool") =>
        {
            let data = payload.get("data").unwrap_or(&Value::Null);
            let phase = text_of(data.get("phase"));
            let output = match phase.as_str() {
                "result" => data.get("result").and_then(result_text),
                "update" => data.get("partialResult").and_then(result_text),
                _ => None,
            };
            WatchKind::Tool(ToolCall {
                name: text_of(data.get("name")),
                phase,
                call_id: text_of(data.get("toolCallId")),
                args: data.get("args").cloned().unwrap_or(Value::Null),
                output,
                is_error: data
                    .get("isError")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                run_id: text_of(payload.get("runId")),
                ts: payload.get("ts").and_then(Value::as_u64),
                duration_ms: None,
            })
        }
        "session.message" => {
            let message = payload.get("message").unwrap_or(payload);
            let text = message_text(Some(message));
            WatchKind::Message {
                role: text_of(message.get("role")),
                text,
            }
        }
        name if ApprovalKind::of_event(name).is_some() => approval_kind(name, payload),
        "sessions.changed" => WatchKind::SessionChanged {
            // A run's progress comes with a phase instead of a reason.
            reason: payload
                .get("reason")
                .or_else(|| payload.get("phase"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
        },
        _ => WatchKind::Other,
    };
    WatchItem {
        gateway: gateway.to_string(),
        event: event.to_string(),
        session_key,
        kind,
        payload: payload.clone(),
    }
}

/// An approval event of any kind (`exec.approval.*`, `plugin.approval.*`,
/// `openclaw.approval.*`).
fn approval_kind(event: &str, payload: &Value) -> WatchKind {
    match ApprovalKind::of_event(event) {
        Some((kind, "requested")) => {
            WatchKind::ApprovalRequested(Box::new(Approval::from_event_of(kind, payload)))
        }
        Some((kind, _)) => WatchKind::ApprovalResolved {
            kind,
            id: text_of(payload.get("id")),
            decision: text_of(payload.get("decision")),
            resolved_by: resolver_text(payload.get("resolvedBy")),
        },
        None => WatchKind::Other,
    }
}

/// Who resolved: a string, or `{kind, id}` as the durable ledger records it.
fn resolver_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(obj @ Value::Object(_)) => match (text(obj, "kind"), text(obj, "id")) {
            (kind, id) if id.is_empty() => kind,
            (kind, id) => format!("{kind}:{id}"),
        },
        _ => String::new(),
    }
}

/// One human-readable line: a newline or carriage return in any gateway text is shown as `⏎`
/// (it cannot start a line of its own or overwrite one); an approval's fields are shown fully
/// visible (see [`crate::sanitize::visible`]).
pub fn describe_event(item: &WatchItem) -> String {
    one_line(&describe_kind(item))
}

fn describe_kind(item: &WatchItem) -> String {
    let session = item.session_key.as_deref().unwrap_or("-");
    let gw = &item.gateway;
    match &item.kind {
        WatchKind::Connected {
            server_version,
            reconnect,
            ..
        } => format!(
            "[{gw}] {} (OpenClaw {server_version})",
            if *reconnect {
                "reconnected"
            } else {
                "connected"
            }
        ),
        WatchKind::Disconnected {
            reason,
            retry_in_ms,
        } => format!("[{gw}] disconnected: {reason}; retrying in {retry_in_ms} ms"),
        WatchKind::Failed { error } => format!("[{gw}] gave up: {error}"),
        WatchKind::Subscribed { method } => format!("[{gw}] {method} renewed"),
        WatchKind::Tool(t) => {
            let mut line = format!("[{gw}] {session} tool {} {} {}", t.name, t.phase, t.args);
            if let Some(output) = &t.output {
                line.push_str(&format!(
                    " → {}{}",
                    if t.is_error { "error: " } else { "" },
                    output.replace('\n', "⏎")
                ));
            }
            line
        }
        WatchKind::Message { role, text } => {
            format!("[{gw}] {session} {role}: {}", text.replace('\n', "⏎"))
        }
        WatchKind::ApprovalRequested(a) => format!("[{gw}] approval {}", a.describe()),
        WatchKind::ApprovalResolved {
            id,
            decision,
            resolved_by,
            ..
        } => {
            let [id, decision, by] =
                [id, decision, resolved_by].map(|f| crate::sanitize::visible(f).text);
            format!("[{gw}] approval {id} resolved: {decision} by {by}")
        }
        WatchKind::SessionChanged { reason } => format!("[{gw}] {session} changed ({reason})"),
        WatchKind::Other => format!("[{gw}] {session} {}", summarize(&item.event, &item.payload)),
    }
}

/// The longest text a summary quotes (a streamed reply, a command's output).
const QUOTE_CHARS: usize = 200;

/// `text` on one line: newlines (and carriage returns) shown as ⏎.
pub fn one_line(text: &str) -> String {
    text.replace("\r\n", "⏎").replace(['\n', '\r'], "⏎")
}

/// `text` on one line (newlines shown as ⏎), at most `QUOTE_CHARS` characters.
fn quote(text: &str) -> String {
    let one_line = one_line(text.trim_end());
    if one_line.chars().count() <= QUOTE_CHARS {
        one_line
    } else {
        format!(
            "{}…",
            one_line.chars().take(QUOTE_CHARS).collect::<String>()
        )
    }
}

/// What an event clawdeck does not read field by field says, in words: a run's progress
/// (`agent` streams), a chat reply (`chat`), a task's state (`task`); for any other event its
/// name and fields (`--json` prints the frame itself).
fn summarize(event: &str, payload: &Value) -> String {
    let data = payload.get("data").unwrap_or(&Value::Null);
    match (event, payload.get("stream").and_then(Value::as_str)) {
        ("agent", Some("lifecycle")) => lifecycle_line(data),
        ("agent", Some("usage")) => {
            let counts: Vec<String> = data
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| v.as_u64().map(|n| format!("{k} {n}")))
                .collect();
            format!("usage: {}", counts.join(", "))
        }
        ("agent", Some("item")) => {
            let title = match text(data, "title") {
                t if t.is_empty() => text(data, "name"),
                t => t,
            };
            format!(
                "{} {title} {} ({})",
                text(data, "kind"),
                text(data, "phase"),
                text(data, "status")
            )
        }
        ("agent", Some("command_output")) => command_output_line(data),
        ("agent", Some("assistant")) => {
            let delta = data
                .get("delta")
                .or_else(|| data.get("text"))
                .and_then(Value::as_str)
                .unwrap_or("");
            format!("assistant: {}", quote(delta))
        }
        ("agent", Some("status")) => format!("status {}", text(data, "phase"))
            .trim_end()
            .to_string(),
        ("agent", stream) => format!("agent {}", stream.unwrap_or("event")),
        ("chat", _) => chat_line(payload),
        ("task", _) => {
            let task = payload.get("task").unwrap_or(&Value::Null);
            format!(
                "task {}: {} ({})",
                text(payload, "action"),
                quote(&text(task, "title")),
                text(task, "status")
            )
        }
        _ => {
            let fields: Vec<&str> = payload
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k.as_str())
                .collect();
            if fields.is_empty() {
                event.to_string()
            } else {
                format!("{event} ({})", fields.join(", "))
            }
        }
    }
}

/// A string field, or "" when absent.
fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// A run's phase: its model when chosen, its stop reason when it ends.
fn lifecycle_line(data: &Value) -> String {
    let phase = text(data, "phase");
    let detail = match phase.as_str() {
        "model" if data.get("model").is_some_and(Value::is_string) => {
            format!(": {}/{}", text(data, "provider"), text(data, "model"))
        }
        "end" | "finishing" => {
            let mut d = String::new();
            if let Some(reason) = data.get("stopReason").and_then(Value::as_str) {
                d.push_str(&format!(": {reason}"));
            }
            if data.get("aborted") == Some(&Value::Bool(true)) {
                d.push_str(" (aborted)");
            }
            d
        }
        _ => String::new(),
    };
    format!("run {phase}{detail}")
}

/// A command's phase, exit code, duration and (quoted) output.
fn command_output_line(data: &Value) -> String {
    let title = match text(data, "title") {
        t if t.is_empty() => format!("command {}", text(data, "name")),
        t => t,
    };
    let mut line = format!("{title} {}", text(data, "phase"));
    if let Some(code) = data.get("exitCode").and_then(Value::as_i64) {
        line.push_str(&format!(", exit {code}"));
    }
    if let Some(ms) = data.get("durationMs").and_then(Value::as_u64) {
        line.push_str(&format!(" after {ms} ms"));
    }
    let output = text(data, "output");
    if !output.is_empty() {
        line.push_str(&format!(": {}", quote(&output)));
    }
    line
}

/// A chat event's state, stop reason and what it said.
fn chat_line(payload: &Value) -> String {
    let state = text(payload, "state");
    let said = match state.as_str() {
        "delta" => text(payload, "deltaText"),
        "error" => text(payload, "errorMessage"),
        _ => message_text(payload.get("message")),
    };
    let mut line = format!("chat {state}");
    // A status event says where the turn is (`starting_model`, `running_tool`, ...).
    let phase = text(payload, "phase");
    if !phase.is_empty() {
        line.push_str(&format!(" {phase}"));
    }
    if let Some(reason) = payload.get("stopReason").and_then(Value::as_str) {
        line.push_str(&format!(" ({reason})"));
    }
    if !said.is_empty() {
        line.push_str(&format!(": {}", quote(&said)));
    }
    line
}

/// The text blocks of a transcript message (`content` as a string or `[{text}]`).
fn message_text(message: Option<&Value>) -> String {
    clawdeck_core::content::content_text(message.and_then(|m| m.get("content")), "\n")
        .unwrap_or_default()
}
