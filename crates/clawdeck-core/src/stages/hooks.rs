//! before_tool_call hooks as external commands (seed 001 §4.2; OpenClaw's plugin hook semantics).
//!
//! Configured in clawdeck's settings (`hooks.beforeToolCall[]`: name, command argv, priority,
//! timeoutMs, tools). Each hook gets a JSON event on stdin and answers on stdout with
//! `{"block"?: bool, "blockReason"?: string, "params"?: object}` (empty stdout = no opinion).
//! Hooks run in priority order (higher first, config order among equals); the first block stops
//! the chain; `params` merge shallowly into the call's parameters (`{...params, ...hook.params}`)
//! and the next hook sees the merged ones. A hook that cannot start, exits non-zero, prints
//! something that is not that JSON, or runs past its timeout blocks the call (fail-closed).

use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::config::settings::HookCommand;
use crate::context::PolicyContext;
use crate::local_tools::external::{JsonCommand, run_json_command, tail};
use crate::process::KillReason;

/// OpenClaw's text for a hook that failed.
pub const HOOK_FAILED_REASON: &str = "Tool call blocked because before_tool_call hook failed";
/// OpenClaw's text for a block without a reason.
pub const DEFAULT_BLOCK_REASON: &str = "Tool call blocked by plugin hook";

/// What one hook did (for the console and `--json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum HookStep {
    /// No opinion, or parameters changed (`changed` lists the keys it set).
    Passed {
        hook: String,
        changed: Vec<String>,
    },
    Blocked {
        hook: String,
        reason: String,
    },
    /// Failed and therefore blocked; `detail` says how.
    Failed {
        hook: String,
        detail: String,
    },
    /// The hook's `tools` patterns do not match this tool.
    Skipped {
        hook: String,
    },
}

/// The chain's verdict.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum HookVerdict {
    /// Run the tool with these parameters.
    Proceed { params: Value, steps: Vec<HookStep> },
    /// Do not run it; `reason` is what the caller is told.
    Block {
        reason: String,
        steps: Vec<HookStep>,
    },
    /// The caller cancelled while a hook ran.
    Cancelled,
}

/// The event a hook reads on stdin.
pub(crate) fn hook_event(tool: &str, call_id: &str, params: &Value, ctx: &PolicyContext) -> Value {
    json!({
        "event": "before_tool_call",
        "toolName": tool,
        "toolCallId": call_id,
        "params": params,
        "context": {
            "agentId": ctx.agent,
            "sessionKey": ctx.session_key,
            "provider": ctx.provider,
            "model": ctx.model,
            "channel": ctx.channel,
            "senderId": ctx.sender_id,
            "sandboxed": ctx.sandboxed,
            "subagent": ctx.subagent,
        },
    })
}

/// `*` matches any run of characters; everything else literally (tool names are lowercase).
fn pattern_matches(pattern: &str, name: &str) -> bool {
    let pattern = pattern.trim().to_ascii_lowercase();
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let mut rest = name;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    true
}

fn applies(hook: &HookCommand, tool: &str) -> bool {
    hook.tools.is_empty() || hook.tools.iter().any(|p| pattern_matches(p, tool))
}

fn hook_label(hook: &HookCommand, index: usize) -> String {
    if hook.name.trim().is_empty() {
        format!("hook #{index}")
    } else {
        hook.name.clone()
    }
}

/// The hooks in the order they run: priority descending, config order among equals.
pub(crate) fn ordered(hooks: &[HookCommand]) -> Vec<(usize, &HookCommand)> {
    let mut list: Vec<(usize, &HookCommand)> = hooks.iter().enumerate().collect();
    list.sort_by(|a, b| b.1.priority.cmp(&a.1.priority).then(a.0.cmp(&b.0)));
    list
}

/// A hook's answer.
#[derive(Debug, Clone, PartialEq, Default)]
struct HookAnswer {
    block: bool,
    reason: Option<String>,
    params: Option<Map<String, Value>>,
}

fn parse_answer(stdout: &str) -> Result<HookAnswer, String> {
    let text = stdout.trim();
    if text.is_empty() {
        return Ok(HookAnswer::default());
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("stdout is not JSON ({e}): {}", tail(text, 200)))?;
    let Value::Object(map) = value else {
        return Err(format!("stdout is not a JSON object: {}", tail(text, 200)));
    };
    let block = match map.get("block") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("block must be a boolean, got {other}")),
    };
    let reason = match map.get("blockReason") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()).filter(|s| !s.trim().is_empty()),
        Some(other) => return Err(format!("blockReason must be a string, got {other}")),
    };
    let params = match map.get("params") {
        None | Some(Value::Null) => None,
        Some(Value::Object(p)) => Some(p.clone()),
        Some(other) => return Err(format!("params must be an object, got {other}")),
    };
    Ok(HookAnswer {
        block,
        reason,
        params,
    })
}

