//! Which gateways to attach to, and with which secret: clawdeck.json5 `gateways`, the
//! `--gateway URL` flag, and `OPENCLAW_GATEWAY_URL` / `OPENCLAW_GATEWAY_TOKEN` (the variables the
//! router's HTTP transport reads; an `http(s)://` URL means the same gateway's `ws(s)://`).

pub use crate::config::gateway_entries::{
    GatewayEntry, GatewaySecret, host_of, is_loopback, is_loopback_host, websocket_url,
};

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

/// Most a token file may hold.
const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

/// A `tokenFile`, read as the device key is: a regular file of this user's that nobody else
/// can read (a FIFO would hang every gateway command; a readable token is a leaked one).
fn read_token_file(path: &std::path::Path) -> Result<String, String> {
    use crate::regular_file::SecretFileError as E;
    let shown = path.display();
    // The operator names it: a link (a dotfile manager's) is followed.
    crate::regular_file::read_secret(
        path,
        crate::regular_file::Links::Follow,
        MAX_TOKEN_FILE_BYTES,
    )
    .map_err(|err| match err {
        E::Missing => format!("tokenFile {shown}: no such file"),
        E::NotRegular(err) => {
            format!("tokenFile {shown}: {err}; a token file must be a plain file")
        }
        E::OtherOwner(uid) => format!(
            "tokenFile {shown} belongs to another user (uid {uid}): it cannot be trusted as this \
             user's token"
        ),
        E::OthersWrite(mode) | E::OthersRead(mode) => format!(
            "tokenFile {shown}: group or others can read or write it (mode {mode:04o}); run \
             `chmod 600 {shown}` (and rotate the token if others may have read it)"
        ),
        E::TooLarge(max) => format!("tokenFile {shown} is larger than {max} bytes: not a token"),
        E::NotUtf8 => format!("tokenFile {shown} is not UTF-8 text"),
        E::Io(err) => format!("tokenFile {shown}: {err}"),
    })
}

fn secret_to_auth(secret: &GatewaySecret) -> Result<GatewayAuth, String> {
    Ok(match secret {
        GatewaySecret::None => GatewayAuth::None,
        GatewaySecret::Token(t) => GatewayAuth::Token(t.clone()),
        GatewaySecret::Password(p) => GatewayAuth::Password(p.clone()),
        GatewaySecret::TokenFile(path) => {
            let text = read_token_file(path)?;
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
        let mut raw = serde_json::json!({ "name": "a", "url": url });
        if let Some(token) = token {
            raw["token"] = token.into();
        }
        serde_json::from_value(raw).unwrap_or_else(|e| panic!("{e}"))
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
    fn two_gateways_of_one_name_are_an_error_naming_both() {
        let text = "{\n  gateways: [\n    { name: \"local\", url: \"ws://127.0.0.1:1\" },\n    { url: \"ws://10.0.0.2:1\" },\n    { name: \"local\", url: \"ws://127.0.0.1:2\" },\n  ],\n}\n";
        let err = crate::config::parse_settings(text, "clawdeck.json5")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("gateways[0] and gateways[2] are both named \"local\""),
            "{err}"
        );
        assert!(err.contains("clawdeck.json5:5:"), "{err}");
        // Left out, the name is the host: one host twice needs names.
        let text = "{ gateways: [{ url: \"ws://h:1/a\" }, { url: \"ws://h:1/b\" }] }";
        let err = crate::config::parse_settings(text, "c.json5")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("both named \"h:1\""), "{err}");
        let text = "{ gateways: [{ url: \"ws://h:1/a\" }, { name: \"b\", url: \"ws://h:1/b\" }] }";
        assert!(crate::config::parse_settings(text, "c.json5").is_ok());
    }

    #[test]
    fn two_secrets_are_refused() {
        let raw = serde_json::json!({ "url": "ws://h", "token": "t", "password": "p" });
        assert!(serde_json::from_value::<GatewayEntry>(raw).is_err());
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
