//! A gateway host's exec approvals document (`exec.approvals.get`, scope `operator.admin`):
//! the document OpenClaw stored on that host (socket token redacted by the gateway), for
//! `explain exec --command --remote-config`.

use serde_json::Value;

use crate::GatewayClient;

/// The method, and the scope OpenClaw's method table gives it.
pub const METHOD: &str = "exec.approvals.get";
pub const SCOPE: &str = "operator.admin";

/// The document a gateway answered with: where it keeps it, and the document (None: nothing
/// stored there).
#[derive(Debug, Clone, PartialEq)]
pub struct HostApprovals {
    pub path: String,
    pub file: Option<Value>,
}

/// Asks `client`'s gateway for its approvals document; errors name the gateway, the method and
/// the scope it needs.
pub async fn fetch(client: &GatewayClient) -> Result<HostApprovals, String> {
    let url = client.endpoint().url.clone();
    let payload = client
        .request(METHOD, serde_json::json!({}))
        .await
        .map_err(|err| format!("gateway {url}: {METHOD} (needs {SCOPE}): {err}"))?;
    from_payload(&url, &payload)
}

/// Reads the answer: `{path, exists, file}`; a `file` that is not an object is an error
/// naming the gateway.
pub fn from_payload(url: &str, payload: &Value) -> Result<HostApprovals, String> {
    let path = payload
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("(not said)")
        .to_string();
    if payload.get("exists").and_then(Value::as_bool) == Some(false) {
        return Ok(HostApprovals { path, file: None });
    }
    match payload.get("file") {
        Some(file) if file.is_object() => Ok(HostApprovals {
            path,
            file: Some(file.clone()),
        }),
        None | Some(Value::Null) => Ok(HostApprovals { path, file: None }),
        Some(_) => Err(format!(
            "gateway {url}: {METHOD}: `file` is not a JSON object"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_read_as_real_2026_9_6_sends_it() {
        let stored = serde_json::json!({
            "path": "~/.openclaw/state/openclaw.sqlite#exec_approvals_config",
            "exists": true,
            "file": { "version": 1, "agents": { "*": { "allowlist": [{ "pattern": "/usr/bin/uname" }] } } },
        });
        let got = from_payload("ws://gw", &stored).unwrap_or_else(|e| panic!("{e}"));
        assert!(got.path.ends_with("#exec_approvals_config"));
        assert!(got.file.is_some());
        let none = serde_json::json!({ "path": "p", "exists": false, "file": {} });
        assert_eq!(from_payload("ws://gw", &none).map(|h| h.file), Ok(None));
        let bad = serde_json::json!({ "path": "p", "exists": true, "file": [1] });
        assert!(
            from_payload("ws://gw", &bad)
                .unwrap_err()
                .contains("ws://gw")
        );
    }
}
