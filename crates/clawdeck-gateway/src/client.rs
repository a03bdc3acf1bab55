//! A gateway client that stays attached: it reconnects with backoff after a drop, replays its
//! subscriptions on every new connection, and publishes everything as one event stream
//! (connection changes, subscription snapshots, the gateway's events).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::connection::{ConnectOptions, Connection, Incoming};
use super::endpoint::GatewayEndpoint;
use super::error::GatewayError;
pub use super::event_stream::ClientEvent;
use super::event_stream::{BoundedSender, EventStream};
use super::frames::Hello;
use super::identity::DeviceIdentity;

/// Reconnect delays: doubling from `initial` up to `max`.
#[derive(Debug, Clone)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            initial: Duration::from_millis(250),
            max: Duration::from_secs(10),
        }
    }
}

impl Backoff {
    /// The delay before attempt `n` (0-based).
    pub(crate) fn delay(&self, attempt: u32) -> Duration {
        let factor = 1u32.checked_shl(attempt.min(16)).unwrap_or(u32::MAX);
        self.initial.saturating_mul(factor).min(self.max)
    }
}

#[derive(Debug, Clone)]
struct Subscription {
    method: String,
    params: Value,
}

struct Shared {
    endpoint: GatewayEndpoint,
    current: Mutex<Option<Connection>>,
    subscriptions: Mutex<Vec<Subscription>>,
    subscribers: Mutex<Vec<Subscriber>>,
    stop: CancellationToken,
}

/// One subscriber's channel.
enum Subscriber {
    /// Unbounded: nothing is dropped for a slow reader (the console's feeds).
    Lossless(mpsc::UnboundedSender<ClientEvent>),
    /// Bounded: what does not fit is dropped and counted (`gateway watch`, whose reader may
    /// stop reading while the gateway floods).
    Lossy {
        tx: mpsc::Sender<ClientEvent>,
        dropped: Arc<AtomicU64>,
    },
    /// Bounded for gateway events, with the gap said in place (the console's feeds, router
    /// runs).
    Bounded(BoundedSender),
}

impl Subscriber {
    /// Sends `event`; false once the subscriber went away.
    fn send(&self, event: ClientEvent) -> bool {
        match self {
            Subscriber::Lossless(tx) => tx.send(event).is_ok(),
            Subscriber::Lossy { tx, dropped } => match tx.try_send(event) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    dropped.fetch_add(1, Ordering::Relaxed);
                    true
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            },
            Subscriber::Bounded(tx) => tx.send(event),
        }
    }
}

impl Shared {
    /// Sends to every live subscriber, forgetting those that went away.
    fn publish(&self, event: ClientEvent) {
        if let Ok(mut subscribers) = self.subscribers.lock() {
            subscribers.retain(|subscriber| subscriber.send(event.clone()));
        }
    }
}

/// An attached gateway. Cheap to clone; dropping the last clone does not stop it, `close` does.
#[derive(Clone)]
pub struct GatewayClient {
    shared: Arc<Shared>,
    hello: Arc<Hello>,
}

impl GatewayClient {
    /// Connects (errors come back as they are: unreachable, auth refused, pairing ...), then
    /// keeps the connection up in the background. A gateway that answers "starting; retry
    /// shortly" is retried for up to `options.ready_wait`; after that its last answer is the
    /// error.
    pub async fn connect(
        endpoint: GatewayEndpoint,
        identity: DeviceIdentity,
        options: ConnectOptions,
        backoff: Backoff,
    ) -> Result<GatewayClient, GatewayError> {
        let wait = options.ready_wait;
        Self::connect_until(
            endpoint,
            identity,
            options,
            backoff,
            tokio::time::sleep(wait),
        )
        .await
    }

    /// `connect`, retrying while the gateway is unreachable (with `backoff`): each wait is
    /// reported to `report` as `Disconnected`, a failure that retrying cannot mend as `Failed`.
    /// `None` when it failed or `report` answered `false` (nobody listens any more).
    pub(crate) async fn connect_retrying(
        endpoint: GatewayEndpoint,
        identity: DeviceIdentity,
        options: ConnectOptions,
        backoff: Backoff,
        mut report: impl FnMut(ClientEvent) -> bool,
    ) -> Option<GatewayClient> {
        let mut attempt = 0u32;
        loop {
            match Self::connect(
                endpoint.clone(),
                identity.clone(),
                options.clone(),
                backoff.clone(),
            )
            .await
            {
                Ok(client) => return Some(client),
                Err(err) if err.is_retryable() => {
                    let retry_in = backoff.delay(attempt);
                    attempt = attempt.saturating_add(1);
                    let waiting = ClientEvent::Disconnected {
                        reason: err.to_string(),
                        retry_in,
                    };
                    if !report(waiting) {
                        return None;
                    }
                    tokio::time::sleep(retry_in).await;
                }
                Err(err) => {
                    report(ClientEvent::Failed(err));
                    return None;
                }
            }
        }
    }

