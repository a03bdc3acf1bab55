//! The HTTP transport (seed 000 §5): the gateway's OpenAI-compatible
//! `POST /v1/chat/completions` with `model: "openclaw/<agent>"` and `stream: true`. SSE content
//! deltas are published as stdout chunks, exactly like CLI output; gateway errors inside the
//! stream as stderr chunks. Plain HTTP only (no TLS backend is compiled in): a gateway is
//! expected on loopback, a tailnet or behind a local TLS-terminating proxy.

use super::events::StdStream;
use super::transport::{ChunkSink, NoteSink, RunPlan, StartFailure, Stop, Transport, TransportEnd};
use crate::tool::BoxFuture;
use serde_json::{Value, json};

pub(crate) struct HttpTransport {
    /// The HTTP client, or why it could not be set up (reported as a gateway failure).
    client: Result<reqwest::Client, String>,
}

impl HttpTransport {
    pub fn new() -> Self {
        HttpTransport {
            client: super::http_client::gateway_http_client(),
        }
    }
}

impl Default for HttpTransport {
    fn default() -> Self {
        Self::new()
    }
}

/// Splits an SSE byte stream into `data:` payloads.
#[derive(Default)]
pub(crate) struct SseParser {
    buf: Vec<u8>,
    data: Vec<String>,
}

impl SseParser {
    /// Feeds bytes; returns the complete events' data (multi-line data joined with `\n`).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        self.buf.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=pos).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !self.data.is_empty() {
                    events.push(self.data.join("\n"));
                    self.data.clear();
                }
            } else if let Some(rest) = line.strip_prefix("data:") {
                self.data
                    .push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
            }
            // Comments (`:`), `event:`, `id:`, `retry:` carry nothing we use.
        }
        events
    }

    /// Whatever data is pending when the stream ends without a blank line.
    pub fn finish(&mut self) -> Option<String> {
        if !self.buf.is_empty() {
            let rest = std::mem::take(&mut self.buf);
            let line = String::from_utf8_lossy(&rest).into_owned();
            if let Some(d) = line.trim_end_matches('\r').strip_prefix("data:") {
                self.data.push(d.strip_prefix(' ').unwrap_or(d).to_string());
            }
        }
        (!self.data.is_empty()).then(|| std::mem::take(&mut self.data).join("\n"))
    }
}

/// What one SSE event means for the output.
#[derive(Debug, PartialEq)]
pub(crate) enum SseItem {
    Delta(String),
    Error(String),
    Done,
    Nothing,
}

/// Interprets one `data:` payload of a chat-completions stream.
pub fn interpret(data: &str) -> SseItem {
    if data.trim() == "[DONE]" {
        return SseItem::Done;
    }
    let Ok(value) = serde_json::from_str::<Value>(data) else {
        return SseItem::Error(format!("unparsable SSE data: {data}\n"));
    };
    if let Some(err) = value.get("error") {
        let msg = err
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| err.to_string());
        return SseItem::Error(format!("{msg}\n"));
    }
    let mut text = String::new();
    if let Some(choices) = value.get("choices").and_then(Value::as_array) {
        for choice in choices {
            if let Some(t) = choice.pointer("/delta/content").and_then(Value::as_str) {
                text.push_str(t);
            } else if let Some(t) = choice.pointer("/message/content").and_then(Value::as_str) {
                text.push_str(t);
            }
        }
    }
    if text.is_empty() {
        SseItem::Nothing
    } else {
        SseItem::Delta(text)
    }
}

impl Transport for HttpTransport {
    fn run(
        &self,
        plan: RunPlan,
        chunks: ChunkSink,
        notes: NoteSink,
        stop: Stop,
    ) -> BoxFuture<'static, TransportEnd> {
        let client = self.client.clone();
        Box::pin(async move {
            let Some(http) = plan.http.clone() else {
                return gateway_failure("no gateway configured".into());
            };
            // The rules every gateway URL follows (no userinfo; plain http only to loopback),
            // though this transport speaks HTTP rather than WebSocket to it.
            match crate::gateway::endpoint::websocket_url(&http.base_url) {
                Err(e) => {
                    return gateway_failure(format!(
                        "router.gateway.url / OPENCLAW_GATEWAY_URL: {e}"
                    ));
                }
                Ok(ws)
                    if ws.starts_with("ws://") && !crate::gateway::endpoint::is_loopback(&ws) =>
                {
                    let refused = crate::gateway::GatewayError::InsecureUrl {
                        url: http.base_url.clone(),
                    };
                    return gateway_failure(format!(
                        "router.gateway.url / OPENCLAW_GATEWAY_URL: {refused}"
                    ));
                }
                Ok(_) => {}
            }
            let client = match client {
                Ok(client) => client,
                Err(error) => return gateway_failure(error),
            };
            let url = format!("{}/v1/chat/completions", http.base_url);
            let body = json!({
                "model": format!("openclaw/{}", http.agent),
                "stream": true,
                "messages": [{"role": "user", "content": plan.remote_message}],
            });
            let mut req = client
                .post(&url)
                .json(&body)
                .header("accept", "text/event-stream");
            if let Some(token) = &http.token {
                req = req.bearer_auth(token);
            }
            let response = tokio::select! {
                r = req.send() => r,
                _ = stop.requested() => {
                    notes("request dropped before the gateway answered".into());
                    return TransportEnd::default();
                }
            };
            let response = match response {
                Ok(r) => r,
                Err(e) => return gateway_failure(describe_reqwest_error(&e, &url)),
            };
            if !response.status().is_success() {
                return refused(response, &url, &chunks, &notes).await;
            }
            stream_reply(response, &chunks, &notes, &stop).await
        })
    }
}

