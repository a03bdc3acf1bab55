//! Exec approvals: what `exec.approval.requested` asks (command, cwd, agent, session, the
//! rule that asked) and the decisions `exec.approval.resolve` takes.

use serde_json::{Value, json};

/// The three answers an operator can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    AllowOnce,
    AllowAlways,
    Deny,
}

impl Decision {
    pub fn parse(text: &str) -> Result<Decision, String> {
        match text {
            "allow-once" => Ok(Decision::AllowOnce),
            "allow-always" => Ok(Decision::AllowAlways),
            "deny" => Ok(Decision::Deny),
            other => Err(format!(
                "unknown decision {other:?}: use allow-once, allow-always or deny"
            )),
        }
    }

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::AllowOnce => "allow-once",
            Decision::AllowAlways => "allow-always",
            Decision::Deny => "deny",
        }
    }
}

/// The params of `exec.approval.resolve`.
pub fn resolve_params(id: &str, decision: Decision) -> Value {
    json!({"id": id, "decision": decision.as_str()})
}

/// A pending approval as clawdeck shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    pub id: String,
    pub command: String,
    pub cwd: String,
    pub agent: String,
    pub session_key: String,
    /// Why it asks (`ask` mode, security, host), as far as the event says.
    pub reason: String,
    pub expires_at_ms: Option<u64>,
    pub raw: Value,
}

impl Approval {
    pub(crate) fn from_event(payload: &Value) -> Approval {
        let request = payload.get("request").unwrap_or(payload);
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let command = request
            .get("command")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                request
                    .pointer("/systemRunPlan/rawCommand")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let reason = ["ask", "security", "host"]
            .iter()
            .filter_map(|k| {
                request
                    .get(*k)
                    .and_then(Value::as_str)
                    .map(|v| format!("{k}={v}"))
            })
            .collect::<Vec<_>>()
            .join(" ");
        Approval {
            id: text(payload, "id"),
            command,
            cwd: text(request, "cwd"),
            agent: text(request, "agentId"),
            session_key: text(request, "sessionKey"),
            reason,
            expires_at_ms: payload.get("expiresAtMs").and_then(Value::as_u64),
            raw: payload.clone(),
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "command": self.command,
            "cwd": self.cwd,
            "agentId": self.agent,
            "sessionKey": self.session_key,
            "reason": self.reason,
            "expiresAtMs": self.expires_at_ms,
            "hiddenChars": self.has_hidden_chars(),
        })
    }

    /// The fields an operator reads before deciding (all from the gateway, all untrusted).
    fn read_fields(&self) -> [&str; 6] {
        [
            &self.id,
            &self.command,
            &self.cwd,
            &self.agent,
            &self.session_key,
            &self.reason,
        ]
    }

    /// Whether any field holds characters that hide or reorder what is shown.
    pub fn has_hidden_chars(&self) -> bool {
        self.read_fields()
            .iter()
            .any(|f| crate::sanitize::visible(f).hidden_chars)
    }

    /// One line, every field shown visibly (controls escaped, invisible characters marked,
    /// padding compressed), flagged when a field hides or reorders characters.
    pub fn describe(&self) -> String {
        let [id, command, cwd, agent, session, reason] =
            self.read_fields().map(|f| crate::sanitize::visible(f).text);
        let mut line = format!(
            "{id} requested: `{command}` in {cwd} (agent {agent}, session {session}; {reason})"
        );
        if self.has_hidden_chars() {
            line.push_str(&format!(" ⚠ {}", crate::sanitize::HIDDEN_CHARS_WARNING));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_round_trip_and_unknown_ones_are_refused() {
        for d in ["allow-once", "allow-always", "deny"] {
            assert_eq!(Decision::parse(d).map(Decision::as_str), Ok(d));
        }
        assert!(Decision::parse("allow").is_err());
        assert_eq!(
            resolve_params("a1", Decision::Deny),
            json!({"id": "a1", "decision": "deny"})
        );
    }

    #[test]
    fn requested_event_names_command_cwd_agent_session_and_rule() {
        let a = Approval::from_event(&json!({
            "id": "a1", "expiresAtMs": 5,
            "request": {"command": "echo x", "cwd": "/w", "agentId": "ops",
                        "sessionKey": "agent:ops:main", "ask": "always", "security": "allowlist", "host": "gateway"}
        }));
        assert_eq!(a.id, "a1");
        assert_eq!(a.command, "echo x");
        assert_eq!(a.cwd, "/w");
        assert_eq!(a.agent, "ops");
        assert_eq!(a.session_key, "agent:ops:main");
        assert_eq!(a.reason, "ask=always security=allowlist host=gateway");
        assert_eq!(a.expires_at_ms, Some(5));
    }
}
