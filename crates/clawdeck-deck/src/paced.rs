//! Back-pressure for event streams a slow reader must not silently lose. Each event travels with
//! one permit of a bounded budget and gives it back when the permit is dropped, so a producer runs
//! at most `in_flight` events ahead of whoever finishes with them, wherever that happens (a
//! router chunk's permit waits with the chunk until the console has sanitized it). Nothing is
//! counted by hand and nothing is forgotten: dropping is giving back.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, mpsc};

/// One event's share of the budget; given back when dropped (the field is held for its drop).
#[derive(Debug, Default)]
pub struct Permit(#[allow(dead_code)] Option<OwnedSemaphorePermit>);

impl Permit {
    /// A permit of no budget (events made by hand, tests).
    pub fn none() -> Permit {
        Permit(None)
    }
}

/// A bounded in-flight budget shared by one producer and the events it has let out.
#[derive(Debug, Clone)]
pub(crate) struct Pacer(Arc<Semaphore>);

impl Pacer {
    pub fn new(in_flight: usize) -> Pacer {
        Pacer(Arc::new(Semaphore::new(in_flight.max(1))))
    }

    /// Waits for room; `None` once the pacer is closed.
    pub async fn admit(&self) -> Option<Permit> {
        Arc::clone(&self.0)
            .acquire_owned()
            .await
            .ok()
            .map(|p| Permit(Some(p)))
    }
}

/// What a paced broadcast reader passes on: an event with its permit, or how many events the
/// reader missed because the broadcast moved on while the budget was spent (said, never silent).
#[derive(Debug)]
pub enum Delivery<T> {
    Event(T, Permit),
    Lagged(u64),
}

/// Reads `events` and passes each on with a permit of `in_flight`; stops when `send` says the
/// reader is gone or the broadcast closes. Runs on its own task.
pub fn forward_broadcast<T, F>(mut events: broadcast::Receiver<T>, in_flight: usize, send: F)
where
    T: Clone + Send + 'static,
    F: Fn(Delivery<T>) -> bool + Send + 'static,
{
    let pacer = Pacer::new(in_flight);
    tokio::spawn(async move {
        loop {
            let Some(permit) = pacer.admit().await else {
                return;
            };
            let delivery = match events.recv().await {
                Ok(event) => Delivery::Event(event, permit),
                Err(broadcast::error::RecvError::Lagged(n)) => Delivery::Lagged(n),
                Err(broadcast::error::RecvError::Closed) => return,
            };
            if !send(delivery) {
                return;
            }
        }
    });
}

/// Passes on everything `events` yields, each with a permit of `in_flight`; nothing is dropped
/// (what does not fit waits in the channel). Runs on its own task.
pub fn forward_channel<T, F>(mut events: mpsc::UnboundedReceiver<T>, in_flight: usize, send: F)
where
    T: Send + 'static,
    F: Fn(T, Permit) -> bool + Send + 'static,
{
    let pacer = Pacer::new(in_flight);
    tokio::spawn(async move {
        loop {
            let Some(permit) = pacer.admit().await else {
                return;
            };
            let Some(event) = events.recv().await else {
                return;
            };
            if !send(event, permit) {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    #[tokio::test]
    async fn a_producer_runs_at_most_the_budget_ahead_and_dropping_gives_back() {
        let (tx, rx) = mpsc::unbounded_channel();
        for i in 0..10 {
            tx.send(i).unwrap();
        }
        let held: Arc<Mutex<Vec<(i32, Permit)>>> = Arc::default();
        let sink = Arc::clone(&held);
        forward_channel(rx, 3, move |event, permit| {
            sink.lock().unwrap().push((event, permit));
            true
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(
            held.lock().unwrap().len(),
            3,
            "three in flight, the rest wait"
        );
        // Handling two (dropping their permits) lets two more through.
        held.lock().unwrap().drain(..2);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let events: Vec<i32> = held.lock().unwrap().iter().map(|(e, _)| *e).collect();
        assert_eq!(events, [2, 3, 4], "nothing lost, order kept");
    }

    #[tokio::test]
    async fn a_broadcast_reader_that_falls_behind_is_told_how_far() {
        let (tx, rx) = broadcast::channel(4);
        let got: Arc<Mutex<Vec<Delivery<i32>>>> = Arc::default();
        let sink = Arc::clone(&got);
        forward_broadcast(rx, 1, move |d| {
            sink.lock().unwrap().push(d);
            true
        });
        // Ten events into a broadcast of four before the reader runs: six are gone.
        for i in 0..10 {
            tx.send(i).unwrap();
        }
        let (mut skipped, mut seen) = (0, Vec::new());
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_millis(10)).await;
            // Taking the deliveries drops their permits: the reader may go on.
            for d in got.lock().unwrap().drain(..) {
                match d {
                    Delivery::Lagged(n) => skipped += n,
                    Delivery::Event(e, _) => seen.push(e),
                }
            }
        }
        assert_eq!(skipped, 6, "the skipped events are reported");
        assert_eq!(seen, [6, 7, 8, 9], "the rest arrive in order");
    }
}
