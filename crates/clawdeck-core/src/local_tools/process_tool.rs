//! `process`: follow up on background exec sessions (list, poll, log, write, kill, clear,
//! remove), with OpenClaw's texts. Failures come back as results with `status: "error"` (OpenClaw
//! says `failed`, which its own error detection does not count; the seed's detection needs `error`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use super::exec::{TAIL_CHARS, aggregated_output, millis_since_epoch, tail_chars};
use super::sessions::{ExecSession, ExecSessions};
use crate::process::{ExitKind, KillReason, ProcessOutcome};
use crate::tool::params::{ReadOptions, read_bool, read_integer, read_number, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

/// Longest a poll waits for output (OpenClaw: 120000 ms).
pub(crate) const MAX_POLL_WAIT_MS: u64 = 120_000;
/// Lines `log` shows without offset/limit.
pub(crate) const DEFAULT_LOG_LINES: usize = 200;

pub struct ProcessTool {
    spec: ToolSpec,
    sessions: ExecSessions,
}

fn fail(text: impl Into<String>) -> ToolResult {
    let text = text.into();
    ToolResult::text(text.clone(), json!({"status": "error", "error": text}))
}

/// `code 2` / `signal SIGTERM` / `unknown exit code`.
fn exit_label(exit: &ExitKind) -> String {
    match exit {
        ExitKind::Code { code } => format!("code {code}"),
        ExitKind::Signal { name, .. } => format!("signal {name}"),
        ExitKind::Unknown => "unknown exit code".to_string(),
    }
}

fn status_of(outcome: Option<&ProcessOutcome>) -> &'static str {
    match outcome {
        None => "running",
        Some(o) if o.timed_out => "timeout",
        Some(o) if o.killed_by.is_some() => "killed",
        Some(o) if o.exit == (ExitKind::Code { code: 0 }) => "completed",
        Some(_) => "failed",
    }
}

fn ended_note(outcome: &ProcessOutcome) -> String {
    if outcome.timed_out {
        format!("\n\nProcess timed out ({}).", exit_label(&outcome.exit))
    } else if outcome.killed_by == Some(KillReason::User) {
        format!(
            "\n\nProcess stopped by request ({}).",
            exit_label(&outcome.exit)
        )
    } else {
        format!("\n\nProcess exited with {}.", exit_label(&outcome.exit))
    }
}

impl ProcessTool {
    pub fn new(spec: ToolSpec, sessions: ExecSessions) -> Self {
        ProcessTool { spec, sessions }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let params = &call.params;
        let action = read_string(params, "action", ReadOptions::required())?.unwrap_or_default();
        if action == "list" {
            return Ok(self.list());
        }
        let Some(id) = read_string(params, "sessionId", ReadOptions::default())? else {
            return Ok(fail("sessionId is required for this action."));
        };
        let session = self.sessions.get(&id);
        match action.as_str() {
            "poll" => {
                let Some(session) = session.filter(|s| s.is_backgrounded()) else {
                    return Ok(fail(format!("No session found for {id}")));
                };
                let wait_ms = read_number(params, "timeout", false, false)?
                    .unwrap_or(0.0)
                    .clamp(0.0, MAX_POLL_WAIT_MS as f64) as u64;
                poll(&session, Duration::from_millis(wait_ms), &call).await
            }
            "log" => {
                let Some(session) = session.filter(|s| s.is_backgrounded()) else {
                    return Ok(fail(format!("No session found for {id}")));
                };
                let offset = read_integer(params, "offset", false)?;
                let limit = read_integer(params, "limit", false)?;
                Ok(log(&session, offset, limit))
            }
            "write" | "submit" | "send-keys" | "paste" => {
                let Some(session) = session.filter(|s| s.is_backgrounded()) else {
                    return Ok(fail(format!("No session found for {id}")));
                };
                let exact = ReadOptions::default().untrimmed().allow_empty();
                let eof = read_bool(params, "eof").unwrap_or(false);
                let (data, done) = match action.as_str() {
                    "write" => {
                        let data = read_string(params, "data", exact)?.unwrap_or_default();
                        let text = format!(
                            "Wrote {} bytes to session {id}{}.",
                            data.len(),
                            if eof { " (stdin closed)" } else { "" }
                        );
                        (data, text)
                    }
                    "submit" => (
                        "\r".to_string(),
                        format!("Submitted session {id} (sent CR)."),
                    ),
                    "send-keys" => match keys_input(params, &id) {
                        Ok(input) => input,
                        Err(failed) => return Ok(failed),
                    },
                    _ => {
                        let text = read_string(params, "text", exact)?
                            .or(read_string(params, "data", exact)?)
                            .unwrap_or_default();
                        if text.is_empty() {
                            return Ok(fail("No paste text provided."));
                        }
                        let done =
                            format!("Pasted {} chars to session {id}.", text.chars().count());
                        (text, done)
                    }
                };
                Ok(write(&session, &data, eof, done).await)
            }
            "kill" | "clear" | "remove" => Ok(self.end_session(&action, &id, session)),
            other => Ok(fail(format!("Unknown action {other}"))),
        }
    }

