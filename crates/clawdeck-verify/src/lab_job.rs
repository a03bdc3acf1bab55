//! The lab's scheduled job: the automation a scheduled turn is, added to the private gateway
//! as an operator adds one (`cron.add`) or, for a job an agent made, by an agent's own turn
//! calling its automations tool in the creator's session; then run at once (`cron.run`).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::VerifyError;
use super::mock::{CALL_MARKER, RecordingMock, describe_requests};
use crate::context::PolicyContext;
use crate::gateway_client::GatewayClient;

/// The turn a lab job is: its agent, its context (cap, delivery, maker) and its message.
#[derive(Clone, Copy)]
pub(crate) struct JobTurn<'a> {
    pub agent: &'a str,
    pub ctx: &'a PolicyContext,
    pub message: &'a str,
}

fn gateway_error(method: &str, message: impl std::fmt::Display) -> VerifyError {
    VerifyError::Gateway {
        method: method.to_string(),
        message: message.to_string(),
    }
}

/// The name of the lab's job, by which an agent's job is found again.
pub const JOB_NAME: &str = "clawdeck-verify";

/// The tool an agent adds automations with (OpenClaw 2026.8 and 2026.9 both call it so).
const AUTOMATIONS_TOOL: &str = "automations";

/// The chat a lab job announces to (no channel of the lab's delivers it).
const LAB_CHAT: &str = "12345";

/// The URL a lab job delivers to: a closed loopback port, so nothing leaves the machine.
const LAB_WEBHOOK: &str = "http://127.0.0.1:9/clawdeck-verify";

/// The automation a scheduled turn is: the agent's turn with the context's tool cap, due in a
/// day (it runs when asked), delivering as the context says, in the session the key names
/// (`session:<rest>` of `agent:<agent>:<rest>`), else its own (`isolated`).
pub(crate) fn scheduled_job(turn: JobTurn<'_>, key: Option<&str>) -> Value {
    let target = match key {
        Some(key) => {
            let rest = clawdeck_core::session_key::agent_rest(key);
            format!("session:{}", rest.as_deref().unwrap_or(key.trim()))
        }
        None => "isolated".to_string(),
    };
    json!({
        "name": JOB_NAME,
        "agentId": turn.agent,
        "enabled": true,
        "schedule": { "kind": "every", "everyMs": 86_400_000 },
        "sessionTarget": target,
        "wakeMode": "now",
        "payload": {
            "kind": "agentTurn",
            "message": turn.message,
            "toolsAllow": turn.ctx.scheduled_tools.clone().unwrap_or_default(),
        },
        "delivery": job_delivery(turn.ctx),
    })
}

/// Where the lab's job delivers, as the context says: to a chat on its channel (the context's
/// group, else a lab chat id; nothing is delivered before the turn is observed), to a lab URL,
/// or nowhere.
fn job_delivery(ctx: &PolicyContext) -> Value {
    use clawdeck_core::context::ScheduledDelivery;
    let resolved = ctx.clone().with_session_key();
    let mode = resolved.delivery().unwrap_or(ScheduledDelivery::None);
    let mut delivery = json!({ "mode": mode.as_str() });
    match (mode, resolved.message_provider()) {
        (ScheduledDelivery::Webhook, _) => {
            delivery["to"] = json!(LAB_WEBHOOK);
        }
        (_, Some(channel)) => {
            delivery["channel"] = json!(channel.to_lowercase());
            // The chat the context names (its group), as an operator's job would; a lab chat
            // when it names none.
            let chat = resolved
                .group
                .as_deref()
                .map(str::trim)
                .filter(|g| !g.is_empty());
            delivery["to"] = json!(clawdeck_core::prompt::job_message::chat_target(
                channel,
                chat.unwrap_or(LAB_CHAT)
            ));
            if let Some(account) = resolved.account.as_deref().filter(|a| !a.trim().is_empty()) {
                delivery["accountId"] = json!(account.trim());
            }
        }
        _ => {}
    }
    delivery
}

/// Adds the job as the context says it was made (by an operator, or by an agent in the job
/// owner's session) and runs it at once. Returns the text the job's turn carries: the job's
/// message, or for an agent's job its run's `[cron:<id>` mark (the creator's own request
/// carries the message too).
pub(crate) async fn add_and_run(
    client: &GatewayClient,
    turn: JobTurn<'_>,
    job: Value,
    mock: &RecordingMock,
    deadline: Instant,
) -> Result<String, VerifyError> {
    let (id, carried) = match turn.ctx.job_owner_key() {
        Some(owner) => {
            let id = if super::job_creator::creator_over_telegram(turn.ctx) {
                // The creator's Telegram message (see `job_creator`) adds it by itself.
                await_agents_job(client, turn, owner, mock, deadline).await?
            } else {
                agent_adds_job(client, turn, owner, job, mock, deadline).await?
            };
            let mark = format!("[cron:{id}");
            (id, mark)
        }
        None => (
            operator_adds_job(client, job).await?,
            turn.message.to_string(),
        ),
    };
    let ran = client
        .request("cron.run", json!({ "id": id, "mode": "force" }))
        .await
        .map_err(|err| gateway_error("cron.run", err))?;
    match ran.get("ok").and_then(Value::as_bool) {
        Some(true) => Ok(carried),
        _ => Err(gateway_error(
            "cron.run",
            format!("did not run job {id}: {ran}"),
        )),
    }
}

