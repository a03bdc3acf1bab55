//! Which gateways to attach to, and with which secret: clawdeck.json5 `gateways`, the
//! `--gateway URL` flag, and `OPENCLAW_GATEWAY_URL` / `OPENCLAW_GATEWAY_TOKEN` (the variables the
//! router's HTTP transport reads; an `http(s)://` URL means the same gateway's `ws(s)://`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One entry of clawdeck.json5 `gateways`. Checked as it is read, so a bad value is an error
/// that names its place in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawGatewayEntry", into = "RawGatewayEntry")]
pub struct GatewayEntry {
    pub name: String,
    /// Always `ws://` or `wss://` once read.
    pub url: String,
    pub secret: GatewaySecret,
}

/// How the gateway is authenticated: at most one of token, password or a file holding a token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum GatewaySecret {
    None,
    Token(String),
    Password(String),
    TokenFile(PathBuf),
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct RawGatewayEntry {
    name: Option<String>,
    url: Option<String>,
    token: Option<String>,
    password: Option<String>,
    token_file: Option<PathBuf>,
}

impl TryFrom<RawGatewayEntry> for GatewayEntry {
    type Error = String;

    fn try_from(raw: RawGatewayEntry) -> Result<Self, String> {
        let url = raw
            .url
            .ok_or("a gateway needs `url` (ws://, wss://, http:// or https://)")?;
        let url = websocket_url(&url)?;
        let secret = match (raw.token, raw.password, raw.token_file) {
            (None, None, None) => GatewaySecret::None,
            (Some(t), None, None) => GatewaySecret::Token(t),
            (None, Some(p), None) => GatewaySecret::Password(p),
            (None, None, Some(f)) => GatewaySecret::TokenFile(f),
            _ => return Err("give only one of `token`, `password` or `tokenFile`".to_string()),
        };
        let name = raw.name.unwrap_or_else(|| host_of(&url));
        if name.trim().is_empty() {
            return Err("`name` must not be empty".to_string());
        }
        Ok(GatewayEntry { name, url, secret })
    }
}

impl From<GatewayEntry> for RawGatewayEntry {
    fn from(entry: GatewayEntry) -> Self {
        let mut raw = RawGatewayEntry {
            name: Some(entry.name),
            url: Some(entry.url),
            ..RawGatewayEntry::default()
        };
        match entry.secret {
            GatewaySecret::None => {}
            GatewaySecret::Token(t) => raw.token = Some(t),
            GatewaySecret::Password(p) => raw.password = Some(p),
            GatewaySecret::TokenFile(f) => raw.token_file = Some(f),
        }
        raw
    }
}

/// The WebSocket URL for a gateway address: `ws(s)://` as given, `http(s)://` mapped to the
/// same host's `ws(s)://`, as the parsed URL says (scheme and host lowercased, the text a
/// connection will use). Anything else is refused, and so is a user name or password: in
/// `ws://127.0.0.1:1@HOST` the host is HOST, so the secret would go there.
pub fn websocket_url(url: &str) -> Result<String, String> {
    let text = url.trim();
    let mut parsed = url::Url::parse(text).map_err(|err| match scheme_of(text) {
        Some("ws" | "wss" | "http" | "https") => {
            format!("gateway url {:?} is not a valid URL: {err}", shown(text))
        }
        _ => format!(
            "gateway url {:?} must start with ws://, wss://, http:// or https://",
            shown(text)
        ),
    })?;
    let websocket = match parsed.scheme() {
        "ws" | "http" => "ws",
        "wss" | "https" => "wss",
        _ => {
            return Err(format!(
                "gateway url {:?} must start with ws://, wss://, http:// or https://",
                shown(text)
            ));
        }
    };
    if parsed.set_scheme(websocket).is_err() {
        return Err(format!(
            "gateway url {:?} cannot be used as {websocket}://",
            shown(text)
        ));
    }
    if has_userinfo(&parsed) {
        return Err(format!(
            "gateway url {:?} has a user name or password before '@', which is refused: its host is {:?}, not what precedes the '@'. Give the gateway's secret as token, password or tokenFile (or OPENCLAW_GATEWAY_TOKEN)",
            shown(text),
            parsed.host_str().unwrap_or_default()
        ));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(format!("gateway url {:?} has no host", shown(text)));
    }
    let mut out = parsed.to_string();
    // `Url` writes an empty path as "/"; keep the address as the operator wrote it.
    if parsed.path() == "/"
        && parsed.query().is_none()
        && parsed.fragment().is_none()
        && !text.ends_with('/')
    {
        out.pop();
    }
    Ok(out)
}