    /// `kill` stops a running session, `clear` forgets a finished one, `remove` does both.
    fn end_session(&self, action: &str, id: &str, session: Option<Arc<ExecSession>>) -> ToolResult {
        let done =
            |text: String| ToolResult::text(text, json!({"status": "completed", "sessionId": id}));
        match action {
            "kill" => match session.filter(|s| s.is_backgrounded() && s.outcome().is_none()) {
                Some(session) => {
                    session.process().kill(KillReason::User);
                    done(format!("Termination requested for session {id}."))
                }
                None => fail(format!("No active session found for {id}")),
            },
            "clear" => match session.filter(|s| s.is_backgrounded() && s.outcome().is_some()) {
                Some(_) => {
                    self.sessions.remove(id);
                    done(format!("Cleared session {id}."))
                }
                None => fail(format!("No finished session found for {id}")),
            },
            "remove" => match session.filter(|s| s.is_backgrounded()) {
                Some(session) if session.outcome().is_none() => {
                    session.process().kill(KillReason::User);
                    self.sessions.remove(id);
                    done(format!("Removed session {id} (termination requested)."))
                }
                Some(_) => {
                    self.sessions.remove(id);
                    done(format!("Removed session {id}."))
                }
                None => fail(format!("No session found for {id}")),
            },
            other => fail(format!("Unknown action {other}")),
        }
    }

    fn list(&self) -> ToolResult {
        let sessions = self.sessions.list();
        let mut lines = Vec::new();
        let mut details = Vec::new();
        for s in &sessions {
            let outcome = s.outcome();
            let status = status_of(outcome.as_ref());
            let runtime = match &outcome {
                Some(o) => o.duration,
                None => s.started_at.elapsed().unwrap_or_default(),
            };
            let (aggregated, truncated) = aggregated_output(&s.process().output_snapshot());
            lines.push(format!(
                "{} {:<9} {} :: {}",
                s.id,
                status,
                crate::process::format_duration(runtime),
                s.command
            ));
            details.push(json!({
                "sessionId": s.id,
                "status": status,
                "pid": s.pid(),
                "startedAt": millis_since_epoch(s.started_at),
                "runtimeMs": runtime.as_millis() as u64,
                "cwd": s.cwd.display().to_string(),
                "command": s.command,
                "tail": tail_chars(&aggregated, TAIL_CHARS),
                "truncated": truncated,
                "exitCode": outcome.as_ref().and_then(|o| o.exit.code()),
            }));
        }
        let text = if lines.is_empty() {
            "No running or recent sessions.".to_string()
        } else {
            lines.join("\n")
        };
        ToolResult::text(text, json!({"status": "completed", "sessions": details}))
    }
}

