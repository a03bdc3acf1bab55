//! `clawdeck approvals watch | pending | resolve ID allow-once|allow-always|deny | history |
//! grants | revoke GRANT_ID`: the gateways' approvals of every kind (exec, plugin, system
//! agent), headless.

use clap::{Args, Subcommand};
use serde_json::json;

use super::gateway::print_item;
use super::gateway_args::GatewayArgs;
use super::gateway_args::attach_all;
use super::{Cli, exit};
use crate::gateway::approvals::{ApprovalKind, Decision, resolve_call};
use crate::gateway::desk::{is_desk_item, list_all_pending};
use crate::gateway::watch::WatchItem;

#[derive(Debug, Args)]
pub struct ApprovalsArgs {
    #[command(subcommand)]
    pub command: ApprovalsCommand,
}

#[derive(Debug, Subcommand)]
pub enum ApprovalsCommand {
    /// Print approvals (exec, plugin, system agent) as they are requested and resolved, until
    /// Ctrl-C
    #[command(after_long_help = super::help::APPROVALS_WATCH)]
    Watch {
        #[command(flatten)]
        gateway: GatewayArgs,
        /// One JSON line per approval event
        #[arg(long)]
        json: bool,
    },
    /// Answer a pending approval
    #[command(after_long_help = super::help::APPROVALS_RESOLVE)]
    Resolve {
        /// The approval id (as `approvals watch` prints it)
        id: String,
        /// allow-once, allow-always or deny
        #[arg(value_parser = ["allow-once", "allow-always", "deny"])]
        decision: String,
        #[command(flatten)]
        gateway: GatewayArgs,
        #[arg(long)]
        json: bool,
    },
    /// List the approvals pending now, every kind, each with what it approves in full
    #[command(after_long_help = super::help::APPROVALS_PENDING)]
    Pending {
        #[command(flatten)]
        gateway: GatewayArgs,
        /// One JSON document: {"approvals": [...]}
        #[arg(long)]
        json: bool,
    },
    /// List the resolved, denied, expired and cancelled approvals (approval.history)
    #[command(after_long_help = super::help::APPROVALS_HISTORY)]
    History {
        #[command(flatten)]
        gateway: GatewayArgs,
        /// Only this kind: exec, plugin or system-agent
        #[arg(long, value_parser = ["exec", "plugin", "system-agent"])]
        kind: Option<String>,
        /// At most this many per gateway (1-1000; pages of 100 are followed)
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1000))]
        limit: u64,
        /// One JSON document: {"items": [...]}
        #[arg(long)]
        json: bool,
    },
    /// List the standing grants allow-always minted on automation (cron) approvals
    #[command(after_long_help = super::help::APPROVALS_GRANTS)]
    Grants {
        #[command(flatten)]
        gateway: GatewayArgs,
        /// One JSON document: {"grants": [...]}
        #[arg(long)]
        json: bool,
    },
    /// Revoke a standing grant; the automation's next run asks again
    #[command(after_long_help = super::help::APPROVALS_REVOKE)]
    Revoke {
        /// The grant id (as `approvals grants` prints it)
        grant_id: String,
        #[command(flatten)]
        gateway: GatewayArgs,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: &Cli, args: &ApprovalsArgs) -> u8 {
    let runtime = match super::async_runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clawdeck approvals: {e}");
            return exit::TOOL_ERROR;
        }
    };
    runtime.block_on(async {
        match &args.command {
            ApprovalsCommand::Watch { gateway, json } => watch(cli, gateway, *json).await,
            ApprovalsCommand::Resolve {
                id,
                decision,
                gateway,
                json,
            } => resolve(cli, gateway, id, decision, *json).await,
            ApprovalsCommand::Pending { gateway, json } => {
                super::approvals_lists::pending(cli, gateway, *json).await
            }
            ApprovalsCommand::History {
                gateway,
                kind,
                limit,
                json,
            } => {
                let kind = kind.as_deref().and_then(ApprovalKind::parse);
                super::approvals_lists::history(cli, gateway, kind, *limit, *json).await
            }
            ApprovalsCommand::Grants { gateway, json } => {
                super::approvals_lists::grants(cli, gateway, *json).await
            }
            ApprovalsCommand::Revoke {
                grant_id,
                gateway,
                json,
            } => super::approvals_lists::revoke(cli, gateway, grant_id, *json).await,
        }
    })
}

