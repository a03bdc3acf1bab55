//! `exec`: a shell command under the process supervisor, in the foreground until `yieldMs`, then
//! as a background session the `process` tool follows up on (texts as OpenClaw's exec tool).
//!
//! Stdin: a foreground command reads end-of-file (the supervisor's default), so a command that
//! waits for input cannot hang a call. Only a session started with `background: true` gets a
//! stdin pipe, which `process write` feeds; a run that moved to the background after `yieldMs`
//! keeps its /dev/null stdin and `write` says so.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::path_guard::{PathAccess, PathGuard};
use super::sessions::{ExecSession, ExecSessions};
use crate::bounds::MAX_TIMEOUT_SECONDS;
use crate::config::settings::ExecSettings;
use crate::process::{
    self, ExitKind, KillReason, OutputLimits, ProcessOutcome, ProcessSpec, SpawnError, StdinMode,
};
use crate::tool::params::{ReadOptions, read_bool, read_number, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub(crate) const DEFAULT_YIELD_MS: u64 = 10_000;
pub(crate) const MIN_YIELD_MS: u64 = 10;
pub(crate) const MAX_YIELD_MS: u64 = 120_000;
/// Characters of output kept per session (OpenClaw: 200000).
pub(crate) const MAX_OUTPUT_CHARS: usize = 200_000;
/// Characters in `details.tail`.
pub(crate) const TAIL_CHARS: usize = 2000;
pub(crate) const FOLLOW_UP: &str =
    "Use process (list/poll/log/write/kill/clear/remove) for follow-up.";
pub(crate) const RETENTION_CAP_NOTE: &str =
    "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
pub(crate) const TIMEOUT_RETRY_GUIDANCE: &str = "The command was terminated, but external side effects may already have completed. Verify the resulting state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry.";

/// The supervisor limits for exec sessions: about `MAX_OUTPUT_CHARS` of text.
pub(crate) fn exec_output_limits() -> OutputLimits {
    OutputLimits {
        max_line_bytes: 64 * 1024,
        max_retained_lines: 100_000,
        max_retained_bytes: MAX_OUTPUT_CHARS,
    }
}

pub struct ExecTool {
    spec: ToolSpec,
    guard: Arc<PathGuard>,
    settings: ExecSettings,
    sessions: ExecSessions,
}

impl ExecTool {
    pub fn new(
        spec: ToolSpec,
        guard: Arc<PathGuard>,
        settings: ExecSettings,
        sessions: ExecSessions,
    ) -> Self {
        ExecTool {
            spec,
            guard,
            settings,
            sessions,
        }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let params = &call.params;
        let command = read_string(params, "command", ReadOptions::default().untrimmed())?
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| ToolError::input("Provide a command to start."))?;
        let cwd = match read_string(params, "workdir", ReadOptions::default())? {
            Some(dir) => self.guard.resolve(&dir, PathAccess::Read)?,
            None => self.guard.root().to_path_buf(),
        };
        let background = read_bool(params, "background").unwrap_or(false);
        let explicit_timeout = read_number(params, "timeout", false, false)?;
        let timeout_seconds: Option<u64> = match explicit_timeout {
            Some(t) if t <= 0.0 => None,
            Some(t) if t > MAX_TIMEOUT_SECONDS as f64 => {
                return Err(ToolError::input(format!(
                    "timeout {t} is too long: at most {MAX_TIMEOUT_SECONDS} seconds (7 days)"
                )));
            }
            Some(t) => Some(t.ceil() as u64),
            // A background run without an explicit timeout has none (OpenClaw).
            None if background => None,
            None => Some(self.settings.timeout_seconds).filter(|t| *t > 0),
        };
        let yield_ms = if background {
            0
        } else {
            read_number(params, "yieldMs", false, false)?
                .map(|ms| (ms.max(0.0) as u64).clamp(MIN_YIELD_MS, MAX_YIELD_MS))
                .unwrap_or(DEFAULT_YIELD_MS)
        };
        let env = read_env(params)?;

        let (program, shell_args) = match self.settings.shell.split_first() {
            Some((program, rest)) => (program.clone(), rest.to_vec()),
            None => ("sh".to_string(), vec!["-c".to_string()]),
        };
        let mut spec = ProcessSpec::new(program)
            .args(shell_args)
            .arg(command.clone())
            .cwd(cwd.clone())
            .timeout(timeout_seconds.map(Duration::from_secs))
            .limits(exec_output_limits())
            .stdin(if background {
                StdinMode::Piped
            } else {
                StdinMode::Null
            });
        for (key, value) in env {
            spec = spec.env(key, value);
        }
        // Live output for the caller while the call is in the foreground.
        let live = LiveTail::new(call.progress.clone());
        if !background {
            let live = live.clone();
            spec = spec.on_chunk(move |chunk| live.push(&chunk.text()));
        }
        let _stop_live = live.stop_guard();
        // Any run may stay in the background, so each takes a place under the cap.
        let slot = self
            .sessions
            .reserve()
            .map_err(|full| ToolError::failed(full.to_string()))?;
        let running = match process::spawn(spec) {
            Ok(running) => running,
            Err(err) => return Ok(spawn_failure_result(&err, &cwd)),
        };
        let session = Arc::new(ExecSession::new(
            self.sessions.new_id(),
            command,
            cwd,
            timeout_seconds,
            running,
        ));
        self.sessions.insert(Arc::clone(&session));
        drop(slot);

        if background {
            session.mark_backgrounded();
            return Ok(running_result(&session));
        }
        tokio::select! {
            outcome = session.process().wait() => {
                self.sessions.remove(&session.id);
                Ok(finished_result(&outcome, timeout_seconds, &session.cwd.display().to_string()))
            }
            _ = tokio::time::sleep(Duration::from_millis(yield_ms)) => {
                session.mark_backgrounded();
                Ok(running_result(&session))
            }
            _ = call.cancel.cancelled() => {
                session.process().kill(KillReason::Cancelled);
                // The tree is gone (SIGTERM, grace, SIGKILL) before the cancel is answered.
                session.process().wait().await;
                self.sessions.remove(&session.id);
                Err(ToolError::Cancelled)
            }
        }
    }
}

