//! `ClawbotRouterTool`: the `clawbot_router` tool on top of `RouterService`. It never returns an
//! error for a run that went wrong: every failure is content (seed 000 §3.5). Only a cancelled
//! call (the caller went away) is reported as cancelled, after the tree was killed.

use serde_json::Value;

use super::outcome::refusal_result;
use super::request::{Mode, RouterRequest};
use super::service::RouterService;
use super::texts;
use crate::tool::params::{ReadOptions, lookup, read_integer, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub struct ClawbotRouterTool {
    service: RouterService,
    spec: ToolSpec,
}

impl ClawbotRouterTool {
    /// The tool with the declaration's schema bounded by the service's timeout settings.
    pub fn new(service: RouterService) -> Self {
        let max = service.effective_timeout(Some(u64::MAX));
        let min = service.effective_timeout(Some(0));
        let default = service.effective_timeout(None);
        let spec = super::declaration::spec_with_bounds(min, max, default);
        ClawbotRouterTool { service, spec }
    }

    pub fn service(&self) -> &RouterService {
        &self.service
    }
}

/// Reads the call's parameters. A blank message is not an input error: the tool answers it
/// with the seed's text, so this returns the request even then.
pub(crate) fn request_from_params(params: &Value) -> Result<RouterRequest, String> {
    let message = read_string(
        params,
        "message",
        ReadOptions::default().untrimmed().allow_empty(),
    )
    .map_err(|e| e.to_string())?
    .unwrap_or_default();
    let agent = read_string(params, "agent", ReadOptions::default()).map_err(|e| e.to_string())?;
    let timeout_seconds = read_integer(params, "timeoutSeconds", false)
        .map_err(|e| e.to_string())?
        .map(|n| n.max(0) as u64);
    let mode = match lookup(params, "mode").and_then(Value::as_str) {
        None => None,
        Some(text) => Some(Mode::parse(text).ok_or_else(|| format!("[clawbot_router] mode 只能是 \"read-only\" 或 \"write\"（收到 \"{text}\"），未调用 OpenClaw。"))?),
    };
    Ok(RouterRequest {
        message,
        agent,
        timeout_seconds,
        mode,
        transport: None,
        operator_timeout: false,
    })
}

impl Tool for ClawbotRouterTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(async move {
            let request = match request_from_params(&call.params) {
                Ok(r) => r,
                Err(text) => return Ok(refusal_result(&text)),
            };
            if request.message.trim().is_empty() {
                return Ok(refusal_result(texts::EMPTY_MESSAGE));
            }
            // Subscribed before the start so that no chunk of this run is missed.
            let events = self.service.subscribe();
            let handle = match self.service.start(request) {
                Ok(h) => h,
                Err(refusal) => return Ok(refusal_result(&refusal.model)),
            };
            let run_id = handle.run_id;
            let cancel = call.cancel.clone();
            let service = self.service.clone();
            // A cancelled caller kills the tree; the run still finishes and lands in history.
            let watcher = tokio::spawn(async move {
                cancel.cancelled().await;
                service.kill(run_id);
            });
            let progress = tokio::spawn(forward_progress(events, run_id, call.progress.clone()));
            let outcome = handle.wait().await;
            watcher.abort();
            progress.abort();
            if call.cancel.is_cancelled() {
                return Err(ToolError::Cancelled);
            }
            Ok(outcome.to_tool_result())
        })
    }
}

/// How often the caller's progress sink hears about a running run.
const PROGRESS_INTERVAL: std::time::Duration = std::time::Duration::from_millis(250);
/// How much of the output tail a progress update carries.
const PROGRESS_TAIL_CHARS: usize = 2000;

/// Sends the output tail of run `run_id` to the call's progress sink (OpenClaw's `onUpdate`),
/// at most every `PROGRESS_INTERVAL`, until the run finishes. Chunks may hold partial lines (a
/// prompt, a `\r` progress line); output held back by the interval is sent when it ends, so the
/// last piece before the run goes quiet is not kept until its next output.
async fn forward_progress(
    mut events: tokio::sync::broadcast::Receiver<super::events::RouterEvent>,
    run_id: u64,
    sink: crate::tool::ProgressSink,
) {
    use super::events::RouterEventKind;
    use tokio::sync::broadcast::error::RecvError;
    let mut tail = String::new();
    let mut last_sent: Option<tokio::time::Instant> = None;
    let mut unsent = false;
    let send = |tail: &str| {
        sink(ToolResult::text(
            tail_chars(tail, PROGRESS_TAIL_CHARS),
            serde_json::json!({"status": "running", "runId": run_id}),
        ));
    };
    loop {
        let deferred_at = last_sent.filter(|_| unsent).map(|t| t + PROGRESS_INTERVAL);
        let event = tokio::select! {
            received = events.recv() => match received {
                Ok(e) => e,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            },
            () = sleep_until_some(deferred_at) => {
                last_sent = Some(tokio::time::Instant::now());
                unsent = false;
                send(&tail);
                continue;
            }
        };
        if event.run_id != run_id {
            continue;
        }
        match event.kind {
            RouterEventKind::Chunk { bytes, .. } => {
                tail.push_str(&String::from_utf8_lossy(&bytes));
                if tail.len() > PROGRESS_TAIL_CHARS * 8 {
                    tail = tail_chars(&tail, PROGRESS_TAIL_CHARS);
                }
                if last_sent.is_some_and(|t| t.elapsed() < PROGRESS_INTERVAL) {
                    unsent = true;
                    continue;
                }
                last_sent = Some(tokio::time::Instant::now());
                unsent = false;
                send(&tail);
            }
            RouterEventKind::Finished { .. } => return,
            _ => {}
        }
    }
}

/// Sleeps until `at`; never wakes when there is none.
async fn sleep_until_some(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The last `n` characters of `text`.
fn tail_chars(text: &str, n: usize) -> String {
    let count = text.chars().count();
    text.chars().skip(count.saturating_sub(n)).collect()
}
