//! The process supervisor: runs a child in its own process group, reads both pipes as they
//! fill, enforces a timeout, kills the whole tree, and reports what happened. Used by `exec`,
//! `process`, plugin tools, hooks and the clawbot_router; nothing it starts outlives it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), clawdeck_core::process::SpawnError> {
//! use std::time::Duration;
//! use clawdeck_core::process::{self, KillReason, ProcessSpec};
//!
//! let spec = ProcessSpec::new("sh").args(["-c", "echo hi; sleep 60"])
//!     .timeout(Some(Duration::from_secs(5)))
//!     .on_chunk(|chunk| eprint!("[{}] {}", chunk.stream.as_str(), chunk.text()));
//! let running = process::spawn(spec)?;          // Err: NotFound / PermissionDenied / ...
//! let killer = running.kill_handle();           // Clone; kill() is idempotent
//! # let _ = (killer, KillReason::User);
//! let outcome = running.wait().await;           // exit, timed_out, killed_by, output, notes
//! assert!(outcome.timed_out && !outcome.success());
//! println!("{}: {}", outcome.summary(), outcome.output.stdout_text());
//! # Ok(()) }
//! ```
//!
//! Rules it keeps:
//! - stdin is /dev/null unless [`StdinMode::Piped`]; the child leads its own process group.
//! - Each output pipe is read by its own thread with plain reads (enlarged to 1 MiB when the
//!   kernel allows), concurrently, so a child that floods stderr while stdout is quiet never
//!   blocks; the supervisor task (timeout, kill, reap, drain) runs on tokio.
//! - Output is read as bytes, split into lines capped at `max_line_bytes` (longer lines become
//!   several pieces marked [`LineEnd::Continued`]), converted with lossy UTF-8 per line; a
//!   partial last line is flushed at end of stream. That is the retained output.
//! - Live observers (`ProcessSpec::on_chunk`, [`RunningProcess::subscribe`]) get the bytes as
//!   they arrive, as [`OutputChunk`]s (stream, arrival time, text): a partial line (a prompt, a
//!   `\r` progress update) is not held back until its newline; its rest comes in a later chunk
//!   marked `continues_line`. A partial line waits at most 50 ms for its newline, so a line
//!   written in quick pieces is one chunk and a child writing byte by byte does not produce a
//!   chunk per byte.
//! - Retained output is bounded by lines and bytes ([`OutputLimits`]) with dropped counts; it
//!   holds both streams interleaved in arrival order ([`RetainedOutput::combined_text`]).
//! - Kill: SIGTERM to the group, `kill_grace` (3 s), SIGKILL to the group. One sequence per
//!   process whatever the number of kill calls and timeouts; signals go to the pgid saved at
//!   spawn, never to 0, and only the supervisor task (which also reaps) sends them.
//! - After the leader exits, the pipes get `drain_grace` (2 s) to close; then the group is
//!   killed and the output detached with a note. Leftover live group members are killed too.
//! - A child killed for a timeout is reported as timed out even if it exits 0 on SIGTERM.
//! - Dropping a [`RunningProcess`] before it finished kills the group; a kill after the leader
//!   exited but while the pipes are still held stops the drain at once.
//! - Every group is registered with the stop policy ([`stop`]) while it lives: SIGINT, SIGTERM
//!   or SIGHUP to clawdeck kills it (and no child starts once a stop began).
//! - [`RunningProcess::output_since`] serves pollers (`process poll/log`), numbered lines;
//!   [`ProcessOutcome::summary`] gives `exited with code 2`, `terminated by timeout after 5s
//!   (exit code 0)`, `killed by signal SIGSEGV`.

pub mod descendants;
mod error;
pub mod group;
mod lines;
mod live;
mod output;
pub mod pipe_end;
pub mod private_fs;
mod reader;
mod retained;
mod spec;
pub mod stop;
pub mod stop_signals;
mod supervisor;

pub use error::SpawnError;
pub use output::{LineEnd, OutputChunk, OutputLine, RetainedOutput, StdStream};
pub use spec::{
    ChunkCallback, DEFAULT_DRAIN_GRACE, DEFAULT_KILL_GRACE, OutputLimits, ProcessSpec, StdinMode,
};
pub use supervisor::{
    ExitKind, KillHandle, KillReason, ProcessOutcome, RunningProcess, SentSignal, format_duration,
    in_own_group_dying_with_parent, run_blocking, spawn,
};