    /// `connect`, waiting out a starting gateway until `give_up` resolves (a caller's deadline
    /// or stop) instead of `options.ready_wait`. Giving up while the gateway still says it is
    /// starting returns that answer; giving up before any answer returns `Timeout`.
    pub async fn connect_until(
        endpoint: GatewayEndpoint,
        identity: DeviceIdentity,
        options: ConnectOptions,
        backoff: Backoff,
        give_up: impl std::future::Future<Output = ()>,
    ) -> Result<GatewayClient, GatewayError> {
        let (connection, hello, incoming) =
            open_when_ready(&endpoint, &identity, &options, give_up).await?;
        let shared = Arc::new(Shared {
            endpoint,
            current: Mutex::new(Some(connection)),
            subscriptions: Mutex::new(Vec::new()),
            subscribers: Mutex::new(Vec::new()),
            stop: CancellationToken::new(),
        });
        let hello = Arc::new(hello);
        tokio::spawn(supervise(
            shared.clone(),
            identity,
            options,
            backoff,
            incoming,
        ));
        Ok(GatewayClient { shared, hello })
    }

    /// The hello of the first connection (server version, methods, granted scopes).
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    pub fn endpoint(&self) -> &GatewayEndpoint {
        &self.shared.endpoint
    }

    /// Everything that happens from now on, in order and without loss; the stream ends when
    /// the client is closed or gives up.
    pub fn events(&self) -> mpsc::UnboundedReceiver<ClientEvent> {
        let (tx, rx) = mpsc::unbounded_channel();
        if let Ok(mut subscribers) = self.shared.subscribers.lock() {
            subscribers.push(Subscriber::Lossless(tx));
        }
        rx
    }

    /// Everything that happens from now on, in order; never more than `capacity` gateway
    /// events wait for the reader, and what was dropped is said in its place
    /// (`ClientEvent::Lagged`). For readers that rebuild from a fresh list after a gap.
    pub fn event_stream(&self, capacity: usize) -> EventStream {
        let (tx, rx) = super::event_stream::bounded(capacity);
        if let Ok(mut subscribers) = self.shared.subscribers.lock() {
            subscribers.push(Subscriber::Bounded(tx));
        }
        rx
    }

    /// Everything that happens from now on, in order, but never more than `capacity` events
    /// waiting for the reader: what does not fit is dropped and counted in `dropped`. For a
    /// reader that may fall behind a flooding gateway and must not grow without bound.
    pub fn events_lossy(
        &self,
        capacity: usize,
        dropped: Arc<AtomicU64>,
    ) -> mpsc::Receiver<ClientEvent> {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        if let Ok(mut subscribers) = self.shared.subscribers.lock() {
            subscribers.push(Subscriber::Lossy { tx, dropped });
        }
        rx
    }

    fn connection(&self) -> Result<Connection, GatewayError> {
        self.shared
            .current
            .lock()
            .ok()
            .and_then(|c| c.clone())
            .filter(|c| !c.is_closed())
            .ok_or_else(|| GatewayError::Disconnected {
                reason: format!("{} is reconnecting", self.shared.endpoint.url),
            })
    }

    /// Calls a method on the current connection.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, GatewayError> {
        self.connection()?.request(method, params).await
    }

    pub async fn request_with_timeout(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, GatewayError> {
        self.connection()?
            .request_with_timeout(method, params, timeout)
            .await
    }

    /// Calls a subscribing method now and again after every reconnect; returns the first
    /// response (later ones arrive as `ClientEvent::Subscribed`).
    pub async fn subscribe(&self, method: &str, params: Value) -> Result<Value, GatewayError> {
        let payload = self.request(method, params.clone()).await?;
        if let Ok(mut subs) = self.shared.subscriptions.lock() {
            subs.push(Subscription {
                method: method.to_string(),
                params,
            });
        }
        Ok(payload)
    }

    /// Stops replaying a subscription made with `subscribe` (the same method and params); the
    /// caller tells the gateway itself where the protocol has a method for it.
    pub(crate) fn forget_subscription(&self, method: &str, params: &Value) {
        if let Ok(mut subs) = self.shared.subscriptions.lock() {
            subs.retain(|s| !(s.method == method && &s.params == params));
        }
    }

    /// Stops reconnecting and closes the socket.
    pub fn close(&self) {
        self.shared.stop.cancel();
        if let Some(connection) = self.shared.current.lock().ok().and_then(|c| c.clone()) {
            connection.close();
        }
    }
}

type Opened = (Connection, Hello, mpsc::UnboundedReceiver<Incoming>);

