//! What a call through the pipeline comes back as.

use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use crate::policy::ToolTrace;
use crate::stages::hooks::HookStep;
use crate::tool::ToolResult;

/// The end of one call. Only `Completed` ran the tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CallOutcome {
    /// No tool of that name in the catalog.
    UnknownTool { tool: String, message: String },
    /// The policy hides the tool in this context; `trace` is its path through the layers and
    /// `explanation` the rendered table.
    Refused {
        tool: String,
        trace: Box<ToolTrace>,
        explanation: String,
    },
    /// The parameters do not fit the schema; each problem names its path.
    InvalidParams { tool: String, problems: Vec<String> },
    /// A before_tool_call hook blocked the call (or failed, which blocks).
    Blocked {
        tool: String,
        reason: String,
        hooks: Vec<HookStep>,
    },
    /// The caller or the run cancelled (while queued or running), or the operator killed the
    /// call (`Deck::cancel_call`, the console's Queue view). Never an error result.
    Cancelled {
        tool: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        killed_by_operator: bool,
    },
    /// The tool ran (or failed while running); `is_error` from `details.status` or a thrown error.
    Completed {
        tool: String,
        result: ToolResult,
        is_error: bool,
        hooks: Vec<HookStep>,
        lane: String,
        #[serde(serialize_with = "millis")]
        duration: Duration,
    },
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

impl CallOutcome {
    pub fn tool(&self) -> &str {
        match self {
            CallOutcome::UnknownTool { tool, .. }
            | CallOutcome::Refused { tool, .. }
            | CallOutcome::InvalidParams { tool, .. }
            | CallOutcome::Blocked { tool, .. }
            | CallOutcome::Cancelled { tool, .. }
            | CallOutcome::Completed { tool, .. } => tool,
        }
    }

    /// One line for people.
    pub fn message(&self) -> String {
        match self {
            CallOutcome::UnknownTool { message, .. } => message.clone(),
            CallOutcome::Refused { tool, trace, .. } => match &trace.removed_by {
                Some(removal) => format!(
                    "{tool} is not available in this context: {}",
                    removal.reason
                ),
                None => format!("{tool} is not available in this context"),
            },
            CallOutcome::InvalidParams { tool, problems } => {
                format!("Invalid parameters for {tool}: {}", problems.join("; "))
            }
            CallOutcome::Blocked { reason, .. } => reason.clone(),
            CallOutcome::Cancelled {
                tool,
                killed_by_operator: true,
            } => format!("{tool}: killed by the operator"),
            CallOutcome::Cancelled { tool, .. } => format!("{tool}: cancelled"),
            CallOutcome::Completed { result, .. } => result.joined_text(),
        }
    }

    /// A `ToolResult`-shaped value for every outcome: the result itself when the tool ran, else
    /// a text block with the message and `details.status` naming what happened (`refused`,
    /// `blocked`, `invalid_params`, `unknown_tool`, `cancelled`).
    pub fn to_result_json(&self) -> Value {
        let text = |t: String| json!([{"type": "text", "text": t}]);
        match self {
            CallOutcome::Completed { result, .. } => {
                serde_json::to_value(result).unwrap_or(Value::Null)
            }
            CallOutcome::Refused { tool, trace, .. } => json!({
                "content": text(self.message()),
                "details": {"status": "refused", "tool": tool, "removed_by": trace.removed_by},
            }),
            CallOutcome::Blocked {
                tool,
                reason,
                hooks,
            } => json!({
                "content": text(reason.clone()),
                "details": {"status": "blocked", "tool": tool, "hooks": hooks},
            }),
            CallOutcome::InvalidParams { tool, problems } => json!({
                "content": text(self.message()),
                "details": {"status": "invalid_params", "tool": tool, "problems": problems},
            }),
            CallOutcome::UnknownTool { tool, message } => json!({
                "content": text(message.clone()),
                "details": {"status": "unknown_tool", "tool": tool},
            }),
            CallOutcome::Cancelled {
                tool,
                killed_by_operator,
            } => {
                let mut details = json!({"status": "cancelled", "tool": tool});
                if *killed_by_operator {
                    details["killedBy"] = json!("operator");
                }
                json!({"content": text(self.message()), "details": details})
            }
        }
    }
}
