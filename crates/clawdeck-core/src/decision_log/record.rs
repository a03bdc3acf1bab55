//! One decision: what was asked, by whom, in which context, what the pipeline decided and how
//! the call ended. The arguments are never kept, only their SHA-256.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::call_outcome::CallOutcome;
use crate::context::PolicyContext;
use crate::policy::ToolTrace;

/// What the pipeline decided before (or instead of) running the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// The policy shows the tool, the parameters fit and no hook blocked: the call went on.
    Shown,
    /// The policy hides the tool in this context.
    Refused,
    /// A before_tool_call hook blocked the call (or failed, which blocks).
    Blocked,
    /// The parameters do not fit the schema (before or after the hooks).
    InvalidParams,
    /// No tool of that name.
    UnknownTool,
}

impl DecisionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Shown => "shown",
            DecisionKind::Refused => "refused",
            DecisionKind::Blocked => "blocked",
            DecisionKind::InvalidParams => "invalid_params",
            DecisionKind::UnknownTool => "unknown_tool",
        }
    }
}

/// How a call that went on ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallEnd {
    Ok,
    Error,
    Cancelled,
    TimedOut,
}

impl CallEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            CallEnd::Ok => "ok",
            CallEnd::Error => "error",
            CallEnd::Cancelled => "cancelled",
            CallEnd::TimedOut => "timed_out",
        }
    }
}

/// The tool as asked for and as the catalog names it after aliases (`bash` → `exec`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolNames {
    pub requested: String,
    pub canonical: String,
}

/// The policy rule that decided: for a refusal the layer and config key that removed the tool
/// (what `clawdeck explain` names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecidingRule {
    /// The layer id (`global`, `agent`, `sandbox`, ...).
    pub layer: String,
    /// `denied` or `not_allowed`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// One line of the decision log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionRecord {
    /// Unique across processes: start time in ms, pid, per-process counter.
    pub id: String,
    /// When the call arrived, RFC 3339 UTC.
    pub time: String,
    /// Who called: an MCP client's name, `invoke`, `console`; null when nobody said.
    pub client: Option<String>,
    /// The policy context, without unset fields.
    pub context: Value,
    pub tool: ToolNames,
    /// SHA-256 (hex) of the arguments as canonical JSON (sorted keys, no spaces).
    pub args_sha256: String,
    pub decision: DecisionKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<DecidingRule>,
    /// Why the call did not go on (the hook's reason, the schema problems' count, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What each before_tool_call hook said (`passed`, `blocked`, `failed`, `skipped`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<Value>,
    /// How the call ended; absent when it never ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<CallEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    /// From arrival to outcome (policy, hooks, queue wait and execution).
    pub duration_ms: u64,
}

/// Headers of `DecisionRecord::columns`.
pub const COLUMNS: [&str; 7] = ["TIME", "CLIENT", "TOOL", "DECISION", "OUTCOME", "MS", "WHY"];

/// What the pipeline knew about the request when it answered.
pub struct CallFacts<'a> {
    pub client: Option<&'a str>,
    pub context: &'a PolicyContext,
    pub requested_tool: &'a str,
    pub params: &'a Value,
    pub started_at: SystemTime,
    pub duration: Duration,
}

impl DecisionRecord {
    /// The record of one answered call.
    pub fn from_call(facts: &CallFacts<'_>, outcome: &CallOutcome) -> DecisionRecord {
        let (decision, rule, reason, hooks, end, lane) = match outcome {
            CallOutcome::UnknownTool { message, .. } => (
                DecisionKind::UnknownTool,
                None,
                Some(message.clone()),
                Vec::new(),
                None,
                None,
            ),
            CallOutcome::Refused { trace, .. } => (
                DecisionKind::Refused,
                refusing_rule(trace),
                None,
                Vec::new(),
                None,
                None,
            ),
            CallOutcome::InvalidParams { problems, .. } => (
                DecisionKind::InvalidParams,
                None,
                // The problems can quote argument values: only their count is kept.
                Some(match problems.len() {
                    1 => "1 schema problem".to_string(),
                    n => format!("{n} schema problems"),
                }),
                Vec::new(),
                None,
                None,
            ),
            CallOutcome::Blocked { reason, hooks, .. } => (
                DecisionKind::Blocked,
                None,
                Some(reason.clone()),
                hook_values(hooks),
                None,
                None,
            ),
            CallOutcome::Cancelled {
                killed_by_operator, ..
            } => (
                DecisionKind::Shown,
                None,
                killed_by_operator.then(|| "killed by the operator".to_string()),
                Vec::new(),
                Some(CallEnd::Cancelled),
                None,
            ),
            CallOutcome::Completed {
                result,
                is_error,
                hooks,
                lane,
                ..
            } => {
                let status = result
                    .details
                    .get("status")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let end = if status == "timeout" {
                    CallEnd::TimedOut
                } else if *is_error {
                    CallEnd::Error
                } else {
                    CallEnd::Ok
                };
                (
                    DecisionKind::Shown,
                    None,
                    None,
                    hook_values(hooks),
                    Some(end),
                    Some(lane.clone()),
                )
            }
        };
        DecisionRecord {
            id: next_decision_id(facts.started_at),
            time: rfc3339(facts.started_at),
            client: facts.client.map(str::to_string),
            context: compact_context(facts.context),
            tool: ToolNames {
                requested: facts.requested_tool.to_string(),
                canonical: outcome.tool().to_string(),
            },
            args_sha256: args_sha256(facts.params),
            decision,
            rule,
            reason,
            hooks,
            outcome: end,
            lane,
            duration_ms: facts.duration.as_millis() as u64,
        }
    }

