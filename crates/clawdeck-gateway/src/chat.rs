//! Talking to a live session: `chat.send` starts a turn, and the turn's own events (status,
//! reply deltas, tool calls, the exec approvals it raises, its end) come back as [`ChatEvent`]s.
//! Stopping a turn is `sessions.abort` (or `chat.abort` on a gateway without it); steering a
//! running turn is `chat.send` with `queueMode: "steer"`, sending into a session `sessions.send`.
//! Each is used only when the gateway's hello lists the method.
//!
//! What 2026.9.6 sends for a `chat.send` turn (seen against the real gateway): `chat` events
//! with `state` `status` (a `phase`), `delta` (`deltaText`, `replace`), `final` (the whole
//! `message`), `error` (`errorMessage`); `agent` events with `stream: "tool"` (the tool calls,
//! for a client with the `tool-events` capability) and `stream: "lifecycle"` (an aborted run
//! ends with `phase: "end"` / `"error"` and `aborted: true`, without a `chat` event); and
//! `exec.approval.requested` whose `request.runId` is the turn's. The turn's `runId` is the
//! `idempotencyKey` it was sent with.

use std::collections::HashSet;
use std::future::Future;
use std::time::Duration;

use serde_json::{Value, json};

use super::approvals::Approval;
use super::client::{ClientEvent, GatewayClient};
use super::error::GatewayError;
use super::frames::{EventFrame, Hello};
use super::watch::{ToolCall, ToolCallTracker, WatchKind, classify};

/// How long a stopped turn is given to report its end after the abort was accepted.
pub const ABORT_GRACE: Duration = Duration::from_secs(5);

/// One `chat.send`: the session, the text, and the key that names the run.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub session_key: String,
    pub agent: Option<String>,
    pub message: String,
    /// `steer`: into the running turn (or a new turn when the session is idle).
    pub queue_mode: Option<String>,
    pub idempotency_key: String,
}

impl ChatRequest {
    pub fn new(session_key: &str, agent: Option<&str>, message: &str) -> ChatRequest {
        ChatRequest {
            session_key: session_key.to_string(),
            agent: agent.map(str::to_string),
            message: message.to_string(),
            queue_mode: None,
            idempotency_key: new_idempotency_key(),
        }
    }

    /// The `chat.send` params.
    pub fn params(&self) -> Value {
        let mut params = json!({
            "sessionKey": self.session_key,
            "message": self.message,
            "idempotencyKey": self.idempotency_key,
        });
        if let Some(agent) = &self.agent {
            params["agentId"] = json!(agent);
        }
        if let Some(mode) = &self.queue_mode {
            params["queueMode"] = json!(mode);
        }
        params
    }
}

/// `clawdeck-chat-` and 16 random hex digits (the time when no randomness is available).
fn new_idempotency_key() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        bytes = nanos.to_be_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("clawdeck-chat-{hex}")
}

/// What a turn did, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum ChatEvent {
    /// The gateway took the message (`chat.send`'s answer).
    Started {
        run_id: String,
        status: String,
    },
    /// Progress before the model answers (`preparing_context`, `starting_model`, ...).
    Status {
        phase: String,
    },
    /// Reply text: appended, or (`replace`) replacing what came so far.
    Delta {
        text: String,
        replace: bool,
    },
    Tool(ToolCall),
    /// The turn's exec asks an operator (answer it with `exec.approval.resolve`).
    Approval(Approval),
    ApprovalResolved {
        id: String,
        decision: String,
    },
    /// The reply is complete.
    Final {
        text: String,
        stop_reason: String,
    },
    /// The turn was stopped (`sessions.abort`, `chat.abort`).
    Aborted {
        reason: String,
    },
    /// The turn failed.
    Error {
        message: String,
    },
    /// `dropped` gateway events were left out here: clawdeck fell behind a flood. The turn's
    /// end is then also asked for (`agent.wait`), in case it was among them.
    Gap {
        dropped: u64,
    },
}

impl ChatEvent {
    /// Whether the turn is over.
    pub fn is_end(&self) -> bool {
        matches!(
            self,
            ChatEvent::Final { .. } | ChatEvent::Aborted { .. } | ChatEvent::Error { .. }
        )
    }

