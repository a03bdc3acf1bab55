//! A session's earlier transcript from `chat.history` (OpenClaw docs:
//! gateway/protocol/rpc-session-control.md): the tail page of its messages, each read as the
//! live `session.message` events are (the same reducer), so a session selected after its run
//! shows what was said. Tool results, which the live stream carries as `session.tool` events,
//! come as `toolResult` messages here and are read into tool-call entries. Needs
//! `operator.read`. Parsing only; the request is `fetch_history`.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::client::GatewayClient;
use super::error::GatewayError;
use super::transcript::{SessionTranscript, ToolEntry, ToolOutcome, TranscriptEntry, called_tools};
use super::watch::{WatchKind, classify, result_text};

/// The method.
pub const HISTORY: &str = "chat.history";
/// Messages asked for (the newest ones): a transcript keeps `KEPT_ENTRIES` anyway.
pub const HISTORY_LIMIT: u64 = 200;

/// One earlier message, read: its transcript id and one-based position when the gateway gave
/// them (what live events are matched against), and its entry.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryMessage {
    pub id: Option<String>,
    pub seq: Option<u64>,
    pub entry: TranscriptEntry,
}

/// A `chat.history` answer, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub session_key: String,
    pub messages: Vec<HistoryMessage>,
    /// Messages the session has in all (`totalMessages`).
    pub total: Option<u64>,
    /// Earlier messages exist beyond this page (`hasMore`).
    pub has_more: bool,
    /// Older messages the gateway sent past the `HISTORY_LIMIT` asked for: dropped unread.
    pub dropped: u64,
}

impl SessionTranscript {
    /// Merges a session's earlier messages (`chat.history`) with what the live events brought
    /// (see [`SessionTranscript::merge_earlier`]). Returns how many entries were added.
    pub fn backfill(&mut self, history: &History) -> usize {
        let messages = history
            .messages
            .iter()
            .map(|m| (m.id.as_deref(), m.seq, &m.entry));
        self.merge_earlier(messages, history.not_loaded())
    }
}

impl History {
    /// Earlier messages the page did not bring (0 when the gateway does not say).
    pub fn not_loaded(&self) -> u64 {
        let raw = self.messages.len() as u64;
        let beyond = match self.total {
            Some(total) if self.has_more => total.saturating_sub(raw),
            _ => 0,
        };
        beyond.max(self.dropped)
    }
}

/// The params of a tail page of `key`'s history.
pub fn history_params(key: &str, limit: u64) -> Value {
    json!({"sessionKey": key, "limit": limit.clamp(1, 1000)})
}

/// Asks `client` for the newest `HISTORY_LIMIT` messages of `key`.
pub async fn fetch_history(client: &GatewayClient, key: &str) -> Result<Value, GatewayError> {
    client
        .request(HISTORY, history_params(key, HISTORY_LIMIT))
        .await
}

/// Reads a `chat.history` payload; `key` is the session asked for (the payload's own
/// `sessionKey` wins when present).
pub fn parse_history(key: &str, payload: &Value) -> History {
    let session_key = payload
        .get("sessionKey")
        .and_then(Value::as_str)
        .unwrap_or(key)
        .to_string();
    let raw = payload
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    // The newest HISTORY_LIMIT, whatever a gateway sends: the rest is counted, not read.
    let dropped = raw.len().saturating_sub(HISTORY_LIMIT as usize);
    let raw = &raw[dropped..];
    let mut messages: Vec<HistoryMessage> = Vec::with_capacity(raw.len());
    // Each call's arguments and time, from the assistant message that made it.
    let mut calls: HashMap<String, (Value, Option<u64>)> = HashMap::new();
    for message in raw {
        remember_calls(message, &mut calls);
        if let Some(read) = read_message(&session_key, message, &calls) {
            messages.push(read);
        }
    }
    History {
        session_key,
        total: payload.get("totalMessages").and_then(Value::as_u64),
        has_more: payload
            .get("hasMore")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        messages,
        dropped: dropped as u64,
    }
}

