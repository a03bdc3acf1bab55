//! One live WebSocket connection to a gateway: the `connect.challenge` handshake, then requests
//! matched to responses by id (each with a timeout) and server events forwarded in order.
//! Reconnecting is the client's job (client.rs); a connection that closes stays closed.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::http::header::ORIGIN;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;

use super::endpoint::{GatewayAuth, GatewayEndpoint, is_loopback_host};
use super::error::GatewayError;
use super::frames::{
    CONNECT_CHALLENGE, Challenge, EventFrame, Frame, Hello, PROTOCOL_VERSION, RequestFrame,
    ResponseFrame, parse_frame,
};
use super::identity::{AuthPayload, DeviceIdentity};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The operator scopes clawdeck asks for.
pub const OPERATOR_SCOPES: [&str; 3] = ["operator.read", "operator.write", "operator.approvals"];

pub use super::frames::ADMIN_SCOPE;

/// The client capability that makes a connection an exec approver (with `operator.approvals`).
pub(crate) const EXEC_APPROVALS_CAP: &str = "exec-approvals";
/// The capability that makes it an approver of every kind (exec, plugin, system agent).
pub(crate) const APPROVALS_CAP: &str = "approvals";

/// How clawdeck presents itself and how long it waits.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// One of OpenClaw's known client ids (`cli`).
    pub client_id: String,
    pub client_mode: String,
    /// `operator` (clawdeck's own role), or `node` for a connection that acts as a paired node.
    pub role: String,
    pub client_version: String,
    pub platform: String,
    pub scopes: Vec<String>,
    /// `tool-events`: the gateway sends structured tool lifecycle events.
    pub caps: Vec<String>,
    /// The `Origin` header of the WebSocket upgrade, as a browser sends it. Only a client that
    /// connects as the Control UI needs one: the gateway takes that client only from an
    /// allowed origin (a loopback one for a loopback client).
    pub origin: Option<String>,
    /// The client's build (`client.buildId`). The gateway takes a Control UI from its own host
    /// only when the build is the gateway's own or `dev` (a development build of the UI).
    pub client_build_id: Option<String>,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// How long `GatewayClient::connect` waits out a gateway that answers "starting, retry
    /// shortly"; callers with a deadline set it to what is left of it.
    pub ready_wait: Duration,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            client_id: "cli".to_string(),
            client_mode: "cli".to_string(),
            role: "operator".to_string(),
            client_version: env!("CARGO_PKG_VERSION").to_string(),
            platform: std::env::consts::OS.to_string(),
            scopes: OPERATOR_SCOPES.iter().map(|s| s.to_string()).collect(),
            caps: vec!["tool-events".to_string()],
            origin: None,
            client_build_id: None,
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            ready_wait: Duration::from_secs(15),
        }
    }
}

impl ConnectOptions {
    /// Options for a connection that acts as a headless node (role `node`, no operator
    /// scopes): what a paired device's app would open.
    pub fn as_node() -> Self {
        ConnectOptions {
            client_id: "node-host".to_string(),
            client_mode: "node".to_string(),
            role: "node".to_string(),
            scopes: Vec::new(),
            caps: Vec::new(),
            ..ConnectOptions::default()
        }
    }

    /// These options, also asking for `operator.admin` when `all_operators`.
    pub fn all_operators(mut self, all_operators: bool) -> Self {
        if all_operators && !self.scopes.iter().any(|s| s == ADMIN_SCOPE) {
            self.scopes.push(ADMIN_SCOPE.to_string());
        }
        self
    }
}

type Pending = Arc<std::sync::Mutex<HashMap<String, oneshot::Sender<ResponseFrame>>>>;

/// A connected, authenticated socket.
#[derive(Debug, Clone)]
pub struct Connection {
    url: String,
    outgoing: mpsc::UnboundedSender<Message>,
    pending: Pending,
    next_id: Arc<AtomicU64>,
    request_timeout: Duration,
    closed: CancellationToken,
}

/// Why a connection ended (sent once on the event channel's close).
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    Event(EventFrame),
    Closed(String),
}

