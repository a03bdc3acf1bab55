//! `clawdeck gateway status | sessions | watch | effective`: the headless twins of the
//! console's gateway views. `--json` everywhere; `watch --json` prints one JSON line per event
//! as it arrives until interrupted.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::gateway_args::{GatewayArgs, attach, endpoints};
use super::{Cli, exit};
use crate::gateway::watch::{ToolCallTracker, WatchItem, describe_event};
use crate::gateway::{ClientEvent, GatewayClient};

#[derive(Debug, Args)]
pub struct GatewayCmdArgs {
    #[command(subcommand)]
    pub command: GatewayCommand,
}

#[derive(Debug, Subcommand)]
pub enum GatewayCommand {
    /// Connect to each gateway and report its version, protocol and the scopes granted
    Status(CommonArgs),
    /// The gateways' sessions (agent, key, kind, running, last activity)
    Sessions(CommonArgs),
    /// Live events (tool calls with arguments and output, messages, approvals) until Ctrl-C
    Watch(WatchArgs),
    /// The tools a session really has (`tools.effective`)
    Effective(EffectiveArgs),
}

#[derive(Debug, Args)]
pub struct CommonArgs {
    #[command(flatten)]
    pub gateway: GatewayArgs,
    /// Machine-readable output
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Also follow this session's transcript and tool calls (e.g. agent:ops:main)
    #[arg(long, value_name = "KEY")]
    pub session: Vec<String>,
}

#[derive(Debug, Args)]
pub struct EffectiveArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Session key (e.g. agent:ops:main)
    #[arg(long, value_name = "KEY")]
    pub session: String,
}

pub fn run(cli: &Cli, args: &GatewayCmdArgs) -> u8 {
    let runtime = match super::async_runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clawdeck gateway: {e}");
            return exit::TOOL_ERROR;
        }
    };
    runtime.block_on(async {
        match &args.command {
            GatewayCommand::Status(a) => status(cli, a).await,
            GatewayCommand::Sessions(a) => sessions(cli, a).await,
            GatewayCommand::Watch(a) => watch(cli, a).await,
            GatewayCommand::Effective(a) => effective(cli, a).await,
        }
    })
}

