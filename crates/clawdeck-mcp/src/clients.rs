//! Which policy context an MCP session gets. The server decides, never the client: the context
//! comes from the command's flags, or from clawdeck.json5 `mcp.clients` matched by the name the
//! client announces at `initialize` (stdio) or by the bearer token it presents (HTTP). Nothing a
//! client sends in a call (arguments, `_meta`) can change it, so a client never widens its own
//! context. The lane its calls wait in is decided the same way (`--lane`, an entry's `lane`).

pub use crate::config::mcp_settings::{McpClientEntry, McpSettings};
use crate::context::PolicyContext;

/// What a client gets when no `mcp.clients` entry matches it: the command's flags.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FlagContext {
    /// `--agent`, `--channel`, `--not-owner`, `--sandboxed`, ...
    pub context: PolicyContext,
    /// `--lane`; None: `main` (or `subagent` for a subagent context).
    pub lane: Option<String>,
}

impl From<PolicyContext> for FlagContext {
    fn from(context: PolicyContext) -> FlagContext {
        FlagContext {
            context,
            lane: None,
        }
    }
}

/// A session's identity and context, fixed when it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientIdentity {
    /// The client's name as the log shows it (`clientInfo.name`, or the matching entry's name).
    pub label: String,
    pub context: PolicyContext,
    /// The lane its calls wait in; None: the pipeline's default.
    pub lane: Option<String>,
    /// Where the context came from, for people: `flags`, `mcp.clients[2]`.
    pub origin: String,
}

/// Picks the context and lane for a client: the first `mcp.clients` entry whose token or name
/// matches decides both, else the flags do.
pub(crate) fn identify(
    settings: &McpSettings,
    flags: &FlagContext,
    client_name: Option<&str>,
    bearer: Option<&str>,
) -> ClientIdentity {
    let by_token = bearer.and_then(|token| {
        settings
            .clients
            .iter()
            .enumerate()
            .find(|(_, c)| c.token.as_deref() == Some(token))
    });
    let by_name = || {
        client_name.and_then(|name| {
            settings
                .clients
                .iter()
                .enumerate()
                .find(|(_, c)| c.token.is_none() && c.name.as_deref() == Some(name))
        })
    };
    match by_token.or_else(by_name) {
        Some((index, entry)) => ClientIdentity {
            label: client_name
                .map(str::to_string)
                .unwrap_or_else(|| entry.label()),
            context: entry.context(),
            lane: entry.lane.clone(),
            origin: format!("mcp.clients[{index}]"),
        },
        None => ClientIdentity {
            label: client_name.unwrap_or("unnamed client").to_string(),
            context: flags.context.clone().with_session_key(),
            lane: flags.lane.clone(),
            origin: "flags".to_string(),
        },
    }
}

/// Whether a bearer token lets a client in: the server's own token, or a client entry's.
#[cfg(any(test, feature = "http-server"))]
pub(crate) fn token_admits(settings: &McpSettings, server_token: &str, presented: &str) -> bool {
    constant_time_eq(server_token.as_bytes(), presented.as_bytes())
        || settings
            .clients
            .iter()
            .filter_map(|c| c.token.as_deref())
            .any(|t| constant_time_eq(t.as_bytes(), presented.as_bytes()))
}

