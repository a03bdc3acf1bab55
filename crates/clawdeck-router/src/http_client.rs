//! The one HTTP client constructor for the gateway (chat completions and `/tools/invoke`).
//! TLS is rustls with the ring provider (no C toolchain beyond what `ring` builds with) and the
//! platform's certificate store, so `https://` gateways work as well as loopback `http://`.

use std::sync::Once;

/// A client for gateway requests. Installs the ring crypto provider for rustls once per
/// process (reqwest is built without a default provider).
pub fn gateway_http_client() -> Result<reqwest::Client, String> {
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        // Fails only when another provider is already installed, which is just as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
        .build()
        .map_err(|err| format!("cannot set up the HTTP client: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_client_with_tls() {
        assert!(gateway_http_client().is_ok());
    }
}
