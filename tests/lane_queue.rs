//! The lane queue. Timing tests run on paused tokio time (no real processes); the spawn-failure
//! test uses the real supervisor.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use clawdeck_core::process::{self, ProcessSpec, SpawnError};
use clawdeck_core::queue::{
    EntryOutcome, EntryState, LaneLimits, LaneQueue, QueueError, QueueEvent,
};
use tokio::sync::{Semaphore, broadcast};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

fn queue_with(lanes: &[(&str, usize)]) -> LaneQueue {
    let mut limits = LaneLimits::default();
    for (lane, limit) in lanes {
        limits.limits.insert(lane.to_string(), *limit);
    }
    LaneQueue::new(limits)
}

/// Let spawned tasks run until `done` holds (bounded, so a broken queue fails instead of hanging).
async fn settle_until(mut done: impl FnMut() -> bool) {
    for _ in 0..1000 {
        if done() {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("condition never held");
}

fn lane_counts(queue: &LaneQueue, lane: &str) -> (usize, usize) {
    let snapshot = queue.snapshot();
    // A lane appears with its first entry.
    snapshot
        .lane(lane)
        .map_or((0, 0), |lane| (lane.running, lane.queued))
}

/// A task that runs until its gate gets a permit; records start order.
fn gated_task(
    queue: &LaneQueue,
    lane: &'static str,
    name: &str,
    gate: Arc<Semaphore>,
    started: Arc<Mutex<Vec<String>>>,
) -> JoinHandle<Result<String, QueueError>> {
    let queue = queue.clone();
    let name = name.to_string();
    tokio::spawn(async move {
        let cancel = CancellationToken::new();
        queue
            .run(lane, &name.clone(), &cancel, async move {
                started.lock().unwrap().push(name.clone());
                gate.acquire().await.unwrap().forget();
                name
            })
            .await
    })
}

fn drain_events(events: &mut broadcast::Receiver<QueueEvent>) -> Vec<QueueEvent> {
    let mut out = Vec::new();
    while let Ok(event) = events.try_recv() {
        out.push(event);
    }
    out
}

#[tokio::test(start_paused = true)]
async fn entries_of_a_lane_start_in_fifo_order() {
    let queue = queue_with(&[("work", 1)]);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for i in 0..6 {
        tasks.push(gated_task(
            &queue,
            "work",
            &format!("t{i}"),
            gate.clone(),
            started.clone(),
        ));
        settle_until(|| {
            let (running, queued) = lane_counts(&queue, "work");
            running + queued == i + 1
        })
        .await;
    }
    gate.add_permits(6);
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(
        *started.lock().unwrap(),
        vec!["t0", "t1", "t2", "t3", "t4", "t5"]
    );
}

#[tokio::test(start_paused = true)]
async fn lane_limit_lowered_and_raised_while_running() {
    let queue = queue_with(&[("work", 3)]);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for i in 0..7 {
        tasks.push(gated_task(
            &queue,
            "work",
            &format!("t{i}"),
            gate.clone(),
            started.clone(),
        ));
    }
    settle_until(|| lane_counts(&queue, "work") == (3, 4)).await;

    // Lowering never interrupts: the three running tasks keep running.
    queue.set_limit("work", 1);
    assert_eq!(queue.limit("work"), 1);
    assert_eq!(lane_counts(&queue, "work"), (3, 4));
    // Two finish: still at or above the new limit, so nothing starts.
    gate.add_permits(2);
    settle_until(|| lane_counts(&queue, "work").0 == 1).await;
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    assert_eq!(lane_counts(&queue, "work"), (1, 4));
    assert_eq!(started.lock().unwrap().len(), 3);

    // Raising starts waiting entries at once, without any task finishing.
    queue.set_limit("work", 4);
    assert_eq!(lane_counts(&queue, "work"), (4, 1));
    settle_until(|| started.lock().unwrap().len() == 6).await;
    assert_eq!(started.lock().unwrap()[3..], ["t3", "t4", "t5"]);

    // max(1, n): zero means one.
    queue.set_limit("work", 0);
    assert_eq!(queue.limit("work"), 1);
    gate.add_permits(7);
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(lane_counts(&queue, "work"), (0, 0));
}

#[tokio::test(start_paused = true)]
async fn the_wait_warning_fires_while_the_entry_is_still_waiting() {
    let queue = queue_with(&[("work", 1)]); // warn_after defaults to 2000 ms
    let mut events = queue.subscribe();
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let first = gated_task(&queue, "work", "holder", gate.clone(), started.clone());
    let second = gated_task(&queue, "work", "waiter", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 1)).await;

    tokio::time::sleep(Duration::from_millis(1999)).await;
    assert!(
        !drain_events(&mut events)
            .iter()
            .any(|event| matches!(event, QueueEvent::WaitedTooLong { .. }))
    );
    tokio::time::sleep(Duration::from_millis(2)).await;
    settle_until(|| queue.snapshot().active.iter().any(|entry| entry.warned)).await;

    let warnings: Vec<QueueEvent> = drain_events(&mut events)
        .into_iter()
        .filter(|event| matches!(event, QueueEvent::WaitedTooLong { .. }))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let QueueEvent::WaitedTooLong {
        label,
        waited,
        queue_ahead,
        lane,
        ..
    } = &warnings[0]
    else {
        unreachable!()
    };
    assert_eq!((&**label, &**lane, *queue_ahead), ("waiter", "work", 0));
    assert!(*waited >= Duration::from_millis(2000) && *waited < Duration::from_millis(2100));
    // Still waiting when it warned.
    let snapshot = queue.snapshot();
    let waiter = snapshot
        .active
        .iter()
        .find(|entry| &*entry.label == "waiter")
        .unwrap();
    assert_eq!(waiter.state, EntryState::Queued);
    assert!(waiter.warned);
    assert!(snapshot.lane("work").unwrap().oldest_wait.unwrap() >= Duration::from_millis(2000));

    // It warns once, however long it waits.
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert!(
        !drain_events(&mut events)
            .iter()
            .any(|event| matches!(event, QueueEvent::WaitedTooLong { .. }))
    );
    gate.add_permits(2);
    first.await.unwrap().unwrap();
    second.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn clearing_a_lane_rejects_its_waiters_and_spares_running_work() {
    let queue = queue_with(&[("work", 1)]);
    let mut events = queue.subscribe();
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let running = gated_task(&queue, "work", "running", gate.clone(), started.clone());
    let waiting_a = gated_task(&queue, "work", "a", gate.clone(), started.clone());
    let waiting_b = gated_task(&queue, "work", "b", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 2)).await;

    assert_eq!(queue.clear_lane("work"), 2);
    let err = waiting_a.await.unwrap().unwrap_err();
    assert_eq!(
        err,
        QueueError::Cleared {
            lane: "work".to_string()
        }
    );
    assert_eq!(err.to_string(), "Command lane \"work\" cleared");
    assert!(waiting_b.await.unwrap().is_err());
    assert_eq!(lane_counts(&queue, "work"), (1, 0));

    gate.add_permits(1);
    assert_eq!(running.await.unwrap().unwrap(), "running");
    assert_eq!(*started.lock().unwrap(), vec!["running"]);
    let events = drain_events(&mut events);
    assert!(
        events.iter().any(
            |event| matches!(event, QueueEvent::Cleared { rejected, .. } if rejected.len() == 2)
        )
    );
    let cleared = events
        .iter()
        .filter(|event| {
            matches!(
                event,
                QueueEvent::Finished {
                    outcome: EntryOutcome::Cleared,
                    ..
                }
            )
        })
        .count();
    assert_eq!(cleared, 2);
    assert_eq!(queue.clear_lane("nothing-here"), 0);
}

#[tokio::test(start_paused = true)]
async fn a_queued_entry_whose_caller_cancels_leaves_the_queue() {
    let queue = queue_with(&[("work", 1)]);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let holder = gated_task(&queue, "work", "holder", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 0)).await;

    let cancel = CancellationToken::new();
    let cancelled = {
        let queue = queue.clone();
        let cancel = cancel.clone();
        tokio::spawn(async move {
            queue
                .run("work", "cancelled", &cancel, async {
                    unreachable!("must never run")
                })
                .await
        })
    };
    let after = gated_task(&queue, "work", "after", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 2)).await;

    cancel.cancel();
    let err: QueueError = cancelled.await.unwrap().unwrap_err();
    assert_eq!(
        err,
        QueueError::Cancelled {
            lane: "work".to_string()
        }
    );
    assert_eq!(lane_counts(&queue, "work"), (1, 1));
    let recent = queue.snapshot().recent;
    assert_eq!(
        recent.last().map(|entry| entry.outcome.clone()),
        Some(Some(EntryOutcome::Cancelled))
    );

    // Dropping a queued call (aborting its task) leaves the queue too.
    let dropped = gated_task(&queue, "work", "dropped", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 2)).await;
    dropped.abort();
    settle_until(|| lane_counts(&queue, "work") == (1, 1)).await;

    gate.add_permits(2);
    holder.await.unwrap().unwrap();
    after.await.unwrap().unwrap();
    assert_eq!(*started.lock().unwrap(), vec!["holder", "after"]);

    // A token cancelled before the call never enqueues.
    let err = queue
        .run("work", "late", &cancel, async {})
        .await
        .unwrap_err();
    assert!(matches!(err, QueueError::Cancelled { .. }));
}