/// Compares without an early exit, so response time does not leak how much of a token matched.
#[cfg(any(test, feature = "http-server"))]
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> McpSettings {
        McpSettings {
            clients: vec![
                McpClientEntry {
                    name: Some("claude-code".into()),
                    token: None,
                    context: PolicyContext {
                        agent: Some("ops".into()),
                        owner: Some(false),
                        ..Default::default()
                    },
                    lane: Some("mcp".into()),
                },
                McpClientEntry {
                    name: Some("ci".into()),
                    token: Some("tok-ci".into()),
                    context: PolicyContext {
                        sandboxed: true,
                        ..Default::default()
                    },
                    lane: None,
                },
            ],
            ..McpSettings::default()
        }
    }

    #[test]
    fn a_session_key_alone_sets_a_clients_context() {
        let mut settings = settings();
        settings.clients[0].context = PolicyContext {
            session_key: Some("agent:ops:subagent:a:subagent:b".into()),
            ..Default::default()
        };
        let entry = identify(
            &settings,
            &FlagContext::default(),
            Some("claude-code"),
            None,
        );
        assert_eq!(entry.context.agent.as_deref(), Some("ops"));
        assert!(entry.context.subagent);
        assert_eq!(entry.context.subagent_depth, Some(2));
        let flags = FlagContext::from(PolicyContext {
            session_key: Some("agent:main:slack:channel:c0123abc".into()),
            channel: Some("slack".into()),
            ..Default::default()
        });
        let by_flags = identify(&settings, &flags, Some("inspector"), None);
        assert_eq!(by_flags.context.agent.as_deref(), Some("main"));
        assert_eq!(by_flags.context.channel.as_deref(), Some("slack"));
        assert_eq!(by_flags.context.group.as_deref(), Some("c0123abc"));
    }

    #[test]
    fn a_named_client_gets_its_entry_and_others_get_the_flags() {
        let flags = FlagContext {
            context: PolicyContext {
                agent: Some("main".into()),
                ..Default::default()
            },
            lane: Some("cli".into()),
        };
        let known = identify(&settings(), &flags, Some("claude-code"), None);
        assert_eq!(known.context.agent.as_deref(), Some("ops"));
        assert_eq!(known.context.owner, Some(false));
        assert_eq!(known.lane.as_deref(), Some("mcp"));
        assert_eq!(known.origin, "mcp.clients[0]");
        let other = identify(&settings(), &flags, Some("inspector"), None);
        assert_eq!(other.context, flags.context);
        assert_eq!(other.lane.as_deref(), Some("cli"));
        assert_eq!(other.origin, "flags");
        // An entry without a lane decides that too: the pipeline's default, not the flags'.
        let ci = identify(&settings(), &flags, None, Some("tok-ci"));
        assert_eq!(ci.lane, None);
    }

    #[test]
    fn a_token_entry_is_matched_by_its_token_not_by_the_name_a_client_claims() {
        let flags = FlagContext::default();
        // Claiming the name of a token-bound entry without its token gets nothing of it.
        let claimed = identify(&settings(), &flags, Some("ci"), None);
        assert_eq!(claimed.origin, "flags");
        let real = identify(&settings(), &flags, Some("whatever"), Some("tok-ci"));
        assert!(real.context.sandboxed);
        assert_eq!(real.origin, "mcp.clients[1]");
    }

    #[test]
    fn entries_read_camel_case_context_keys() {
        let text = r#"{ clients: [{ name: "bot", context: { senderId: "u1", subagentDepth: 2, owner: false } }] }"#;
        let settings: McpSettings = json5::from_str(text).unwrap();
        let id = identify(&settings, &FlagContext::default(), Some("bot"), None);
        assert_eq!(id.context.sender_id.as_deref(), Some("u1"));
        assert!(id.context.subagent, "a depth makes a subagent");
        assert_eq!(id.context.owner, Some(false));
    }

    #[test]
    fn an_entrys_lane_is_read_and_checked_where_it_stands() {
        use crate::config::parse_settings;
        let settings = parse_settings(
            r#"{ mcp: { clients: [{ name: "bot", lane: "mcp", context: { agent: "ops" } }] } }"#,
            "clawdeck.json5",
        )
        .unwrap();
        let id = identify(&settings.mcp, &FlagContext::default(), Some("bot"), None);
        assert_eq!(id.lane.as_deref(), Some("mcp"));
        // An unknown key of an entry is an error with its line and key path.
        let unknown = parse_settings(
            "{\n  mcp: {\n    clients: [\n      { name: \"bot\", lnae: \"x\" },\n    ],\n  },\n}",
            "clawdeck.json5",
        )
        .unwrap_err();
        assert_eq!(unknown.line, Some(4), "{unknown}");
        assert!(
            unknown
                .key_path
                .as_deref()
                .is_some_and(|p| p.contains("lnae")),
            "{unknown}"
        );
        // A lane the queue could not show is one too.
        let blank = parse_settings(
            "{ mcp: { clients: [{ name: \"bot\" }, { name: \"b2\", lane: \"  \" }] } }",
            "clawdeck.json5",
        )
        .unwrap_err();
        assert_eq!(
            blank.key_path.as_deref(),
            Some("mcp.clients[1].lane"),
            "{blank}"
        );
        assert!(blank.to_string().contains("blank"), "{blank}");
    }

    #[test]
    fn an_unknown_context_key_is_an_error() {
        let text = r#"{ clients: [{ name: "bot", context: { agnet: "ops" } }] }"#;
        let err = json5::from_str::<McpSettings>(text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("agnet"), "{err}");
    }

    #[test]
    fn tokens_admit_exactly() {
        assert!(token_admits(&settings(), "server", "server"));
        assert!(token_admits(&settings(), "server", "tok-ci"));
        assert!(!token_admits(&settings(), "server", "serve"));
        assert!(!token_admits(&settings(), "server", ""));
    }
}
