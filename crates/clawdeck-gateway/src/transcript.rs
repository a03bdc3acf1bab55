//! One session's live transcript as the console shows it: its messages by role and its tool
//! calls (name, arguments, streamed output, outcome, duration), built from the `session.message`
//! and `session.tool` events of a followed session. Retention is bounded: past the cap the
//! oldest entries go and are counted, so the view can say how many it no longer holds.
//! Core state; no I/O.

use std::collections::{HashSet, VecDeque};

use serde_json::Value;

use super::watch::{WatchItem, WatchKind};

/// Entries kept per session.
pub const KEPT_ENTRIES: usize = 500;
/// Bytes of one call's output kept (the tail: the newest output matters most).
pub(crate) const KEPT_OUTPUT: usize = 16 * 1024;

/// How a tool call stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolOutcome {
    Running,
    Ok,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    pub name: String,
    pub call_id: String,
    pub run_id: String,
    pub args: Value,
    /// The newest output: the streamed partial result while running, then the result.
    pub output: String,
    /// Bytes cut from the front of `output` to keep it within `KEPT_OUTPUT`.
    pub output_cut: usize,
    pub outcome: ToolOutcome,
    /// Event timestamps (ms since the epoch).
    pub started_ms: Option<u64>,
    pub duration_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptEntry {
    Message {
        role: String,
        text: String,
        ts: Option<u64>,
    },
    Tool(ToolEntry),
    /// Events may be missing here: the session was not followed (another one was selected, or
    /// the connection dropped).
    Gap {
        reason: String,
    },
}

#[derive(Debug, Clone)]
pub struct SessionTranscript {
    entries: VecDeque<TranscriptEntry>,
    dropped: usize,
    cap: usize,
    /// Transcript ids of the messages held (live or backfilled), so a message the history and
    /// the live stream both bring shows once; bounded with the entries.
    seen: HashSet<String>,
    seen_order: VecDeque<String>,
    /// The lowest transcript position (`seq`) of the messages held: history older than it
    /// goes before them.
    min_seq: Option<u64>,
    /// Earlier messages the gateway has that the backfill did not bring.
    not_loaded: u64,
}

impl Default for SessionTranscript {
    fn default() -> Self {
        Self::new()
    }
}

impl SessionTranscript {
    pub fn new() -> Self {
        Self::with_cap(KEPT_ENTRIES)
    }

    pub(crate) fn with_cap(cap: usize) -> Self {
        SessionTranscript {
            entries: VecDeque::new(),
            dropped: 0,
            cap: cap.max(1),
            seen: HashSet::new(),
            seen_order: VecDeque::new(),
            min_seq: None,
            not_loaded: 0,
        }
    }

    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &TranscriptEntry> + ExactSizeIterator {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Earlier entries no longer kept.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Earlier messages the gateway holds that the history backfill did not bring.
    pub fn not_loaded(&self) -> u64 {
        self.not_loaded
    }

    /// Records a message's transcript id and position; false when it is held already.
    fn note_message(&mut self, id: Option<&str>, seq: Option<u64>) -> bool {
        if let Some(id) = id {
            if self.seen.contains(id) {
                return false;
            }
            self.seen.insert(id.to_string());
            self.seen_order.push_back(id.to_string());
            // Ids of entries long gone: a bounded memory of them is enough.
            while self.seen_order.len() > self.cap.saturating_mul(2) {
                if let Some(old) = self.seen_order.pop_front() {
                    self.seen.remove(&old);
                }
            }
        }
        if let Some(seq) = seq {
            self.min_seq = Some(self.min_seq.map_or(seq, |m| m.min(seq)));
        }
        true
    }

    /// Whether a tool call of this run is held already.
    fn holds_call(&self, call: &ToolEntry) -> bool {
        self.entries.iter().any(|e| {
            matches!(e, TranscriptEntry::Tool(t) if t.call_id == call.call_id && t.run_id == call.run_id)
        })
    }

    /// Merges a session's earlier messages (id, sequence number, entry) with what the live
    /// events brought: a message held already (same transcript id, or the same tool call of
    /// the same run) is skipped; older ones go before the held entries, newer ones after;
    /// `not_loaded` is what the page left out. Returns how many entries were added
    /// (`backfill` reads a `chat.history` page through it).
    pub(crate) fn merge_earlier<'a>(
        &mut self,
        messages: impl Iterator<Item = (Option<&'a str>, Option<u64>, &'a TranscriptEntry)>,
        not_loaded: u64,
    ) -> usize {
        let first_held = self.min_seq;
        let (mut older, mut newer) = (Vec::new(), Vec::new());
        for (id, seq, entry) in messages {
            if let TranscriptEntry::Tool(call) = entry
                && self.holds_call(call)
            {
                continue;
            }
            if !self.note_message(id, seq) {
                continue;
            }
            match (seq, first_held) {
                (Some(seq), Some(first)) if seq > first => newer.push(entry.clone()),
                (_, Some(_)) => older.push(entry.clone()),
                (_, None) => newer.push(entry.clone()),
            }
        }
        let added = older.len() + newer.len();
        for entry in older.into_iter().rev() {
            self.entries.push_front(entry);
        }
        while self.entries.len() > self.cap {
            self.entries.pop_front();
            self.dropped += 1;
        }
        for entry in newer {
            self.push(entry);
        }
        self.not_loaded = not_loaded;
        added
    }

