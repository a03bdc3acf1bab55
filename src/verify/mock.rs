//! A recording OpenAI-compatible chat-completions server on loopback.
//!
//! Real OpenClaw is pointed at it so that the exact request it would send a model (the tools
//! array with every schema, the system prompt) is captured. It answers every completion with a
//! short text so the agent turn ends normally: as SSE chunks when the request asks for
//! `stream: true` (what OpenClaw does), as one JSON object otherwise. `GET …/models` lists the
//! one model.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// The text every completion answers with.
pub const MOCK_REPLY: &str = "clawdeck verify: request recorded.";

/// One request the mock received.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub path: String,
    /// The JSON body (`null` when it was not JSON).
    pub body: Value,
}

/// The running server; stops when dropped or on [`RecordingMock::stop`].
pub struct RecordingMock {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
    shutdown: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl RecordingMock {
    /// Binds 127.0.0.1 on a free port and starts serving.
    pub async fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(serve(listener, requests.clone(), shutdown.clone()));
        Ok(Self {
            addr,
            requests,
            shutdown,
            task: Some(task),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The `baseUrl` an OpenAI-compatible provider entry needs (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    /// The chat-completion requests (the ones that carry a model's view), oldest first.
    pub fn completions(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .collect()
    }

    /// Stops accepting and waits for the accept loop to end.
    pub async fn stop(mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RecordingMock {
    fn drop(&mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

async fn serve(
    listener: TcpListener,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
    shutdown: CancellationToken,
) {
    loop {
        let accepted = tokio::select! {
            _ = shutdown.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let Ok((stream, _)) = accepted else { continue };
        let requests = requests.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(req, requests.clone()));
            let conn = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = shutdown.cancelled() => {}
                _ = conn => {}
            }
        });
    }
}

async fn handle(
    req: Request<Incoming>,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    if method == Method::GET {
        if path.trim_end_matches('/').ends_with("/models") {
            let list = json!({"object": "list", "data": [{"id": "mock-1", "object": "model"}]});
            return Ok(json_response(StatusCode::OK, &list));
        }
        let err = json!({"error": {"message": "not found"}});
        return Ok(json_response(StatusCode::NOT_FOUND, &err));
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
        return Ok(json_response(StatusCode::OK, &answer));
    }
    if stream {
        Ok(sse_response(&model))
    } else {
        Ok(json_response(StatusCode::OK, &whole_answer(&model)))
    }
}

fn usage() -> Value {
    json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
}

fn whole_answer(model: &str) -> Value {
    json!({
        "id": "clawdeck-verify", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": MOCK_REPLY},
                     "finish_reason": "stop"}],
        "usage": usage(),
    })
}

fn chunk(model: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": "clawdeck-verify", "object": "chat.completion.chunk", "created": 0, "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    })
}

/// The whole SSE stream in one body: role + text, the stop chunk with usage, `[DONE]`.
fn sse_body(model: &str) -> String {
    let mut end = chunk(model, json!({}), Some("stop"));
    end["usage"] = usage();
    let events = [
        chunk(
            model,
            json!({"role": "assistant", "content": MOCK_REPLY}),
            None,
        ),
        end,
    ];
    let mut out = String::new();
    for event in events {
        out.push_str("data: ");
        out.push_str(&event.to_string());
        out.push_str("\n\n");
    }
    out.push_str("data: [DONE]\n\n");
    out
}

fn sse_response(model: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(sse_body(model))));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response
}

fn json_response(status: StatusCode, value: &Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(value.to_string())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
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

        let whole: Value = client
            .post(&url)
            .json(&json!({"model": "m", "messages": [], "tools": [{"type": "function"}]}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
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

        let recorded = mock.completions();
        assert_eq!(recorded.len(), 2);
        assert_eq!(recorded[0].path, "/v1/chat/completions");
        assert_eq!(recorded[0].body["tools"][0]["type"], "function");
        assert_eq!(recorded[1].body["stream"], true);
        mock.stop().await;
    }
}
