//! What the config asks of an agent's exec calls: `tools.exec` then the agent's own
//! `tools.exec` layered as OpenClaw's `applyExecPolicyLayer` does (a layer with `mode` replaces
//! security and ask with that mode's pair; `security` / `ask` alone override just that field),
//! the host, and the safe-bin list (the agent's replaces the global one). Each value keeps the
//! key it came from, so a verdict can name it.

use serde::Serialize;
use serde_json::Value;

use super::levels::{Ask, Security, mode_pair};
use crate::config::LoadedConfig;

/// A value and the config key that set it (`None`: OpenClaw's built-in default).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Keyed<T> {
    pub value: T,
    pub key: Option<String>,
}

impl<T> Keyed<T> {
    fn default(value: T) -> Keyed<T> {
        Keyed { value, key: None }
    }
}

/// The exec settings the config gives one agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExecConfig {
    /// `auto`, `sandbox`, `gateway` or `node`.
    pub host: Keyed<String>,
    pub security: Keyed<Security>,
    pub ask: Keyed<Ask>,
    /// `tools.exec.mode` as written (`auto` sends misses to a reviewer model first).
    pub mode: Option<Keyed<String>>,
    /// A deny that holds even in the sandbox: `mode: "deny"` or an explicit `security: "deny"`.
    pub configured_deny: bool,
    /// The safe bins, when configured (else OpenClaw's default list).
    pub safe_bins: Option<Keyed<Vec<String>>>,
    /// Values OpenClaw would not take, each with its key (they are ignored, as OpenClaw does).
    pub invalid: Vec<String>,
}

impl ExecConfig {
    /// The settings for `agent` (its id; the config's default agent when unknown).
    pub fn for_agent(cfg: &LoadedConfig, agent: &str) -> ExecConfig {
        let mut out = ExecConfig {
            host: Keyed::default("auto".to_string()),
            security: Keyed::default(Security::Full),
            ask: Keyed::default(Ask::Off),
            mode: None,
            configured_deny: false,
            safe_bins: None,
            invalid: Vec::new(),
        };
        if let Some(global) = cfg.raw.pointer("/tools/exec") {
            out.layer(global, "tools.exec");
        }
        if let Some((raw, path)) = agent_exec(cfg, agent) {
            out.layer(raw, &path);
        }
        out
    }

    fn layer(&mut self, raw: &Value, at: &str) {
        let text = |key: &str| raw.get(key).and_then(Value::as_str);
        if let Some(host) = text("host") {
            let host = host.trim().to_lowercase();
            if ["auto", "sandbox", "gateway", "node"].contains(&host.as_str()) {
                self.host = Keyed {
                    value: host,
                    key: Some(format!("{at}.host")),
                };
            } else {
                self.invalid.push(format!("{at}.host = \"{host}\""));
            }
        }
        if let Some(mode) = text("mode") {
            match mode_pair(mode) {
                Some((security, ask)) => {
                    let key = Some(format!("{at}.mode"));
                    self.security = Keyed {
                        value: security,
                        key: key.clone(),
                    };
                    self.ask = Keyed {
                        value: ask,
                        key: key.clone(),
                    };
                    self.configured_deny = security == Security::Deny;
                    self.mode = Some(Keyed {
                        value: mode.trim().to_lowercase(),
                        key,
                    });
                }
                None => self.invalid.push(format!("{at}.mode = \"{mode}\"")),
            }
        } else {
            self.layer_fields(raw, at);
        }
        if let Some(bins) = raw.get("safeBins").and_then(Value::as_array) {
            let bins = bins
                .iter()
                .filter_map(Value::as_str)
                .map(|b| b.trim().to_lowercase())
                .filter(|b| !b.is_empty())
                .collect();
            self.safe_bins = Some(Keyed {
                value: bins,
                key: Some(format!("{at}.safeBins")),
            });
        }
    }

    /// A layer without `mode`: `security` and `ask` each override their own field (and the
    /// inherited mode no longer names them).
    fn layer_fields(&mut self, raw: &Value, at: &str) {
        let text = |key: &str| raw.get(key).and_then(Value::as_str);
        if let Some(s) = text("security") {
            match Security::parse(s) {
                Some(security) => {
                    self.security = Keyed {
                        value: security,
                        key: Some(format!("{at}.security")),
                    };
                    self.configured_deny = security == Security::Deny;
                    self.mode = None;
                }
                None => self.invalid.push(format!("{at}.security = \"{s}\"")),
            }
        }
        if let Some(a) = text("ask") {
            match Ask::parse(a) {
                Some(ask) => {
                    self.ask = Keyed {
                        value: ask,
                        key: Some(format!("{at}.ask")),
                    };
                    self.mode = None;
                }
                None => self.invalid.push(format!("{at}.ask = \"{a}\"")),
            }
        }
    }
}

/// The agent's own `tools.exec` object and its key path (`agents.entries.ops.tools.exec`,
/// `agents.list[1].tools.exec`).
fn agent_exec<'a>(cfg: &'a LoadedConfig, agent: &str) -> Option<(&'a Value, String)> {
    let info = cfg.agent(agent)?;
    let exec = cfg.agent_raw(info)?.pointer("/tools/exec")?;
    Some((exec, format!("{}.tools.exec", info.path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> LoadedConfig {
        crate::config::load_from_str(text, "t.json5").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn nothing_configured_is_full_and_off_on_auto() {
        let c = ExecConfig::for_agent(&config("{}"), "main");
        assert_eq!(c.security.value, Security::Full);
        assert_eq!(c.ask.value, Ask::Off);
        assert_eq!(c.host.value, "auto");
        assert_eq!(c.security.key, None);
    }

    #[test]
    fn a_mode_sets_both_and_an_agents_field_overrides_one() {
        let cfg = config(
            r#"{ tools: { exec: { mode: "ask", safeBins: ["grep"] } },
                 agents: { list: [ { id: "main", default: true },
                                   { id: "ops", tools: { exec: { ask: "always" } } } ] } }"#,
        );
        let main = ExecConfig::for_agent(&cfg, "main");
        assert_eq!(
            (main.security.value, main.ask.value),
            (Security::Allowlist, Ask::OnMiss)
        );
        assert_eq!(main.ask.key.as_deref(), Some("tools.exec.mode"));
        assert_eq!(
            main.safe_bins.as_ref().map(|b| b.value.clone()),
            Some(vec!["grep".to_string()])
        );
        let ops = ExecConfig::for_agent(&cfg, "ops");
        assert_eq!(
            (ops.security.value, ops.ask.value),
            (Security::Allowlist, Ask::Always)
        );
        assert_eq!(
            ops.ask.key.as_deref(),
            Some("agents.list[1].tools.exec.ask")
        );
        assert_eq!(ops.security.key.as_deref(), Some("tools.exec.mode"));
    }

    /// OpenClaw refuses such a config (and so does clawdeck's loader); a layer read from a
    /// gateway's raw text still passes over it and names it.
    #[test]
    fn a_bad_value_is_ignored_and_named() {
        let mut c = ExecConfig::for_agent(&config("{}"), "main");
        c.layer(&serde_json::json!({"security": "open"}), "tools.exec");
        assert_eq!(c.security.value, Security::Full);
        assert_eq!(
            c.invalid,
            vec!["tools.exec.security = \"open\"".to_string()]
        );
    }
}
