//! Turns of real OpenClaw that only a gateway can run, on a private one. A local CLI run is
//! always its owner's and has no channel sender. So the operator's config goes into an
//! isolated home with a gateway section of its own, that gateway is started on a free loopback
//! port under the process supervisor, and the turn is started one of these ways:
//! - through the gateway's `agent` method (or webchat's `chat.send`), by an operator
//!   connection with or without `operator.admin` (without it the turn runs with
//!   `senderIsOwner: false`);
//! - by a paired node's voice transcript (`node.event`), whose turn's message provider is
//!   `node`;
//! - by a channel: a direct message arrives through OpenClaw's own Telegram channel from the
//!   stand-in Bot API of [`super::telegram_stub`], and carries its sender.
//!
//! The recording mock's request is the observation. The gateway's process group is killed when
//! the observation is made (or its deadline passes).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::VerifyError;
use super::mock::{CALL_MARKER, RecordingMock, describe_requests};
use super::observed::{
    NO_TOOLS_ERROR_PREFIX, ObservedView, main_request, request_carrying, spawned_request,
};
use crate::context::PolicyContext;
use crate::gateway_client::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient, GatewayEndpoint,
};
use crate::process::{KillReason, ProcessSpec, RunningProcess};
use clawdeck_core::semantics::TurnClient;

/// How long the private gateway may take to accept a connection.
const STARTUP: Duration = Duration::from_secs(120);

/// The isolated config with a gateway section: loopback, `port`, token auth.
pub(crate) fn with_private_gateway(isolated: &Value, port: u16, token: &str) -> Value {
    let mut out = isolated.clone();
    if let Some(root) = out.as_object_mut() {
        root.insert(
            "gateway".to_string(),
            json!({"mode": "local", "bind": "loopback", "port": port,
                   "auth": {"mode": "token", "token": token}}),
        );
    }
    out
}

/// A loopback port no other lab run of this process was given: runs start side by side, and
/// a port the system hands out twice would be one run's mock model and another's gateway.
fn free_port() -> Result<u16, VerifyError> {
    static HANDED_OUT: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| VerifyError::Gateway {
                method: "start".to_string(),
                message: format!("no free loopback port: {e}"),
            })?;
        let mut handed_out = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
        if handed_out.insert(port) {
            return Ok(port);
        }
    }
}

fn gateway_error(method: &str, message: impl std::fmt::Display) -> VerifyError {
    VerifyError::Gateway {
        method: method.to_string(),
        message: message.to_string(),
    }
}

/// Connects the lab's node as a paired node. Its first connection pairs its device (silently,
/// on loopback) and asks for its surface to be approved, which a local pairing does not do by
/// itself; an operator approves it (`node.pair.approve`), and only the node's next connection
/// carries the pairing generation that `node.event` is checked against.
async fn connect_paired_node(
    port: u16,
    token: &str,
    home: &Path,
    gateway: &RunningProcess,
    deadline: Instant,
) -> Result<GatewayClient, VerifyError> {
    let node = connect(port, token, home, gateway, Connection::Node, deadline).await?;
    let node_id = DeviceIdentity::load_or_create(&home.join(Connection::Node.device_file()))
        .map_err(|e| gateway_error("connect", e))?
        .device_id()
        .to_string();
    let approver = connect(
        port,
        token,
        home,
        gateway,
        Connection::NodeApprover,
        deadline,
    )
    .await;
    let approved = match &approver {
        Ok(approver) => approve_node(approver, &node_id, deadline).await,
        Err(_) => Ok(()),
    };
    node.close();
    if let Ok(approver) = &approver {
        approver.close();
    }
    approver?;
    approved?;
    connect(port, token, home, gateway, Connection::Node, deadline).await
}

/// How many times a node's event is sent again after the gateway refused it as sent before
/// the node's approved pairing was published.
const NODE_RESENDS: u32 = 5;