/// One message as an entry: a tool result as a finished tool call (its arguments from the
/// assistant message that called it), anything else through the live reducer's reading.
fn read_message(key: &str, message: &Value, calls: &Calls) -> Option<HistoryMessage> {
    let meta = message.get("__openclaw");
    let id = meta
        .and_then(|m| m.get("id"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let seq = meta.and_then(|m| m.get("seq")).and_then(Value::as_u64);
    let ts = message.get("timestamp").and_then(Value::as_u64);
    let entry = if message.get("role").and_then(Value::as_str) == Some("toolResult") {
        TranscriptEntry::Tool(tool_result(message, calls, ts))
    } else {
        let item = classify(
            "",
            "session.message",
            &json!({"sessionKey": key, "message": message}),
        );
        let WatchKind::Message { role, text } = item.kind else {
            return None;
        };
        let text = if text.is_empty() {
            format!("(calls {})", called_tools(message)?)
        } else {
            text
        };
        TranscriptEntry::Message { role, text, ts }
    };
    Some(HistoryMessage { id, seq, entry })
}

fn tool_result(message: &Value, calls: &Calls, ts: Option<u64>) -> ToolEntry {
    let text = |k: &str| {
        message
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let call_id = text("toolCallId");
    let mut entry = ToolEntry {
        name: text("toolName"),
        args: Value::Null,
        output: String::new(),
        output_cut: 0,
        outcome: if message.get("isError").and_then(Value::as_bool) == Some(true) {
            ToolOutcome::Error
        } else {
            ToolOutcome::Ok
        },
        run_id: message
            .pointer("/__openclaw/runId")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        started_ms: None,
        duration_ms: None,
        call_id,
    };
    if let Some(output) = result_text(message) {
        super::transcript::set_output(&mut entry, &output);
    }
    if let Some((args, called_at)) = calls.get(&entry.call_id) {
        entry.args = args.clone();
        entry.started_ms = *called_at;
        entry.duration_ms = called_at.zip(ts).map(|(a, b)| b.saturating_sub(a));
    }
    entry
}

/// Call id → (arguments, time of the message that made the call).
type Calls = HashMap<String, (Value, Option<u64>)>;

/// Records the `toolCall` blocks of an assistant message.
fn remember_calls(message: &Value, calls: &mut Calls) {
    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
        return;
    };
    let ts = message.get("timestamp").and_then(Value::as_u64);
    for block in blocks {
        if block.get("type").and_then(Value::as_str) != Some("toolCall") {
            continue;
        }
        if let Some(id) = block.get("id").and_then(Value::as_str) {
            let args = block.get("arguments").cloned().unwrap_or(Value::Null);
            calls.insert(id.to_string(), (args, ts));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A real gateway's answer (2026.9.6): two turns, the second calling exec.
    fn recorded() -> Value {
        serde_json::from_str(include_str!(
            "../../../tests/fixtures/gateway/chat-history.json"
        ))
        .unwrap()
    }

    const KEY: &str = "agent:ops:explicit:hist1";

    #[test]
    fn the_recorded_history_reads_as_turns_and_a_finished_exec_call() {
        let history = parse_history("asked", &recorded());
        assert_eq!(history.session_key, KEY);
        assert_eq!(history.total, Some(6));
        assert!(!history.has_more);
        assert_eq!(history.not_loaded(), 0);
        let texts: Vec<String> = history
            .messages
            .iter()
            .map(|m| match &m.entry {
                TranscriptEntry::Message { role, text, .. } => format!("{role}: {text}"),
                TranscriptEntry::Tool(t) => format!("tool {} {} -> {}", t.name, t.args, t.output),
                TranscriptEntry::Gap { reason } => reason.clone(),
            })
            .collect();
        assert_eq!(texts[0], "user: hello earlier turn");
        assert!(
            texts[1].starts_with("assistant: Summary: 2 errors"),
            "{texts:?}"
        );
        assert_eq!(texts[3], "assistant: (calls exec)");
        assert_eq!(texts[4], r#"tool exec {"command":"echo hi"} -> hi"#);
        assert_eq!(texts[5], "assistant: tool exec returned: hi");
        let TranscriptEntry::Tool(call) = &history.messages[4].entry else {
            panic!()
        };
        assert_eq!(call.outcome, ToolOutcome::Ok);
        assert!(call.duration_ms.is_some(), "{call:?}");
        let seqs: Vec<Option<u64>> = history.messages.iter().map(|m| m.seq).collect();
        assert_eq!(seqs, (1..=6).map(Some).collect::<Vec<_>>());
    }

    /// The live event of message `n` of the recording, as `session.message` brings it.
    fn live(n: usize) -> crate::watch::WatchItem {
        let message = recorded()["messages"][n].clone();
        let id = message["__openclaw"]["id"].clone();
        let seq = message["__openclaw"]["seq"].clone();
        classify(
            "local",
            "session.message",
            &json!({"sessionKey": KEY, "message": message, "messageId": id, "messageSeq": seq}),
        )
    }

    fn roles_and_texts(t: &SessionTranscript) -> Vec<String> {
        t.entries()
            .map(|e| match e {
                TranscriptEntry::Message { text, .. } => text.clone(),
                TranscriptEntry::Tool(t) => format!("tool {}", t.name),
                TranscriptEntry::Gap { .. } => "gap".into(),
            })
            .collect()
    }

    #[test]
    fn backfill_goes_before_live_messages_and_never_twice() {
        let mut t = SessionTranscript::new();
        // The last two messages came live before the history answered.
        assert!(t.apply(&live(5)));
        let added = t.backfill(&parse_history(KEY, &recorded()));
        assert_eq!(added, 5, "{:?}", roles_and_texts(&t));
        let texts = roles_and_texts(&t);
        assert_eq!(texts.len(), 6, "{texts:?}");
        assert_eq!(texts[0], "hello earlier turn");
        assert_eq!(texts[4], "tool exec");
        assert_eq!(texts[5], "tool exec returned: hi");
        // The same message arriving live after the backfill is not shown again, nor is a
        // second backfill (a reconnect) added again.
        assert!(!t.apply(&live(2)));
        assert_eq!(t.backfill(&parse_history(KEY, &recorded())), 0);
        assert_eq!(t.len(), 6);
    }

    #[test]
    fn a_partial_page_says_how_many_earlier_messages_it_left() {
        let mut payload = recorded();
        payload["hasMore"] = json!(true);
        payload["totalMessages"] = json!(250);
        let mut t = SessionTranscript::with_cap(4);
        t.backfill(&parse_history(KEY, &payload));
        assert_eq!(t.not_loaded(), 244);
        // Past the cap the oldest backfilled entries go, counted.
        assert_eq!(t.len(), 4);
        assert_eq!(t.dropped(), 2);
    }
}