/// An operator's job (`cron.add`, as `openclaw cron add --tools` sends it); its id.
async fn operator_adds_job(client: &GatewayClient, job: Value) -> Result<String, VerifyError> {
    let added = client
        .request("cron.add", job)
        .await
        .map_err(|err| gateway_error("cron.add", err))?;
    added
        .get("id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| gateway_error("cron.add", format!("answered without a job id: {added}")))
}

/// A job an agent makes: its creator's turn (the `agent` method, as the owner, in the job
/// owner's session and account) calls the automations tool (the mock's scripted call) to
/// add it. Its id is read back from the gateway's list, and OpenClaw must have stored the
/// context's cap (it keeps only the tools the creator had).
async fn agent_adds_job(
    client: &GatewayClient,
    turn: JobTurn<'_>,
    owner: &str,
    job: Value,
    mock: &RecordingMock,
    deadline: Instant,
) -> Result<String, VerifyError> {
    let mut params = json!({
        "message": creator_message(job),
        "agentId": turn.agent,
        "sessionKey": owner,
        "idempotencyKey": format!("clawdeck-verify-creator-{}", std::process::id()),
    });
    if let Some(account) = turn.ctx.job_owner_account.as_deref().map(str::trim) {
        params["accountId"] = json!(account);
    }
    client
        .request("agent", params)
        .await
        .map_err(|err| gateway_error("agent", err))?;
    await_agents_job(client, turn, owner, mock, deadline).await
}

/// The creator's message: the mock's scripted call of the automations tool adding `job`, which
/// the creator's agent owns.
pub(crate) fn creator_message(mut job: Value) -> String {
    if let Some(fields) = job.as_object_mut() {
        fields.remove("agentId");
    }
    let call = json!({ "action": "add", "job": job });
    format!("{CALL_MARKER} {AUTOMATIONS_TOOL} {call}")
}

/// The id of the job the creator's turn in `owner` added, read back from the gateway's list
/// until `deadline`; OpenClaw must have stored the context's cap.
async fn await_agents_job(
    client: &GatewayClient,
    turn: JobTurn<'_>,
    owner: &str,
    mock: &RecordingMock,
    deadline: Instant,
) -> Result<String, VerifyError> {
    loop {
        let listed = client
            .request("cron.list", json!({ "includeDisabled": true }))
            .await
            .map_err(|err| gateway_error("cron.list", err))?;
        if let Some(stored) = owned_job(&listed, owner) {
            return stored_with_cap(stored, turn.ctx);
        }
        if Instant::now() >= deadline {
            let bodies: Vec<Value> = mock.completions().into_iter().map(|r| r.body).collect();
            return Err(gateway_error(
                "agent",
                format!(
                    "the agent's turn in {owner} added no job (its automations call); the model was asked {}",
                    describe_requests(&bodies)
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// The lab's job in `cron.list`'s answer whose owner is the session `owner`.
fn owned_job<'a>(listed: &'a Value, owner: &str) -> Option<&'a Value> {
    listed.get("jobs")?.as_array()?.iter().find(|job| {
        job.get("name").and_then(Value::as_str) == Some(JOB_NAME)
            && job.pointer("/owner/sessionKey").and_then(Value::as_str) == Some(owner)
    })
}

/// The stored job's id when OpenClaw kept the context's cap; else an error naming both (an
/// agent's job keeps only the tools its creator's turn had, and `--scheduled-tools` is the
/// cap as stored).
fn stored_with_cap(stored: &Value, ctx: &PolicyContext) -> Result<String, VerifyError> {
    let id = stored.get("id").and_then(Value::as_str).unwrap_or_default();
    let kept: BTreeSet<&str> = stored
        .pointer("/payload/toolsAllow")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let asked: BTreeSet<&str> = ctx
        .scheduled_tools
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    if kept == asked {
        return Ok(id.to_string());
    }
    let list = |set: &BTreeSet<&str>| set.iter().copied().collect::<Vec<_>>().join(",");
    Err(gateway_error(
        "cron.list",
        format!(
            "the job the agent made ({id}) was stored with the cap \"{}\", not \"{}\": OpenClaw keeps only the tools its creator's turn had; give that cap as --scheduled-tools",
            list(&kept),
            list(&asked)
        ),
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn scheduled(cap: &[&str]) -> PolicyContext {
        PolicyContext {
            scheduled_tools: Some(cap.iter().map(|t| t.to_string()).collect()),
            job_owner: Some("agent:main:telegram:group:-1".to_string()),
            ..PolicyContext::default()
        }
    }

    #[test]
    fn the_agents_job_is_found_by_its_name_and_owner() {
        let listed = json!({ "jobs": [
            { "id": "a", "name": JOB_NAME, "owner": { "sessionKey": "agent:main:main" } },
            { "id": "b", "name": "other", "owner": { "sessionKey": "agent:main:telegram:group:-1" } },
            { "id": "c", "name": JOB_NAME, "owner": { "sessionKey": "agent:main:telegram:group:-1" } },
        ]});
        let job = owned_job(&listed, "agent:main:telegram:group:-1").unwrap();
        assert_eq!(job["id"], "c");
        assert!(owned_job(&listed, "agent:main:discord:group:9").is_none());
    }

    #[test]
    fn a_cap_openclaw_narrowed_is_refused_naming_both() {
        let stored = json!({ "id": "j1", "payload": { "toolsAllow": ["read"] } });
        assert_eq!(
            stored_with_cap(&stored, &scheduled(&["read"])).unwrap(),
            "j1"
        );
        let err = stored_with_cap(&stored, &scheduled(&["web_fetch", "read"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("stored with the cap \"read\", not \"read,web_fetch\""),
            "{err}"
        );
    }
}
