//! One live gateway session against clawdeck's answer for the same context: the session key
//! decides the context (its agent, its key: a `subagent:` key makes it a subagent, a
//! `<channel>:group:<id>` key puts it in that group), the gateway's `tools.effective` is the
//! observation, and `compare` gives the verdicts. The console's Policy view shows them; the
//! asking runs off the console's task (`Deck::check_gateway_session`).

use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use crate::catalog::Registry;
use crate::comparison::{Comparison, ObservedView, compare_view, predict};
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::gateway::{Backoff, ConnectOptions, DeviceIdentity, GatewayClient, GatewayEndpoint};

/// How long the console waits for a gateway's `tools.effective`.
pub(crate) const ASK_TIMEOUT: Duration = Duration::from_secs(20);

/// The verdicts for one gateway session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionCheck {
    pub gateway: String,
    pub session_key: String,
    /// The context clawdeck answered for (derived from the session key).
    pub context: PolicyContext,
    /// `agent ops` / `agent main, channel=telegram, group=-100`: the context compared, in words
    /// (beside the session key).
    pub context_label: String,
    pub comparison: Comparison,
}

/// The context a gateway session runs in, as far as its key tells: the agent, the key itself,
/// the channel and group of a `agent:<id>:<channel>:group|channel:<gid>` key, subagent-ness and
/// depth (`PolicyContext::with_session_key`, core's one parser of session keys). Everything else stays at its default (the agent's
/// own model, an owner, no forced sandbox), as the gateway resolves it for the session. Its
/// turns run on the gateway, whose host builds its own tools (`github_identity_status`).
pub fn session_context(session_key: &str) -> PolicyContext {
    PolicyContext {
        session_key: Some(session_key.trim().to_string()),
        gateway_run: true,
        ..PolicyContext::default()
    }
    .with_session_key()
}

/// The context to compare a gateway session in: what its key says (agent, channel, group, and
/// the key itself, from which the engine reads subagent-ness and depth), with the other context
/// flags (`flags`, e.g. `--sender-id`) on top. A flag that contradicts the key is an error
/// naming both: the gateway answers for the key, so comparing another context would report
/// disagreements that are not real.
pub fn context_for_session(
    flags: &PolicyContext,
    session_key: &str,
) -> Result<PolicyContext, String> {
    let key = session_key.trim();
    let from_key = session_context(key);
    let mut ctx = flags.clone();
    ctx.session_key = from_key.session_key;
    ctx.gateway_run = true;
    let contradiction = |flag: &str, given: &str, derived: &str, what: &str| {
        format!(
            "{flag} {given} contradicts the session key {key} (its {what} is {derived}); the gateway answers for the key, so leave {flag} out"
        )
    };
    for (flag, what, given, derived) in [
        ("--agent", "agent", &mut ctx.agent, from_key.agent),
        ("--channel", "channel", &mut ctx.channel, from_key.channel),
        ("--group", "group", &mut ctx.group, from_key.group),
    ] {
        match (given.as_deref(), derived) {
            (Some(g), Some(d)) if !g.eq_ignore_ascii_case(&d) => {
                return Err(contradiction(flag, g, &d, what));
            }
            (_, Some(d)) => *given = Some(d),
            (_, None) => {}
        }
    }
    if ctx.subagent && !crate::policy::sources::is_subagent_session_key(key) {
        return Err(format!(
            "--subagent contradicts the session key {key}, which is not a subagent key (agent:<id>:subagent:...); the gateway answers for the key, so leave --subagent out"
        ));
    }
    Ok(ctx)
}

/// What a comparison was made for, as reports name it: the session key and the context fields
/// that decide a session's tools.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedContext {
    pub session_key: Option<String>,
    pub agent: String,
    pub channel: Option<String>,
    pub group: Option<String>,
    pub subagent: bool,
}

impl ComparedContext {
    pub fn of(resolution: &crate::policy::Resolution) -> ComparedContext {
        ComparedContext {
            session_key: resolution.context.session_key.clone(),
            agent: resolution.resolved.agent.clone(),
            channel: resolution.context.channel.clone(),
            group: resolution.context.group.clone(),
            subagent: resolution.resolved.subagent,
        }
    }

    /// `agent ops, channel -, group -, subagent no`.
    pub fn label(&self) -> String {
        format!(
            "agent {}, channel {}, group {}, subagent {}",
            self.agent,
            self.channel.as_deref().unwrap_or("-"),
            self.group.as_deref().unwrap_or("-"),
            if self.subagent { "yes" } else { "no" }
        )
    }
}