    #[cfg(test)]
    /// The tool calls still running.
    pub(crate) fn running_calls(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, TranscriptEntry::Tool(t) if t.outcome == ToolOutcome::Running))
            .count()
    }

    fn push(&mut self, entry: TranscriptEntry) {
        self.entries.push_back(entry);
        while self.entries.len() > self.cap {
            self.entries.pop_front();
            self.dropped += 1;
        }
    }

    /// Where the first of the trailing tool entries whose call is one of `calls` is (the
    /// transcript's end is a run of tool entries and one of them is such a call).
    fn first_trailing_tool_of(&self, calls: &[String]) -> Option<usize> {
        if calls.is_empty() {
            return None;
        }
        let trailing = self
            .entries
            .iter()
            .rev()
            .take_while(|e| matches!(e, TranscriptEntry::Tool(_)))
            .count();
        let start = self.entries.len() - trailing;
        (start..self.entries.len()).find(
            |&i| matches!(&self.entries[i], TranscriptEntry::Tool(t) if calls.contains(&t.call_id)),
        )
    }

    /// Marks where events may be missing (not after another gap or at the very start).
    pub fn gap(&mut self, reason: &str) {
        if self.entries.is_empty()
            || matches!(self.entries.back(), Some(TranscriptEntry::Gap { .. }))
        {
            return;
        }
        self.push(TranscriptEntry::Gap {
            reason: reason.to_string(),
        });
    }

    /// Applies a watch item of this session; true when the transcript changed.
    pub fn apply(&mut self, item: &WatchItem) -> bool {
        match &item.kind {
            WatchKind::Message { role, text } => self.apply_message(item, role, text),
            WatchKind::Tool(call) => self.apply_tool(item, call),
            _ => false,
        }
    }

    /// A message of the session (an assistant turn that only calls tools reads `(calls X)`).
    fn apply_message(&mut self, item: &WatchItem, role: &str, text: &str) -> bool {
        let id = item
            .payload
            .get("messageId")
            .or_else(|| item.payload.pointer("/message/__openclaw/id"))
            .and_then(Value::as_str);
        let seq = item
            .payload
            .get("messageSeq")
            .or_else(|| item.payload.pointer("/message/__openclaw/seq"))
            .and_then(Value::as_u64);
        let text = if text.is_empty() {
            // An assistant turn that only calls tools: the calls follow as their own
            // entries; say so rather than show an empty line.
            match item.payload.get("message").and_then(called_tools) {
                Some(names) => format!("(calls {names})"),
                None => return false,
            }
        } else {
            text.to_string()
        };
        // Backfilled already (the history came before this event did).
        if !self.note_message(id, seq) {
            return false;
        }
        let ts = item
            .payload
            .pointer("/message/timestamp")
            .and_then(Value::as_u64);
        let message = TranscriptEntry::Message {
            role: role.to_string(),
            text,
            ts,
        };
        // A live run's tool events can come before the message that makes the call:
        // the call is put before its tool entries, as the transcript reads.
        let calls = item
            .payload
            .get("message")
            .map(called_ids)
            .unwrap_or_default();
        match self.first_trailing_tool_of(&calls) {
            Some(at) => {
                self.entries.insert(at, message);
                while self.entries.len() > self.cap {
                    self.entries.pop_front();
                    self.dropped += 1;
                }
            }
            None => self.push(message),
        }
        true
    }

    /// A step of a tool call: its entry made at the first, output and outcome filled in.
    fn apply_tool(&mut self, item: &WatchItem, call: &crate::watch::ToolCall) -> bool {
        let ts = item.payload.get("ts").and_then(Value::as_u64);
        let found = self.entries.iter_mut().rev().find_map(|e| match e {
            TranscriptEntry::Tool(t) if t.call_id == call.call_id && t.run_id == call.run_id => {
                Some(t)
            }
            _ => None,
        });
        let entry = match found {
            Some(entry) => entry,
            None => {
                self.push(TranscriptEntry::Tool(ToolEntry {
                    name: call.name.clone(),
                    call_id: call.call_id.clone(),
                    run_id: call.run_id.clone(),
                    args: call.args.clone(),
                    output: String::new(),
                    output_cut: 0,
                    outcome: ToolOutcome::Running,
                    started_ms: (call.phase == "start").then_some(ts).flatten(),
                    duration_ms: None,
                }));
                match self.entries.back_mut() {
                    Some(TranscriptEntry::Tool(t)) => t,
                    _ => return true,
                }
            }
        };
        if entry.args.is_null() && !call.args.is_null() {
            entry.args = call.args.clone();
        }
        if let Some(output) = &call.output {
            set_output(entry, output);
        }
        if call.phase == "result" {
            entry.outcome = if call.is_error {
                ToolOutcome::Error
            } else {
                ToolOutcome::Ok
            };
            entry.duration_ms = call.duration_ms.or_else(|| {
                entry
                    .started_ms
                    .zip(ts)
                    .map(|(start, end)| end.saturating_sub(start))
            });
        }
        true
    }
}