/// New output since the last poll; waits up to `wait` for some (or for the exit).
async fn poll(
    session: &Arc<ExecSession>,
    wait: Duration,
    call: &ToolCall,
) -> Result<ToolResult, ToolError> {
    let cursor = session.poll_cursor();
    if !wait.is_zero() && session.outcome().is_none() {
        // Subscribe before checking, so output arriving in between is not missed.
        let mut chunks = session.process().subscribe();
        let deadline = tokio::time::Instant::now() + wait;
        let mut chunks_open = true;
        // A chunk may hold only part of a line (a prompt, a progress update); poll reports
        // retained lines, so it waits on until a line is complete (or the time is up).
        while session.process().next_line_number() <= cursor {
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => break,
                received = chunks.recv(), if chunks_open => match received {
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    // The pipes closed; the exit is reported by wait() below.
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => chunks_open = false,
                },
                _ = session.process().wait() => break,
                _ = call.cancel.cancelled() => return Err(ToolError::Cancelled),
            }
        }
    }
    let outcome = session.outcome();
    let fresh = session.process().output_since(cursor);
    let next = fresh
        .lines
        .last()
        .map(|l| l.number + 1)
        .unwrap_or(cursor)
        .max(cursor);
    session.set_poll_cursor(next);
    let skipped = fresh.lines.first().is_some_and(|l| l.number > cursor);
    let note = if skipped {
        "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]\n\n"
    } else {
        ""
    };
    let output = fresh.combined_text();
    let output = output.trim();
    let body = if output.is_empty() {
        "(no new output)"
    } else {
        output
    };
    let id = &session.id;
    match outcome {
        Some(outcome) => {
            let (aggregated, _) = aggregated_output(&outcome.output);
            Ok(ToolResult::text(
                format!("{note}{body}{}", ended_note(&outcome)),
                json!({
                    "status": status_of(Some(&outcome)),
                    "sessionId": id,
                    "exitCode": outcome.exit.code(),
                    "exitSignal": outcome.exit.signal_name(),
                    "timedOut": outcome.timed_out,
                    "durationMs": outcome.duration.as_millis() as u64,
                    "aggregated": aggregated,
                }),
            ))
        }
        None => {
            let (aggregated, _) = aggregated_output(&session.process().output_snapshot());
            Ok(ToolResult::text(
                format!("{note}{body}\n\nProcess still running."),
                json!({"status": "running", "sessionId": id, "aggregated": aggregated}),
            ))
        }
    }
}

/// Lines of the retained output; `offset` is 0-based, the default is the last 200 lines.
fn log(session: &ExecSession, offset: Option<i64>, limit: Option<i64>) -> ToolResult {
    let outcome = session.outcome();
    let retained = match &outcome {
        Some(o) => o.output.clone(),
        None => session.process().output_snapshot(),
    };
    let (aggregated, truncated) = aggregated_output(&retained);
    let lines: Vec<&str> = if aggregated.is_empty() {
        Vec::new()
    } else {
        aggregated.split('\n').collect()
    };
    let total = lines.len();
    let default_tail = offset.is_none() && limit.is_none();
    let (start, count) = if default_tail {
        (total.saturating_sub(DEFAULT_LOG_LINES), DEFAULT_LOG_LINES)
    } else {
        let start = offset.unwrap_or(0).max(0) as usize;
        let count = limit.map(|l| l.max(0) as usize).unwrap_or(usize::MAX);
        (start.min(total), count)
    };
    let slice = lines
        .iter()
        .skip(start)
        .take(count)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    let mut text = String::new();
    if truncated {
        text.push_str(super::exec::RETENTION_CAP_NOTE);
    }
    if slice.is_empty() {
        text.push_str(if outcome.is_some() {
            "(no output recorded)"
        } else {
            "(no output yet)"
        });
    } else {
        text.push_str(&slice);
    }
    if default_tail && total > DEFAULT_LOG_LINES {
        text.push_str(&format!("\n\n[showing the last {DEFAULT_LOG_LINES} of {total} lines; pass offset and limit to see more]"));
    }
    if let Some(o) = &outcome {
        text.push_str(&ended_note(o));
    }
    ToolResult::text(
        text,
        json!({
            "status": status_of(outcome.as_ref()),
            "sessionId": session.id,
            "totalLines": total,
            "totalChars": aggregated.chars().count(),
            "truncated": truncated,
        }),
    )
}

