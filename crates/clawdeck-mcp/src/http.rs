//! `clawdeck mcp --listen 127.0.0.1:PORT`: the streamable HTTP transport on loopback, behind a
//! bearer token. A listen address that is not loopback is refused (the tools run with this
//! user's rights). Before the MCP service sees a request: a browser `Origin` that is not a
//! loopback origin gets 403 (DNS rebinding, as the MCP transport spec requires), a missing or
//! wrong token 401. The listener holds under a flood: a connection must send its request's
//! headers within the header timeout, at most `maxConnections` are open (more are closed as
//! they arrive), and a failed `accept()` (out of file descriptors) pauses and retries instead
//! of ending the server. A connection that closes cancels the calls it was waiting for.

use std::net::SocketAddr;

use tokio_util::sync::CancellationToken;

/// Where the MCP endpoint answers.
pub(crate) const MCP_PATH: &str = "/mcp";

pub use crate::config::mcp_settings::McpHttpSettings;
/// Put into each request's extensions: fires when the request's connection is gone, so a call
/// whose client hung up is cancelled (see `sdk`).
#[derive(Clone, Debug)]
pub(crate) struct ConnectionClosed(pub CancellationToken);

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

/// Whether a browser page at `origin` may call this endpoint: http(s) on `localhost`,
/// 127.0.0.0/8 or `::1`, any port, judged on the parsed host. `null` and the rest are not.
#[cfg(any(test, feature = "http-server"))]
pub(crate) fn is_loopback_origin(origin: &str) -> bool {
    let Ok(url) = url::Url::parse(origin.trim()) else {
        return false;
    };
    matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url
            .host()
            .is_some_and(|host| crate::config::gateway_entries::is_loopback_host(&host))
}

/// A request with an `Origin` header that is not a loopback origin (each one, if repeated).
#[cfg(any(test, feature = "http-server"))]
pub(crate) fn origin_refused(headers: &http::HeaderMap) -> bool {
    headers
        .get_all(http::header::ORIGIN)
        .iter()
        .any(|value| !value.to_str().is_ok_and(is_loopback_origin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sdk::bearer_token;

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
    fn only_loopback_browser_origins_are_allowed() {
        for origin in [
            "http://localhost:6274",
            "http://LOCALHOST",
            "https://localhost:1",
            "http://127.0.0.1:8080",
            "http://127.1.2.3:1",
            "http://[::1]:3000",
        ] {
            assert!(is_loopback_origin(origin), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "http://127.0.0.1:1@evil.example",
            "http://user@localhost",
            "http://[::ffff:10.0.0.1]",
            "ws://localhost:1",
            "file://",
            "null",
            "",
        ] {
            assert!(!is_loopback_origin(origin), "{origin}");
        }
        let mut headers = http::HeaderMap::new();
        assert!(
            !origin_refused(&headers),
            "no Origin: a client that is not a browser"
        );
        headers.append(
            http::header::ORIGIN,
            http::HeaderValue::from_static("http://localhost:1"),
        );
        assert!(!origin_refused(&headers));
        headers.append(
            http::header::ORIGIN,
            http::HeaderValue::from_static("http://evil.example"),
        );
        assert!(origin_refused(&headers), "every Origin given must pass");
    }

    #[test]
    fn http_limits_out_of_range_are_config_errors_naming_the_key() {
        for (text, key) in [
            ("{ mcp: { http: { maxConnections: 0 } } }", "maxConnections"),
            (
                "{ mcp: { http: { headerTimeoutMs: 5 } } }",
                "headerTimeoutMs",
            ),
            ("{ mcp: { http: { nope: 1 } } }", "nope"),
            ("{ mcp: { http: { maxSessions: 0 } } }", "maxSessions"),
            ("{ mcp: { http: { sessionIdleMs: 10 } } }", "sessionIdleMs"),
        ] {
            let err = crate::config::parse_settings(text, "clawdeck.json5")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                err.contains("mcp.http") && err.contains(key),
                "{text}: {err}"
            );
        }
        let ok = crate::config::parse_settings(
            "{ mcp: { http: { maxConnections: 16, headerTimeoutMs: 2000 } } }",
            "clawdeck.json5",
        )
        .map(|s| s.mcp.http)
        .unwrap_or_default();
        assert_eq!(ok.max_connections, Some(16));
        assert_eq!(ok.header_timeout_ms, Some(2000));
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