/// How often a foreground run reports its output tail to the call's progress sink.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// The last `TAIL_CHARS` of a foreground run's output, sent to the progress sink at most every
/// `PROGRESS_INTERVAL` (OpenClaw's exec `onUpdate`), until the call returns. Output is added
/// as it arrives, partial lines included (a prompt, a `\r` progress line); what arrives within
/// the interval after an update is sent once the interval ends, so the last piece before the
/// child goes quiet is not held back until its next output.
#[derive(Clone)]
struct LiveTail {
    inner: Arc<std::sync::Mutex<LiveTailState>>,
    sink: crate::tool::ProgressSink,
    /// Where the deferred update is scheduled (chunks arrive on the supervisor's reader
    /// threads); without a runtime, deferred output waits for the next chunk.
    runtime: Option<tokio::runtime::Handle>,
}

struct LiveTailState {
    tail: String,
    last_sent: Option<std::time::Instant>,
    stopped: bool,
    /// Output arrived since the last update.
    unsent: bool,
    /// A deferred update is scheduled.
    deferred: bool,
}

impl LiveTail {
    fn new(sink: crate::tool::ProgressSink) -> LiveTail {
        LiveTail {
            inner: Arc::new(std::sync::Mutex::new(LiveTailState {
                tail: String::new(),
                last_sent: None,
                stopped: false,
                unsent: false,
                deferred: false,
            })),
            sink,
            runtime: tokio::runtime::Handle::try_current().ok(),
        }
    }

    fn push(&self, text: &str) {
        let update = {
            let mut state = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if state.stopped {
                return;
            }
            state.tail.push_str(text);
            if state.tail.len() > TAIL_CHARS * 8 {
                state.tail = tail_chars(&state.tail, TAIL_CHARS);
            }
            if let Some(since) = state.last_sent.map(|t| t.elapsed())
                && since < PROGRESS_INTERVAL
            {
                state.unsent = true;
                if !state.deferred
                    && let Some(runtime) = &self.runtime
                {
                    state.deferred = true;
                    let live = self.clone();
                    runtime.spawn(async move {
                        tokio::time::sleep(PROGRESS_INTERVAL - since).await;
                        live.send_deferred();
                    });
                }
                return;
            }
            state.last_sent = Some(std::time::Instant::now());
            state.unsent = false;
            tail_chars(&state.tail, TAIL_CHARS)
        };
        self.send(update);
    }

    /// The deferred update: the tail as it is now, unless nothing new came or the call returned.
    fn send_deferred(&self) {
        let update = {
            let mut state = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            state.deferred = false;
            if state.stopped || !state.unsent {
                return;
            }
            state.last_sent = Some(std::time::Instant::now());
            state.unsent = false;
            tail_chars(&state.tail, TAIL_CHARS)
        };
        self.send(update);
    }

    fn send(&self, update: String) {
        (self.sink)(ToolResult::text(
            update.clone(),
            json!({"status": "running", "tail": update}),
        ));
    }

