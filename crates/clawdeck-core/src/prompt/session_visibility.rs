//! The session tools' visibility sentence as OpenClaw writes it for a run: the configured
//! `tools.sessions.visibility`, clamped to `tree` in a sandboxed session when
//! `agents.defaults.sandbox.sessionToolsVisibility` keeps sandboxes to the sessions they
//! spawned (its default), with the sandbox's own wording for a primary session.

use serde_json::Value;

use super::run_facts::RunFacts;
use crate::semantics::SessionVisibilityCopy;

const KNOWN: [&str; 4] = ["self", "tree", "agent", "all"];

/// `tools.sessions.visibility`, lowercased; unset or unknown values fall back to the default.
fn configured(raw: &Value, copy: &SessionVisibilityCopy) -> String {
    raw.pointer("/tools/sessions/visibility")
        .and_then(Value::as_str)
        .map(|v| v.trim().to_lowercase())
        .filter(|v| KNOWN.contains(&v.as_str()))
        .unwrap_or_else(|| copy.default.clone())
}

/// Whether sandboxed sessions only see what they spawned (`"spawned"`, the default).
fn sandbox_keeps_to_spawned(raw: &Value) -> bool {
    match raw.pointer("/agents/defaults/sandbox/sessionToolsVisibility") {
        None | Some(Value::Null) => true,
        Some(value) => value.as_str() == Some("spawned"),
    }
}

/// The visibility in effect and whether the sentence takes the sandbox's wording.
pub fn effective(raw: &Value, copy: &SessionVisibilityCopy, facts: RunFacts<'_>) -> (String, bool) {
    let visibility = configured(raw, copy);
    if !facts.sandboxed || !sandbox_keeps_to_spawned(raw) {
        return (visibility, false);
    }
    // Subagent sessions are never limited to their own spawns: they are spawns.
    ("tree".to_string(), !facts.subagent)
}

/// Rewrites the recorded sentence in `description` for this run; unchanged when the pack's
/// sentence is not in it.
pub(crate) fn adapt(
    description: &str,
    raw: &Value,
    copy: &SessionVisibilityCopy,
    facts: RunFacts<'_>,
) -> String {
    let (visibility, restricted) = effective(raw, copy, facts);
    let (Some(recorded), Some(wanted)) = (
        copy.sentence(&copy.recorded, false),
        copy.sentence(&visibility, restricted),
    ) else {
        return description.to_string();
    };
    description.replacen(&recorded, &wanted, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn copy() -> SessionVisibilityCopy {
        serde_json::from_value(json!({
            "tools": ["sessions_spawn"],
            "line": "obeys ({visibility}: {scope}).",
            "default": "all",
            "recorded": "all",
            "scopes": {"self": "S", "tree": "T", "agent": "A", "all": "ALL"},
            "sandboxSpawnedTree": "T (sandbox)"
        }))
        .unwrap()
    }

    const PLAIN: RunFacts<'static> = RunFacts {
        sandboxed: false,
        subagent: false,
        gateway_config_reads: true,
        model_takes_images: false,
        code_mode: false,
        webchat_turn: false,
        webchat_forms: false,
        message_tool_reply: false,
        pinned_widget: false,
        automation_management: false,
        skill_library: None,
        current_channel: None,
        message_chat: None,
        code_mode_budgets: None,
        swarm: None,
        skills_listed: false,
        secret_refs: crate::semantics::SecretRefs::AsWritten,
        sender_is_owner: true,
        chat_account: None,
    };
    const SANDBOXED: RunFacts<'static> = RunFacts {
        sandboxed: true,
        ..PLAIN
    };

    #[test]
    fn the_configured_visibility_replaces_the_recorded_one() {
        let raw = json!({"tools": {"sessions": {"visibility": "Agent"}}});
        assert_eq!(
            adapt("x obeys (all: ALL). y", &raw, &copy(), PLAIN),
            "x obeys (agent: A). y"
        );
        let unknown = json!({"tools": {"sessions": {"visibility": "everyone"}}});
        assert_eq!(
            adapt("obeys (all: ALL).", &unknown, &copy(), PLAIN),
            "obeys (all: ALL)."
        );
    }

    #[test]
    fn a_sandboxed_primary_session_is_clamped_to_its_spawns() {
        let raw = json!({"tools": {"sessions": {"visibility": "agent"}}});
        assert_eq!(
            adapt("obeys (all: ALL).", &raw, &copy(), SANDBOXED),
            "obeys (tree: T (sandbox))."
        );
        let subagent = RunFacts {
            subagent: true,
            ..SANDBOXED
        };
        assert_eq!(
            adapt("obeys (all: ALL).", &raw, &copy(), subagent),
            "obeys (tree: T)."
        );
    }

    #[test]
    fn a_sandbox_that_sees_all_sessions_keeps_the_configured_visibility() {
        let raw = json!({"agents": {"defaults": {"sandbox": {"sessionToolsVisibility": "all"}}}});
        assert_eq!(
            adapt("obeys (all: ALL).", &raw, &copy(), SANDBOXED),
            "obeys (all: ALL)."
        );
    }
}
