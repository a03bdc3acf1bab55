//! Where `tools`, `explain` and `lint` read the OpenClaw config: the local file (`--config`,
//! $OPENCLAW_CONFIG_PATH, home, demo), or with `--remote-config` a gateway's own config over
//! `config.get`. The one place both sources are chosen.

use std::time::Duration;

use clap::Args;

use super::gateway_args::{GatewayArgs, attach_as, endpoints};
use super::{Cli, exit};
use crate::config::{self, LoadedConfig};
use crate::gateway::config_get;
use crate::gateway::tools::{EffectiveTool, effective_tools};

/// How long attaching and asking may take.
const REMOTE_DEADLINE: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, Default, Args)]
pub struct RemoteConfigArgs {
    /// Answer for the gateway's own config (`config.get`, scope operator.read) instead of a
    /// local file; secrets come redacted. The gateway: --gateway, else the configured one
    #[arg(long)]
    pub remote_config: bool,
    /// With --remote-config: the gateway (ws://, wss:// or http(s)://). Default: clawdeck.json5
    /// `gateways`, then OPENCLAW_GATEWAY_URL
    #[arg(long = "gateway", value_name = "URL", requires = "remote_config")]
    pub gateways: Vec<String>,
}

/// The config for `command`: the gateway's with `--remote-config`, else the local one. On
/// failure the error is printed and the exit status returned.
pub(crate) fn load(
    cli: &Cli,
    remote: &RemoteConfigArgs,
    command: &str,
) -> Result<LoadedConfig, u8> {
    let loaded = if remote.remote_config {
        load_from_gateway(cli, remote)
    } else {
        config::load_from(&cli.config_request()).map_err(|err| err.to_string())
    };
    loaded.map_err(|err| {
        super::err_untrusted(cli, &format!("clawdeck {command}: {err}"));
        exit::USAGE
    })
}

fn load_from_gateway(cli: &Cli, remote: &RemoteConfigArgs) -> Result<LoadedConfig, String> {
    if let Some(path) = &cli.config {
        return Err(format!(
            "--remote-config reads the gateway's config; --config {} names a local one: give one of them",
            path.display()
        ));
    }
    let from_file = cli.node_list.is_some();
    let fetched = on_one_gateway(cli, remote, |client| async move {
        let config = config_get::fetch(&client).await?;
        // Its connected nodes' tools too, unless a saved answer stands in for them.
        let nodes = match from_file {
            true => None,
            false => Some(client.request("node.list", serde_json::json!({})).await),
        };
        Ok((config, nodes))
    })?;
    let (url, (config, nodes)) = fetched;
    let request = cli.config_request();
    let mut loaded = config::load_remote(
        &config.text,
        &url,
        &config.path,
        request.openclaw_version.as_ref(),
    )
    .map_err(|err| err.to_string())?;
    match nodes {
        // A saved answer stands in for the gateway's, read as for a local config.
        None => config::read_node_list(&mut loaded, &request).map_err(|err| err.to_string())?,
        Some(answer) => loaded.connected_nodes = gateway_nodes(&url, answer, &mut loaded.warnings),
    }
    Ok(loaded)
}

/// The gateway's `node.list` answer as its connected nodes. An operator the gateway refuses it,
/// or a gateway without the method, still gets the config's answer, with a warning.
fn gateway_nodes(
    url: &str,
    answer: Result<serde_json::Value, crate::gateway::GatewayError>,
    warnings: &mut Vec<String>,
) -> Option<std::sync::Arc<crate::node_tools::ConnectedNodes>> {
    let origin = format!("{url} node.list");
    let nodes = answer
        .map_err(|err| err.to_string())
        .and_then(|answer| crate::node_tools::parse_node_list(&answer, &origin));
    match nodes {
        Ok(nodes) => Some(std::sync::Arc::new(nodes)),
        Err(err) => {
            warnings.push(format!(
                "gateway {url}: node.list: {err}: the tools its nodes published are unknown"
            ));
            None
        }
    }
}

/// With `--remote-config` and `--session-key`: that session's `tools.effective` on the same
/// gateway (what OpenClaw really gives it), to show beside clawdeck's answer.
pub(crate) fn session_effective(
    cli: &Cli,
    remote: &RemoteConfigArgs,
) -> Option<Result<GatewayEffective, String>> {
    let session = cli
        .context
        .session_key
        .clone()
        .filter(|_| remote.remote_config)?;
    let key = session.clone();
    let answer = on_one_gateway(cli, remote, |client| async move {
        client
            .request("tools.effective", serde_json::json!({"sessionKey": key}))
            .await
            .map(|payload| effective_tools(&payload))
            .map_err(|err| format!("gateway {}: tools.effective: {err}", client.endpoint().url))
    });
    Some(answer.map(|(gateway, tools)| GatewayEffective {
        gateway,
        session,
        tools,
    }))
}

