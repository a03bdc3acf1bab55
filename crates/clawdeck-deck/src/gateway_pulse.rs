//! The facade's door to the Gateways overview's feed (`clawdeck_gateway::pulse`): the same
//! gateways as the session rosters, polled for health, usage and log lines.

use super::Deck;

impl Deck {
    /// Starts polling every configured gateway's health, usage and log (one background task
    /// per gateway; `stop` ends them); returns the gateways' names (none when no gateway is
    /// configured).
    pub fn feed_gateway_pulse(
        &self,
        sink: crate::gateway::pulse::PulseSink,
        stop: tokio_util::sync::CancellationToken,
    ) -> Result<Vec<String>, String> {
        use crate::gateway::{DeviceIdentity, resolve_endpoints};
        let configured = self.config().settings.gateways.clone();
        let env = |key: &str| std::env::var(key).ok();
        let endpoints = match resolve_endpoints(&configured, &[], &env) {
            Ok(e) => e,
            Err(_) if configured.is_empty() => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        if endpoints.is_empty() {
            return Ok(Vec::new());
        }
        let identity = DeviceIdentity::load_default()?;
        let names = endpoints.iter().map(|e| e.name.clone()).collect();
        crate::gateway::pulse::spawn_gateway_pulse(
            endpoints,
            identity,
            crate::gateway::Backoff::default(),
            sink,
            stop,
        );
        Ok(names)
    }
}
