//! OpenClaw's Code Mode: when it engages, the model is sent only `exec` (a JavaScript cell),
//! `wait` and the direct-only tools; every other tool the policy leaves is callable from the
//! cell's code instead of by the model (the catalog behind `exec`). Tool Search then does not
//! apply. Whether it engages (both releases, `readCodeModeRawConfig`/`isCodeModeEngagedForModel`):
//! the agent's `models["provider/model"].codeMode`, else the agent's `tools.codeMode`, else
//! `agents.defaults.models["provider/model"].codeMode`, else `tools.codeMode`; `true` engages,
//! `false` does not, `"auto"` engages when the run's model is a "preferred" Code Mode model
//! (the model entry's `compat.codeMode`, else the provider catalog's). An authored object without
//! `enabled` stays off; an absent `tools.codeMode` is the release's default (2026.9: `"auto"`;
//! 2026.8: off). The pack's `codeMode` holds that default, the catalogs' tiers (read from the
//! manifests) and the two control tools as a real run sent them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::VisionTool;
use super::vision::{catalog_entry, declared_models, find_declared};

/// A pack's `codeMode`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeModeRules {
    /// What an absent `tools.codeMode` means: `"auto"`, or `false`.
    pub default_enabled: Value,
    /// Provider id → model id → its tier (`preferred`, `capable`), from the manifests.
    #[serde(default)]
    pub model_tiers: BTreeMap<String, BTreeMap<String, String>>,
    /// `exec` and `wait` as a run sent them (exec's description then ends with an index of the
    /// catalog, which the run writes for its own tools).
    pub controls: BTreeMap<String, VisionTool>,
    /// The Tooling section's line for each control (`exec: Run JavaScript Code Mode; ...`).
    #[serde(default)]
    pub prompt_summaries: BTreeMap<String, String>,
    /// How exec's description indexes the tools callable from code; none for packs without it.
    #[serde(default)]
    pub index: Option<super::CodeModeIndex>,
    /// How exec's description before the index is written; none for packs without it.
    #[serde(default)]
    pub description: Option<super::CodeModeDescription>,
    /// What the description says of the MCP servers code can call; none for packs without it.
    #[serde(default)]
    pub namespaces: Option<super::CodeModeNamespaces>,
}

/// Whether Code Mode engages for a run, and what decides it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeModeActivation {
    pub engaged: bool,
    /// The setting in force: `true`, `false` or `"auto"` (as JSON).
    pub setting: String,
    /// Where it is written (`tools.codeMode.enabled`), or `the release's default`.
    pub source: String,
    /// Under `"auto"`: the run's model and its tier, with where the tier is written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// The budgets exec's description states for the run (packs that model it).
    #[serde(skip)]
    pub budgets: Option<super::CodeModeBudgets>,
}

/// The release's default, named as a source.
const RELEASE_DEFAULT: &str = "the release's default";

impl CodeModeActivation {
    /// Whether no setting of the config decided it (the release's default did).
    pub fn by_default(&self) -> bool {
        self.source == RELEASE_DEFAULT
    }

    /// One line: `Code Mode on: tools.codeMode.enabled is true`.
    pub fn describe(&self) -> String {
        let state = if self.engaged { "on" } else { "off" };
        let setting = if self.source == RELEASE_DEFAULT {
            format!("{} ({RELEASE_DEFAULT})", self.setting)
        } else {
            format!("{} is {}", self.source, self.setting)
        };
        match &self.tier {
            Some(tier) => format!("Code Mode {state}: {setting} and {tier}"),
            None => format!("Code Mode {state}: {setting}"),
        }
    }
}

/// OpenClaw's `normalizeCodeModeRawConfig`: `true`/`false`/`"auto"` stand for `{enabled}`, an
/// object is itself; anything else is no setting.
enum RawSetting<'a> {
    Shorthand(&'a Value),
    Object(&'a serde_json::Map<String, Value>),
}

fn raw_setting(value: Option<&Value>) -> Option<RawSetting<'_>> {
    match value? {
        v @ Value::Bool(_) => Some(RawSetting::Shorthand(v)),
        v @ Value::String(s) if s == "auto" => Some(RawSetting::Shorthand(v)),
        Value::Object(map) => Some(RawSetting::Object(map)),
        _ => None,
    }
}

