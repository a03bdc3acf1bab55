//! A session key alone sets the console's context: the bar shows what the key says (dimmed,
//! marked as the key's), and the policy is the Slack channel's.

use super::harness::Harness;
use crate::context::PolicyContext;

const SLACK_CONFIG: &str = r#"{
  agents: { list: [{ id: "main", default: true }, { id: "ops" }] },
  channels: { slack: { channels: { C0123ABC: { tools: { deny: ["exec"] } } } } },
}"#;

/// A console on the Slack config (2026.9 pack).
fn slack_console() -> Harness {
    let mut h = Harness::new();
    let config = crate::config::load_from_str(SLACK_CONFIG, "slack.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    h.app.set_config(config);
    h
}

#[test]
fn a_session_key_alone_sets_agent_channel_and_group_in_the_console() {
    let mut h = slack_console();
    h.set_context(PolicyContext {
        session_key: Some("agent:ops:slack:channel:c0123abc".into()),
        ..PolicyContext::default()
    });
    let resolution = h.app.policy.resolution.as_ref().unwrap();
    assert_eq!(resolution.resolved.agent, "ops");
    let exec = resolution.trace("exec").unwrap();
    assert!(!exec.visible);
    assert_eq!(
        exec.removed_by.as_ref().unwrap().config_path.as_deref(),
        Some("channels.slack.channels.C0123ABC.tools.deny[0]")
    );
    let bar = h.context_bar();
    assert!(bar.contains("agent ops (session key)"), "{bar}");
    assert!(bar.contains("channel slack (session key)"), "{bar}");
    assert!(bar.contains("group c0123abc (session key)"), "{bar}");
    insta::assert_snapshot!("context_bar_from_a_session_key", bar);
}

#[test]
fn a_turn_over_another_channel_than_the_session_keys_shows_both() {
    let mut h = slack_console();
    // The owner at webchat, in the Slack channel's session: Slack's policy, webchat's turn.
    h.set_context(PolicyContext {
        session_key: Some("agent:ops:slack:channel:c0123abc".into()),
        channel: Some("webchat".into()),
        ..PolicyContext::default()
    });
    let resolved = &h.app.policy.resolution.as_ref().unwrap().resolved;
    assert_eq!(resolved.channel.as_deref(), Some("slack"));
    assert_eq!(resolved.turn_channel.as_deref(), Some("webchat"));
    let bar = h.context_bar();
    assert!(
        bar.contains("channel slack (the session key's; turn over webchat)"),
        "{bar}"
    );
    insta::assert_snapshot!("context_bar_turn_over_another_channel", bar);
}