/// Keeps the tail of `output` within `KEPT_OUTPUT` (on a character boundary).
pub(crate) fn set_output(entry: &mut ToolEntry, output: &str) {
    if output.len() <= KEPT_OUTPUT {
        entry.output = output.to_string();
        entry.output_cut = 0;
        return;
    }
    let mut cut = output.len() - KEPT_OUTPUT;
    while !output.is_char_boundary(cut) {
        cut += 1;
    }
    entry.output = output[cut..].to_string();
    entry.output_cut = cut;
}

/// The tools an assistant message calls (`toolCall` content blocks), if any.
pub(crate) fn called_tools(message: &Value) -> Option<String> {
    let names: Vec<&str> = message
        .get("content")
        .and_then(Value::as_array)?
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("toolCall"))
        .filter_map(|b| b.get("name").and_then(Value::as_str))
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// The ids of the calls an assistant message makes (`toolCall` blocks' `id`).
fn called_ids(message: &Value) -> Vec<String> {
    message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("toolCall"))
        .filter_map(|b| b.get("id").and_then(Value::as_str).map(str::to_string))
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::watch::classify;
    use serde_json::json;

    /// The recorded exec run's session events, in order.
    fn recorded() -> Vec<WatchItem> {
        include_str!("../../../tests/fixtures/gateway/exec-run.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["frame"]["type"] == "event")
            .filter(|v| {
                matches!(
                    v["frame"]["event"].as_str(),
                    Some("session.tool" | "session.message")
                )
            })
            .map(|v| {
                classify(
                    "local",
                    v["frame"]["event"].as_str().unwrap(),
                    &v["frame"]["payload"],
                )
            })
            .collect()
    }

    /// Live, the tool's start can come before the assistant message that calls it: the call
    /// still reads before its tool entry.
    #[test]
    fn a_call_that_arrives_after_its_tool_start_reads_before_it() {
        let items = recorded();
        let message_at = items
            .iter()
            .position(|i| matches!(&i.kind, WatchKind::Message { role, .. } if role == "assistant"))
            .unwrap();
        let tool_at = items
            .iter()
            .position(|i| matches!(i.kind, WatchKind::Tool(_)))
            .unwrap();
        let mut reordered = items.clone();
        reordered.swap(message_at, tool_at);
        let mut t = SessionTranscript::new();
        for item in &reordered[..=message_at.max(tool_at)] {
            t.apply(item);
        }
        let entries: Vec<&TranscriptEntry> = t.entries().collect();
        let call = entries
            .iter()
            .position(
                |e| matches!(e, TranscriptEntry::Message { text, .. } if text == "(calls exec)"),
            )
            .unwrap();
        let tool = entries
            .iter()
            .position(|e| matches!(e, TranscriptEntry::Tool(_)))
            .unwrap();
        assert!(call < tool, "{entries:#?}");
    }

    #[test]
    fn the_recorded_run_reads_as_messages_and_one_exec_call() {
        let mut t = SessionTranscript::new();
        for item in recorded() {
            t.apply(&item);
        }
        let entries: Vec<&TranscriptEntry> = t.entries().collect();
        assert_eq!(entries.len(), 4, "{entries:#?}");
        assert!(
            matches!(entries[0], TranscriptEntry::Message { role, text, .. } if role == "user" && text == r#"CALL exec {"command":"echo x"}"#)
        );
        assert!(
            matches!(entries[1], TranscriptEntry::Message { role, text, .. } if role == "assistant" && text == "(calls exec)")
        );
        let TranscriptEntry::Tool(call) = entries[2] else {
            panic!("{entries:#?}")
        };
        assert_eq!(call.name, "exec");
        assert_eq!(call.args, json!({"command": "echo x"}));
        assert_eq!(call.output, "x");
        assert_eq!(call.outcome, ToolOutcome::Ok);
        assert!(call.duration_ms.is_some(), "{call:?}");
        assert!(
            matches!(entries[3], TranscriptEntry::Message { role, text, .. } if role == "assistant" && text == "tool exec returned: x")
        );
        assert_eq!(t.running_calls(), 0);
    }

    #[test]
    fn streamed_output_shows_while_running() {
        let mut t = SessionTranscript::new();
        let items = recorded();
        // Up to the update: running, with its partial output.
        for item in items
            .iter()
            .take_while(|i| !matches!(&i.kind, WatchKind::Tool(c) if c.phase == "result"))
        {
            t.apply(item);
        }
        let Some(TranscriptEntry::Tool(call)) = t.entries().last() else {
            panic!()
        };
        assert_eq!(call.outcome, ToolOutcome::Running);
        assert_eq!(call.output, "x\n");
        assert_eq!(t.running_calls(), 1);
    }

    #[test]
    fn retention_is_bounded_and_counts_what_it_dropped() {
        let mut t = SessionTranscript::with_cap(3);
        for n in 0..5 {
            t.apply(&classify(
                "local",
                "session.message",
                &json!({"sessionKey": "k", "message": {"role": "user", "content": format!("m{n}")}}),
            ));
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.dropped(), 2);
        assert!(
            matches!(t.entries().next(), Some(TranscriptEntry::Message { text, .. }) if text == "m2")
        );
    }

    #[test]
    fn long_output_keeps_its_tail() {
        let mut entry = ToolEntry {
            name: "exec".into(),
            call_id: "c".into(),
            run_id: "r".into(),
            args: Value::Null,
            output: String::new(),
            output_cut: 0,
            outcome: ToolOutcome::Running,
            started_ms: None,
            duration_ms: None,
        };
        let long = format!("{}é{}", "a".repeat(KEPT_OUTPUT), "b".repeat(10));
        set_output(&mut entry, &long);
        assert!(entry.output.len() <= KEPT_OUTPUT);
        assert!(entry.output.ends_with("bbbbbbbbbb"));
        assert_eq!(entry.output_cut + entry.output.len(), long.len());
    }
}