/// The bytes a terminal sends for a key name (`Enter`, `Tab`, `Escape`, `C-c`, `Up`, ...); a
/// single character stands for itself. Sessions have a pipe, not a terminal: these are the
/// bytes only, there is no line discipline turning C-c into SIGINT.
pub(crate) fn key_bytes(name: &str) -> Option<String> {
    let named = match name.to_ascii_lowercase().as_str() {
        "enter" | "return" | "cr" => Some("\r"),
        "lf" | "newline" => Some("\n"),
        "tab" => Some("\t"),
        "escape" | "esc" => Some("\x1b"),
        "space" => Some(" "),
        "backspace" | "bs" => Some("\x7f"),
        "up" => Some("\x1b[A"),
        "down" => Some("\x1b[B"),
        "right" => Some("\x1b[C"),
        "left" => Some("\x1b[D"),
        "home" => Some("\x1b[H"),
        "end" => Some("\x1b[F"),
        "delete" | "del" => Some("\x1b[3~"),
        _ => None,
    };
    if let Some(bytes) = named {
        return Some(bytes.to_string());
    }
    let lower = name.to_ascii_lowercase();
    if let Some(rest) = lower
        .strip_prefix("c-")
        .or_else(|| lower.strip_prefix("ctrl-"))
    {
        let mut chars = rest.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && (c.is_ascii_alphabetic() || "@[\\]^_".contains(c))
        {
            return Some(((c.to_ascii_uppercase() as u8 & 0x1f) as char).to_string());
        }
        return None;
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c.to_string()),
        _ => None,
    }
}

async fn write(session: &ExecSession, data: &str, eof: bool, done: String) -> ToolResult {
    let id = &session.id;
    if session.outcome().is_some() {
        return fail(format!("Session {id} has exited; its stdin is closed."));
    }
    if !session.stdin_piped() {
        return fail(format!(
            "Session {id} stdin is not writable. Only sessions started with exec background=true get a stdin pipe; this one reads /dev/null."
        ));
    }
    let mut guard = session.stdin().lock().await;
    let Some(stdin) = guard.as_mut() else {
        return fail(format!(
            "Session {id} stdin is not writable (it was closed with eof)."
        ));
    };
    if let Err(e) = stdin
        .write_all(data.as_bytes())
        .await
        .and(stdin.flush().await)
    {
        return fail(format!("Session {id}: writing stdin failed: {e}"));
    }
    if eof {
        *guard = None;
    }
    let details: Value =
        json!({"status": "running", "sessionId": id, "bytes": data.len(), "eof": eof});
    ToolResult::text(done, details)
}

impl Tool for ProcessTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

/// The bytes for `send-keys`' `keys` and the note saying so, or the failure to return.
fn keys_input(params: &Value, id: &str) -> Result<(String, String), ToolResult> {
    let keys = params
        .get("keys")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let names: Vec<String> = keys
        .iter()
        .filter_map(|k| k.as_str().map(str::to_string))
        .collect();
    if names.is_empty() {
        return Err(fail("No keys provided."));
    }
    let mut data = String::new();
    for name in &names {
        match key_bytes(name) {
            Some(bytes) => data.push_str(&bytes),
            None => return Err(fail(format!("Unknown key {name}"))),
        }
    }
    Ok((
        data,
        format!("Sent {} key(s) to session {id}.", names.len()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_become_terminal_bytes() {
        assert_eq!(key_bytes("Enter").as_deref(), Some("\r"));
        assert_eq!(key_bytes("C-c").as_deref(), Some("\u{3}"));
        assert_eq!(key_bytes("ctrl-D").as_deref(), Some("\u{4}"));
        assert_eq!(key_bytes("Up").as_deref(), Some("\x1b[A"));
        assert_eq!(key_bytes("q").as_deref(), Some("q"));
        assert_eq!(key_bytes("Hyper"), None);
        assert_eq!(key_bytes("C-ab"), None);
    }
}
