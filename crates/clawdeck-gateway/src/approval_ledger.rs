//! What a gateway remembers about approvals beyond the pending ones: the terminal ones
//! (`approval.history`, newest first, kept 30 days, every kind) and the standing grants that
//! allow-always on an automation (cron) approval mints (`exec.approval.grants.list`, revoked
//! with `exec.approval.grants.revoke`). Shapes as OpenClaw 2026.9.6's protocol schemas
//! (`ApprovalHistoryResultSchema`, `ExecApprovalStandingGrantSchema`) say.

use serde_json::{Value, json};

use super::approvals::ApprovalKind;

/// The most `approval.history` returns per page (its schema's `limit` maximum).
pub const HISTORY_PAGE_MAX: u64 = 100;
/// The most `exec.approval.grants.list` returns (its schema's `limit` maximum).
pub const GRANTS_MAX: u64 = 500;

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

fn number(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// The params of `approval.history`.
pub fn history_params(limit: u64, kind: Option<ApprovalKind>, cursor: Option<&str>) -> Value {
    let mut params = json!({"limit": limit.clamp(1, HISTORY_PAGE_MAX)});
    if let Some(kind) = kind {
        params["kind"] = json!(kind.as_str());
    }
    if let Some(cursor) = cursor {
        // An opaque server token: sent back exactly as it came.
        params["cursor"] = json!(cursor);
    }
    params
}

/// One terminal approval: how it ended (allowed, denied, expired, cancelled), with what
/// decision, why, by whom, and what it approved.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub gateway: String,
    pub id: String,
    pub kind: String,
    pub status: String,
    pub decision: String,
    pub reason: String,
    /// What it approved, whole: exec's command text; a plugin's or the system agent's title,
    /// description and detail.
    pub summary: String,
    pub agent: String,
    pub session_key: String,
    pub resolver: String,
    pub created_at_ms: Option<u64>,
    pub resolved_at_ms: Option<u64>,
}

impl HistoryEntry {
    pub fn from_snapshot(gateway: &str, item: &Value) -> HistoryEntry {
        let presentation = item.get("presentation").unwrap_or(&Value::Null);
        let source = item.get("source").unwrap_or(&Value::Null);
        let resolver = item.get("resolver").unwrap_or(&Value::Null);
        let summary = match text(presentation, "kind").as_str() {
            "exec" => text(presentation, "commandText"),
            _ => ["title", "description", "detail"]
                .iter()
                .map(|k| text(presentation, k))
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" — "),
        };
        let agent = match text(source, "agentId") {
            a if a.is_empty() => text(presentation, "agentId"),
            a => a,
        };
        HistoryEntry {
            gateway: gateway.to_string(),
            id: text(item, "id"),
            kind: text(presentation, "kind"),
            status: text(item, "status"),
            decision: text(item, "decision"),
            reason: text(item, "reason"),
            summary,
            agent,
            session_key: text(source, "sessionKey"),
            resolver: match (text(resolver, "kind"), text(resolver, "id")) {
                (kind, id) if id.is_empty() => kind,
                (kind, id) => format!("{kind}:{id}"),
            },
            created_at_ms: number(item, "createdAtMs"),
            resolved_at_ms: number(item, "resolvedAtMs"),
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "gateway": self.gateway,
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "decision": self.decision,
            "reason": self.reason,
            "summary": self.summary,
            "agentId": self.agent,
            "sessionKey": self.session_key,
            "resolver": self.resolver,
            "createdAtMs": self.created_at_ms,
            "resolvedAtMs": self.resolved_at_ms,
        })
    }

    /// The outcome in a word or two: `allow-once`, `deny`, `expired (no-approval-route)`.
    pub fn outcome(&self) -> String {
        match (self.decision.as_str(), self.status.as_str()) {
            ("", status) if self.reason.is_empty() => status.to_string(),
            ("", status) => format!("{status} ({})", self.reason),
            (decision, _) => decision.to_string(),
        }
    }
}

/// The entries of an `approval.history` answer and its next page's cursor.
pub fn history_in(gateway: &str, payload: &Value) -> (Vec<HistoryEntry>, Option<String>) {
    let items = payload
        .get("items")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|i| HistoryEntry::from_snapshot(gateway, i))
                .collect()
        })
        .unwrap_or_default();
    let next = payload
        .get("nextCursor")
        .and_then(Value::as_str)
        .map(str::to_string);
    (items, next)
}

/// The most history entries read from one gateway (pages followed up to this).
pub const HISTORY_MAX: u64 = 1000;

/// Reads `approval.history` a page at a time until `limit` entries (at most [`HISTORY_MAX`])
/// or the last page: `next_params` gives the next request, `take` reads its answer.
#[derive(Debug)]
pub struct HistoryPager {
    gateway: String,
    kind: Option<ApprovalKind>,
    want: u64,
    entries: Vec<HistoryEntry>,
    /// `None` before the first page; `Some(None)` after the last one.
    cursor: Option<Option<String>>,
}

