//! Automation management (the pack's `automationManagement`): OpenClaw entitles a few turns to
//! manage every automation on the gateway, and gives `automations` its management form then
//! (`on-exit` schedules, `command` jobs, a job's `agentId`). The grants, as 2026.9.6 makes
//! them: a `chat.send` turn from the Control UI connected with `operator.admin`
//! (`control-ui-admin`), and a configured command owner's fresh message from a channel
//! (`channel-owner`). A spawned subagent's turn has neither. Releases without it (2026.8) have
//! no such key.

use serde::Deserialize;
use serde_json::Value;

use crate::context::PolicyContext;
use crate::tool::ToolSpec;

use super::Semantics;

/// The grant a `chat.send` turn from the Control UI with admin scope has.
pub const CONTROL_UI_ADMIN: &str = "control-ui-admin";
/// The grant a configured command owner's message from a channel has.
pub const CHANNEL_OWNER: &str = "channel-owner";

/// What the pack says about automation management.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutomationManagement {
    /// The tool whose form the grant changes.
    pub tool: String,
    /// The grants the release makes (`control-ui-admin`, `channel-owner`).
    #[serde(default)]
    pub granted_to: Vec<String>,
    /// The tool as a granted turn is sent it.
    pub description: String,
    pub parameters: Value,
}

impl Semantics {
    /// The automation management grant `ctx`'s turn has (`owner`: whether the turn's sender is
    /// the owner, as the policy resolved it), `None` when it has none or the pack knows none.
    pub fn automation_management_grant(
        &self,
        ctx: &PolicyContext,
        owner: bool,
    ) -> Option<&'static str> {
        let rules = self.automation_management.as_ref()?;
        if !owner || ctx.spawner_key().is_some() {
            return None;
        }
        let grant = if ctx.is_chat_send_turn() {
            let client = self.client_capabilities.turn_client(ctx)?;
            (client.id.as_deref() == Some("openclaw-control-ui")).then_some(CONTROL_UI_ADMIN)?
        } else {
            (ctx.message_provider().is_some() && ctx.has_sender()).then_some(CHANNEL_OWNER)?
        };
        rules.granted_to.iter().any(|g| g == grant).then_some(grant)
    }

    /// Gives the managed tool among `tools` its management form.
    pub(crate) fn word_for_management(&self, tools: &mut [ToolSpec]) {
        let Some(rules) = self.automation_management.as_ref() else {
            return;
        };
        for tool in tools.iter_mut().filter(|t| t.name == rules.tool) {
            tool.description = rules.description.clone();
            tool.parameters = rules.parameters.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack_2026_9() -> std::sync::Arc<Semantics> {
        super::super::embedded("2026.9").expect("the 2026.9 pack")
    }

    fn ctx(json: serde_json::Value) -> PolicyContext {
        serde_json::from_value::<PolicyContext>(json)
            .expect("a context")
            .with_session_key()
    }

    #[test]
    fn the_control_ui_admin_and_a_channel_owner_are_granted_management() {
        let s = pack_2026_9();
        let control_ui = ctx(serde_json::json!({ "client": "control-ui" }));
        assert_eq!(
            s.automation_management_grant(&control_ui, true),
            Some(CONTROL_UI_ADMIN)
        );
        assert_eq!(s.automation_management_grant(&control_ui, false), None);
        let tui = ctx(serde_json::json!({ "client": "tui" }));
        assert_eq!(s.automation_management_grant(&tui, true), None);
        let sender = ctx(serde_json::json!({ "channel": "telegram", "senderId": "42" }));
        assert_eq!(
            s.automation_management_grant(&sender, true),
            Some(CHANNEL_OWNER)
        );
        let no_sender = ctx(serde_json::json!({ "channel": "telegram" }));
        assert_eq!(s.automation_management_grant(&no_sender, true), None);
        let spawned =
            ctx(serde_json::json!({ "client": "control-ui", "spawnedBy": "agent:main:main" }));
        assert_eq!(s.automation_management_grant(&spawned, true), None);
    }

    #[test]
    fn the_management_form_adds_on_exit_schedules_and_command_jobs() {
        let rules = pack_2026_9()
            .automation_management
            .clone()
            .expect("2026.9 has it");
        let kinds = rules
            .parameters
            .pointer("/properties/job/properties/schedule/properties/kind/enum")
            .and_then(Value::as_array)
            .expect("schedule kinds");
        assert!(kinds.iter().any(|k| k == "on-exit"), "{kinds:?}");
        assert!(
            rules
                .parameters
                .pointer("/properties/job/properties/agentId")
                .is_some()
        );
    }

    #[test]
    fn the_2026_8_pack_grants_none() {
        let s = super::super::embedded("2026.8").expect("the 2026.8 pack");
        assert!(s.automation_management.is_none());
        let control_ui = ctx(serde_json::json!({ "client": "control-ui" }));
        assert_eq!(s.automation_management_grant(&control_ui, true), None);
    }
}
