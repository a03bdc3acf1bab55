//! A gateway's health at a glance, from the methods OpenClaw documents for it (gateway/protocol/
//! rpc-system-and-channels.md, all `operator.read`): `health` (the health snapshot: event loop,
//! model runtime, plugins), `status` (version, tasks, sessions, memory), `system-presence` (the
//! connected clients), the hello's `snapshot.uptimeMs`, and `sessions.usage` (tokens and cost
//! per session). Reading only; `fetch_health` / `fetch_usage` ask.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use super::client::GatewayClient;
use super::error::GatewayError;
use super::frames::Hello;

/// `sessions.usage` reads every transcript: it may take seconds on a large gateway.
pub const USAGE_TIMEOUT: Duration = Duration::from_secs(30);

/// One gateway's health, read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayHealth {
    pub version: String,
    /// At the moment of `checked_at` (the hello's uptime plus the time since).
    pub uptime_ms: Option<u64>,
    /// Connected clients (presence entries other than the gateway itself), as `host (mode)`.
    pub clients: Vec<String>,
    /// `health.ok`.
    pub ok: Option<bool>,
    /// Why it is degraded (event loop, model runtime, plugins), empty when it is not.
    pub degraded: Vec<String>,
    pub sessions: Option<u64>,
    pub active_tasks: Option<u64>,
    pub rss_bytes: Option<u64>,
    /// How long `health` took to answer.
    pub probe_ms: Option<u64>,
}

/// Reads the answers; each may be `Null` when its method failed (what it would give is left
/// out).
pub fn read_health(
    hello: &Hello,
    since_hello: Duration,
    health: &Value,
    status: &Value,
    presence: &Value,
) -> GatewayHealth {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(crate::sanitize::plain);
    let version = text(status.get("runtimeVersion"))
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| crate::sanitize::plain(&hello.server_version));
    let clients = presence
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p.get("reason").and_then(Value::as_str) != Some("self"))
        .map(|p| {
            let host = text(p.get("host")).unwrap_or_else(|| "?".into());
            match text(p.get("mode")) {
                Some(mode) => format!("{host} ({mode})"),
                None => host,
            }
        })
        .collect();
    GatewayHealth {
        version,
        uptime_ms: hello
            .uptime_ms
            .map(|u| u.saturating_add(since_hello.as_millis() as u64)),
        clients,
        ok: health.get("ok").and_then(Value::as_bool),
        degraded: degraded_reasons(health, status),
        sessions: status
            .pointer("/sessions/count")
            .or_else(|| health.pointer("/sessions/count"))
            .and_then(Value::as_u64),
        active_tasks: status.pointer("/tasks/active").and_then(Value::as_u64),
        rss_bytes: status
            .pointer("/processMemory/rssBytes")
            .and_then(Value::as_u64),
        probe_ms: health.get("durationMs").and_then(Value::as_u64),
    }
}

fn degraded_reasons(health: &Value, status: &Value) -> Vec<String> {
    let mut reasons = Vec::new();
    for source in [health, status] {
        if source.pointer("/eventLoop/degraded") == Some(&Value::Bool(true)) {
            let why: Vec<String> = source
                .pointer("/eventLoop/reasons")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|r| crate::sanitize::plain(r.as_str().unwrap_or("?")))
                .collect();
            reasons.push(format!("event loop: {}", why.join(", ")));
        }
        if source.pointer("/modelRuntime/degraded") == Some(&Value::Bool(true)) {
            reasons.push("model runtime".to_string());
        }
    }
    for plugin in status
        .get("degradedPlugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = plugin
            .as_str()
            .or_else(|| plugin.get("id").and_then(Value::as_str))
            .unwrap_or("?");
        reasons.push(format!("plugin {}", crate::sanitize::plain(name)));
    }
    reasons.dedup();
    reasons
}

/// Asks `health` (required), `status` and `system-presence` (left out when refused).
pub async fn fetch_health(
    client: &GatewayClient,
    connected_at: Instant,
) -> Result<GatewayHealth, GatewayError> {
    let health = client.request("health", json!({})).await?;
    let status = client
        .request("status", json!({}))
        .await
        .unwrap_or(Value::Null);
    let presence = client
        .request("system-presence", json!({}))
        .await
        .unwrap_or(Value::Null);
    Ok(read_health(
        client.hello(),
        connected_at.elapsed(),
        &health,
        &status,
        &presence,
    ))
}

