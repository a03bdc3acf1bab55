//! Running the MCP server on a Deck: over stdio for `clawdeck mcp`, over loopback HTTP for
//! `clawdeck mcp --listen` and for the console (`clawdeck --mcp-listen`), where the same Deck's
//! Queue and Router views show the clients' calls. Every config the Deck installs tells the
//! connected sessions that their tool list changed.

use std::sync::Arc;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::clients::FlagContext;
use super::sdk::{Handler, Peers};
use super::server::ToolServer;
use crate::deck::Deck;
use crate::deck::mcp_endpoint::EndpointMonitor;

fn handler_for(
    deck: &Deck,
    flags: FlagContext,
    cancel: &CancellationToken,
) -> (ToolServer, Handler) {
    let server = ToolServer::new(deck.clone(), flags);
    let peers = Peers::default();
    let mut installed = deck.installed();
    let notify = peers.clone();
    let stop = cancel.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.cancelled() => return,
                event = installed.recv() => match event {
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        notify.notify_tool_list_changed().await;
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
            }
        }
    });
    let handler = Handler::new(server.clone(), peers);
    (server, handler)
}

/// Serves one client on stdin/stdout until it closes the session or `cancel` fires.
pub async fn serve_stdio(
    deck: &Deck,
    flags: impl Into<FlagContext>,
    cancel: CancellationToken,
) -> Result<(), String> {
    let (_, handler) = handler_for(deck, flags.into(), &cancel);
    tokio::select! {
        served = super::sdk::serve_stdio(handler) => served,
        _ = cancel.cancelled() => Ok(()),
    }
}

/// Serves streamable HTTP on `listener` (bound by the caller, loopback) until `cancel` fires.
/// The endpoint's state is on the Deck (`Deck::mcp_endpoint`) for the console to show; its
/// warnings go to the diagnostics log only.
pub async fn serve_http(
    deck: &Deck,
    flags: impl Into<FlagContext>,
    listener: TcpListener,
    token: String,
    cancel: CancellationToken,
) -> Result<(), String> {
    let monitor = EndpointMonitor::quiet(endpoint_url(&listener));
    serve_http_monitored(deck, flags, listener, token, monitor, cancel).await
}

/// `serve_http` with its warnings (refused connections, failed accepts) said through `warn`.
pub async fn serve_http_reporting(
    deck: &Deck,
    flags: impl Into<FlagContext>,
    listener: TcpListener,
    token: String,
    cancel: CancellationToken,
    warn: impl Fn(String) + Send + Sync + 'static,
) -> Result<(), String> {
    let monitor = EndpointMonitor::new(endpoint_url(&listener), Arc::new(warn));
    serve_http_monitored(deck, flags, listener, token, monitor, cancel).await
}

async fn serve_http_monitored(
    deck: &Deck,
    flags: impl Into<FlagContext>,
    listener: TcpListener,
    token: String,
    monitor: EndpointMonitor,
    cancel: CancellationToken,
) -> Result<(), String> {
    #[cfg(not(feature = "http-server"))]
    {
        let _ = (deck, flags.into(), listener, token, monitor, cancel);
        Err(NO_HTTP_SERVER.to_string())
    }
    #[cfg(feature = "http-server")]
    {
        deck.set_mcp_endpoint(monitor.clone());
        let (server, handler) = handler_for(deck, flags.into(), &cancel);
        super::http_listener::serve(listener, server, handler, token, monitor, cancel).await
    }
}

/// Why `--listen` / `--mcp-listen` cannot serve in a build without the HTTP listener.
pub(crate) const NO_HTTP_SERVER: &str =
    "this clawdeck was built without the MCP HTTP listener (the `mcp-http` feature, on by default)";

/// The token given (`--token`, `--mcp-token`, `CLAWDECK_MCP_TOKEN`), else a generated one.
pub fn token_or_generated(given: Option<String>) -> Result<String, String> {
    match given.filter(|t| !t.trim().is_empty()) {
        Some(token) => Ok(token),
        None => generated_token(),
    }
}

/// A bearer token for a server started without one: 24 random bytes, hex.
fn generated_token() -> Result<String, String> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|e| format!("cannot generate a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Binds the loopback address `raw` (`--listen` / `--mcp-listen`), or says why not.
pub async fn bind(raw: &str) -> Result<TcpListener, String> {
    let addr = super::http::loopback_addr(raw)?;
    if !cfg!(feature = "http-server") {
        return Err(format!("{addr}: {NO_HTTP_SERVER}"));
    }
    TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))
}

/// `http://ADDR/mcp` for a bound listener.
pub fn endpoint_url(listener: &TcpListener) -> String {
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "?".to_string());
    format!("http://{addr}{}", super::http::MCP_PATH)
}
