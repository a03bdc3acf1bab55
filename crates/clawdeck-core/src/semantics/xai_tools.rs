//! xAI's remote tools, the bundled xai plugin's `x_search` and `code_execution` (the pack's
//! `xaiTools`, read from the release's `extensions/xai`; both releases alike). The plugin
//! builds each for a run that has a model provider when the tool's own config
//! (`plugins.entries.xai.config.xSearch` / `codeExecution`) does not say `enabled: false`, the
//! provider is xAI or that config says `enabled: true`, and an xAI key resolves (the plugin's
//! `webSearch.apiKey`, an `xai` auth profile, `XAI_API_KEY`).
//!
//! The registry holds a tool when the config can bring it (the plugin loads, a key); a run
//! keeps it on an xAI model or where its config turns it on, never where its config turns it
//! off (see [`Semantics::xai_tool_off`]).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{Credentials, Semantics};
use crate::tool::ToolSpec;

/// The pack's `xaiTools`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XaiTools {
    /// Each tool and the config key of its own settings.
    pub tools: BTreeMap<String, String>,
    pub plugin: String,
    /// The provider ids that are xAI.
    pub providers: Vec<String>,
    pub key_env: String,
    /// Where a key in the config is written.
    pub key_config: String,
    /// The provider an auth profile must be of.
    pub profile_provider: String,
}

impl XaiTools {
    /// The tool's own `enabled`, as written.
    fn enabled(&self, raw: &Value, tool: &str) -> Option<bool> {
        let key = self.tools.get(tool)?;
        raw.pointer(&super::key_pointer(key))?
            .get("enabled")?
            .as_bool()
    }

    fn is_xai(&self, provider: &str) -> bool {
        let provider = provider.trim().to_ascii_lowercase();
        self.providers.contains(&provider)
    }
}

impl Semantics {
    /// Where the xAI key a run of `raw` resolves is written; `None` without one.
    fn xai_key(&self, rules: &XaiTools, raw: &Value, creds: &Credentials<'_>) -> Option<String> {
        let configured = raw
            .pointer(&super::key_pointer(&rules.key_config))
            .is_some_and(|v| v.as_str().is_none_or(|s| !s.trim().is_empty()));
        if configured {
            return Some(rules.key_config.clone());
        }
        let set = super::media::set_credentials(raw, creds.dotenv);
        set.get(&rules.key_env)
            .cloned()
            .or_else(|| self.stored_profile(creds, std::slice::from_ref(&rules.profile_provider)))
    }

    /// The xAI tools the registry holds for `raw`: those the config can bring (the plugin
    /// loads, an xAI key resolves), of those `already` lacks.
    pub fn xai_tools(
        &self,
        raw: &Value,
        creds: &Credentials<'_>,
        already: &[String],
    ) -> Vec<ToolSpec> {
        let Some(rules) = self.xai_tools.as_ref() else {
            return Vec::new();
        };
        if !self.plugin_loads(raw, &rules.plugin) || self.xai_key(rules, raw, creds).is_none() {
            return Vec::new();
        }
        self.conditional_specs_named(|name| rules.tools.contains_key(name), already)
    }