async fn watch(cli: &Cli, gateway: &GatewayArgs, as_json: bool) -> u8 {
    let (clients, _) = match attach_all(cli, gateway, "approvals watch", true).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    // A reader that stops reading (or a flood faster than the lines are made) costs bounded
    // queues: what does not fit is dropped, and the output says how many.
    let mut stdout = super::bounded_out::BoundedOut::watch_stdout(as_json);
    let (tx, mut rx) = super::bounded_out::lossy_channel::<WatchItem>(stdout.drop_counter());
    for client in &clients {
        let name = client.endpoint().name.clone();
        let mut events = client.events_lossy(super::bounded_out::MAX_EVENTS, stdout.drop_counter());
        let forward = tx.clone();
        tokio::spawn(async move {
            while let Some(ev) = events.recv().await {
                if let Some(item) = WatchItem::from_client_event(&name, &ev)
                    && is_desk_item(&item)
                    && forward.send(item).is_err()
                {
                    break;
                }
            }
        });
        // Approvals of every kind already pending when we attach.
        for item in list_all_pending(client, &client.endpoint().name).await.0 {
            let _ = tx.send(item);
        }
    }
    drop(tx);
    if !as_json {
        eprintln!(
            "watching approvals on {} gateway(s); Ctrl-C to stop",
            clients.len()
        );
    }
    // Ctrl-C, SIGTERM or SIGHUP: close the connections; the stop policy then exits 128 + n.
    let mut stop = crate::process::stop_signals::stop_signals();
    let mut reader_left = std::pin::pin!(super::quiet_out::reader_left());
    loop {
        let next = tokio::select! {
            _ = &mut stop => break,
            () = &mut reader_left => break,
            next = rx.recv() => next,
        };
        let Some(item) = next else { break };
        if !print_item(&mut stdout, &item, as_json, super::output_guard(cli)) {
            break;
        }
    }
    for client in &clients {
        client.close();
    }
    exit::OK
}

/// The kind of approval `id` as the gateway's `approval.get` says; exec when it does not say
/// (the exec resolver then gives the gateway's own answer).
async fn kind_of(client: &crate::gateway::GatewayClient, id: &str) -> ApprovalKind {
    client
        .request("approval.get", json!({"id": id}))
        .await
        .ok()
        .and_then(|v| {
            v.pointer("/approval/presentation/kind")
                .and_then(serde_json::Value::as_str)
                .and_then(ApprovalKind::parse)
        })
        .unwrap_or(ApprovalKind::Exec)
}

async fn resolve(cli: &Cli, gateway: &GatewayArgs, id: &str, decision: &str, as_json: bool) -> u8 {
    let decision = match Decision::parse(decision) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("clawdeck approvals resolve: {e}");
            return exit::USAGE;
        }
    };
    let (clients, _) = match attach_all(cli, gateway, "approvals resolve", false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    // The id belongs to one gateway; the others answer "unknown".
    let mut errors = Vec::new();
    let mut code = exit::TOOL_ERROR;
    for client in &clients {
        let kind = kind_of(client, id).await;
        let (method, params) = resolve_call(id, kind, decision);
        match client.request(&method, params).await {
            Ok(payload) => {
                if as_json {
                    outln!(
                        "{}",
                        json!({"gateway": client.endpoint().name, "id": id, "decision": decision.as_str(),
                               "kind": kind.as_str(), "result": payload})
                    );
                } else {
                    outln!("{}: {id} {}", client.endpoint().name, decision.as_str());
                }
                code = exit::OK;
                break;
            }
            Err(err) => errors.push(format!("{}: {err}", client.endpoint().name)),
        }
    }
    for client in &clients {
        client.close();
    }
    if code != exit::OK {
        for e in errors {
            super::err_untrusted(cli, &format!("clawdeck approvals resolve: {e}"));
        }
    }
    code
}