fn gateway_failure(error: String) -> TransportEnd {
    TransportEnd {
        failure: Some(StartFailure::Gateway { error }),
        ..TransportEnd::default()
    }
}

/// A non-success answer. 400 is the remote agent side refusing the task (unknown agent, bad
/// input): like the CLI's own error text it goes into the raw output. Anything else (401/403
/// auth, 404 endpoint disabled, 5xx) means the gateway is unusable.
async fn refused(
    response: reqwest::Response,
    url: &str,
    chunks: &ChunkSink,
    notes: &NoteSink,
) -> TransportEnd {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    let detail = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| {
            v.pointer("/error/message")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| text.trim().chars().take(500).collect());
    if status.as_u16() == 400 {
        chunks(StdStream::Stderr, format!("{detail}\n").into_bytes());
        notes(format!("gateway answered HTTP 400 for {url}"));
        return TransportEnd {
            exit_code: Some(1),
            ..TransportEnd::default()
        };
    }
    gateway_failure(format!("HTTP {} {}: {detail}", status.as_u16(), url))
}

/// Publishes the SSE stream's content deltas (stdout) and errors (stderr) until it ends.
async fn stream_reply(
    mut response: reqwest::Response,
    chunks: &ChunkSink,
    notes: &NoteSink,
    stop: &Stop,
) -> TransportEnd {
    let mut parser = SseParser::default();
    let mut saw_done = false;
    loop {
        let next = tokio::select! {
            c = response.chunk() => c,
            _ = stop.requested() => {
                notes("stream closed by clawdeck".into());
                return TransportEnd::default();
            }
        };
        match next {
            Ok(Some(bytes)) => {
                for data in parser.feed(&bytes) {
                    saw_done |= publish(&data, chunks);
                }
            }
            Ok(None) => break,
            Err(e) => {
                chunks(
                    StdStream::Stderr,
                    format!("gateway stream error: {e}\n").into_bytes(),
                );
                return TransportEnd {
                    exit_code: Some(1),
                    ..TransportEnd::default()
                };
            }
        }
    }
    if let Some(data) = parser.finish() {
        saw_done |= publish(&data, chunks);
    }
    if !saw_done {
        notes("the stream ended without [DONE]".into());
    }
    TransportEnd {
        exit_code: Some(0),
        ..TransportEnd::default()
    }
}

/// Publishes one SSE event's data; true for `[DONE]`.
fn publish(data: &str, chunks: &ChunkSink) -> bool {
    match interpret(data) {
        SseItem::Delta(t) => chunks(StdStream::Stdout, t.into_bytes()),
        SseItem::Error(t) => chunks(StdStream::Stderr, t.into_bytes()),
        SseItem::Done => return true,
        SseItem::Nothing => {}
    }
    false
}

/// reqwest errors say little on their own; name the URL and the cause chain.
pub(crate) fn describe_reqwest_error(e: &reqwest::Error, url: &str) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    if e.is_connect() {
        format!("{url} 连接失败：{text}")
    } else {
        format!("{url}：{text}")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn sse_parser_handles_split_events_and_done() {
        let mut p = SseParser::default();
        assert!(p.feed(b"data: {\"choices\":[{\"delta\":{\"con").is_empty());
        let ev = p.feed(b"tent\":\"he\"}}]}\n\n: ping\n\ndata: [DONE]\n\n");
        assert_eq!(ev.len(), 2);
        assert_eq!(interpret(&ev[0]), SseItem::Delta("he".into()));
        assert_eq!(interpret(&ev[1]), SseItem::Done);
    }

    #[test]
    fn errors_and_empty_deltas() {
        assert_eq!(
            interpret("{\"error\":{\"message\":\"Unknown agent\"}}"),
            SseItem::Error("Unknown agent\n".into())
        );
        assert_eq!(
            interpret("{\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}"),
            SseItem::Nothing
        );
        let mut p = SseParser::default();
        assert!(
            p.feed(b"data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}")
                .is_empty()
        );
        assert_eq!(
            p.finish().map(|d| interpret(&d)),
            Some(SseItem::Delta("x".into()))
        );
    }
}