    /// Why a run on `provider` lacks xAI tool `name` the registry holds: (the key that would
    /// bring it, the reason); `None` when the run has it (or `name` is no xAI tool).
    pub fn xai_tool_off(
        &self,
        raw: &Value,
        name: &str,
        provider: Option<&str>,
    ) -> Option<(String, String)> {
        let rules = self.xai_tools.as_ref()?;
        let key = format!("{}.enabled", rules.tools.get(name)?);
        match rules.enabled(raw, name) {
            Some(true) => return None,
            Some(false) => return Some((key.clone(), format!("{key} is false"))),
            None => {}
        }
        // A run always has a model; one the context does not name is OpenClaw's default,
        // which is not xAI's.
        let not_xai = match provider.map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) if rules.is_xai(p) => return None,
            Some(p) => format!("the run's provider {p} is not xAI"),
            None => "the run's model (OpenClaw's default) is not xAI's".to_string(),
        };
        let reason = format!(
            "{not_xai} and {key} is not true (the xai plugin builds it on an xAI model, or where its config turns it on)"
        );
        Some((key, reason))
    }

    /// What brings xAI tool `name` into a run that has it, in words; `None` for another tool.
    pub fn xai_tool_brought_by(
        &self,
        raw: &Value,
        creds: &Credentials<'_>,
        name: &str,
    ) -> Option<String> {
        let rules = self.xai_tools.as_ref()?;
        let key = rules.tools.get(name)?;
        let written = self.xai_key(rules, raw, creds)?;
        Some(match rules.enabled(raw, name) {
            Some(true) => format!("{key}.enabled is true and an xAI key is set ({written})"),
            _ => format!("the run's model is xAI's and an xAI key is set ({written})"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn semantics() -> std::sync::Arc<Semantics> {
        super::super::embedded("2026.9").expect("2026.9")
    }

    #[test]
    fn a_key_brings_them_and_the_provider_or_their_config_keeps_them() {
        let s = semantics();
        let none = Credentials::default();
        let key = json!({ "env": { "vars": { "XAI_API_KEY": "k" } } });
        assert!(
            s.xai_tools(&json!({}), &none, &[]).is_empty(),
            "no key, no tool"
        );
        let names: Vec<String> = s
            .xai_tools(&key, &none, &[])
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["code_execution", "x_search"]);
        let off = json!({ "env": { "vars": { "XAI_API_KEY": "k" } },
            "plugins": { "entries": { "xai": { "config": { "xSearch": { "enabled": false } } } } } });
        let (path, reason) = s.xai_tool_off(&off, "x_search", Some("xai")).unwrap();
        assert_eq!(path, "plugins.entries.xai.config.xSearch.enabled");
        assert_eq!(
            reason, "plugins.entries.xai.config.xSearch.enabled is false",
            "off even on an xAI model"
        );

        assert!(s.xai_tool_off(&key, "x_search", Some("xai")).is_none());
        assert!(s.xai_tool_off(&key, "x_search", Some("X-AI")).is_none());
        let (path, reason) = s.xai_tool_off(&key, "x_search", Some("openai")).unwrap();
        assert_eq!(path, "plugins.entries.xai.config.xSearch.enabled");
        assert!(reason.contains("openai is not xAI"), "{reason}");
        let on = json!({ "plugins": { "entries": { "xai": { "config": { "codeExecution": { "enabled": true } } } } } });
        assert!(
            s.xai_tool_off(&on, "code_execution", Some("openai"))
                .is_none()
        );
        assert!(
            s.xai_tool_off(&on, "code_execution", None).is_none(),
            "the default model"
        );
        assert!(
            s.xai_tool_off(&key, "code_execution", None).is_some(),
            "not xAI's"
        );
        assert!(
            s.xai_tool_off(&on, "read", Some("openai")).is_none(),
            "not an xAI tool"
        );
    }

    #[test]
    fn only_a_tool_the_run_has_says_what_brought_it() {
        let cfg = crate::config::load_from_str(
            r#"{ agents: { defaults: { model: "xai/grok-4.3" } },
                 env: { vars: { XAI_API_KEY: "k" } },
                 plugins: { entries: { xai: { config: { xSearch: { enabled: false } } } } } }"#,
            "t.json5",
        )
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
        let registry =
            crate::catalog::Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
        let ctx = crate::context::PolicyContext::default();
        let res = crate::policy::resolve(&cfg, &registry, &ctx).unwrap();
        let kept = res.trace("code_execution").unwrap();
        assert_eq!(
            kept.built_because.as_deref(),
            Some("the run's model is xAI's and an xAI key is set (env.vars.XAI_API_KEY)")
        );
        let off = res.trace("x_search").unwrap();
        assert!(
            off.removed_by
                .as_ref()
                .and_then(|r| r.switched_off())
                .is_some()
        );
        assert_eq!(off.built_because, None, "switched off: not built");
    }
}
