//! `clawdeck mcp --listen 127.0.0.1:PORT`: the streamable HTTP transport on loopback, behind a
//! bearer token. A listen address that is not loopback is refused (the tools run with this
//! user's rights). Before the MCP service sees a request: a browser `Origin` that is not a
//! loopback origin gets 403 (DNS rebinding, as the MCP transport spec requires), a missing or
//! wrong token 401. The listener holds under a flood: a connection must send its request's
//! headers within the header timeout, at most `maxConnections` are open (more are closed as
//! they arrive), and a failed `accept()` (out of file descriptors) pauses and retries instead
//! of ending the server. A connection that closes cancels the calls it was waiting for.

// Without the listener (feature `http-server`) only `--listen`'s address check is used.
#![cfg_attr(not(feature = "http-server"), allow(dead_code))]

use std::net::SocketAddr;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

#[cfg(feature = "http-server")]
pub use super::http_listener::serve;

/// Where the MCP endpoint answers.
pub(crate) const MCP_PATH: &str = "/mcp";
/// How long a connection may take to send a request's headers (an idle one included).
pub(crate) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once, unless the open-file limit asks for fewer.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 128;
/// The default cap never goes below this, however low the open-file limit.
const MIN_DEFAULT_CONNECTIONS: usize = 8;

pub use crate::config::mcp_settings::McpHttpSettings;

/// The limits in force for a new connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HttpLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
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
    fn the_default_cap_leaves_room_under_the_open_file_limit() {
        assert_eq!(default_max_connections(None), DEFAULT_MAX_CONNECTIONS);
        assert_eq!(default_max_connections(Some(1_048_576)), 128);
        assert_eq!(default_max_connections(Some(256)), 64);
        assert_eq!(default_max_connections(Some(16)), 8);
        let limits = HttpLimits::from_settings(&McpHttpSettings {
            max_connections: Some(5),
            header_timeout_ms: Some(250),
        });
        assert_eq!(limits.max_connections, 5);
        assert_eq!(limits.header_timeout, Duration::from_millis(250));
        assert_eq!(
            HttpLimits::from_settings(&McpHttpSettings::default()).header_timeout,
            DEFAULT_HEADER_TIMEOUT
        );
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
