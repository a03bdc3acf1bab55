//! The live session roster of one or more gateways: rebuilt from each `sessions.list` snapshot
//! (taken after `sessions.subscribe`, which answers only `{subscribed: true}`), kept current by `sessions.changed`, and marked stale while a
//! gateway is away. Core state for the console's Sessions view; it never does I/O.

use std::collections::BTreeMap;

use serde_json::Value;

use super::client::ClientEvent;
use super::sessions::SessionRow;

/// A gateway's connection as the roster shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting,
    Up {
        server_version: String,
    },
    /// Dropped; the client retries (rows are kept, shown as last known).
    Down {
        reason: String,
    },
    /// Gave up (credentials, pairing, protocol): the reason says what to do.
    Failed {
        reason: String,
    },
}

/// Sessions by gateway, then by key.
#[derive(Debug, Default, Clone)]
pub struct Roster {
    links: BTreeMap<String, Link>,
    rows: BTreeMap<String, BTreeMap<String, SessionRow>>,
}

/// Reasons of `sessions.changed` that remove the row.
const GONE: &[&str] = &["deleted", "removed", "archived"];

impl Roster {
    /// Registers a gateway before its first connection.
    pub fn add_gateway(&mut self, gateway: &str) {
        self.links
            .entry(gateway.to_string())
            .or_insert(Link::Connecting);
    }

    pub(crate) fn set_link(&mut self, gateway: &str, link: Link) {
        self.links.insert(gateway.to_string(), link);
    }

    pub fn links(&self) -> impl Iterator<Item = (&str, &Link)> {
        self.links.iter().map(|(g, l)| (g.as_str(), l))
    }

