//! Output cleaning (seed 000 §5, `router.output = "clean"`): the final answer, the remote tool
//! calls seen and the remote errors, ANSI-stripped. The raw output is never replaced; this is an
//! extra view in details. Nothing here is executed: tool calls are only reported.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The cleaned view of one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CleanOutput {
    /// The remote agent's final natural-language answer.
    pub answer: String,
    /// Tool calls the remote agent reported (never run here).
    pub tool_calls: Vec<RemoteToolCall>,
    /// Remote error lines (`memory read failed`, `browser failed`, `Unknown channel`, ...).
    pub errors: Vec<String>,
}

/// One tool call seen in the output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteToolCall {
    pub name: String,
    /// `arguments` / `parameters` / `args` when present.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub arguments: Value,
    /// `marker` (between FunctionCallBegin/End) or `json` (a bare JSON line).
    pub source: String,
}

/// The visible text only: every escape sequence (CSI, OSC, DCS, APC, PM, SOS, C1) and control
/// byte other than newline and tab removed, through the one sanitizer (`crate::sanitize`).
pub fn strip_ansi(text: &str) -> String {
    crate::sanitize::plain(text)
}

const ERROR_PATTERNS: &[&str] = &[
    "failed",
    "error:",
    "error ",
    "unknown channel",
    "unknown agent",
    "exception",
    "timed out",
    "not found",
    "refused",
    "denied",
];

fn is_error_line(line: &str) -> bool {
    let lower = line.to_lowercase();
    ERROR_PATTERNS.iter().any(|p| lower.contains(p))
}

