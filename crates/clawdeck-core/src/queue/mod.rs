//! The command queue: lanes (`main`, `cron`, `subagent`, `nested`, any named lane) with a
//! per-lane concurrency limit, FIFO order, live limit changes, a wait warning that fires while an
//! entry is still waiting, clearing, draining, cancellation while queued, and a snapshot plus an
//! event stream for the console.
//!
//! ```no_run
//! # async fn demo() -> Result<(), clawdeck_core::queue::QueueError> {
//! use clawdeck_core::queue::{LaneLimits, LaneQueue};
//! use tokio_util::sync::CancellationToken;
//!
//! let queue = LaneQueue::new(LaneLimits::default());   // main 4, subagent 8, cron 1, others 1
//! let mut events = queue.subscribe();                  // Enqueued, Started, WaitedTooLong, Finished, ...
//! let cancel = CancellationToken::new();
//! let answer = queue.run("main", "exec: ls", &cancel, async { 42 }).await?;
//! assert_eq!(answer, 42);
//! queue.set_limit("cron", 2);                          // live; raising starts waiters at once
//! println!("{:?} {:?}", queue.snapshot().lane("main"), events.try_recv());
//! # Ok(()) }
//! ```
//!
//! Limits come from [`LaneLimits::from_settings`] (clawdeck's `lanes` settings over OpenClaw's
//! `agents.defaults.maxConcurrent`, `agents.defaults.subagents.maxConcurrent`,
//! `cron.maxConcurrentRuns`). Every enqueued entry ends with exactly one `Finished` event whose
//! outcome says how (ok, error, cancelled, cleared, abandoned, panicked, killed). `kill` fires one
//! entry's cancellation (the console's Queue view kill).

mod events;
mod lane_queue;
mod limits;

pub use events::{
    EntryId, EntryOutcome, EntrySnapshot, EntryState, LaneSnapshot, QueueEvent, QueueSnapshot,
};
pub use lane_queue::{KilledEntry, LaneQueue, QueueError};
pub use limits::{
    DEFAULT_CRON_LIMIT, DEFAULT_MAIN_LIMIT, DEFAULT_OTHER_LIMIT, DEFAULT_SUBAGENT_LIMIT,
    DEFAULT_WARN_AFTER, LANE_CRON, LANE_MAIN, LANE_NAME_MAX_CHARS, LANE_NESTED, LANE_SUBAGENT,
    LaneLimits, LaneSettings, check_lane_name, clamp_limit, normalize_lane,
};
