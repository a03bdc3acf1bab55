//! Keeps a session roster fed: attaches to each gateway in the background (retrying with
//! backoff until it answers), subscribes to `sessions.subscribe` (which answers only
//! `{subscribed: true}`), takes a `sessions.list` snapshot on every (re)connect, and hands the
//! events a roster needs to a sink (connection changes, snapshots, `sessions.changed`). The console's Sessions
//! view is fed this way, so its UI task never touches a socket. One session at a time can be
//! followed (`SessionFollow`): the feed subscribes to its transcript
//! (`sessions.messages.subscribe {key}`, replayed after a reconnect) and passes its
//! `session.tool` / `session.message` events on too.

use std::sync::Arc;

use serde_json::json;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::client::{Backoff, ClientEvent, GatewayClient};
use super::connection::ConnectOptions;
use super::endpoint::GatewayEndpoint;
use super::event_stream::FEED_CAPACITY;
use super::history::{HISTORY, fetch_history};
use super::identity::DeviceIdentity;
use super::session_pages::list_all_sessions;

/// The method whose answer is a roster snapshot (published as `ClientEvent::Subscribed`).
pub(crate) const SNAPSHOT: &str = "sessions.list";

/// The method that starts a session's transcript events (and its counterpart).
pub const FOLLOW: &str = "sessions.messages.subscribe";
pub(crate) const UNFOLLOW: &str = "sessions.messages.unsubscribe";

/// (gateway name, session key).
pub(crate) type FollowedSession = Option<(String, String)>;

/// Which session's transcript the feed follows. Setting it only records the wish (no I/O);
/// the gateway's feed task subscribes and unsubscribes.
#[derive(Debug, Clone)]
pub struct SessionFollow(watch::Sender<FollowedSession>);

impl Default for SessionFollow {
    fn default() -> Self {
        SessionFollow(watch::channel(None).0)
    }
}

impl SessionFollow {
    /// Follows `key` on `gateway` (and stops following any other session).
    pub fn follow(&self, gateway: &str, key: &str) {
        self.0.send_if_modified(|now| {
            let want = Some((gateway.to_string(), key.to_string()));
            let changed = *now != want;
            *now = want;
            changed
        });
    }

    pub fn followed(&self) -> FollowedSession {
        self.0.borrow().clone()
    }

    fn watch(&self) -> watch::Receiver<FollowedSession> {
        self.0.subscribe()
    }
}

/// Whether an event belongs to the followed session's transcript.
pub(crate) fn is_followed_event(event: &ClientEvent, key: Option<&str>) -> bool {
    let (ClientEvent::Event(frame), Some(key)) = (event, key) else {
        return false;
    };
    matches!(frame.event.as_str(), "session.tool" | "session.message")
        && frame
            .payload
            .get("sessionKey")
            .and_then(serde_json::Value::as_str)
            == Some(key)
}

/// Receives (gateway name, event); returns false when nobody listens any more.
pub type RosterSink = Arc<dyn Fn(String, ClientEvent) -> bool + Send + Sync>;

/// Whether a roster needs this event (tool output and transcript floods are left out).
pub(crate) fn is_roster_event(event: &ClientEvent) -> bool {
    match event {
        ClientEvent::Event(frame) => frame.event == "sessions.changed",
        ClientEvent::Subscribed { method, .. } => method == SNAPSHOT || method == HISTORY,
        // A followed session's subscription could not be made (the view says so).
        ClientEvent::SubscribeFailed { method, .. } => method.starts_with(FOLLOW),
        _ => true,
    }
}

/// Starts one background task per gateway; `stop` ends them and closes their connections.
/// The returned handle chooses the followed session.
pub fn spawn_roster_feed(
    endpoints: Vec<GatewayEndpoint>,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: RosterSink,
    stop: CancellationToken,
) -> SessionFollow {
    let follow = SessionFollow::default();
    for endpoint in endpoints {
        let followed = follow.watch();
        let identity = identity.clone();
        let backoff = backoff.clone();
        let sink = sink.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = feed_one(endpoint, identity, backoff, sink, followed, stop.clone()) => {}
            }
        });
    }
    follow
}

