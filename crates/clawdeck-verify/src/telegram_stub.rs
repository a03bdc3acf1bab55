//! A stand-in for Telegram's Bot API on loopback, so that real OpenClaw's own Telegram channel
//! (pointed here by `channels.telegram.apiRoot`) receives one direct message from a chosen
//! sender. That is how a verification run gets a sender: OpenClaw takes `SenderId` from the
//! message's `from.id`, `SenderUsername` from `from.username` and `SenderName` from the first
//! and last name, which is what `toolsBySender`'s `id:`, `username:` and `name:` keys match.
//! No CLI flag or gateway method carries a sender.
//!
//! Every Bot API method is answered `ok`; `getUpdates` hands the message out until OpenClaw
//! acknowledges it with a later offset. The methods called are recorded (for errors).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::CONTENT_TYPE;
use hyper::{Request, Response, StatusCode};
use serde_json::{Map, Value, json};

use super::loopback_http::{LoopbackServer, json_response, lock};

/// The bot token the stand-in expects (any token works; this one is written into the config).
pub(crate) const BOT_TOKEN: &str = "7000001:clawdeck-verify";

/// Who writes the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelegramSender {
    /// Telegram user ids are numbers.
    pub id: i64,
    pub username: Option<String>,
    pub first_name: String,
    pub last_name: Option<String>,
}

impl TelegramSender {
    /// The `from` object of a message.
    fn user(&self) -> Value {
        let mut user = Map::new();
        user.insert("id".into(), json!(self.id));
        user.insert("is_bot".into(), json!(false));
        user.insert("first_name".into(), json!(self.first_name));
        if let Some(last) = &self.last_name {
            user.insert("last_name".into(), json!(last));
        }
        if let Some(username) = &self.username {
            user.insert("username".into(), json!(username));
        }
        Value::Object(user)
    }

    /// The private chat with this sender.
    fn chat(&self) -> Value {
        let mut chat = self.user();
        if let Some(map) = chat.as_object_mut() {
            map.remove("is_bot");
            map.insert("type".into(), json!("private"));
        }
        chat
    }
}

struct State {
    sender: TelegramSender,
    text: String,
    /// Whether OpenClaw acknowledged the message (asked for updates past it).
    acknowledged: bool,
    next_message_id: i64,
    calls: Vec<String>,
    /// The bot token the message waits for; any bot's when unset.
    recipient: Option<String>,
}

/// The running stand-in; stops when dropped or on [`TelegramStub::stop`].
pub(crate) struct TelegramStub {
    server: LoopbackServer,
    state: Arc<Mutex<State>>,
}

impl TelegramStub {
    /// Binds 127.0.0.1 on a free port; the message `text` from `sender` waits in `getUpdates`,
    /// for the bot whose token is `recipient` when given: several accounts poll one stand-in,
    /// each its own bot.
    pub async fn start(
        sender: TelegramSender,
        text: &str,
        recipient: Option<String>,
    ) -> std::io::Result<Self> {
        let state = Arc::new(Mutex::new(State {
            sender,
            text: text.to_string(),
            acknowledged: false,
            next_message_id: 100,
            calls: Vec::new(),
            recipient,
        }));
        let shared = state.clone();
        let server = LoopbackServer::start(move |req| handle(req, shared.clone())).await?;
        Ok(Self { server, state })
    }

    /// What `channels.telegram.apiRoot` must say.
    pub(crate) fn api_root(&self) -> String {
        format!("http://{}", self.server.addr())
    }

    /// The Bot API methods called so far, oldest first.
    pub(crate) fn calls(&self) -> Vec<String> {
        lock(&self.state).calls.clone()
    }

    /// Whether OpenClaw acknowledged the message (a `getUpdates` past it).
    pub(crate) fn acknowledged(&self) -> bool {
        lock(&self.state).acknowledged
    }

    pub(crate) async fn stop(self) {
        self.server.stop().await;
    }
}

/// The request's parameters: query string, then a JSON or form body on top.
async fn parameters(req: Request<Incoming>) -> Map<String, Value> {
    let mut params = Map::new();
    if let Some(query) = req.uri().query() {
        for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
            params.insert(key.into_owned(), json!(value.into_owned()));
        }
    }
    let json_body = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    let bytes = match req.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => Bytes::new(),
    };
    if json_body {
        if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&bytes) {
            params.extend(map);
        }
    } else {
        for (key, value) in url::form_urlencoded::parse(&bytes) {
            params.insert(key.into_owned(), json!(value.into_owned()));
        }
    }
    params
}