/// Sends the node's event. The gateway publishes an approved pairing a moment after approving
/// it, and refuses an event that comes before as "node pairing changed" without dispatching
/// it: the node connects again and resends, a few times. Returns the connection that was
/// accepted.
async fn send_as_node<F, Fut>(
    mut client: GatewayClient,
    method: &str,
    params: &Value,
    reconnect: F,
) -> Result<GatewayClient, VerifyError>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<GatewayClient, VerifyError>>,
{
    let mut resends = 0;
    loop {
        match client.request(method, params.clone()).await {
            Ok(_) => return Ok(client),
            Err(err) if resends < NODE_RESENDS && err.to_string().contains("pairing changed") => {
                resends += 1;
                client.close();
                tokio::time::sleep(Duration::from_millis(500)).await;
                client = reconnect().await?;
            }
            Err(err) => {
                client.close();
                return Err(gateway_error(method, err));
            }
        }
    }
}

/// Approves the pending surface request of `node_id`, waiting for it to be listed.
async fn approve_node(
    operator: &GatewayClient,
    node_id: &str,
    deadline: Instant,
) -> Result<(), VerifyError> {
    loop {
        let listing = operator
            .request("node.pair.list", json!({}))
            .await
            .map_err(|e| gateway_error("node.pair.list", e))?;
        let request_id = listing
            .get("pending")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|r| r.get("nodeId").and_then(Value::as_str) == Some(node_id))
            .and_then(|r| r.get("requestId"))
            .cloned();
        if let Some(request_id) = request_id {
            let params = json!({ "requestId": request_id });
            return operator
                .request("node.pair.approve", params)
                .await
                .map(|_| ())
                .map_err(|e| gateway_error("node.pair.approve", e));
        }
        if Instant::now() >= deadline {
            return Err(gateway_error(
                "node.pair.list",
                format!("no pending pairing of node {node_id}: {listing}"),
            ));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Who connects to the private gateway.
#[derive(Clone, Copy)]
enum Connection<'a> {
    /// An operator, with `operator.admin` (the owner) or without; as the turn's gateway client
    /// when one is named, else as clawdeck.
    Operator {
        as_owner: bool,
        client: Option<&'a TurnClient>,
    },
    /// A headless node, which the gateway pairs silently on loopback. Its device is its own:
    /// a device already paired as an operator would have to be approved to add the role.
    Node,
    /// The operator who approves the node's surface (`operator.pairing`).
    NodeApprover,
}

impl Connection<'_> {
    /// The connection's options on the gateway at loopback `port`.
    fn options(self, port: u16) -> ConnectOptions {
        match self {
            Connection::Operator { as_owner, client } => {
                let mut options = ConnectOptions::default().all_operators(as_owner);
                if let Some(client) = client {
                    as_client(&mut options, client, port);
                }
                options
            }
            Connection::Node => ConnectOptions::as_node(),
            Connection::NodeApprover => {
                let mut options = Connection::Operator {
                    as_owner: true,
                    client: None,
                }
                .options(port);
                options.scopes.push("operator.pairing".to_string());
                options
            }
        }
    }

    fn device_file(self) -> &'static str {
        match self {
            Connection::Operator { .. } | Connection::NodeApprover => "clawdeck-device",
            Connection::Node => "clawdeck-node-device",
        }
    }
}

/// Connection options that make the operator's connection the turn's client: its id, its
/// mode as OpenClaw's own client of that id connects, and every capability it declares. A
/// browser client (the Control UI) also sends the gateway's own loopback origin, from which the
/// gateway takes it, as a development build (which the gateway takes whatever its own build).
fn as_client(options: &mut ConnectOptions, client: &TurnClient, port: u16) {
    let id = client
        .id
        .clone()
        .unwrap_or_else(|| options.client_id.clone());
    let browser = clawdeck_core::semantics::is_browser_client(&id);
    options.client_mode = clawdeck_core::semantics::client_mode(&id).to_string();
    options.origin = browser.then(|| format!("http://127.0.0.1:{port}"));
    // A Control UI from the gateway's own host must be the gateway's build, or a development
    // build of the UI.
    options.client_build_id = browser.then(|| "dev".to_string());
    options.client_id = id;
    options.caps = client.caps.clone();
}

