//! A recording OpenAI-compatible chat-completions server on loopback.
//!
//! Real OpenClaw is pointed at it so that the exact request it would send a model (the tools
//! array with every schema, the system prompt) is captured. It answers every completion with a
//! short text so the agent turn ends normally: as SSE chunks when the request asks for
//! `stream: true` (what OpenClaw does), as one JSON object otherwise. `GET …/models` lists the
//! one model. A turn whose newest message is the user's and says `CLAWDECK_CALL <tool> <json>`
//! is answered with that tool call instead (the lab spawns a subagent so).

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};

use super::loopback_http::{LoopbackServer, json_response};

/// The text every completion answers with.
pub(crate) const MOCK_REPLY: &str = "clawdeck verify: request recorded.";

/// The line that makes the mock call a tool: `CLAWDECK_CALL <tool> <arguments as JSON>`.
pub(crate) const CALL_MARKER: &str = "CLAWDECK_CALL";

/// One request the mock received.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecordedRequest {
    pub path: String,
    /// The JSON body (`null` when it was not JSON).
    pub body: Value,
}

/// The running server; stops when dropped or on [`RecordingMock::stop`].
pub(crate) struct RecordingMock {
    server: LoopbackServer,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
}

impl RecordingMock {
    /// Binds 127.0.0.1 on a free port and starts serving.
    pub async fn start() -> std::io::Result<Self> {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = requests.clone();
        let server = LoopbackServer::start(move |req| handle(req, recorded.clone())).await?;
        Ok(Self { server, requests })
    }

    /// The `baseUrl` an OpenAI-compatible provider entry needs (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.server.addr())
    }

    /// Every request so far, oldest first.
    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        self.requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    /// The chat-completion requests (the ones that carry a model's view), oldest first.
    pub(crate) fn completions(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .collect()
    }

    /// Stops accepting and waits for the accept loop to end.
    pub(crate) async fn stop(self) {
        self.server.stop().await;
    }
}

async fn handle(
    req: Request<Incoming>,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    if method == Method::GET {
        if path.trim_end_matches('/').ends_with("/models") {
            let list = json!({"object": "list", "data": [{"id": "mock-1", "object": "model"}]});
            return json_response(StatusCode::OK, &list);
        }
        let err = json!({"error": {"message": "not found"}});
        return json_response(StatusCode::NOT_FOUND, &err);
    }
    let bytes = match req.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("mock-1")
        .to_string();
    let embeddings = path.ends_with("/embeddings");
    let inputs = match body.get("input") {
        Some(Value::Array(items)) => items.len(),
        _ => 1,
    };
    if let Ok(mut list) = requests.lock() {
        list.push(RecordedRequest { path, body });
    }
    if embeddings {
        // Memory plugins embed through an OpenAI-compatible provider; give them vectors.
        let data: Vec<Value> = (0..inputs)
            .map(|index| json!({"object": "embedding", "index": index, "embedding": vec![0.0; 8]}))
            .collect();
        let answer = json!({"object": "list", "data": data, "model": model, "usage": usage()});
        return json_response(StatusCode::OK, &answer);
    }
    let body = recorded_body(&requests);
    let call = scripted_call(&body).map(|call| through_tool_search(&body, call));
    if stream {
        sse_response(&model, call.as_ref())
    } else {
        json_response(StatusCode::OK, &whole_answer(&model, call.as_ref()))
    }
}

/// The body just recorded (the newest).
fn recorded_body(requests: &Mutex<Vec<RecordedRequest>>) -> Value {
    requests
        .lock()
        .ok()
        .and_then(|list| list.last().map(|r| r.body.clone()))
        .unwrap_or(Value::Null)
}

