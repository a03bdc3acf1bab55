//! Approvals of every kind an operator may resolve in OpenClaw 2026.9.6: exec
//! (`exec.approval.*`), plugin (`plugin.approval.*`) and system agent (`openclaw.approval.*`,
//! "OpenClaw change" proposals). What each asks (command, or title/description/detail), who
//! asks (agent, session), until when, and the decisions the kind-agnostic `approval.resolve`
//! takes.

use serde_json::{Value, json};

/// Who raised an approval; each kind has its own events and list method, one resolver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum ApprovalKind {
    #[default]
    Exec,
    Plugin,
    SystemAgent,
}

impl ApprovalKind {
    pub const ALL: [ApprovalKind; 3] = [
        ApprovalKind::Exec,
        ApprovalKind::Plugin,
        ApprovalKind::SystemAgent,
    ];

    /// The wire value (`approval.resolve`'s `kind`, `approval.history`'s filter).
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalKind::Exec => "exec",
            ApprovalKind::Plugin => "plugin",
            ApprovalKind::SystemAgent => "system-agent",
        }
    }

    pub fn parse(text: &str) -> Option<ApprovalKind> {
        ApprovalKind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// The events' and list method's prefix (`openclaw.approval.*` for the system agent).
    fn prefix(self) -> &'static str {
        match self {
            ApprovalKind::Exec => "exec.approval",
            ApprovalKind::Plugin => "plugin.approval",
            ApprovalKind::SystemAgent => "openclaw.approval",
        }
    }

    /// The method listing this kind's pending approvals visible to the caller.
    pub fn list_method(self) -> String {
        format!("{}.list", self.prefix())
    }

    pub fn requested_event(self) -> String {
        format!("{}.requested", self.prefix())
    }

    pub fn resolved_event(self) -> String {
        format!("{}.resolved", self.prefix())
    }

    /// The kind and phase (`requested` / `resolved`) of an approval event's name.
    pub fn of_event(event: &str) -> Option<(ApprovalKind, &'static str)> {
        ApprovalKind::ALL.into_iter().find_map(|kind| {
            if event == kind.requested_event() {
                Some((kind, "requested"))
            } else if event == kind.resolved_event() {
                Some((kind, "resolved"))
            } else {
                None
            }
        })
    }
}

/// The method and params that resolve an approval of `kind`: exec and plugin approvals through
/// their own `*.approval.resolve` (`{id, decision}`), the system agent's through the
/// kind-agnostic `approval.resolve` (it has no method of its own).
pub fn resolve_call(id: &str, kind: ApprovalKind, decision: Decision) -> (String, Value) {
    match kind {
        ApprovalKind::SystemAgent => (
            "approval.resolve".to_string(),
            kind_resolve_params(id, kind, decision),
        ),
        kind => (
            format!("{}.resolve", kind.prefix()),
            resolve_params(id, decision),
        ),
    }
}

/// The params of `approval.resolve`, the one resolver for every kind.
pub fn kind_resolve_params(id: &str, kind: ApprovalKind, decision: Decision) -> Value {
    json!({"id": id, "kind": kind.as_str(), "decision": decision.as_str()})
}

/// The three answers an operator can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    AllowOnce,
    AllowAlways,
    Deny,
}

impl Decision {
    /// Every answer, in the order offered.
    pub const ALL: [Decision; 3] = [Decision::AllowOnce, Decision::AllowAlways, Decision::Deny];

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

/// The params of `exec.approval.resolve` (and `plugin.approval.resolve`).
pub fn resolve_params(id: &str, decision: Decision) -> Value {
    json!({"id": id, "decision": decision.as_str()})
}

/// A pending approval as clawdeck shows it, of any kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    pub kind: ApprovalKind,
    pub id: String,
    /// The command it approves: exec's command line; a plugin's `command` when it names one;
    /// the system agent's change description.
    pub command: String,
    pub cwd: String,
    pub agent: String,
    pub session_key: String,
    /// Why it asks (`ask` mode, security, host), as far as the event says.
    pub reason: String,
    /// A plugin's or the system agent's title, description and (plugin) reviewer detail.
    pub title: String,
    pub description: String,
    pub detail: String,
    /// A plugin's severity (`info`, `warning`, `critical`).
    pub severity: String,
    /// Which plugin and tool asks, or the system agent's proposal hash.
    pub source: String,
    pub created_at_ms: Option<u64>,
    pub expires_at_ms: Option<u64>,
    /// The decisions the gateway takes for it (empty: not said, all three).
    pub allowed_decisions: Vec<String>,
    pub raw: Value,
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

impl Approval {
    /// A `*.approval.requested` payload or a `*.approval.list` entry; its kind from the
    /// payload's `approvalKind`, else exec.
    pub fn from_event(payload: &Value) -> Approval {
        let kind = payload
            .get("approvalKind")
            .and_then(Value::as_str)
            .and_then(ApprovalKind::parse)
            .unwrap_or(ApprovalKind::Exec);
        Approval::from_event_of(kind, payload)
    }