fn number(params: &Map<String, Value>, key: &str) -> i64 {
    match params.get(key) {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0),
        _ => 0,
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// `/bot<token>/<method>` → the method.
fn method_of(path: &str) -> String {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `/bot<token>/<method>` → the token.
fn token_of(path: &str) -> &str {
    path.split('/')
        .find_map(|part| part.strip_prefix("bot"))
        .unwrap_or_default()
}

/// The bot's user id: the number its token starts with.
fn bot_id(token: &str) -> i64 {
    token
        .split(':')
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or(7_000_001)
}

async fn handle(req: Request<Incoming>, state: Arc<Mutex<State>>) -> Response<Full<Bytes>> {
    let method = method_of(req.uri().path());
    let token = token_of(req.uri().path()).to_string();
    let params = parameters(req).await;
    let result = if method == "getUpdates" {
        let pending = {
            let mut s = lock(&state);
            s.calls.push(method.clone());
            let recipient = s.recipient.as_ref().is_none_or(|r| *r == token);
            // Offset 2 or more acknowledges update 1.
            if recipient && number(&params, "offset") >= 2 {
                s.acknowledged = true;
            }
            (recipient && !s.acknowledged).then(|| {
                json!([{
                    "update_id": 1,
                    "message": {
                        "message_id": 1, "date": now(), "chat": s.sender.chat(),
                        "from": s.sender.user(), "text": s.text,
                    },
                }])
            })
        };
        match pending {
            Some(updates) => updates,
            None => {
                // Long polling: hold the call a little, as Telegram does.
                let wait = number(&params, "timeout").clamp(0, 1) as u64;
                tokio::time::sleep(Duration::from_secs(wait)).await;
                json!([])
            }
        }
    } else {
        let mut s = lock(&state);
        s.calls.push(method.clone());
        answer(&method, &params, &mut s, bot_id(&token))
    };
    json_response(StatusCode::OK, &json!({"ok": true, "result": result}))
}

/// Every other method: what Telegram would answer, as far as OpenClaw reads it.
fn answer(method: &str, params: &Map<String, Value>, s: &mut State, bot_id: i64) -> Value {
    let bot = json!({"id": bot_id, "is_bot": true, "first_name": "clawdeck verify",
                     "username": "clawdeck_verify_bot"});
    match method {
        "getMe" => {
            let mut me = bot;
            me["can_join_groups"] = json!(true);
            me["can_read_all_group_messages"] = json!(false);
            me["supports_inline_queries"] = json!(false);
            me
        }
        "sendMessage" | "editMessageText" | "sendPhoto" | "sendDocument" => {
            s.next_message_id += 1;
            json!({
                "message_id": s.next_message_id, "date": now(), "chat": s.sender.chat(),
                "from": bot, "text": params.get("text").cloned().unwrap_or(json!("")),
            })
        }
        "getChat" => s.sender.chat(),
        "getMyCommands" | "getChatAdministrators" => json!([]),
        "getWebhookInfo" => json!({"url": "", "has_custom_certificate": false,
                                   "pending_update_count": 0}),
        _ => json!(true),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[tokio::test]
    async fn the_message_is_handed_out_until_acknowledged() {
        let sender = TelegramSender {
            id: 42,
            username: Some("alice".into()),
            first_name: "Alice".into(),
            last_name: Some("Example".into()),
        };
        let stub = TelegramStub::start(sender, "hello", None).await.unwrap();
        let call = |method: &str, body: Value| {
            let url = format!("{}/bot{BOT_TOKEN}/{method}", stub.api_root());
            async move {
                let answer = crate::loopback_http::post_json(&url, &body).await;
                assert_eq!(answer["ok"], true);
                answer["result"].clone()
            }
        };
        assert_eq!(call("getMe", json!({})).await["is_bot"], true);
        let first = call("getUpdates", json!({"timeout": 0})).await;
        let message = &first[0]["message"];
        assert_eq!(message["from"]["id"], 42);
        assert_eq!(message["from"]["username"], "alice");
        assert_eq!(message["from"]["last_name"], "Example");
        assert_eq!(message["chat"]["type"], "private");
        assert_eq!(message["text"], "hello");
        assert!(!stub.acknowledged());
        let again = call("getUpdates", json!({"offset": 2, "timeout": 0})).await;
        assert_eq!(again, json!([]));
        assert!(stub.acknowledged());
        let sent = call("sendMessage", json!({"chat_id": 42, "text": "hi"})).await;
        assert_eq!(sent["text"], "hi");
        assert_eq!(
            stub.calls(),
            ["getMe", "getUpdates", "getUpdates", "sendMessage"]
        );
        stub.stop().await;
    }

    #[tokio::test]
    async fn a_message_for_one_bot_waits_only_for_that_bot() {
        let sender = TelegramSender {
            id: 42,
            username: None,
            first_name: "Alice".into(),
            last_name: None,
        };
        let stub = TelegramStub::start(sender, "hello", Some("7000102:x".into()))
            .await
            .unwrap();
        let updates = |token: &'static str, offset: i64| {
            let url = format!("{}/bot{token}/getUpdates", stub.api_root());
            async move {
                let body = json!({"offset": offset, "timeout": 0});
                crate::loopback_http::post_json(&url, &body).await["result"].clone()
            }
        };
        assert_eq!(updates("7000101:x", 0).await, json!([]));
        // Another bot's later offset acknowledges nothing.
        assert_eq!(updates("7000101:x", 2).await, json!([]));
        assert_eq!(updates("7000102:x", 0).await[0]["message"]["text"], "hello");
        assert!(!stub.acknowledged());
        assert_eq!(updates("7000102:x", 2).await, json!([]));
        assert!(stub.acknowledged());
        stub.stop().await;
    }
}