impl Connection {
    /// Connects, answers the challenge and returns the connection, the gateway's hello and the
    /// stream of its events (ending with `Incoming::Closed`).
    pub async fn open(
        endpoint: &GatewayEndpoint,
        identity: &DeviceIdentity,
        options: &ConnectOptions,
    ) -> Result<(Connection, Hello, mpsc::UnboundedReceiver<Incoming>), GatewayError> {
        let url = endpoint.url.clone();
        let mut socket = tokio::time::timeout(
            options.connect_timeout,
            dial(&url, options.origin.as_deref()),
        )
        .await
        .map_err(|_| GatewayError::Unreachable {
            url: url.clone(),
            reason: format!(
                "no WebSocket within {} ms",
                options.connect_timeout.as_millis()
            ),
        })??;
        let hello = tokio::time::timeout(
            options.connect_timeout,
            handshake(&mut socket, endpoint, identity, options),
        )
        .await
        .map_err(|_| GatewayError::Handshake {
            url: url.clone(),
            message: format!(
                "no hello-ok within {} ms",
                options.connect_timeout.as_millis()
            ),
        })??;
        let (sink, stream) = socket.split();
        let (outgoing, outgoing_rx) = mpsc::unbounded_channel();
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let pending: Pending = Arc::default();
        let closed = CancellationToken::new();
        tokio::spawn(write_loop(sink, outgoing_rx, closed.clone()));
        // Two missed ticks mean the gateway is gone even if TCP has not noticed.
        let silence = Duration::from_millis(hello.tick_interval_ms.unwrap_or(30_000) * 2 + 5_000);
        tokio::spawn(read_loop(
            stream,
            pending.clone(),
            events_tx,
            closed.clone(),
            silence,
        ));
        Ok((
            Connection {
                url,
                outgoing,
                pending,
                next_id: Arc::new(AtomicU64::new(1)),
                request_timeout: options.request_timeout,
                closed,
            },
            hello,
            events_rx,
        ))
    }

    /// Calls `method` and waits for its payload (default timeout).
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, GatewayError> {
        self.request_with_timeout(method, params, self.request_timeout)
            .await
    }

    /// Calls `method`; a refusal becomes `GatewayError::Refused` with the gateway's words.
    pub async fn request_with_timeout(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, GatewayError> {
        let id = format!("cd-{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id.clone(), tx);
        }
        let frame = Frame::Req(RequestFrame {
            id: id.clone(),
            method: method.to_string(),
            params,
        });
        let text = serde_json::to_string(&frame).unwrap_or_default();
        if self.closed.is_cancelled() || self.outgoing.send(Message::text(text)).is_err() {
            self.forget(&id);
            return Err(GatewayError::Disconnected {
                reason: format!("{} closed", self.url),
            });
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(res)) => response_payload(method, res),
            Ok(Err(_)) => Err(GatewayError::Disconnected {
                reason: format!("{} closed before answering {method}", self.url),
            }),
            Err(_) => {
                self.forget(&id);
                Err(GatewayError::Timeout {
                    method: method.to_string(),
                    ms: timeout.as_millis() as u64,
                })
            }
        }
    }

    fn forget(&self, id: &str) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(id);
        }
    }

    /// Closes the socket (normal closure).
    pub fn close(&self) {
        let _ = self.outgoing.send(Message::Close(Some(CloseFrame {
            code: 1000.into(),
            reason: "clawdeck closing".into(),
        })));
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.is_cancelled()
    }
}

fn response_payload(method: &str, res: ResponseFrame) -> Result<Value, GatewayError> {
    if res.ok {
        return Ok(res.payload);
    }
    let error = res.error.unwrap_or_else(|| super::frames::ErrorShape {
        code: "UNKNOWN".into(),
        message: "refused without an error".into(),
        details: Value::Null,
        retryable: None,
        retry_after_ms: None,
    });
    Err(GatewayError::Refused {
        method: method.to_string(),
        code: error.code,
        message: error.message,
        details: error.details,
    })
}

/// Opens the socket: rustls for `wss://`, plain TCP only to loopback. The parsed URL decides
/// (never its text), and it is what gets dialled, so the host judged is the host reached.
async fn dial(url: &str, origin: Option<&str>) -> Result<Socket, GatewayError> {
    let parsed = url::Url::parse(url.trim()).map_err(|err| GatewayError::Unreachable {
        url: url.to_string(),
        reason: format!("not a valid URL: {err}"),
    })?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(GatewayError::UserInfoInUrl {
            host: parsed.host_str().unwrap_or_default().to_string(),
        });
    }
    let loopback = parsed.host().is_some_and(|host| is_loopback_host(&host));
    let connector = match parsed.scheme() {
        "wss" => Some(Connector::Rustls(Arc::new(tls_config(url)?))),
        "ws" if loopback => None,
        _ => {
            return Err(GatewayError::InsecureUrl {
                url: url.to_string(),
            });
        }
    };
    let unreachable = |reason: String| GatewayError::Unreachable {
        url: url.to_string(),
        reason,
    };
    let mut request = parsed
        .as_str()
        .into_client_request()
        .map_err(|err| unreachable(err.to_string()))?;
    if let Some(origin) = origin {
        let value = HeaderValue::from_str(origin)
            .map_err(|err| unreachable(format!("origin {origin:?}: {err}")))?;
        request.headers_mut().insert(ORIGIN, value);
    }
    let (socket, _response) =
        tokio_tungstenite::connect_async_tls_with_config(request, None, true, connector)
            .await
            .map_err(|err| GatewayError::Unreachable {
                url: url.to_string(),
                reason: err.to_string(),
            })?;
    Ok(socket)
}

