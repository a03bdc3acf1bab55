//! The wire frames of OpenClaw's gateway protocol v4, pinned in one place
//! (OpenClaw docs: gateway/protocol/handshake.md, transport.md; schema `frames.ts`).
//!
//! Every WebSocket text message is one JSON frame: a request (`req`), its response (`res`) or
//! a server event (`event`). Payloads stay `serde_json::Value`: the gateway adds fields
//! release by release and clawdeck reads only what it needs.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The scope that shows every operator's approvals and lets this one answer them and abort
/// any run (`isApprovalRecordVisibleToClient`, `canRequesterAbortChatRun` in 2026.9.6); asked
/// for only when the operator chose it (`approvals.allOperators`, `--all-operators`).
pub const ADMIN_SCOPE: &str = "operator.admin";

/// The protocol version clawdeck speaks (`minProtocol` = `maxProtocol` in `connect`).
pub const PROTOCOL_VERSION: u64 = 4;

/// The event the gateway sends before anything else; its nonce and `ts` are signed.
pub(crate) const CONNECT_CHALLENGE: &str = "connect.challenge";

/// One frame on the socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Frame {
    Req(RequestFrame),
    Res(ResponseFrame),
    Event(EventFrame),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestFrame {
    pub id: String,
    pub method: String,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseFrame {
    pub id: String,
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub payload: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorShape>,
}

/// A refused request: `code` (e.g. `INVALID_REQUEST`, `UNAVAILABLE`), a message, and
/// `details.code` for connect failures (`AUTH_TOKEN_MISMATCH`, `PAIRING_REQUIRED`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorShape {
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub details: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    #[serde(
        default,
        rename = "retryAfterMs",
        skip_serializing_if = "Option::is_none"
    )]
    pub retry_after_ms: Option<u64>,
}

impl ErrorShape {
    /// `details.code`, where connect failures say what went wrong.
    pub(crate) fn detail_code(&self) -> Option<&str> {
        self.details.get("code").and_then(Value::as_str)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventFrame {
    pub event: String,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub payload: Value,
    /// Per-connection sequence number of broadcast events (absent on targeted ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
}

/// `connect.challenge` payload: the nonce to sign and the gateway's clock (`signedAt`).
#[derive(Debug, Clone, PartialEq)]
pub struct Challenge {
    pub nonce: String,
    pub ts: u64,
}

impl Challenge {
    /// Reads the challenge; the protocol requires a non-empty nonce and a non-negative integer
    /// `ts`, and a challenge without them is invalid.
    pub fn from_payload(payload: &Value) -> Result<Challenge, String> {
        let nonce = payload
            .get("nonce")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .ok_or("connect.challenge has no nonce")?;
        let ts = payload
            .get("ts")
            .and_then(Value::as_u64)
            .ok_or("connect.challenge has no integer ts")?;
        Ok(Challenge {
            nonce: nonce.to_string(),
            ts,
        })
    }
}

/// What clawdeck keeps from `hello-ok`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hello {
    pub protocol: u64,
    pub server_version: String,
    pub conn_id: String,
    pub methods: Vec<String>,
    pub events: Vec<String>,
    pub role: String,
    pub scopes: Vec<String>,
    pub tick_interval_ms: Option<u64>,
    /// How long the gateway process had run when it answered (`snapshot.uptimeMs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uptime_ms: Option<u64>,
    /// Issued after pairing; reusable instead of the shared secret.
    #[serde(skip)]
    pub device_token: Option<String>,
}

impl Hello {
    /// Whether the gateway granted `operator.admin`: every operator's approvals are visible
    /// to this connection.
    pub fn sees_all_operators(&self) -> bool {
        self.scopes.iter().any(|s| s == ADMIN_SCOPE)
    }

