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
/// same host's `ws(s)://`. Anything else is refused.
pub fn websocket_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    let mapped = if let Some(rest) = url.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = url.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if url.starts_with("ws://") || url.starts_with("wss://") {
        url.to_string()
    } else {
        return Err(format!(
            "gateway url {url:?} must start with ws://, wss://, http:// or https://"
        ));
    };
    if host_of(&mapped).is_empty() {
        return Err(format!("gateway url {url:?} has no host"));
    }
    Ok(mapped)
}

/// `host[:port]` of a ws URL.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or("").to_string()
}

/// Whether the URL points at this machine (plain `ws://` is accepted only there).
pub fn is_loopback(url: &str) -> bool {
    let host = host_of(url);
    let host = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host.as_str(), |(h, _)| h)
    };
    host == "localhost"
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
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
