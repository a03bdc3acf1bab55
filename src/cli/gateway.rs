//! `clawdeck gateway status | sessions | watch | effective | history | health | logs` (and
//! `abort | steer | send`, in session_control.rs): the headless twins of the
//! console's gateway views. `--json` everywhere; `watch --json` prints one JSON line per event
//! as it arrives until interrupted.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::columns::{ColumnLayout, cell};
pub use super::gateway_args::CommonArgs;
use super::gateway_args::{attach, attach_all, endpoints};
use super::{Cli, exit};
use crate::gateway::ClientEvent;
use crate::gateway::watch::{ToolCallTracker, WatchItem, describe_event};

#[derive(Debug, Args)]
pub struct GatewayCmdArgs {
    #[command(subcommand)]
    pub command: GatewayCommand,
}

#[derive(Debug, Subcommand)]
pub enum GatewayCommand {
    /// Connect to each gateway and report its version, protocol and the scopes granted
    #[command(after_long_help = super::help::GATEWAY_STATUS)]
    Status(CommonArgs),
    /// The gateways' sessions (agent, key, kind, running, last activity)
    #[command(after_long_help = super::help::GATEWAY_SESSIONS)]
    Sessions(CommonArgs),
    /// Live events (tool calls with arguments and output, messages, approvals) until Ctrl-C
    #[command(after_long_help = super::help::GATEWAY_WATCH)]
    Watch(WatchArgs),
    /// The tools a session really has (`tools.effective`)
    #[command(after_long_help = super::help::GATEWAY_EFFECTIVE)]
    Effective(EffectiveArgs),
    /// A session's earlier transcript (`chat.history`): messages and tool calls
    #[command(after_long_help = super::help::GATEWAY_HISTORY)]
    History(super::gateway_history::HistoryArgs),
    /// Each gateway's version, uptime, clients, health and usage per session
    #[command(after_long_help = super::help::GATEWAY_HEALTH)]
    Health(CommonArgs),
    /// The gateway's own log (`logs.tail`); --follow keeps printing new lines
    #[command(after_long_help = super::help::GATEWAY_LOGS)]
    Logs(super::gateway_history::LogsArgs),
    /// Stop a session's running turn (`sessions.abort`)
    #[command(after_long_help = super::help::GATEWAY_ABORT)]
    Abort(super::session_control::AbortArgs),
    /// Put a message into a session's running turn (`chat.send` queueMode steer)
    #[command(after_long_help = super::help::GATEWAY_STEER)]
    Steer(super::session_control::MessageArgs),
    /// Send a message into a session (`sessions.send`)
    #[command(after_long_help = super::help::GATEWAY_SEND)]
    Send(super::session_control::MessageArgs),
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
            GatewayCommand::History(a) => super::gateway_history::history(cli, a).await,
            GatewayCommand::Health(a) => super::gateway_history::health(cli, a).await,
            GatewayCommand::Logs(a) => super::gateway_history::logs(cli, a).await,
            GatewayCommand::Abort(a) => super::session_control::abort(cli, a).await,
            GatewayCommand::Steer(a) => {
                super::session_control::message(cli, a, super::session_control::Action::Steer).await
            }
            GatewayCommand::Send(a) => {
                super::session_control::message(cli, a, super::session_control::Action::Send).await
            }
        }
    })
}

