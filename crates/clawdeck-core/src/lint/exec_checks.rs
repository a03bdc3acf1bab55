//! Findings about exec that fail at 3 a.m.: settings for an exec the policy hides (#33871),
//! questions nobody can answer, `approvals.exec.enabled: false` read as "never ask", and host
//! approvals allowlist entries that can never match a command.

use serde_json::Value;

use super::{Finding, FindingKind, Severity};
use crate::config::{AgentInfo, LoadedConfig};
use crate::policy::{Removal, Resolution};

/// The exec findings of one context.
pub(super) fn check(
    cfg: &LoadedConfig,
    res: &Resolution,
    agent: Option<&AgentInfo>,
    findings: &mut Vec<Finding>,
) {
    match res.trace("exec") {
        Some(trace) if trace.visible => exec_approval_headless(cfg, res, agent, findings),
        Some(_) => exec_config_unused(res, agent, findings),
        None => {}
    }
}

/// `tools.exec.<key>` of the agent, else the global one, lowercased, with its path.
fn exec_setting(
    cfg: &LoadedConfig,
    agent: Option<&AgentInfo>,
    key: &str,
) -> Option<(String, String)> {
    let own = agent.and_then(|a| {
        let value = a.entry.tools.as_ref()?.exec.as_ref()?.get(key)?.as_str()?;
        Some((
            value.trim().to_lowercase(),
            a.path.key("tools").key("exec").key(key).to_string(),
        ))
    });
    own.or_else(|| {
        cfg.openclaw
            .tools
            .exec
            .as_ref()
            .and_then(|e| e.get(key))
            .and_then(Value::as_str)
            .map(|v| (v.trim().to_lowercase(), format!("tools.exec.{key}")))
    })
}

fn non_empty(block: &Value) -> bool {
    block.as_object().is_some_and(|o| !o.is_empty())
}

/// `tools.exec` is written for an agent whose exec the tool policy removes: the settings do
/// nothing, and the operator who tuned them expects exec to run (#33871: a profile without
/// exec). The agent's own block here; the global one in [`global_exec_config_unused`].
fn exec_config_unused(res: &Resolution, agent: Option<&AgentInfo>, findings: &mut Vec<Finding>) {
    let own = agent.and_then(|a| {
        let block = a.entry.tools.as_ref()?.exec.as_ref()?;
        non_empty(block).then(|| a.path.key("tools").key("exec").to_string())
    });
    let (Some(settings), Some(removal)) =
        (own, res.trace("exec").and_then(|t| t.removed_by.as_ref()))
    else {
        return;
    };
    findings.push(unused_finding(&settings, removal));
}

/// The global `tools.exec` when no linted context has exec: it configures nothing at all.
/// `removals`: each context's removal of exec (None where exec is visible).
pub(super) fn global_exec_config_unused(
    cfg: &LoadedConfig,
    removals: &[Option<Removal>],
) -> Option<Finding> {
    let block = cfg.openclaw.tools.exec.as_ref()?;
    if !non_empty(block) || removals.is_empty() || removals.iter().any(Option::is_none) {
        return None;
    }
    removals
        .iter()
        .flatten()
        .next()
        .map(|first| unused_finding("tools.exec", first))
}

fn unused_finding(settings: &str, removal: &Removal) -> Finding {
    let at = removal
        .config_path
        .as_deref()
        .map(|p| format!(" ({p})"))
        .unwrap_or_default();
    Finding::new(
        Severity::Warning,
        FindingKind::ExecConfigUnused,
        format!(
            "{settings} is configured, but exec is not among the agent's tools: removed at the {} layer{at}: {}. The exec settings do nothing here; allow exec (e.g. tools.alsoAllow: [\"exec\"] beside a profile) or remove {settings}",
            removal.layer, removal.reason
        ),
        removal.config_path.clone().or(Some(settings.to_string())),
    )
}

fn exec_approval_headless(
    cfg: &LoadedConfig,
    res: &Resolution,
    agent: Option<&AgentInfo>,
    findings: &mut Vec<Finding>,
) {
    let setting = |key| exec_setting(cfg, agent, key);
    let denied = |s: &Option<(String, String)>| s.as_ref().is_some_and(|(v, _)| v == "deny");
    if denied(&setting("mode")) || denied(&setting("security")) {
        return;
    }
    let asks = match (setting("ask"), setting("mode")) {
        (Some((ask, path)), _) if ask == "always" || ask == "on-miss" => (ask, path),
        (_, Some((mode, path))) if mode == "ask" || mode == "auto" => (mode, path),
        _ => return,
    };
    // Inside the sandbox exec is not a host exec: host approvals do not apply.
    let host = setting("host").map(|(h, _)| h);
    let in_sandbox = match host.as_deref() {
        Some("sandbox") => true,
        None | Some("auto") => res.resolved.sandboxed,
        _ => false,
    };
    if in_sandbox {
        return;
    }
    let forwarding = cfg
        .raw
        .pointer("/approvals/exec/enabled")
        .and_then(Value::as_bool);
    let (value, path) = asks;
    match forwarding {
        Some(true) => {}
        Some(false) => findings.push(Finding::new(
            Severity::Warning,
            FindingKind::ExecApprovalSwitches,
            format!(
                "approvals.exec.enabled is false, but exec still asks ({path} = \"{value}\"): that switch only stops forwarding questions to chat channels, it does not turn them off. A question is still raised, waits for the Control UI or an app, and a headless run settles it by askFallback (default deny). To stop asking, set {path} to \"off\" (with security \"allowlist\" or \"full\")"
            ),
            Some("approvals.exec.enabled".to_string()),
        )),
        None => {
            let what = match value.as_str() {
                "always" => "every call asks for approval",
                "on-miss" | "ask" => "calls that miss the exec allowlist ask for approval",
                _ => "calls the reviewer cannot settle ask a human",
            };
            findings.push(Finding::new(
                Severity::Warning,
                FindingKind::ExecApprovalHeadless,
                format!(
                    "exec is visible and {what} ({path} = \"{value}\"), but no approval surface is configured: a headless run (automations, `openclaw agent`, no Control UI or companion app connected) settles the prompt by askFallback (default deny), so those calls fail. Set approvals.exec.enabled: true with approvals.exec.targets to answer with /approve in a chat, keep the Control UI or a companion app connected, set an askFallback (`openclaw exec-policy set --ask-fallback allowlist`), or relax {path}"
                ),
                Some(path),
            ));
        }
    }
}