    /// The JSON object `clawdeck chat --json` prints for it (`kind` and the kind's fields).
    pub fn to_json(&self) -> Value {
        match self {
            ChatEvent::Started { run_id, status } => {
                json!({"kind": "started", "runId": run_id, "status": status})
            }
            ChatEvent::Status { phase } => json!({"kind": "status", "phase": phase}),
            ChatEvent::Delta { text, replace } => {
                json!({"kind": "delta", "text": text, "replace": replace})
            }
            ChatEvent::Tool(tool) => json!({"kind": "tool", "tool": {
                "name": tool.name,
                "phase": tool.phase,
                "toolCallId": tool.call_id,
                "args": tool.args,
                "output": tool.output,
                "isError": tool.is_error,
                "durationMs": tool.duration_ms,
            }}),
            ChatEvent::Approval(a) => json!({"kind": "approval", "approval": a.to_json()}),
            ChatEvent::ApprovalResolved { id, decision } => {
                json!({"kind": "approval-resolved", "id": id, "decision": decision})
            }
            ChatEvent::Final { text, stop_reason } => {
                json!({"kind": "final", "text": text, "stopReason": stop_reason})
            }
            ChatEvent::Aborted { reason } => json!({"kind": "aborted", "reason": reason}),
            ChatEvent::Error { message } => json!({"kind": "error", "message": message}),
            ChatEvent::Gap { dropped } => json!({"kind": "gap", "dropped": dropped}),
        }
    }
}

/// Picks one turn's events out of everything a connection receives.
#[derive(Debug)]
pub struct TurnFilter {
    run_id: String,
    approvals: HashSet<String>,
    calls: ToolCallTracker,
}

