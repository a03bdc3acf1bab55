//! The gateway transport (issue 12 §7): the remote agent's turn runs through the gateway's
//! WebSocket `agent` method. The assistant's text deltas are the run's stdout, exactly like
//! CLI output; the remote agent's own tool calls are published as notes as they happen; a
//! refused run or a failed turn goes to stderr. On timeout or kill the run is aborted on the
//! gateway (best effort, bounded) and the connection dropped.

use std::time::Duration;

use serde_json::{Value, json};

use super::events::StdStream;
use super::transport::{
    ChunkSink, NoteSink, RunPlan, StartFailure, Stop, StopReason, Transport, TransportEnd,
};
use crate::gateway::{
    Backoff, ClientEvent, ConnectOptions, DeviceIdentity, EventFrame, GatewayAuth, GatewayClient,
    GatewayEndpoint, endpoint::websocket_url,
};
use crate::tool::BoxFuture;

/// How long an abort on the gateway may take after a stop before the connection is dropped.
const ABORT_WAIT: Duration = Duration::from_secs(2);
/// After the run's lifecycle ends without any streamed text, how long to wait for the chat
/// final that carries it.
const FINAL_WAIT: Duration = Duration::from_secs(3);

/// Runs router tasks through the gateway's `agent` method.
#[derive(Debug, Default)]
pub(crate) struct GatewayTransport;

/// What one gateway event means for the run with id `run_id`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RunSignal {
    /// Assistant text, in order.
    Text(String),
    /// A remote tool call step, as a one-line note.
    Tool(String),
    /// The run's lifecycle ended (`aborted`: the gateway aborted it).
    Ended { aborted: bool },
    /// The chat turn is final; `text` is the whole assistant message.
    Final { text: String },
    /// The run failed on the gateway.
    Error(String),
    /// Nothing for this run.
    Nothing,
}

/// Interprets one event for `run_id` (`agent` assistant/lifecycle/tool streams,
/// `session.tool`, `chat` final/error).
pub(crate) fn read_run_event(event: &EventFrame, run_id: &str) -> RunSignal {
    let p = &event.payload;
    if p.get("runId").and_then(Value::as_str) != Some(run_id) {
        return RunSignal::Nothing;
    }
    let data = p.get("data").unwrap_or(&Value::Null);
    let phase = data.get("phase").and_then(Value::as_str).unwrap_or("");
    match (
        event.event.as_str(),
        p.get("stream").and_then(Value::as_str),
    ) {
        ("agent", Some("assistant")) => match data.get("delta").and_then(Value::as_str) {
            Some(delta) if !delta.is_empty() => RunSignal::Text(delta.to_string()),
            _ => RunSignal::Nothing,
        },
        ("agent", Some("lifecycle")) => match phase {
            "end" => RunSignal::Ended {
                aborted: data.get("aborted").and_then(Value::as_bool) == Some(true),
            },
            "error" => RunSignal::Error(
                data.get("error")
                    .map(error_text)
                    .unwrap_or_else(|| "the agent run failed".to_string()),
            ),
            _ => RunSignal::Nothing,
        },
        // The run's own connection gets tool steps on the `agent` stream `tool`; session
        // subscribers get them as `session.tool`.
        ("session.tool", _) | ("agent", Some("tool")) => {
            let name = data.get("name").and_then(Value::as_str).unwrap_or("?");
            match phase {
                "start" => RunSignal::Tool(format!(
                    "remote tool {name} started: {}",
                    clip(&data.get("args").cloned().unwrap_or(Value::Null).to_string())
                )),
                "result" => {
                    let failed = data.get("isError").and_then(Value::as_bool) == Some(true);
                    let output = data
                        .pointer("/result/content")
                        .and_then(Value::as_array)
                        .map(|blocks| clawdeck_core::content::blocks_text(blocks, ""))
                        .unwrap_or_default();
                    RunSignal::Tool(format!(
                        "remote tool {name} {}: {}",
                        if failed { "failed" } else { "returned" },
                        clip(output.trim())
                    ))
                }
                _ => RunSignal::Nothing,
            }
        }
        ("chat", _) => match p.get("state").and_then(Value::as_str) {
            Some("final") => RunSignal::Final {
                text: message_text(p.get("message").unwrap_or(&Value::Null)),
            },
            Some("error") => RunSignal::Error(
                p.get("errorMessage")
                    .and_then(Value::as_str)
                    .unwrap_or("the chat turn failed")
                    .to_string(),
            ),
            Some("aborted") => RunSignal::Ended { aborted: true },
            _ => RunSignal::Nothing,
        },
        _ => RunSignal::Nothing,
    }
}