/// A `{"name": ...}` / `{"tool": ...}` object (or an array of them) as tool calls.
fn tool_calls_in_json(value: &Value, source: &str) -> Vec<RemoteToolCall> {
    match value {
        Value::Array(items) => items
            .iter()
            .flat_map(|v| tool_calls_in_json(v, source))
            .collect(),
        Value::Object(map) => {
            // OpenAI-style `{"function": {"name", "arguments"}}` or flat `{"name", ...}`.
            let inner = map
                .get("function")
                .filter(|f| f.is_object())
                .unwrap_or(value);
            // `{"tool": ..., "args": ...}` is the /tools/invoke shape.
            let name = inner
                .get("name")
                .or_else(|| inner.get("tool"))
                .and_then(Value::as_str);
            match name {
                Some(name) => {
                    let arguments = ["arguments", "parameters", "args", "input"]
                        .iter()
                        .find_map(|k| inner.get(*k))
                        .cloned()
                        .unwrap_or(Value::Null);
                    vec![RemoteToolCall {
                        name: name.to_string(),
                        arguments,
                        source: source.to_string(),
                    }]
                }
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// The answer from the CLI's `--json` output: `{payloads:[{text}]}` or the gateway's
/// `{result:{payloads:[...]}}`.
fn answer_from_cli_json(stdout: &str) -> Option<String> {
    let value: Value = serde_json::from_str(stdout.trim()).ok()?;
    let payloads = value
        .get("payloads")
        .or_else(|| value.get("result").and_then(|r| r.get("payloads")))?;
    Some(clawdeck_core::content::blocks_text(
        payloads.as_array()?,
        "\n",
    ))
}

/// Cleans one run's output. `stdout` and `stderr` are the per-stream texts (the answer comes
/// from stdout only); diagnostics on stderr only contribute errors.
pub fn clean(stdout: &str, stderr: &str) -> CleanOutput {
    let stdout = strip_ansi(stdout);
    let stderr = strip_ansi(stderr);
    let mut out = CleanOutput::default();

    if let Some(answer) = answer_from_cli_json(&stdout) {
        out.answer = answer.trim().to_string();
    } else {
        let mut answer_lines: Vec<&str> = Vec::new();
        let mut in_marker = false;
        let mut marker_body = String::new();
        for line in stdout.lines() {
            let trimmed = line.trim();
            if let Some(idx) = trimmed.find("FunctionCallBegin") {
                in_marker = true;
                marker_body.clear();
                marker_body.push_str(&trimmed[idx + "FunctionCallBegin".len()..]);
                // Begin and End on one line.
                if let Some(end) = marker_body.find("FunctionCallEnd") {
                    marker_body.truncate(end);
                    in_marker = false;
                    push_marker_calls(&mut out, &marker_body);
                }
                continue;
            }
            if in_marker {
                if let Some(end) = trimmed.find("FunctionCallEnd") {
                    marker_body.push('\n');
                    marker_body.push_str(&trimmed[..end]);
                    in_marker = false;
                    push_marker_calls(&mut out, &marker_body);
                } else {
                    marker_body.push('\n');
                    marker_body.push_str(trimmed);
                }
                continue;
            }
            if (trimmed.starts_with('{') || trimmed.starts_with('['))
                && let Ok(value) = serde_json::from_str::<Value>(trimmed)
            {
                let calls = tool_calls_in_json(&value, "json");
                if !calls.is_empty() {
                    out.tool_calls.extend(calls);
                    continue;
                }
            }
            if is_error_line(trimmed) {
                out.errors.push(trimmed.to_string());
                continue;
            }
            answer_lines.push(line);
        }
        if in_marker {
            push_marker_calls(&mut out, &marker_body);
        }
        out.answer = answer_lines.join("\n").trim().to_string();
    }

    for line in stderr.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if is_error_line(line) {
            out.errors.push(line.to_string());
        }
    }
    out
}

fn push_marker_calls(out: &mut CleanOutput, body: &str) {
    let body = body.trim();
    if body.is_empty() {
        return;
    }
    match serde_json::from_str::<Value>(body) {
        Ok(value) => {
            let calls = tool_calls_in_json(&value, "marker");
            if calls.is_empty() {
                out.tool_calls.push(RemoteToolCall {
                    name: String::new(),
                    arguments: value,
                    source: "marker".into(),
                });
            } else {
                out.tool_calls.extend(calls);
            }
        }
        // One JSON object per line inside the marker block.
        Err(_) => {
            for line in body.lines() {
                if let Ok(value) = serde_json::from_str::<Value>(line.trim()) {
                    out.tool_calls.extend(tool_calls_in_json(&value, "marker"));
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_ansi_and_controls() {
        assert_eq!(
            strip_ansi("\u{1b}[31m[agent]\u{1b}[0m ok\r\n\u{1b}]0;title\u{7}x\u{8}"),
            "[agent] ok\nx"
        );
    }

    #[test]
    fn dcs_apc_pm_and_sos_payloads_do_not_reach_the_reader() {
        let c = clean(
            "before\u{1b}Pq#0;2;0;0;0SECRET-DCS\u{1b}\\ \u{1b}_APC-PAYLOAD\u{1b}\\ \u{1b}^PM\u{1b}\\ \u{1b}XSOS\u{1b}\\ \u{90}C1-DCS\u{9c}after\n",
            "",
        );
        assert_eq!(c.answer, "before    after");
    }

    #[test]
    fn separates_answer_tool_calls_and_errors() {
        let stdout = "FunctionCallBegin\n[{\"name\":\"memory_search\",\"parameters\":{\"query\":\"logs\"}}]\nFunctionCallEnd\n\
{\"name\":\"browser\",\"arguments\":{\"url\":\"http://x\"}}\nmemory read failed: ENOENT\n最近日志的两条要点：\n1. 磁盘告警\n";
        let stderr = "\u{1b}[33m[channels]\u{1b}[0m Unknown channel: foo\n[agent] run started\n";
        let c = clean(stdout, stderr);
        assert_eq!(c.answer, "最近日志的两条要点：\n1. 磁盘告警");
        assert_eq!(c.tool_calls.len(), 2);
        assert_eq!(c.tool_calls[0].name, "memory_search");
        assert_eq!(c.tool_calls[0].arguments, json!({"query": "logs"}));
        assert_eq!(c.tool_calls[0].source, "marker");
        assert_eq!(c.tool_calls[1].name, "browser");
        assert_eq!(c.tool_calls[1].source, "json");
        assert_eq!(
            c.errors,
            vec![
                "memory read failed: ENOENT",
                "[channels] Unknown channel: foo"
            ]
        );
    }

    #[test]
    fn reads_cli_json_payloads() {
        let c = clean(
            "{\"payloads\":[{\"text\":\"hello\"},{\"text\":\"world\"}],\"meta\":{}}",
            "",
        );
        assert_eq!(c.answer, "hello\nworld");
        let c = clean(
            "{\"runId\":\"r\",\"status\":\"ok\",\"result\":{\"payloads\":[{\"text\":\"gw\"}]}}",
            "",
        );
        assert_eq!(c.answer, "gw");
    }

    #[test]
    fn single_line_marker() {
        let c = clean(
            "FunctionCallBegin{\"name\":\"sessions_list\"}FunctionCallEnd\ndone",
            "",
        );
        assert_eq!(c.tool_calls[0].name, "sessions_list");
        assert_eq!(c.answer, "done");
    }
}