#[tokio::test(start_paused = true)]
async fn draining_rejects_new_work_but_finishes_queued_work() {
    let queue = queue_with(&[("work", 1)]);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let first = gated_task(&queue, "work", "first", gate.clone(), started.clone());
    let second = gated_task(&queue, "work", "second", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 1)).await;

    queue.set_draining(true);
    assert!(queue.is_draining());
    let cancel = CancellationToken::new();
    let err = queue
        .run("work", "new", &cancel, async {})
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QueueError::Draining {
            lane: "work".to_string()
        }
    );
    let err = queue
        .run("other", "new", &cancel, async {})
        .await
        .unwrap_err();
    assert!(matches!(err, QueueError::Draining { .. }));

    gate.add_permits(2);
    first.await.unwrap().unwrap();
    second.await.unwrap().unwrap();
    queue.wait_idle().await;
    queue.set_draining(false);
    assert_eq!(
        queue.run("work", "again", &cancel, async { 7 }).await,
        Ok(7)
    );
}

#[tokio::test(start_paused = true)]
async fn events_and_snapshot_describe_each_entry() {
    let queue = queue_with(&[("work", 1)]);
    let mut events = queue.subscribe();
    let cancel = CancellationToken::new();
    let value = queue
        .run("work", "sleeper", &cancel, async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "done"
        })
        .await;
    assert_eq!(value, Ok("done"));
    let events = drain_events(&mut events);
    let kinds: Vec<&str> = events
        .iter()
        .map(|event| match event {
            QueueEvent::Enqueued { .. } => "enqueued",
            QueueEvent::Started { .. } => "started",
            QueueEvent::Finished { .. } => "finished",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, vec!["enqueued", "started", "finished"]);
    let ids: Vec<_> = events.iter().map(QueueEvent::entry_id).collect();
    assert!(ids.iter().all(|id| *id == ids[0] && id.is_some()));
    assert!(events.iter().all(|event| event.lane() == Some("work")));
    let QueueEvent::Finished {
        duration,
        waited,
        outcome,
        label,
        ..
    } = &events[2]
    else {
        unreachable!()
    };
    assert_eq!(*duration, Duration::from_secs(5));
    assert_eq!(*waited, Duration::ZERO);
    assert_eq!(*outcome, EntryOutcome::Ok);
    assert_eq!(&**label, "sleeper");

    let snapshot = queue.snapshot();
    let lane = snapshot.lane("work").unwrap();
    assert_eq!(
        (lane.limit, lane.running, lane.queued, lane.oldest_wait),
        (1, 0, 0, None)
    );
    let finished = snapshot.recent.last().unwrap();
    assert_eq!(finished.state, EntryState::Finished);
    assert_eq!(finished.running_for, Some(Duration::from_secs(5)));

    let json = serde_json::to_value(&events[2]).unwrap();
    assert_eq!(json["type"], "finished");
    assert_eq!(json["duration_ms"], 5000);
    assert_eq!(json["outcome"]["kind"], "ok");
}