/// Compares clawdeck's answer for the session's context with the gateway's `tools.effective`
/// payload (`groups[].tools[]`).
pub fn check_session(
    loaded: &LoadedConfig,
    registry: &Registry,
    gateway: &str,
    session_key: &str,
    tools_effective: &Value,
) -> Result<SessionCheck, String> {
    let context = session_context(session_key);
    let observed = ObservedView::from_tools_effective(tools_effective).ok_or_else(|| {
        format!("gateway {gateway}: the tools.effective answer has no groups[].tools[]")
    })?;
    let view = predict(loaded, registry, &context).map_err(|e| e.to_string())?;
    let comparison = compare_view(&view, registry, &observed);
    // The session key is named beside the label wherever it is shown.
    let without_key = PolicyContext {
        session_key: None,
        ..context.clone()
    };
    let context_label =
        crate::policy::diff::describe_context(&without_key, &view.resolution.resolved.agent);
    Ok(SessionCheck {
        gateway: gateway.to_string(),
        session_key: session_key.to_string(),
        context,
        context_label,
        comparison,
    })
}

/// Asks one gateway for a session's `tools.effective` over a connection of its own (opened,
/// asked, closed; bounded by `timeout` overall).
pub(crate) async fn ask_tools_effective(
    endpoint: GatewayEndpoint,
    identity: DeviceIdentity,
    session_key: &str,
    timeout: Duration,
) -> Result<Value, String> {
    let name = endpoint.name.clone();
    let ask = async {
        let client = GatewayClient::connect(
            endpoint,
            identity,
            ConnectOptions::default(),
            Backoff::default(),
        )
        .await
        .map_err(|e| e.to_string())?;
        let answer = client
            .request_with_timeout(
                "tools.effective",
                json!({ "sessionKey": session_key }),
                timeout,
            )
            .await
            .map_err(|e| e.to_string());
        client.close();
        answer
    };
    match tokio::time::timeout(timeout, ask).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(e)) => Err(format!("gateway {name}: tools.effective: {e}")),
        Err(_) => Err(format!(
            "gateway {name}: no tools.effective answer within {} s",
            timeout.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::comparison::Agreement;

    #[test]
    fn the_session_key_decides_the_context() {
        let ctx = session_context("agent:ops:main");
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        assert_eq!(ctx.session_key.as_deref(), Some("agent:ops:main"));
        assert_eq!((ctx.channel, ctx.group), (None, None));
        let group = session_context("agent:main:telegram:group:-100123");
        assert_eq!(group.agent.as_deref(), Some("main"));
        assert_eq!(group.channel.as_deref(), Some("telegram"));
        assert_eq!(group.group.as_deref(), Some("-100123"));
        assert_eq!(session_context("global").agent, None);
        assert_eq!(
            session_context("Agent:Ops:subagent:x").agent.as_deref(),
            Some("ops")
        );
    }

    #[test]
    fn flags_add_to_the_keys_context_and_may_not_contradict_it() {
        let flags = PolicyContext {
            sender_id: Some("42".into()),
            ..PolicyContext::default()
        };
        let ctx = context_for_session(&flags, "agent:ops:telegram:group:-100").unwrap();
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        assert_eq!(ctx.channel.as_deref(), Some("telegram"));
        assert_eq!(ctx.group.as_deref(), Some("-100"));
        assert_eq!(ctx.sender_id.as_deref(), Some("42"));
        let same = PolicyContext {
            agent: Some("OPS".into()),
            ..PolicyContext::default()
        };
        assert!(context_for_session(&same, "agent:ops:main").is_ok());
        let other = PolicyContext {
            agent: Some("main".into()),
            ..PolicyContext::default()
        };
        let err = context_for_session(&other, "agent:ops:main").unwrap_err();
        assert!(
            err.starts_with(
                "--agent main contradicts the session key agent:ops:main (its agent is ops)"
            ),
            "{err}"
        );
        let subagent = PolicyContext {
            subagent: true,
            ..PolicyContext::default()
        };
        assert!(context_for_session(&subagent, "agent:ops:main").is_err());
        assert!(context_for_session(&subagent, "agent:ops:subagent:x").is_ok());
        // A key that names no agent leaves the flags' agent (or the default) in place.
        assert_eq!(
            context_for_session(&other, "global")
                .unwrap()
                .agent
                .as_deref(),
            Some("main")
        );
    }

    #[test]
    fn the_compared_context_names_the_key_and_the_deciding_fields() {
        let loaded = crate::config::load_from_str(
            r#"{ agents: { list: [ { id: "main", default: true }, { id: "ops" } ] } }"#,
            "compared.json5",
        )
        .unwrap();
        let registry = Registry::build(&loaded, &crate::mcp_servers::ServerListing::Off);
        let ctx = context_for_session(&PolicyContext::default(), "agent:ops:subagent:s1").unwrap();
        let view = predict(&loaded, &registry, &ctx).unwrap();
        let compared = ComparedContext::of(&view.resolution);
        assert_eq!(
            compared.session_key.as_deref(),
            Some("agent:ops:subagent:s1")
        );
        assert_eq!(
            compared.label(),
            "agent ops, channel -, group -, subagent yes"
        );
    }

    /// The wiring: the session's agent is the one resolved, the payload is read as the
    /// gateway's list, and a tool the agent's policy denies but the gateway lists is an
    /// openclaw-only disagreement carrying clawdeck's deciding rule.
    #[test]
    fn a_session_is_compared_in_its_own_agents_context() {
        let loaded = crate::config::load_from_str(
            r#"{ agents: { list: [ { id: "main", default: true },
                                   { id: "ops", tools: { deny: ["exec"] } } ] } }"#,
            "session-test.json5",
        )
        .unwrap();
        let registry = Registry::build(&loaded, &crate::mcp_servers::ServerListing::Off);
        let predicted = predict(&loaded, &registry, &session_context("agent:ops:main")).unwrap();
        let visible: Vec<String> = predicted
            .resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !crate::comparison::own_tools(&registry).contains(n))
            .collect();
        assert!(!visible.iter().any(|t| t == "exec"), "{visible:?}");
        // The gateway lists exactly clawdeck's tools, plus exec.
        let mut tools: Vec<Value> = visible
            .iter()
            .map(|n| json!({"id": n, "source": "core"}))
            .collect();
        tools.push(json!({"id": "exec", "source": "core"}));
        let payload = json!({"agentId": "ops", "groups": [{"id": "core", "tools": tools}]});

        let check = check_session(&loaded, &registry, "gw", "agent:ops:main", &payload).unwrap();
        assert_eq!(check.context.agent.as_deref(), Some("ops"));
        assert_eq!(check.context_label, "agent ops");
        assert_eq!(check.comparison.policy_disagreements(), 1);
        let exec = check
            .comparison
            .verdicts
            .iter()
            .find(|v| v.tool == "exec")
            .unwrap();
        assert_eq!(exec.agreement, Agreement::OpenclawOnly);
        let rule = exec.clawdeck_rule.as_deref().unwrap();
        assert!(rule.contains("agents.list[1].tools.deny"), "{rule}");

        // The same payload asked for main's session: exec is visible there, so it agrees.
        let main = check_session(&loaded, &registry, "gw", "agent:main:main", &payload).unwrap();
        let exec = main
            .comparison
            .verdicts
            .iter()
            .find(|v| v.tool == "exec")
            .unwrap();
        assert_eq!(exec.agreement, Agreement::Agree);

        let err = check_session(&loaded, &registry, "gw", "agent:ops:main", &json!({"x": 1}))
            .unwrap_err();
        assert!(err.contains("groups[].tools[]"), "{err}");
    }

    /// What the pack records about tools.effective (2026.9: it lists computer, never lists
    /// transcripts or intent) is a surface difference, not a policy disagreement; any other
    /// difference still is one.
    #[test]
    fn the_packs_gateway_effective_rules_explain_only_what_they_name() {
        let loaded = crate::config::load_from_str(r#"{ tools: { profile: "coding" } }"#, "s.json5")
            .unwrap()
            .with_pack("2026.9")
            .unwrap();
        let registry = Registry::build(&loaded, &crate::mcp_servers::ServerListing::Off);
        let rules = &registry.semantics.gateway_effective;
        assert!(rules.also_lists.contains_key("computer"));
        assert!(rules.never_lists.contains_key("transcripts"));
        let predicted = predict(&loaded, &registry, &session_context("agent:main:main")).unwrap();
        let own = crate::comparison::own_tools(&registry);
        let visible: Vec<String> = predicted
            .resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !own.contains(n))
            .collect();
        assert!(visible.iter().any(|t| t == "intent"), "{visible:?}");
        // As the gateway lists it: no intent, no transcripts (if clawdeck shows it), computer
        // added, and read missing (a real disagreement).
        let mut listed: Vec<Value> = visible
            .iter()
            .filter(|t| !["intent", "transcripts", "read"].contains(&t.as_str()))
            .map(|t| json!({"id": t}))
            .collect();
        listed.push(json!({"id": "computer"}));
        let payload = json!({"groups": [{"id": "core", "tools": listed}]});
        let check = check_session(&loaded, &registry, "gw", "agent:main:main", &payload).unwrap();
        let c = &check.comparison;
        let disagreeing: Vec<&str> = c
            .verdicts
            .iter()
            .filter(|v| v.is_policy_disagreement())
            .map(|v| v.tool.as_str())
            .collect();
        assert_eq!(disagreeing, ["read"]);
        let explained: Vec<&str> = c
            .verdicts
            .iter()
            .filter(|v| v.surface_note.is_some())
            .map(|v| v.tool.as_str())
            .collect();
        assert!(
            explained.contains(&"computer") && explained.contains(&"intent"),
            "{explained:?}"
        );
        assert!(
            explained
                .iter()
                .all(|t| ["computer", "intent", "transcripts"].contains(t))
        );
        assert_eq!(c.surface_differences(), explained.len());
        assert!(
            c.summary().contains("listed differently by the surface"),
            "{}",
            c.summary()
        );
        assert!(
            c.notes
                .iter()
                .any(|n| n.starts_with("intent: tools.effective never lists it"))
        );
    }
}