    /// Stops updates when dropped (the call returned: finished or moved to the background).
    fn stop_guard(&self) -> LiveTailStop {
        LiveTailStop(self.clone())
    }
}

struct LiveTailStop(LiveTail);

impl Drop for LiveTailStop {
    fn drop(&mut self) {
        self.0
            .inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .stopped = true;
    }
}

/// OpenClaw exec options clawdeck cannot honour, said plainly in `details.notes`.
fn unsupported_notes(params: &Value) -> Vec<String> {
    let mut notes = Vec::new();
    if read_bool(params, "pty") == Some(true) {
        notes.push("pty is not supported by clawdeck; the command ran with pipes".to_string());
    }
    if read_bool(params, "elevated") == Some(true) {
        notes.push(
            "elevated has no effect: clawdeck runs commands on this host, not in a container"
                .to_string(),
        );
    }
    if let Ok(Some(host)) = read_string(params, "host", ReadOptions::default())
        && host != "gateway"
        && host != "host"
    {
        notes.push(format!(
            "host \"{host}\" is not supported; the command ran on this host"
        ));
    }
    notes
}

fn read_env(params: &Value) -> Result<Vec<(String, String)>, ToolError> {
    match params.get("env") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                Value::Number(n) => Ok((k.clone(), n.to_string())),
                Value::Bool(b) => Ok((k.clone(), b.to_string())),
                _ => Err(ToolError::input(format!("env.{k} must be a string"))),
            })
            .collect(),
        Some(_) => Err(ToolError::input("env must be an object of strings")),
    }
}

/// The last `n` characters of `text`.
pub fn tail_chars(text: &str, n: usize) -> String {
    let count = text.chars().count();
    if count <= n {
        text.to_string()
    } else {
        text.chars().skip(count - n).collect()
    }
}

/// The retained output as exec reports it (trailing whitespace trimmed) and whether some was lost.
pub(crate) fn aggregated_output(outcome_output: &crate::process::RetainedOutput) -> (String, bool) {
    let text = outcome_output.combined_text();
    let text = text.trim_end();
    let truncated = outcome_output.truncated() || text.chars().count() > MAX_OUTPUT_CHARS;
    (tail_chars(text, MAX_OUTPUT_CHARS), truncated)
}

/// `Command still running (session <id>, pid <pid>). Use process ... for follow-up.`
pub(crate) fn running_result(session: &ExecSession) -> ToolResult {
    let (aggregated, _) = aggregated_output(&session.process().output_snapshot());
    ToolResult::text(
        format!(
            "Command still running (session {}, pid {}). {FOLLOW_UP}",
            session.id,
            session.pid()
        ),
        json!({
            "status": "running",
            "sessionId": session.id,
            "pid": session.pid(),
            "startedAt": millis_since_epoch(session.started_at),
            "cwd": session.cwd.display().to_string(),
            "tail": tail_chars(&aggregated, TAIL_CHARS),
            "stdin": if session.stdin_piped() { "pipe" } else { "null" },
        }),
    )
}