#[tokio::test(start_paused = true)]
async fn running_entries_show_in_the_snapshot_with_their_times() {
    let queue = queue_with(&[("work", 1)]);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let first = gated_task(&queue, "work", "first", gate.clone(), started.clone());
    let second = gated_task(&queue, "work", "second", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "work") == (1, 1)).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let snapshot = queue.snapshot();
    let states: Vec<(&str, EntryState, Duration, Option<Duration>)> = snapshot
        .active
        .iter()
        .map(|entry| (&*entry.label, entry.state, entry.waited, entry.running_for))
        .collect();
    assert_eq!(
        states,
        vec![
            (
                "first",
                EntryState::Running,
                Duration::ZERO,
                Some(Duration::from_secs(3))
            ),
            ("second", EntryState::Queued, Duration::from_secs(3), None),
        ]
    );
    gate.add_permits(2);
    first.await.unwrap().unwrap();
    second.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn errors_and_panics_are_recorded_and_release_the_slot() {
    let queue = queue_with(&[("work", 1)]);
    let cancel = CancellationToken::new();
    let result = queue
        .run_result("work", "failing", &cancel, async {
            Err::<(), _>("disk full")
        })
        .await;
    assert_eq!(result, Ok(Err("disk full")));
    let recent = queue.snapshot().recent;
    assert_eq!(
        recent.last().unwrap().outcome,
        Some(EntryOutcome::Error {
            message: "disk full".to_string()
        })
    );

    let panicking = {
        let queue = queue.clone();
        tokio::spawn(async move {
            let cancel = CancellationToken::new();
            queue
                .run("work", "panics", &cancel, async { panic!("boom") })
                .await
        })
    };
    assert!(panicking.await.unwrap_err().is_panic());
    assert_eq!(
        queue.snapshot().recent.last().unwrap().outcome,
        Some(EntryOutcome::Panicked)
    );
    assert_eq!(queue.run("work", "next", &cancel, async { 1 }).await, Ok(1));
    assert_eq!(lane_counts(&queue, "work"), (0, 0));
}