/// Shell builtins: they run inside the shell, never as an executable an entry could match
/// (`cd` and friends pass as safe builtins without an entry; the others always miss).
const BUILTINS: &[&str] = &[
    "alias", "bg", "bind", "builtin", "cd", "command", "declare", "eval", "exec", "exit", "export",
    "fg", "hash", "jobs", "let", "local", "popd", "pushd", "read", "readonly", "set", "shift",
    "source", "trap", "type", "ulimit", "umask", "unalias", "unset", "wait",
];

/// Why an allowlist pattern can never match a command segment, if it cannot.
fn never_matches(pattern: &str) -> Option<String> {
    let trimmed = pattern.trim();
    for op in ["&&", "||", ";", "|", "$(", "`", ">", "<"] {
        if trimmed.contains(op) {
            return Some(format!(
                "it holds `{op}`: OpenClaw splits a command line at operators and matches each segment's executable on its own, so a whole command line never matches; write one entry per executable"
            ));
        }
    }
    let first = trimmed.split_whitespace().next().unwrap_or_default();
    if BUILTINS.contains(&first) {
        return Some(format!(
            "`{first}` is a shell builtin, not an executable: no segment ever resolves to it{}",
            if ["cd", "pushd", "popd"].contains(&first) {
                " (a lone `cd` passes as a safe builtin without an entry)"
            } else {
                " (a chain that uses it is denied or asks whatever the allowlist says)"
            }
        ));
    }
    if trimmed.contains(char::is_whitespace) && !first.contains('/') {
        let rest = trimmed[first.len()..].trim();
        return Some(format!(
            "a pattern matches the executable (its name or path), not its arguments: write `{first}` and put `{rest}` in argPattern"
        ));
    }
    None
}

/// Entries of the host approvals document (`origin`: where it was read) that can never match.
pub fn approvals_doc_findings(doc: &Value, origin: &str) -> Vec<Finding> {
    let Some(agents) = doc.get("agents").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut findings = Vec::new();
    for (agent, scope) in agents {
        let Some(list) = scope.get("allowlist").and_then(Value::as_array) else {
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let pattern = match entry {
                Value::String(p) => p.as_str(),
                other => other.get("pattern").and_then(Value::as_str).unwrap_or(""),
            };
            let Some(why) = never_matches(pattern) else {
                continue;
            };
            let key = format!("agents.{}.allowlist[{i}]", quoted(agent));
            findings.push(Finding::new(
                Severity::Warning,
                FindingKind::ExecAllowlistNeverMatches,
                format!("the approvals entry \"{pattern}\" ({origin}) never matches: {why}"),
                Some(format!("{origin} {key}")),
            ));
        }
    }
    findings
}

/// An agent id as a key path segment (`"*"` quoted).
fn quoted(agent: &str) -> String {
    if agent
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        agent.to_string()
    } else {
        format!("\"{agent}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_that_can_never_match_say_why() {
        assert!(never_matches("git status && npm test").is_some_and(|w| w.contains("`&&`")));
        assert!(never_matches("export").is_some_and(|w| w.contains("builtin")));
        assert!(never_matches("cd").is_some_and(|w| w.contains("safe builtin")));
        assert!(never_matches("git status").is_some_and(|w| w.contains("argPattern")));
        for fine in ["git", "/usr/bin/ls", "~/bin/*", "/opt/My App/bin/x"] {
            assert_eq!(never_matches(fine), None, "{fine}");
        }
    }

    #[test]
    fn the_document_findings_name_the_entry() {
        let doc = serde_json::json!({ "agents": {
            "*": { "allowlist": ["git status && npm test"] },
            "ops": { "allowlist": [{ "pattern": "/usr/bin/ls" }, { "pattern": "export" }] },
        } });
        let found = approvals_doc_findings(&doc, "approvals.json5");
        let keys: Vec<&str> = found
            .iter()
            .filter_map(|f| f.config_path.as_deref())
            .collect();
        assert_eq!(
            keys,
            [
                "approvals.json5 agents.\"*\".allowlist[0]",
                "approvals.json5 agents.ops.allowlist[1]"
            ]
        );
        assert!(
            found
                .iter()
                .all(|f| f.kind == FindingKind::ExecAllowlistNeverMatches)
        );
    }
}
