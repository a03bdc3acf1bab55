//! What happens when a visible tool is called, beyond whether the model sees it: exec's
//! approval and host settings (`tools.exec.{mode, security, ask, host}`, `tools.elevated`), and
//! whether the gateway's `/tools/invoke` HTTP endpoint would run it (`gateway.tools.{allow,deny}`
//! over the version's default HTTP deny list). Each note names the key that changes it.

use serde::Serialize;
use serde_json::Value;

use crate::catalog::Registry;
use crate::config::{AgentInfo, LoadedConfig};

/// One note on how calls of a tool go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallNote {
    /// `approval`, `host`, `elevated`, `http`, `form`.
    pub topic: &'static str,
    pub text: String,
    /// The config key that decides it (`null`: a built-in default).
    pub config_path: Option<String>,
}

/// A string setting, the agent's `tools.exec.<key>` before the global `tools.exec.<key>`.
fn exec_setting(cfg: &LoadedConfig, agent: &AgentInfo, key: &str) -> Option<(String, String)> {
    let agent_raw = cfg.agent_raw(agent);
    if let Some(v) = agent_raw
        .and_then(|a| a.pointer(&format!("/tools/exec/{key}")))
        .and_then(Value::as_str)
    {
        return Some((
            v.trim().to_lowercase(),
            agent.path.key("tools").key("exec").key(key).to_string(),
        ));
    }
    cfg.raw
        .pointer(&format!("/tools/exec/{key}"))
        .and_then(Value::as_str)
        .map(|v| (v.trim().to_lowercase(), format!("tools.exec.{key}")))
}

/// Notes on calling exec in this context.
pub(crate) fn exec_notes(cfg: &LoadedConfig, agent: &AgentInfo, sandboxed: bool) -> Vec<CallNote> {
    let mut notes = approval_notes(cfg, agent);
    notes.push(host_note(cfg, agent, sandboxed));
    notes.push(elevated_note(cfg, agent));
    notes
}

/// Whether exec calls will ask for approval: `ask`, `mode` and `security` as configured.
fn approval_notes(cfg: &LoadedConfig, agent: &AgentInfo) -> Vec<CallNote> {
    let mut notes = Vec::new();
    let mode = exec_setting(cfg, agent, "mode");
    let security = exec_setting(cfg, agent, "security");
    let ask = exec_setting(cfg, agent, "ask");
    // `ask: always` is the strictest answer whatever the mode says.
    if let Some((value, path)) = &ask {
        let text = match value.as_str() {
            "always" => Some("every call will ask for approval".to_string()),
            "on-miss" => Some(
                "calls that miss the exec allowlist will ask for approval; allowlisted commands run"
                    .to_string(),
            ),
            "off" => Some("calls never ask for approval".to_string()),
            other => Some(format!("unknown ask value \"{other}\" (OpenClaw takes off, on-miss, always)")),
        };
        if let Some(text) = text {
            notes.push(CallNote {
                topic: "approval",
                text: format!("{text}: {path} = \"{value}\""),
                config_path: Some(path.clone()),
            });
        }
    }
    if let Some((value, path)) = &mode {
        let text = match value.as_str() {
            "deny" => "every call is denied (security deny)",
            "allowlist" => "only allowlisted and safe-bin commands run; nothing else is asked",
            "ask" => "allowlisted commands run; every other call will ask for approval",
            "auto" => {
                "allowlisted commands run; others go to the native reviewer, which may ask a human"
            }
            "full" => "no approval prompts (full host access)",
            _ => "unknown mode (OpenClaw takes deny, allowlist, ask, auto, full)",
        };
        notes.push(CallNote {
            topic: "approval",
            text: format!("{text}: {path} = \"{value}\""),
            config_path: Some(path.clone()),
        });
    }
    if let Some((value, path)) = &security
        && value == "deny"
    {
        notes.push(CallNote {
            topic: "approval",
            text: format!("every call is denied: {path} = \"deny\""),
            config_path: Some(path.clone()),
        });
    }
    if mode.is_none() && security.is_none() && ask.is_none() {
        notes.push(CallNote {
            topic: "approval",
            text: "no approval prompts by default (host policy full); tools.exec.mode or tools.exec.ask changes it".to_string(),
            config_path: None,
        });
    }
    notes
}

/// Where exec calls run: the configured host, else the sandbox or the gateway host.
fn host_note(cfg: &LoadedConfig, agent: &AgentInfo, sandboxed: bool) -> CallNote {
    let host = exec_setting(cfg, agent, "host");
    let (where_, path) = match &host {
        Some((h, path)) if h != "auto" => (format!("runs on host \"{h}\""), Some(path.clone())),
        Some((_, path)) if sandboxed => (
            "runs in the sandbox (host auto)".to_string(),
            Some(path.clone()),
        ),
        Some((_, path)) => (
            "runs on the gateway host (host auto, no sandbox)".to_string(),
            Some(path.clone()),
        ),
        None if sandboxed => ("runs in the sandbox (host auto)".to_string(), None),
        None => (
            "runs on the gateway host (host auto, no sandbox)".to_string(),
            None,
        ),
    };
    CallNote {
        topic: "host",
        text: match &path {
            Some(p) => format!("{where_}: {p}"),
            None => format!("{where_}; tools.exec.host changes it"),
        },
        config_path: path,
    }
}

