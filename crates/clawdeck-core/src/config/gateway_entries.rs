//! clawdeck.json5 `gateways`: each entry checked as it is read, and the URL rules every gateway
//! address follows (an `http(s)://` URL means the same gateway's `ws(s)://`; no userinfo).

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

/// `~/...` as the home directory (as every other path clawdeck.json5 names).
fn expand_home(path: PathBuf) -> PathBuf {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
    match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path,
    }
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
            (None, None, Some(f)) => GatewaySecret::TokenFile(expand_home(f)),
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
