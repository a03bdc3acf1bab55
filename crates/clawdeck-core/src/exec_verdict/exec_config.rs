//! What the config asks of an agent's exec calls: `tools.exec` then the agent's own
//! `tools.exec` layered as OpenClaw's `applyExecPolicyLayer` does (a layer with `mode` replaces
//! security and ask with that mode's pair; `security` / `ask` alone override just that field),
//! the host, and the safe-bin list (the agent's replaces the global one). Each value keeps the
//! key it came from, so a verdict can name it.

use serde::Serialize;
use serde_json::Value;

use super::levels::{Ask, ModeTable, Security, mode_pair};
use crate::config::LoadedConfig;

/// A value and the config key that set it (`None`: OpenClaw's built-in default).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Keyed<T> {
    pub value: T,
    pub key: Option<String>,
}

impl<T> Keyed<T> {
    pub(crate) fn default(value: T) -> Keyed<T> {
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
    /// `strictInlineEval`: an interpreter's inline program (`python3 -c`) always needs an
    /// explicit approval.
    pub strict_inline_eval: Keyed<bool>,
    /// `mode: "auto"`: a reviewer model answers a question before any operator does.
    pub auto_review: bool,
    /// `approvals.exec` forwards this agent's questions to fixed chat targets: a headless
    /// turn's question then waits for an answer there instead of falling back.
    pub forwarding: Option<Forwarding>,
    /// Values OpenClaw would not take, each with its key (they are ignored, as OpenClaw does).
    pub invalid: Vec<String>,
    /// Approvals are skipped on the gateway while security stays full (a `full` permission
    /// mode, elevated `full` over a permissive policy): the step and key that say so.
    pub bypass_approvals: Option<(&'static str, String)>,
}

/// Where `approvals.exec` sends an agent's exec questions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Forwarding {
    /// `channel:to` of each target.
    pub targets: Vec<String>,
    /// The session filter, when one is set (the question is forwarded only for matching
    /// session keys).
    pub session_filter: Vec<String>,
}

/// `createExecApprovalForwarder`'s fixed targets for `agent`: enabled, mode `targets` or
/// `both`, at least one target, and the agent filter (when set) naming the agent.
fn forwarding(cfg: &LoadedConfig, agent: &str) -> Option<Forwarding> {
    let section = cfg.raw.pointer("/approvals/exec")?;
    if section.get("enabled") != Some(&Value::Bool(true)) {
        return None;
    }
    let mode = section
        .get("mode")
        .and_then(Value::as_str)
        .unwrap_or("session");
    if !matches!(mode, "targets" | "both") {
        return None;
    }
    let texts = |key: &str| -> Option<Vec<String>> {
        section.get(key).and_then(Value::as_array).map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
    };
    if let Some(agents) = texts("agentFilter")
        && !agents.is_empty()
        && !agents.iter().any(|a| a == agent)
    {
        return None;
    }
    let targets: Vec<String> = section
        .get("targets")
        .and_then(Value::as_array)?
        .iter()
        .filter_map(|t| {
            let channel = t.get("channel").and_then(Value::as_str)?;
            let to = t.get("to").and_then(Value::as_str).unwrap_or("");
            Some(format!("{channel}:{to}"))
        })
        .collect();
    (!targets.is_empty()).then(|| Forwarding {
        targets,
        session_filter: texts("sessionFilter").unwrap_or_default(),
    })
}

impl ExecConfig {
    /// Takes an exec mode's security, ask and reviewer (`mode_pair`), all under `key`.
    pub(crate) fn set_mode(&mut self, mode: &str, policy: (Security, Ask, bool), key: String) {
        let (security, ask, auto_review) = policy;
        let key = Some(key);
        self.auto_review = auto_review;
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
            value: mode.to_string(),
            key,
        });
    }

    /// The settings for `agent` (its id; the config's default agent when unknown).
    pub fn for_agent(cfg: &LoadedConfig, agent: &str) -> ExecConfig {
        let mut out = ExecConfig {
            host: Keyed::default("auto".to_string()),
            security: Keyed::default(Security::Full),
            ask: Keyed::default(Ask::Off),
            mode: None,
            configured_deny: false,
            safe_bins: None,
            strict_inline_eval: Keyed::default(false),
            auto_review: false,
            forwarding: forwarding(cfg, agent),
            invalid: Vec::new(),
            bypass_approvals: None,
        };
        let modes = cfg.semantics.exec.as_ref().and_then(|e| e.modes.as_ref());
        if let Some(global) = cfg.raw.pointer("/tools/exec") {
            out.layer(global, "tools.exec", modes);
        }
        if let Some((raw, path)) = agent_exec(cfg, agent) {
            out.layer(raw, &path, modes);
        }
        out
    }

    fn layer(&mut self, raw: &Value, at: &str, modes: Option<&ModeTable>) {
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
        if let Some(strict) = raw.get("strictInlineEval").and_then(Value::as_bool) {
            self.strict_inline_eval = Keyed {
                value: strict,
                key: Some(format!("{at}.strictInlineEval")),
            };
        }
        if let Some(mode) = text("mode") {
            match mode_pair(mode, modes) {
                Some(policy) => {
                    self.set_mode(&mode.trim().to_lowercase(), policy, format!("{at}.mode"))
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
                Some(security) => self.set_security(security, format!("{at}.security")),
                None => self.invalid.push(format!("{at}.security = \"{s}\"")),
            }
        }
        if let Some(a) = text("ask") {
            match Ask::parse(a) {
                Some(ask) => self.set_ask(ask, format!("{at}.ask")),
                None => self.invalid.push(format!("{at}.ask = \"{a}\"")),
            }
        }
    }

    /// Security alone, set by `key` (a mode no longer names it).
    pub(crate) fn set_security(&mut self, security: Security, key: String) {
        self.security = Keyed {
            value: security,
            key: Some(key),
        };
        self.configured_deny = security == Security::Deny;
        self.mode = None;
        self.auto_review = false;
    }

    /// Ask alone, set by `key` (a mode no longer names it).
    pub(crate) fn set_ask(&mut self, ask: Ask, key: String) {
        self.ask = Keyed {
            value: ask,
            key: Some(key),
        };
        self.mode = None;
        self.auto_review = false;
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
        c.layer(&serde_json::json!({"security": "open"}), "tools.exec", None);
        assert_eq!(c.security.value, Security::Full);
        assert_eq!(
            c.invalid,
            vec!["tools.exec.security = \"open\"".to_string()]
        );
    }

    #[test]
    fn strict_inline_eval_layers_and_forwarding_names_its_targets_for_the_filtered_agent() {
        let cfg = config(
            r#"{ tools: { exec: { strictInlineEval: true } },
                 approvals: { exec: { enabled: true, mode: "both", agentFilter: ["ops"],
                                      targets: [{ channel: "telegram", to: "42" }] } },
                 agents: { list: [ { id: "main", default: true },
                                   { id: "ops", tools: { exec: { strictInlineEval: false } } } ] } }"#,
        );
        let main = ExecConfig::for_agent(&cfg, "main");
        assert!(main.strict_inline_eval.value);
        assert_eq!(
            main.strict_inline_eval.key.as_deref(),
            Some("tools.exec.strictInlineEval")
        );
        assert_eq!(main.forwarding, None, "the agent filter leaves main out");
        let ops = ExecConfig::for_agent(&cfg, "ops");
        assert!(!ops.strict_inline_eval.value);
        assert_eq!(
            ops.forwarding.map(|f| f.targets),
            Some(vec!["telegram:42".to_string()])
        );
        // The default mode forwards to the session's own chat only: no fixed target.
        let session = config(
            r#"{ approvals: { exec: { enabled: true, targets: [{ channel: "telegram", to: "42" }] } } }"#,
        );
        assert_eq!(ExecConfig::for_agent(&session, "main").forwarding, None);
    }

    #[test]
    fn the_mode_table_comes_from_the_version_and_auto_is_reviewed() {
        let cfg = config(r#"{ tools: { exec: { mode: "auto" } } }"#);
        let c = ExecConfig::for_agent(&cfg, "main");
        assert_eq!(
            (c.security.value, c.ask.value),
            (Security::Allowlist, Ask::OnMiss)
        );
        assert!(c.auto_review);
        let mut table = ModeTable::new();
        table.insert(
            "auto".into(),
            crate::exec_allowlist::ModePolicy {
                security: "full".into(),
                ask: "always".into(),
                auto_review: false,
            },
        );
        let mut c = ExecConfig::for_agent(&config("{}"), "main");
        c.layer(
            &serde_json::json!({"mode": "auto"}),
            "tools.exec",
            Some(&table),
        );
        assert_eq!(
            (c.security.value, c.ask.value, c.auto_review),
            (Security::Full, Ask::Always, false)
        );
    }
}