/// Who may use elevated mode (out of the sandbox): on unless `tools.elevated.enabled` (or the
/// agent's) is false, and then only for senders `tools.elevated.allowFrom` lists per channel.
fn elevated_note(cfg: &LoadedConfig, agent: &AgentInfo) -> CallNote {
    let agent_path = agent.path.key("tools").key("elevated");
    let agent_raw = cfg.agent_raw(agent);
    let disabled = [
        (
            cfg.raw.pointer("/tools/elevated/enabled"),
            "tools.elevated.enabled".to_string(),
        ),
        (
            agent_raw.and_then(|a| a.pointer("/tools/elevated/enabled")),
            agent_path.key("enabled").to_string(),
        ),
    ]
    .into_iter()
    .find(|(value, _)| *value == Some(&Value::Bool(false)));
    if let Some((_, path)) = disabled {
        return CallNote {
            topic: "elevated",
            text: format!("elevated mode is off: {path} is false"),
            config_path: Some(path),
        };
    }
    let channels: Vec<String> = cfg
        .raw
        .pointer("/tools/elevated/allowFrom")
        .and_then(Value::as_object)
        .map(|lists| {
            lists
                .iter()
                .filter(|(_, list)| list.as_array().is_some_and(|l| !l.is_empty()))
                .map(|(channel, _)| channel.clone())
                .collect()
        })
        .unwrap_or_default();
    let text = if channels.is_empty() {
        "elevated mode is on for nobody: tools.elevated.allowFrom lists no sender".to_string()
    } else {
        format!(
            "elevated mode (default level on: a sandboxed call runs on the gateway) for the senders tools.elevated.allowFrom lists on {}",
            channels.join(", ")
        )
    };
    CallNote {
        topic: "elevated",
        text,
        config_path: Some("tools.elevated.allowFrom".to_string()),
    }
}

/// Whether the gateway's `POST /tools/invoke` would run `tool`: `gateway.tools.deny` wins, then
/// the version's default HTTP deny list unless `gateway.tools.allow` names the tool.
pub(crate) fn http_note(cfg: &LoadedConfig, registry: &Registry, tool: &str) -> CallNote {
    let list = |key: &str| -> Vec<(usize, String)> {
        cfg.raw
            .pointer(&format!("/gateway/tools/{key}"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.as_str().map(|s| (i, registry.canonical(s))))
                    .collect()
            })
            .unwrap_or_default()
    };
    let matches = |pattern: &str| pattern == "*" || pattern == tool;
    if let Some((i, p)) = list("deny").into_iter().find(|(_, p)| matches(p)) {
        return CallNote {
            topic: "http",
            text: format!(
                "over HTTP (/tools/invoke): refused, denied by \"{p}\" at gateway.tools.deny[{i}]"
            ),
            config_path: Some(format!("gateway.tools.deny[{i}]")),
        };
    }
    let default_denied = registry
        .semantics
        .gateway_http_deny
        .iter()
        .any(|d| d == tool);
    if default_denied {
        if let Some((i, _)) = list("allow").into_iter().find(|(_, p)| matches(p)) {
            return CallNote {
                topic: "http",
                text: format!(
                    "over HTTP (/tools/invoke): allowed by gateway.tools.allow[{i}] (owner callers; it is on the default HTTP deny list)"
                ),
                config_path: Some(format!("gateway.tools.allow[{i}]")),
            };
        }
        return CallNote {
            topic: "http",
            text: "over HTTP (/tools/invoke): refused by default (high-risk tool); gateway.tools.allow lifts it".to_string(),
            config_path: Some("gateway.tools.allow".to_string()),
        };
    }
    CallNote {
        topic: "http",
        text: "over HTTP (/tools/invoke): allowed when the session's policy shows it".to_string(),
        config_path: None,
    }
}

/// The form a turn's sender gives tool `name` (automations' management form, skill_workshop's
/// library), when it is not the tool's plain one.
pub(crate) fn form_note(
    semantics: &crate::semantics::Semantics,
    ctx: &crate::context::PolicyContext,
    owner: bool,
    name: &str,
) -> Option<CallNote> {
    use crate::semantics::{CONTROL_UI_ADMIN, WORKSPACE_LIBRARY};
    let management = semantics
        .automation_management
        .as_ref()
        .filter(|m| m.tool == name);
    let text = if management.is_some() {
        let who = match semantics.automation_management_grant(ctx, owner)? {
            CONTROL_UI_ADMIN => "a chat.send turn from the Control UI with operator.admin",
            _ => "a message from the channel owner commands.ownerAllowFrom names",
        };
        format!(
            "{who} may manage every automation on the gateway: {name} also takes on-exit \
             schedules, command jobs and a job's agentId"
        )
    } else if semantics
        .channel_variants
        .get(name)
        .is_some_and(|forms| forms.iter().any(|f| f.when_skill_library.is_some()))
    {
        let library = semantics.client_capabilities.skill_library(ctx)?;
        let whose = match library {
            WORKSPACE_LIBRARY => "the workspace's skill library (an operator with operator.admin)",
            _ => "the operator's personal skill library (no operator.admin)",
        };
        format!("the turn's gateway client authors in {whose}")
    } else {
        return None;
    };
    Some(CallNote {
        topic: "form",
        text,
        config_path: None,
    })
}