/// A tool call the user asked for in a `CLAWDECK_CALL <tool> <json>` line that no call has
/// answered yet: read from the newest message back, a user message with the line asks for it,
/// an assistant's tool call or a tool's result ends the search (the turn then ends with text).
/// OpenClaw may add a user message of its own context after the user's.
fn scripted_call(body: &Value) -> Option<(String, String)> {
    let messages = body.get("messages")?.as_array()?;
    for message in messages.iter().rev() {
        match message.get("role").and_then(Value::as_str) {
            Some("tool") => return None,
            Some("assistant") if message.get("tool_calls").is_some() => return None,
            Some("user") => {
                let text = clawdeck_core::content::content_text(message.get("content"), "\n");
                if let Some(call) = text.as_deref().and_then(call_line) {
                    return Some(call);
                }
            }
            _ => {}
        }
    }
    None
}

/// The scripted call as the request lets the model make it: a tool the request does not send
/// but Tool Search's `tool_call` reaches (OpenClaw defers it) is called through `tool_call`.
fn through_tool_search(body: &Value, call: (String, String)) -> (String, String) {
    let sent = |name: &str| {
        body.get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|t| t.pointer("/function/name").and_then(Value::as_str) == Some(name))
    };
    if sent(&call.0) || !sent(TOOL_CALL) {
        return call;
    }
    let args: Value = serde_json::from_str(&call.1).unwrap_or(Value::Null);
    let wrapped = json!({ "id": call.0, "args": args });
    (TOOL_CALL.to_string(), wrapped.to_string())
}

/// Tool Search's control that calls a deferred tool by id or name.
const TOOL_CALL: &str = "tool_call";

/// `<tool> <json>` after the marker, on its line.
fn call_line(text: &str) -> Option<(String, String)> {
    let at = text.find(CALL_MARKER)?;
    let line = text[at + CALL_MARKER.len()..].lines().next()?.trim();
    let (name, arguments) = line.split_once(char::is_whitespace).unwrap_or((line, "{}"));
    (!name.is_empty()).then(|| (name.to_string(), arguments.trim().to_string()))
}

/// The assistant's tool call as a message delta or message.
fn tool_call(call: &(String, String)) -> Value {
    json!([{"index": 0, "id": "clawdeck-call-1", "type": "function",
            "function": {"name": call.0, "arguments": call.1}}])
}

fn usage() -> Value {
    json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
}

fn whole_answer(model: &str, call: Option<&(String, String)>) -> Value {
    let (message, finish) = match call {
        Some(call) => (
            json!({"role": "assistant", "content": null, "tool_calls": tool_call(call)}),
            "tool_calls",
        ),
        None => (json!({"role": "assistant", "content": MOCK_REPLY}), "stop"),
    };
    json!({
        "id": "clawdeck-verify", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage(),
    })
}

fn chunk(model: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": "clawdeck-verify", "object": "chat.completion.chunk", "created": 0, "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    })
}

/// The whole SSE stream in one body: role + text (or the tool call), the finishing chunk with
/// usage, `[DONE]`.
fn sse_body(model: &str, call: Option<&(String, String)>) -> String {
    let (delta, finish) = match call {
        Some(call) => (
            json!({"role": "assistant", "tool_calls": tool_call(call)}),
            "tool_calls",
        ),
        None => (json!({"role": "assistant", "content": MOCK_REPLY}), "stop"),
    };
    let mut end = chunk(model, json!({}), Some(finish));
    end["usage"] = usage();
    let events = [chunk(model, delta, None), end];
    let mut out = String::new();
    for event in events {
        out.push_str("data: ");
        out.push_str(&event.to_string());
        out.push_str("\n\n");
    }
    out.push_str("data: [DONE]\n\n");
    out
}

fn sse_response(model: &str, call: Option<&(String, String)>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(sse_body(model, call))));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response
}