impl HistoryPager {
    pub fn new(gateway: &str, limit: u64, kind: Option<ApprovalKind>) -> HistoryPager {
        HistoryPager {
            gateway: gateway.to_string(),
            kind,
            want: limit.clamp(1, HISTORY_MAX),
            entries: Vec::new(),
            cursor: None,
        }
    }

    /// The params of the next page to ask for, or `None` when the reading is done.
    pub fn next_params(&self) -> Option<Value> {
        let left = self.want.saturating_sub(self.entries.len() as u64);
        if left == 0 {
            return None;
        }
        match &self.cursor {
            None => Some(history_params(left, self.kind, None)),
            Some(Some(cursor)) => Some(history_params(left, self.kind, Some(cursor))),
            Some(None) => None,
        }
    }

    /// Reads one page's answer. A page without entries ends the reading, whatever its cursor
    /// says (a gateway that kept answering empty pages would otherwise be asked forever).
    pub fn take(&mut self, page: &Value) {
        let (items, next) = history_in(&self.gateway, page);
        let left = self.want.saturating_sub(self.entries.len() as u64) as usize;
        let empty = items.is_empty();
        self.entries.extend(items.into_iter().take(left));
        self.cursor = Some(if empty { None } else { next });
    }

    pub fn into_entries(self) -> Vec<HistoryEntry> {
        self.entries
    }
}

/// A standing grant: an automation's exact command allowed until revoked or expired.
#[derive(Debug, Clone, PartialEq)]
pub struct Grant {
    pub gateway: String,
    pub grant_id: String,
    /// The automation (cron job) it belongs to: its name, else its id.
    pub automation: String,
    pub agent: String,
    pub command: String,
    pub cwd: String,
    pub use_count: u64,
    pub created_at_ms: Option<u64>,
    pub expires_at_ms: Option<u64>,
    pub revoked_at_ms: Option<u64>,
    pub revoked_by: String,
    pub minted_by: String,
}

const DAY_MS: u64 = 86_400_000;

impl Grant {
    pub fn from_value(gateway: &str, v: &Value) -> Grant {
        Grant {
            gateway: gateway.to_string(),
            grant_id: text(v, "grantId"),
            automation: match text(v, "cronJobName") {
                name if name.is_empty() => text(v, "cronJobId"),
                name => name,
            },
            agent: text(v, "agentId"),
            command: text(v, "command"),
            cwd: text(v, "cwd"),
            use_count: number(v, "useCount").unwrap_or(0),
            created_at_ms: number(v, "createdAtMs"),
            expires_at_ms: number(v, "expiresAtMs"),
            revoked_at_ms: number(v, "revokedAtMs"),
            revoked_by: text(v, "revokedBy"),
            minted_by: text(v, "mintedByApprovalId"),
        }
    }

    /// Whether it still allows its command at `now_ms`.
    pub fn is_active(&self, now_ms: u64) -> bool {
        self.revoked_at_ms.is_none() && self.expires_at_ms.is_none_or(|at| at > now_ms)
    }

    /// `until revoked`, `expires in 3d`, `expired`, `revoked by X` (as OpenClaw's CLI says).
    pub fn state(&self, now_ms: u64) -> String {
        if self.revoked_at_ms.is_some() {
            return match self.revoked_by.as_str() {
                "" => "revoked".to_string(),
                by => format!("revoked by {by}"),
            };
        }
        match self.expires_at_ms {
            Some(at) if at <= now_ms => "expired".to_string(),
            Some(at) => format!("expires in {}d", (at - now_ms).div_ceil(DAY_MS).max(1)),
            None => "until revoked".to_string(),
        }
    }

    pub fn to_json(&self, now_ms: u64) -> Value {
        json!({
            "gateway": self.gateway,
            "grantId": self.grant_id,
            "automation": self.automation,
            "agentId": self.agent,
            "command": self.command,
            "cwd": self.cwd,
            "useCount": self.use_count,
            "createdAtMs": self.created_at_ms,
            "expiresAtMs": self.expires_at_ms,
            "revokedAtMs": self.revoked_at_ms,
            "revokedBy": self.revoked_by,
            "mintedByApprovalId": self.minted_by,
            "state": self.state(now_ms),
        })
    }
}

/// The grants of an `exec.approval.grants.list` answer.
pub fn grants_in(gateway: &str, payload: &Value) -> Vec<Grant> {
    payload
        .get("grants")
        .and_then(Value::as_array)
        .map(|g| {
            g.iter()
                .take(GRANTS_MAX as usize)
                .map(|v| Grant::from_value(gateway, v))
                .collect()
        })
        .unwrap_or_default()
}