    pub fn from_payload(payload: &Value) -> Result<Hello, String> {
        if payload.get("type").and_then(Value::as_str) != Some("hello-ok") {
            return Err(format!(
                "expected a hello-ok payload, got type {}",
                payload.get("type").unwrap_or(&Value::Null)
            ));
        }
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
        Ok(Hello {
            protocol: payload
                .get("protocol")
                .and_then(Value::as_u64)
                .ok_or("hello-ok has no protocol")?,
            server_version: text(payload.pointer("/server/version")),
            conn_id: text(payload.pointer("/server/connId")),
            methods: strings(payload.pointer("/features/methods")),
            events: strings(payload.pointer("/features/events")),
            role: text(payload.pointer("/auth/role")),
            scopes: strings(payload.pointer("/auth/scopes")),
            tick_interval_ms: payload
                .pointer("/policy/tickIntervalMs")
                .and_then(Value::as_u64),
            uptime_ms: payload
                .pointer("/snapshot/uptimeMs")
                .and_then(Value::as_u64),
            device_token: payload
                .pointer("/auth/deviceToken")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
    }
}

/// Every field any frame has, read in one pass (serde's internally tagged enums buffer the
/// whole frame first, which costs a second parse of every payload).
#[derive(Deserialize)]
struct FlatFrame {
    #[serde(rename = "type")]
    kind: String,
    id: Option<String>,
    method: Option<String>,
    #[serde(default)]
    params: Value,
    ok: Option<bool>,
    #[serde(default)]
    payload: Value,
    error: Option<ErrorShape>,
    event: Option<String>,
    seq: Option<u64>,
}

/// Parses one text message; the error names what was wrong.
pub fn parse_frame(text: &str) -> Result<Frame, String> {
    let flat: FlatFrame =
        serde_json::from_str(text).map_err(|err| format!("unreadable gateway frame: {err}"))?;
    let missing = |field: &str| {
        format!(
            "unreadable gateway frame: {} frame without `{field}`",
            flat.kind
        )
    };
    Ok(match flat.kind.as_str() {
        "event" => Frame::Event(EventFrame {
            event: flat.event.clone().ok_or_else(|| missing("event"))?,
            payload: flat.payload,
            seq: flat.seq,
        }),
        "res" => Frame::Res(ResponseFrame {
            id: flat.id.clone().ok_or_else(|| missing("id"))?,
            ok: flat.ok.ok_or_else(|| missing("ok"))?,
            payload: flat.payload,
            error: flat.error,
        }),
        "req" => Frame::Req(RequestFrame {
            id: flat.id.clone().ok_or_else(|| missing("id"))?,
            method: flat.method.clone().ok_or_else(|| missing("method"))?,
            params: flat.params,
        }),
        other => return Err(format!("unreadable gateway frame: unknown type {other:?}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn request_frames_serialize_with_their_type_tag() {
        let frame = Frame::Req(RequestFrame {
            id: "1".into(),
            method: "sessions.list".into(),
            params: json!({"limit": 5}),
        });
        let text = serde_json::to_string(&frame).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"type":"req","id":"1","method":"sessions.list","params":{"limit":5}}"#
        );
    }

    #[test]
    fn challenge_without_integer_ts_is_invalid() {
        assert!(Challenge::from_payload(&json!({"nonce": "n", "ts": "soon"})).is_err());
        assert!(Challenge::from_payload(&json!({"nonce": "", "ts": 1})).is_err());
        assert_eq!(
            Challenge::from_payload(&json!({"nonce": "n", "ts": 7})),
            Ok(Challenge {
                nonce: "n".into(),
                ts: 7
            })
        );
    }

    #[test]
    fn unknown_frame_types_are_errors() {
        assert!(parse_frame(r#"{"type":"ping"}"#).is_err());
        assert!(parse_frame(r#"{"type":"event","payload":{}}"#).is_err());
        assert!(matches!(
            parse_frame(r#"{"type":"res","id":"1","ok":false,"error":{"code":"X","message":"m"}}"#),
            Ok(Frame::Res(ResponseFrame {
                ok: false,
                error: Some(_),
                ..
            }))
        ));
        assert!(parse_frame("not json").is_err());
    }
}
