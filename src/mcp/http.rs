//! `clawdeck mcp --listen 127.0.0.1:PORT`: the streamable HTTP transport on loopback, behind a
//! bearer token. A request without a token that admits it gets 401 before the MCP service sees
//! it; a listen address that is not loopback is refused (the tools run with this user's rights).

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::clients::token_admits;
use super::sdk::{Handler, bearer_token, http_service};
use super::server::ToolServer;

/// Where the MCP endpoint answers.
pub const MCP_PATH: &str = "/mcp";

/// Parses `--listen`; only loopback addresses are accepted.
pub fn loopback_addr(raw: &str) -> Result<SocketAddr, String> {
    let addr: SocketAddr = raw.trim().parse().map_err(|e| {
        format!("--listen {raw:?}: not an address with a port ({e}), e.g. 127.0.0.1:8765")
    })?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "--listen {raw:?}: {} is not a loopback address; clawdeck serves MCP on 127.0.0.1 or ::1 only",
            addr.ip()
        ));
    }
    Ok(addr)
}

fn plain(status: http::StatusCode, text: &str) -> http::Response<BoxBody<Bytes, Infallible>> {
    let mut response = http::Response::new(Full::new(Bytes::from(text.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if status == http::StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

/// Serves MCP on `listener` until `cancel` fires. `token` is the server's own bearer token;
/// tokens of `mcp.clients` entries are admitted too (read from the current config per request).
pub async fn serve(
    listener: TcpListener,
    server: ToolServer,
    handler: Handler,
    token: String,
    cancel: CancellationToken,
) -> Result<(), String> {
    let service = http_service(handler, cancel.child_token());
    loop {
        let (stream, _) = tokio::select! {
            _ = cancel.cancelled() => return Ok(()),
            accepted = listener.accept() => accepted.map_err(|e| format!("accepting an MCP connection failed: {e}"))?,
        };
        let service = service.clone();
        let server = server.clone();
        let token = token.clone();
        let cancel = cancel.clone();
        tokio::spawn(async move {
            let serve_request = service_fn(move |request: http::Request<Incoming>| {
                let mut service = service.clone();
                let server = server.clone();
                let token = token.clone();
                async move {
                    if request.uri().path() != MCP_PATH {
                        return Ok::<_, Infallible>(plain(
                            http::StatusCode::NOT_FOUND,
                            "clawdeck serves MCP at /mcp\n",
                        ));
                    }
                    let config = server.deck().config();
                    let admitted = bearer_token(request.headers()).is_some_and(|presented| {
                        token_admits(&config.settings.mcp, &token, &presented)
                    });
                    if !admitted {
                        return Ok(plain(
                            http::StatusCode::UNAUTHORIZED,
                            "missing or wrong bearer token (Authorization: Bearer <token>)\n",
                        ));
                    }
                    service.call(request).await
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), serve_request);
            tokio::select! {
                _ = connection => {}
                _ = cancel.cancelled() => {}
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert!(loopback_addr("127.0.0.1:8765").is_ok());
        assert!(loopback_addr("[::1]:8765").is_ok());
        let public = loopback_addr("0.0.0.0:8765").unwrap_err();
        assert!(public.contains("not a loopback address"), "{public}");
        let bad = loopback_addr("localhost").unwrap_err();
        assert!(bad.contains("--listen"), "{bad}");
    }

    #[test]
    fn bearer_tokens_are_read_from_the_authorization_header() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            http::header::AUTHORIZATION,
            http::HeaderValue::from_static("Bearer abc"),
        );
        assert_eq!(bearer_token(&headers).as_deref(), Some("abc"));
        headers.insert(
            http::header::AUTHORIZATION,
            http::HeaderValue::from_static("Basic abc"),
        );
        assert_eq!(bearer_token(&headers), None);
    }
}