/// Connects to the private gateway, retrying while it starts (until `deadline`).
async fn connect(
    port: u16,
    token: &str,
    home: &Path,
    gateway: &RunningProcess,
    who: Connection<'_>,
    deadline: Instant,
) -> Result<GatewayClient, VerifyError> {
    let identity = DeviceIdentity::load_or_create(&home.join(who.device_file()))
        .map_err(|e| gateway_error("connect", e))?;
    let endpoint = GatewayEndpoint {
        name: "verify".to_string(),
        url: format!("ws://127.0.0.1:{port}"),
        auth: GatewayAuth::Token(token.to_string()),
        origin: "clawdeck verify (private gateway)".to_string(),
    };
    let options = who.options(port);
    loop {
        let attempt = GatewayClient::connect(
            endpoint.clone(),
            identity.clone(),
            options.clone(),
            Backoff::default(),
        )
        .await;
        match attempt {
            Ok(client) => return Ok(client),
            Err(err) => {
                if gateway.is_finished() || Instant::now() >= deadline {
                    let output =
                        super::cli_run::strip_ansi(&gateway.output_snapshot().combined_text());
                    return Err(gateway_error(
                        "connect",
                        format!(
                            "{err}; the gateway's output ends with:\n{}",
                            super::cli_run::tail_lines(&output, 12)
                        ),
                    ));
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

/// How the turn starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The gateway's `agent` method, from a connection with `operator.admin` (the turn runs as
    /// the owner) or without (a non-owner).
    AgentMethod { as_owner: bool },
    /// The gateway's `chat.send` (a webchat turn, as the Control UI sends it), from a
    /// connection with `operator.admin` (the owner) or without.
    ChatSend { as_owner: bool },
    /// A message the config's channel delivers by itself.
    Inbound,
    /// A paired node's voice transcript (`node.event` `voice.transcript`, as a phone's talk
    /// mode sends it): the turn's message provider is `node`.
    NodeVoice,
    /// A heartbeat's turn, woken at once (the gateway's `wake` method with mode `now`, as
    /// `openclaw system event --mode now` sends it) with the message as its system event.
    Heartbeat,
    /// A scheduled job's turn: an automation added with the context's tool cap, its delivery
    /// and the message as its agent turn (`cron.add`, as `openclaw cron add --tools` sends
    /// it; in the session the context's key names, else the job's own), then run at once
    /// (`cron.run`, mode `force`, as `openclaw cron run` does).
    Scheduled,
}

/// The message provider a context's turn comes over: its channel when no session key named
/// it (a key says where the session lives, not how the turn arrived), lower case.
pub fn message_provider(ctx: &PolicyContext) -> Option<String> {
    let resolved = ctx.clone().with_session_key();
    resolved.message_provider().map(str::to_lowercase)
}

/// Whether the context's turn is a paired node's ([`Start::NodeVoice`] starts one).
pub fn node_turn(ctx: &PolicyContext) -> bool {
    ctx.clone().with_session_key().is_node_turn()
}

/// The task a spawned subagent is given: how its model request is told from the spawner's.
pub(crate) const SUBAGENT_TASK: &str = "clawdeck verify subagent task: just answer.";

/// One turn: who starts it and how long it may take. With `spawned`, the turn runs in the
/// spawner's session (`ctx`'s key), its model calls `sessions_spawn` (the mock's scripted
/// call), and what is observed is the spawned subagent's request.
pub(crate) struct Turn<'a> {
    pub agent: &'a str,
    pub ctx: &'a PolicyContext,
    pub start: Start,
    pub timeout: Duration,
    pub message: &'a str,
    pub spawned: bool,
    /// The client a `chat.send` turn's connection is (else clawdeck's own).
    pub client: Option<&'a TurnClient>,
}

/// The message that makes the mock spawn a subagent with [`SUBAGENT_TASK`], of `agent` when
/// that is not the spawner's own (`sessions_spawn`'s `agentId`; `subagents.allowAgents` must
/// allow it).
pub(crate) fn spawn_message(agent: Option<&str>) -> String {
    let mut args = json!({ "task": SUBAGENT_TASK });
    if let Some(agent) = agent {
        args["agentId"] = json!(agent);
    }
    format!("{CALL_MARKER} sessions_spawn {args}")
}

/// Runs one turn through a private gateway and returns what the model was sent.
pub(super) async fn observe(
    program: &Path,
    home: &Path,
    isolated: &Value,
    turn: Turn<'_>,
    mock: &RecordingMock,
) -> Result<ObservedView, VerifyError> {
    let port = free_port()?;
    let token = format!("clawdeck-verify-{}", std::process::id());
    let config = with_private_gateway(isolated, port, &token);
    super::cli_run::write_run_config(home, &config)?;
    let spec: ProcessSpec = super::cli_run::cli_spec(program, home, STARTUP + turn.timeout).args([
        "gateway".to_string(),
        "run".to_string(),
        "--port".to_string(),
        port.to_string(),
    ]);
    let gateway = crate::process::spawn(spec).map_err(|err| VerifyError::Spawn {
        program: program.display().to_string(),
        message: err.to_string(),
    })?;
    let result = run_turn(&gateway, port, &token, home, &turn, mock).await;
    gateway.kill(KillReason::Dropped);
    let _ = gateway.wait().await;
    result
}

/// Which of the model's requests is the turn's.
#[derive(Clone, Copy)]
enum Expected<'a> {
    /// The first that has a system prompt.
    Main,
    /// The spawned subagent's.
    Spawned,
    /// The one whose user message carries this text.
    Carrying(&'a str),
}

impl<'a> Expected<'a> {
    fn of(turn: &Turn<'a>) -> Expected<'a> {
        match (turn.spawned, turn.start) {
            (true, _) => Expected::Spawned,
            (false, Start::Scheduled) => Expected::Carrying(turn.message),
            (false, _) => Expected::Main,
        }
    }
}

/// Waits for the model request `expected` names, while the gateway lives, until `deadline`.
async fn await_request(
    gateway: &RunningProcess,
    mock: &RecordingMock,
    expected: Expected<'_>,
    deadline: Instant,
    what: impl Fn() -> String,
    seconds: u64,
) -> Result<ObservedView, VerifyError> {
    loop {
        let bodies: Vec<Value> = mock.completions().into_iter().map(|r| r.body).collect();
        let observed = match expected {
            Expected::Spawned => spawned_request(&bodies, SUBAGENT_TASK, CALL_MARKER),
            // The gateway's own automations may ask the model too: the job's turn carries
            // the message.
            Expected::Carrying(text) => request_carrying(&bodies, text),
            Expected::Main => main_request(&bodies),
        };
        if let Some(body) = observed {
            return Ok(ObservedView::from_request(body));
        }
        // A run refused before its request (an explicit allowlist, a job's cap, left no
        // callable tool) says so in the gateway's log.
        let output = super::cli_run::strip_ansi(&gateway.output_snapshot().combined_text());
        if let Some(error) = refusal_in_log(&output) {
            return Ok(ObservedView::refused(error));
        }
        if gateway.is_finished() {
            let output = super::cli_run::strip_ansi(&gateway.output_snapshot().combined_text());
            return Err(gateway_error(
                "start",
                format!(
                    "the private gateway ended before {}; its output ends with:\n{}",
                    what(),
                    super::cli_run::tail_lines(&output, 12)
                ),
            ));
        }
        if Instant::now() >= deadline {
            let output = super::cli_run::strip_ansi(&gateway.output_snapshot().combined_text());
            let seen = match expected {
                Expected::Main => String::new(),
                _ => format!("; the model was asked {}", describe_requests(&bodies)),
            };
            let seen = format!(
                "{seen}; the gateway's output ends with:\n{}",
                super::cli_run::tail_lines(&output, 12)
            );
            return Err(VerifyError::Timeout {
                command: format!("{}{seen}", what()),
                seconds,
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// OpenClaw's refusal of a run with no callable tool, as its gateway logs it (inside a
/// quoted `error="..."` or to the end of a line), else `None`.
fn refusal_in_log(output: &str) -> Option<String> {
    if let Some(at) = output.find(NO_TOOLS_ERROR_PREFIX) {
        let rest = &output[at..];
        let end = rest.find(['"', '\n']).unwrap_or(rest.len());
        return Some(rest[..end].trim().to_string());
    }
    // A job an agent made from an account no longer configured: its message quotes the
    // account, so it runs to its closing sentence (else to the end of its line).
    let at = output.find(UNAVAILABLE_ACCOUNT_PREFIX)?;
    let rest = &output[at..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let end = line
        .find(UNAVAILABLE_ACCOUNT_END)
        .map_or(line.len(), |i| i + UNAVAILABLE_ACCOUNT_END.len());
    Some(line[..end].trim().to_string())
}

/// How OpenClaw's refusal of a job whose creator's account is gone starts and ends.
const UNAVAILABLE_ACCOUNT_PREFIX: &str = "Scheduled account \"";
const UNAVAILABLE_ACCOUNT_END: &str = "from the intended account.";

/// The method and params that start the turn: the context's session key, else (`agent`) a
/// session id of the lab's or (`chat.send` and a node's transcript, which need a key) the
/// agent's main session;
/// `chat.send`'s params as the console's chat sends them.
fn turn_request(turn: &Turn<'_>) -> (&'static str, Value) {
    let key = turn
        .ctx
        .session_key
        .as_deref()
        .filter(|k| !k.trim().is_empty());
    let main = format!("agent:{}:main", turn.agent);
    if let Start::NodeVoice = turn.start {
        let transcript = json!({ "text": turn.message, "sessionKey": key.unwrap_or(&main) });
        let params = json!({ "event": "voice.transcript", "payloadJSON": transcript.to_string() });
        return ("node.event", params);
    }
    if let Start::Scheduled = turn.start {
        return (
            "cron.add",
            super::lab_job::scheduled_job(job_turn(turn), key),
        );
    }
    if let Start::Heartbeat = turn.start {
        let params =
            json!({ "mode": "now", "text": turn.message, "sessionKey": key.unwrap_or(&main) });
        return ("wake", params);
    }
    if let Start::ChatSend { .. } = turn.start {
        let key = key.unwrap_or(&main);
        let chat =
            crate::gateway_client::chat::ChatRequest::new(key, Some(turn.agent), turn.message);
        return ("chat.send", chat.params());
    }
    let mut params = json!({
        "message": turn.message,
        "agentId": turn.agent,
        "idempotencyKey": format!("clawdeck-verify-{}", std::process::id()),
    });
    match key {
        Some(key) => params["sessionKey"] = json!(key),
        None => params["sessionId"] = json!("clawdeck-verify"),
    }
    ("agent", params)
}

/// The lab job a scheduled turn is.
fn job_turn<'a>(turn: &Turn<'a>) -> super::lab_job::JobTurn<'a> {
    super::lab_job::JobTurn {
        agent: turn.agent,
        ctx: turn.ctx,
        message: turn.message,
    }
}

/// The connection that starts a turn; `None` for a message the config's channel delivers by
/// itself.
fn connection_for<'a>(turn: &Turn<'a>) -> Option<Connection<'a>> {
    Some(match turn.start {
        Start::AgentMethod { as_owner } => Connection::Operator {
            as_owner,
            client: None,
        },
        Start::ChatSend { as_owner } => Connection::Operator {
            as_owner,
            client: turn.client,
        },
        Start::NodeVoice => Connection::Node,
        // Waking the gateway's heartbeat takes an operator's write scope, an automation its
        // admin scope.
        Start::Heartbeat | Start::Scheduled => Connection::Operator {
            as_owner: true,
            client: None,
        },
        Start::Inbound => return None,
    })
}

/// Sends the turn's request from an operator's connection (a scheduled turn adds its job and
/// runs it); returns the text the turn's request carries when that is not the message.
async fn send_from_operator(
    client: &GatewayClient,
    turn: &Turn<'_>,
    (method, params): (&'static str, Value),
    mock: &RecordingMock,
) -> Result<Option<String>, VerifyError> {
    match turn.start {
        Start::Scheduled => {
            let deadline = Instant::now() + turn.timeout;
            super::lab_job::add_and_run(client, job_turn(turn), params, mock, deadline)
                .await
                .map(Some)
        }
        _ => client
            .request(method, params)
            .await
            .map(|_| None)
            .map_err(|err| gateway_error(method, err)),
    }
}

async fn run_turn(
    gateway: &RunningProcess,
    port: u16,
    token: &str,
    home: &Path,
    turn: &Turn<'_>,
    mock: &RecordingMock,
) -> Result<ObservedView, VerifyError> {
    let Some(who) = connection_for(turn) else {
        // The channel starts polling once the gateway is up; the message is its turn.
        return await_request(
            gateway,
            mock,
            Expected::of(turn),
            Instant::now() + STARTUP + turn.timeout,
            || {
                format!(
                    "an inbound channel message reached the model (agent {}, port {port})",
                    turn.agent
                )
            },
            (STARTUP + turn.timeout).as_secs(),
        )
        .await;
    };
    let deadline = Instant::now() + STARTUP;
    let client = match who {
        Connection::Node => connect_paired_node(port, token, home, gateway, deadline).await?,
        _ => connect(port, token, home, gateway, who, deadline).await?,
    };
    let (method, params) = turn_request(turn);
    let mut carried = None;
    let client = match who {
        Connection::Node => {
            let reconnect = || connect(port, token, home, gateway, who, deadline);
            send_as_node(client, method, &params, reconnect).await?
        }
        _ => match send_from_operator(&client, turn, (method, params), mock).await {
            Ok(text) => {
                carried = text;
                client
            }
            Err(err) => {
                client.close();
                return Err(err);
            }
        },
    };
    let expected = match carried.as_deref() {
        Some(text) => Expected::Carrying(text),
        None => Expected::of(turn),
    };
    let spawned = match turn.spawned {
        true => ", and its spawned subagent's request",
        false => "",
    };
    let observed = await_request(
        gateway,
        mock,
        expected,
        Instant::now() + turn.timeout,
        || {
            format!(
                "the private gateway's {method} method (agent {}, port {port}){spawned}",
                turn.agent
            )
        },
        turn.timeout.as_secs(),
    )
    .await;
    client.close();
    observed
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn a_refusal_is_read_from_the_gateways_log_quoted_or_to_the_end_of_its_line() {
        let refusal = "No callable tools remain after resolving explicit tool allowlist (runtime toolsAllow: read); no registered tools matched. Fix the allowlist or enable the plugin that registers the requested tool.";
        let quoted = format!(
            "[diagnostic] lane task error: lane=cron error=\"{refusal}\" errorName=Error\nnext"
        );
        assert_eq!(refusal_in_log(&quoted).as_deref(), Some(refusal));
        let bare = format!("decision=surface_error rawError={refusal}\n[diagnostic] more");
        assert_eq!(refusal_in_log(&bare).as_deref(), Some(refusal));
        assert_eq!(refusal_in_log("[telegram] setMyCommands failed"), None);
        let account = "Scheduled account \"bot2\" is unavailable. Re-add it to the channel configuration, or recreate this automation from the intended account.";
        let logged = format!("outcome=error duration=52ms error=\"{account}\"\nmore");
        assert_eq!(refusal_in_log(&logged).as_deref(), Some(account));
    }
}
