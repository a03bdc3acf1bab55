//! A scheduled job's turn (an automation's agent turn, the pack's `scheduledTurn`, read from
//! the release's dist by `extract_rules.mjs`). OpenClaw's cron service runs it on the gateway:
//! - the job's tool cap (`toolsAllow`) keeps only the built tools it names, after every layer;
//!   `*` keeps all, an empty cap none (no Tool Search control either: nothing is built);
//! - it passes no `senderIsOwner`, so the owner-only core tools stay (they go only for a turn
//!   that is not the owner's) while a plugin tool whose factory wants a confirmed owner
//!   (`confirmedOwnerTools`: memory-core's `intent`) is not built;
//! - it has a scheduled caller, so `transcripts` is built;
//! - where the release has it, a cron session key (`agent:<id>:cron:...`, the job's own
//!   session) loses the tools that need a requester continuation (`cronSessionDrops`:
//!   `sessions_yield` in 2026.9), whatever started the turn;
//! - it asks for no sender policy (`skipsSenderRules`): no `toolsBySender` entry applies, a
//!   group's included, not even `*`;
//! - a job delivering to a webhook gets no message tool (`webhookDrops`); one announcing to a
//!   chat runs with that chat's channel as its message provider.

use serde::Deserialize;

use super::Semantics;
use crate::context::{PolicyContext, ScheduledDelivery};

/// The pack's `scheduledTurn`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledTurn {
    /// Plugin tools built only for a confirmed owner, which a scheduled turn does not name.
    pub confirmed_owner_tools: Vec<String>,
    /// Tools a turn in a cron session does not get.
    #[serde(default)]
    pub cron_session_drops: Vec<String>,
    /// The widget tool a scheduled turn keeps, pinned-only, when its cap names it outside the
    /// job's own session (2026.9's show_widget); none where the release has no such rule.
    #[serde(default)]
    pub pinned_widget: Option<PinnedWidget>,
    /// The turn asks for no sender policy (OpenClaw's `senderPolicyMode: "never"` for a turn
    /// with a scheduled tool policy): neither `tools.toolsBySender` nor a group's applies.
    #[serde(default)]
    pub skips_sender_rules: bool,
    /// Tools a job delivering to a webhook does not get (its delivery plan turns the message
    /// tool off).
    #[serde(default)]
    pub webhook_drops: Vec<String>,
}

/// The pack's `scheduledTurn.pinnedWidget`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PinnedWidget {
    pub tool: String,
}

impl Semantics {
    /// Whether a turn in a cron session lacks tool `name` (2026.9's `sessions_yield`).
    pub fn cron_session_drops(&self, name: &str, ctx: &PolicyContext) -> bool {
        ctx.in_cron_session()
            && self
                .scheduled_turn
                .as_ref()
                .is_some_and(|rules| rules.cron_session_drops.iter().any(|t| t == name))
    }

    /// Whether the context's turn is a scheduled job's that asks for no sender policy.
    pub fn scheduled_skips_sender_rules(&self, ctx: &PolicyContext) -> bool {
        ctx.is_scheduled()
            && self
                .scheduled_turn
                .as_ref()
                .is_some_and(|rules| rules.skips_sender_rules)
    }

    /// Why a scheduled job's delivery leaves tool `name` unbuilt (a webhook job's message
    /// tool); `None` for any other delivery, turn or tool.
    pub fn delivery_drops(&self, name: &str, ctx: &PolicyContext) -> Option<String> {
        let rules = self.scheduled_turn.as_ref()?;
        let webhook = ctx.delivery() == Some(ScheduledDelivery::Webhook);
        (webhook && rules.webhook_drops.iter().any(|t| t == name)).then(|| {
            "the scheduled job delivers to a webhook (--scheduled-delivery webhook): its turn \
             has no chat to message"
                .to_string()
        })
    }

    /// Why a scheduled turn does not build plugin tool `name`; `None` for any other turn or tool.
    pub fn needs_confirmed_owner(&self, name: &str, ctx: &PolicyContext) -> Option<String> {
        let rules = self
            .scheduled_turn
            .as_ref()
            .filter(|_| ctx.is_scheduled())?;
        rules
            .confirmed_owner_tools
            .iter()
            .any(|t| t == name)
            .then(|| {
                "its plugin builds it only for a turn whose sender is confirmed the owner, and a \
                 scheduled job's turn names none"
                    .to_string()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> ScheduledTurn {
        serde_json::from_value(serde_json::json!({
            "confirmedOwnerTools": ["intent"],
            "cronSessionDrops": ["sessions_yield"],
            "where": "x.mjs"
        }))
        .unwrap()
    }

    #[test]
    fn a_cron_session_is_the_jobs_own_or_a_cron_key() {
        let scheduled = PolicyContext {
            scheduled_tools: Some(vec!["*".into()]),
            ..PolicyContext::default()
        };
        assert!(scheduled.in_cron_session());
        let elsewhere = PolicyContext {
            session_key: Some("agent:ops:widgets".into()),
            ..scheduled.clone()
        };
        assert!(!elsewhere.in_cron_session());
        let keyed = PolicyContext {
            session_key: Some("agent:main:CRON:job:run:1".into()),
            ..PolicyContext::default()
        };
        assert!(keyed.in_cron_session());
        assert!(!PolicyContext::default().in_cron_session());
        // Only a job's own run session (`cron:<job>:run:<run>`) keeps a widget from it.
        assert!(scheduled.in_cron_run_session());
        assert!(!elsewhere.in_cron_run_session());
        let nightly = PolicyContext {
            session_key: Some("agent:main:cron:nightly".into()),
            ..PolicyContext::default()
        };
        assert!(nightly.in_cron_session() && !nightly.in_cron_run_session());
        let run = PolicyContext {
            session_key: Some("agent:ops:cron:j1:run:r1".into()),
            ..PolicyContext::default()
        };
        assert!(run.in_cron_run_session() && run.in_cron_session());
        assert_eq!(
            PolicyContext::tool_cap("read, exec  group:fs"),
            ["read", "exec", "group:fs"]
        );
        assert!(PolicyContext::tool_cap("").is_empty());
        assert_eq!(
            rules().cron_session_drops,
            vec!["sessions_yield".to_string()]
        );
    }
}