/// rustls with the ring provider and the platform's certificate store (as the router's HTTP
/// client does).
fn tls_config(url: &str) -> Result<rustls::ClientConfig, GatewayError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone()).map_err(|err| {
        GatewayError::Unreachable {
            url: url.to_string(),
            reason: format!("cannot load the platform's certificates: {err}"),
        }
    })?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|err| GatewayError::Unreachable {
            url: url.to_string(),
            reason: format!("cannot set up TLS: {err}"),
        })?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(config)
}

/// The `connect` request's params for a challenge (pure, so it is tested against recorded
/// challenges).
pub fn connect_params(
    challenge: &Challenge,
    auth: &GatewayAuth,
    identity: &DeviceIdentity,
    options: &ConnectOptions,
) -> Value {
    let token = match auth {
        GatewayAuth::Token(t) => Some(t.as_str()),
        _ => None,
    };
    let payload = AuthPayload {
        device_id: identity.device_id(),
        client_id: &options.client_id,
        client_mode: &options.client_mode,
        role: &options.role,
        scopes: &options.scopes,
        signed_at_ms: challenge.ts,
        token,
        nonce: &challenge.nonce,
        platform: &options.platform,
        device_family: None,
    };
    let auth_json = match auth {
        GatewayAuth::None => Value::Null,
        GatewayAuth::Token(t) => json!({ "token": t }),
        GatewayAuth::Password(p) => json!({ "password": p }),
    };
    let mut params = json!({
        "minProtocol": PROTOCOL_VERSION,
        "maxProtocol": PROTOCOL_VERSION,
        "client": {
            "id": options.client_id,
            "displayName": "clawdeck",
            "version": options.client_version,
            "platform": options.platform,
            "mode": options.client_mode,
        },
        "role": options.role,
        "scopes": options.scopes,
        "caps": options.caps,
        "userAgent": format!("clawdeck/{}", options.client_version),
        "device": {
            "id": identity.device_id(),
            "publicKey": identity.public_key(),
            "signature": identity.sign(&payload),
            "signedAt": challenge.ts,
            "nonce": challenge.nonce,
        },
    });
    if !auth_json.is_null() {
        params["auth"] = auth_json;
    }
    if let Some(build) = &options.client_build_id {
        params["client"]["buildId"] = json!(build);
    }
    params
}

/// Waits for the challenge, sends `connect`, waits for `hello-ok`.
async fn handshake(
    socket: &mut Socket,
    endpoint: &GatewayEndpoint,
    identity: &DeviceIdentity,
    options: &ConnectOptions,
) -> Result<Hello, GatewayError> {
    let url = endpoint.url.as_str();
    let broken = |message: String| GatewayError::Handshake {
        url: url.to_string(),
        message,
    };
    let challenge = loop {
        match next_frame(socket, url, identity).await? {
            Frame::Event(ev) if ev.event == CONNECT_CHALLENGE => {
                break Challenge::from_payload(&ev.payload).map_err(broken)?;
            }
            _ => continue,
        }
    };
    let params = connect_params(&challenge, &endpoint.auth, identity, options);
    let frame = Frame::Req(RequestFrame {
        id: "connect".to_string(),
        method: "connect".to_string(),
        params,
    });
    let text = serde_json::to_string(&frame).unwrap_or_default();
    trace_frame("out", &text);
    socket
        .send(Message::text(text))
        .await
        .map_err(|err| broken(format!("cannot send connect: {err}")))?;
    loop {
        match next_frame(socket, url, identity).await? {
            Frame::Res(res) if res.id == "connect" => {
                if !res.ok {
                    let error = res.error.unwrap_or_else(|| super::frames::ErrorShape {
                        code: "UNKNOWN".into(),
                        message: "connect refused".into(),
                        details: Value::Null,
                        retryable: None,
                        retry_after_ms: None,
                    });
                    return Err(GatewayError::from_connect_error(
                        url,
                        identity.device_id(),
                        &error,
                    ));
                }
                let hello = Hello::from_payload(&res.payload).map_err(broken)?;
                if hello.protocol != PROTOCOL_VERSION {
                    return Err(GatewayError::ProtocolMismatch {
                        url: url.to_string(),
                        ours: PROTOCOL_VERSION,
                        message: format!("the gateway answered with protocol {}", hello.protocol),
                    });
                }
                return Ok(hello);
            }
            _ => continue,
        }
    }
}