/// The scheme of a URL's text, lowercased, for messages about a URL that does not parse.
fn scheme_of(text: &str) -> Option<&'static str> {
    let (scheme, _) = text.split_once("://")?;
    ["ws", "wss", "http", "https"]
        .into_iter()
        .find(|known| scheme.eq_ignore_ascii_case(known))
}

fn has_userinfo(url: &url::Url) -> bool {
    !url.username().is_empty() || url.password().is_some()
}

/// A URL's text for a message, with whatever precedes an '@' in its authority masked: it may
/// be a password.
fn shown(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => text.to_string(),
    }
}

/// `host[:port]` of a URL, as the parsed URL says (`[::1]:18789`); empty when it does not parse.
pub fn host_of(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url.trim()) else {
        return String::new();
    };
    match (parsed.host_str(), parsed.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => String::new(),
    }
}

/// Whether the URL points at this machine (plain `ws://` is accepted only there), judged on
/// the parsed host: `localhost`, 127.0.0.0/8, `::1` (or `::ffff:127.x.y.z`).
pub fn is_loopback(url: &str) -> bool {
    url::Url::parse(url.trim())
        .ok()
        .and_then(|parsed| parsed.host().map(|host| is_loopback_host(&host)))
        .unwrap_or(false)
}

/// Whether a parsed host is this machine. Only the name `localhost` itself counts among names
/// (`localhost.evil.example` is someone else's).
pub fn is_loopback_host(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// A gateway ready to connect to: resolved URL and secret.
#[derive(Debug, Clone, PartialEq)]
pub struct GatewayEndpoint {
    pub name: String,
    pub url: String,
    pub auth: GatewayAuth,
    /// Where this endpoint came from (`clawdeck.json5 gateways[0]`, `--gateway`, environment).
    pub origin: String,
}

/// The secret sent in `connect.params.auth`.
#[derive(Clone, PartialEq)]
pub enum GatewayAuth {
    None,
    Token(String),
    Password(String),
}

impl std::fmt::Debug for GatewayAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GatewayAuth::None => "None",
            GatewayAuth::Token(_) => "Token(***)",
            GatewayAuth::Password(_) => "Password(***)",
        })
    }
}

/// The environment as a lookup, so resolution is testable.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Every gateway to attach to. `--gateway` URLs (with `OPENCLAW_GATEWAY_TOKEN`, or the secret
/// of a configured gateway with the same URL) replace the rest; otherwise the configured
/// gateways, plus `OPENCLAW_GATEWAY_URL` when it names another one.
pub fn resolve_endpoints(
    configured: &[GatewayEntry],
    flags: &[String],
    env: EnvLookup<'_>,
) -> Result<Vec<GatewayEndpoint>, String> {
    let env_token = env("OPENCLAW_GATEWAY_TOKEN").filter(|t| !t.is_empty());
    let mut out: Vec<GatewayEndpoint> = Vec::new();
    let configured_auth = |url: &str| -> Result<Option<(String, GatewayAuth)>, String> {
        match configured.iter().find(|g| g.url == url) {
            Some(g) => Ok(Some((g.name.clone(), secret_to_auth(&g.secret)?))),
            None => Ok(None),
        }
    };
    let fallback_auth = || {
        env_token
            .clone()
            .map_or(GatewayAuth::None, GatewayAuth::Token)
    };
    if !flags.is_empty() {
        for flag in flags {
            let url = websocket_url(flag).map_err(|e| format!("--gateway: {e}"))?;
            let (name, auth) = match configured_auth(&url)? {
                Some((name, auth)) if auth != GatewayAuth::None => (name, auth),
                _ => (host_of(&url), fallback_auth()),
            };
            out.push(GatewayEndpoint {
                name,
                url,
                auth,
                origin: "--gateway".to_string(),
            });
        }
        return Ok(out);
    }
    for (i, entry) in configured.iter().enumerate() {
        let auth = secret_to_auth(&entry.secret).map_err(|e| format!("gateways[{i}]: {e}"))?;
        out.push(GatewayEndpoint {
            name: entry.name.clone(),
            url: entry.url.clone(),
            auth,
            origin: format!("clawdeck.json5 gateways[{i}]"),
        });
    }
    if let Some(raw) = env("OPENCLAW_GATEWAY_URL").filter(|u| !u.is_empty()) {
        let url = websocket_url(&raw).map_err(|e| format!("OPENCLAW_GATEWAY_URL: {e}"))?;
        match out.iter_mut().find(|e| e.url == url) {
            // The same gateway: the environment's token fills a missing secret.
            Some(existing) if existing.auth == GatewayAuth::None => {
                existing.auth = fallback_auth();
            }
            Some(_) => {}
            None => out.push(GatewayEndpoint {
                name: host_of(&url),
                url,
                auth: fallback_auth(),
                origin: "OPENCLAW_GATEWAY_URL".to_string(),
            }),
        }
    }
    if out.is_empty() {
        return Err("no gateway configured: add `gateways: [{name, url, token}]` to clawdeck.json5, pass --gateway URL, or set OPENCLAW_GATEWAY_URL (and OPENCLAW_GATEWAY_TOKEN)".to_string());
    }
    Ok(out)
}