impl TurnFilter {
    pub fn new(run_id: &str) -> TurnFilter {
        TurnFilter {
            run_id: run_id.to_string(),
            approvals: HashSet::new(),
            calls: ToolCallTracker::default(),
        }
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The turn's event in `frame`, if it is one.
    pub fn read(&mut self, frame: &EventFrame) -> Option<ChatEvent> {
        let payload = &frame.payload;
        match frame.event.as_str() {
            "chat" if self.is_ours(payload) => read_chat(payload),
            "agent" if self.is_ours(payload) => self.read_agent(&frame.event, payload),
            "exec.approval.requested" => {
                let run = payload.pointer("/request/runId").and_then(Value::as_str);
                (run == Some(self.run_id.as_str())).then(|| {
                    let approval = Approval::from_event(payload);
                    self.approvals.insert(approval.id.clone());
                    ChatEvent::Approval(approval)
                })
            }
            "exec.approval.resolved" => {
                let id = text(payload, "id");
                self.approvals
                    .contains(&id)
                    .then(|| ChatEvent::ApprovalResolved {
                        id,
                        decision: text(payload, "decision"),
                    })
            }
            _ => None,
        }
    }

    fn is_ours(&self, payload: &Value) -> bool {
        payload.get("runId").and_then(Value::as_str) == Some(self.run_id.as_str())
    }

    fn read_agent(&mut self, event: &str, payload: &Value) -> Option<ChatEvent> {
        match payload.get("stream").and_then(Value::as_str)? {
            "tool" => {
                let mut item = classify("", event, payload);
                self.calls.annotate(&mut item);
                match item.kind {
                    WatchKind::Tool(call) => Some(ChatEvent::Tool(call)),
                    _ => None,
                }
            }
            "lifecycle" => read_lifecycle(payload.get("data").unwrap_or(&Value::Null)),
            _ => None,
        }
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// A `chat` event of the turn.
fn read_chat(payload: &Value) -> Option<ChatEvent> {
    match payload.get("state").and_then(Value::as_str)? {
        "status" => Some(ChatEvent::Status {
            phase: text(payload, "phase"),
        }),
        "delta" => Some(ChatEvent::Delta {
            text: text(payload, "deltaText"),
            replace: payload.get("replace").and_then(Value::as_bool) == Some(true),
        }),
        "final" => Some(ChatEvent::Final {
            text: message_text(payload.get("message").unwrap_or(&Value::Null)),
            stop_reason: text(payload, "stopReason"),
        }),
        "aborted" => Some(ChatEvent::Aborted {
            reason: text(payload, "stopReason"),
        }),
        "error" => Some(ChatEvent::Error {
            message: text(payload, "errorMessage"),
        }),
        _ => None,
    }
}

/// The run's end when it was stopped or failed (a normal end is the `chat` final, which
/// follows its lifecycle end).
fn read_lifecycle(data: &Value) -> Option<ChatEvent> {
    let aborted = data.get("aborted").and_then(Value::as_bool) == Some(true);
    let reason = || {
        data.get("stopReason")
            .or_else(|| data.get("status"))
            .and_then(Value::as_str)
            .unwrap_or("aborted")
            .to_string()
    };
    match data.get("phase").and_then(Value::as_str)? {
        "end" | "error" if aborted => Some(ChatEvent::Aborted { reason: reason() }),
        "error" => Some(ChatEvent::Error {
            message: text(data, "error"),
        }),
        _ => None,
    }
}

/// A message's text: a string `content`, or its `text` blocks.
fn message_text(message: &Value) -> String {
    clawdeck_core::content::content_text(message.get("content"), "").unwrap_or_default()
}

/// Whether the gateway's hello lists `method`.
pub fn offers(hello: &Hello, method: &str) -> bool {
    hello.methods.iter().any(|m| m == method)
}

/// `Err(NotOffered)` unless the gateway lists `method`.
fn require(client: &GatewayClient, method: &str) -> Result<(), GatewayError> {
    if offers(client.hello(), method) {
        Ok(())
    } else {
        Err(GatewayError::NotOffered {
            method: method.to_string(),
        })
    }
}

/// Whether this gateway has the session `session_key`: `sessions.describe` where the gateway
/// offers it (2026.9 answers `{session: null}` for a key it does not have), else its
/// `sessions.list` pages (2026.8; at most `session_pages::MAX_PAGES` pages). Answers, aborts
/// and messages go only to a gateway that has the session: `chat.send` to one that does not
/// would start a new session there.
pub async fn holds_session(
    client: &GatewayClient,
    session_key: &str,
) -> Result<bool, GatewayError> {
    if offers(client.hello(), "sessions.describe") {
        let answer = client
            .request("sessions.describe", json!({"key": session_key}))
            .await?;
        return Ok(answer.get("session").is_some_and(|row| !row.is_null()));
    }
    let pages = super::session_pages::list_all_sessions(client, &json!({})).await?;
    Ok(pages
        .rows
        .iter()
        .any(|row| row.get("key").and_then(Value::as_str) == Some(session_key)))
}

/// Which method stops a session's work on this gateway, with its params: `sessions.abort`
/// (`key`, `runId`), else `chat.abort` (`sessionKey`, `runId`).
pub fn abort_call(
    hello: &Hello,
    session_key: &str,
    run_id: Option<&str>,
) -> Result<(&'static str, Value), GatewayError> {
    let with_run = |mut params: Value| {
        if let Some(run) = run_id {
            params["runId"] = json!(run);
        }
        params
    };
    if offers(hello, "sessions.abort") {
        Ok(("sessions.abort", with_run(json!({"key": session_key}))))
    } else if offers(hello, "chat.abort") {
        Ok(("chat.abort", with_run(json!({"sessionKey": session_key}))))
    } else {
        Err(GatewayError::NotOffered {
            method: "sessions.abort".to_string(),
        })
    }
}

/// Stops the session's active work (only the run `run_id` when given); the gateway's answer.
pub async fn abort(
    client: &GatewayClient,
    session_key: &str,
    run_id: Option<&str>,
) -> Result<Value, GatewayError> {
    let (method, params) = abort_call(client.hello(), session_key, run_id)?;
    client.request(method, params).await
}

/// Puts `message` into the session's running turn (`chat.send` with `queueMode: "steer"`; an
/// idle session starts a new turn with it). Returns the gateway's answer (its `runId`).
pub async fn steer(
    client: &GatewayClient,
    session_key: &str,
    message: &str,
) -> Result<Value, GatewayError> {
    require(client, "chat.send")?;
    let mut request = ChatRequest::new(session_key, None, message);
    request.queue_mode = Some("steer".to_string());
    client.request("chat.send", request.params()).await
}

/// Sends `message` into an existing session (`sessions.send`).
pub async fn send(
    client: &GatewayClient,
    session_key: &str,
    message: &str,
) -> Result<Value, GatewayError> {
    require(client, "sessions.send")?;
    let params = json!({
        "key": session_key,
        "message": message,
        "idempotencyKey": new_idempotency_key(),
    });
    client.request("sessions.send", params).await
}

/// Runs one turn: sends `request` and reports each of its events to `on_event` until it ends.
/// When `stop` resolves first, the turn is aborted and given [`ABORT_GRACE`] to report its
/// end (an `Aborted` is reported when it does not). Returns the last event.
pub async fn run_turn(
    client: &GatewayClient,
    request: &ChatRequest,
    stop: impl Future<Output = ()>,
    mut on_event: impl FnMut(&ChatEvent),
) -> Result<ChatEvent, GatewayError> {
    require(client, "chat.send")?;
    // Listen before sending: the first events can come before the answer.
    let mut events = client.event_stream(crate::FEED_CAPACITY);
    let send = client.request("chat.send", request.params());
    tokio::pin!(send);
    tokio::pin!(stop);
    let accepted = tokio::select! {
        answer = &mut send => answer?,
        _ = &mut stop => {
            return abort_unacknowledged(client, request, send, &mut on_event).await;
        }
    };
    let run_id = accepted
        .get("runId")
        .and_then(Value::as_str)
        .unwrap_or(&request.idempotency_key)
        .to_string();
    on_event(&ChatEvent::Started {
        run_id: run_id.clone(),
        status: text(&accepted, "status"),
    });
    let mut filter = TurnFilter::new(&run_id);
    if let Some(end) = follow(client, &mut events, &mut filter, &mut stop, &mut on_event).await? {
        return Ok(end);
    }
    // Stopped by the caller: abort, then wait for the turn to say it ended.
    let answer = abort(client, &request.session_key, Some(&run_id)).await?;
    let grace = tokio::time::sleep(ABORT_GRACE);
    if let Some(end) = follow(client, &mut events, &mut filter, grace, &mut on_event).await? {
        return Ok(end);
    }
    let end = ChatEvent::Aborted {
        reason: format!("{} (no end reported)", text(&answer, "status")),
    };
    on_event(&end);
    Ok(end)
}

/// Stopped before the gateway answered `chat.send`: the turn may start all the same. Its run
/// id is the idempotency key, so it is aborted at once, and once more if the answer comes
/// within `ACK_WAIT` (the first abort may have come before the run existed); both fit in the
/// time the stop policy gives a mode to wind down.
async fn abort_unacknowledged(
    client: &GatewayClient,
    request: &ChatRequest,
    send: impl Future<Output = Result<Value, GatewayError>>,
    on_event: &mut impl FnMut(&ChatEvent),
) -> Result<ChatEvent, GatewayError> {
    const ACK_WAIT: Duration = Duration::from_secs(2);
    let run = request.idempotency_key.as_str();
    let first = abort(client, &request.session_key, Some(run));
    let (first, answered) = tokio::join!(first, tokio::time::timeout(ACK_WAIT, send));
    let mut status = first.map(|a| text(&a, "status"))?;
    if let Ok(Ok(_)) = answered {
        let again = abort(client, &request.session_key, Some(run)).await?;
        status = format!("{status}, then {}", text(&again, "status"));
    }
    let end = ChatEvent::Aborted {
        reason: format!("stopped before the gateway took the message: {status}"),
    };
    on_event(&end);
    Ok(end)
}

/// Reports the turn's events until it ends (`Some(end)`) or `stop` resolves (`None`). After a
/// gap in the events the turn's end may have been lost: from then on the gateway is also asked
/// to wait for the run (`agent.wait`), and its answer ends the turn if no end event does.
async fn follow(
    client: &GatewayClient,
    events: &mut crate::EventStream,
    filter: &mut TurnFilter,
    stop: impl Future<Output = ()>,
    on_event: &mut impl FnMut(&ChatEvent),
) -> Result<Option<ChatEvent>, GatewayError> {
    tokio::pin!(stop);
    let mut waiting: Option<std::pin::Pin<Box<dyn Future<Output = Option<ChatEvent>> + Send>>> =
        None;
    loop {
        let asked = async {
            match waiting.as_mut() {
                Some(wait) => wait.await,
                None => std::future::pending().await,
            }
        };
        let next = tokio::select! {
            _ = &mut stop => return Ok(None),
            next = events.recv() => next,
            end = asked => match end {
                Some(end) => {
                    on_event(&end);
                    return Ok(Some(end));
                }
                // Still running: asked again.
                None => {
                    waiting = Some(Box::pin(wait_for_run(client.clone(), filter.run_id().to_string())));
                    continue;
                }
            },
        };
        match next {
            Some(ClientEvent::Event(frame)) => {
                if let Some(event) = filter.read(&frame) {
                    on_event(&event);
                    if event.is_end() {
                        return Ok(Some(event));
                    }
                }
            }
            Some(ClientEvent::Lagged { dropped }) => {
                on_event(&ChatEvent::Gap { dropped });
                if waiting.is_none() {
                    waiting = Some(Box::pin(wait_for_run(
                        client.clone(),
                        filter.run_id().to_string(),
                    )));
                }
            }
            Some(ClientEvent::Failed(err)) => return Err(err),
            Some(_) => {}
            None => {
                return Err(GatewayError::Disconnected {
                    reason: "the connection closed during the turn".to_string(),
                });
            }
        }
    }
}

/// How long one `agent.wait` waits for the run on the gateway.
const RUN_WAIT: Duration = Duration::from_secs(30);

/// The turn's end as `agent.wait` reports it; None while the run goes on (or the ask failed:
/// it is asked again, the events may still bring the end).
async fn wait_for_run(client: GatewayClient, run_id: String) -> Option<ChatEvent> {
    // A gateway that answers at once without an end is not asked again in a tight loop.
    let next_ask = tokio::time::Instant::now() + Duration::from_secs(1);
    let params = json!({"runId": run_id, "timeoutMs": RUN_WAIT.as_millis() as u64});
    let answer = client
        .request_with_timeout("agent.wait", params, RUN_WAIT + Duration::from_secs(10))
        .await;
    let end = answer.ok().and_then(|answer| run_end(&answer));
    if end.is_none() {
        tokio::time::sleep_until(next_ask).await;
    }
    end
}

/// A turn's end from an `agent.wait` answer (`status` ok / error / aborted...; `timeout` and
/// `pending` mean it still runs).
fn run_end(answer: &Value) -> Option<ChatEvent> {
    let status = answer.get("status").and_then(Value::as_str)?;
    let stop_reason = Some(text(answer, "stopReason"))
        .filter(|reason| !reason.is_empty())
        .unwrap_or_else(|| status.to_string());
    Some(match status {
        "timeout" | "pending" | "running" | "" => return None,
        "ok" | "completed" | "done" => ChatEvent::Final {
            text: answer
                .get("terminalReply")
                .map(reply_text)
                .unwrap_or_default(),
            stop_reason,
        },
        "aborted" | "cancelled" | "killed" => ChatEvent::Aborted {
            reason: stop_reason,
        },
        other => ChatEvent::Error {
            message: answer
                .get("error")
                .map(|e| match e.as_str() {
                    Some(text) => text.to_string(),
                    None => e.to_string(),
                })
                .filter(|m| !m.is_empty() && m != "null")
                .unwrap_or_else(|| format!("the run ended with status {other}")),
        },
    })
}

/// The text of an `agent.wait` `terminalReply` (`{disposition: "visible", text}`; empty for a
/// silent or empty reply).
fn reply_text(reply: &Value) -> String {
    reply
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_wait_answer_ends_the_turn_or_says_it_runs() {
        assert_eq!(run_end(&json!({"runId": "r", "status": "timeout"})), None);
        assert_eq!(
            run_end(&json!({"runId": "r", "status": "ok", "stopReason": "stop",
                "terminalReply": {"disposition": "visible", "text": "done"}})),
            Some(ChatEvent::Final {
                text: "done".into(),
                stop_reason: "stop".into()
            })
        );
        assert_eq!(
            run_end(&json!({"runId": "r", "status": "error", "error": "model failed"})),
            Some(ChatEvent::Error {
                message: "model failed".into()
            })
        );
    }

    fn frame(event: &str, payload: Value) -> EventFrame {
        EventFrame {
            event: event.to_string(),
            payload,
            seq: None,
        }
    }

    #[test]
    fn a_turns_events_are_read_and_other_runs_are_not() {
        let mut filter = TurnFilter::new("r1");
        let delta = frame(
            "chat",
            json!({"runId": "r1", "state": "delta", "deltaText": "Sum", "sessionKey": "k"}),
        );
        assert_eq!(
            filter.read(&delta),
            Some(ChatEvent::Delta {
                text: "Sum".into(),
                replace: false
            })
        );
        let other = frame(
            "chat",
            json!({"runId": "r2", "state": "delta", "deltaText": "x"}),
        );
        assert_eq!(filter.read(&other), None);
        let fin = frame(
            "chat",
            json!({"runId": "r1", "state": "final", "stopReason": "stop",
                   "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}]}}),
        );
        let end = filter.read(&fin).unwrap();
        assert!(end.is_end());
        assert_eq!(end.to_json()["text"], "done");
    }

    #[test]
    fn tool_calls_carry_their_arguments_into_the_result() {
        let mut filter = TurnFilter::new("r1");
        let start = frame(
            "agent",
            json!({"runId": "r1", "stream": "tool", "ts": 10,
                   "data": {"phase": "start", "name": "exec", "toolCallId": "c1", "args": {"command": "echo hi"}}}),
        );
        let result = frame(
            "agent",
            json!({"runId": "r1", "stream": "tool", "ts": 30,
                   "data": {"phase": "result", "name": "exec", "toolCallId": "c1", "result": "hi"}}),
        );
        assert!(matches!(filter.read(&start), Some(ChatEvent::Tool(_))));
        let Some(ChatEvent::Tool(call)) = filter.read(&result) else {
            panic!("no tool result");
        };
        assert_eq!(call.args["command"], "echo hi");
        assert_eq!(call.output.as_deref(), Some("hi"));
        assert_eq!(call.duration_ms, Some(20));
    }

    #[test]
    fn only_the_turns_approvals_and_their_answers_are_read() {
        let mut filter = TurnFilter::new("r1");
        let ours = frame(
            "exec.approval.requested",
            json!({"id": "a1", "request": {"runId": "r1", "command": "echo hi", "agentId": "ops"}}),
        );
        let theirs = frame(
            "exec.approval.requested",
            json!({"id": "a2", "request": {"runId": "r9", "command": "rm x"}}),
        );
        assert!(matches!(filter.read(&ours), Some(ChatEvent::Approval(a)) if a.id == "a1"));
        assert_eq!(filter.read(&theirs), None);
        let answered = frame(
            "exec.approval.resolved",
            json!({"id": "a1", "decision": "allow-once"}),
        );
        let other_answer = frame(
            "exec.approval.resolved",
            json!({"id": "a2", "decision": "deny"}),
        );
        assert_eq!(
            filter.read(&answered),
            Some(ChatEvent::ApprovalResolved {
                id: "a1".into(),
                decision: "allow-once".into()
            })
        );
        assert_eq!(filter.read(&other_answer), None);
    }

    #[test]
    fn an_aborted_run_ends_on_its_lifecycle_event() {
        let mut filter = TurnFilter::new("r1");
        // As 2026.9.6 sends it after sessions.abort: no chat event, a lifecycle end.
        let end = frame(
            "agent",
            json!({"runId": "r1", "stream": "lifecycle",
                   "data": {"phase": "end", "aborted": true, "status": "cancelled", "stopReason": "rpc"}}),
        );
        assert_eq!(
            filter.read(&end),
            Some(ChatEvent::Aborted {
                reason: "rpc".into()
            })
        );
        // A normal lifecycle end is not the end of the turn (the chat final follows it).
        let normal = frame(
            "agent",
            json!({"runId": "r1", "stream": "lifecycle", "data": {"phase": "end", "aborted": false}}),
        );
        assert_eq!(filter.read(&normal), None);
    }

    fn hello(methods: &[&str]) -> Hello {
        Hello {
            protocol: 4,
            server_version: "t".into(),
            conn_id: "c".into(),
            methods: methods.iter().map(|m| m.to_string()).collect(),
            events: Vec::new(),
            role: "operator".into(),
            scopes: Vec::new(),
            tick_interval_ms: None,
            device_token: None,
            uptime_ms: None,
        }
    }

    #[test]
    fn abort_uses_sessions_abort_then_chat_abort_then_says_it_is_not_offered() {
        let (method, params) =
            abort_call(&hello(&["sessions.abort", "chat.abort"]), "k", Some("r")).unwrap();
        assert_eq!(method, "sessions.abort");
        assert_eq!(params, json!({"key": "k", "runId": "r"}));
        let (method, params) = abort_call(&hello(&["chat.abort"]), "k", None).unwrap();
        assert_eq!(method, "chat.abort");
        assert_eq!(params, json!({"sessionKey": "k"}));
        let err = abort_call(&hello(&["chat.send"]), "k", None).unwrap_err();
        assert!(
            err.to_string().contains("does not offer sessions.abort"),
            "{err}"
        );
    }

    #[test]
    fn chat_send_params_name_the_run_and_carry_agent_and_queue_mode() {
        let mut request = ChatRequest::new("agent:ops:main", Some("ops"), "hi");
        request.queue_mode = Some("steer".into());
        let params = request.params();
        assert_eq!(params["sessionKey"], "agent:ops:main");
        assert_eq!(params["agentId"], "ops");
        assert_eq!(params["queueMode"], "steer");
        assert!(
            params["idempotencyKey"]
                .as_str()
                .unwrap()
                .starts_with("clawdeck-chat-")
        );
        assert_ne!(
            ChatRequest::new("k", None, "x").idempotency_key,
            ChatRequest::new("k", None, "x").idempotency_key
        );
    }
}
