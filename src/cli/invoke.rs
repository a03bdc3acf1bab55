//! `clawdeck invoke TOOL --params JSON|@file [context flags] [--lane L] [--json]`: runs one tool
//! through the full pipeline (policy, aliases, validation, hooks, lane, execute, sanitising).
//!
//! Exit status: 0 the tool succeeded; 1 it reported an error (or was cancelled); 2 bad usage
//! (unreadable or invalid `--params`, parameters that fail the schema, unknown tool, broken
//! config); 3 refused (the policy hides the tool in this context, or a hook blocked the call);
//! 130, 143, 129 stopped by SIGINT, SIGTERM, SIGHUP (the call's trees killed first).
//!
//! `--via gateway` runs the tool on a live OpenClaw gateway instead (`invoke_gateway`).

use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::Value;

use super::call_report::report;
use super::gateway_args::GatewayArgs;

use super::tools::print_load_warnings;
use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config;
use crate::local_tools::exec::finished_result;
use crate::pipeline::{CallOutcome, CallRequest, Pipeline};
use crate::process::KillReason;
use crate::process::stop_signals::stop_signals;
use crate::stages::results::sanitize_result;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Args)]
pub struct InvokeArgs {
    /// The tool to run (aliases such as `bash` work)
    pub tool: String,
    /// Parameters as a JSON object, or `@FILE` to read them from a file (`@-`: stdin)
    #[arg(long, short = 'p', default_value = "{}", value_name = "JSON|@FILE")]
    pub params: String,
    /// Lane to run in (default: main, or subagent for a subagent context)
    #[arg(long, value_name = "LANE")]
    pub lane: Option<String>,
    /// Tool-call id passed to the tool and to hooks
    #[arg(long, value_name = "ID")]
    pub call_id: Option<String>,
    /// Print the tool result as JSON: {"content":[...],"details":{...}}
    #[arg(long)]
    pub json: bool,
    /// Parameters as a JSON object (instead of --params)
    #[arg(value_name = "JSON", conflicts_with = "params")]
    pub params_json: Option<String>,
    /// Where the tool runs: `local` (clawdeck's pipeline) or `gateway` (a live OpenClaw
    /// gateway's `tools.invoke`, under its own policy; --agent and --session-key pick the
    /// agent and session it runs for)
    #[arg(long, value_enum, default_value_t = Via::Local)]
    pub via: Via,
    #[command(flatten)]
    pub gateway: GatewayArgs,
    /// With --via gateway: seconds to wait for the gateway's answer
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub timeout: u64,
}

/// Where `invoke` runs the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Via {
    Local,
    Gateway,
}

/// Most a `--params @FILE` may hold.
const MAX_PARAMS_BYTES: u64 = 16 * 1024 * 1024;

/// The `--params` value as JSON, or a message naming the problem.
pub fn read_params(raw: &str) -> Result<Value, String> {
    let (text, origin) = match raw.strip_prefix('@') {
        Some("-") => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map_err(|e| format!("cannot read --params from stdin: {e}"))?;
            (text, "stdin".to_string())
        }
        Some(path) => {
            // A regular file only (a FIFO would wait for a writer), at most MAX_PARAMS_BYTES.
            let file = crate::regular_file::open_read(
                std::path::Path::new(path),
                crate::regular_file::Links::Follow,
            )
            .map_err(|e| format!("cannot read --params file {path}: {e}"))?;
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(file, MAX_PARAMS_BYTES + 1),
                &mut bytes,
            )
            .map_err(|e| format!("cannot read --params file {path}: {e}"))?;
            if bytes.len() as u64 > MAX_PARAMS_BYTES {
                return Err(format!(
                    "--params file {path} is larger than {MAX_PARAMS_BYTES} bytes"
                ));
            }
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("--params file {path} is not UTF-8 text"))?;
            (text, path.to_string())
        }
        None => (raw.to_string(), "--params".to_string()),
    };
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{origin} is not valid JSON: {e}"))?;
    if !value.is_object() {
        return Err(format!(
            "{origin} must be a JSON object, got {}",
            json_kind(&value)
        ));
    }
    Ok(value)
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub fn run(cli: &Cli, args: &InvokeArgs) -> u8 {
    let params = match read_params(args.params_json.as_deref().unwrap_or(&args.params)) {
        Ok(params) => params,
        Err(problem) => {
            eprintln!("clawdeck invoke: {problem}");
            return exit::USAGE;
        }
    };
    if args.via == Via::Gateway {
        let opts = super::invoke_gateway::GatewayInvoke {
            gateway: &args.gateway,
            session: cli.context.session_key.clone(),
            agent: cli.context.agent.clone(),
            call_id: args.call_id.clone(),
            timeout: Duration::from_secs(args.timeout.clamp(1, 3600)),
            json: args.json,
        };
        return super::invoke_gateway::run(cli, &args.tool, params, &opts);
    }
    let loaded = match config::load_from(&cli.config_request()) {
        Ok(loaded) => loaded,
        Err(err) => {
            eprintln!("clawdeck invoke: {err}");
            return exit::USAGE;
        }
    };
    let registry = Registry::build(&loaded, cli.server_listing());
    if !args.json {
        print_load_warnings(cli, &loaded, &registry);
    }
    let runtime = match super::async_runtime() {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("clawdeck invoke: {err}");
            return exit::TOOL_ERROR;
        }
    };
    let outcome = runtime.block_on(async {
        let deck = crate::deck::Deck::with_registry(loaded, registry, cli.config_request());
        if let Err(err) = deck.record_decisions("invoke") {
            eprintln!(
                "clawdeck invoke: the decision log is off: {}",
                crate::sanitize::for_terminal_if_tty_stderr(&err)
            );
        }
        let pipeline = deck.pipeline();
        let mut request = CallRequest::new(args.tool.clone(), params, cli.context.to_context());
        request.lane = args.lane.clone();
        request.call_id = args.call_id.clone();
        let cancel = request.cancel.clone();
        let on_ctrl_c = cancel.clone();
        // Ctrl-C, SIGTERM and SIGHUP cancel the call; its process trees are then killed and
        // awaited, and the stop policy exits with 128 + the signal.
        let stop = stop_signals();
        tokio::spawn(async move {
            stop.await;
            on_ctrl_c.cancel();
        });
        let outcome = pipeline.call(request).await;
        let outcome = follow_background_session(&pipeline, outcome, &cancel, args.json).await;
        if cancel.is_cancelled() {
            kill_and_await_sessions(&pipeline).await;
        }
        outcome
    });
    report(&outcome, args.json, super::output_guard(cli))
}

