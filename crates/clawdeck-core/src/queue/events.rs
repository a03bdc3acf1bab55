//! What the queue tells the console: events as they happen and snapshots on demand.

use std::sync::Arc;
use std::time::Duration;

use serde::{Serialize, Serializer};

/// Unique per queue, increasing in enqueue order.
pub type EntryId = u64;

fn as_millis<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(duration.as_millis().min(u128::from(u64::MAX)) as u64)
}

fn as_millis_opt<S: Serializer>(
    duration: &Option<Duration>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match duration {
        Some(duration) => as_millis(duration, serializer),
        None => serializer.serialize_none(),
    }
}

/// How an entry ended. Every enqueued entry ends exactly once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EntryOutcome {
    /// The task ran to completion (for `run_result`: returned `Ok`).
    Ok,
    /// `run_result` task returned `Err`; the message is its Display.
    Error { message: String },
    /// The caller cancelled (or dropped the call) while the entry was waiting.
    Cancelled,
    /// `clear_lane` rejected the entry while it was waiting.
    Cleared,
    /// The caller dropped the task while it was running.
    Abandoned,
    /// The task panicked while running.
    Panicked,
    /// The operator killed it (`LaneQueue::kill`): its cancellation fired, running or waiting.
    Killed,
}

impl EntryOutcome {
    pub fn as_str(&self) -> &'static str {
        match self {
            EntryOutcome::Ok => "ok",
            EntryOutcome::Error { .. } => "error",
            EntryOutcome::Cancelled => "cancelled",
            EntryOutcome::Cleared => "cleared",
            EntryOutcome::Abandoned => "abandoned",
            EntryOutcome::Panicked => "panicked",
            EntryOutcome::Killed => "killed",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryState {
    Queued,
    Running,
    Finished,
}

/// A change in the queue. Lane and label are shared strings (cheap to clone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum QueueEvent {
    Enqueued {
        id: EntryId,
        lane: Arc<str>,
        label: Arc<str>,
        /// Entries waiting ahead of this one in its lane.
        queue_ahead: usize,
    },
    Started {
        id: EntryId,
        lane: Arc<str>,
        label: Arc<str>,
        #[serde(rename = "waited_ms", serialize_with = "as_millis")]
        waited: Duration,
    },
    /// Fired while the entry is still waiting, once, when it has waited `warn_after`.
    WaitedTooLong {
        id: EntryId,
        lane: Arc<str>,
        label: Arc<str>,
        #[serde(rename = "waited_ms", serialize_with = "as_millis")]
        waited: Duration,
        queue_ahead: usize,
    },
    Finished {
        id: EntryId,
        lane: Arc<str>,
        label: Arc<str>,
        #[serde(rename = "waited_ms", serialize_with = "as_millis")]
        waited: Duration,
        /// Running time (zero for entries that never started).
        #[serde(rename = "duration_ms", serialize_with = "as_millis")]
        duration: Duration,
        outcome: EntryOutcome,
    },
    /// The operator asked to kill this entry (`LaneQueue::kill`); its `Finished` follows once
    /// the task has stopped (an exec's process tree killed), with outcome `killed`.
    KillRequested {
        id: EntryId,
        lane: Arc<str>,
        label: Arc<str>,
        /// Whether it was running (else it was waiting and leaves the queue unrun).
        running: bool,
    },
    /// `clear_lane` rejected these waiting entries (each also gets `Finished { Cleared }`).
    Cleared {
        lane: Arc<str>,
        rejected: Vec<EntryId>,
    },
    LimitChanged {
        lane: Arc<str>,
        old: usize,
        new: usize,
    },
    /// New work refused because the queue is draining (no `Enqueued` was sent for it).
    Rejected {
        lane: Arc<str>,
        label: Arc<str>,
    },
    DrainingChanged {
        draining: bool,
    },
}

impl QueueEvent {
    pub fn entry_id(&self) -> Option<EntryId> {
        match self {
            QueueEvent::Enqueued { id, .. }
            | QueueEvent::Started { id, .. }
            | QueueEvent::WaitedTooLong { id, .. }
            | QueueEvent::KillRequested { id, .. }
            | QueueEvent::Finished { id, .. } => Some(*id),
            _ => None,
        }
    }

    pub fn lane(&self) -> Option<&str> {
        match self {
            QueueEvent::Enqueued { lane, .. }
            | QueueEvent::Started { lane, .. }
            | QueueEvent::WaitedTooLong { lane, .. }
            | QueueEvent::KillRequested { lane, .. }
            | QueueEvent::Finished { lane, .. }
            | QueueEvent::Cleared { lane, .. }
            | QueueEvent::LimitChanged { lane, .. }
            | QueueEvent::Rejected { lane, .. } => Some(lane),
            QueueEvent::DrainingChanged { .. } => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaneSnapshot {
    pub lane: Arc<str>,
    pub limit: usize,
    pub running: usize,
    pub queued: usize,
    /// How long the first waiting entry has waited.
    #[serde(rename = "oldest_wait_ms", serialize_with = "as_millis_opt")]
    pub oldest_wait: Option<Duration>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntrySnapshot {
    pub id: EntryId,
    pub lane: Arc<str>,
    pub label: Arc<str>,
    pub state: EntryState,
    /// Time spent waiting (so far, for queued entries).
    #[serde(rename = "waited_ms", serialize_with = "as_millis")]
    pub waited: Duration,
    /// Time spent running (so far, for running entries); None if it never started.
    #[serde(rename = "running_ms", serialize_with = "as_millis_opt")]
    pub running_for: Option<Duration>,
    pub warned: bool,
    pub outcome: Option<EntryOutcome>,
}

/// The whole queue at one instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueueSnapshot {
    pub draining: bool,
    /// Every lane seen so far, by name.
    pub lanes: Vec<LaneSnapshot>,
    /// Queued and running entries: per lane (by name), running first, then waiting in FIFO order.
    pub active: Vec<EntrySnapshot>,
    /// Recently finished entries, oldest first, bounded.
    pub recent: Vec<EntrySnapshot>,
}

impl QueueSnapshot {
    pub fn lane(&self, lane: &str) -> Option<&LaneSnapshot> {
        self.lanes.iter().find(|snapshot| &*snapshot.lane == lane)
    }
}