/// With `--remote-config`: the exec approvals document the gateway's host stored
/// (`exec.approvals.get`, which needs operator.admin: asked for on this connection), as
/// `(document, where)`.
pub(crate) fn host_approvals(
    cli: &Cli,
    remote: &RemoteConfigArgs,
) -> Result<(Option<serde_json::Value>, Option<String>), String> {
    use crate::gateway::exec_approvals_get;
    let (url, host) = on_one_gateway_as(cli, remote, true, |client| async move {
        exec_approvals_get::fetch(&client).await
    })?;
    let from = host.file.is_some().then(|| format!("{url} {}", host.path));
    Ok((host.file, from))
}

/// With `--remote-config` and a session key: the permission mode and elevated level the gateway
/// keeps for that session (`sessions.describe`; None: no such session there).
pub(crate) fn session_settings(
    cli: &Cli,
    remote: &RemoteConfigArgs,
    key: &str,
) -> Result<
    (
        String,
        Option<crate::gateway::session_describe::SessionSettings>,
    ),
    String,
> {
    let key = key.to_string();
    on_one_gateway_as(cli, remote, false, |client| async move {
        crate::gateway::session_describe::fetch(&client, &key).await
    })
}

/// A session's tools as the gateway itself reports them (`tools.effective`).
pub(crate) struct GatewayEffective {
    pub gateway: String,
    pub session: String,
    pub tools: Vec<EffectiveTool>,
}

impl GatewayEffective {
    /// One line for `explain TOOL` (is the tool in the session's list?), or the whole list.
    pub(crate) fn text(&self, tool: Option<&str>) -> String {
        let head = format!(
            "gateway {} tools.effective for session {}",
            self.gateway, self.session
        );
        match tool {
            Some(name) => {
                let has = self.tools.iter().any(|t| t.name == name);
                let verdict = if has { "present" } else { "absent" };
                format!("{head}: {name} is {verdict}\n")
            }
            None => {
                let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
                format!("{head} ({}): {}\n", names.len(), names.join(", "))
            }
        }
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
        serde_json::json!({"gateway": self.gateway, "sessionKey": self.session, "tools": names})
    }
}

/// Attaches to the one gateway `remote` names and runs `ask` on it; the gateway's URL with the
/// answer.
fn on_one_gateway<T, F, Fut>(
    cli: &Cli,
    remote: &RemoteConfigArgs,
    ask: F,
) -> Result<(String, T), String>
where
    F: FnOnce(crate::gateway::GatewayClient) -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    on_one_gateway_as(cli, remote, false, ask)
}

/// As [`on_one_gateway`], asking for operator.admin when `admin`.
fn on_one_gateway_as<T, F, Fut>(
    cli: &Cli,
    remote: &RemoteConfigArgs,
    admin: bool,
    ask: F,
) -> Result<(String, T), String>
where
    F: FnOnce(crate::gateway::GatewayClient) -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let args = GatewayArgs {
        gateways: remote.gateways.clone(),
        all_operators: admin,
    };
    let (endpoints, identity) = endpoints(cli, &args)?;
    let endpoint = match endpoints.as_slice() {
        [one] => one.clone(),
        [] => return Err("--remote-config needs a gateway: give --gateway URL".to_string()),
        many => {
            let names: Vec<&str> = many.iter().map(|e| e.url.as_str()).collect();
            return Err(format!(
                "--remote-config answers for one gateway and {} are configured ({}): choose one with --gateway URL",
                many.len(),
                names.join(", ")
            ));
        }
    };
    let runtime = super::async_runtime()?;
    runtime.block_on(async {
        let client = attach_as(&endpoint, &identity, false, admin, Some(REMOTE_DEADLINE))
            .await
            .map_err(|err| format!("gateway {} ({}): {err}", endpoint.url, endpoint.origin))?;
        let url = client.endpoint().url.clone();
        let closer = client.clone();
        let answer = tokio::time::timeout(REMOTE_DEADLINE, ask(client)).await;
        closer.close();
        match answer {
            Ok(answer) => answer.map(|value| (url, value)),
            Err(_) => Err(format!(
                "gateway {url}: no answer within {} s",
                REMOTE_DEADLINE.as_secs()
            )),
        }
    })
}