pub(crate) fn millis_since_epoch(t: std::time::SystemTime) -> u64 {
    t.duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// How a run ended, in OpenClaw's words: completed (any exit code; non-zero noted), or failed
/// (command not found / not executable / timed out / killed by a signal).
pub fn finished_result(
    outcome: &ProcessOutcome,
    timeout_seconds: Option<u64>,
    cwd: &str,
) -> ToolResult {
    let mut result = outcome_result(outcome, timeout_seconds, cwd);
    // A process that left the group (`setsid`) and kept the pipes was detached from, not
    // killed: the supervisor's notes say so, and the caller must see them.
    if outcome.detached
        && let Value::Object(details) = &mut result.details
    {
        details.insert("detached".to_string(), json!(true));
        details.insert("notes".to_string(), json!(outcome.notes));
    }
    result
}

fn outcome_result(outcome: &ProcessOutcome, timeout_seconds: Option<u64>, cwd: &str) -> ToolResult {
    let (aggregated, truncated) = aggregated_output(&outcome.output);
    let cap_note = if truncated { RETENTION_CAP_NOTE } else { "" };
    let duration_ms = outcome.duration.as_millis() as u64;
    let code = outcome.exit.code();
    let failure = if outcome.timed_out {
        Some((
            "timeout",
            "overall-timeout",
            match timeout_seconds {
                Some(n) => {
                    format!("Command timed out after {n} seconds.\n\n{TIMEOUT_RETRY_GUIDANCE}")
                }
                None => format!("Command timed out.\n\n{TIMEOUT_RETRY_GUIDANCE}"),
            },
        ))
    } else if let Some(reason) = outcome.killed_by {
        Some(("error", "aborted", format!("Command aborted ({reason})")))
    } else {
        match &outcome.exit {
            ExitKind::Code { code: 127 } => Some((
                "error",
                "shell-command-not-found",
                "Command not found".to_string(),
            )),
            ExitKind::Code { code: 126 } => Some((
                "error",
                "shell-not-executable",
                "Command not executable (permission denied)".to_string(),
            )),
            ExitKind::Signal { name, .. } => Some((
                "error",
                "signal",
                format!("Command aborted by signal {name}"),
            )),
            ExitKind::Unknown => Some((
                "error",
                "aborted",
                "Command aborted before exit code was captured".to_string(),
            )),
            ExitKind::Code { .. } => None,
        }
    };
    let signal = outcome.exit.signal_name().map(str::to_string);
    match failure {
        Some((status, kind, reason)) => {
            let text = if aggregated.is_empty() {
                reason
            } else {
                format!("{aggregated}\n\n{reason}")
            };
            ToolResult::text(
                format!("{cap_note}{text}"),
                json!({
                    "status": status,
                    "failureKind": kind,
                    "exitCode": code,
                    "exitSignal": signal,
                    "durationMs": duration_ms,
                    "aggregated": aggregated,
                    "timedOut": outcome.timed_out,
                    "truncated": truncated,
                    "cwd": cwd,
                }),
            )
        }
        None => {
            let code = code.unwrap_or(0);
            let body = if aggregated.is_empty() {
                "(no output)".to_string()
            } else {
                aggregated.clone()
            };
            let exit_note = if code != 0 {
                format!("\n\n(Command exited with code {code})")
            } else {
                String::new()
            };
            ToolResult::text(
                format!("{cap_note}{body}{exit_note}"),
                json!({
                    "status": "completed",
                    "exitCode": code,
                    "durationMs": duration_ms,
                    "aggregated": aggregated,
                    "truncated": truncated,
                    "cwd": cwd,
                }),
            )
        }
    }
}

/// The shell (or the working directory) could not be started at all.
fn spawn_failure_result(err: &SpawnError, cwd: &std::path::Path) -> ToolResult {
    let text = match err {
        SpawnError::NotFound { .. } => "Command not found".to_string(),
        SpawnError::PermissionDenied { .. } => {
            "Command not executable (permission denied)".to_string()
        }
        other => other.to_string(),
    };
    ToolResult::text(
        text.clone(),
        json!({"status": "error", "failureKind": err.kind(), "error": err.to_string(), "cwd": cwd.display().to_string()}),
    )
}

impl Tool for ExecTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(async move {
            let notes = unsupported_notes(&call.params);
            let mut result = self.run(call).await?;
            if !notes.is_empty()
                && let Value::Object(details) = &mut result.details
            {
                match details.get_mut("notes").and_then(Value::as_array_mut) {
                    Some(existing) => existing.extend(notes.into_iter().map(Value::String)),
                    None => {
                        details.insert("notes".to_string(), json!(notes));
                    }
                }
            }
            Ok(result)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording_tail() -> (LiveTail, Arc<std::sync::Mutex<Vec<String>>>) {
        let seen: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
        let sink = Arc::clone(&seen);
        let live = LiveTail::new(Arc::new(move |update: ToolResult| {
            sink.lock().unwrap().push(update.joined_text())
        }));
        (live, seen)
    }

    #[tokio::test]
    async fn a_partial_line_after_an_update_is_sent_when_the_interval_ends() {
        let (live, seen) = recording_tail();
        let _stop = live.stop_guard();
        live.push("start\n");
        // Pieces of one line, within the interval: held, then sent together.
        live.push("Pass");
        live.push("word: ");
        assert_eq!(*seen.lock().unwrap(), vec!["start\n".to_string()]);
        tokio::time::sleep(PROGRESS_INTERVAL + Duration::from_millis(100)).await;
        assert_eq!(
            *seen.lock().unwrap(),
            vec!["start\n".to_string(), "start\nPassword: ".to_string()]
        );
    }

    #[tokio::test]
    async fn nothing_is_sent_after_the_call_returned() {
        let (live, seen) = recording_tail();
        let stop = live.stop_guard();
        live.push("one\n");
        live.push("two");
        drop(stop);
        tokio::time::sleep(PROGRESS_INTERVAL + Duration::from_millis(100)).await;
        live.push("three\n");
        assert_eq!(*seen.lock().unwrap(), vec!["one\n".to_string()]);
    }
}
