//! `clawdeck gateway abort | steer | send`: acting on a live session, headless (the twins of
//! the Sessions view's abort, steer and message keys), on the one gateway that has it.

use clap::Args;
use serde_json::{Value, json};

use super::gateway_args::GatewayArgs;
use super::gateway_args::attach_all;
use super::{Cli, exit};
use crate::gateway::GatewayError;
use crate::gateway::chat;

#[derive(Debug, Args)]
pub struct AbortArgs {
    /// The session whose work to stop (e.g. agent:ops:main)
    #[arg(value_name = "KEY")]
    pub key: String,
    /// Stop only this run (as `chat --json` or `gateway watch` show it)
    #[arg(long, value_name = "RUN_ID")]
    pub run: Option<String>,
    #[command(flatten)]
    pub gateway: GatewayArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MessageArgs {
    /// The session (e.g. agent:ops:main)
    #[arg(value_name = "KEY")]
    pub key: String,
    /// The message
    #[arg(short = 'm', long = "message", value_name = "TEXT")]
    pub message: String,
    #[command(flatten)]
    pub gateway: GatewayArgs,
    #[arg(long)]
    pub json: bool,
}

/// Which action, for messages and the call.
#[derive(Debug, Clone, Copy)]
pub enum Action {
    Abort,
    Steer,
    Send,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Abort => "abort",
            Action::Steer => "steer",
            Action::Send => "send",
        }
    }
}

pub async fn abort(cli: &Cli, args: &AbortArgs) -> u8 {
    act(
        cli,
        &args.gateway,
        Action::Abort,
        &args.key,
        args.json,
        |c| {
            let (key, run) = (args.key.clone(), args.run.clone());
            async move { chat::abort(&c, &key, run.as_deref()).await }
        },
    )
    .await
}

pub async fn message(cli: &Cli, args: &MessageArgs, action: Action) -> u8 {
    if args.message.trim().is_empty() {
        eprintln!(
            "clawdeck gateway {}: --message must not be empty",
            action.name()
        );
        return exit::USAGE;
    }
    act(cli, &args.gateway, action, &args.key, args.json, |c| {
        let (key, text) = (args.key.clone(), args.message.clone());
        async move {
            match action {
                Action::Steer => chat::steer(&c, &key, &text).await,
                _ => chat::send(&c, &key, &text).await,
            }
        }
    })
    .await
}

/// Attaches, finds the one gateway that has the session and calls `call` there, prints its
/// answer. Nothing is sent when no gateway has the session, or when several do.
async fn act<F, Fut>(
    cli: &Cli,
    gateway: &GatewayArgs,
    action: Action,
    key: &str,
    as_json: bool,
    call: F,
) -> u8
where
    F: Fn(crate::gateway::GatewayClient) -> Fut,
    Fut: std::future::Future<Output = Result<Value, GatewayError>>,
{
    let command = format!("gateway {}", action.name());
    let (clients, _) = match attach_all(cli, gateway, &command, false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    let code = match holder(cli, &clients, &command, key).await {
        Err(code) => code,
        Ok(client) => {
            let name = client.endpoint().name.clone();
            match call(client.clone()).await {
                Ok(answer) => {
                    if as_json {
                        outln!(
                            "{}",
                            json!({"gateway": name, "sessionKey": key, "action": action.name(), "result": answer})
                        );
                    } else {
                        super::out_untrusted(
                            cli,
                            &format!("{}\n", summary(&name, key, action, &answer)),
                        );
                    }
                    exit::OK
                }
                Err(err) => {
                    super::err_untrusted(cli, &format!("clawdeck {command}: {name}: {err}"));
                    exit::TOOL_ERROR
                }
            }
        }
    };
    for client in &clients {
        client.close();
    }
    code
}

/// The one attached gateway that has session `key`. With none, or several, says so (naming
/// each gateway and what it answered) and gives the exit status: nothing is sent.
async fn holder<'a>(
    cli: &Cli,
    clients: &'a [crate::gateway::GatewayClient],
    command: &str,
    key: &str,
) -> Result<&'a crate::gateway::GatewayClient, u8> {
    let mut holders = Vec::new();
    let mut answers = Vec::new();
    for client in clients {
        let name = &client.endpoint().name;
        match chat::holds_session(client, key).await {
            Ok(true) => holders.push(client),
            Ok(false) => answers.push(format!("{name}: no session {key}")),
            Err(err) => answers.push(format!("{name}: {err}")),
        }
    }
    match holders.as_slice() {
        [one] => Ok(one),
        [] => {
            super::err_untrusted(
                cli,
                &format!("clawdeck {command}: no gateway has session {key}; nothing sent"),
            );
            for answer in answers {
                super::err_untrusted(cli, &format!("  {answer}"));
            }
            Err(exit::TOOL_ERROR)
        }
        several => {
            let names: Vec<&str> = several.iter().map(|c| c.endpoint().name.as_str()).collect();
            super::err_untrusted(
                cli,
                &format!(
                    "clawdeck {command}: session {key} is on {} gateways ({}); name the one with \
                     --gateway URL; nothing sent",
                    names.len(),
                    names.join(", ")
                ),
            );
            Err(exit::USAGE)
        }
    }
}

/// One line: what the gateway did.
fn summary(gateway: &str, key: &str, action: Action, answer: &Value) -> String {
    let field = |k: &str| answer.get(k).and_then(Value::as_str).unwrap_or("");
    let text = match action {
        Action::Abort => match answer.get("abortedRunId").and_then(Value::as_str) {
            Some(run) => format!("aborted run {run}"),
            None => match field("status") {
                "" => "abort sent".to_string(),
                status => status.to_string(),
            },
        },
        Action::Steer | Action::Send => format!("{} (run {})", field("status"), field("runId")),
    };
    crate::gateway::watch::one_line(&format!("{gateway}: {key}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_what_the_gateway_did() {
        let aborted = json!({"ok": true, "abortedRunId": "r1", "status": "aborted"});
        assert_eq!(
            summary("gw", "agent:ops:main", Action::Abort, &aborted),
            "gw: agent:ops:main: aborted run r1"
        );
        let idle = json!({"ok": true, "abortedRunId": null, "status": "no-active-run"});
        assert_eq!(
            summary("gw", "k", Action::Abort, &idle),
            "gw: k: no-active-run"
        );
        let steered = json!({"runId": "r2", "status": "started"});
        assert_eq!(
            summary("gw", "k", Action::Steer, &steered),
            "gw: k: started (run r2)"
        );
    }
}
