//! Lane queue overhead (`cargo bench --bench queue`): 100,000 no-op tasks over 8 lanes against
//! a bare `tokio::spawn` of the same tasks, measured in the same run. Targets: under 1 s in
//! total and under 5 µs extra per task.

use std::time::{Duration, Instant};

use clawdeck_core::queue::{LaneLimits, LaneQueue};
use tokio_util::sync::CancellationToken;

#[path = "support/timing.rs"]
mod timing;
use timing::median;

const TASKS: usize = 100_000;
const LANES: [&str; 8] = [
    "main",
    "cron",
    "subagent",
    "nested",
    "session:a",
    "session:b",
    "batch",
    "hooks",
];
const ROUNDS: usize = 5;

fn runtime() -> tokio::runtime::Runtime {
    match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => panic!("tokio runtime: {err}"),
    }
}

async fn bare_spawn() -> Duration {
    let started = Instant::now();
    let mut handles = Vec::with_capacity(TASKS);
    for _ in 0..TASKS {
        handles.push(tokio::spawn(async {}));
    }
    for handle in handles {
        if let Err(err) = handle.await {
            panic!("task: {err}");
        }
    }
    started.elapsed()
}

async fn queued(queue: &LaneQueue) -> Duration {
    let cancel = CancellationToken::new();
    let started = Instant::now();
    let mut handles = Vec::with_capacity(TASKS);
    for index in 0..TASKS {
        let queue = queue.clone();
        let cancel = cancel.clone();
        handles.push(tokio::spawn(async move {
            queue
                .run(LANES[index % LANES.len()], "noop", &cancel, async {})
                .await
        }));
    }
    for handle in handles {
        match handle.await {
            Ok(Ok(())) => {}
            Ok(Err(err)) => panic!("queue: {err}"),
            Err(err) => panic!("task: {err}"),
        }
    }
    started.elapsed()
}

fn queue_with_limit(limit: usize) -> LaneQueue {
    let mut limits = LaneLimits::default();
    for lane in LANES {
        limits.limits.insert(lane.to_string(), limit);
    }
    LaneQueue::new(limits)
}

fn main() {
    let runtime = runtime();
    println!(
        "lane queue benchmark: {TASKS} no-op tasks over {} lanes, median of {ROUNDS} rounds",
        LANES.len()
    );
    let configurations = [
        (
            "limit 1 per lane (almost every task waits), no subscriber",
            1,
            false,
        ),
        ("limit 1 per lane, console subscribed to events", 1, true),
        ("limit 64 per lane, console subscribed", 64, true),
        ("OpenClaw default limits, console subscribed", 0, true),
    ];
    for (name, limit, subscribed) in configurations {
        let queue = if limit == 0 {
            LaneQueue::new(LaneLimits::default())
        } else {
            queue_with_limit(limit)
        };
        let drain = subscribed.then(|| {
            let mut events = queue.subscribe();
            runtime.spawn(async move {
                while let Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) =
                    events.recv().await
                {}
            })
        });
        let mut base = Vec::new();
        let mut with_queue = Vec::new();
        for _ in 0..ROUNDS {
            base.push(runtime.block_on(bare_spawn()));
            with_queue.push(runtime.block_on(queued(&queue)));
        }
        if let Some(drain) = drain {
            drain.abort();
        }
        let (base, with_queue) = (median(base), median(with_queue));
        let extra_per_task = with_queue.saturating_sub(base).as_secs_f64() * 1e6 / TASKS as f64;
        println!(
            "(b) {name}: bare tokio::spawn {:.1} ms, through the queue {:.1} ms (ratio {:.2}); {:.2} µs extra per task; total {} (target < 1 s), per task {} (target < 5 µs)",
            base.as_secs_f64() * 1000.0,
            with_queue.as_secs_f64() * 1000.0,
            with_queue.as_secs_f64() / base.as_secs_f64(),
            extra_per_task,
            if with_queue < Duration::from_secs(1) {
                "PASS"
            } else {
                "MISS"
            },
            if extra_per_task < 5.0 { "PASS" } else { "MISS" },
        );
    }
}