/// Grants a `grants.list` answer carried past the `GRANTS_MAX` asked for (not read).
pub fn grants_left_out(payload: &Value) -> usize {
    payload
        .get("grants")
        .and_then(Value::as_array)
        .map_or(0, |g| g.len().saturating_sub(GRANTS_MAX as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(ids: &[&str], next: Option<&str>) -> Value {
        let items: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "status": "allowed", "presentation": {"kind": "exec"}}))
            .collect();
        json!({"items": items, "nextCursor": next})
    }

    #[test]
    fn the_pager_follows_the_cursor_until_the_limit_or_the_last_page() {
        let mut pager = HistoryPager::new("gw", 150, None);
        assert_eq!(pager.next_params().unwrap(), json!({"limit": 100}));
        let first: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
        let first: Vec<&str> = first.iter().map(String::as_str).collect();
        pager.take(&page(&first, Some("c2")));
        assert_eq!(
            pager.next_params().unwrap(),
            json!({"limit": 50, "cursor": "c2"})
        );
        pager.take(&page(&["b0", "b1"], None));
        assert_eq!(pager.next_params(), None, "the last page has no cursor");
        let entries = pager.into_entries();
        assert_eq!(entries.len(), 102);
        assert_eq!(entries[101].id, "b1");

        // The limit ends the reading even when more pages exist; an empty page ends it too.
        let mut short = HistoryPager::new("gw", 2, Some(ApprovalKind::Plugin));
        assert_eq!(
            short.next_params().unwrap(),
            json!({"limit": 2, "kind": "plugin"})
        );
        short.take(&page(&["x", "y", "z"], Some("more")));
        assert_eq!(short.next_params(), None);
        assert_eq!(short.into_entries().len(), 2);
        let mut empty = HistoryPager::new("gw", 10, None);
        empty.take(&page(&[], Some("again")));
        assert_eq!(empty.next_params(), None);
        assert_eq!(HistoryPager::new("gw", 1_000_000, None).want, HISTORY_MAX);
    }

    #[test]
    fn history_items_of_every_kind_say_how_they_ended() {
        let page = json!({"items": [
            {"id": "e1", "urlPath": "/a/e1", "createdAtMs": 1, "expiresAtMs": 9, "resolvedAtMs": 5,
             "status": "allowed", "decision": "allow-once", "reason": "reviewer",
             "presentation": {"kind": "exec", "commandText": "echo hi", "allowedDecisions": ["deny"]},
             "source": {"agentId": "ops", "sessionKey": "agent:ops:main"},
             "resolver": {"kind": "device", "id": "dev1"}},
            {"id": "plugin:2", "urlPath": "/a/p", "createdAtMs": 1, "expiresAtMs": 9, "resolvedAtMs": 9,
             "status": "expired", "reason": "no-approval-route",
             "presentation": {"kind": "plugin", "title": "Send", "description": "mail", "severity": "info",
                              "allowedDecisions": ["deny"]}},
        ], "nextCursor": "c2"});
        let (items, next) = history_in("local", &page);
        assert_eq!(next.as_deref(), Some("c2"));
        assert_eq!(items[0].summary, "echo hi");
        assert_eq!(items[0].outcome(), "allow-once");
        assert_eq!(items[0].resolver, "device:dev1");
        assert_eq!(items[0].agent, "ops");
        assert_eq!(items[1].kind, "plugin");
        assert_eq!(items[1].summary, "Send — mail");
        assert_eq!(items[1].outcome(), "expired (no-approval-route)");
        assert_eq!(
            history_params(500, Some(ApprovalKind::Plugin), Some("c2")),
            json!({"limit": 100, "kind": "plugin", "cursor": "c2"})
        );
    }

    #[test]
    fn grants_say_their_state() {
        let grants = grants_in(
            "local",
            &json!({"grants": [
                {"grantId": "g1", "mintedByApprovalId": "a1", "agentId": "ops", "cronJobId": "job1",
                 "cronJobName": null, "command": "backup.sh", "cwd": null, "createdAtMs": 0,
                 "expiresAtMs": null, "revokedAtMs": null, "revokedBy": null, "lastUsedAtMs": null,
                 "useCount": 3},
                {"grantId": "g2", "mintedByApprovalId": "a2", "agentId": "ops", "cronJobId": "job2",
                 "cronJobName": "nightly", "command": "x", "cwd": "/w", "createdAtMs": 0,
                 "expiresAtMs": DAY_MS * 2 + 5, "revokedAtMs": null, "revokedBy": null,
                 "lastUsedAtMs": null, "useCount": 0},
            ]}),
        );
        assert_eq!(grants[0].automation, "job1");
        assert_eq!(grants[0].state(10), "until revoked");
        assert_eq!(grants[1].automation, "nightly");
        assert_eq!(grants[1].state(5), "expires in 2d");
        assert_eq!(grants[1].state(DAY_MS * 3), "expired");
        assert!(!grants[1].is_active(DAY_MS * 3));
        let mut revoked = grants[0].clone();
        revoked.revoked_at_ms = Some(1);
        revoked.revoked_by = "device:d".into();
        assert_eq!(revoked.state(10), "revoked by device:d");
    }
}
