//! [`LaneQueue`]: FIFO lanes with live-adjustable concurrency limits.
//!
//! All bookkeeping sits behind one mutex; a waiting entry holds a oneshot receiver that the
//! lane's pump fills when a slot frees up. Slots are counted at grant time, so a limit is never
//! exceeded even before the granted task is polled. Guards on the caller's side (the waiting
//! ticket and the running slot) give the slot back on every exit path: completion, error,
//! cancellation, a dropped future, a panic.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Display;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{Notify, broadcast, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::events::{
    EntryId, EntryOutcome, EntrySnapshot, EntryState, LaneSnapshot, QueueEvent, QueueSnapshot,
};
use super::limits::{LaneLimits, normalize_lane};

/// Why the queue did not run a task.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueueError {
    /// `clear_lane` rejected the waiting entry (OpenClaw's message).
    #[error("Command lane \"{lane}\" cleared")]
    Cleared { lane: String },
    #[error("Command queue is draining: lane \"{lane}\" accepts no new work")]
    Draining { lane: String },
    /// The caller's token fired while the entry was waiting; it left the queue.
    #[error("Cancelled while waiting in command lane \"{lane}\"")]
    Cancelled { lane: String },
}

/// The entry `LaneQueue::kill` fired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KilledEntry {
    pub id: EntryId,
    pub lane: Arc<str>,
    pub label: Arc<str>,
    /// It was running (else waiting: it leaves the queue without running).
    pub running: bool,
}

/// How many finished entries the snapshot keeps.
const RECENT_LIMIT: usize = 200;
const EVENT_CAPACITY: usize = 4096;

/// The command queue. Cheap to clone; all clones share the lanes.
#[derive(Debug, Clone)]
pub struct LaneQueue {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: Mutex<State>,
    events: broadcast::Sender<QueueEvent>,
    idle: Notify,
}

#[derive(Debug)]
struct State {
    limits: LaneLimits,
    warn_after: Duration,
    lanes: BTreeMap<Arc<str>, Lane>,
    entries: HashMap<EntryId, Entry>,
    recent: VecDeque<EntrySnapshot>,
    next_id: EntryId,
    draining: bool,
}

#[derive(Debug)]
struct Lane {
    name: Arc<str>,
    limit: usize,
    running: usize,
    waiting: VecDeque<EntryId>,
}

#[derive(Debug)]
struct Entry {
    lane: Arc<str>,
    label: Arc<str>,
    enqueued: Instant,
    started: Option<Instant>,
    warned: bool,
    /// Filled by the pump (Ok) or by clear_lane (Err); None once used.
    permit: Option<oneshot::Sender<Result<(), QueueError>>>,
    /// The caller's token for this entry: `kill` fires it.
    cancel: CancellationToken,
    /// `kill` was asked: the entry's end is recorded as `Killed`.
    killed: bool,
}

impl Entry {
    fn snapshot(&self, id: EntryId, now: Instant, outcome: Option<EntryOutcome>) -> EntrySnapshot {
        let waited = self
            .started
            .unwrap_or(now)
            .saturating_duration_since(self.enqueued);
        let state = match (&outcome, self.started) {
            (Some(_), _) => EntryState::Finished,
            (None, Some(_)) => EntryState::Running,
            (None, None) => EntryState::Queued,
        };
        EntrySnapshot {
            id,
            lane: Arc::clone(&self.lane),
            label: Arc::clone(&self.label),
            state,
            waited,
            running_for: self
                .started
                .map(|started| now.saturating_duration_since(started)),
            warned: self.warned,
            outcome,
        }
    }
}

fn lock(mutex: &Mutex<State>) -> MutexGuard<'_, State> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Default for LaneQueue {
    fn default() -> Self {
        LaneQueue::new(LaneLimits::default())
    }
}

