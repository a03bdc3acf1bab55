//! The CLI transport: `openclaw agent ...` as a child of the process supervisor (own process
//! group, stdin /dev/null, minimal environment, whole-tree kill with a grace, drain grace for
//! grandchildren that keep the pipes open).

use super::transport::{
    ChunkSink, NoteSink, RunPlan, StartFailure, Stop, StopReason, Transport, TransportEnd,
};
use crate::process::{self, KillReason, OutputLimits, ProcessSpec, SpawnError, StdinMode};
use crate::tool::BoxFuture;

pub(crate) struct CliTransport;

/// The supervisor's own timeout is only a safety net; the service enforces the (movable)
/// deadline and stops the run itself.
const SAFETY_NET: std::time::Duration = std::time::Duration::from_secs(30);

impl Transport for CliTransport {
    fn run(
        &self,
        plan: RunPlan,
        chunks: ChunkSink,
        notes: NoteSink,
        stop: Stop,
    ) -> BoxFuture<'static, TransportEnd> {
        Box::pin(async move {
            let Some((program, args)) = plan.argv.split_first() else {
                return TransportEnd {
                    failure: Some(StartFailure::Spawn {
                        error: "empty argv".into(),
                        operator_error: "empty argv".into(),
                        not_found: false,
                    }),
                    ..TransportEnd::default()
                };
            };
            let mut spec = ProcessSpec::new(program.clone())
                .args(args.iter().cloned())
                .clear_env(plan.clear_env)
                .stdin(StdinMode::Null)
                .timeout(Some(
                    super::transport::OPERATOR_TIMEOUT_CEILING + SAFETY_NET,
                ))
                .kill_grace(plan.kill_grace)
                .drain_grace(plan.drain_grace)
                // Router output is small; keep the retained copy bounded like the router's own.
                .limits(OutputLimits {
                    max_line_bytes: 64 * 1024,
                    max_retained_lines: 20_000,
                    max_retained_bytes: 4 * 1024 * 1024,
                })
                .on_chunk(move |chunk| {
                    chunks(chunk.stream, chunk.bytes.to_vec());
                });
            for (k, v) in &plan.env {
                spec = spec.env(k.clone(), v.clone());
            }
            let running = match process::spawn(spec) {
                Ok(r) => r,
                Err(e) => {
                    let not_found = matches!(e, SpawnError::NotFound { .. });
                    return TransportEnd {
                        failure: Some(StartFailure::Spawn {
                            error: spawn_error_text(&e),
                            operator_error: operator_spawn_error_text(&e),
                            not_found,
                        }),
                        ..TransportEnd::default()
                    };
                }
            };
            let killer = running.kill_handle();
            let mut deadline_kill = false;
            let outcome = tokio::select! {
                o = running.wait() => o,
                reason = stop.requested() => {
                    deadline_kill = reason == StopReason::Timeout;
                    killer.kill(match reason {
                        StopReason::Timeout => KillReason::Timeout,
                        StopReason::Killed => KillReason::User,
                    });
                    running.wait().await
                }
            };
            for note in &outcome.notes {
                notes(router_note(note, deadline_kill));
            }
            TransportEnd {
                exit_code: outcome.exit.code(),
                signal: outcome.exit.signal_name().map(str::to_string),
                failure: None,
                notes: Vec::new(),
            }
        })
    }
}

/// A supervisor note as the run shows it. The supervisor only knows its safety-net timeout, so
/// its "timed out after 630s" is replaced when the router's own deadline (which the
/// router's note states) did the killing.
fn router_note(note: &str, deadline_kill: bool) -> String {
    match note.strip_prefix("timed out after ") {
        Some(rest) if deadline_kill => {
            // The duration is one token (`630s`); what follows it is kept.
            let end = rest.find([':', ' ']).unwrap_or(rest.len());
            format!("router deadline reached{}", &rest[end..])
        }
        _ => note.to_string(),
    }
}

/// `spawn openclaw ENOENT`-style text, naming the program and the OS error.
fn spawn_error_text(e: &SpawnError) -> String {
    match e {
        SpawnError::NotFound { program } => format!("spawn {program} ENOENT：找不到该命令"),
        SpawnError::PermissionDenied { program } => format!("spawn {program} EACCES：没有执行权限"),
        other => other.to_string(),
    }
}

/// [`spawn_error_text`] in English, for the operator.
fn operator_spawn_error_text(e: &SpawnError) -> String {
    match e {
        SpawnError::NotFound { program } => format!("spawn {program} ENOENT: command not found"),
        SpawnError::PermissionDenied { program } => {
            format!("spawn {program} EACCES: not executable")
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod note_tests {
    use super::router_note;

    #[test]
    fn a_deadline_kill_does_not_claim_the_safety_net_timeout() {
        assert_eq!(
            router_note(
                "timed out after 630s: sent SIGTERM to process group 42",
                true
            ),
            "router deadline reached: sent SIGTERM to process group 42"
        );
        assert_eq!(
            router_note(
                "timed out after 630s while waiting for the output pipes after the process exited",
                true
            ),
            "router deadline reached while waiting for the output pipes after the process exited"
        );
        assert_eq!(
            router_note("killed on request: sent SIGTERM to process group 42", false),
            "killed on request: sent SIGTERM to process group 42"
        );
    }
}
