//! A client's event stream for a long-lived reader (the console's feeds, a router run): never
//! more than its capacity of gateway events waiting, and a gap is said, never silent.
//!
//! Connection changes and subscription answers always pass (a handful per reconnect); the
//! gateway's own events (`ClientEvent::Event`, which a gateway can send without end) are
//! dropped while the reader is `capacity` behind. The reader then gets
//! `ClientEvent::Lagged { dropped }` in the place of what was dropped, and rebuilds its state
//! from a fresh list (the roster's snapshot, the pending approvals).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;

use super::error::GatewayError;
use super::frames::{EventFrame, Hello};

/// What a subscriber of the client sees.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    /// A connection is up (first or after a reconnect).
    Connected { hello: Arc<Hello>, reconnect: bool },
    /// A subscription was (re)established; `payload` is the response (e.g. the session roster
    /// of `sessions.subscribe`), so views rebuild their state from it after a reconnect.
    Subscribed { method: String, payload: Value },
    /// A replayed subscription was refused.
    SubscribeFailed { method: String, error: GatewayError },
    /// The connection dropped; the client retries after `retry_in`.
    Disconnected { reason: String, retry_in: Duration },
    /// The client stopped retrying (credentials refused, pairing pending, other protocol).
    Failed(GatewayError),
    /// A server event.
    Event(Arc<EventFrame>),
    /// `dropped` server events were left out here because the reader fell behind (only on an
    /// [`EventStream`]); rebuild from a fresh list.
    Lagged { dropped: u64 },
}

/// The gateway events a console feed lets wait before it drops (and says so).
pub const FEED_CAPACITY: usize = 4096;

/// The client's side of an [`EventStream`].
pub(crate) struct BoundedSender {
    tx: mpsc::UnboundedSender<ClientEvent>,
    shared: Arc<Counters>,
    capacity: usize,
}

#[derive(Default)]
struct Counters {
    /// Events sent and not yet received.
    queued: AtomicUsize,
    /// Gateway events dropped since the reader last heard of a gap.
    gap: AtomicU64,
}

/// The reader's side: [`recv`](Self::recv) as an mpsc receiver's, with `Lagged` for gaps.
pub struct EventStream {
    rx: mpsc::UnboundedReceiver<ClientEvent>,
    shared: Arc<Counters>,
}

/// A connected pair holding at most `capacity` (at least 1) gateway events.
pub(crate) fn bounded(capacity: usize) -> (BoundedSender, EventStream) {
    let (tx, rx) = mpsc::unbounded_channel();
    let shared = Arc::new(Counters::default());
    (
        BoundedSender {
            tx,
            shared: Arc::clone(&shared),
            capacity: capacity.max(1),
        },
        EventStream { rx, shared },
    )
}

impl BoundedSender {
    /// Sends `event`, or drops and counts it when it is a gateway event and the reader is
    /// `capacity` behind; false once the reader went away.
    pub(crate) fn send(&self, event: ClientEvent) -> bool {
        let counters = &self.shared;
        let from_gateway = matches!(event, ClientEvent::Event(_));
        if from_gateway && counters.queued.load(Ordering::SeqCst) >= self.capacity {
            counters.gap.fetch_add(1, Ordering::SeqCst);
            return !self.tx.is_closed();
        }
        // The gap goes first, in the place of what was dropped.
        let gap = counters.gap.swap(0, Ordering::SeqCst);
        if gap > 0 && !self.push(ClientEvent::Lagged { dropped: gap }) {
            return false;
        }
        self.push(event)
    }

    fn push(&self, event: ClientEvent) -> bool {
        self.shared.queued.fetch_add(1, Ordering::SeqCst);
        self.tx.send(event).is_ok()
    }
}

impl EventStream {
    /// The next event; `Lagged` when gateway events were dropped since the last one; None when
    /// the client is closed or gave up.
    pub async fn recv(&mut self) -> Option<ClientEvent> {
        // Drops happen only while events wait, so a gap with nothing after it is found here,
        // once the reader caught up.
        if self.rx.is_empty() {
            let gap = self.shared.gap.swap(0, Ordering::SeqCst);
            if gap > 0 {
                return Some(ClientEvent::Lagged { dropped: gap });
            }
        }
        let event = self.rx.recv().await?;
        self.shared.queued.fetch_sub(1, Ordering::SeqCst);
        Some(event)
    }

    /// How many events wait now (bounded by the capacity plus a few connection changes).
    pub fn waiting(&self) -> usize {
        self.shared.queued.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::EventFrame;

    fn frame(n: u64) -> ClientEvent {
        ClientEvent::Event(Arc::new(EventFrame {
            event: "sessions.changed".into(),
            payload: serde_json::json!({ "n": n }),
            seq: Some(n),
        }))
    }

    fn seq(event: &ClientEvent) -> Option<u64> {
        match event {
            ClientEvent::Event(frame) => frame.seq,
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_flood_is_bounded_and_its_gap_is_said_in_place() {
        let (tx, mut rx) = bounded(3);
        for n in 0..100_000 {
            assert!(tx.send(frame(n)));
        }
        assert_eq!(rx.waiting(), 3);
        // A connection change is never dropped.
        assert!(tx.send(ClientEvent::Disconnected {
            reason: "x".into(),
            retry_in: std::time::Duration::ZERO
        }));
        for n in 0..3 {
            assert_eq!(seq(&rx.recv().await.unwrap()), Some(n));
        }
        assert!(matches!(
            rx.recv().await.unwrap(),
            ClientEvent::Lagged { dropped: 99_997 }
        ));
        assert!(matches!(
            rx.recv().await.unwrap(),
            ClientEvent::Disconnected { .. }
        ));
        assert_eq!(rx.waiting(), 0);
    }

    #[tokio::test]
    async fn a_gap_with_nothing_after_it_is_said_once_the_reader_caught_up() {
        let (tx, mut rx) = bounded(1);
        tx.send(frame(1));
        tx.send(frame(2));
        assert_eq!(seq(&rx.recv().await.unwrap()), Some(1));
        assert!(matches!(
            rx.recv().await.unwrap(),
            ClientEvent::Lagged { dropped: 1 }
        ));
        tx.send(frame(3));
        assert_eq!(seq(&rx.recv().await.unwrap()), Some(3));
    }

    #[tokio::test]
    async fn a_gone_reader_ends_the_subscription() {
        let (tx, rx) = bounded(1);
        drop(rx);
        assert!(!tx.send(frame(1)));
        assert!(!tx.send(frame(2)));
    }
}
