//! What a gateway keeps for one session that changes how its exec calls are judged
//! (`sessions.describe {key}`, scope operator.read): the permission mode and the elevated level,
//! for `explain exec --remote-config --session-key` and an approval's verdict.

use serde_json::Value;

use crate::GatewayClient;

pub const METHOD: &str = "sessions.describe";

/// A session's exec-relevant settings (None: the session has none of its own).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionSettings {
    /// `read-only`, `guarded`, `workspace` or `full`.
    pub permission_mode: Option<String>,
    /// `off`, `on`, `ask` or `full`.
    pub elevated_level: Option<String>,
}

/// Asks `client`'s gateway about session `key`: None when the gateway has no such session.
pub async fn fetch(client: &GatewayClient, key: &str) -> Result<Option<SessionSettings>, String> {
    let url = client.endpoint().url.clone();
    let payload = client
        .request(METHOD, serde_json::json!({ "key": key }))
        .await
        .map_err(|err| format!("gateway {url}: {METHOD} {key}: {err}"))?;
    from_payload(&url, &payload)
}

/// Reads the answer: `{session: {permissionMode, elevatedLevel, ...}}` or `{session: null}`.
/// A value that is not a short word is an error naming the gateway and the field.
pub fn from_payload(url: &str, payload: &Value) -> Result<Option<SessionSettings>, String> {
    let session = match payload.get("session") {
        None | Some(Value::Null) => return Ok(None),
        Some(s) if s.is_object() => s,
        Some(_) => {
            return Err(format!(
                "gateway {url}: {METHOD}: `session` is not an object"
            ));
        }
    };
    let word = |field: &str| -> Result<Option<String>, String> {
        match session.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if crate::sessions::is_setting_word(s) => Ok(Some(s.clone())),
            Some(_) => Err(format!(
                "gateway {url}: {METHOD}: session.{field} is not a mode name"
            )),
        }
    };
    Ok(Some(SessionSettings {
        permission_mode: word("permissionMode")?,
        elevated_level: word("elevatedLevel")?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_read_as_real_2026_9_6_sends_it() {
        let patched = serde_json::json!({ "session": {
            "key": "agent:main:d1", "permissionMode": "guarded",
            "permissionModePending": false, "elevatedLevel": "full", "agentId": "main",
        } });
        assert_eq!(
            from_payload("ws://gw", &patched),
            Ok(Some(SessionSettings {
                permission_mode: Some("guarded".into()),
                elevated_level: Some("full".into()),
            }))
        );
        let plain = serde_json::json!({ "session": { "key": "agent:main:main" } });
        assert_eq!(
            from_payload("ws://gw", &plain),
            Ok(Some(SessionSettings::default()))
        );
        let missing = serde_json::json!({ "session": null });
        assert_eq!(from_payload("ws://gw", &missing), Ok(None));
        let hostile = serde_json::json!({ "session": { "permissionMode": "full\u{1b}[31m" } });
        let err = from_payload("ws://gw", &hostile).unwrap_err();
        assert!(
            err.contains("ws://gw") && err.contains("permissionMode"),
            "{err}"
        );
    }
}
