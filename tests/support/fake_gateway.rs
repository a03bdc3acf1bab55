//! A local fake OpenClaw gateway for the headless gateway commands (no OpenClaw needed): it
//! answers the handshake, answers each request from a table of canned payloads, and after a
//! `sessions.subscribe` sends the event frames it was given. Runs on its own thread and runtime,
//! so synchronous tests can drive the binary against it.

// A fake that cannot start is a failed test.
#![allow(clippy::expect_used)]

use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// The OpenClaw version the fake reports (a version a pack may be stored for).
pub const FAKE_VERSION: &str = "2026.9.6";

pub struct FakeGateway {
    /// `ws://127.0.0.1:PORT`.
    pub url: String,
    /// Every request received (`{"method", "params"}`), in order.
    pub requests: Arc<Mutex<Vec<Value>>>,
}

/// What the fake answers besides the handshake: a payload per method (`{}` for any other), and
/// the events it sends after `sessions.subscribe`.
#[derive(Clone, Default)]
pub struct Script {
    pub answers: Vec<(String, Value)>,
    pub events: Vec<Value>,
    /// Answers made from the request's params (paging, cursors), before `answers`.
    pub computed: Vec<(String, Answer)>,
    /// The reply a `chat.send` turn streams (a delta, then the final `chat` event, with the
    /// request's `idempotencyKey` as the run id); None: no events after `chat.send`.
    pub chat_reply: Option<String>,
    /// An `exec.approval.requested` (id, command) the turn raises after its delta.
    pub chat_approval: Option<(String, String)>,
    /// Deltas of 1 KiB the turn streams after its first one (a flood), before the final.
    pub chat_flood: usize,
    /// Methods answered only after this long (the connection's later requests wait too).
    pub slow: Vec<(String, std::time::Duration)>,
}

/// Makes a payload from a request's params.
pub type Answer = Arc<dyn Fn(&Value) -> Value + Send + Sync>;

impl Script {
    pub fn answer(mut self, method: &str, payload: Value) -> Script {
        self.answers.push((method.to_string(), payload));
        self
    }

    /// Answers `method` with what `answer` makes of the request's params.
    pub fn answer_with(
        mut self,
        method: &str,
        answer: impl Fn(&Value) -> Value + Send + Sync + 'static,
    ) -> Script {
        self.computed.push((method.to_string(), Arc::new(answer)));
        self
    }

    pub fn chat_reply(mut self, text: &str) -> Script {
        self.chat_reply = Some(text.to_string());
        self
    }

    /// `method` is answered `after` it came.
    #[allow(dead_code)]
    pub fn slow(mut self, method: &str, after: std::time::Duration) -> Script {
        self.slow.push((method.to_string(), after));
        self
    }

    /// The `chat.send` turn also asks for approval `id` of exec `command` (after the delta).
    #[allow(dead_code)]
    /// The `chat.send` turn streams `count` more deltas of 1 KiB before its final reply.
    pub fn chat_flood(mut self, count: usize) -> Script {
        self.chat_flood = count;
        self
    }

    pub fn chat_approval(mut self, id: &str, command: &str) -> Script {
        self.chat_approval = Some((id.to_string(), command.to_string()));
        self
    }

    pub fn event(mut self, event: &str, payload: Value) -> Script {
        self.events
            .push(json!({"type": "event", "event": event, "payload": payload}));
        self
    }

