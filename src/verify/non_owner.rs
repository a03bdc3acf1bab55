//! A non-owner run of real OpenClaw. A local CLI run is always its owner's; a turn started
//! through a gateway's `agent` method by an operator without `operator.admin` runs with
//! `senderIsOwner: false` (clawdeck's gateway client asks for read, write and approvals only).
//! So the operator's config goes into an isolated home with a gateway section of its own, that
//! gateway is started on a free loopback port under the process supervisor, clawdeck connects
//! and starts the turn, and the recording mock's request is the observation. The gateway's
//! process group is killed when the observation is made (or its deadline passes).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::VerifyError;
use super::mock::RecordingMock;
use super::observed::{ObservedView, main_request};
use crate::context::PolicyContext;
use crate::gateway::{
    Backoff, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient, GatewayEndpoint,
};
use crate::process::{KillReason, ProcessSpec, RunningProcess};

/// How long the private gateway may take to accept a connection.
const STARTUP: Duration = Duration::from_secs(120);

/// The isolated config with a gateway section: loopback, `port`, token auth.
pub fn with_private_gateway(isolated: &Value, port: u16, token: &str) -> Value {
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

fn free_port() -> Result<u16, VerifyError> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| VerifyError::Gateway {
            method: "start".to_string(),
            message: format!("no free loopback port: {e}"),
        })
}

fn gateway_error(method: &str, message: impl std::fmt::Display) -> VerifyError {
    VerifyError::Gateway {
        method: method.to_string(),
        message: message.to_string(),
    }
}

/// Connects to the private gateway, retrying while it starts (until `deadline`).
async fn connect(
    port: u16,
    token: &str,
    home: &Path,
    gateway: &RunningProcess,
    as_owner: bool,
    deadline: Instant,
) -> Result<GatewayClient, VerifyError> {
    let identity = DeviceIdentity::load_or_create(&home.join("clawdeck-device"))
        .map_err(|e| gateway_error("connect", e))?;
    let endpoint = GatewayEndpoint {
        name: "verify".to_string(),
        url: format!("ws://127.0.0.1:{port}"),
        auth: GatewayAuth::Token(token.to_string()),
        origin: "clawdeck verify (private gateway)".to_string(),
    };
    let mut options = ConnectOptions::default();
    if as_owner {
        options.scopes.push("operator.admin".to_string());
    }
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
                        super::runner::strip_ansi(&gateway.output_snapshot().combined_text());
                    return Err(gateway_error(
                        "connect",
                        format!(
                            "{err}; the gateway's output ends with:\n{}",
                            super::runner::tail_lines(&output, 12)
                        ),
                    ));
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

/// One turn: who starts it and how long it may take.
pub struct Turn<'a> {
    pub agent: &'a str,
    pub ctx: &'a PolicyContext,
    /// Connect with `operator.admin` (the turn runs as the owner) or without (a non-owner).
    pub as_owner: bool,
    pub timeout: Duration,
    pub message: &'a str,
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
    let config_path = home.join(".openclaw").join("openclaw.json");
    std::fs::write(
        &config_path,
        serde_json::to_string_pretty(&config).unwrap_or_default(),
    )
    .map_err(|err| VerifyError::Home {
        path: config_path.display().to_string(),
        message: err.to_string(),
    })?;
    let spec: ProcessSpec = super::runner::cli_spec(program, home, STARTUP + turn.timeout).args([
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

async fn run_turn(
    gateway: &RunningProcess,
    port: u16,
    token: &str,
    home: &Path,
    turn: &Turn<'_>,
    mock: &RecordingMock,
) -> Result<ObservedView, VerifyError> {
    let client = connect(
        port,
        token,
        home,
        gateway,
        turn.as_owner,
        Instant::now() + STARTUP,
    )
    .await?;
    let mut params = json!({
        "message": turn.message,
        "agentId": turn.agent,
        "idempotencyKey": format!("clawdeck-verify-{}", std::process::id()),
    });
    match turn
        .ctx
        .session_key
        .as_deref()
        .filter(|k| !k.trim().is_empty())
    {
        Some(key) => params["sessionKey"] = json!(key),
        None => params["sessionId"] = json!("clawdeck-verify"),
    }
    let accepted = client.request("agent", params).await;
    if let Err(err) = accepted {
        client.close();
        return Err(gateway_error("agent", err));
    }
    let deadline = Instant::now() + turn.timeout;
    let observed = loop {
        let bodies: Vec<Value> = mock.completions().into_iter().map(|r| r.body).collect();
        if let Some(body) = main_request(&bodies) {
            break Ok(ObservedView::from_request(body));
        }
        if Instant::now() >= deadline {
            break Err(VerifyError::Timeout {
                command: format!(
                    "the private gateway's agent method (agent {}, port {port})",
                    turn.agent
                ),
                seconds: turn.timeout.as_secs(),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    client.close();
    observed
}
