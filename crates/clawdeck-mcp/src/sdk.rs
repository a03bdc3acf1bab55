//! The one module that speaks the MCP SDK (`rmcp`, pinned to one major in Cargo.toml): the
//! request handler, the stdio transport and the streamable HTTP service. Everything clawdeck
//! decides lives in `server` and `clients`; an SDK upgrade changes this file only.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock as McpContent,
    Implementation, InitializeRequestParams, InitializeResult, ListToolsResult, MetaObject,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, SubscriptionFilter,
    Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::sync::{broadcast, mpsc};

use super::clients::ClientIdentity;
use super::server::{CallReply, ListedTool, ToolServer};
use crate::tool::{ContentBlock, ProgressSink, ToolResult};

/// Progress notifications waiting to be sent for one call; more are dropped, not queued.
const PROGRESS_BACKLOG: usize = 64;
/// A progress message longer than this is cut (the full output is in the result).
const PROGRESS_MESSAGE_CHARS: usize = 2_000;

/// Tells every live session that its tool list changed: sessions on the older protocol through
/// their peer (`notifications/tools/list_changed`), 2026-07-28 clients through their
/// `subscriptions/listen` stream.
#[derive(Clone)]
pub struct Peers {
    inner: Arc<Mutex<Vec<Peer<RoleServer>>>>,
    changed: broadcast::Sender<()>,
}

impl Default for Peers {
    fn default() -> Self {
        Peers {
            inner: Arc::default(),
            changed: broadcast::channel(8).0,
        }
    }
}

impl Peers {
    fn add(&self, peer: Peer<RoleServer>) {
        let mut peers = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        peers.retain(|p| !p.is_transport_closed());
        peers.push(peer);
    }

    /// Tells every session still connected; returns how many legacy sessions were told.
    pub(crate) async fn notify_tool_list_changed(&self) -> usize {
        let _ = self.changed.send(());
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            peers.retain(|p| !p.is_transport_closed());
            peers.clone()
        };
        let mut told = 0;
        for peer in peers {
            if peer.notify_tool_list_changed().await.is_ok() {
                told += 1;
            }
        }
        told
    }
}

/// clawdeck's MCP request handler: one per session (cheap to clone).
#[derive(Clone)]
pub struct Handler {
    server: ToolServer,
    peers: Peers,
}

impl Handler {
    pub fn new(server: ToolServer, peers: Peers) -> Handler {
        Handler { server, peers }
    }

    /// Who is asking: the name the client announced, and over HTTP the bearer token it sent.
    fn identity(&self, context: &RequestContext<RoleServer>) -> ClientIdentity {
        let name = context
            .peer
            .peer_info()
            .map(|info| info.client_info.name.clone());
        let bearer = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| bearer_token(&parts.headers));
        self.server.identify(name.as_deref(), bearer.as_deref())
    }
}

/// Fires when the HTTP connection that carried this request is gone (None on stdio).
fn connection_closed(
    context: &RequestContext<RoleServer>,
) -> Option<tokio_util::sync::CancellationToken> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let closed = parts.extensions.get::<super::http::ConnectionClosed>()?;
    Some(closed.0.clone())
}