/// The next JSON frame during the handshake; a close frame is classified (pairing, auth, ...).
async fn next_frame(
    socket: &mut Socket,
    url: &str,
    identity: &DeviceIdentity,
) -> Result<Frame, GatewayError> {
    loop {
        let Some(message) = socket.next().await else {
            return Err(GatewayError::Handshake {
                url: url.to_string(),
                message: "connection closed during the handshake".to_string(),
            });
        };
        let message = message.map_err(|err| GatewayError::Handshake {
            url: url.to_string(),
            message: err.to_string(),
        })?;
        match message {
            Message::Text(text) => {
                trace_frame("in", &text);
                return parse_frame(&text).map_err(|message| GatewayError::Handshake {
                    url: url.to_string(),
                    message,
                });
            }
            Message::Close(frame) => {
                let (code, reason) = frame
                    .map(|f| (u16::from(f.code), f.reason.to_string()))
                    .unwrap_or((1005, String::new()));
                return Err(GatewayError::from_close_reason(
                    url,
                    identity.device_id(),
                    code,
                    &reason,
                ));
            }
            _ => continue,
        }
    }
}

/// Every frame at trace level (target `clawdeck::gateway::wire`): how fixtures are recorded.
fn trace_frame(direction: &str, text: &str) {
    tracing::trace!(target: "clawdeck::gateway::wire", direction, frame = %text);
}

async fn write_loop(
    mut sink: futures_util::stream::SplitSink<Socket, Message>,
    mut outgoing: mpsc::UnboundedReceiver<Message>,
    closed: CancellationToken,
) {
    loop {
        let message = tokio::select! {
            _ = closed.cancelled() => break,
            message = outgoing.recv() => match message {
                Some(message) => message,
                None => break,
            },
        };
        let closing = matches!(message, Message::Close(_));
        if let Message::Text(text) = &message {
            trace_frame("out", text);
        }
        if sink.send(message).await.is_err() || closing {
            break;
        }
    }
    let _ = sink.close().await;
}

async fn read_loop(
    mut stream: futures_util::stream::SplitStream<Socket>,
    pending: Pending,
    events: mpsc::UnboundedSender<Incoming>,
    closed: CancellationToken,
    silence: Duration,
) {
    let reason = loop {
        let message = match tokio::time::timeout(silence, stream.next()).await {
            Err(_) => break format!("no frame for {} ms", silence.as_millis()),
            Ok(None) => break "connection closed".to_string(),
            Ok(Some(Err(err))) => break err.to_string(),
            Ok(Some(Ok(message))) => message,
        };
        match message {
            Message::Text(text) => {
                trace_frame("in", &text);
                match parse_frame(&text) {
                    Ok(Frame::Res(res)) => {
                        let waiter = pending.lock().ok().and_then(|mut p| p.remove(&res.id));
                        if let Some(waiter) = waiter {
                            let _ = waiter.send(res);
                        }
                    }
                    Ok(Frame::Event(ev)) => {
                        if events.send(Incoming::Event(ev)).is_err() {
                            break "nobody listens".to_string();
                        }
                    }
                    Ok(Frame::Req(_)) => {}
                    Err(err) => tracing::warn!("gateway: {err}"),
                }
            }
            Message::Close(frame) => {
                break frame
                    .map(|f| format!("closed by the gateway ({}) {}", u16::from(f.code), f.reason))
                    .unwrap_or_else(|| "closed by the gateway".to_string());
            }
            _ => {}
        }
    };
    // Waiters learn of the close when their sender is dropped.
    if let Ok(mut p) = pending.lock() {
        p.clear();
    }
    closed.cancel();
    let _ = events.send(Incoming::Closed(reason));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ws://127.0.0.1:1@HOST` names HOST: it is refused before any socket opens, so the
    /// token never goes to HOST in clear text.
    #[tokio::test]
    async fn plain_ws_to_a_host_behind_userinfo_is_refused_before_dialling() {
        for url in [
            "ws://127.0.0.1:1@192.0.2.1",
            "ws://localhost@192.0.2.1",
            "ws://[::1]:1@192.0.2.1",
            "ws://127.0.0.1.nip.example",
        ] {
            let dialled = tokio::time::timeout(Duration::from_secs(5), dial(url, None)).await;
            let Ok(Err(err)) = dialled else {
                panic!("{url} was dialled");
            };
            assert!(
                matches!(
                    err,
                    GatewayError::InsecureUrl { .. } | GatewayError::UserInfoInUrl { .. }
                ),
                "{url}: {err}"
            );
        }
    }
}
