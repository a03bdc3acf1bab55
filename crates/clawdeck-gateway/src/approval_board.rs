//! The approvals an operator has seen, across gateways: pending ones (oldest first) and
//! resolved ones with how and by whom, each with its gateway. Fed with `WatchItem`s (from
//! `exec.approval.requested` / `resolved` and `exec.approval.list`), so a console or any other
//! front end reads one model.

use super::approvals::{Approval, Decision};
use super::watch::{WatchItem, WatchKind};

/// Resolved approvals kept beyond this many are forgotten, oldest first.
const RESOLVED_KEPT: usize = 200;

#[derive(Debug, Clone, PartialEq)]
pub enum ApprovalState {
    Pending,
    /// The operator's answer is on its way to the gateway.
    Answering(Decision),
    /// The gateway resolved it: the decision and who resolved it, as it said.
    Resolved {
        decision: String,
        by: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct BoardEntry {
    pub gateway: String,
    pub approval: Approval,
    pub state: ApprovalState,
}

impl BoardEntry {
    pub fn is_open(&self) -> bool {
        !matches!(self.state, ApprovalState::Resolved { .. })
    }

    /// Open but past its expiry at `now_ms` (the gateway no longer takes an answer).
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.is_open() && self.approval.expires_at_ms.is_some_and(|at| at <= now_ms)
    }
}

#[derive(Debug, Default, Clone)]
pub struct ApprovalBoard {
    /// In arrival order.
    entries: Vec<BoardEntry>,
}

impl ApprovalBoard {
    /// Applies one item; true when the board changed.
    pub fn apply(&mut self, item: &WatchItem) -> bool {
        match &item.kind {
            WatchKind::ApprovalRequested(approval) => {
                if approval.id.is_empty() || self.find(&item.gateway, &approval.id).is_some() {
                    return false;
                }
                self.entries.push(BoardEntry {
                    gateway: item.gateway.clone(),
                    approval: (**approval).clone(),
                    state: ApprovalState::Pending,
                });
                true
            }
            WatchKind::ApprovalResolved {
                id,
                decision,
                resolved_by,
                ..
            } => {
                let Some(i) = self.find(&item.gateway, id) else {
                    return false;
                };
                self.entries[i].state = ApprovalState::Resolved {
                    decision: decision.clone(),
                    by: resolved_by.clone(),
                };
                self.forget_old();
                true
            }
            _ => false,
        }
    }