/// How many requests the model got, each by the role and start of its newest message (what a
/// spawn that never reached its subagent left behind).
pub(crate) fn describe_requests(bodies: &[Value]) -> String {
    let newest: Vec<String> = bodies
        .iter()
        .map(|body| {
            let last = body
                .get("messages")
                .and_then(Value::as_array)
                .and_then(|m| m.last());
            let role = last
                .and_then(|m| m.get("role"))
                .and_then(Value::as_str)
                .unwrap_or("?");
            let text = last
                .and_then(|m| crate::content::content_text(m.get("content"), " "))
                .unwrap_or_default();
            let start: String = text.chars().take(120).collect();
            format!("{role}: {start:?}")
        })
        .collect();
    format!("{} time(s) [{}]", bodies.len(), newest.join("; "))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[tokio::test]
    async fn records_requests_and_answers_streamed_or_whole() {
        let mock = RecordingMock::start().await.unwrap();
        let client = crate::router::http_client::gateway_http_client().unwrap();
        let url = format!("{}/chat/completions", mock.base_url());

        let body = json!({"model": "m", "messages": [], "tools": [{"type": "function"}]});
        let whole = crate::loopback_http::post_json(&url, &body).await;
        assert_eq!(whole["choices"][0]["message"]["content"], MOCK_REPLY);
        assert_eq!(whole["model"], "m");

        let streamed = client
            .post(&url)
            .json(&json!({"model": "m", "stream": true, "messages": []}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            streamed.headers()[CONTENT_TYPE.as_str()],
            "text/event-stream"
        );
        let text = streamed.text().await.unwrap();
        assert!(text.contains(MOCK_REPLY), "{text}");
        assert!(text.trim_end().ends_with("data: [DONE]"), "{text}");

        let models: Value = client
            .get(format!("{}/models", mock.base_url()))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(models["data"][0]["id"], "mock-1");

        let user = |text: &str| {
            json!({"model": "m", "stream": true,
            "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}]})
        };
        let mut asked = user("[Wed] CLAWDECK_CALL sessions_spawn {\"task\": \"hi\"}\nmore");
        asked["messages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "user", "content": "internal context"}));
        let called = client
            .post(&url)
            .json(&asked)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(called.contains("\"tool_calls\""), "{called}");
        assert!(called.contains("\"name\":\"sessions_spawn\""), "{called}");
        assert!(called.contains(r#"{\"task\": \"hi\"}"#), "{called}");
        assert!(!called.contains(MOCK_REPLY), "{called}");
        // The tool's result is the newest message: the turn ends with text.
        let mut after = user("CLAWDECK_CALL sessions_spawn {}");
        after["messages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "tool", "content": "ok"}));
        let ended = client.post(&url).json(&after).send().await.unwrap();
        assert!(ended.text().await.unwrap().contains(MOCK_REPLY));

        let recorded = mock.completions();
        assert_eq!(recorded.len(), 4);
        assert_eq!(recorded[0].path, "/v1/chat/completions");
        assert_eq!(recorded[0].body["tools"][0]["type"], "function");
        assert_eq!(recorded[1].body["stream"], true);
        mock.stop().await;
    }

    #[test]
    fn a_deferred_tool_is_called_through_tool_search() {
        let tools = |names: &[&str]| {
            let tools: Vec<Value> = names
                .iter()
                .map(|n| json!({"type": "function", "function": {"name": n}}))
                .collect();
            json!({ "tools": tools })
        };
        let call = || ("automations".to_string(), r#"{"action":"add"}"#.to_string());
        let (name, args) = through_tool_search(&tools(&["read", "tool_call"]), call());
        assert_eq!(name, "tool_call");
        let args: Value = serde_json::from_str(&args).unwrap();
        assert_eq!(
            args,
            json!({"id": "automations", "args": {"action": "add"}})
        );
        // Sent directly, or no Tool Search to reach it: called as scripted.
        assert_eq!(
            through_tool_search(&tools(&["automations", "tool_call"]), call()),
            call()
        );
        assert_eq!(through_tool_search(&tools(&["read"]), call()), call());
    }
}
