//! The loopback HTTP listener itself (hyper's server): the gate in front of the SDK's
//! streamable HTTP service (Origin, bearer token, header timeout, connection cap). Built with
//! the `http-server` feature; the rules it applies are in `http`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::clients::token_admits;
use super::http::{ConnectionClosed, MCP_PATH, McpHttpSettings, origin_refused};
use super::sdk::{Handler, McpHttpService, McpSessions, bearer_token, http_service};
use super::server::ToolServer;
use crate::deck::mcp_endpoint::{ConnectionSlot, EndpointMonitor};

/// How long a connection may take to send a request's headers (an idle one included).
pub(crate) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once, unless the open-file limit asks for fewer.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 128;
/// The default cap never goes below this, however low the open-file limit.
const MIN_DEFAULT_CONNECTIONS: usize = 8;

/// MCP sessions kept at once unless `mcp.http.maxSessions` says otherwise.
pub(crate) const DEFAULT_MAX_SESSIONS: usize = 256;
/// How long a session may stay idle unless `mcp.http.sessionIdleMs` says otherwise.
pub(crate) const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);
/// A session that sent nothing for this long may be closed to make room for a new one.
const BUSY_WITHIN: Duration = Duration::from_secs(5);

/// The limits in force for a new connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HttpLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub max_sessions: usize,
    pub session_idle: Duration,
}

impl HttpLimits {
    pub fn from_settings(settings: &McpHttpSettings) -> HttpLimits {
        HttpLimits {
            max_connections: settings
                .max_connections
                .unwrap_or_else(|| default_max_connections(open_file_limit())),
            header_timeout: settings
                .header_timeout_ms
                .map_or(DEFAULT_HEADER_TIMEOUT, Duration::from_millis),
            max_sessions: settings.max_sessions.unwrap_or(DEFAULT_MAX_SESSIONS),
            session_idle: settings
                .session_idle_ms
                .map_or(DEFAULT_SESSION_IDLE, Duration::from_millis),
        }
    }
}

/// 128, or a quarter of the open-file limit when lower (the rest stays for the tools' pipes,
/// the config and the logs), never under 8.
pub(crate) fn default_max_connections(open_files: Option<u64>) -> usize {
    let share = open_files.map_or(DEFAULT_MAX_CONNECTIONS, |limit| {
        usize::try_from(limit / 4).unwrap_or(usize::MAX)
    });
    share.clamp(MIN_DEFAULT_CONNECTIONS, DEFAULT_MAX_CONNECTIONS)
}

/// The soft RLIMIT_NOFILE; None when unknown or unlimited.
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given and nothing else.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (read == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The longest pause between retries of a failing `accept()`.
const MAX_ACCEPT_PAUSE: Duration = Duration::from_secs(1);

type Response = http::Response<BoxBody<Bytes, Infallible>>;

fn respond(status: http::StatusCode, content_type: &'static str, text: String) -> Response {
    let mut response = http::Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(content_type),
    );
    response
}