#[tokio::test(start_paused = true)]
async fn lanes_are_independent_and_a_blank_lane_is_main() {
    let queue = LaneQueue::default();
    assert_eq!(queue.limit(""), 4);
    assert_eq!(queue.limit("subagent"), 8);
    assert_eq!(queue.limit("cron"), 1);
    assert_eq!(queue.limit("session:abc"), 1);
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(Vec::new()));
    let blocked = gated_task(&queue, "cron", "cron-1", gate.clone(), started.clone());
    let blocked_2 = gated_task(&queue, "cron", "cron-2", gate.clone(), started.clone());
    settle_until(|| lane_counts(&queue, "cron") == (1, 1)).await;
    // Another lane is not held up by a full cron lane.
    let cancel = CancellationToken::new();
    assert_eq!(
        queue.run(" ", "blank", &cancel, async { "main" }).await,
        Ok("main")
    );
    assert!(queue.snapshot().lane("main").is_some());
    gate.add_permits(2);
    blocked.await.unwrap().unwrap();
    blocked_2.await.unwrap().unwrap();
}

/// A spawn failure inside a lane task must give the slot back at once (ENOENT and EACCES).
#[tokio::test]
async fn spawn_failure_releases_the_lane_slot() {
    let queue = queue_with(&[("exec", 1)]);
    let cancel = CancellationToken::new();
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("plain.txt");
    std::fs::write(&not_executable, "not a program").unwrap();
    let programs = [
        "/nonexistent/clawdeck-missing".to_string(),
        not_executable.to_string_lossy().into_owned(),
    ];
    for program in &programs {
        let result = queue
            .run_result("exec", "exec", &cancel, async {
                let running = process::spawn(ProcessSpec::new(program.clone()))?;
                Ok::<_, SpawnError>(running.wait().await)
            })
            .await
            .unwrap();
        assert!(
            matches!(
                result,
                Err(SpawnError::NotFound { .. } | SpawnError::PermissionDenied { .. })
            ),
            "{result:?}"
        );
        assert_eq!(lane_counts(&queue, "exec"), (0, 0));
    }
    let outcomes: Vec<String> = queue
        .snapshot()
        .recent
        .iter()
        .map(|entry| match &entry.outcome {
            Some(EntryOutcome::Error { message }) => message.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        outcomes[0],
        "Command not found: /nonexistent/clawdeck-missing"
    );
    assert!(
        outcomes[1].starts_with("Command not executable (permission denied)"),
        "{outcomes:?}"
    );
    // The lane still works, with a real process.
    let outcome = queue
        .run("exec", "ok", &cancel, async {
            process::spawn(ProcessSpec::new(support::fake_cli_str()).args(["exit", "0"]))
                .unwrap()
                .wait()
                .await
        })
        .await
        .unwrap();
    assert!(outcome.success());
}

#[tokio::test(start_paused = true)]
async fn many_tasks_over_many_lanes_all_finish_and_respect_limits() {
    let queue = queue_with(&[("a", 2), ("b", 3)]);
    let peak = Arc::new(Mutex::new([0usize; 2]));
    let current = Arc::new(Mutex::new([0usize; 2]));
    let mut tasks = Vec::new();
    for i in 0..200 {
        let queue = queue.clone();
        let (peak, current) = (peak.clone(), current.clone());
        let (lane, index) = if i % 2 == 0 { ("a", 0) } else { ("b", 1) };
        tasks.push(tokio::spawn(async move {
            let cancel = CancellationToken::new();
            queue
                .run(lane, "t", &cancel, async move {
                    {
                        let mut current = current.lock().unwrap();
                        current[index] += 1;
                        let mut peak = peak.lock().unwrap();
                        peak[index] = peak[index].max(current[index]);
                    }
                    tokio::time::sleep(Duration::from_millis(10 + (i % 7) as u64)).await;
                    current.lock().unwrap()[index] -= 1;
                })
                .await
        }));
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(*peak.lock().unwrap(), [2, 3]);
    queue.wait_idle().await;
    assert_eq!(queue.snapshot().recent.len(), 200);
}

#[tokio::test(start_paused = true)]
async fn kill_fires_one_entrys_token_running_or_waiting_and_records_killed() {
    let queue = queue_with(&[("work", 1)]);
    let mut events = queue.subscribe();
    // A running task that stops when its token fires, as a tool does.
    let running_cancel = CancellationToken::new();
    let running = {
        let (queue, cancel) = (queue.clone(), running_cancel.clone());
        tokio::spawn(async move {
            queue
                .run_result("work", "long", &cancel, async {
                    cancel.cancelled().await;
                    Err::<(), _>("cancelled")
                })
                .await
        })
    };
    let waiting_cancel = CancellationToken::new();
    let waiting = {
        let (queue, cancel) = (queue.clone(), waiting_cancel.clone());
        tokio::spawn(async move {
            queue
                .run("work", "waiting", &cancel, async {
                    unreachable!("a killed waiting entry never runs")
                })
                .await
        })
    };
    settle_until(|| lane_counts(&queue, "work") == (1, 1)).await;
    let ids: Vec<u64> = queue.snapshot().active.iter().map(|e| e.id).collect();

    let killed = queue.kill(ids[1]).expect("the waiting entry");
    assert!(!killed.running);
    assert!(waiting_cancel.is_cancelled());
    assert!(!running_cancel.is_cancelled(), "only that entry's token");
    assert!(matches!(
        waiting.await.unwrap(),
        Err(QueueError::Cancelled { .. })
    ));
    let killed = queue.kill(ids[0]).expect("the running entry");
    assert!(killed.running);
    assert_eq!(&*killed.label, "long");
    assert!(running.await.unwrap().unwrap().is_err());
    assert_eq!(lane_counts(&queue, "work"), (0, 0));
    assert!(
        queue.kill(ids[0]).is_none(),
        "a finished entry is not killed"
    );

    let outcomes: Vec<(u64, Option<EntryOutcome>)> = queue
        .snapshot()
        .recent
        .iter()
        .map(|e| (e.id, e.outcome.clone()))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            (ids[1], Some(EntryOutcome::Killed)),
            (ids[0], Some(EntryOutcome::Killed))
        ]
    );
    let mut requested = Vec::new();
    while let Ok(ev) = events.try_recv() {
        if let QueueEvent::KillRequested { id, running, .. } = ev {
            requested.push((id, running));
        }
    }
    assert_eq!(requested, vec![(ids[1], false), (ids[0], true)]);
}

#[tokio::test(start_paused = true)]
async fn a_killed_entry_that_still_ends_well_keeps_ok() {
    let queue = queue_with(&[("work", 1)]);
    let gate = Arc::new(Semaphore::new(0));
    let cancel = CancellationToken::new();
    let task = {
        let (queue, cancel, gate) = (queue.clone(), cancel.clone(), gate.clone());
        tokio::spawn(async move {
            queue
                .run("work", "ignores its token", &cancel, async move {
                    let _ = gate.acquire().await;
                })
                .await
        })
    };
    settle_until(|| lane_counts(&queue, "work") == (1, 0)).await;
    let id = queue.snapshot().active[0].id;
    queue.kill(id).unwrap();
    gate.add_permits(1);
    task.await.unwrap().unwrap();
    assert_eq!(
        queue.snapshot().recent.last().map(|e| e.outcome.clone()),
        Some(Some(EntryOutcome::Ok))
    );
}