    /// As [`from_event`](Self::from_event) for a payload known to be of `kind` (a list entry
    /// from that kind's list method, an event of that kind's name).
    pub fn from_event_of(kind: ApprovalKind, payload: &Value) -> Approval {
        let request = payload.get("request").unwrap_or(payload);
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
        let source = match kind {
            ApprovalKind::SystemAgent => text(request, "proposalHash"),
            _ => [("plugin", "pluginId"), ("tool", "toolName")]
                .iter()
                .filter_map(|(label, k)| {
                    request
                        .get(*k)
                        .and_then(Value::as_str)
                        .map(|v| format!("{label} {v}"))
                })
                .collect::<Vec<_>>()
                .join(", "),
        };
        let allowed_decisions = request
            .get("allowedDecisions")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        Approval {
            kind,
            id: text(payload, "id"),
            command,
            cwd: text(request, "cwd"),
            agent: text(request, "agentId"),
            session_key: text(request, "sessionKey"),
            reason,
            title: text(request, "title"),
            description: text(request, "description"),
            detail: text(request, "detail"),
            severity: text(request, "severity"),
            source,
            created_at_ms: payload.get("createdAtMs").and_then(Value::as_u64),
            expires_at_ms: payload.get("expiresAtMs").and_then(Value::as_u64),
            allowed_decisions,
            raw: payload.clone(),
        }
    }

    /// Whether the gateway takes `decision` for it (the system agent takes no allow-always).
    pub fn allows(&self, decision: Decision) -> bool {
        self.allowed_decisions.is_empty()
            || self
                .allowed_decisions
                .iter()
                .any(|d| d == decision.as_str())
    }

    /// The fields that say what it approves, named, in reading order; empty ones left out.
    /// Each is shown whole (sanitized, wrapped), never cut.
    pub fn approves(&self) -> Vec<(&'static str, &str)> {
        let fields: [(&'static str, &str); 6] = match self.kind {
            ApprovalKind::Exec => [
                ("command", &self.command),
                ("cwd", &self.cwd),
                ("title", &self.title),
                ("about", &self.description),
                ("detail", &self.detail),
                ("source", &self.source),
            ],
            ApprovalKind::Plugin => [
                ("title", &self.title),
                ("about", &self.description),
                ("detail", &self.detail),
                ("command", &self.command),
                ("cwd", &self.cwd),
                ("source", &self.source),
            ],
            ApprovalKind::SystemAgent => [
                ("title", &self.title),
                ("change", &self.command),
                ("about", &self.description),
                ("detail", &self.detail),
                ("cwd", &self.cwd),
                ("proposal", &self.source),
            ],
        };
        let mut seen: Vec<&str> = Vec::new();
        fields
            .into_iter()
            .filter(|(_, v)| {
                // The system agent sends its description as its command too: shown once.
                let fresh = !v.is_empty() && !seen.contains(v);
                seen.push(v);
                fresh
            })
            .collect()
    }

    /// One line naming what it approves: the command for exec, else title and description.
    pub fn summary(&self) -> String {
        match self.kind {
            ApprovalKind::Exec => self.command.clone(),
            _ => {
                let mut parts: Vec<&str> = Vec::new();
                for part in [&self.title, &self.description, &self.command] {
                    if !part.is_empty() && !parts.contains(&part.as_str()) {
                        parts.push(part);
                    }
                }
                parts.join(" — ")
            }
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "kind": self.kind.as_str(),
            "command": self.command,
            "cwd": self.cwd,
            "agentId": self.agent,
            "sessionKey": self.session_key,
            "reason": self.reason,
            "title": self.title,
            "description": self.description,
            "detail": self.detail,
            "severity": self.severity,
            "source": self.source,
            "createdAtMs": self.created_at_ms,
            "expiresAtMs": self.expires_at_ms,
            "allowedDecisions": self.allowed_decisions,
            "hiddenChars": self.has_hidden_chars(),
        })
    }