/// A JavaScript `??` step: the value when set and not null.
fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

/// The `models` entry keyed by the first of `keys` (`provider/model`) it has (keys compared
/// without case).
fn model_entry<'a>(models: Option<&'a Value>, keys: &[&str]) -> Option<(&'a str, &'a Value)> {
    let models = models?.as_object()?;
    keys.iter().find_map(|key| {
        models
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
            .map(|(k, v)| (k.as_str(), v))
    })
}

/// `"key"` quoted as config paths quote a key with a slash or dot.
fn quoted(key: &str) -> String {
    format!("\"{key}\"")
}

/// The run's agent: its raw entry and where it is written.
#[derive(Debug, Clone, Copy)]
pub struct RunAgent<'a> {
    pub entry: Option<&'a Value>,
    pub path: Option<&'a str>,
}

impl CodeModeRules {
    /// Whether Code Mode engages for a run of `agent` on `provider`/`model`; `catalog_id` is
    /// the id the reference normalizes to (`anthropic/opus` is `claude-opus-5`), which the
    /// catalogs and a second settings key are read by.
    pub fn activation(
        &self,
        raw: &Value,
        agent: RunAgent<'_>,
        provider: Option<&str>,
        model: Option<&str>,
        catalog_id: Option<&str>,
    ) -> CodeModeActivation {
        let key = provider
            .zip(model)
            .map(|(p, m)| format!("{}/{}", p.trim(), crate::model_ref::model_id(p, m).trim()));
        let normalized_key = provider
            .zip(catalog_id)
            .map(|(p, id)| format!("{}/{}", p.trim(), id.trim()))
            .filter(|k| Some(k) != key.as_ref());
        let keys: Vec<&str> = key
            .iter()
            .chain(&normalized_key)
            .map(String::as_str)
            .collect();
        let (value, source) = self.setting(raw, agent, &keys);
        // OpenClaw's readEnabled: a boolean or "auto", anything else is off.
        let setting = match value {
            Some(v @ Value::Bool(_)) => v.clone(),
            Some(v) if v == "auto" => v.clone(),
            _ => Value::Bool(false),
        };
        let shown = match value {
            None => "not set, which is off".to_string(),
            Some(v) if *v == setting => setting.to_string(),
            Some(v) => format!("{v}, which is off"),
        };
        let (engaged, tier) = match &setting {
            Value::Bool(on) => (*on, None),
            _ => {
                let (preferred, tier) = self.tier(raw, provider, model, catalog_id, key.as_deref());
                (preferred, Some(tier))
            }
        };
        CodeModeActivation {
            engaged,
            setting: shown,
            source,
            tier,
            budgets: self.description.as_ref().map(|d| d.budgets(raw, agent)),
        }
    }

