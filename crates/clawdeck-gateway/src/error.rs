//! What can go wrong talking to a gateway, each said so an operator knows what to do.

use serde_json::Value;

use super::frames::ErrorShape;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GatewayError {
    #[error("gateway {url} is unreachable: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("plain ws:// is accepted only on loopback; use wss:// for {url}")]
    InsecureUrl { url: String },
    /// `ws://127.0.0.1:1@HOST` names HOST; the URL is not shown (the part before '@' may be a
    /// password).
    #[error(
        "a gateway URL with a user name or password before '@' is refused (its host is {host:?}); give the secret as token, password or tokenFile"
    )]
    UserInfoInUrl { host: String },
    #[error(
        "gateway {url} refused the credentials ({code}): {message}. Check the gateway's token or password (clawdeck.json5 gateways[].token / password / tokenFile, or OPENCLAW_GATEWAY_TOKEN)"
    )]
    AuthRefused {
        url: String,
        code: String,
        message: String,
    },
    #[error(
        "gateway {url} requires pairing this device ({device_id}): {message}. Approve it on the gateway host with: {approve_command}"
    )]
    PairingRequired {
        url: String,
        device_id: String,
        message: String,
        approve_command: String,
    },
    #[error("gateway {url} speaks another protocol version (clawdeck speaks v{ours}): {message}")]
    ProtocolMismatch {
        url: String,
        ours: u64,
        message: String,
    },
    /// The gateway is up but not ready yet (`UNAVAILABLE`, retryable, while it boots): the
    /// client waits it out within the caller's deadline.
    #[error("gateway {url} is still starting: {message} ({code})")]
    Starting {
        url: String,
        code: String,
        message: String,
        /// The pause the gateway asked for (`retryAfterMs`).
        retry_after_ms: Option<u64>,
    },
    #[error("gateway {url} broke the handshake: {message}")]
    Handshake { url: String, message: String },
    #[error("{method}: no answer within {ms} ms")]
    Timeout { method: String, ms: u64 },
    #[error("{method} refused by the gateway ({code}): {message}")]
    Refused {
        method: String,
        code: String,
        message: String,
        details: Value,
    },
    #[error("not connected to the gateway: {reason}")]
    Disconnected { reason: String },
    /// The gateway's hello does not list the method (another release, or a feature it lacks).
    #[error("the gateway does not offer {method}")]
    NotOffered { method: String },
}

impl GatewayError {
    /// Whether reconnecting can help (a refused secret, a pending pairing or another protocol
    /// version stay so until the operator acts).
    pub(crate) fn is_retryable(&self) -> bool {
        matches!(
            self,
            GatewayError::Unreachable { .. }
                | GatewayError::Disconnected { .. }
                | GatewayError::Timeout { .. }
                | GatewayError::Handshake { .. }
                | GatewayError::Starting { .. }
        )
    }

    /// The pause before trying again a gateway that said it is still starting (what it asked
    /// for, clamped to 100 ms ..= 2 s as OpenClaw's own client does); None for other errors.
    pub fn starting_retry_after(&self) -> Option<std::time::Duration> {
        match self {
            GatewayError::Starting { retry_after_ms, .. } => Some(
                std::time::Duration::from_millis(retry_after_ms.unwrap_or(500).clamp(100, 2_000)),
            ),
            _ => None,
        }
    }

    /// Classifies a refused `connect`.
    pub(crate) fn from_connect_error(
        url: &str,
        device_id: &str,
        error: &ErrorShape,
    ) -> GatewayError {
        let detail = error.detail_code().unwrap_or("");
        if detail == "PAIRING_REQUIRED" || error.message.contains("pairing required") {
            let request_id = error
                .details
                .get("requestId")
                .and_then(Value::as_str)
                .map(str::to_string);
            return GatewayError::PairingRequired {
                url: url.to_string(),
                device_id: device_id.to_string(),
                message: error.message.clone(),
                approve_command: approve_command(request_id.as_deref()),
            };
        }
        if detail == "PROTOCOL_MISMATCH" || error.message.contains("protocol mismatch") {
            return GatewayError::ProtocolMismatch {
                url: url.to_string(),
                ours: super::frames::PROTOCOL_VERSION,
                message: error.message.clone(),
            };
        }
        // A booting gateway refuses with UNAVAILABLE, retryable (`gateway starting; retry
        // shortly`, details.reason `startup-sidecars`).
        if error.code == "UNAVAILABLE" && error.retryable != Some(false) {
            return GatewayError::Starting {
                url: url.to_string(),
                code: error.code.clone(),
                message: error.message.clone(),
                retry_after_ms: error.retry_after_ms,
            };
        }
        if detail.starts_with("AUTH_") || detail.starts_with("DEVICE_") {
            return GatewayError::AuthRefused {
                url: url.to_string(),
                code: detail.to_string(),
                message: error.message.clone(),
            };
        }
        GatewayError::Handshake {
            url: url.to_string(),
            message: format!("{} ({})", error.message, error.code),
        }
    }

