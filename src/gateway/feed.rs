//! Keeps a session roster fed: attaches to each gateway in the background (retrying with
//! backoff until it answers), subscribes to `sessions.subscribe` (which answers only
//! `{subscribed: true}`), takes a `sessions.list` snapshot on every (re)connect, and hands the
//! events a roster needs to a sink (connection changes, snapshots, `sessions.changed`). The console's Sessions
//! view is fed this way, so its UI task never touches a socket.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::client::{Backoff, ClientEvent, GatewayClient};
use super::connection::ConnectOptions;
use super::endpoint::GatewayEndpoint;
use super::identity::DeviceIdentity;

/// The method whose answer is a roster snapshot (published as `ClientEvent::Subscribed`).
pub const SNAPSHOT: &str = "sessions.list";

/// Receives (gateway name, event); returns false when nobody listens any more.
pub type RosterSink = Arc<dyn Fn(String, ClientEvent) -> bool + Send + Sync>;

/// Whether a roster needs this event (tool output and transcript floods are left out).
pub fn is_roster_event(event: &ClientEvent) -> bool {
    match event {
        ClientEvent::Event(frame) => frame.event == "sessions.changed",
        ClientEvent::Subscribed { method, .. } => method == SNAPSHOT,
        ClientEvent::SubscribeFailed { .. } => false,
        _ => true,
    }
}

/// Starts one background task per gateway; `stop` ends them and closes their connections.
pub fn spawn_roster_feed(
    endpoints: Vec<GatewayEndpoint>,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: RosterSink,
    stop: CancellationToken,
) {
    for endpoint in endpoints {
        let identity = identity.clone();
        let backoff = backoff.clone();
        let sink = sink.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = feed_one(endpoint, identity, backoff, sink, stop.clone()) => {}
            }
        });
    }
}

async fn feed_one(
    endpoint: GatewayEndpoint,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: RosterSink,
    stop: CancellationToken,
) {
    let name = endpoint.name.clone();
    let mut attempt = 0u32;
    let client = loop {
        match GatewayClient::connect(
            endpoint.clone(),
            identity.clone(),
            ConnectOptions::default(),
            backoff.clone(),
        )
        .await
        {
            Ok(client) => break client,
            Err(err) if err.is_retryable() => {
                let retry_in = backoff.delay(attempt);
                attempt = attempt.saturating_add(1);
                if !sink(
                    name.clone(),
                    ClientEvent::Disconnected {
                        reason: err.to_string(),
                        retry_in,
                    },
                ) {
                    return;
                }
                tokio::time::sleep(retry_in).await;
            }
            Err(err) => {
                sink(name, ClientEvent::Failed(err));
                return;
            }
        }
    };
    // Closed on every way out (stop included: the select drops this future, and the guard).
    let _close = CloseOnDrop(client.clone());
    let mut events = client.events();
    let hello = Arc::new(client.hello().clone());
    if !sink(
        name.clone(),
        ClientEvent::Connected {
            hello,
            reconnect: false,
        },
    ) {
        return;
    }
    if let Err(error) = client
        .subscribe("sessions.subscribe", serde_json::json!({}))
        .await
    {
        sink(name.clone(), ClientEvent::Failed(error));
        return;
    }
    if !snapshot(&client, &name, &sink).await {
        return;
    }
    while let Some(event) = events.recv().await {
        if stop.is_cancelled() {
            return;
        }
        let reconnected = matches!(event, ClientEvent::Connected { .. });
        if is_roster_event(&event) && !sink(name.clone(), event) {
            return;
        }
        // The client re-subscribed on the new connection; the rows are refreshed here.
        if reconnected && !snapshot(&client, &name, &sink).await {
            return;
        }
    }
}

/// Publishes a `sessions.list` snapshot; false when nobody listens any more. A failed list is
/// left to the next reconnect (the rows stay as last known).
async fn snapshot(client: &GatewayClient, name: &str, sink: &RosterSink) -> bool {
    match client.request(SNAPSHOT, serde_json::json!({})).await {
        Ok(payload) => sink(
            name.to_string(),
            ClientEvent::Subscribed {
                method: SNAPSHOT.into(),
                payload,
            },
        ),
        Err(_) => true,
    }
}

struct CloseOnDrop(GatewayClient);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::EventFrame;

    #[test]
    fn only_roster_events_pass() {
        let ev = |name: &str| {
            ClientEvent::Event(Arc::new(EventFrame {
                event: name.into(),
                payload: serde_json::Value::Null,
                seq: None,
            }))
        };
        assert!(is_roster_event(&ev("sessions.changed")));
        assert!(!is_roster_event(&ev("session.tool")));
        assert!(!is_roster_event(&ev("agent")));
        assert!(is_roster_event(&ClientEvent::Disconnected {
            reason: "x".into(),
            retry_in: std::time::Duration::ZERO
        }));
    }
}
