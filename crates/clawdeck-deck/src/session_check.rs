//! The Deck asks a gateway what a live session really has and compares it with its own answer
//! (the console's per-tool verdicts). The socket and the comparison both run off the caller's
//! task; the caller awaits the result.

use super::Deck;
use crate::session_compare::{ASK_TIMEOUT, SessionCheck, ask_tools_effective, check_session};

impl Deck {
    /// `tools.effective` for `session_key` on the gateway named `gateway` (as the roster names
    /// it: clawdeck.json5 `gateways`, else OPENCLAW_GATEWAY_URL), compared with this deck's
    /// current config for the context the key names.
    pub async fn check_gateway_session(
        &self,
        gateway: &str,
        session_key: &str,
    ) -> Result<SessionCheck, String> {
        use crate::gateway::{DeviceIdentity, resolve_endpoints};
        let configured = self.config().settings.gateways.clone();
        let env = |key: &str| std::env::var(key).ok();
        let endpoints = resolve_endpoints(&configured, &[], &env)?;
        let endpoint = endpoints
            .into_iter()
            .find(|e| e.name == gateway)
            .ok_or_else(|| format!("no gateway named {gateway} is configured"))?;
        let identity = DeviceIdentity::load_default()?;
        let payload = ask_tools_effective(endpoint, identity, session_key, ASK_TIMEOUT).await?;
        // The prediction reads skill files: a blocking job, not this task.
        let state = self.state();
        let (gateway, session_key) = (gateway.to_string(), session_key.to_string());
        tokio::task::spawn_blocking(move || {
            check_session(
                &state.config,
                &state.registry,
                &gateway,
                &session_key,
                &payload,
            )
        })
        .await
        .map_err(|e| format!("the comparison stopped: {e}"))?
    }
}