    /// Answers for every method the headless commands call, with one session, one tool, one
    /// pending approval and a small catalog.
    pub fn everything() -> Script {
        Script::default()
            .answer(
                "sessions.list",
                json!({"sessions": [
                    {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
                ]}),
            )
            .answer(
                "tools.effective",
                json!({"agentId": "main", "groups": [
                    {"id": "core", "tools": [{"id": "read", "source": "core"}]},
                ]}),
            )
            .answer("agents.list", json!({"defaultId": "main"}))
            .answer(
                "tools.catalog",
                json!({"agentId": "main",
                "profiles": [{"id": "coding", "label": "Coding"}],
                "groups": [{"id": "fs", "tools": [
                    {"id": "read", "description": "Read a file", "defaultProfiles": ["coding"]},
                ]}]}),
            )
            .answer(
                "exec.approval.list",
                json!({"approvals": [{"id": "ap1", "request": {
                    "command": "ls", "agentId": "main", "sessionKey": "agent:main:main"}}]}),
            )
            .answer("exec.approval.resolve", json!({"ok": true}))
            .answer("chat.send", json!({"status": "started"}))
            .answer(
                "sessions.abort",
                json!({"ok": true, "abortedRunId": null, "status": "no-active-run"}),
            )
            .answer(
                "sessions.send",
                json!({"runId": "fake-run", "status": "started"}),
            )
            .chat_reply("Summary: all good.")
            .answer(
                "chat.history",
                json!({"sessionKey": "agent:main:main", "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "hello"}],
                     "__openclaw": {"id": "m1", "seq": 1}},
                    {"role": "assistant", "content": [{"type": "text", "text": "hi there"}],
                     "__openclaw": {"id": "m2", "seq": 2}}], "hasMore": false}),
            )
            .answer("health", json!({"ok": true, "durationMs": 3}))
            .answer(
                "logs.tail",
                json!({"cursor": 2, "reset": false, "lines": [
                    "{\"time\":\"2026-11-25T05:00:00.000Z\",\"level\":\"info\",\"subsystem\":\"gateway\",\"message\":\"ready\"}",
                    "{\"time\":\"2026-11-25T05:00:01.000Z\",\"level\":\"info\",\"subsystem\":\"ws\",\"message\":\"client connected\"}"]}),
            )
            .answer("plugin.approval.list", json!([]))
            .answer("openclaw.approval.list", json!([]))
            .answer("approval.history", json!({"items": []}))
            .answer("exec.approval.grants.list", json!({"grants": []}))
            .answer("exec.approval.grants.revoke", json!({"outcome": "revoked"}))
            .event(
                "sessions.changed",
                json!({"sessionKey": "agent:main:main", "reason": "send"}),
            )
    }
}

