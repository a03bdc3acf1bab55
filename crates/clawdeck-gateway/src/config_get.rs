//! A gateway's own config (`config.get`, scope `operator.read`): the file's text as the gateway
//! read it (OpenClaw already redacts secrets in it; `clawdeck_core::config::load_remote`
//! redacts again), for `--remote-config`.

use serde_json::Value;

use crate::{GatewayClient, GatewayError};

/// The method, and the scope OpenClaw's method table gives it.
pub const METHOD: &str = "config.get";
pub const SCOPE: &str = "operator.read";

/// The config a gateway answered with.
#[derive(Debug, Clone, PartialEq)]
pub struct GatewayConfig {
    /// The file's path on the gateway's host.
    pub path: String,
    /// JSON5 text: the file as written (`raw`), or the parsed document when the gateway could
    /// not give the text (`raw` null) or the file `$include`s others (`resolved`).
    pub text: String,
    /// Its revision (`hash`), to say which version was answered.
    pub hash: Option<String>,
}

/// Asks `client`'s gateway for its config; errors name the gateway and the method (a missing
/// scope says which one to grant).
pub async fn fetch(client: &GatewayClient) -> Result<GatewayConfig, String> {
    let url = client.endpoint().url.clone();
    let payload = client
        .request(METHOD, serde_json::json!({}))
        .await
        .map_err(|err| describe_error(&url, &err))?;
    from_payload(&url, &payload)
}

/// The error for a failed `config.get`, naming the gateway; a refusal about scopes says which
/// scope the method needs.
pub fn describe_error(url: &str, err: &GatewayError) -> String {
    let hint = match err {
        GatewayError::Refused { code, message, .. }
            if message.to_lowercase().contains("scope")
                || code.to_lowercase().contains("scope")
                || code == "FORBIDDEN" =>
        {
            format!(" ({METHOD} needs the {SCOPE} scope: grant it to clawdeck's device or token)")
        }
        _ => String::new(),
    };
    format!("gateway {url}: {METHOD}: {err}{hint}")
}

/// Reads a `config.get` payload: `exists`, `valid`, `issues`, `path`, `raw`, `parsed`,
/// `resolved`, `includedPaths`, `hash`.
pub fn from_payload(url: &str, payload: &Value) -> Result<GatewayConfig, String> {
    let path = payload["path"].as_str().unwrap_or_default().to_string();
    if payload["exists"] == Value::Bool(false) {
        return Err(format!(
            "gateway {url}: {METHOD}: the gateway has no config file ({path} does not exist)"
        ));
    }
    if payload["valid"] == Value::Bool(false) {
        return Err(format!(
            "gateway {url}: {METHOD}: the gateway's config {path} is invalid: {}",
            issues(&payload["issues"])
        ));
    }
    let includes = payload["includedPaths"]
        .as_array()
        .is_some_and(|paths| !paths.is_empty());
    let text = match (&payload["raw"], includes) {
        (Value::String(raw), false) => raw.clone(),
        _ => {
            let document = if includes {
                &payload["resolved"]
            } else {
                &payload["parsed"]
            };
            if !document.is_object() {
                return Err(format!(
                    "gateway {url}: {METHOD}: the answer has no config text (neither raw nor parsed)"
                ));
            }
            serde_json::to_string_pretty(document).unwrap_or_default()
        }
    };
    Ok(GatewayConfig {
        path,
        text,
        hash: payload["hash"].as_str().map(str::to_string),
    })
}

/// `issues` as `path: message; …`.
fn issues(value: &Value) -> String {
    let list: Vec<String> = value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| {
                    format!(
                        "{}: {}",
                        i["path"].as_str().unwrap_or("<root>"),
                        i["message"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if list.is_empty() {
        "no issues given".to_string()
    } else {
        list.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_raw_text_is_answered_and_failures_name_the_gateway_and_method() {
        let ok = json!({"path": "/h/openclaw.json", "exists": true, "valid": true,
            "raw": "{ tools: { profile: \"coding\" } }", "parsed": {"tools": {"profile": "coding"}},
            "includedPaths": [], "hash": "h1"});
        let config = from_payload("ws://gw", &ok).unwrap();
        assert_eq!(config.text, "{ tools: { profile: \"coding\" } }");
        assert_eq!(config.path, "/h/openclaw.json");
        assert_eq!(config.hash.as_deref(), Some("h1"));

        let included = json!({"path": "/h/o.json", "exists": true, "valid": true,
            "raw": "{ $include: \"./a.json5\" }", "includedPaths": ["/h/a.json5"],
            "resolved": {"tools": {"deny": ["exec"]}}});
        let text = from_payload("ws://gw", &included).unwrap().text;
        assert!(
            text.contains("\"deny\"") && !text.contains("$include"),
            "{text}"
        );

        let invalid = json!({"path": "/h/o.json", "exists": true, "valid": false,
            "issues": [{"path": "tools.profile", "message": "bad"}]});
        let err = from_payload("ws://gw", &invalid).unwrap_err();
        assert_eq!(
            err,
            "gateway ws://gw: config.get: the gateway's config /h/o.json is invalid: tools.profile: bad"
        );

        let refused = GatewayError::Refused {
            method: METHOD.into(),
            code: "INVALID_REQUEST".into(),
            message: "missing scope: operator.read".into(),
            details: Value::Null,
        };
        assert!(describe_error("ws://gw", &refused).ends_with(
            "(config.get needs the operator.read scope: grant it to clawdeck's device or token)"
        ));
    }
}
