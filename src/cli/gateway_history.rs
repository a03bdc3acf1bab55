//! `clawdeck gateway history KEY | health | logs [--follow]`: the headless twins of the
//! Sessions view's backfilled transcript and the Gateways view (health, usage, the live log).
//! Every text comes from the gateway: printed through the output guard.

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::columns::{ColumnLayout, cell};
use super::gateway_args::{CommonArgs, attach_all};
use super::{Cli, exit};
use crate::gateway::health::{fetch_health, fetch_usage, uptime_text};
use crate::gateway::history::{fetch_history, parse_history};
use crate::gateway::logs::{LogCursor, LogLine};
use crate::gateway::transcript::{ToolOutcome, TranscriptEntry};
use crate::sanitize::StdStream;

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Session key (e.g. agent:ops:main)
    #[arg(value_name = "KEY")]
    pub key: String,
}

#[derive(Debug, Args)]
pub struct LogsArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Keep printing new lines (polling `logs.tail` with its cursor) until interrupted
    #[arg(long)]
    pub follow: bool,
    /// Only lines containing this text (any case)
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub filter: String,
    /// Milliseconds between polls with --follow
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub interval_ms: u64,
}

pub(super) async fn history(cli: &Cli, args: &HistoryArgs) -> u8 {
    let (clients, mut failed) =
        match attach_all(cli, &args.common.gateway, "gateway history", false).await {
            Ok(x) => x,
            Err(code) => return code,
        };
    let guard = super::output_guard(cli);
    let mut json_rows = Vec::new();
    // Gateways without the session (an empty history alone does not say which it is).
    let mut without = Vec::new();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let payload = match fetch_history(client, &args.key).await {
            Ok(payload) => payload,
            Err(err) => {
                super::err_untrusted(cli, &format!("clawdeck gateway history: {name}: {err}"));
                failed = true;
                client.close();
                continue;
            }
        };
        let history = parse_history(&args.key, &payload);
        let held = !history.messages.is_empty()
            || crate::gateway::chat::holds_session(client, &args.key)
                .await
                .unwrap_or(true);
        client.close();
        if !held {
            without.push(name);
            continue;
        }
        let entries: Vec<Value> = history
            .messages
            .iter()
            .map(|m| entry_json(&m.entry))
            .collect();
        if args.common.json {
            json_rows.push(json!({"gateway": name, "sessionKey": history.session_key,
                "totalMessages": history.total, "hasMore": history.has_more,
                "notLoaded": history.not_loaded(), "entries": entries}));
            continue;
        }
        outln!(
            "{}  {}  {} entries",
            cell(&name),
            cell(&history.session_key),
            history.messages.len()
        );
        if history.not_loaded() > 0 {
            outln!("… {} earlier messages not loaded", history.not_loaded());
        }
        for message in &history.messages {
            outln!(
                "{}",
                guard.lines(StdStream::Stdout, &entry_text(&message.entry))
            );
        }
    }
    if args.common.json {
        outln!("{}", crate::cli::json_text::pretty(&json_rows));
    }
    if !without.is_empty() {
        let all = without.len() == clients.len();
        super::err_untrusted(
            cli,
            &format!(
                "clawdeck gateway history: {} session {} ({})",
                if all {
                    "no gateway has"
                } else {
                    "not every gateway has"
                },
                args.key,
                without.join(", ")
            ),
        );
        failed |= all;
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

fn entry_json(entry: &TranscriptEntry) -> Value {
    match entry {
        TranscriptEntry::Message { role, text, ts } => {
            json!({"kind": "message", "role": role, "text": text, "ts": ts})
        }
        TranscriptEntry::Tool(call) => json!({"kind": "tool", "name": call.name,
            "callId": call.call_id, "args": call.args, "output": call.output,
            "outcome": outcome_text(&call.outcome), "durationMs": call.duration_ms}),
        TranscriptEntry::Gap { reason } => json!({"kind": "gap", "reason": reason}),
    }
}

fn outcome_text(outcome: &ToolOutcome) -> &'static str {
    match outcome {
        ToolOutcome::Running => "running",
        ToolOutcome::Ok => "ok",
        ToolOutcome::Error => "error",
    }
}