fn error_text(error: &Value) -> String {
    error
        .as_str()
        .map(str::to_string)
        .or_else(|| {
            error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| error.to_string())
}

/// The text blocks of a chat message (`content` as a string or as blocks).
fn message_text(message: &Value) -> String {
    // Only `text` blocks: a run's thinking or tool blocks are not its answer.
    match message.get("content") {
        Some(Value::Array(blocks)) => clawdeck_core::content::blocks_text(
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text")),
            "",
        ),
        other => clawdeck_core::content::content_text(other, "").unwrap_or_default(),
    }
}

/// Notes stay one short line.
fn clip(text: &str) -> String {
    const MAX: usize = 200;
    let line = text.replace('\n', " ");
    match line.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// The `agent` parameters for a run.
pub(crate) fn agent_params(plan: &RunPlan, agent: &str) -> Value {
    json!({
        "message": plan.remote_message,
        "agentId": agent,
        // One gateway run per router run; a retried request is not run twice.
        "idempotencyKey": format!("clawdeck-router-{}-{}-{}", std::process::id(), plan.run_id, unique_suffix()),
    })
}

fn unique_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

fn failure(error: String) -> TransportEnd {
    TransportEnd {
        failure: Some(StartFailure::Gateway { error }),
        ..TransportEnd::default()
    }
}

impl Transport for GatewayTransport {
    fn run(
        &self,
        plan: RunPlan,
        chunks: ChunkSink,
        notes: NoteSink,
        stop: Stop,
    ) -> BoxFuture<'static, TransportEnd> {
        Box::pin(async move {
            let Some(http) = plan.http.clone() else {
                return failure("no gateway configured".into());
            };
            let url = match websocket_url(&http.base_url) {
                Ok(u) => u,
                Err(e) => {
                    return failure(format!("router.gateway.url / OPENCLAW_GATEWAY_URL: {e}"));
                }
            };
            let endpoint = GatewayEndpoint {
                name: "router".into(),
                url,
                auth: http
                    .token
                    .clone()
                    .map_or(GatewayAuth::None, GatewayAuth::Token),
                origin: "router.gateway / OPENCLAW_GATEWAY_URL".into(),
            };
            let identity = match DeviceIdentity::load_default() {
                Ok(i) => i,
                Err(e) => return failure(format!("device identity: {e}")),
            };
            // A gateway still starting is waited out until the run's deadline or a kill.
            let connect = GatewayClient::connect_until(
                endpoint,
                identity,
                ConnectOptions::default(),
                Backoff::default(),
                async {
                    stop.requested().await;
                },
            );
            let client = match connect.await {
                Ok(c) => c,
                Err(e) => {
                    return match stop.reason() {
                        Some(StopReason::Killed) => {
                            notes("stopped while connecting to the gateway".into());
                            TransportEnd::default()
                        }
                        // At the deadline: the gateway's last answer ("starting ...") says
                        // why nothing ran; a gateway that never answered is a plain timeout.
                        Some(StopReason::Timeout) if e.starting_retry_after().is_none() => {
                            notes(format!("deadline reached while connecting: {e}"));
                            TransportEnd::default()
                        }
                        _ => failure(e.to_string()),
                    };
                }
            };
            let end = drive(&client, &plan, &http.agent, &chunks, &notes, &stop).await;
            client.close();
            end
        })
    }
}

/// Starts the turn and follows its events until it ends, fails or is stopped.
async fn drive(
    client: &GatewayClient,
    plan: &RunPlan,
    agent: &str,
    chunks: &ChunkSink,
    notes: &NoteSink,
    stop: &Stop,
) -> TransportEnd {
    // Subscribe before starting, so no event of the run is missed.
    let mut events = client.event_stream(crate::gateway::FEED_CAPACITY);
    let accepted = tokio::select! {
        a = client.request("agent", agent_params(plan, agent)) => a,
        _ = stop.requested() => {
            notes("stopped before the gateway accepted the run".into());
            return TransportEnd::default();
        }
    };
    let accepted = match accepted {
        Ok(a) => a,
        Err(crate::gateway::GatewayError::Refused { message, code, .. }) => {
            // Like the CLI's own error text (unknown agent, bad input): into the raw output.
            chunks(StdStream::Stderr, format!("{message}\n").into_bytes());
            notes(format!("the gateway refused the agent run ({code})"));
            return exited(1);
        }
        Err(e) => return failure(e.to_string()),
    };
    let Some(run_id) = accepted
        .get("runId")
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return failure(format!("agent answered without a runId: {accepted}"));
    };
    notes(format!("gateway run {run_id} accepted"));
    follow_run(client, &mut events, &run_id, chunks, notes, stop).await
}

/// A run's end with this exit code.
fn exited(code: i32) -> TransportEnd {
    TransportEnd {
        exit_code: Some(code),
        ..TransportEnd::default()
    }
}

