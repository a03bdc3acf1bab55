//! A heartbeat's turn (the pack's `heartbeatTurn`, read from the release's heartbeat runner
//! and tool assembly by `extract_rules.mjs`): a scheduled wake, or `openclaw system event
//! --mode now`. Where `messages.visibleReplies` (a group chat's `messages.groupChat.
//! visibleReplies`, else the former) is `"message_tool"`, the runner hands the turn's reply to
//! the message tool and makes `heartbeat_respond` its outcome: OpenClaw builds that tool and
//! adds both to the profile layers' allowlists (`runtimeProfileAlsoAllow`), so a profile does
//! not remove them; every other layer still may.
//!
//! The registry holds the tool; a turn that is no heartbeat's does not have it at all
//! (`policy::resolve`), and a heartbeat's without the reply setting has it switched off.

use serde::Deserialize;
use serde_json::Value;

use super::Semantics;
use crate::context::PolicyContext;
use crate::tool::ToolSpec;

/// The pack's `heartbeatTurn`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeartbeatTurn {
    /// The tool a heartbeat's turn gets (`heartbeat_respond`).
    pub tool: String,
    /// The key that hands replies to the message tool, and a group chat's own.
    pub key: String,
    pub group_key: String,
    /// The value that does (`message_tool`).
    pub value: String,
    /// The tools OpenClaw adds to the profile layers' allowlists then.
    pub profile_also_allow: Vec<String>,
}

impl HeartbeatTurn {
    /// The key that decides for `ctx` (a group chat's own first) and whether it hands replies
    /// to the message tool.
    pub fn reply_setting(&self, raw: &Value, ctx: &PolicyContext) -> (String, bool) {
        let read = |key: &str| {
            raw.pointer(&super::key_pointer(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let group = ctx.group.as_deref().is_some_and(|g| !g.trim().is_empty());
        let (key, value) = match group.then(|| read(&self.group_key)).flatten() {
            Some(value) => (self.group_key.clone(), Some(value)),
            None => (self.key.clone(), read(&self.key)),
        };
        let on = value.as_deref() == Some(self.value.as_str());
        (key, on)
    }

    /// In words: what brings the tool.
    pub fn brought_by(&self) -> String {
        format!(
            "a heartbeat's turn (--heartbeat) where {} is \"{}\"",
            self.key, self.value
        )
    }
}

impl Semantics {
    /// The heartbeat's tool the registry holds, unless `already` has it.
    pub fn heartbeat_tools(&self, already: &[String]) -> Vec<ToolSpec> {
        let Some(rules) = &self.heartbeat_turn else {
            return Vec::new();
        };
        self.conditional_specs_named(|name| name == rules.tool, already)
    }

    /// Whether `name` is the tool only a heartbeat's turn gets.
    pub fn is_heartbeat_tool(&self, name: &str) -> bool {
        self.heartbeat_turn.as_ref().is_some_and(|r| r.tool == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules() -> HeartbeatTurn {
        crate::semantics::embedded("2026.9")
            .and_then(|s| s.heartbeat_turn.clone())
            .expect("the 2026.9 pack reads a heartbeat's turn")
    }

    #[test]
    fn a_group_chat_reads_its_own_key_first() {
        let r = rules();
        let direct = PolicyContext::default();
        let group = PolicyContext {
            channel: Some("telegram".into()),
            group: Some("-100".into()),
            ..PolicyContext::default()
        };
        let on = json!({ "messages": { "visibleReplies": "message_tool" } });
        assert_eq!(
            r.reply_setting(&on, &direct),
            ("messages.visibleReplies".into(), true)
        );
        assert_eq!(
            r.reply_setting(&on, &group),
            ("messages.visibleReplies".into(), true)
        );
        let group_off = json!({ "messages": { "visibleReplies": "message_tool",
            "groupChat": { "visibleReplies": "automatic" } } });
        assert_eq!(
            r.reply_setting(&group_off, &group),
            ("messages.groupChat.visibleReplies".into(), false)
        );
        assert!(r.reply_setting(&group_off, &direct).1);
        assert!(!r.reply_setting(&json!({}), &direct).1);
        assert_eq!(r.profile_also_allow, ["heartbeat_respond", "message"]);
    }
}