async fn status(cli: &Cli, args: &CommonArgs) -> u8 {
    let (endpoints, identity) = match endpoints(cli, &args.gateway) {
        Ok(x) => x,
        Err(e) => {
            super::err_untrusted(cli, &format!("clawdeck gateway status: {e}"));
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
        outln!("{}", crate::cli::json_text::pretty(&rows));
    } else {
        // Every field is the gateway's (or the config's) text: each one plain, on one line.
        for row in &rows {
            let text = |key: &str| cell(row[key].as_str().unwrap_or("?"));
            let (name, url) = (text("name"), text("url"));
            if row["connected"] == true {
                let scopes = row["scopes"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(cell)
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
                    .join(" ");
                outln!(
                    "{name}  {url}  connected: OpenClaw {} protocol v{}, role {}, scopes {scopes}",
                    text("serverVersion"),
                    cell(&row["protocol"].to_string()),
                    text("role"),
                );
            } else {
                outln!("{name}  {url}  NOT connected: {}", text("error"));
            }
        }
        outln!("device id: {}", identity.device_id());
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
        // Every page (bounded); a gateway with more than the cap says so.
        match crate::gateway::session_pages::list_all_sessions(client, &json!({})).await {
            Ok(pages) => {
                if pages.capped || pages.left_out > 0 {
                    super::err_untrusted(
                        cli,
                        &format!(
                            "clawdeck gateway sessions: {}: only the first {} sessions of {} read ({} pages; {} rows past a page's limit of {} left out)",
                            client.endpoint().name,
                            pages.rows.len(),
                            pages.total.map_or("more".to_string(), |t| t.to_string()),
                            pages.pages,
                            pages.left_out,
                            crate::gateway::session_pages::PAGE_SIZE,
                        ),
                    );
                }
                for row in pages.rows {
                    all.push((client.endpoint().name.clone(), row));
                }
            }
            Err(err) => {
                super::err_untrusted(
                    cli,
                    &format!(
                        "clawdeck gateway sessions: {}: {err}",
                        client.endpoint().name
                    ),
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
        outln!("{}", crate::cli::json_text::pretty(&rows));
    } else {
        const HEADER: [&str; 6] = ["GATEWAY", "AGENT", "KEY", "KIND", "STATE", "LAST ACTIVITY"];
        let rows: Vec<Vec<String>> = all
            .iter()
            .map(|(gw, row)| {
                let s = crate::gateway::sessions::SessionRow::from_value(row);
                [
                    gw.as_str(),
                    &s.agent,
                    &s.key,
                    &s.kind,
                    s.state(),
                    &s.last_activity_text(),
                ]
                .map(cell)
                .to_vec()
            })
            .collect();
        let layout = ColumnLayout::fit(&HEADER, &rows, usize::MAX);
        outln!("{}", layout.line(&HEADER));
        for row in &rows {
            outln!("{}", layout.line(row));
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
            super::err_untrusted(
                cli,
                &format!(
                    "clawdeck gateway watch: {}: sessions.subscribe: {err}",
                    client.endpoint().name
                ),
            );
        }
        for key in &args.session {
            if let Err(err) = client
                .subscribe("sessions.messages.subscribe", json!({"key": key}))
                .await
            {
                super::err_untrusted(
                    cli,
                    &format!(
                        "clawdeck gateway watch: {}: {key}: {err}",
                        client.endpoint().name
                    ),
                );
            }
        }
    }
    drop(tx);
    if !args.common.json {
        eprintln!("watching {} gateway(s); Ctrl-C to stop", clients.len());
    }
    let mut calls = ToolCallTracker::default();
    // Ctrl-C, SIGTERM or SIGHUP: close the connections; the stop policy then exits 128 + n.
    let mut stop = crate::process::stop_signals::stop_signals();
    let mut reader_left = std::pin::pin!(super::quiet_out::reader_left());
    loop {
        let next = tokio::select! {
            _ = &mut stop => break,
            () = &mut reader_left => break,
            next = rx.recv() => next,
        };
        let Some((gateway, event)) = next else { break };
        let Some(mut item) = WatchItem::from_client_event(&gateway, &event) else {
            continue;
        };
        calls.annotate(&mut item);
        if !print_item(
            &mut stdout,
            &item,
            args.common.json,
            super::output_guard(cli),
        ) {
            break;
        }
    }
    for client in &clients {
        client.close();
    }
    exit::OK
}

/// One watch line to `out` (the bounded stdout): the event as JSON, or its one-line summary
/// (event text comes from the gateway: neutralised for a terminal); false once the reader has
/// gone.
pub(super) fn print_item(
    out: &mut impl std::io::Write,
    item: &WatchItem,
    as_json: bool,
    guard: crate::sanitize::OutputGuard,
) -> bool {
    let line = if as_json {
        crate::cli::json_text::value_line(&item.to_json())
    } else {
        guard
            .lines(crate::sanitize::StdStream::Stdout, &describe_event(item))
            .into_owned()
    };
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
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
                super::err_untrusted(
                    cli,
                    &format!(
                        "clawdeck gateway effective: {}: {err}",
                        client.endpoint().name
                    ),
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
        outln!("{}", crate::cli::json_text::pretty(&rows));
    } else {
        for (gw, payload) in &out {
            let tools = crate::gateway::tools::effective_tools(payload);
            outln!(
                "{}  {}  {} tools",
                cell(gw),
                cell(&args.session),
                tools.len()
            );
            let rows: Vec<Vec<String>> = tools
                .iter()
                .map(|t| {
                    vec![
                        String::new(),
                        cell(&t.name),
                        cell(&t.source),
                        cell(&t.group),
                    ]
                })
                .collect();
            let layout = ColumnLayout::fit(&["", "", "", ""], &rows, usize::MAX);
            for row in &rows {
                outln!("{}", layout.line(row));
            }
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}