fn plain(status: http::StatusCode, text: &str) -> Response {
    let mut response = respond(status, "text/plain; charset=utf-8", text.to_string());
    if status == http::StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

/// 403 with a JSON-RPC error that has no id (what the transport spec allows for a bad Origin).
fn forbidden_origin() -> Response {
    let body = serde_json::json!({"jsonrpc": "2.0", "error": {"code": -32000, "message":
        "Forbidden: the request's Origin is not a loopback origin (http://localhost, http://127.0.0.1 or http://[::1], any port); clawdeck's MCP endpoint answers browser pages on this machine only"}});
    respond(
        http::StatusCode::FORBIDDEN,
        "application/json",
        body.to_string(),
    )
}

/// 503 with a JSON-RPC error: every one of `max` sessions is busy.
fn sessions_full(max: usize) -> Response {
    let body = serde_json::json!({"jsonrpc": "2.0", "error": {"code": -32000, "message":
        format!("Too many MCP sessions: all {max} (mcp.http.maxSessions) are busy; retry later, or raise mcp.http.maxSessions in clawdeck.json5")}});
    respond(
        http::StatusCode::SERVICE_UNAVAILABLE,
        "application/json",
        body.to_string(),
    )
}

/// When each session last sent something, by its id (kept beside the service's sessions).
type Activity = Arc<std::sync::Mutex<std::collections::HashMap<String, std::time::Instant>>>;

/// What every request passes before the MCP service: Origin, path, token, the session cap.
#[derive(Clone)]
struct Gate {
    service: McpHttpService,
    sessions: Arc<McpSessions>,
    activity: Activity,
    server: ToolServer,
    token: String,
}

impl Gate {
    async fn answer(mut self, request: http::Request<Incoming>) -> Result<Response, Infallible> {
        if origin_refused(request.headers()) {
            return Ok(forbidden_origin());
        }
        if request.uri().path() != MCP_PATH {
            return Ok(plain(
                http::StatusCode::NOT_FOUND,
                "clawdeck serves MCP at /mcp\n",
            ));
        }
        let config = self.server.deck().config();
        let admitted = bearer_token(request.headers())
            .is_some_and(|presented| token_admits(&config.settings.mcp, &self.token, &presented));
        if !admitted {
            return Ok(plain(
                http::StatusCode::UNAUTHORIZED,
                "missing or wrong bearer token (Authorization: Bearer <token>)\n",
            ));
        }
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let opens = session.is_none() && request.method() == http::Method::POST;
        match &session {
            Some(id) => self.touch(id),
            None if opens => {
                let max = HttpLimits::from_settings(&config.settings.mcp.http).max_sessions;
                if !self.make_room(max).await {
                    return Ok(sessions_full(max));
                }
            }
            None => {}
        }
        let response = self.service.call(request).await;
        if let Ok(answer) = &response
            && let Some(id) = answer
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
        {
            self.touch(id);
        }
        response
    }

    fn touch(&self, id: &str) {
        if let Ok(mut activity) = self.activity.lock() {
            activity.insert(id.to_string(), std::time::Instant::now());
        }
    }

    /// Room for one more session under `max`: the session idle longest is closed when the cap
    /// is reached; false when every session is busy.
    async fn make_room(&self, max: usize) -> bool {
        let open: Vec<String> = self
            .sessions
            .sessions
            .read()
            .await
            .keys()
            .map(|id| id.to_string())
            .collect();
        let idlest = {
            let Ok(mut activity) = self.activity.lock() else {
                return false;
            };
            // Sessions the service closed (idle timeout, DELETE) are forgotten here too.
            activity.retain(|id, _| open.contains(id));
            if open.len() < max {
                return true;
            }
            let now = std::time::Instant::now();
            open.iter()
                .map(|id| (id, activity.get(id).copied()))
                .filter(|(_, last)| last.is_none_or(|t| now.duration_since(t) >= BUSY_WITHIN))
                .min_by_key(|(_, last)| *last)
                .map(|(id, _)| id.clone())
        };
        let Some(idlest) = idlest else {
            return false;
        };
        let id: rmcp::transport::common::server_side_http::SessionId = idlest.as_str().into();
        let _ = rmcp::transport::streamable_http_server::session::SessionManager::close_session(
            &*self.sessions,
            &id,
        )
        .await;
        if let Ok(mut activity) = self.activity.lock() {
            activity.remove(&idlest);
        }
        true
    }
}

/// The pause before retrying the `failures`th failed `accept()` in a row: 50 ms, doubling, at
/// most a second.
fn accept_pause(failures: u64) -> Duration {
    let doublings = u32::try_from(failures.saturating_sub(1))
        .unwrap_or(u32::MAX)
        .min(5);
    (Duration::from_millis(50) * 2u32.pow(doublings)).min(MAX_ACCEPT_PAUSE)
}

/// Serves MCP on `listener` until `cancel` fires. `token` is the server's own bearer token;
/// tokens of `mcp.clients` entries are admitted too (read from the current config per request).
/// `monitor` shows what the listener does; it never ends on a failed `accept()`.
pub async fn serve(
    listener: TcpListener,
    server: ToolServer,
    handler: Handler,
    token: String,
    monitor: EndpointMonitor,
    cancel: CancellationToken,
) -> Result<(), String> {
    let idle = HttpLimits::from_settings(&server.deck().config().settings.mcp.http).session_idle;
    let (service, sessions) = http_service(handler, cancel.child_token(), idle);
    let gate = Gate {
        service,
        sessions,
        activity: Activity::default(),
        server,
        token,
    };
    let mut failures = 0u64;
    loop {
        let accepted = tokio::select! {
            _ = cancel.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) => {
                failures += 1;
                monitor.accept_failed(&err, failures);
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = tokio::time::sleep(accept_pause(failures)) => continue,
                }
            }
        };
        if failures > 0 {
            monitor.accepting_again(failures);
            failures = 0;
        }
        let limits = HttpLimits::from_settings(&gate.server.deck().config().settings.mcp.http);
        // Over the cap the connection is closed at once (dropped unread).
        let Some(slot) = monitor.admit(limits.max_connections) else {
            continue;
        };
        tokio::spawn(serve_connection(
            stream,
            slot,
            limits.header_timeout,
            gate.clone(),
            cancel.clone(),
        ));
    }
    monitor.stopped();
    Ok(())
}

/// One connection's requests, until the peer closes it, it overstays the header timeout, or
/// the server stops. Its end cancels the calls it still waits for.
async fn serve_connection(
    stream: TcpStream,
    _slot: ConnectionSlot,
    header_timeout: Duration,
    gate: Gate,
    cancel: CancellationToken,
) {
    let closed = CancellationToken::new();
    let _closes = closed.clone().drop_guard();
    let on_request = service_fn(move |mut request: http::Request<Incoming>| {
        request
            .extensions_mut()
            .insert(ConnectionClosed(closed.clone()));
        gate.clone().answer(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(TokioIo::new(stream), on_request);
    tokio::select! {
        _ = connection => {}
        _ = cancel.cancelled() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_leaves_room_under_the_open_file_limit() {
        assert_eq!(default_max_connections(None), DEFAULT_MAX_CONNECTIONS);
        assert_eq!(default_max_connections(Some(1_048_576)), 128);
        assert_eq!(default_max_connections(Some(256)), 64);
        assert_eq!(default_max_connections(Some(16)), 8);
        let limits = HttpLimits::from_settings(&McpHttpSettings {
            max_connections: Some(5),
            header_timeout_ms: Some(250),
            ..McpHttpSettings::default()
        });
        assert_eq!(limits.max_connections, 5);
        assert_eq!(limits.header_timeout, Duration::from_millis(250));
        assert_eq!(
            HttpLimits::from_settings(&McpHttpSettings::default()).header_timeout,
            DEFAULT_HEADER_TIMEOUT
        );
    }

    #[test]
    fn a_failing_accept_backs_off_to_at_most_a_second() {
        assert_eq!(accept_pause(1), Duration::from_millis(50));
        assert_eq!(accept_pause(3), Duration::from_millis(200));
        assert_eq!(accept_pause(1000), MAX_ACCEPT_PAUSE);
    }
}
