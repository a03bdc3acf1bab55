//! Plugin tools as external commands: the call's parameters as JSON on stdin, a `ToolResult`
//! JSON (`{"content": [...], "details": {...}}`) or plain text on stdout. The same supervisor,
//! timeout and kill rules as exec; exit status non-zero is a tool error with the stderr tail.

use serde_json::{Value, json};

use super::external::{JsonCommand, run_json_command, tail};
use crate::catalog::plugins::PluginToolCommand;
use crate::process::KillReason;
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub struct PluginTool {
    spec: ToolSpec,
    command: PluginToolCommand,
}

impl PluginTool {
    pub fn new(spec: ToolSpec, command: PluginToolCommand) -> Self {
        PluginTool { spec, command }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let name = &self.spec.name;
        let command = JsonCommand {
            argv: self.command.argv.clone(),
            cwd: Some(self.command.cwd.clone()),
            env: vec![
                ("CLAWDECK_TOOL_NAME".to_string(), name.clone()),
                ("CLAWDECK_CALL_ID".to_string(), call.call_id.clone()),
                (
                    "CLAWDECK_PLUGIN_ID".to_string(),
                    self.command.plugin_id.clone(),
                ),
            ],
            timeout: self.command.timeout,
        };
        let outcome = run_json_command(&command, &call.params, &call.cancel)
            .await
            .map_err(|e| ToolError::failed(format!("Plugin tool {name} could not start: {e}")))?;
        if outcome.killed_by == Some(KillReason::Cancelled) || call.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        if outcome.timed_out {
            let secs = self.command.timeout.as_secs_f64();
            let text = format!("Plugin tool {name} timed out after {secs} seconds.");
            return Ok(ToolResult::text(
                text,
                json!({"status": "timeout", "timeoutSeconds": secs}),
            ));
        }
        let stdout = outcome.output.stdout_text();
        if !outcome.success() {
            let stderr = tail(&outcome.output.stderr_text(), 2000);
            let detail = if stderr.is_empty() {
                tail(&stdout, 2000)
            } else {
                stderr
            };
            return Err(ToolError::failed(format!(
                "Plugin tool {name} failed ({}){}",
                outcome.summary(),
                if detail.is_empty() {
                    String::new()
                } else {
                    format!(": {detail}")
                }
            )));
        }
        if outcome.output.truncated() {
            return Ok(truncated_plugin_output(
                name,
                &stdout,
                outcome.output.stdout_bytes,
                outcome.output.dropped_bytes,
            ));
        }
        Ok(parse_plugin_output(&stdout))
    }
}

/// Output past the retention cap lost its beginning, so it cannot be a whole tool-result JSON:
/// say so, keep what is left as text, and say that any `details` it carried were dropped.
fn truncated_plugin_output(name: &str, kept: &str, total: u64, dropped: u64) -> ToolResult {
    ToolResult::text(
        format!(
            "[Plugin tool {name} wrote {total} bytes; the first {dropped} were dropped, so only the end is shown and any result details were lost.]\n{}",
            kept.trim()
        ),
        json!({
            "status": "completed",
            "truncated": true,
            "outputBytes": total,
            "droppedBytes": dropped,
            "detailsDropped": true,
        }),
    )
}

/// A `ToolResult` JSON when stdout is one, else the text itself.
pub(crate) fn parse_plugin_output(stdout: &str) -> ToolResult {
    let trimmed = stdout.trim();
    if trimmed.starts_with('{')
        && let Ok(value) = serde_json::from_str::<Value>(trimmed)
        && value.get("content").is_some_and(Value::is_array)
        && let Ok(result) = serde_json::from_value::<ToolResult>(value)
    {
        return result;
    }
    ToolResult::text(trimmed.to_string(), json!({"status": "completed"}))
}

impl Tool for PluginTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_results_pass_through_and_text_is_wrapped() {
        let r = parse_plugin_output(
            r#"{"content":[{"type":"text","text":"hi"}],"details":{"status":"error"}}"#,
        );
        assert_eq!(r.joined_text(), "hi");
        assert!(r.is_error());
        let r = parse_plugin_output("plain words\n");
        assert_eq!(r.joined_text(), "plain words");
        let r = parse_plugin_output(r#"{"answer": 42}"#);
        assert_eq!(r.joined_text(), r#"{"answer": 42}"#);
    }
}