    /// The fields an operator reads before deciding (all from the gateway, all untrusted).
    fn read_fields(&self) -> [&str; 11] {
        [
            &self.id,
            &self.command,
            &self.cwd,
            &self.agent,
            &self.session_key,
            &self.reason,
            &self.title,
            &self.description,
            &self.detail,
            &self.severity,
            &self.source,
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
    /// The command that answers it, for an operator to copy: the id shell-quoted, the
    /// decisions this approval takes.
    pub fn answer_command(&self) -> String {
        let decisions: Vec<&str> = Decision::ALL
            .iter()
            .filter(|d| self.allows(**d))
            .map(|d| d.as_str())
            .collect();
        format!(
            "clawdeck approvals resolve {} {}",
            shell_quoted(&crate::sanitize::visible(&self.id).text),
            decisions.join("|")
        )
    }

    pub fn describe(&self) -> String {
        let shown = |f: &str| crate::sanitize::visible(f).text;
        let [id, command, cwd, agent, session, reason] = [
            &self.id,
            &self.command,
            &self.cwd,
            &self.agent,
            &self.session_key,
            &self.reason,
        ]
        .map(|f| shown(f));
        let mut line = match self.kind {
            ApprovalKind::Exec => format!(
                "{id} requested: `{command}` in {cwd} (agent {agent}, session {session}; {reason})"
            ),
            kind => {
                let what: Vec<String> = self
                    .approves()
                    .iter()
                    .map(|(name, value)| format!("{name}: {}", shown(value)))
                    .collect();
                format!(
                    "{id} ({}) requested: {} (agent {agent}, session {session})",
                    kind.as_str(),
                    what.join("; ")
                )
            }
        };
        if self.has_hidden_chars() {
            line.push_str(&format!(" ⚠ {}", crate::sanitize::HIDDEN_CHARS_WARNING));
        }
        line
    }
}

/// `text` as one shell word: single-quoted, a quote inside written `'\''`.
pub fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
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
        assert_eq!(a.kind, ApprovalKind::Exec);
        assert_eq!(a.approves(), vec![("command", "echo x"), ("cwd", "/w")]);
    }

    #[test]
    fn plugin_and_system_agent_approvals_say_what_they_approve() {
        // The payload shapes of plugin.approval.requested and openclaw.approval.requested
        // (2026.9.6 dist: PluginApprovalRequestParamsSchema, system-agent's request).
        let plugin = Approval::from_event(&json!({
            "approvalKind": "plugin", "id": "plugin:1", "createdAtMs": 1, "expiresAtMs": 9,
            "request": {"title": "Send mail", "description": "to boss@example.com",
                        "detail": "Subject: hi", "severity": "warning", "pluginId": "mailer",
                        "toolName": "send_mail", "agentId": "ops", "sessionKey": "agent:ops:main",
                        "allowedDecisions": ["allow-once", "deny"]}
        }));
        assert_eq!(plugin.kind, ApprovalKind::Plugin);
        assert_eq!(plugin.summary(), "Send mail — to boss@example.com");
        assert_eq!(
            plugin.approves(),
            vec![
                ("title", "Send mail"),
                ("about", "to boss@example.com"),
                ("detail", "Subject: hi"),
                ("source", "plugin mailer, tool send_mail"),
            ]
        );
        assert!(plugin.allows(Decision::Deny) && !plugin.allows(Decision::AllowAlways));
        let change = Approval::from_event_of(
            ApprovalKind::SystemAgent,
            &json!({"id": "system-agent:1", "request": {"title": "OpenClaw change",
                "description": "set tools.exec.ask to off", "command": "set tools.exec.ask to off",
                "proposalHash": "ab12", "allowedDecisions": ["allow-once", "deny"]}}),
        );
        assert_eq!(
            change.approves(),
            vec![
                ("title", "OpenClaw change"),
                ("change", "set tools.exec.ask to off"),
                ("proposal", "ab12"),
            ],
            "the description equal to the command is shown once"
        );
        assert!(change.describe().contains("(system-agent) requested"));
        assert_eq!(
            kind_resolve_params("system-agent:1", change.kind, Decision::Deny),
            json!({"id": "system-agent:1", "kind": "system-agent", "decision": "deny"})
        );
    }

    #[test]
    fn event_names_give_kind_and_phase() {
        assert_eq!(
            ApprovalKind::of_event("openclaw.approval.requested"),
            Some((ApprovalKind::SystemAgent, "requested"))
        );
        assert_eq!(
            ApprovalKind::of_event("plugin.approval.resolved"),
            Some((ApprovalKind::Plugin, "resolved"))
        );
        assert_eq!(ApprovalKind::of_event("exec.approval.waitDecision"), None);
        assert_eq!(
            ApprovalKind::SystemAgent.list_method(),
            "openclaw.approval.list"
        );
        assert_eq!(
            resolve_call("p1", ApprovalKind::Plugin, Decision::AllowOnce),
            (
                "plugin.approval.resolve".to_string(),
                json!({"id": "p1", "decision": "allow-once"})
            )
        );
        assert_eq!(
            resolve_call("s1", ApprovalKind::SystemAgent, Decision::Deny).0,
            "approval.resolve"
        );
    }
}