/// The token of an `Authorization: Bearer <token>` header.
pub(crate) fn bearer_token(headers: &http::HeaderMap) -> Option<String> {
    let value = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

fn mcp_tool(tool: ListedTool) -> Tool {
    Tool::new(tool.name, tool.description, Arc::new(tool.input_schema))
}

fn mcp_content(block: ContentBlock) -> McpContent {
    match block {
        ContentBlock::Text { text } => McpContent::text(text),
        ContentBlock::Image { data, mime_type } => McpContent::image(data, mime_type),
    }
}

fn mcp_result(reply: CallReply) -> CallToolResult {
    let content: Vec<McpContent> = reply.content.into_iter().map(mcp_content).collect();
    let result = if reply.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    // The tool's details ride along in `_meta` for clients that want more than the text.
    let meta = match reply.details {
        Value::Null => None,
        details => {
            let mut map = Map::new();
            map.insert("clawdeck/details".to_string(), details);
            Some(MetaObject(map))
        }
    };
    result.with_meta(meta)
}

/// The text of a progress update, cut to a size a notification can carry.
fn progress_message(update: &ToolResult) -> Option<String> {
    let text: String = update
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            ContentBlock::Image { .. } => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    if text.is_empty() {
        return None;
    }
    let mut chars = text.char_indices();
    Some(match chars.nth(PROGRESS_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    })
}

/// A progress sink that forwards a tool's updates as `notifications/progress` for `token`.
/// The sink never blocks the tool: a client that reads slowly loses updates, not the call.
fn progress_sink(
    peer: Peer<RoleServer>,
    token: rmcp::model::ProgressToken,
) -> (ProgressSink, tokio::task::JoinHandle<()>) {
    let (tx, mut rx) = mpsc::channel::<Option<String>>(PROGRESS_BACKLOG);
    let forward = tokio::spawn(async move {
        let mut step = 0.0;
        while let Some(message) = rx.recv().await {
            step += 1.0;
            let mut param = ProgressNotificationParam::new(token.clone(), step);
            param.message = message;
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    });
    let sink: ProgressSink = Arc::new(move |update: ToolResult| {
        let _ = tx.try_send(progress_message(&update));
    });
    (sink, forward)
}

impl ServerHandler for Handler {
    fn get_info(&self) -> InitializeResult {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let mut info = InitializeResult::new(capabilities);
        info.server_info = Implementation::new("clawdeck", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(
            "clawdeck's tools, filtered by OpenClaw's tool policy for this client's context; \
             every call goes through clawdeck's pipeline and is recorded."
                .to_string(),
        );
        info
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.peers.add(context.peer.clone());
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        (requested.tools_list_changed == Some(true))
            .then(|| SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changed = self.peers.changed.subscribe();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                event = changed.recv() => match event {
                    // A lagged receiver still owes the client one notice.
                    Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        if context.sink().notify_tool_list_changed().await.is_err() {
                            return Ok(());
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let identity = self.identity(&context);
        match self.server.list(&identity) {
            Ok(tools) => Ok(ListToolsResult::with_all_items(
                tools.iter().cloned().map(mcp_tool).collect(),
            )),
            // A context the config cannot resolve (an agent that is gone) lists nothing and
            // says why in the log; the session stays up.
            Err(problem) => {
                tracing::warn!(client = %identity.label, "tools/list: {problem}");
                Ok(ListToolsResult::default())
            }
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let identity = self.identity(&context);
        let token = request
            .meta
            .as_ref()
            .and_then(|m| m.get_progress_token())
            .or_else(|| context.meta.get_progress_token());
        let (progress, forward) = match token {
            Some(token) => {
                let (sink, forward) = progress_sink(context.peer.clone(), token);
                (Some(sink), Some(forward))
            }
            None => (None, None),
        };
        // The client's cancellation, and over HTTP its connection closing: a client that hung
        // up waits for nothing, so its call stops (and its process tree with it).
        let cancel = context.ct.child_token();
        let call = self.server.call(
            &identity,
            &request.name,
            request.arguments,
            cancel.clone(),
            progress,
        );
        let reply = match connection_closed(&context) {
            None => call.await,
            Some(closed) => {
                tokio::pin!(call);
                tokio::select! {
                    reply = &mut call => reply,
                    () = closed.cancelled() => {
                        cancel.cancel();
                        call.await
                    }
                }
            }
        };
        if let Some(forward) = forward {
            // Updates already queued go out before the result; the sink is gone with the call.
            let _ = tokio::time::timeout(std::time::Duration::from_millis(200), forward).await;
        }
        Ok(CallToolResponse::from(mcp_result(reply)))
    }
}

/// Serves one session over stdin/stdout until the client closes it. The lines pass through
/// `lines`, which answers an undecodable one with a parse error (the SDK would stay silent).
pub async fn serve_stdio(handler: Handler) -> Result<(), String> {
    serve_lines(handler, tokio::io::stdin(), tokio::io::stdout()).await
}

/// `serve_stdio` over any pair of byte streams. A client that closes our output has ended the
/// session: that is a quiet end, not an error.
pub(crate) async fn serve_lines<R, W>(handler: Handler, input: R, output: W) -> Result<(), String>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let (sdk, framing) = super::lines::frame(input, output);
    let running = match handler.serve((sdk.input, sdk.output)).await {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::TransportError { error, .. })
            if is_closed_pipe(error.error.as_ref()) =>
        {
            return Ok(());
        }
        Err(e) => return Err(format!("MCP handshake on stdio failed: {e}")),
    };
    let ended = running
        .waiting()
        .await
        .map_err(|e| format!("MCP session ended with an error: {e}"));
    framing.flush(std::time::Duration::from_secs(1)).await;
    ended.map(|_| ())
}

/// The streamable HTTP service `http` puts behind its gate.
#[cfg(feature = "http-server")]
pub(crate) type McpHttpService = rmcp::transport::StreamableHttpService<
    Handler,
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
>;

/// Whether `err` is (or was caused by) a write into a closed pipe.
fn is_closed_pipe(err: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    let err: &(dyn std::error::Error + 'static) = err;
    let mut current = Some(err);
    while let Some(e) = current {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        current = e.source();
    }
    false
}

/// The sessions of the HTTP service (the gate counts and closes them).
#[cfg(feature = "http-server")]
pub(crate) type McpSessions =
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The streamable HTTP service for `handler`, one session per client, loopback hosts only; a
/// session idle for `idle` is closed. Its sessions are handed back too.
#[cfg(feature = "http-server")]
pub(crate) fn http_service(
    handler: Handler,
    cancel: tokio_util::sync::CancellationToken,
    idle: std::time::Duration,
) -> (McpHttpService, Arc<McpSessions>) {
    let mut config = rmcp::transport::StreamableHttpServerConfig::default();
    config.cancellation_token = cancel;
    let mut sessions = McpSessions::default();
    sessions.session_config.keep_alive = Some(idle);
    let sessions = Arc::new(sessions);
    let service = rmcp::transport::StreamableHttpService::new(
        move || Ok(handler.clone()),
        sessions.clone(),
        config,
    );
    (service, sessions)
}
