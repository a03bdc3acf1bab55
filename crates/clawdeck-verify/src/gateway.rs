//! What a running gateway says a session really has: `tools.effective` for a session key,
//! asked through clawdeck's own gateway client (the device identity and token every gateway
//! command uses; no `openclaw` process).

use std::time::Duration;

use serde_json::{Value, json};

use super::observed::ObservedView;
use super::runner::VerifyError;
use crate::gateway_client::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient, GatewayEndpoint,
};

const METHOD: &str = "tools.effective";

/// The gateway to ask.
#[derive(Debug, Clone)]
pub struct GatewayTarget {
    /// `ws://host:port`, or the gateway's `http://` URL (turned into `ws://`).
    pub url: String,
    pub token: Option<String>,
}

fn gateway_error(message: String) -> VerifyError {
    VerifyError::Gateway {
        method: METHOD.to_string(),
        message,
    }
}

/// The endpoint for `target`. The URL goes through the gateway client's check (parsed host, no
/// user name or password before '@'), so the token is never handed over with a URL whose host
/// is not what it seems.
pub(crate) fn endpoint(target: &GatewayTarget) -> Result<GatewayEndpoint, VerifyError> {
    let url = crate::gateway_client::endpoint::websocket_url(&target.url)
        .map_err(|e| gateway_error(format!("--gateway: {e}")))?;
    Ok(GatewayEndpoint {
        name: "--gateway".to_string(),
        url,
        auth: target
            .token
            .clone()
            .map_or(GatewayAuth::None, GatewayAuth::Token),
        origin: "--gateway".to_string(),
    })
}

/// Reads a `tools.effective` answer into what the session has.
pub fn parse_answer(answer: &Value) -> Result<ObservedView, VerifyError> {
    ObservedView::from_tools_effective(answer)
        .ok_or_else(|| gateway_error("the answer has no groups[].tools[]".to_string()))
}

/// Asks the gateway which tools `session_key` has; `timeout` bounds the connect and the call.
pub async fn observe_gateway(
    target: &GatewayTarget,
    session_key: &str,
    identity: &DeviceIdentity,
    timeout: Duration,
) -> Result<ObservedView, VerifyError> {
    let endpoint = endpoint(target)?;
    let mut options = ConnectOptions::default();
    options.ready_wait = options.ready_wait.min(timeout);
    options.connect_timeout = options.connect_timeout.min(timeout);
    let connect = GatewayClient::connect(endpoint, identity.clone(), options, Backoff::default());
    let client = tokio::time::timeout(timeout, connect)
        .await
        .map_err(|_| gateway_error(format!("no connection within {} s", timeout.as_secs())))?
        .map_err(|e| gateway_error(e.to_string()))?;
    let answer = client
        .request_with_timeout(METHOD, json!({ "sessionKey": session_key }), timeout)
        .await;
    client.close();
    parse_answer(&answer.map_err(|e| gateway_error(e.to_string()))?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn the_url_is_checked_before_the_token_goes_anywhere() {
        let target = GatewayTarget {
            url: "http://127.0.0.1:18789".into(),
            token: Some("t".into()),
        };
        let asked = endpoint(&target).unwrap();
        assert_eq!(asked.url, "ws://127.0.0.1:18789");
        assert!(matches!(asked.auth, GatewayAuth::Token(ref t) if t == "t"));
        let sneaky = GatewayTarget {
            url: "ws://127.0.0.1:1@evil.example".into(),
            token: Some("t".into()),
        };
        let err = endpoint(&sneaky).unwrap_err();
        assert!(
            err.to_string().contains("--gateway: ")
                && err.to_string().contains("user name or password"),
            "{err}"
        );
    }

    #[test]
    fn answers_are_read() {
        let view = parse_answer(&json!(
            {"agentId":"main","groups":[{"id":"core","tools":[{"id":"read","source":"core"}]}]}
        ))
        .unwrap();
        assert_eq!(view.exposed_names(), ["read"]);
        assert!(parse_answer(&json!({"ok": true})).is_err());
    }
}
