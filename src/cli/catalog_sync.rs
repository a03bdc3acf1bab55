//! `clawdeck catalog sync`: reads `tools.catalog` from a running gateway and stores a pack for
//! exactly the OpenClaw version it runs, in `$XDG_DATA_HOME/clawdeck/packs/<version>.json`.

use clap::{Args, Subcommand};
use serde_json::json;

use super::gateway_args::GatewayArgs;
use super::gateway_args::attach_all;
use super::{Cli, exit};
use crate::gateway::pack::{CapturedFrom, pack_from_catalog, pack_path, write_pack};
use crate::paths;

#[derive(Debug, Args)]
pub struct CatalogArgs {
    #[command(subcommand)]
    pub command: CatalogCommand,
}

#[derive(Debug, Subcommand)]
pub enum CatalogCommand {
    /// Store a pack from each gateway's `tools.catalog` (groups, default profiles, sources)
    #[command(after_long_help = super::help::CATALOG_SYNC)]
    Sync {
        #[command(flatten)]
        gateway: GatewayArgs,
        /// The agent whose catalog is read (default: the gateway's default agent)
        #[arg(long)]
        agent: Option<String>,
        /// Print the stored pack's path and counts as JSON
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: &Cli, args: &CatalogArgs) -> u8 {
    let CatalogCommand::Sync {
        gateway,
        agent,
        json: as_json,
    } = &args.command;
    let runtime = match super::async_runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clawdeck catalog sync: {e}");
            return exit::TOOL_ERROR;
        }
    };
    runtime.block_on(async {
        let (clients, mut failed) = match attach_all(cli, gateway, "catalog sync", false).await {
            Ok(x) => x,
            Err(code) => return code,
        };
        let data_dir = match paths::data_dir() {
            Ok(d) => d,
            Err(e) => {
                eprintln!("clawdeck catalog sync: {e}");
                return exit::USAGE;
            }
        };
        for client in &clients {
            let name = client.endpoint().name.clone();
            let result = async {
                // With several agents the gateway wants an explicit owner: its default agent.
                let agent_id = match agent {
                    Some(a) => a.clone(),
                    None => client
                        .request("agents.list", json!({}))
                        .await
                        .map_err(|e| e.to_string())?
                        .get("defaultId")
                        .and_then(|v| v.as_str())
                        .ok_or("agents.list answered without defaultId")?
                        .to_string(),
                };
                let params = json!({"includePlugins": true, "agentId": agent_id});
                let catalog = client
                    .request("tools.catalog", params)
                    .await
                    .map_err(|e| e.to_string())?;
                let version = client.hello().server_version.clone();
                let from = CapturedFrom {
                    gateway: name.clone(),
                    url: client.endpoint().url.clone(),
                    method: "tools.catalog".to_string(),
                    agent_id: catalog
                        .get("agentId")
                        .and_then(|v| v.as_str())
                        .unwrap_or("")
                        .to_string(),
                    captured_at_ms: std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_millis() as u64)
                        .unwrap_or(0),
                };
                let pack = pack_from_catalog(&catalog, &version, from)?;
                let path = pack_path(&data_dir, &version)?;
                write_pack(&path, &pack)?;
                Ok::<_, String>((pack, path))
            }
            .await;
            match result {
                Ok((pack, path)) => {
                    if *as_json {
                        outln!(
                            "{}",
                            json!({"gateway": name, "version": pack.version, "path": path, "tools": pack.tools.len(), "groups": pack.groups.len(), "profiles": pack.profiles.len()})
                        );
                    } else {
                        // The version is the gateway's text.
                        let line = format!(
                            "{name}: OpenClaw {} — {} tools in {} groups, {} profiles → {}\n",
                            pack.version,
                            pack.tools.len(),
                            pack.groups.len(),
                            pack.profiles.len(),
                            path.display()
                        );
                        super::out_untrusted(cli, &line);
                    }
                }
                Err(e) => {
                    super::err_untrusted(cli, &format!("clawdeck catalog sync: {name}: {e}"));
                    failed = true;
                }
            }
            client.close();
        }
        if failed { exit::TOOL_ERROR } else { exit::OK }
    })
}
