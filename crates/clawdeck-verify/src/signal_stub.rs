//! A stand-in for signal-cli's HTTP daemon on loopback, so that real OpenClaw's Signal channel
//! (`@openclaw/signal`, pointed here by an `external-native` transport) receives one direct
//! message from a chosen phone number. Signal senders are phone numbers: this is how a
//! verification run checks `e164:` sender keys and phone numbers in the owner list, which a
//! Telegram sender cannot carry.
//!
//! `GET /api/v1/check` answers 200; `POST /api/v1/rpc` answers every JSON-RPC call with an
//! empty result (lists for `list*`); the first `GET /api/v1/events` streams the message as a
//! `receive` event, later ones stream nothing (the channel reconnects). Requests are recorded.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};

use super::loopback_http::{LoopbackServer, json_response, lock};

/// The Signal account OpenClaw runs as (written into the config).
pub(crate) const ACCOUNT: &str = "+15550000000";

/// Who writes the message: a phone number and a profile name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalSender {
    pub e164: String,
    pub name: Option<String>,
}

struct State {
    sender: SignalSender,
    text: String,
    /// Whether the message went out on an event stream.
    delivered: bool,
    calls: Vec<String>,
}

/// The running stand-in; stops when dropped or on [`SignalStub::stop`].
pub(crate) struct SignalStub {
    server: LoopbackServer,
    state: Arc<Mutex<State>>,
}

impl SignalStub {
    /// Binds 127.0.0.1 on a free port; the message `text` from `sender` waits for the first
    /// event stream.
    pub async fn start(sender: SignalSender, text: &str) -> std::io::Result<Self> {
        let state = Arc::new(Mutex::new(State {
            sender,
            text: text.to_string(),
            delivered: false,
            calls: Vec::new(),
        }));
        let shared = state.clone();
        let server = LoopbackServer::start(move |req| handle(req, shared.clone())).await?;
        Ok(Self { server, state })
    }

    /// The daemon's base URL (the transport's `url`).
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.server.addr())
    }

    /// The requests so far (`GET /api/v1/check`, `rpc version`, ...), oldest first.
    pub(crate) fn calls(&self) -> Vec<String> {
        lock(&self.state).calls.clone()
    }

    /// Whether the message went out on an event stream.
    pub(crate) fn delivered(&self) -> bool {
        lock(&self.state).delivered
    }

    pub(crate) async fn stop(self) {
        self.server.stop().await;
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The `receive` event of a direct message, as signal-cli's daemon streams it.
fn receive_event(sender: &SignalSender, text: &str) -> String {
    let at = now_ms();
    let mut envelope = json!({
        "source": sender.e164,
        "sourceNumber": sender.e164,
        "sourceDevice": 1,
        "timestamp": at,
        "serverReceivedTimestamp": at,
        "dataMessage": {"timestamp": at, "message": text, "expiresInSeconds": 0, "viewOnce": false},
    });
    if let Some(name) = &sender.name {
        envelope["sourceName"] = json!(name);
    }
    let data = json!({"envelope": envelope, "account": ACCOUNT});
    format!("event: receive\ndata: {data}\n\n")
}

fn event_stream(body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response
}

/// A JSON-RPC answer: the call's id with an empty result (a list for `list*` methods).
fn rpc_answer(request: &Value) -> Value {
    let method = request.get("method").and_then(Value::as_str).unwrap_or("");
    let result = if method.starts_with("list") {
        json!([])
    } else if method == "send" {
        json!({"timestamp": now_ms(), "results": []})
    } else if method == "version" {
        json!({"version": "0.13.0"})
    } else {
        json!({})
    };
    json!({"jsonrpc": "2.0", "result": result, "id": request.get("id").cloned().unwrap_or(Value::Null)})
}

async fn handle(req: Request<Incoming>, state: Arc<Mutex<State>>) -> Response<Full<Bytes>> {
    let path = req.uri().path().trim_end_matches('/').to_string();
    let method = req.method().clone();
    match (method, path.as_str()) {
        (Method::GET, "/api/v1/check") => {
            lock(&state).calls.push("check".to_string());
            json_response(StatusCode::OK, &json!({}))
        }
        (Method::GET, "/api/v1/events") => {
            let mut state = lock(&state);
            state.calls.push("events".to_string());
            if state.delivered {
                return event_stream(String::new());
            }
            state.delivered = true;
            event_stream(receive_event(&state.sender, &state.text))
        }
        (Method::POST, "/api/v1/rpc") => {
            let bytes = match req.into_body().collect().await {
                Ok(body) => body.to_bytes(),
                Err(_) => Bytes::new(),
            };
            let request: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            let name = request.get("method").and_then(Value::as_str).unwrap_or("?");
            lock(&state).calls.push(format!("rpc {name}"));
            json_response(StatusCode::OK, &rpc_answer(&request))
        }
        (method, other) => {
            lock(&state)
                .calls
                .push(format!("{method} {other} (not served)"));
            json_response(StatusCode::NOT_FOUND, &json!({"error": "not found"}))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[tokio::test]
    async fn streams_the_message_once_and_answers_rpc() {
        let sender = SignalSender {
            e164: "+15550001111".into(),
            name: Some("Alice".into()),
        };
        let stub = SignalStub::start(sender, "hello").await.unwrap();
        let client = crate::router::http_client::gateway_http_client().unwrap();
        let check = client
            .get(format!("{}/api/v1/check", stub.url()))
            .send()
            .await
            .unwrap();
        assert_eq!(check.status().as_u16(), 200);
        let first = client
            .get(format!(
                "{}/api/v1/events?account=%2B15550000000",
                stub.url()
            ))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(first.starts_with("event: receive\ndata: "), "{first}");
        let data: Value =
            serde_json::from_str(first.lines().nth(1).unwrap().trim_start_matches("data: "))
                .unwrap();
        assert_eq!(data["envelope"]["sourceNumber"], "+15550001111");
        assert_eq!(data["envelope"]["sourceName"], "Alice");
        assert_eq!(data["envelope"]["dataMessage"]["message"], "hello");
        assert!(stub.delivered());
        let again = client
            .get(format!("{}/api/v1/events", stub.url()))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(again, "", "the message goes out once");
        let rpc = crate::loopback_http::post_json(
            &format!("{}/api/v1/rpc", stub.url()),
            &json!({"jsonrpc": "2.0", "method": "listGroups", "id": "7"}),
        )
        .await;
        assert_eq!(rpc["id"], "7");
        assert_eq!(rpc["result"], json!([]));
        assert_eq!(
            stub.calls(),
            ["check", "events", "events", "rpc listGroups"]
        );
        stub.stop().await;
    }
}