/// Kills every exec session still known and waits until each has ended (bounded by the
/// supervisor's kill and drain graces).
async fn kill_and_await_sessions(pipeline: &Pipeline) {
    for session in pipeline.runtime().sessions.list() {
        session.process().kill(KillReason::Cancelled);
        session.process().wait().await;
    }
}

/// A background exec session dies with this process, so instead of returning "still running"
/// `invoke` waits for the session and reports how it ended (Ctrl-C stops it).
async fn follow_background_session(
    pipeline: &Pipeline,
    outcome: CallOutcome,
    cancel: &CancellationToken,
    json: bool,
) -> CallOutcome {
    let CallOutcome::Completed {
        tool,
        result,
        hooks,
        lane,
        duration,
        ..
    } = &outcome
    else {
        return outcome;
    };
    let running = result.details.get("status").and_then(Value::as_str) == Some("running");
    let session = result
        .details
        .get("sessionId")
        .and_then(Value::as_str)
        .and_then(|id| pipeline.runtime().sessions.get(id));
    let (true, Some(session)) = (running, session) else {
        return outcome;
    };
    if !json {
        eprintln!(
            "{} (clawdeck invoke waits for it; Ctrl-C stops it)",
            crate::sanitize::for_terminal_if_tty_stderr(&result.joined_text())
        );
    }
    let started = std::time::Instant::now();
    let finished = tokio::select! {
        finished = session.process().wait() => finished,
        _ = cancel.cancelled() => {
            session.process().kill(KillReason::Cancelled);
            return CallOutcome::Cancelled {
                tool: tool.clone(),
                killed_by_operator: false,
            };
        }
    };
    pipeline.runtime().sessions.remove(&session.id);
    let final_result = sanitize_result(
        finished_result(
            &finished,
            session.timeout_seconds,
            &session.cwd.display().to_string(),
        ),
        tool,
    );
    CallOutcome::Completed {
        tool: tool.clone(),
        is_error: final_result.is_error(),
        result: final_result,
        hooks: hooks.clone(),
        lane: lane.clone(),
        duration: *duration + started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_must_be_a_json_object() {
        assert!(read_params(r#"{"a": 1}"#).is_ok());
        let err = read_params("{nope").unwrap_err();
        assert!(err.starts_with("--params is not valid JSON"), "{err}");
        assert_eq!(
            read_params("[1]").unwrap_err(),
            "--params must be a JSON object, got an array"
        );
        assert!(
            read_params("@/nonexistent/x.json")
                .unwrap_err()
                .contains("cannot read --params file /nonexistent/x.json")
        );
    }

    #[test]
    fn a_params_file_that_is_a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("params");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let err = read_params(&format!("@{}", fifo.display())).unwrap_err();
        assert!(err.contains("FIFO"), "{err}");
    }
}