    /// The setting in force and where it is written (OpenClaw's precedence).
    fn setting<'a>(
        &'a self,
        raw: &'a Value,
        agent: RunAgent<'a>,
        keys: &[&str],
    ) -> (Option<&'a Value>, String) {
        let agent_path = agent.path.unwrap_or("agents.list[]");
        if let Some(entry) = agent.entry
            && let Some((written, model)) = model_entry(entry.get("models"), keys)
            && let Some(value) = present(model.get("codeMode"))
        {
            return (
                Some(value),
                format!("{agent_path}.models.{}.codeMode", quoted(written)),
            );
        }
        if let Some(entry) = agent.entry {
            match raw_setting(entry.pointer("/tools/codeMode")) {
                Some(RawSetting::Shorthand(v)) => {
                    return (Some(v), format!("{agent_path}.tools.codeMode"));
                }
                Some(RawSetting::Object(map)) => {
                    if let Some(v) = present(map.get("enabled")) {
                        return (Some(v), format!("{agent_path}.tools.codeMode.enabled"));
                    }
                }
                None => {}
            }
        }
        if let Some((written, model)) = model_entry(raw.pointer("/agents/defaults/models"), keys)
            && let Some(value) = present(model.get("codeMode"))
        {
            return (
                Some(value),
                format!("agents.defaults.models.{}.codeMode", quoted(written)),
            );
        }
        match raw_setting(raw.pointer("/tools/codeMode")) {
            Some(RawSetting::Shorthand(v)) => (Some(v), "tools.codeMode".to_string()),
            Some(RawSetting::Object(map)) => (
                present(map.get("enabled")),
                "tools.codeMode.enabled".to_string(),
            ),
            None => (Some(&self.default_enabled), RELEASE_DEFAULT.to_string()),
        }
    }

    /// Under `"auto"`: whether the run's model is "preferred", and that in words.
    fn tier(
        &self,
        raw: &Value,
        provider: Option<&str>,
        model: Option<&str>,
        catalog_id: Option<&str>,
        key: Option<&str>,
    ) -> (bool, String) {
        let (Some(provider), Some(model), Some(key)) = (provider, model, key) else {
            return (
                false,
                "the run names no model (clawdeck cannot tell its Code Mode tier)".to_string(),
            );
        };
        let declared = declared_models(raw);
        let entry = find_declared(&declared, provider, model);
        if let Some(entry) = entry
            && let Some(tier) = entry.entry.pointer("/compat/codeMode")
        {
            let path = format!(
                "models.providers.{}.models[{}].compat.codeMode",
                entry.provider, entry.index
            );
            return (tier == "preferred", format!("{key} is {tier} ({path})"));
        }
        let id = catalog_id.unwrap_or(model);
        let as_id = if crate::model_ref::model_id(provider, model).trim() == id {
            String::new()
        } else {
            format!(" as {id}")
        };
        match catalog_entry(&self.model_tiers, provider, id) {
            Some((p, tier)) => (
                tier == "preferred",
                format!("{key} is \"{tier}\" (the {p} provider's catalog{as_id})"),
            ),
            None => (
                false,
                format!("{key} is not a \"preferred\" Code Mode model (no catalog marks it)"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    fn rules(default: Value) -> CodeModeRules {
        serde_json::from_value(json!({
            "defaultEnabled": default,
            "modelTiers": {"openai": {"gpt-5.5": "preferred", "gpt-4.1": "capable"}},
            "controls": {},
        }))
        .unwrap()
    }

    fn run(rules: &CodeModeRules, raw: &Value, model: &str) -> CodeModeActivation {
        let entry = raw.pointer("/agents/list/0");
        let agent = RunAgent {
            entry,
            path: entry.map(|_| "agents.list[0]"),
        };
        let (provider, model) = model.split_once('/').unwrap();
        rules.activation(raw, agent, Some(provider), Some(model), None)
    }

    #[test]
    fn auto_engages_only_for_a_preferred_model() {
        let auto = rules(json!("auto"));
        let on = run(&auto, &json!({}), "openai/gpt-5.5");
        assert!(on.engaged);
        assert_eq!(
            on.describe(),
            "Code Mode on: \"auto\" (the release's default) and openai/gpt-5.5 is \"preferred\" (the openai provider's catalog)"
        );
        assert!(!run(&auto, &json!({}), "openai/gpt-4.1").engaged);
        assert!(!run(&auto, &json!({}), "local/foo").engaged);
        // Provider and model compared without case, as OpenClaw's catalog lookup does.
        assert!(run(&auto, &json!({}), "OpenAI/GPT-5.5").engaged);
        // The older release's default is off.
        assert!(!run(&rules(json!(false)), &json!({}), "openai/gpt-5.5").engaged);
    }

    #[test]
    fn an_alias_reads_the_catalog_row_and_the_settings_of_its_normalized_id() {
        let auto = rules(json!("auto"));
        let agent = RunAgent {
            entry: None,
            path: None,
        };
        let on = auto.activation(
            &json!({}),
            agent,
            Some("openai"),
            Some("openai/fast"),
            Some("gpt-5.5"),
        );
        assert!(on.engaged);
        assert_eq!(
            on.describe(),
            "Code Mode on: \"auto\" (the release's default) and openai/fast is \"preferred\" (the openai provider's catalog as gpt-5.5)"
        );
        // A setting keyed by the normalized id counts; the written key comes first.
        let raw =
            json!({"agents": {"defaults": {"models": {"openai/gpt-5.5": {"codeMode": false}}}}});
        let off = auto.activation(&raw, agent, Some("openai"), Some("fast"), Some("gpt-5.5"));
        assert!(!off.engaged);
        assert_eq!(
            off.source,
            "agents.defaults.models.\"openai/gpt-5.5\".codeMode"
        );
    }

    #[test]
    fn an_object_without_enabled_stays_off() {
        let auto = rules(json!("auto"));
        let off = run(
            &auto,
            &json!({"tools": {"codeMode": {"timeoutMs": 5000}}}),
            "openai/gpt-5.5",
        );
        assert!(!off.engaged);
        assert_eq!(
            off.describe(),
            "Code Mode off: tools.codeMode.enabled is not set, which is off"
        );
        let shorthand = run(&auto, &json!({"tools": {"codeMode": true}}), "local/foo");
        assert!(shorthand.engaged);
        assert_eq!(shorthand.describe(), "Code Mode on: tools.codeMode is true");
        let odd = run(
            &auto,
            &json!({"tools": {"codeMode": {"enabled": "yes"}}}),
            "local/foo",
        );
        assert!(!odd.engaged);
        assert_eq!(
            odd.describe(),
            "Code Mode off: tools.codeMode.enabled is \"yes\", which is off"
        );
    }

    #[test]
    fn the_agent_and_model_settings_come_first() {
        let auto = rules(json!("auto"));
        let raw = json!({
            "tools": {"codeMode": true},
            "agents": {
                "defaults": {"models": {"local/foo": {"codeMode": false}}},
                "list": [{"id": "ops", "tools": {"codeMode": {"enabled": true}},
                          "models": {"openai/gpt-5.5": {"codeMode": false}}}],
            },
        });
        let model_off = run(&auto, &raw, "openai/gpt-5.5");
        assert!(!model_off.engaged);
        assert_eq!(
            model_off.source,
            "agents.list[0].models.\"openai/gpt-5.5\".codeMode"
        );
        // The agent's tools.codeMode comes before the defaults' model entry.
        let agent_on = run(&auto, &raw, "local/foo");
        assert!(agent_on.engaged);
        assert_eq!(agent_on.source, "agents.list[0].tools.codeMode.enabled");
        let no_agent = json!({"tools": {"codeMode": true},
            "agents": {"defaults": {"models": {"local/foo": {"codeMode": false}}}}});
        let defaults_off = run(&auto, &no_agent, "local/foo");
        assert!(!defaults_off.engaged);
        assert_eq!(
            defaults_off.source,
            "agents.defaults.models.\"local/foo\".codeMode"
        );
    }

    #[test]
    fn a_declared_models_own_tier_comes_before_the_catalogs() {
        let auto = rules(json!("auto"));
        let declared = |tier: &str| {
            json!({"models": {"providers": {"openai": {"models": [
                {"id": "gpt-5.5", "compat": {"codeMode": tier}}]}}}})
        };
        let capable = run(&auto, &declared("capable"), "openai/gpt-5.5");
        assert!(!capable.engaged);
        assert_eq!(
            capable.tier.as_deref(),
            Some(
                "openai/gpt-5.5 is \"capable\" (models.providers.openai.models[0].compat.codeMode)"
            )
        );
        let local = json!({"models": {"providers": {"local": {"models": [
            {"id": "foo", "compat": {"codeMode": "preferred"}}]}}}});
        assert!(run(&auto, &local, "local/foo").engaged);
    }
}