/// Publishes the accepted run's text (stdout), errors (stderr) and tool lines (notes) until it
/// ends, the connection goes, or clawdeck stops it (then the gateway is asked to abort it).
async fn follow_run(
    client: &GatewayClient,
    events: &mut crate::gateway::EventStream,
    run_id: &str,
    chunks: &ChunkSink,
    notes: &NoteSink,
    stop: &Stop,
) -> TransportEnd {
    let mut streamed = false;
    let mut final_wait: Option<std::pin::Pin<Box<tokio::time::Sleep>>> = None;
    loop {
        let wait_final = async {
            match final_wait.as_mut() {
                Some(sleep) => sleep.await,
                None => std::future::pending().await,
            }
        };
        let next = tokio::select! {
            e = events.recv() => e,
            _ = wait_final => return exited(0),
            _ = stop.requested() => {
                abort(client, run_id, notes).await;
                return TransportEnd::default();
            }
        };
        let event = match next {
            Some(ClientEvent::Event(event)) => event,
            Some(ClientEvent::Disconnected { reason, .. }) => {
                // A reconnect would not bring this run's stream back.
                chunks(
                    StdStream::Stderr,
                    format!("gateway connection lost mid-run: {reason}\n").into_bytes(),
                );
                return exited(1);
            }
            Some(ClientEvent::Lagged { dropped }) => {
                // The run's text has a hole; its end may have been in it, and then the run's
                // deadline ends the wait.
                chunks(
                    StdStream::Stderr,
                    format!(
                        "clawdeck fell behind the gateway: {dropped} events of this run left out\n"
                    )
                    .into_bytes(),
                );
                continue;
            }
            Some(_) => continue,
            None => {
                chunks(
                    StdStream::Stderr,
                    b"gateway connection closed mid-run\n".to_vec(),
                );
                return exited(1);
            }
        };
        match read_run_event(&event, run_id) {
            RunSignal::Text(t) => {
                streamed = true;
                chunks(StdStream::Stdout, t.into_bytes());
            }
            RunSignal::Tool(line) => notes(line),
            RunSignal::Final { text } => {
                if !streamed && !text.is_empty() {
                    chunks(StdStream::Stdout, text.into_bytes());
                }
                return exited(0);
            }
            RunSignal::Ended { aborted: true } => {
                chunks(StdStream::Stderr, b"the gateway aborted the run\n".to_vec());
                return exited(1);
            }
            RunSignal::Ended { aborted: false } => {
                if streamed {
                    return exited(0);
                }
                // The text may still come with the chat final.
                final_wait.get_or_insert_with(|| Box::pin(tokio::time::sleep(FINAL_WAIT)));
            }
            RunSignal::Error(message) => {
                chunks(StdStream::Stderr, format!("{message}\n").into_bytes());
                return exited(1);
            }
            RunSignal::Nothing => {}
        }
    }
}

/// Asks the gateway to abort the run; bounded, failures only noted.
async fn abort(client: &GatewayClient, run_id: &str, notes: &NoteSink) {
    match client
        .request_with_timeout("sessions.abort", json!({"runId": run_id}), ABORT_WAIT)
        .await
    {
        Ok(_) => notes(format!("gateway run {run_id} aborted")),
        Err(e) => notes(format!("could not abort gateway run {run_id}: {e}")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The frames the real 2026.9.6 gateway sent for a `CALL exec {"command":"echo x"}` run.
    fn recorded() -> Vec<EventFrame> {
        let text = include_str!("../../../tests/fixtures/gateway/exec-run.jsonl");
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["frame"]["type"] == "event")
            .map(|v| serde_json::from_value(v["frame"].clone()).unwrap())
            .collect()
    }

    #[test]
    fn a_recorded_run_gives_its_text_tool_notes_and_end() {
        let run = "b644a7c6-299b-4471-981f-d4df629256d8";
        let signals: Vec<RunSignal> = recorded()
            .iter()
            .map(|e| read_run_event(e, run))
            .filter(|s| *s != RunSignal::Nothing)
            .collect();
        let text: String = signals
            .iter()
            .filter_map(|s| match s {
                RunSignal::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, "tool exec returned: x");
        let tools: Vec<&String> = signals
            .iter()
            .filter_map(|s| match s {
                RunSignal::Tool(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(
            tools,
            [
                r#"remote tool exec started: {"command":"echo x"}"#,
                "remote tool exec returned: x"
            ]
        );
        assert!(signals.contains(&RunSignal::Ended { aborted: false }));
        assert!(signals.contains(&RunSignal::Final {
            text: "tool exec returned: x".into()
        }));
        // Another run's events are not this run's.
        assert!(
            recorded()
                .iter()
                .all(|e| read_run_event(e, "other") == RunSignal::Nothing)
        );
    }

    #[test]
    fn errors_and_aborts() {
        let ev = |event: &str, payload: Value| EventFrame {
            event: event.into(),
            payload,
            seq: None,
        };
        assert_eq!(
            read_run_event(
                &ev(
                    "agent",
                    json!({"runId": "r", "stream": "lifecycle", "data": {"phase": "error", "error": "model down"}})
                ),
                "r"
            ),
            RunSignal::Error("model down".into())
        );
        assert_eq!(
            read_run_event(
                &ev(
                    "chat",
                    json!({"runId": "r", "state": "error", "errorMessage": "boom"})
                ),
                "r"
            ),
            RunSignal::Error("boom".into())
        );
        assert_eq!(
            read_run_event(&ev("chat", json!({"runId": "r", "state": "aborted"})), "r"),
            RunSignal::Ended { aborted: true }
        );
        assert_eq!(clip(&"x".repeat(300)).chars().count(), 201);
    }
}