/// Why a hook gave no answer.
enum HookFailure {
    /// The caller cancelled while it ran.
    Cancelled,
    /// It could not start, timed out, failed or answered something unreadable.
    Failed(String),
}

/// Runs one hook on the event and reads its answer.
async fn ask_hook(
    hook: &HookCommand,
    event: &Value,
    cancel: &CancellationToken,
) -> Result<HookAnswer, HookFailure> {
    let command = JsonCommand {
        argv: hook.command.clone(),
        cwd: None,
        env: vec![("CLAWDECK_HOOK".to_string(), "before_tool_call".to_string())],
        timeout: Duration::from_millis(hook.timeout_ms.max(1)),
    };
    let outcome = run_json_command(&command, event, cancel)
        .await
        .map_err(|e| HookFailure::Failed(format!("could not start: {e}")))?;
    if outcome.killed_by == Some(KillReason::Cancelled) || cancel.is_cancelled() {
        return Err(HookFailure::Cancelled);
    }
    if outcome.timed_out {
        return Err(HookFailure::Failed(format!(
            "timed out after {} ms",
            hook.timeout_ms
        )));
    }
    if !outcome.success() {
        let stderr = tail(&outcome.output.stderr_text(), 300);
        return Err(HookFailure::Failed(format!(
            "{}{}",
            outcome.summary(),
            if stderr.is_empty() {
                String::new()
            } else {
                format!(": {stderr}")
            }
        )));
    }
    parse_answer(&outcome.output.stdout_text()).map_err(HookFailure::Failed)
}

/// The hook's parameter update over the call's parameters; the keys it set.
fn merge_params(params: Value, update: Map<String, Value>) -> (Value, Vec<String>) {
    let mut merged = match params {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let mut changed = Vec::new();
    for (key, value) in update {
        changed.push(key.clone());
        merged.insert(key, value);
    }
    (Value::Object(merged), changed)
}

/// Runs the chain for one call.
pub(crate) async fn run_before_tool_call(
    hooks: &[HookCommand],
    tool: &str,
    call_id: &str,
    params: Value,
    ctx: &PolicyContext,
    cancel: &CancellationToken,
) -> HookVerdict {
    let mut params = params;
    let mut steps = Vec::new();
    for (index, hook) in ordered(hooks) {
        let label = hook_label(hook, index);
        if !applies(hook, tool) {
            steps.push(HookStep::Skipped { hook: label });
            continue;
        }
        let event = hook_event(tool, call_id, &params, ctx);
        let answer = match ask_hook(hook, &event, cancel).await {
            Ok(answer) => answer,
            Err(HookFailure::Cancelled) => return HookVerdict::Cancelled,
            Err(HookFailure::Failed(detail)) => {
                tracing::warn!(hook = %label, tool, "before_tool_call hook failed: {detail}");
                steps.push(HookStep::Failed {
                    hook: label.clone(),
                    detail,
                });
                return HookVerdict::Block {
                    reason: HOOK_FAILED_REASON.to_string(),
                    steps,
                };
            }
        };
        if answer.block {
            let reason = answer
                .reason
                .unwrap_or_else(|| DEFAULT_BLOCK_REASON.to_string());
            steps.push(HookStep::Blocked {
                hook: label,
                reason: reason.clone(),
            });
            return HookVerdict::Block { reason, steps };
        }
        let mut changed = Vec::new();
        if let Some(update) = answer.params {
            (params, changed) = merge_params(params, update);
        }
        steps.push(HookStep::Passed {
            hook: label,
            changed,
        });
    }
    HookVerdict::Proceed { params, steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_use_star_only() {
        assert!(pattern_matches("exec", "exec"));
        assert!(pattern_matches("*", "anything"));
        assert!(pattern_matches("web_*", "web_fetch"));
        assert!(pattern_matches("*_get", "memory_get"));
        assert!(pattern_matches("s*s*t", "sessions_list"));
        assert!(!pattern_matches("web_*", "exec"));
        assert!(!pattern_matches("ex?c", "exec"));
    }

    #[test]
    fn answers_are_checked() {
        assert_eq!(parse_answer("").unwrap(), HookAnswer::default());
        let a = parse_answer(r#"{"block": true, "blockReason": "no"}"#).unwrap();
        assert!(a.block && a.reason.as_deref() == Some("no"));
        assert!(parse_answer("not json").is_err());
        assert!(parse_answer(r#"{"params": 3}"#).is_err());
        assert!(parse_answer(r#"[1]"#).is_err());
    }

    #[test]
    fn order_is_priority_then_config_order() {
        let h = |name: &str, priority: i64| HookCommand {
            name: name.into(),
            priority,
            ..Default::default()
        };
        let hooks = vec![h("a", 0), h("b", 10), h("c", 0), h("d", 10)];
        let names: Vec<&str> = ordered(&hooks)
            .iter()
            .map(|(_, h)| h.name.as_str())
            .collect();
        assert_eq!(names, vec!["b", "d", "a", "c"]);
    }
}