impl FakeGateway {
    pub fn start(script: Script) -> FakeGateway {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("ws://{}", listener.local_addr().expect("address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                while let Ok((stream, _)) = listener.accept().await {
                    tokio::spawn(serve(stream, script.clone(), seen.clone()));
                }
            });
        });
        FakeGateway { url, requests }
    }

    /// The methods called so far.
    pub fn methods(&self) -> Vec<String> {
        self.requests
            .lock()
            .map(|r| {
                r.iter()
                    .filter_map(|v| v["method"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The next request on `ws`, recorded in `seen` as it is read: `None` when the connection
/// ended, `Some(None)` for a frame that is not a request.
async fn next_request(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    seen: &Mutex<Vec<Value>>,
) -> Option<Option<Value>> {
    let Ok(msg) = ws.next().await? else {
        return None;
    };
    let Message::Text(text) = msg else {
        return Some(None);
    };
    let Ok(req) = serde_json::from_str::<Value>(&text) else {
        return Some(None);
    };
    if let Ok(mut seen) = seen.lock() {
        seen.push(json!({"method": req["method"], "params": req["params"]}));
    }
    Some(Some(req))
}

async fn serve(stream: tokio::net::TcpStream, script: Script, seen: Arc<Mutex<Vec<Value>>>) {
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let challenge = json!({"type": "event", "event": "connect.challenge",
        "payload": {"nonce": "fake-nonce", "ts": 1u64}});
    if ws.send(Message::text(challenge.to_string())).await.is_err() {
        return;
    }
    // Requests read while a slow answer waits: recorded as they come, answered in turn.
    let mut queued = std::collections::VecDeque::new();
    loop {
        let req = match queued.pop_front() {
            Some(req) => req,
            None => match next_request(&mut ws, &seen).await {
                Some(Some(req)) => req,
                Some(None) => continue,
                None => return,
            },
        };
        let method = req["method"].as_str().unwrap_or("").to_string();
        if let Some((_, after)) = script.slow.iter().find(|(m, _)| *m == method) {
            let wait = tokio::time::sleep(*after);
            tokio::pin!(wait);
            loop {
                tokio::select! {
                    _ = &mut wait => break,
                    next = next_request(&mut ws, &seen) => match next {
                        Some(Some(later)) => queued.push_back(later),
                        Some(None) => {}
                        None => return,
                    },
                }
            }
        }
        let computed = script
            .computed
            .iter()
            .rev()
            .find(|(m, _)| *m == method)
            .map(|(_, answer)| answer(&req["params"]));
        // The last answer given for a method wins (a script built on `everything()` overrides it).
        let scripted = computed.or_else(|| {
            script
                .answers
                .iter()
                .rev()
                .find(|(m, _)| *m == method)
                .map(|(_, p)| p.clone())
        });
        let payload = if method == "connect" {
            // A scripted hello (a hostile gateway's version, role, scopes) replaces the default.
            scripted.unwrap_or_else(|| {
                json!({
                "type": "hello-ok", "protocol": 4,
                "server": {"version": FAKE_VERSION, "connId": "c1"},
                "features": {"methods": ["sessions.list", "tools.effective", "chat.send",
                    "sessions.abort", "sessions.send"], "events": []},
                "snapshot": {},
                "auth": {"role": "operator", "scopes": ["operator.read", "operator.approvals"]},
                "policy": {"tickIntervalMs": 15000}})
            })
        } else {
            scripted.unwrap_or_else(|| json!({"subscribed": true}))
        };
        let res = json!({"type": "res", "id": req["id"], "ok": true, "payload": payload});
        if ws.send(Message::text(res.to_string())).await.is_err() {
            return;
        }
        if method == "chat.send"
            && let Some(reply) = &script.chat_reply
        {
            let events = chat_turn(&req["params"], reply, script.chat_approval.as_ref());
            let (first, rest) = events.split_at(1);
            for event in first {
                if ws.send(Message::text(event.to_string())).await.is_err() {
                    return;
                }
            }
            // Made one at a time: a flood of 100 MB is never held here.
            let chunk = "x".repeat(1024);
            for _ in 0..script.chat_flood {
                let delta = json!({"type": "event", "event": "chat", "payload": {
                    "runId": req["params"]["idempotencyKey"], "sessionKey": req["params"]["sessionKey"],
                    "state": "delta", "deltaText": chunk}});
                if ws.send(Message::text(delta.to_string())).await.is_err() {
                    return;
                }
            }
            for event in rest {
                if ws.send(Message::text(event.to_string())).await.is_err() {
                    return;
                }
            }
        }
        if method == "sessions.subscribe" {
            for event in &script.events {
                if ws.send(Message::text(event.to_string())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The events of a `chat.send` turn as 2026.9.6 sends them: a delta, then the final reply.
fn chat_turn(params: &Value, reply: &str, approval: Option<&(String, String)>) -> Vec<Value> {
    let run = params["idempotencyKey"].clone();
    let key = params["sessionKey"].clone();
    let message = json!({"role": "assistant", "content": [{"type": "text", "text": reply}]});
    let chat = |payload: Value| json!({"type": "event", "event": "chat", "payload": payload});
    let mut events = vec![chat(
        json!({"runId": run, "sessionKey": key, "state": "delta", "deltaText": reply, "message": message}),
    )];
    if let Some((id, command)) = approval {
        events.push(
            json!({"type": "event", "event": "exec.approval.requested", "payload": {
            "id": id, "createdAtMs": 1, "expiresAtMs": 4_102_444_800_000u64,
            "request": {"command": command, "cwd": "/srv", "agentId": "ops", "sessionKey": key,
                        "runId": run, "host": "gateway", "security": "allowlist", "ask": "always",
                        "allowedDecisions": ["allow-once", "deny"]}}}),
        );
    }
    events.push(chat(
        json!({"runId": run, "sessionKey": key, "state": "final", "stopReason": "stop", "message": message}),
    ));
    events
}

/// The clawdeck binary pointed at `gateway` (token `fake-token`), with no OpenClaw config and
/// its state and HOME in `state`.
pub fn clawdeck_on(gateway: &FakeGateway, state: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    cmd.env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
        .env("OPENCLAW_CONFIG_PATH", state.join("none.json"))
        .env("XDG_STATE_HOME", state)
        .env("HOME", state);
    cmd
}