impl LaneQueue {
    pub fn new(limits: LaneLimits) -> Self {
        let (events, _) = broadcast::channel(EVENT_CAPACITY);
        let warn_after = limits.warn_after;
        LaneQueue {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    limits,
                    warn_after,
                    lanes: BTreeMap::new(),
                    entries: HashMap::new(),
                    recent: VecDeque::new(),
                    next_id: 1,
                    draining: false,
                }),
                events,
                idle: Notify::new(),
            }),
        }
    }

    /// Run `task` in `lane` when a slot is free (FIFO per lane). Waiting ends early with an
    /// error when the lane is cleared or `cancel` fires; once running, the task runs to its end
    /// (it can watch the same token itself). Dropping the returned future gives the slot back.
    pub async fn run<F: Future>(
        &self,
        lane: &str,
        label: &str,
        cancel: &CancellationToken,
        task: F,
    ) -> Result<F::Output, QueueError> {
        self.run_classified(lane, label, cancel, task, |_| EntryOutcome::Ok)
            .await
    }

    /// Like [`Self::run`] for fallible tasks: an `Err` is recorded as the entry's outcome (and
    /// logged as OpenClaw does) and handed back to the caller unchanged.
    pub async fn run_result<T, E, F>(
        &self,
        lane: &str,
        label: &str,
        cancel: &CancellationToken,
        task: F,
    ) -> Result<Result<T, E>, QueueError>
    where
        E: Display,
        F: Future<Output = Result<T, E>>,
    {
        self.run_classified(lane, label, cancel, task, |output| match output {
            Ok(_) => EntryOutcome::Ok,
            Err(err) => EntryOutcome::Error {
                message: err.to_string(),
            },
        })
        .await
    }

    async fn run_classified<F: Future>(
        &self,
        lane: &str,
        label: &str,
        cancel: &CancellationToken,
        task: F,
        classify: impl FnOnce(&F::Output) -> EntryOutcome,
    ) -> Result<F::Output, QueueError> {
        let lane = normalize_lane(lane);
        if cancel.is_cancelled() {
            return Err(QueueError::Cancelled {
                lane: lane.to_string(),
            });
        }
        let ticket = self.inner.enqueue(lane, label, cancel)?;
        let slot = ticket.wait_turn(cancel).await?;
        let output = task.await;
        slot.finish(classify(&output));
        Ok(output)
    }

    /// Re-applies a config's limits and warn threshold (reload): every lane the config names
    /// or the queue has seen gets its limit from `limits`, as `set_limit` would set it.
    pub fn apply_limits(&self, limits: &LaneLimits) {
        let lanes: Vec<String> = {
            let mut state = lock(&self.inner.state);
            state.warn_after = limits.warn_after;
            state.limits.warn_after = limits.warn_after;
            state.limits.default_limit = limits.default_limit;
            let mut lanes: Vec<String> = state.lanes.keys().map(|l| l.to_string()).collect();
            lanes.extend(limits.limits.keys().cloned());
            lanes.sort();
            lanes.dedup();
            lanes
        };
        for lane in lanes {
            self.set_limit(&lane, limits.limit_for(&lane));
        }
    }

    /// Change a lane's limit while running: max(1, n). Lowering never interrupts running tasks
    /// (new ones start only below the new limit); raising starts waiting entries at once.
    pub fn set_limit(&self, lane: &str, limit: usize) {
        let lane = normalize_lane(lane);
        let mut state = lock(&self.inner.state);
        let new = limit.max(1);
        state.limits.limits.insert(lane.to_string(), new);
        let lane_state = state.lane_mut(lane);
        let old = lane_state.limit;
        lane_state.limit = new;
        let name = Arc::clone(&lane_state.name);
        self.inner.emit(|| QueueEvent::LimitChanged {
            lane: Arc::clone(&name),
            old,
            new,
        });
        self.inner.pump(&mut state, lane);
    }

    pub fn limit(&self, lane: &str) -> usize {
        let lane = normalize_lane(lane);
        let state = lock(&self.inner.state);
        state
            .lanes
            .get(lane)
            .map_or_else(|| state.limits.limit_for(lane), |lane| lane.limit)
    }

    /// Kills one entry, running or waiting: fires the token its caller gave (the task stops as it
    /// does for its caller's cancellation: an exec kills its process tree) and records its end
    /// as `Killed`. Sends `KillRequested` now; `Finished` follows when the task has stopped.
    /// None when no entry `id` is waiting or running.
    pub fn kill(&self, id: EntryId) -> Option<KilledEntry> {
        let mut state = lock(&self.inner.state);
        let entry = state.entries.get_mut(&id)?;
        entry.killed = true;
        let killed = KilledEntry {
            id,
            lane: Arc::clone(&entry.lane),
            label: Arc::clone(&entry.label),
            running: entry.started.is_some(),
        };
        let cancel = entry.cancel.clone();
        tracing::warn!(
            "lane entry killed by the operator: lane={} id={id} running={}",
            killed.lane,
            killed.running
        );
        self.inner.emit(|| QueueEvent::KillRequested {
            id,
            lane: Arc::clone(&killed.lane),
            label: Arc::clone(&killed.label),
            running: killed.running,
        });
        drop(state);
        cancel.cancel();
        Some(killed)
    }

    /// Reject every entry waiting in `lane` with `Command lane "<lane>" cleared`. Running tasks
    /// are untouched. Returns how many were rejected.
    pub fn clear_lane(&self, lane: &str) -> usize {
        let lane = normalize_lane(lane);
        let mut state = lock(&self.inner.state);
        let Some(lane_state) = state.lanes.get_mut(lane) else {
            return 0;
        };
        let name = Arc::clone(&lane_state.name);
        let rejected: Vec<EntryId> = lane_state.waiting.drain(..).collect();
        let now = Instant::now();
        for &id in &rejected {
            if let Some(mut entry) = state.entries.remove(&id) {
                if let Some(permit) = entry.permit.take() {
                    let _ = permit.send(Err(QueueError::Cleared {
                        lane: name.to_string(),
                    }));
                }
                state.record_finished(&self.inner, id, &entry, now, EntryOutcome::Cleared);
            }
        }
        if !rejected.is_empty() {
            tracing::warn!(
                "command lane cleared: lane={name} rejected={}",
                rejected.len()
            );
        }
        let count = rejected.len();
        self.inner.emit(|| QueueEvent::Cleared {
            lane: name,
            rejected,
        });
        drop(state);
        self.inner.idle.notify_waiters();
        count
    }

    /// In draining mode new work is rejected (`QueueError::Draining`); waiting and running
    /// entries carry on.
    pub fn set_draining(&self, draining: bool) {
        let mut state = lock(&self.inner.state);
        if state.draining != draining {
            state.draining = draining;
            self.inner.emit(|| QueueEvent::DrainingChanged { draining });
        }
    }

    pub fn is_draining(&self) -> bool {
        lock(&self.inner.state).draining
    }

    /// Wait until no entry is waiting or running.
    pub async fn wait_idle(&self) {
        loop {
            let notified = self.inner.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if lock(&self.inner.state).entries.is_empty() {
                return;
            }
            notified.await;
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<QueueEvent> {
        self.inner.events.subscribe()
    }

    pub fn snapshot(&self) -> QueueSnapshot {
        let state = lock(&self.inner.state);
        let now = Instant::now();
        let mut lanes = Vec::with_capacity(state.lanes.len());
        let mut active = Vec::new();
        for lane in state.lanes.values() {
            let oldest_wait = lane
                .waiting
                .front()
                .and_then(|id| state.entries.get(id))
                .map(|entry| now.saturating_duration_since(entry.enqueued));
            lanes.push(LaneSnapshot {
                lane: Arc::clone(&lane.name),
                limit: lane.limit,
                running: lane.running,
                queued: lane.waiting.len(),
                oldest_wait,
            });
            let mut running: Vec<(EntryId, &Entry)> = state
                .entries
                .iter()
                .filter(|(_, entry)| entry.lane == lane.name && entry.started.is_some())
                .map(|(id, entry)| (*id, entry))
                .collect();
            running.sort_by_key(|(id, _)| *id);
            active.extend(
                running
                    .into_iter()
                    .map(|(id, entry)| entry.snapshot(id, now, None)),
            );
            active.extend(lane.waiting.iter().filter_map(|id| {
                state
                    .entries
                    .get(id)
                    .map(|entry| entry.snapshot(*id, now, None))
            }));
        }
        QueueSnapshot {
            draining: state.draining,
            lanes,
            active,
            recent: state.recent.iter().cloned().collect(),
        }
    }
}

impl State {
    fn lane_mut(&mut self, lane: &str) -> &mut Lane {
        let limit = self.limits.limit_for(lane);
        let name: Arc<str> = Arc::from(lane);
        self.lanes.entry(Arc::clone(&name)).or_insert_with(|| Lane {
            name,
            limit,
            running: 0,
            waiting: VecDeque::new(),
        })
    }

    fn record_finished(
        &mut self,
        inner: &Inner,
        id: EntryId,
        entry: &Entry,
        now: Instant,
        outcome: EntryOutcome,
    ) {
        // A killed entry that still ended well (it finished as the kill came) keeps `ok`.
        let outcome = if entry.killed && outcome != EntryOutcome::Ok {
            EntryOutcome::Killed
        } else {
            outcome
        };
        let snapshot = entry.snapshot(id, now, Some(outcome.clone()));
        let duration = snapshot.running_for.unwrap_or_default();
        inner.emit(|| QueueEvent::Finished {
            id,
            lane: Arc::clone(&entry.lane),
            label: Arc::clone(&entry.label),
            waited: snapshot.waited,
            duration,
            outcome,
        });
        if self.recent.len() >= RECENT_LIMIT {
            self.recent.pop_front();
        }
        self.recent.push_back(snapshot);
    }
}

impl Inner {
    /// Build and send an event only when someone listens.
    fn emit(&self, make: impl FnOnce() -> QueueEvent) {
        if self.events.receiver_count() > 0 {
            let _ = self.events.send(make());
        }
    }

    fn enqueue(
        self: &Arc<Self>,
        lane: &str,
        label: &str,
        cancel: &CancellationToken,
    ) -> Result<Ticket, QueueError> {
        let mut state = lock(&self.state);
        if state.draining {
            self.emit(|| QueueEvent::Rejected {
                lane: Arc::from(lane),
                label: Arc::from(label),
            });
            return Err(QueueError::Draining {
                lane: lane.to_string(),
            });
        }
        let id = state.next_id;
        state.next_id += 1;
        let warn_after = state.warn_after;
        let lane_state = state.lane_mut(lane);
        let name = Arc::clone(&lane_state.name);
        let queue_ahead = lane_state.waiting.len();
        let label: Arc<str> = Arc::from(label);
        let now = Instant::now();
        let (permit, receiver) = oneshot::channel();
        lane_state.waiting.push_back(id);
        state.entries.insert(
            id,
            Entry {
                lane: Arc::clone(&name),
                label: Arc::clone(&label),
                enqueued: now,
                started: None,
                warned: false,
                permit: Some(permit),
                cancel: cancel.clone(),
                killed: false,
            },
        );
        self.emit(|| QueueEvent::Enqueued {
            id,
            lane: Arc::clone(&name),
            label,
            queue_ahead,
        });
        self.pump(&mut state, &name);
        Ok(Ticket {
            inner: Arc::clone(self),
            id,
            lane: name,
            enqueued: now,
            warn_after,
            receiver,
            settled: false,
        })
    }

    /// Start waiting entries of `lane` while it is below its limit.
    fn pump(&self, state: &mut State, lane: &str) {
        let now = Instant::now();
        loop {
            let Some(lane_state) = state.lanes.get_mut(lane) else {
                return;
            };
            if lane_state.running >= lane_state.limit {
                return;
            }
            let Some(id) = lane_state.waiting.pop_front() else {
                return;
            };
            let Some(entry) = state.entries.get_mut(&id) else {
                continue;
            };
            let Some(permit) = entry.permit.take() else {
                continue;
            };
            lane_state.running += 1;
            entry.started = Some(now);
            let waited = now.saturating_duration_since(entry.enqueued);
            self.emit(|| QueueEvent::Started {
                id,
                lane: Arc::clone(&entry.lane),
                label: Arc::clone(&entry.label),
                waited,
            });
            // A closed receiver means the ticket is being dropped; its guard gives the slot back.
            let _ = permit.send(Ok(()));
        }
    }

    /// The entry left without finishing normally (cancelled while waiting, dropped, panicked):
    /// remove it, give back its slot if it had one, record the outcome.
    fn leave(&self, id: EntryId, outcome: EntryOutcome) {
        let mut state = lock(&self.state);
        let Some(entry) = state.entries.remove(&id) else {
            return;
        };
        if let Some(lane) = state.lanes.get_mut(&*entry.lane) {
            if entry.started.is_some() {
                lane.running = lane.running.saturating_sub(1);
            } else if let Some(position) = lane.waiting.iter().position(|waiting| *waiting == id) {
                lane.waiting.remove(position);
            }
        }
        let now = Instant::now();
        state.record_finished(self, id, &entry, now, outcome);
        let lane = Arc::clone(&entry.lane);
        self.pump(&mut state, &lane);
        drop(state);
        self.idle.notify_waiters();
    }

    fn finish(&self, id: EntryId, outcome: EntryOutcome) {
        let mut state = lock(&self.state);
        let Some(entry) = state.entries.remove(&id) else {
            return;
        };
        if let Some(lane) = state.lanes.get_mut(&*entry.lane) {
            lane.running = lane.running.saturating_sub(1);
        }
        let now = Instant::now();
        if let EntryOutcome::Error { message } = &outcome {
            let duration = entry.started.map_or(Duration::ZERO, |started| {
                now.saturating_duration_since(started)
            });
            tracing::warn!(
                "lane task error: lane={} durationMs={} error={:?}",
                entry.lane,
                duration.as_millis(),
                message
            );
        }
        state.record_finished(self, id, &entry, now, outcome);
        let lane = Arc::clone(&entry.lane);
        self.pump(&mut state, &lane);
        let idle = state.entries.is_empty();
        drop(state);
        if idle {
            self.idle.notify_waiters();
        }
    }

    fn warn(&self, id: EntryId) {
        let mut state = lock(&self.state);
        let Some(entry) = state.entries.get(&id) else {
            return;
        };
        if entry.started.is_some() || entry.warned {
            return;
        }
        let lane = Arc::clone(&entry.lane);
        let label = Arc::clone(&entry.label);
        let waited = Instant::now().saturating_duration_since(entry.enqueued);
        let queue_ahead = state
            .lanes
            .get(&*lane)
            .and_then(|lane| lane.waiting.iter().position(|waiting| *waiting == id))
            .unwrap_or(0);
        if let Some(entry) = state.entries.get_mut(&id) {
            entry.warned = true;
        }
        tracing::warn!(
            "lane wait exceeded: lane={lane} waitedMs={} queueAhead={queue_ahead}",
            waited.as_millis()
        );
        self.emit(|| QueueEvent::WaitedTooLong {
            id,
            lane,
            label,
            waited,
            queue_ahead,
        });
    }
}

/// A waiting entry, owned by the caller. Dropping it unsettled takes the entry out of the queue.
struct Ticket {
    inner: Arc<Inner>,
    id: EntryId,
    lane: Arc<str>,
    enqueued: Instant,
    warn_after: Duration,
    receiver: oneshot::Receiver<Result<(), QueueError>>,
    settled: bool,
}

impl Ticket {
    async fn wait_turn(mut self, cancel: &CancellationToken) -> Result<Slot, QueueError> {
        let warn_at = self.enqueued + self.warn_after;
        let mut warned = false;
        loop {
            tokio::select! {
                biased;
                granted = &mut self.receiver => {
                    self.settled = true;
                    return match granted {
                        Ok(Ok(())) => Ok(Slot { inner: Arc::clone(&self.inner), id: self.id, finished: false }),
                        Ok(Err(err)) => Err(err),
                        // The sender lives in the entry; it only goes away with clear_lane's
                        // send or with the entry itself, so this is a cleared lane too.
                        Err(_) => Err(QueueError::Cleared { lane: self.lane.to_string() }),
                    };
                }
                _ = cancel.cancelled() => {
                    self.settled = true;
                    self.inner.leave(self.id, EntryOutcome::Cancelled);
                    return Err(QueueError::Cancelled { lane: self.lane.to_string() });
                }
                _ = tokio::time::sleep_until(warn_at), if !warned => {
                    warned = true;
                    self.inner.warn(self.id);
                }
            }
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if !self.settled {
            self.inner.leave(self.id, EntryOutcome::Cancelled);
        }
    }
}

/// A running entry's slot; given back when finished or dropped.
struct Slot {
    inner: Arc<Inner>,
    id: EntryId,
    finished: bool,
}

impl Slot {
    fn finish(mut self, outcome: EntryOutcome) {
        self.finished = true;
        self.inner.finish(self.id, outcome);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.finished {
            let outcome = if std::thread::panicking() {
                EntryOutcome::Panicked
            } else {
                EntryOutcome::Abandoned
            };
            self.inner.finish(self.id, outcome);
        }
    }
}
