//! Swarm globals (the pack's `swarm`): `tools.swarm.enabled`, an agent's own `tools.swarm` laid
//! over the global one key by key, else the release's default (2026.9: on; 2026.8: off). The
//! pack's key switch of that name says whether they are on; while they are off OpenClaw builds
//! no `agents_wait`, and `sessions_spawn` loses its swarm parameters; the forms a run against
//! the default gets were captured from a real run with them flipped.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::tool::ToolSpec;

use super::{Semantics, VisionTool};

/// The key that turns swarm globals on and off (the pack's switch of that key).
pub const SWARM_KEY: &str = "tools.swarm.enabled";

/// What the pack says about swarm globals.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SwarmRules {
    /// Whether they are on when nothing sets `tools.swarm.enabled`.
    pub default: bool,
    /// The tools they bring.
    #[serde(default)]
    pub tools: Vec<String>,
    /// Tool → its form in a run whose swarm globals are not the default.
    #[serde(default)]
    pub forms: BTreeMap<String, VisionTool>,
}

impl Semantics {
    /// Whether swarm globals are on for a run of the agent whose entry is `agent` (its entry and
    /// where it is written), as the pack's switch reads it (`None`: the pack does not model
    /// them).
    pub fn swarm_enabled(&self, raw: &Value, agent: Option<(&Value, &str)>) -> Option<bool> {
        self.swarm.as_ref()?;
        let switch = self.switches.keys.iter().find(|k| k.key == SWARM_KEY)?;
        Some(
            switch
                .off(raw, agent, super::switches::RunFacts::default())
                .is_none(),
        )
    }

    /// Gives `tools` the forms a run gets whose swarm globals (`swarm`: on or off, `None`:
    /// unknown) are not the release's default.
    pub(crate) fn word_for_swarm(&self, swarm: Option<bool>, tools: &mut [ToolSpec]) {
        let Some(rules) = self.swarm.as_ref() else {
            return;
        };
        if swarm.is_none_or(|on| on == rules.default) {
            return;
        }
        for tool in tools.iter_mut() {
            if let Some(form) = rules.forms.get(&tool.name) {
                tool.description = form.description.clone();
                tool.parameters = form.parameters.clone();
            }
        }
    }

    /// The tools swarm globals bring that the pack builds only on a condition (2026.8's
    /// agents_wait); every registry holds them, and the switch removes them while swarm
    /// globals are off. Those `already` names are left out.
    pub fn swarm_tools(&self, already: &[String]) -> Vec<ToolSpec> {
        let Some(rules) = self.swarm.as_ref() else {
            return Vec::new();
        };
        self.conditional_specs_named(|name| rules.tools.iter().any(|t| t == name), already)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_agents_key_wins_then_the_global_one_then_the_releases_default() {
        let nine = super::super::embedded("2026.9").expect("2026.9");
        let eight = super::super::embedded("2026.8").expect("2026.8");
        let off = json!({ "tools": { "swarm": { "enabled": false } } });
        let agent_on = json!({ "id": "ops", "tools": { "swarm": { "enabled": true } } });
        let agent_other = json!({ "id": "ops", "tools": { "swarm": { "maxConcurrent": 2 } } });
        assert_eq!(nine.swarm_enabled(&json!({}), None), Some(true));
        assert_eq!(eight.swarm_enabled(&json!({}), None), Some(false));
        assert_eq!(nine.swarm_enabled(&off, None), Some(false));
        let main = |entry| Some((entry, "agents.list[0]"));
        assert_eq!(nine.swarm_enabled(&off, main(&agent_on)), Some(true));
        assert_eq!(nine.swarm_enabled(&off, main(&agent_other)), Some(false));
        let agent_off = json!({ "id": "ops", "tools": { "swarm": { "enabled": false } } });
        assert_eq!(
            nine.swarm_enabled(&json!({}), main(&agent_off)),
            Some(false)
        );
        let text = json!({ "tools": { "swarm": { "enabled": "false" } } });
        assert_eq!(
            nine.swarm_enabled(&text, None),
            Some(true),
            "not a boolean: the default"
        );
        assert_eq!(
            eight.swarm_tools(&[]).len(),
            1,
            "2026.8 builds agents_wait on a condition"
        );
        assert!(
            nine.swarm_tools(&[]).is_empty(),
            "2026.9 builds it by default"
        );
    }
}