    /// Replaces a gateway's rows with a `sessions.list` payload (`{sessions: [...]}`).
    pub fn replace(&mut self, gateway: &str, payload: &Value) {
        let rows = payload
            .get("sessions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(SessionRow::from_value)
            .filter(|r| !r.key.is_empty())
            .map(|r| (r.key.clone(), r))
            .collect();
        self.rows.insert(gateway.to_string(), rows);
    }

    /// Applies one `sessions.changed` payload; true when the roster changed.
    pub fn changed(&mut self, gateway: &str, payload: &Value) -> bool {
        let key = payload
            .get("sessionKey")
            .or_else(|| payload.pointer("/session/key"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if key.is_empty() {
            return false;
        }
        let rows = self.rows.entry(gateway.to_string()).or_default();
        let reason = payload.get("reason").and_then(Value::as_str).unwrap_or("");
        if GONE.contains(&reason) {
            return rows.remove(key).is_some();
        }
        let Some(session) = payload.get("session").filter(|s| s.is_object()) else {
            return false;
        };
        let mut row = SessionRow::from_value(session);
        if row.key.is_empty() {
            row.key = key.to_string();
        }
        // A phase event of a run says more than the session snapshot it carries.
        match payload.get("phase").and_then(Value::as_str) {
            Some("start") => {
                row.running = true;
                if let Some(ts) = payload.get("ts").and_then(Value::as_u64) {
                    row.started_at_ms = Some(row.started_at_ms.map_or(ts, |t| t.max(ts)));
                }
                if let Some(run) = payload.get("runId").and_then(Value::as_str)
                    && !row.run_ids.iter().any(|r| r == run)
                {
                    row.run_ids.push(run.to_string());
                }
            }
            Some("end") | Some("error") => row.running = false,
            _ => {}
        }
        if let Some(ts) = payload.get("ts").and_then(Value::as_u64) {
            row.last_activity_ms = Some(row.last_activity_ms.map_or(ts, |t| t.max(ts)));
        }
        let old = rows.insert(key.to_string(), row.clone());
        old.as_ref() != Some(&row)
    }

    /// Applies a client event of `gateway`; true when what the roster shows changed.
    pub fn apply(&mut self, gateway: &str, event: &ClientEvent) -> bool {
        match event {
            ClientEvent::Connected { hello, .. } => {
                self.set_link(
                    gateway,
                    Link::Up {
                        server_version: hello.server_version.clone(),
                    },
                );
                true
            }
            ClientEvent::Disconnected { reason, .. } => {
                self.set_link(
                    gateway,
                    Link::Down {
                        reason: reason.clone(),
                    },
                );
                true
            }
            ClientEvent::Failed(err) => {
                self.set_link(
                    gateway,
                    Link::Failed {
                        reason: err.to_string(),
                    },
                );
                true
            }
            // A snapshot (`sessions.list`); a bare `{subscribed: true}` is not one.
            ClientEvent::Subscribed { payload, .. } if payload.get("sessions").is_some() => {
                self.replace(gateway, payload);
                true
            }
            ClientEvent::Event(frame) if frame.event == "sessions.changed" => {
                self.changed(gateway, &frame.payload)
            }
            _ => false,
        }
    }

    /// Every row, most recent activity first: (gateway, row).
    pub fn rows(&self) -> Vec<(&str, &SessionRow)> {
        let mut all: Vec<(&str, &SessionRow)> = self
            .rows
            .iter()
            .flat_map(|(g, rows)| rows.values().map(move |r| (g.as_str(), r)))
            .collect();
        all.sort_by(|a, b| {
            b.1.last_activity_ms
                .cmp(&a.1.last_activity_ms)
                .then_with(|| a.0.cmp(b.0))
                .then_with(|| a.1.key.cmp(&b.1.key))
        });
        all
    }

    pub fn len(&self) -> usize {
        self.rows.values().map(BTreeMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::EventFrame;
    use serde_json::json;
    use std::sync::Arc;

    /// `sessions.changed` frames recorded from the real 2026.9.6 gateway during an exec run.
    fn recorded_changes() -> Vec<Value> {
        include_str!("../../../tests/fixtures/gateway/exec-run.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["frame"]["event"] == "sessions.changed")
            .map(|v| v["frame"]["payload"].clone())
            .collect()
    }

    #[test]
    fn a_snapshot_then_recorded_changes_keep_the_row_current() {
        let mut roster = Roster::default();
        roster.add_gateway("local");
        roster.replace(
            "local",
            &json!({"sessions": [
                {"key": "agent:ops:main", "kind": "direct", "updatedAt": 10},
                {"key": "agent:ops:explicit:g1", "kind": "direct", "updatedAt": 5},
            ]}),
        );
        assert_eq!(roster.len(), 2);
        let changes = recorded_changes();
        assert!(changes.len() > 3);
        let mut saw_running = false;
        for change in &changes {
            roster.changed("local", change);
            let g1 = roster
                .rows()
                .into_iter()
                .find(|(_, r)| r.key == "agent:ops:explicit:g1")
                .unwrap()
                .1
                .clone();
            saw_running |= g1.running;
        }
        assert!(saw_running, "the run shows as running while it runs");
        let rows = roster.rows();
        // The session that just ran is the most recent one, and no longer running.
        assert_eq!(rows[0].1.key, "agent:ops:explicit:g1");
        assert_eq!(rows[0].1.agent, "ops");
        assert!(!rows[0].1.running, "{:?}", rows[0].1);
        assert_eq!(roster.len(), 2);
    }

    #[test]
    fn client_events_drive_links_snapshots_and_removals() {
        let mut roster = Roster::default();
        roster.add_gateway("a");
        assert_eq!(roster.links().next().unwrap().1, &Link::Connecting);
        // What the real gateway answers to sessions.subscribe: not a snapshot.
        assert!(!roster.apply(
            "a",
            &ClientEvent::Subscribed {
                method: "sessions.subscribe".into(),
                payload: json!({"subscribed": true}),
            }
        ));
        assert!(roster.apply(
            "a",
            &ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: json!({"sessions": [{"key": "agent:x:main"}]}),
            }
        ));
        assert_eq!(roster.len(), 1);
        roster.apply(
            "a",
            &ClientEvent::Disconnected {
                reason: "closed".into(),
                retry_in: std::time::Duration::from_millis(250),
            },
        );
        assert_eq!(
            roster.links().next().unwrap().1,
            &Link::Down {
                reason: "closed".into()
            }
        );
        assert_eq!(roster.len(), 1, "rows survive a drop");
        assert!(!roster.apply(
            "a",
            &ClientEvent::Subscribed {
                method: "sessions.subscribe".into(),
                payload: json!({"subscribed": true}),
            }
        ));
        assert_eq!(roster.len(), 1, "a re-subscription keeps the rows");
        let gone = ClientEvent::Event(Arc::new(EventFrame {
            event: "sessions.changed".into(),
            payload: json!({"sessionKey": "agent:x:main", "reason": "deleted"}),
            seq: None,
        }));
        assert!(roster.apply("a", &gone));
        assert!(roster.is_empty());
    }
}
