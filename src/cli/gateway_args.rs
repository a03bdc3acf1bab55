//! What every gateway command shares: which gateways (`--gateway URL`, clawdeck.json5
//! `gateways`, OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN) and how to attach to them.

use clap::Args;

use super::{Cli, exit};
use crate::gateway::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayClient, GatewayEndpoint, GatewayError,
    resolve_endpoints,
};

#[derive(Debug, Clone, Args)]
pub struct GatewayArgs {
    /// Gateway URL (ws://, wss://, or the gateway's http(s):// address); repeat for several.
    /// Default: clawdeck.json5 `gateways`, then OPENCLAW_GATEWAY_URL.
    #[arg(long = "gateway", value_name = "URL")]
    pub gateways: Vec<String>,
    /// Ask the gateways for operator.admin: every operator's approvals are listed and can be
    /// answered, any run can be aborted (default: clawdeck.json5 `approvals.allOperators`)
    #[arg(long)]
    pub all_operators: bool,
}

/// The gateways to use, and clawdeck's device identity.
pub fn endpoints(
    cli: &Cli,
    args: &GatewayArgs,
) -> Result<(Vec<GatewayEndpoint>, DeviceIdentity), String> {
    endpoints_as(cli, args).map(|(endpoints, identity, _)| (endpoints, identity))
}

/// As [`endpoints`], and whether to ask for `operator.admin`: `--all-operators`, else
/// clawdeck.json5 `approvals.allOperators` (read from the same load).
pub fn endpoints_as(
    cli: &Cli,
    args: &GatewayArgs,
) -> Result<(Vec<GatewayEndpoint>, DeviceIdentity, bool), String> {
    let settings = match crate::config::load_from(&cli.config_request()) {
        Ok(loaded) => loaded.settings,
        // Without an explicit --config a broken OpenClaw file must not block the gateway.
        Err(err) if cli.config.is_some() => return Err(err.to_string()),
        Err(_) => Default::default(),
    };
    let env = |key: &str| std::env::var(key).ok();
    let endpoints = resolve_endpoints(&settings.gateways, &args.gateways, &env)?;
    let identity = DeviceIdentity::load_default()?;
    let all_operators = args.all_operators || settings.approvals.all_operators;
    Ok((endpoints, identity, all_operators))
}

/// Attaches to one gateway. `approver`: advertise the `exec-approvals` capability, so the
/// gateway routes exec approvals to this connection (and waits for its answer instead of
/// denying a run nobody can approve). `deadline`: the command's own time limit, which bounds
/// how long a gateway that is still starting is waited for (else the client's default).
pub async fn attach(
    endpoint: &GatewayEndpoint,
    identity: &DeviceIdentity,
    approver: bool,
    deadline: Option<std::time::Duration>,
) -> Result<GatewayClient, GatewayError> {
    attach_as(endpoint, identity, approver, false, deadline).await
}

/// As [`attach`], with `operator.admin` asked for when `all_operators`.
pub async fn attach_as(
    endpoint: &GatewayEndpoint,
    identity: &DeviceIdentity,
    approver: bool,
    all_operators: bool,
    deadline: Option<std::time::Duration>,
) -> Result<GatewayClient, GatewayError> {
    let options = if approver {
        crate::gateway::desk::approver_options()
    } else {
        ConnectOptions::default()
    };
    let mut options = options.all_operators(all_operators);
    if let Some(deadline) = deadline {
        options.ready_wait = options.ready_wait.min(deadline);
    }
    GatewayClient::connect(
        endpoint.clone(),
        identity.clone(),
        options,
        Backoff::default(),
    )
    .await
}

/// The gateway flags and `--json`, shared by the `gateway` subcommands.
#[derive(Debug, Args)]
pub struct CommonArgs {
    #[command(flatten)]
    pub gateway: GatewayArgs,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
}

/// Attaches to every gateway; failures are printed and make the exit status nonzero.
pub(crate) async fn attach_all(
    cli: &Cli,
    args: &GatewayArgs,
    command: &str,
    approver: bool,
) -> Result<(Vec<GatewayClient>, bool), u8> {
    let (endpoints, identity, all_operators) = match endpoints_as(cli, args) {
        Ok(x) => x,
        Err(e) => {
            super::err_untrusted(cli, &format!("clawdeck {command}: {e}"));
            return Err(exit::USAGE);
        }
    };
    let mut clients = Vec::new();
    let mut failed = false;
    for endpoint in &endpoints {
        match attach_as(endpoint, &identity, approver, all_operators, None).await {
            Ok(client) => clients.push(client),
            Err(err) => {
                super::err_untrusted(
                    cli,
                    &format!(
                        "clawdeck {command}: {} ({}): {err}",
                        endpoint.name, endpoint.origin
                    ),
                );
                failed = true;
            }
        }
    }
    if clients.is_empty() {
        return Err(exit::TOOL_ERROR);
    }
    Ok((clients, failed))
}