/// One session's usage (`sessions.usage`); the figures are absent while the gateway is still
/// counting (`usage: null`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionUsage {
    pub key: String,
    pub agent: String,
    pub model: String,
    pub input: Option<u64>,
    pub output: Option<u64>,
    pub total_tokens: Option<u64>,
    pub cost: Option<f64>,
    pub messages: Option<u64>,
}

/// Reads a `sessions.usage` answer.
pub fn read_usage(payload: &Value) -> Vec<SessionUsage> {
    let text = |row: &Value, k: &str| {
        crate::sanitize::plain(row.get(k).and_then(Value::as_str).unwrap_or(""))
    };
    payload
        .get("sessions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|row| {
            let usage = row.get("usage").filter(|u| u.is_object());
            let number = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
            SessionUsage {
                key: text(row, "key"),
                agent: text(row, "agentId"),
                model: text(row, "model"),
                input: number("input"),
                output: number("output"),
                total_tokens: number("totalTokens"),
                cost: usage
                    .and_then(|u| u.get("totalCost"))
                    .and_then(Value::as_f64),
                messages: usage
                    .and_then(|u| u.pointer("/messageCounts/total"))
                    .and_then(Value::as_u64),
            }
        })
        .collect()
}

/// Asks `sessions.usage` for every configured agent's sessions.
pub async fn fetch_usage(client: &GatewayClient) -> Result<Vec<SessionUsage>, GatewayError> {
    let payload = client
        .request_with_timeout(
            "sessions.usage",
            json!({"agentScope": "all"}),
            USAGE_TIMEOUT,
        )
        .await?;
    Ok(read_usage(&payload))
}

/// `3d 4h`, `2h 5m`, `4m 10s`, `12s`.
pub fn uptime_text(ms: u64) -> String {
    let s = ms / 1000;
    let (d, h, m) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) => format!("{m}m {}s", s % 60),
        (0, _, _) => format!("{h}h {m}m"),
        _ => format!("{d}d {h}h"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn hello() -> Hello {
        Hello::from_payload(&json!({"type": "hello-ok", "protocol": 4,
            "server": {"version": "2026.9.6", "connId": "c"}, "snapshot": {"uptimeMs": 60_000}}))
        .unwrap()
    }

    #[test]
    fn health_reads_version_uptime_clients_and_what_is_degraded() {
        let health = json!({"ok": true, "durationMs": 4,
            "eventLoop": {"degraded": true, "reasons": ["delay \u{1b}[31mp99"]}});
        let status = json!({"runtimeVersion": "2026.9.6", "sessions": {"count": 2},
            "tasks": {"active": 1}, "processMemory": {"rssBytes": 1024},
            "degradedPlugins": [{"id": "xai"}]});
        let presence = json!([
            {"host": "vm", "mode": "gateway", "reason": "self"},
            {"host": "laptop", "mode": "cli", "reason": "connect"},
        ]);
        let read = read_health(
            &hello(),
            Duration::from_secs(5),
            &health,
            &status,
            &presence,
        );
        assert_eq!(read.version, "2026.9.6");
        assert_eq!(read.uptime_ms, Some(65_000));
        assert_eq!(read.clients, ["laptop (cli)"]);
        assert_eq!(read.ok, Some(true));
        assert_eq!(read.degraded, ["event loop: delay p99", "plugin xai"]);
        assert_eq!((read.sessions, read.active_tasks), (Some(2), Some(1)));
        assert_eq!(uptime_text(65_000), "1m 5s");
        assert_eq!(uptime_text(90_061_000), "1d 1h");
    }

    #[test]
    fn usage_rows_say_nothing_while_the_gateway_still_counts() {
        let payload = json!({"sessions": [
            {"key": "agent:main:a", "agentId": "main", "model": "mock-1", "usage": null},
            {"key": "agent:ops:b", "agentId": "ops", "model": "mock-1", "usage": {
                "input": 10, "output": 20, "totalTokens": 30, "totalCost": 0.5,
                "messageCounts": {"total": 2}}},
        ]});
        let rows = read_usage(&payload);
        assert_eq!(rows[0].total_tokens, None);
        assert_eq!(rows[1].total_tokens, Some(30));
        assert_eq!(rows[1].cost, Some(0.5));
        assert_eq!(rows[1].messages, Some(2));
    }
}
