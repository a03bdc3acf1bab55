//! An exec approval's verdict as the gateway that raised it would give it: that gateway's own
//! config (`config.get`) and its host's approvals document (`exec.approvals.get`, which needs
//! operator.admin), not this machine's. The socket runs on the caller's task; the verdict, which
//! reads skill files and looks executables up, on a blocking one.

use std::time::Duration;

use super::Deck;
use crate::exec_verdict::{self, ExecQuestion, LocalVerdicts, Surface};
use crate::gateway::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayClient, config_get, exec_approvals_get,
    resolve_endpoints, session_describe,
};
use session_describe::SessionSettings;

/// How long attaching and both questions may take.
const ASK_TIMEOUT: Duration = Duration::from_secs(15);

/// What one gateway said about itself.
struct GatewaySide {
    url: String,
    config: config_get::GatewayConfig,
    /// The document, or why it could not be read (the connection lacked operator.admin).
    approvals: Result<exec_approvals_get::HostApprovals, String>,
    /// The session's permission mode and elevated level, when the gateway keeps any.
    session: SessionSettings,
}

impl Deck {
    /// The verdicts (interactive and headless) for `command`, asked by an approval from the
    /// gateway named `gateway` for `session_key` (or `agent` when the key is empty), with that
    /// gateway's config and approvals document. The error names the gateway.
    pub async fn judge_gateway_approval(
        &self,
        gateway: &str,
        session_key: &str,
        agent: &str,
        command: &str,
    ) -> Result<LocalVerdicts, String> {
        let side = tokio::time::timeout(ASK_TIMEOUT, self.ask_gateway_side(gateway, session_key))
            .await
            .map_err(|_| {
                format!(
                    "gateway {gateway}: no answer within {} s",
                    ASK_TIMEOUT.as_secs()
                )
            })??;
        let registry = self.registry();
        let context = if session_key.is_empty() {
            crate::context::PolicyContext {
                agent: Some(agent.to_string()).filter(|a| !a.is_empty()),
                ..Default::default()
            }
        } else {
            crate::session_compare::session_context(session_key)
        };
        let command = command.to_string();
        let session_key = session_key.to_string();
        let requested = self.config_request().openclaw_version.clone();
        tokio::task::spawn_blocking(move || {
            let config = crate::config::load_remote(
                &side.config.text,
                &side.url,
                &side.config.path,
                requested.as_ref(),
            )
            .map_err(|e| e.to_string())?;
            let res =
                crate::policy::resolve(&config, &registry, &context).map_err(|e| e.to_string())?;
            let (doc, approvals) = match &side.approvals {
                Ok(host) => (
                    host.file.clone(),
                    host.file
                        .as_ref()
                        .map(|_| format!("{} {}", side.url, host.path)),
                ),
                Err(why) => (None, Some(format!("none read ({why})"))),
            };
            let resolver = crate::exec_allowlist::PathResolver::from_env();
            // An automation's question: an approval client answers it (allow-always mints a
            // standing grant); with none connected the run is denied as an automation. Its run
            // is no chat turn: no elevated level.
            let automation = exec_verdict::is_automation_session(&session_key);
            let elevated = if automation {
                Some(exec_verdict::elevated::ElevatedLevel::Off)
            } else {
                side.session
                    .elevated_level
                    .as_deref()
                    .and_then(exec_verdict::elevated::ElevatedLevel::parse)
            };
            let on = |surface| {
                let question = ExecQuestion {
                    command: &command,
                    surface,
                    approvals: doc.as_ref(),
                    permission_mode: side.session.permission_mode.as_deref(),
                    elevated,
                    turn_exec: Default::default(),
                };
                exec_verdict::explain(&config, &res, &question, &resolver)
            };
            let mut interactive = on(Surface::Interactive);
            if automation {
                exec_verdict::answered_for_automation(&mut interactive);
            }
            Ok(LocalVerdicts {
                command: command.clone(),
                interactive,
                headless: on(if automation {
                    Surface::Cron
                } else {
                    Surface::Headless
                }),
                approvals,
                config_from: Some(side.url.clone()),
            })
        })
        .await
        .map_err(|e| format!("the verdict stopped: {e}"))?
    }

    /// Attaches to the gateway named `gateway` asking for operator.admin, and reads its config,
    /// approvals document and what it keeps for `session_key` (when not empty).
    async fn ask_gateway_side(
        &self,
        gateway: &str,
        session_key: &str,
    ) -> Result<GatewaySide, String> {
        let configured = self.config().settings.gateways.clone();
        let env = |key: &str| std::env::var(key).ok();
        let endpoint = resolve_endpoints(&configured, &[], &env)?
            .into_iter()
            .find(|e| e.name == gateway)
            .ok_or_else(|| format!("no gateway named {gateway} is configured"))?;
        let identity = DeviceIdentity::load_default()?;
        // operator.admin for the document; a gateway that will not grant it still gives the
        // config (operator.read), and the verdict then says no document was read.
        let admin = GatewayClient::connect(
            endpoint.clone(),
            identity.clone(),
            ConnectOptions::default().all_operators(true),
            Backoff::default(),
        )
        .await;
        let client = match admin {
            Ok(client) => client,
            Err(_) => GatewayClient::connect(
                endpoint,
                identity,
                ConnectOptions::default(),
                Backoff::default(),
            )
            .await
            .map_err(|e| format!("gateway {gateway}: {e}"))?,
        };
        let url = client.endpoint().url.clone();
        let config = config_get::fetch(&client).await;
        let approvals = exec_approvals_get::fetch(&client).await;
        // A session the gateway no longer has (or cannot describe) has no mode of its own.
        let session = if session_key.is_empty() {
            SessionSettings::default()
        } else {
            session_describe::fetch(&client, session_key)
                .await
                .ok()
                .flatten()
                .unwrap_or_default()
        };
        client.close();
        Ok(GatewaySide {
            url,
            config: config?,
            approvals,
            session,
        })
    }
}