/// `role │ text` (continuation lines indented), or a tool call and its output.
fn entry_text(entry: &TranscriptEntry) -> String {
    let (label, body) = match entry {
        TranscriptEntry::Message { role, text, .. } => (role.clone(), text.clone()),
        TranscriptEntry::Tool(call) => {
            let args = if call.args.is_null() {
                String::new()
            } else {
                call.args.to_string()
            };
            let mut body = format!("{} {} {args}", call.name, outcome_text(&call.outcome));
            for line in call.output.lines() {
                body.push_str(&format!("\n▏ {line}"));
            }
            ("tool".to_string(), body)
        }
        TranscriptEntry::Gap { reason } => ("--".to_string(), reason.clone()),
    };
    body.lines()
        .enumerate()
        .map(|(n, line)| {
            let label = if n == 0 { label.as_str() } else { "" };
            format!("{label:>9} │ {line}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) async fn health(cli: &Cli, args: &CommonArgs) -> u8 {
    let (clients, mut failed) = match attach_all(cli, &args.gateway, "gateway health", false).await
    {
        Ok(x) => x,
        Err(code) => return code,
    };
    let attached = Instant::now();
    let mut rows = Vec::new();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let health = match fetch_health(client, attached).await {
            Ok(h) => h,
            Err(err) => {
                super::err_untrusted(cli, &format!("clawdeck gateway health: {name}: {err}"));
                failed = true;
                client.close();
                continue;
            }
        };
        // Usage is slower and may be refused on its own: the health still shows.
        let usage = match fetch_usage(client).await {
            Ok(rows) => rows,
            Err(err) => {
                super::err_untrusted(
                    cli,
                    &format!("clawdeck gateway health: {name}: sessions.usage: {err}"),
                );
                Vec::new()
            }
        };
        client.close();
        rows.push((name, health, usage));
    }
    if args.json {
        let out: Vec<Value> = rows
            .iter()
            .map(|(name, health, usage)| json!({"gateway": name, "health": health, "usage": usage}))
            .collect();
        outln!("{}", crate::cli::json_text::pretty(&out));
    } else {
        for (name, health, usage) in &rows {
            print_health(name, health, usage);
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

fn print_health(
    name: &str,
    health: &crate::gateway::health::GatewayHealth,
    usage: &[crate::gateway::health::SessionUsage],
) {
    let state = match health.ok {
        Some(true) if health.degraded.is_empty() => "ok".to_string(),
        Some(true) => format!("degraded: {}", health.degraded.join("; ")),
        Some(false) => "NOT ok".to_string(),
        None => "unknown".to_string(),
    };
    let number = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    outln!(
        "{}  OpenClaw {}  up {}  health {}  clients {}  sessions {}  active tasks {}",
        cell(name),
        cell(&health.version),
        health.uptime_ms.map_or("-".to_string(), uptime_text),
        cell(&state),
        health.clients.len(),
        number(health.sessions),
        number(health.active_tasks),
    );
    for client in &health.clients {
        outln!("  client {}", cell(client));
    }
    const HEADER: [&str; 5] = ["  SESSION", "AGENT", "MODEL", "TOKENS", "COST"];
    let table: Vec<Vec<String>> = usage
        .iter()
        .map(|u| {
            vec![
                format!("  {}", cell(&u.key)),
                cell(&u.agent),
                cell(&u.model),
                number(u.total_tokens),
                u.cost.map_or("-".to_string(), |c| format!("{c:.4}")),
            ]
        })
        .collect();
    if !table.is_empty() {
        let layout = ColumnLayout::fit(&HEADER, &table, usize::MAX);
        outln!("{}", layout.line(&HEADER));
        for row in &table {
            outln!("{}", layout.line(row));
        }
    }
}

pub(super) async fn logs(cli: &Cli, args: &LogsArgs) -> u8 {
    let (clients, mut failed) =
        match attach_all(cli, &args.common.gateway, "gateway logs", false).await {
            Ok(x) => x,
            Err(code) => return code,
        };
    let mut cursors: Vec<LogCursor> = clients.iter().map(|_| LogCursor::default()).collect();
    let mut stop = crate::process::stop_signals::stop_signals();
    let interval = Duration::from_millis(args.interval_ms.max(100));
    loop {
        for (client, cursor) in clients.iter().zip(cursors.iter_mut()) {
            let name = client.endpoint().name.clone();
            match cursor.poll(client).await {
                Ok(read) => {
                    if read.reset && read.skipped_bytes > 0 {
                        eprintln!(
                            "{}: the log moved on faster than it was read: {} bytes skipped",
                            cell(&name),
                            read.skipped_bytes
                        );
                    }
                    for line in read.lines.iter().filter(|l| l.matches(&args.filter)) {
                        print_log_line(&name, line, args.common.json);
                    }
                }
                Err(err) => {
                    super::err_untrusted(cli, &format!("clawdeck gateway logs: {name}: {err}"));
                    failed = true;
                }
            }
        }
        if !args.follow || super::quiet_out::reader_gone() {
            break;
        }
        tokio::select! {
            _ = &mut stop => break,
            _ = tokio::time::sleep(interval) => {}
        }
    }
    for client in &clients {
        client.close();
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

/// One log line (already sanitized when read), as text or a JSON line.
fn print_log_line(gateway: &str, line: &LogLine, as_json: bool) {
    if as_json {
        let mut value = serde_json::to_value(line).unwrap_or_default();
        value["gateway"] = json!(gateway);
        outln!("{}", crate::cli::json_text::value_line(&value));
    } else {
        outln!("{}  {}", cell(gateway), cell(&line.text()));
    }
}
