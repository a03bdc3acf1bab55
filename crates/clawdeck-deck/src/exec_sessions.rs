//! The local background exec sessions (what `exec` with `background`/`yieldMs` left running,
//! what the `process` tool follows), as the console's Queue view shows them: a snapshot to
//! draw (commands and output sanitized, the output bounded to its last lines) and a kill that
//! ends the session's process group. They live in this process only: they end with it.

use std::time::SystemTime;

use crate::Deck;
use crate::process::KillReason;
use clawdeck_core::sanitize;

/// Output lines a snapshot keeps per session (the tail pane's bound).
pub const TAIL_LINES: u64 = 200;

/// One background exec session, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecSessionView {
    /// The session id the `process` tool knows it by.
    pub id: String,
    /// The command on one line, sanitized.
    pub command: String,
    pub pid: u32,
    pub started_at: SystemTime,
    /// None while it runs; else how it ended (`exit 0`, `killed (user)`).
    pub ended: Option<String>,
    /// Its last output lines (both streams, arrival order), sanitized, at most [`TAIL_LINES`].
    pub tail: Vec<String>,
    /// Lines before `tail` that are not in it.
    pub earlier_lines: u64,
}

impl ExecSessionView {
    pub fn running(&self) -> bool {
        self.ended.is_none()
    }

    /// The last output line ("" when none yet).
    pub fn last_line(&self) -> &str {
        self.tail.last().map(String::as_str).unwrap_or("")
    }
}

/// What a kill reached.
#[derive(Debug, Clone, PartialEq)]
pub struct KilledExec {
    pub command: String,
    pub pid: u32,
}

impl Deck {
    /// Every background exec session (running, and finished ones still kept), oldest first.
    pub fn exec_sessions(&self) -> Vec<ExecSessionView> {
        self.inner
            .runtime
            .sessions
            .list()
            .iter()
            .map(|session| {
                let process = session.process();
                let from = process.next_line_number().saturating_sub(TAIL_LINES);
                let output = process.output_since(from);
                let tail: Vec<String> = output
                    .lines
                    .iter()
                    .map(|line| sanitize::plain(line.text.trim_end_matches(['\n', '\r'])))
                    .collect();
                ExecSessionView {
                    id: session.id.clone(),
                    command: one_line(&session.command),
                    pid: session.pid(),
                    started_at: session.started_at,
                    ended: session.outcome().map(|o| o.summary()),
                    earlier_lines: process.next_line_number() - tail.len() as u64,
                    tail,
                }
            })
            .collect()
    }

    /// Kills background exec session `id`: its whole process group (the supervisor's kill).
    /// None when no such session still runs.
    pub fn kill_exec_session(&self, id: &str) -> Option<KilledExec> {
        let session = self.inner.runtime.sessions.get(id)?;
        if session.outcome().is_some() {
            return None;
        }
        session.process().kill(KillReason::User);
        Some(KilledExec {
            command: one_line(&session.command),
            pid: session.pid(),
        })
    }
}

/// A command on one sanitized line (newlines and runs of blanks become one space).
fn one_line(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    sanitize::plain(&words.join(" "))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::pipeline::{CallOutcome, CallRequest};
    use crate::tests::alive;

    #[tokio::test]
    async fn a_background_exec_is_listed_with_its_output_and_a_kill_ends_its_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("openclaw.json");
        std::fs::write(&config, r#"{ "agents": { "list": [ { "id": "ops" } ] } }"#).unwrap();
        std::fs::write(
            dir.path().join(crate::config::SETTINGS_FILE),
            format!("{{ workspace: {:?} }}", dir.path().display().to_string()),
        )
        .unwrap();
        let deck = Deck::load(Some(&config), &Default::default()).unwrap();
        let pidfile = dir.path().join("grandchild.pid");
        let request = CallRequest::new(
            "exec",
            serde_json::json!({
                "command": format!(
                    "sleep 300 & echo $! > {}; printf 'one\\n\\033]0;title\\007two\\n'; wait",
                    pidfile.display()
                ),
                "background": true,
            }),
            crate::context::PolicyContext {
                agent: Some("ops".into()),
                ..Default::default()
            },
        );
        let outcome = deck.pipeline().call(request).await;
        assert!(
            matches!(outcome, CallOutcome::Completed { .. }),
            "{outcome:?}"
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let (grandchild, view) = loop {
            let pid = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|t| t.trim().parse::<i32>().ok());
            let view = deck.exec_sessions().into_iter().next();
            if let (Some(pid), Some(view)) = (pid, view)
                && view.last_line() == "two"
            {
                break (pid, view);
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the exec never printed: {:?}",
                deck.exec_sessions()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(view.running());
        assert!(view.command.starts_with("sleep 300 &"), "{}", view.command);
        assert_eq!(view.tail, vec!["one".to_string(), "two".to_string()]);
        assert!(alive(grandchild));

        let killed = deck.kill_exec_session(&view.id).expect("it runs");
        assert_eq!(killed.pid, view.pid);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while alive(grandchild) && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(!alive(grandchild), "the session's process group survived");
        while deck.exec_sessions()[0].running() && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let ended = deck.exec_sessions()[0].ended.clone().unwrap_or_default();
        assert!(ended.starts_with("killed (user)"), "{ended}");
        assert_eq!(
            deck.kill_exec_session(&view.id),
            None,
            "nothing left to kill"
        );
    }
}
