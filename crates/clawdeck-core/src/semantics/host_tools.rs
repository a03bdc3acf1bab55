//! Tools only a gateway's turns have (the pack's `hostTools`, read from the release's dist by
//! `extract_rules.mjs`): OpenClaw builds `github_identity_status` when the run prepared its
//! GitHub publication availability, which 2026.9 does for every run a gateway hosts (its agent
//! method and its replies) and 2026.8 only in its reply pipeline (a channel message, a
//! client's `chat.send`). `openclaw agent --local` prepares none.
//!
//! The registry holds them; a turn whose host does not build one does not have it at all
//! (`policy::resolve`), as a turn without a client lacks the client tools.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Semantics;
use crate::context::{PolicyContext, TurnHost};
use crate::tool::ToolSpec;

/// The pack's `hostTools`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostTools {
    /// Each tool and the turns that build it.
    pub tools: BTreeMap<String, Vec<TurnHost>>,
}

impl HostTools {
    /// A host tool is one the default run lacks: the pack must hold its form among `conditional`.
    pub(super) fn check(&self, conditional: &[ToolSpec]) -> Result<(), String> {
        match self
            .tools
            .keys()
            .find(|name| !conditional.iter().any(|spec| &spec.name == *name))
        {
            Some(name) => Err(format!(
                "hostTools names {name}, which is not a tool the pack's default run lacks"
            )),
            None => Ok(()),
        }
    }
}

impl Semantics {
    /// The host tools the registry holds, of those `already` lacks.
    pub fn host_tools(&self, already: &[String]) -> Vec<ToolSpec> {
        self.conditional_specs_named(|name| self.host_tools.tools.contains_key(name), already)
    }

    /// Whether `ctx`'s turn has tool `name` at all, as far as the kind of turn decides: a
    /// client's tools need a turn a gateway client started, a host tool a host that builds it,
    /// the heartbeat's tool a heartbeat's turn, and a cron session lacks what it cannot continue
    /// (`sessions_yield`). (Which of them the turn then keeps is the
    /// switches' and the layers' to say.) Read it from a context the session key has filled in.
    pub fn turn_has(&self, name: &str, ctx: &PolicyContext) -> bool {
        if self.needs_client(name) && !ctx.names_client() {
            return false;
        }
        if self.is_heartbeat_tool(name) && !ctx.heartbeat {
            return false;
        }
        if self.cron_session_drops(name, ctx) {
            return false;
        }
        self.host_builds(name, ctx.turn_host()) != Some(false)
    }

    /// Whether a turn `host` runs builds tool `name`; `None` for a tool every host builds.
    pub fn host_builds(&self, name: &str, host: TurnHost) -> Option<bool> {
        let hosts = self.host_tools.tools.get(name)?;
        Some(hosts.contains(&host))
    }

    /// The channel a turn of a gateway's agent method runs in when it came over none (2026.8
    /// runs it in webchat, which words message and the prompt for that chat; 2026.9 in none).
    pub fn agent_method_channel(&self, ctx: &PolicyContext) -> Option<&str> {
        let agent_method = ctx.turn_host() == TurnHost::AgentMethod;
        (agent_method && ctx.message_provider().is_none())
            .then_some(self.gateway_agent_turn_channel.as_deref())
            .flatten()
    }

    /// The turns that build host tool `name`, in words; `None` for another tool.
    pub fn host_tool_brought_by(&self, name: &str) -> Option<String> {
        let hosts = self.host_tools.tools.get(name)?;
        let words: Vec<&str> = hosts
            .iter()
            .map(|host| match host {
                TurnHost::Local => "a local run",
                TurnHost::AgentMethod => "its agent method",
                TurnHost::Reply => "its reply to a message",
                TurnHost::Scheduled => "a scheduled job's turn",
            })
            .collect();
        let flags = match hosts.contains(&TurnHost::AgentMethod) {
            true => {
                "--gateway-run, a sender, a client, a spawner, --not-owner or --scheduled-tools"
            }
            false => "a sender, or a client's chat.send: --client",
        };
        Some(format!(
            "a turn a gateway hosts, as {} ({flags}), not openclaw agent --local",
            words.join(" or ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(ctx: PolicyContext) -> TurnHost {
        ctx.with_session_key().turn_host()
    }

    #[test]
    fn each_context_names_the_host_of_its_turn() {
        assert_eq!(host(PolicyContext::default()), TurnHost::Local);
        let channel_only = PolicyContext {
            channel: Some("telegram".into()),
            group: Some("-100".into()),
            ..PolicyContext::default()
        };
        assert_eq!(host(channel_only), TurnHost::Local);
        let sender = PolicyContext {
            channel: Some("telegram".into()),
            sender_id: Some("42".into()),
            ..PolicyContext::default()
        };
        assert_eq!(host(sender.clone()), TurnHost::Reply);
        let client = PolicyContext {
            client: Some("control-ui".into()),
            ..PolicyContext::default()
        };
        assert_eq!(host(client), TurnHost::Reply);
        let not_owner = PolicyContext {
            owner: Some(false),
            ..PolicyContext::default()
        };
        assert_eq!(host(not_owner), TurnHost::AgentMethod);
        let gateway = PolicyContext {
            gateway_run: true,
            ..PolicyContext::default()
        };
        assert_eq!(host(gateway), TurnHost::AgentMethod);
        // A subagent a sender's turn spawned runs through the agent method, not as a reply.
        let spawned = PolicyContext {
            spawned_by: Some("agent:main:main".into()),
            ..sender
        };
        assert_eq!(host(spawned), TurnHost::AgentMethod);
        let node = PolicyContext {
            channel: Some("node".into()),
            ..PolicyContext::default()
        };
        assert_eq!(host(node), TurnHost::AgentMethod);
    }

    #[test]
    fn a_host_tool_is_built_only_by_its_hosts() {
        let mut s = (*super::super::seed()).clone();
        s.host_tools
            .tools
            .insert("github_identity_status".into(), vec![TurnHost::Reply]);
        let s = s;
        assert_eq!(
            s.host_builds("github_identity_status", TurnHost::Reply),
            Some(true)
        );
        assert_eq!(
            s.host_builds("github_identity_status", TurnHost::AgentMethod),
            Some(false)
        );
        assert_eq!(s.host_builds("read", TurnHost::Local), None);
        let words = s.host_tool_brought_by("github_identity_status").unwrap();
        assert!(words.contains("reply to a message"), "{words}");
        assert!(!words.contains("--gateway-run"), "{words}");
    }
}