    fn find(&self, gateway: &str, id: &str) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.gateway == gateway && e.approval.id == id)
    }

    /// Approval `id` on `gateway` while it still takes an answer (pending or being answered).
    pub fn open_entry(&self, gateway: &str, id: &str) -> Option<&BoardEntry> {
        self.find(gateway, id)
            .map(|i| &self.entries[i])
            .filter(|e| e.is_open())
    }

    /// The operator answered; the entry waits for the gateway's `resolved`.
    pub fn answering(&mut self, gateway: &str, id: &str, decision: Decision) -> bool {
        match self.find(gateway, id) {
            Some(i) if self.entries[i].is_open() => {
                self.entries[i].state = ApprovalState::Answering(decision);
                true
            }
            _ => false,
        }
    }

    /// The answer was refused (unknown id, expired, connection gone): pending again.
    pub fn answer_failed(&mut self, gateway: &str, id: &str) -> bool {
        match self.find(gateway, id) {
            Some(i) if matches!(self.entries[i].state, ApprovalState::Answering(_)) => {
                self.entries[i].state = ApprovalState::Pending;
                true
            }
            _ => false,
        }
    }

    fn forget_old(&mut self) {
        let resolved = self.entries.iter().filter(|e| !e.is_open()).count();
        let mut extra = resolved.saturating_sub(RESOLVED_KEPT);
        self.entries.retain(|e| {
            if extra > 0 && !e.is_open() {
                extra -= 1;
                return false;
            }
            true
        });
    }

    /// Open ones first (oldest first), then resolved ones (newest first).
    pub fn rows(&self) -> Vec<&BoardEntry> {
        let open = self.entries.iter().filter(|e| e.is_open());
        let resolved = self.entries.iter().rev().filter(|e| !e.is_open());
        open.chain(resolved).collect()
    }

    /// How many are open (not resolved).
    pub fn pending(&self) -> usize {
        self.entries.iter().filter(|e| e.is_open()).count()
    }

    /// How many can still be answered at `now_ms`: open and not past their expiry.
    pub fn waiting(&self, now_ms: u64) -> usize {
        self.entries
            .iter()
            .filter(|e| e.is_open() && !e.is_expired(now_ms))
            .count()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::watch::classify;
    use serde_json::json;

    fn requested(id: &str) -> WatchItem {
        classify(
            "local",
            "exec.approval.requested",
            &json!({"id": id, "request": {"command": format!("echo {id}"), "cwd": "/w",
                    "agentId": "ops", "sessionKey": "agent:ops:main", "ask": "always"}}),
        )
    }

    #[test]
    fn requested_then_answered_then_resolved() {
        let mut board = ApprovalBoard::default();
        assert!(board.apply(&requested("a1")));
        assert!(
            !board.apply(&requested("a1")),
            "a repeat (list after reconnect) is one entry"
        );
        assert!(board.apply(&requested("a2")));
        assert_eq!(board.pending(), 2);
        assert!(board.answering("local", "a1", Decision::AllowOnce));
        assert_eq!(board.pending(), 2, "answering is still open");
        assert!(board.answer_failed("local", "a1"));
        assert_eq!(board.rows()[0].state, ApprovalState::Pending);
        let resolved = classify(
            "local",
            "exec.approval.resolved",
            &json!({"id": "a1", "decision": "deny", "resolvedBy": "clawdeck"}),
        );
        assert!(board.apply(&resolved));
        assert_eq!(board.pending(), 1);
        let rows = board.rows();
        assert_eq!(rows[0].approval.id, "a2", "open ones first");
        assert_eq!(
            rows[1].state,
            ApprovalState::Resolved {
                decision: "deny".into(),
                by: "clawdeck".into()
            }
        );
        assert!(
            !board.answering("local", "a1", Decision::AllowOnce),
            "resolved stays resolved"
        );
        let other_gateway = classify("lab", "exec.approval.resolved", &json!({"id": "a2"}));
        assert!(!board.apply(&other_gateway), "ids belong to their gateway");
    }

    #[test]
    fn plugin_and_system_agent_approvals_are_on_the_board_too() {
        let mut board = ApprovalBoard::default();
        for (event, id) in [
            ("plugin.approval.requested", "plugin:1"),
            ("openclaw.approval.requested", "system-agent:1"),
        ] {
            assert!(board.apply(&classify(
                "local",
                event,
                &json!({"id": id, "request": {"title": "t", "description": "d"}}),
            )));
        }
        let kinds: Vec<_> = board.rows().iter().map(|e| e.approval.kind).collect();
        assert_eq!(
            kinds,
            vec![
                crate::approvals::ApprovalKind::Plugin,
                crate::approvals::ApprovalKind::SystemAgent
            ]
        );
        let resolved = classify(
            "local",
            "openclaw.approval.resolved",
            &json!({"id": "system-agent:1", "decision": "deny",
                    "resolvedBy": {"kind": "device", "id": "d1"}}),
        );
        assert_eq!(
            resolved.to_json()["approvalKind"],
            json!("system-agent"),
            "the resolved line names its kind"
        );
        assert!(board.apply(&resolved));
        assert_eq!(
            board.rows()[1].state,
            ApprovalState::Resolved {
                decision: "deny".into(),
                by: "device:d1".into()
            }
        );
    }

    #[test]
    fn old_resolved_entries_are_forgotten() {
        let mut board = ApprovalBoard::default();
        for i in 0..(RESOLVED_KEPT + 5) {
            let id = format!("a{i}");
            board.apply(&requested(&id));
            board.apply(&classify(
                "local",
                "exec.approval.resolved",
                &json!({"id": id, "decision": "deny"}),
            ));
        }
        board.apply(&requested("open"));
        assert_eq!(board.len(), RESOLVED_KEPT + 1);
        assert_eq!(board.pending(), 1);
    }

    #[test]
    fn an_approval_past_its_expiry_no_longer_waits() {
        let mut board = ApprovalBoard::default();
        board.apply(&classify(
            "local",
            "exec.approval.requested",
            &json!({"id": "a1", "expiresAtMs": 1000, "request": {"command": "x"}}),
        ));
        board.apply(&requested("no-expiry"));
        assert_eq!(board.waiting(999), 2);
        assert_eq!(board.waiting(1000), 1);
        assert!(board.rows()[0].is_expired(1000));
        assert_eq!(
            board.pending(),
            2,
            "still open until the gateway says otherwise"
        );
    }
}
