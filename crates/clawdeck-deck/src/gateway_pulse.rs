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
        let Some((endpoints, identity)) = self.configured_gateways()? else {
            return Ok(Vec::new());
        };
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