/// Opens a connection, trying again while the gateway says it is still starting (after the
/// pause it asks for) until `give_up` resolves.
async fn open_when_ready(
    endpoint: &GatewayEndpoint,
    identity: &DeviceIdentity,
    options: &ConnectOptions,
    give_up: impl std::future::Future<Output = ()>,
) -> Result<Opened, GatewayError> {
    tokio::pin!(give_up);
    let started = std::time::Instant::now();
    let mut last: Option<GatewayError> = None;
    let gave_up = |last: Option<GatewayError>| {
        last.unwrap_or_else(|| GatewayError::Timeout {
            method: format!("connect to {}", endpoint.url),
            ms: started.elapsed().as_millis() as u64,
        })
    };
    loop {
        let error = tokio::select! {
            opened = Connection::open(endpoint, identity, options) => match opened {
                Ok(opened) => return Ok(opened),
                Err(err) => err,
            },
            _ = &mut give_up => return Err(gave_up(last)),
        };
        let Some(asked) = error.starting_retry_after() else {
            return Err(error);
        };
        tracing::debug!("{error}; trying again");
        last = Some(error);
        tokio::select! {
            // The pause the gateway asked for, as OpenClaw's own client does: a doubling
            // backoff would keep waiting long after the gateway is ready.
            _ = tokio::time::sleep(asked) => {}
            _ = &mut give_up => return Err(gave_up(last)),
        }
    }
}

async fn supervise(
    shared: Arc<Shared>,
    identity: DeviceIdentity,
    options: ConnectOptions,
    backoff: Backoff,
    incoming: mpsc::UnboundedReceiver<Incoming>,
) {
    keep_connected(&shared, identity, options, backoff, incoming).await;
    // Closed or given up: subscribers' streams end.
    if let Ok(mut subscribers) = shared.subscribers.lock() {
        subscribers.clear();
    }
}

async fn keep_connected(
    shared: &Shared,
    identity: DeviceIdentity,
    options: ConnectOptions,
    backoff: Backoff,
    mut incoming: mpsc::UnboundedReceiver<Incoming>,
) {
    loop {
        // Forward this connection's events until it closes.
        let reason = loop {
            tokio::select! {
                _ = shared.stop.cancelled() => return,
                next = incoming.recv() => match next {
                    Some(Incoming::Event(ev)) => {
                        shared.publish(ClientEvent::Event(Arc::new(ev)));
                        // Forward whatever else is already queued without another wake-up.
                        let mut closed = None;
                        while let Ok(next) = incoming.try_recv() {
                            match next {
                                Incoming::Event(ev) => shared.publish(ClientEvent::Event(Arc::new(ev))),
                                Incoming::Closed(reason) => {
                                    closed = Some(reason);
                                    break;
                                }
                            }
                        }
                        if let Some(reason) = closed {
                            break reason;
                        }
                    }
                    Some(Incoming::Closed(reason)) => break reason,
                    None => break "connection ended".to_string(),
                },
            }
        };
        if let Ok(mut current) = shared.current.lock() {
            *current = None;
        }
        // Reconnect with backoff.
        let mut attempt = 0u32;
        let mut last_reason = reason;
        let mut asked: Option<Duration> = None;
        let (connection, hello, next_incoming) = loop {
            let retry_in = backoff.delay(attempt).max(asked.take().unwrap_or_default());
            shared.publish(ClientEvent::Disconnected {
                reason: last_reason.clone(),
                retry_in,
            });
            tokio::select! {
                _ = shared.stop.cancelled() => return,
                _ = tokio::time::sleep(retry_in) => {}
            }
            match Connection::open(&shared.endpoint, &identity, &options).await {
                Ok(opened) => break opened,
                Err(err) if err.is_retryable() => {
                    asked = err.starting_retry_after();
                    last_reason = err.to_string();
                    attempt = attempt.saturating_add(1);
                }
                Err(err) => {
                    shared.publish(ClientEvent::Failed(err));
                    return;
                }
            }
        };
        if let Ok(mut current) = shared.current.lock() {
            *current = Some(connection.clone());
        }
        incoming = next_incoming;
        shared.publish(ClientEvent::Connected {
            hello: Arc::new(hello),
            reconnect: true,
        });
        let subscriptions = shared
            .subscriptions
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default();
        for sub in subscriptions {
            let event = match connection.request(&sub.method, sub.params.clone()).await {
                Ok(payload) => ClientEvent::Subscribed {
                    method: sub.method,
                    payload,
                },
                Err(error) => ClientEvent::SubscribeFailed {
                    method: sub.method,
                    error,
                },
            };
            shared.publish(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let b = Backoff {
            initial: Duration::from_millis(100),
            max: Duration::from_secs(1),
        };
        assert_eq!(b.delay(0), Duration::from_millis(100));
        assert_eq!(b.delay(2), Duration::from_millis(400));
        assert_eq!(b.delay(10), Duration::from_secs(1));
        assert_eq!(b.delay(u32::MAX), Duration::from_secs(1));
    }
}
