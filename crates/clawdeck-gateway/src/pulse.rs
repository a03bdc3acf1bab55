//! Keeps a Gateways overview fed: per gateway, one background task attaches (retrying with
//! backoff), then polls `logs.tail` with its cursor every `LOG_POLL` (new lines only, one batch
//! per poll: a view redraws per batch, never per line), `health` / `status` / `system-presence`
//! every `HEALTH_POLL` and `sessions.usage` every `USAGE_POLL`, and hands what it read to a
//! sink. The console's UI task never touches a socket.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::client::{Backoff, ClientEvent, GatewayClient};
use super::connection::ConnectOptions;
use super::endpoint::GatewayEndpoint;
use super::health::{GatewayHealth, SessionUsage, fetch_health, fetch_usage};
use super::identity::DeviceIdentity;
use super::logs::{LogCursor, TailRead};

pub const LOG_POLL: Duration = Duration::from_secs(1);
pub const HEALTH_POLL: Duration = Duration::from_secs(10);
pub const USAGE_POLL: Duration = Duration::from_secs(30);

/// What one poll of one gateway brought.
#[derive(Debug, Clone, PartialEq)]
pub enum Pulse {
    /// Attached (or attached again).
    Up,
    /// Not attached, or a poll failed: why.
    Down(String),
    Health(Box<GatewayHealth>),
    Usage(Vec<SessionUsage>),
    /// New log lines (a batch per poll; never empty unless it is a reset).
    Logs(TailRead),
}

/// Receives (gateway name, pulse); returns false when nobody listens any more.
pub type PulseSink = Arc<dyn Fn(String, Pulse) -> bool + Send + Sync>;

/// Starts one background task per gateway; `stop` ends them and closes their connections.
pub fn spawn_gateway_pulse(
    endpoints: Vec<GatewayEndpoint>,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: PulseSink,
    stop: CancellationToken,
) {
    for endpoint in endpoints {
        let (identity, backoff, sink, stop) = (
            identity.clone(),
            backoff.clone(),
            sink.clone(),
            stop.clone(),
        );
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = pulse_one(endpoint, identity, backoff, sink) => {}
            }
        });
    }
}

async fn pulse_one(
    endpoint: GatewayEndpoint,
    identity: DeviceIdentity,
    backoff: Backoff,
    sink: PulseSink,
) {
    let name = endpoint.name.clone();
    let report = |event: ClientEvent| match event {
        ClientEvent::Disconnected { reason, .. } => sink(name.clone(), Pulse::Down(reason)),
        ClientEvent::Failed(error) => sink(name.clone(), Pulse::Down(error.to_string())),
        _ => true,
    };
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
    let _close = CloseOnDrop(client.clone());
    if !sink(name.clone(), Pulse::Up) {
        return;
    }
    poll_forever(&client, &name, &sink).await;
}

/// Polls until nobody listens any more (a failed poll is reported and tried again next time;
/// the client reconnects on its own).
async fn poll_forever(client: &GatewayClient, name: &str, sink: &PulseSink) {
    let attached = Instant::now();
    let mut cursor = LogCursor::default();
    let (mut next_health, mut next_usage) = (Instant::now(), Instant::now());
    loop {
        let mut pulses = Vec::new();
        match cursor.poll(client).await {
            Ok(read) if !read.lines.is_empty() || read.reset => pulses.push(Pulse::Logs(read)),
            Ok(_) => {}
            Err(error) => pulses.push(Pulse::Down(error.to_string())),
        }
        if Instant::now() >= next_health {
            next_health = Instant::now() + HEALTH_POLL;
            match fetch_health(client, attached).await {
                Ok(health) => pulses.push(Pulse::Health(Box::new(health))),
                Err(error) => pulses.push(Pulse::Down(error.to_string())),
            }
        }
        if Instant::now() >= next_usage {
            next_usage = Instant::now() + USAGE_POLL;
            // Usage may be refused or slow on its own: the overview goes on without it.
            if let Ok(usage) = fetch_usage(client).await {
                pulses.push(Pulse::Usage(usage));
            }
        }
        for pulse in pulses {
            if !sink(name.to_string(), pulse) {
                return;
            }
        }
        tokio::time::sleep(LOG_POLL).await;
    }
}

struct CloseOnDrop(GatewayClient);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}