    /// The record as one JSON line, newline included.
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).unwrap_or_else(|err| {
            format!("{{\"id\":\"{}\",\"unserializable\":\"{err}\"}}", self.id)
        });
        line.push('\n');
        line
    }

    /// The cells of a one-line listing, under `COLUMNS`: plain text, one line each (names
    /// and reasons come from callers and are not trusted).
    pub fn columns(&self) -> [String; 7] {
        let one_line = |s: &str| {
            crate::sanitize::plain(s)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let tool = if self.tool.requested.trim() == self.tool.canonical {
            self.tool.canonical.clone()
        } else {
            format!("{}→{}", self.tool.requested.trim(), self.tool.canonical)
        };
        // `2026-11-24T23:40:10.123Z` → `2026-11-24 23:40:10`.
        let time = self
            .time
            .get(..19)
            .unwrap_or(&self.time)
            .replacen('T', " ", 1);
        [
            time,
            one_line(self.client.as_deref().unwrap_or("-")),
            one_line(&tool),
            self.decision.as_str().to_string(),
            self.end_label().to_string(),
            self.duration_ms.to_string(),
            one_line(&self.why()),
        ]
    }

    /// The outcome word, or `-` when the call never ran.
    pub(crate) fn end_label(&self) -> &'static str {
        match self.outcome {
            Some(end) => end.as_str(),
            None => "-",
        }
    }

    /// The layer and key that decided, or the reason, for a one-line listing.
    pub(crate) fn why(&self) -> String {
        if let Some(rule) = &self.rule {
            let key = rule
                .config_path
                .clone()
                .or_else(|| rule.builtin.clone())
                .or_else(|| rule.pattern.clone())
                .unwrap_or_default();
            return format!("{}: {key}", rule.layer)
                .trim_end_matches(": ")
                .to_string();
        }
        self.reason.clone().unwrap_or_default()
    }
}

fn hook_values(hooks: &[crate::stages::hooks::HookStep]) -> Vec<Value> {
    hooks
        .iter()
        .filter_map(|h| serde_json::to_value(h).ok())
        .collect()
}

/// The first layer that removed the tool, as `explain` names it.
fn refusing_rule(trace: &ToolTrace) -> Option<DecidingRule> {
    let removal = trace.removed_by.as_ref()?;
    Some(DecidingRule {
        layer: layer_name(&removal.layer),
        kind: serde_json::to_value(removal.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        pattern: removal.pattern.clone(),
        config_path: removal.config_path.clone(),
        builtin: removal.builtin.clone(),
        reason: removal.reason.clone(),
    })
}

fn layer_name(layer: &crate::policy::LayerId) -> String {
    serde_json::to_value(layer)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{layer:?}"))
}

/// The context as JSON without the fields nobody set: unset options, and the flags that are
/// off (`owner` is an option: `false` there was said, and is kept).
fn compact_context(ctx: &PolicyContext) -> Value {
    let mut value = serde_json::to_value(ctx).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.retain(|key, v| !(v.is_null() || (*v == Value::Bool(false) && key != "owner")));
    }
    value
}

/// SHA-256 hex of the canonical JSON: object keys sorted at every depth, no whitespace.
pub fn args_sha256(params: &Value) -> String {
    let mut canonical = String::new();
    write_canonical(params, &mut canonical);
    Sha256::digest(canonical.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// `d<ms since epoch>-<pid>-<n>`: sortable by time, unique across processes and within one.
fn next_decision_id(at: SystemTime) -> String {
    let ms = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis();
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    format!("d{ms}-{}-{n}", std::process::id())
}

/// RFC 3339 in UTC with milliseconds (`2026-11-24T23:40:10.123Z`).
pub fn rfc3339(at: SystemTime) -> String {
    let at = time::OffsetDateTime::from(at);
    let format = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    at.format(&format)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_hash_ignores_key_order_and_whitespace() {
        let a = args_sha256(&json!({"b": 1, "a": {"y": [1, 2], "x": "s"}}));
        let b =
            args_sha256(&serde_json::from_str(r#"{ "a": {"x":"s", "y":[1,2]}, "b":1 }"#).unwrap());
        assert_eq!(a, b);
        assert_eq!(a.len(), 64);
        assert_ne!(
            a,
            args_sha256(&json!({"b": 2, "a": {"y": [1, 2], "x": "s"}}))
        );
        // sha256("{}")
        assert_eq!(
            args_sha256(&json!({})),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }

    #[test]
    fn times_are_rfc3339_utc() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_795_563_610_123);
        assert_eq!(rfc3339(at), "2026-11-24T23:40:10.123Z");
    }

    #[test]
    fn ids_differ_within_one_millisecond() {
        let at = SystemTime::now();
        assert_ne!(next_decision_id(at), next_decision_id(at));
    }
}