/// Attaches to every gateway; failures are printed and make the exit status nonzero.
pub(crate) async fn attach_all(
    cli: &Cli,
    args: &GatewayArgs,
    command: &str,
    approver: bool,
) -> Result<(Vec<GatewayClient>, bool), u8> {
    let (endpoints, identity) = match endpoints(cli, args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("clawdeck {command}: {e}");
            return Err(exit::USAGE);
        }
    };
    let mut clients = Vec::new();
    let mut failed = false;
    for endpoint in &endpoints {
        match attach(endpoint, &identity, approver, None).await {
            Ok(client) => clients.push(client),
            Err(err) => {
                eprintln!(
                    "clawdeck {command}: {} ({}): {err}",
                    endpoint.name, endpoint.origin
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

async fn status(cli: &Cli, args: &CommonArgs) -> u8 {
    let (endpoints, identity) = match endpoints(cli, &args.gateway) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("clawdeck gateway status: {e}");
            return exit::USAGE;
        }
    };
    let mut rows = Vec::new();
    let mut failed = false;
    for endpoint in &endpoints {
        match attach(endpoint, &identity, false, None).await {
            Ok(client) => {
                let hello = client.hello();
                rows.push(json!({
                    "name": endpoint.name,
                    "url": endpoint.url,
                    "origin": endpoint.origin,
                    "connected": true,
                    "serverVersion": hello.server_version,
                    "protocol": hello.protocol,
                    "role": hello.role,
                    "scopes": hello.scopes,
                    "methods": hello.methods.len(),
                    "events": hello.events.len(),
                    "deviceId": identity.device_id(),
                }));
                client.close();
            }
            Err(err) => {
                failed = true;
                rows.push(json!({
                    "name": endpoint.name,
                    "url": endpoint.url,
                    "origin": endpoint.origin,
                    "connected": false,
                    "error": err.to_string(),
                    "deviceId": identity.device_id(),
                }));
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        for row in &rows {
            let name = row["name"].as_str().unwrap_or("");
            let url = row["url"].as_str().unwrap_or("");
            if row["connected"] == true {
                println!(
                    "{name}  {url}  connected: OpenClaw {} protocol v{}, role {}, scopes {}",
                    row["serverVersion"].as_str().unwrap_or("?"),
                    row["protocol"],
                    row["role"].as_str().unwrap_or("?"),
                    row["scopes"]
                        .as_array()
                        .map(|a| a
                            .iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(" "))
                        .unwrap_or_default(),
                );
            } else {
                println!(
                    "{name}  {url}  NOT connected: {}",
                    row["error"].as_str().unwrap_or("")
                );
            }
        }
        println!("device id: {}", identity.device_id());
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

async fn sessions(cli: &Cli, args: &CommonArgs) -> u8 {
    let (clients, mut failed) =
        match attach_all(cli, &args.gateway, "gateway sessions", false).await {
            Ok(x) => x,
            Err(code) => return code,
        };
    let mut all = Vec::new();
    for client in &clients {
        match client.request("sessions.list", json!({})).await {
            Ok(payload) => {
                for row in payload["sessions"].as_array().cloned().unwrap_or_default() {
                    all.push((client.endpoint().name.clone(), row));
                }
            }
            Err(err) => {
                eprintln!(
                    "clawdeck gateway sessions: {}: {err}",
                    client.endpoint().name
                );
                failed = true;
            }
        }
        client.close();
    }
    if args.json {
        let rows: Vec<Value> = all
            .iter()
            .map(|(gw, row)| json!({"gateway": gw, "session": row}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        let summaries: Vec<_> = all
            .iter()
            .map(|(gw, row)| (gw, crate::gateway::sessions::SessionRow::from_value(row)))
            .collect();
        println!(
            "{:<10} {:<8} {:<32} {:<8} {:<8} LAST ACTIVITY",
            "GATEWAY", "AGENT", "KEY", "KIND", "STATE"
        );
        for (gw, s) in summaries {
            println!(
                "{:<10} {:<8} {:<32} {:<8} {:<8} {}",
                gw,
                s.agent,
                s.key,
                s.kind,
                s.state(),
                s.last_activity_text()
            );
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

async fn watch(cli: &Cli, args: &WatchArgs) -> u8 {
    let (clients, _failed) =
        match attach_all(cli, &args.common.gateway, "gateway watch", true).await {
            Ok(x) => x,
            Err(code) => return code,
        };
    // A reader that stops reading (or a flood faster than the lines are made) costs bounded
    // queues: what does not fit is dropped, and the output says how many.
    let mut stdout = super::bounded_out::BoundedOut::watch_stdout(args.common.json);
    let (tx, mut rx) =
        super::bounded_out::lossy_channel::<(String, ClientEvent)>(stdout.drop_counter());
    for client in &clients {
        let mut events = client.events_lossy(super::bounded_out::MAX_EVENTS, stdout.drop_counter());
        let name = client.endpoint().name.clone();
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Some(ev) = events.recv().await {
                if tx.send((name.clone(), ev)).is_err() {
                    break;
                }
            }
        });
        if let Err(err) = client.subscribe("sessions.subscribe", json!({})).await {
            eprintln!(
                "clawdeck gateway watch: {}: sessions.subscribe: {err}",
                client.endpoint().name
            );
        }
        for key in &args.session {
            if let Err(err) = client
                .subscribe("sessions.messages.subscribe", json!({"key": key}))
                .await
            {
                eprintln!(
                    "clawdeck gateway watch: {}: {key}: {err}",
                    client.endpoint().name
                );
            }
        }
    }
    drop(tx);
    if !args.common.json {
        eprintln!("watching {} gateway(s); Ctrl-C to stop", clients.len());
    }
    let mut calls = ToolCallTracker::default();
    loop {
        let next = tokio::select! {
            _ = tokio::signal::ctrl_c() => break,
            next = rx.recv() => next,
        };
        let Some((gateway, event)) = next else { break };
        let Some(mut item) = WatchItem::from_client_event(&gateway, &event) else {
            continue;
        };
        calls.annotate(&mut item);
        if !print_item(&mut stdout, &item, args.common.json) {
            break;
        }
    }
    for client in &clients {
        client.close();
    }
    exit::OK
}

/// One watch line (JSON or text) to `out`; false once `out` cannot be written (the reader left).
pub(super) fn print_item(out: &mut impl Write, item: &WatchItem, as_json: bool) -> bool {
    let line = if as_json {
        serde_json::to_string(&item.to_json()).unwrap_or_default()
    } else {
        describe_event(item)
    };
    writeln!(out, "{line}").and_then(|_| out.flush()).is_ok()
}

async fn effective(cli: &Cli, args: &EffectiveArgs) -> u8 {
    let (clients, mut failed) =
        match attach_all(cli, &args.common.gateway, "gateway effective", false).await {
            Ok(x) => x,
            Err(code) => return code,
        };
    let mut out = Vec::new();
    for client in &clients {
        match client
            .request("tools.effective", json!({"sessionKey": args.session}))
            .await
        {
            Ok(payload) => out.push((client.endpoint().name.clone(), payload)),
            Err(err) => {
                eprintln!(
                    "clawdeck gateway effective: {}: {err}",
                    client.endpoint().name
                );
                failed = true;
            }
        }
        client.close();
    }
    if args.common.json {
        let rows: Vec<Value> = out
            .iter()
            .map(|(gw, p)| json!({"gateway": gw, "sessionKey": args.session, "effective": p}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        for (gw, payload) in &out {
            let tools = crate::gateway::tools::effective_tools(payload);
            println!("{gw}  {}  {} tools", args.session, tools.len());
            for tool in tools {
                println!("  {:<24} {:<8} {}", tool.name, tool.source, tool.group);
            }
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}