fn secret_to_auth(secret: &GatewaySecret) -> Result<GatewayAuth, String> {
    Ok(match secret {
        GatewaySecret::None => GatewayAuth::None,
        GatewaySecret::Token(t) => GatewayAuth::Token(t.clone()),
        GatewaySecret::Password(p) => GatewayAuth::Password(p.clone()),
        GatewaySecret::TokenFile(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|err| format!("tokenFile {}: {err}", path.display()))?;
            let token = text.trim();
            if token.is_empty() {
                return Err(format!("tokenFile {} is empty", path.display()));
            }
            GatewayAuth::Token(token.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(url: &str, token: Option<&str>) -> GatewayEntry {
        GatewayEntry::try_from(RawGatewayEntry {
            name: Some("a".into()),
            url: Some(url.into()),
            token: token.map(str::to_string),
            ..RawGatewayEntry::default()
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn http_urls_mean_the_same_gateways_websocket() {
        assert_eq!(
            websocket_url("http://127.0.0.1:18789").as_deref(),
            Ok("ws://127.0.0.1:18789")
        );
        assert_eq!(
            websocket_url("https://gw.example/x").as_deref(),
            Ok("wss://gw.example/x")
        );
        assert!(websocket_url("ftp://x").is_err());
        assert!(websocket_url("ws://").is_err());
    }

    #[test]
    fn loopback_is_recognised() {
        assert!(is_loopback("ws://127.0.0.1:18789"));
        assert!(is_loopback("ws://localhost:1"));
        assert!(is_loopback("ws://[::1]:1/x"));
        assert!(!is_loopback("ws://10.0.0.1:1"));
        assert!(!is_loopback("ws://example.com"));
    }

    /// The host is the parsed URL's, never the text before a ':' or after a '@'.
    #[test]
    fn loopback_is_judged_on_the_parsed_host() {
        for url in [
            "ws://127.0.0.1:1@evil.example",
            "ws://127.0.0.1:1@evil.example:80/x",
            "ws://localhost@evil.example",
            "ws://localhost:1@evil.example",
            "ws://[::1]:1@evil.example",
            "ws://user:pw@127.0.0.1.evil.example",
            "ws://127.0.0.1.evil.example",
            "ws://localhost.evil.example:1",
            "ws://evil.example/127.0.0.1:1",
            "ws://evil.example?h=localhost:1",
            "ws://evil.example#[::1]",
            "ws://[::ffff:10.0.0.1]:1",
            "not a url",
        ] {
            assert!(!is_loopback(url), "{url} is not loopback");
        }
        for url in [
            "ws://LOCALHOST:18789",
            "WS://127.0.0.1:1",
            "ws://127.0.0.2:1",
            "ws://[::1]:18789/",
            "ws://[0:0:0:0:0:0:0:1]:1",
            "ws://[::ffff:127.0.0.1]:1",
        ] {
            assert!(is_loopback(url), "{url} is loopback");
        }
    }

    #[test]
    fn userinfo_in_a_gateway_url_is_refused_and_not_echoed() {
        for url in [
            "ws://127.0.0.1:1@evil.example",
            "http://localhost@evil.example",
            "ws://[::1]:1@evil.example",
            "wss://user:secret-pw@gw.example",
        ] {
            let err = websocket_url(url).unwrap_err();
            assert!(err.contains("user name or password"), "{url}: {err}");
            assert!(!err.contains("secret-pw"), "{url}: {err}");
        }
        let none = |_: &str| None;
        let err = resolve_endpoints(&[], &["ws://127.0.0.1:1@evil.example".to_string()], &none)
            .unwrap_err();
        assert!(err.starts_with("--gateway:"), "{err}");
        let env = |k: &str| (k == "OPENCLAW_GATEWAY_URL").then(|| "ws://localhost@evil".into());
        let err = resolve_endpoints(&[], &[], &env).unwrap_err();
        assert!(err.starts_with("OPENCLAW_GATEWAY_URL:"), "{err}");
        let text = "{\n  gateways: [\n    { url: \"ws://127.0.0.1:1@evil.example\" },\n  ],\n}\n";
        let err = crate::config::parse_settings(text, "clawdeck.json5")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("gateways[0]") && err.contains("user name or password"),
            "{err}"
        );
    }

    #[test]
    fn gateway_urls_are_kept_as_the_parsed_url_says() {
        assert_eq!(
            websocket_url("WS://LOCALHOST:18789").as_deref(),
            Ok("ws://localhost:18789")
        );
        assert_eq!(
            websocket_url("HTTPS://GW.example/x").as_deref(),
            Ok("wss://gw.example/x")
        );
        assert_eq!(
            websocket_url("ws://[::1]:1/").as_deref(),
            Ok("ws://[::1]:1/")
        );
        // The text a connection uses is the one judged: a backslash ends the host.
        assert_eq!(
            websocket_url("ws://127.0.0.1\\@evil.example").as_deref(),
            Ok("ws://127.0.0.1/@evil.example")
        );
        assert!(websocket_url("ws://:1").is_err());
        assert_eq!(host_of("ws://[::1]:1/x"), "[::1]:1");
        assert_eq!(host_of("wss://gw.example/x"), "gw.example");
    }

    #[test]
    fn bad_gateway_in_clawdeck_json5_is_an_error_naming_its_place() {
        let text = "{\n  gateways: [\n    { name: \"a\", url: \"ws://127.0.0.1:1\" },\n    { name: \"b\", url: \"ftp://x\" },\n  ],\n}\n";
        let err = crate::config::parse_settings(text, "clawdeck.json5")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("clawdeck.json5"), "{err}");
        assert!(err.contains("gateways"), "{err}");
        assert!(err.contains("must start with ws://"), "{err}");
        assert!(
            err.contains("clawdeck.json5:2:") && err.contains("gateways[1]"),
            "{err}"
        );
        let ok = crate::config::parse_settings(
            "{ gateways: [{ url: \"http://127.0.0.1:18789\", tokenFile: \"/t\" }] }",
            "clawdeck.json5",
        )
        .map(|s| s.gateways)
        .unwrap_or_default();
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].url, "ws://127.0.0.1:18789");
        assert_eq!(ok[0].name, "127.0.0.1:18789");
        assert_eq!(ok[0].secret, GatewaySecret::TokenFile("/t".into()));
    }

    #[test]
    fn two_secrets_are_refused() {
        let raw = RawGatewayEntry {
            url: Some("ws://h".into()),
            token: Some("t".into()),
            password: Some("p".into()),
            ..RawGatewayEntry::default()
        };
        assert!(GatewayEntry::try_from(raw).is_err());
    }

    #[test]
    fn environment_adds_a_gateway_or_fills_a_missing_token() {
        let env = |k: &str| match k {
            "OPENCLAW_GATEWAY_URL" => Some("http://127.0.0.1:18789".to_string()),
            "OPENCLAW_GATEWAY_TOKEN" => Some("envtok".to_string()),
            _ => None,
        };
        let got =
            resolve_endpoints(&[entry("ws://other:1", Some("t"))], &[], &env).unwrap_or_default();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].auth, GatewayAuth::Token("envtok".into()));
        let got = resolve_endpoints(&[entry("ws://127.0.0.1:18789", None)], &[], &env)
            .unwrap_or_default();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].auth, GatewayAuth::Token("envtok".into()));
    }

    #[test]
    fn flag_replaces_configured_gateways_and_keeps_their_secret() {
        let none = |_: &str| None;
        let got = resolve_endpoints(
            &[
                entry("ws://127.0.0.1:1", Some("cfg")),
                entry("ws://b:2", None),
            ],
            &["http://127.0.0.1:1".to_string()],
            &none,
        )
        .unwrap_or_default();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].auth, GatewayAuth::Token("cfg".into()));
        assert!(resolve_endpoints(&[], &[], &none).is_err());
    }
}