    /// Classifies a close frame received instead of `hello-ok` (the gateway closes with a
    /// reason such as `pairing required: ... (requestId: X)`).
    pub(crate) fn from_close_reason(
        url: &str,
        device_id: &str,
        code: u16,
        reason: &str,
    ) -> GatewayError {
        if reason.contains("pairing required") || reason.contains("pending approval") {
            let request_id = reason
                .split("requestId: ")
                .nth(1)
                .map(|rest| rest.trim_end_matches(')').trim().to_string());
            return GatewayError::PairingRequired {
                url: url.to_string(),
                device_id: device_id.to_string(),
                message: reason.to_string(),
                approve_command: approve_command(request_id.as_deref()),
            };
        }
        if reason.contains("protocol mismatch") {
            return GatewayError::ProtocolMismatch {
                url: url.to_string(),
                ours: super::frames::PROTOCOL_VERSION,
                message: reason.to_string(),
            };
        }
        // 1013 "try again later": the gateway closes a connect it refused while starting.
        if code == 1013 {
            return GatewayError::Starting {
                url: url.to_string(),
                code: format!("close {code}"),
                message: reason.to_string(),
                retry_after_ms: None,
            };
        }
        if code == 1008 && (reason.contains("auth") || reason.contains("unauthorized")) {
            return GatewayError::AuthRefused {
                url: url.to_string(),
                code: format!("close {code}"),
                message: reason.to_string(),
            };
        }
        GatewayError::Handshake {
            url: url.to_string(),
            message: format!("connection closed ({code}) {reason}"),
        }
    }
}

/// The command that approves a pending device on the gateway host.
fn approve_command(request_id: Option<&str>) -> String {
    match request_id {
        Some(id) => format!("openclaw devices approve {id}"),
        None => "openclaw devices approve --latest".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_starting_gateway_is_told_apart_and_retried_after_its_pause() {
        // The refusal OpenClaw 2026.9.6 sends while its sidecars start.
        let err = GatewayError::from_connect_error(
            "ws://h",
            "dev",
            &ErrorShape {
                code: "UNAVAILABLE".into(),
                message: "gateway starting; retry shortly".into(),
                details: json!({"reason": "startup-sidecars"}),
                retryable: Some(true),
                retry_after_ms: Some(500),
            },
        );
        assert!(
            matches!(err, GatewayError::Starting { .. }) && err.is_retryable(),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "gateway ws://h is still starting: gateway starting; retry shortly (UNAVAILABLE)"
        );
        assert_eq!(
            err.starting_retry_after(),
            Some(std::time::Duration::from_millis(500))
        );
        let closed = GatewayError::from_close_reason("ws://h", "dev", 1013, "gateway starting");
        assert!(closed.starting_retry_after().is_some(), "{closed:?}");
        let other = GatewayError::Unreachable {
            url: "ws://h".into(),
            reason: "refused".into(),
        };
        assert_eq!(other.starting_retry_after(), None);
    }

    #[test]
    fn pairing_required_names_the_approve_command() {
        let err = GatewayError::from_connect_error(
            "ws://h",
            "dev",
            &ErrorShape {
                code: "NOT_PAIRED".into(),
                message: "pairing required: device is not approved yet".into(),
                details: json!({"code": "PAIRING_REQUIRED", "requestId": "req-1"}),
                retryable: None,
                retry_after_ms: None,
            },
        );
        assert!(
            err.to_string().contains("openclaw devices approve req-1"),
            "{err}"
        );
        assert!(!err.is_retryable());
        let closed = GatewayError::from_close_reason(
            "ws://h",
            "dev",
            1008,
            "pairing required: device is not approved yet (requestId: r9)",
        );
        assert!(
            closed.to_string().contains("openclaw devices approve r9"),
            "{closed}"
        );
    }
}