async fn feed_one(
    endpoint: GatewayEndpoint,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: RosterSink,
    mut followed: watch::Receiver<FollowedSession>,
    stop: CancellationToken,
) {
    let name = endpoint.name.clone();
    let report = |event: ClientEvent| sink(name.clone(), event);
    let Some(client) = GatewayClient::connect_retrying(
        endpoint,
        identity,
        ConnectOptions::default(),
        backoff,
        report,
    )
    .await
    else {
        return;
    };
    // Closed on every way out (stop included: the select drops this future, and the guard).
    let _close = CloseOnDrop(client.clone());
    let mut events = client.event_stream(FEED_CAPACITY);
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
    let mut following: Option<String> = None;
    // Dropping the handle only ends following; the roster goes on.
    let mut follow_open = true;
    followed.mark_changed();
    loop {
        let event = tokio::select! {
            event = events.recv() => match event {
                Some(event) => event,
                None => return,
            },
            changed = followed.changed(), if follow_open => {
                if changed.is_err() {
                    follow_open = false;
                    continue;
                }
                let want = followed
                    .borrow_and_update()
                    .clone()
                    .filter(|(gateway, _)| *gateway == name)
                    .map(|(_, key)| key);
                if want != following
                    && !refollow(&client, &name, &sink, following.take(), want.clone()).await
                {
                    return;
                }
                following = want;
                continue;
            }
        };
        if stop.is_cancelled() {
            return;
        }
        // After a reconnect, or a gap in the events (the feed fell behind a flood), the rows
        // and the followed transcript are fetched again.
        let reconnected = matches!(
            event,
            ClientEvent::Connected { .. } | ClientEvent::Lagged { .. }
        );
        let wanted = is_roster_event(&event) || is_followed_event(&event, following.as_deref());
        if wanted && !sink(name.clone(), event) {
            return;
        }
        // The client re-subscribed on the new connection; the rows are refreshed here, and
        // the followed session's history fills what the drop missed.
        if reconnected && !snapshot(&client, &name, &sink).await {
            return;
        }
        if reconnected
            && let Some(key) = &following
            && !backfill(&client, &name, &sink, key).await
        {
            return;
        }
    }
}

/// Moves the transcript subscription from `old` to `new`; false when nobody listens any more.
async fn refollow(
    client: &GatewayClient,
    name: &str,
    sink: &RosterSink,
    old: Option<String>,
    new: Option<String>,
) -> bool {
    if let Some(old) = old {
        let params = json!({"key": old});
        client.forget_subscription(FOLLOW, &params);
        // Best effort: an unsubscribe the gateway missed only costs filtered-out events.
        let _ = client.request(UNFOLLOW, params).await;
    }
    if let Some(new) = new {
        if let Err(error) = client.subscribe(FOLLOW, json!({"key": new})).await {
            return sink(
                name.to_string(),
                ClientEvent::SubscribeFailed {
                    method: format!("{FOLLOW} {new}"),
                    error,
                },
            );
        }
        // Subscribed first, then the history: a message in both shows once (by its id).
        return backfill(client, name, sink, &new).await;
    }
    true
}

/// Publishes the followed session's earlier transcript (`chat.history`) as a
/// `Subscribed { method: "chat.history" }` whose payload names the session; false when nobody
/// listens any more. A refused history is reported like a refused follow.
async fn backfill(client: &GatewayClient, name: &str, sink: &RosterSink, key: &str) -> bool {
    let event = match fetch_history(client, key).await {
        Ok(mut payload) => {
            if payload.is_object() {
                payload["sessionKey"] = json!(key);
            }
            ClientEvent::Subscribed {
                method: HISTORY.into(),
                payload,
            }
        }
        Err(error) => ClientEvent::SubscribeFailed {
            method: format!("{FOLLOW} {key}: {HISTORY}"),
            error,
        },
    };
    sink(name.to_string(), event)
}

/// Publishes a `sessions.list` snapshot of every page (bounded: `session_pages`); false when
/// nobody listens any more. A failed list is left to the next reconnect (the rows stay as
/// last known).
async fn snapshot(client: &GatewayClient, name: &str, sink: &RosterSink) -> bool {
    match list_all_sessions(client, &json!({})).await {
        Ok(pages) => sink(
            name.to_string(),
            ClientEvent::Subscribed {
                method: SNAPSHOT.into(),
                payload: pages.to_payload(),
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
    use crate::EventFrame;

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
        let tool = ClientEvent::Event(Arc::new(EventFrame {
            event: "session.tool".into(),
            payload: serde_json::json!({"sessionKey": "agent:ops:main"}),
            seq: None,
        }));
        assert!(is_followed_event(&tool, Some("agent:ops:main")));
        assert!(!is_followed_event(&tool, Some("agent:ops:other")));
        assert!(!is_followed_event(&tool, None));
        assert!(is_roster_event(&ClientEvent::Disconnected {
            reason: "x".into(),
            retry_in: std::time::Duration::ZERO
        }));
    }
}
