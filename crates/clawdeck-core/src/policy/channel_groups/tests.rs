//! One test per channel plugin rule (each has a fidelity case against real OpenClaw too:
//! tests/fixtures/fidelity/slack-*, discord-*, channel-not-modelled).

use super::slack;
use crate::catalog::Registry;
use crate::config::load_from_str_with_pack;
use crate::context::PolicyContext;
use crate::policy::{LayerId, Resolution, resolve};

fn run(config: &str, key: &str) -> Resolution {
    run_ctx(
        config,
        PolicyContext {
            session_key: Some(key.into()),
            ..PolicyContext::default()
        },
    )
}

fn run_ctx(config: &str, ctx: PolicyContext) -> Resolution {
    run_pack(config, ctx, "2026.9")
}

fn run_pack(config: &str, ctx: PolicyContext, pack: &str) -> Resolution {
    let cfg = load_from_str_with_pack(config, "test.json5", pack).unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    resolve(&cfg, &registry, &ctx).unwrap()
}

fn visible(res: &Resolution, tool: &str) -> bool {
    res.trace(tool).unwrap().visible
}

/// Where the group layer's removal of `tool` is written.
fn group_rule(res: &Resolution, tool: &str) -> String {
    let removal = res.trace(tool).unwrap().removed_by.clone().unwrap();
    assert_eq!(removal.layer, LayerId::Group, "{removal:?}");
    removal.config_path.unwrap_or_default()
}

#[test]
fn slack_tries_the_id_as_given_lower_and_upper_cased() {
    assert_eq!(
        slack::candidates("c0123abc", false),
        [
            "c0123abc",
            "C0123ABC",
            "channel:c0123abc",
            "channel:C0123ABC"
        ]
    );
    let res = run(
        r#"{ channels: { slack: { channels: { C0123ABC: { tools: { deny: ["exec"] } } } } } }"#,
        "agent:main:slack:channel:c0123abc",
    );
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.slack.channels.C0123ABC.tools.deny[0]"
    );
}

#[test]
fn slack_takes_one_entry_without_falling_back_to_the_wildcard() {
    let config = r#"{ channels: { slack: { channels: {
        C0123ABC: { requireMention: false },
        "*": { tools: { deny: ["exec"] } } } } } }"#;
    let res = run(config, "agent:main:slack:channel:c0123abc");
    assert!(
        visible(&res, "exec"),
        "the entry without tools gives no policy"
    );
    // Another channel has no entry of its own: "*" applies.
    let other = run(config, "agent:main:slack:channel:c999");
    assert_eq!(
        group_rule(&other, "exec"),
        "channels.slack.channels.\"*\".tools.deny[0]"
    );
}

#[test]
fn slack_tools_by_sender_wildcard_replaces_the_entrys_tools() {
    let config = r#"{ channels: { slack: { channels: { C1: {
        tools: { deny: ["exec"] },
        toolsBySender: { "*": { deny: ["browser"] } } } } } } }"#;
    let res = run(config, "agent:main:slack:channel:c1");
    assert!(visible(&res, "exec"));
    assert_eq!(
        group_rule(&res, "browser"),
        "channels.slack.channels.C1.toolsBySender.\"*\".deny[0]"
    );
}

#[test]
fn slack_groups_table_is_not_its_channel_policy() {
    // Slack keeps a channel's policy in channels.slack.channels only: OpenClaw 2026.9's schema
    // has no channels.slack.groups, so a config with one is refused at that key.
    let refused = load_from_str_with_pack(
        r#"{ channels: { slack: { channels: { C1: { tools: { deny: ["exec"] } } },
              groups: { c1: { tools: { deny: ["browser"] } } } } } }"#,
        "test.json5",
        "2026.9",
    )
    .expect_err("refused");
    assert_eq!(refused.key_path.as_deref(), Some("channels.slack"));
    let res = run(
        r#"{ channels: { slack: { channels: { C1: { tools: { deny: ["exec"] } } } } } }"#,
        "agent:main:slack:channel:c1",
    );
    assert!(!visible(&res, "exec"));
    assert!(visible(&res, "browser"));
}

#[test]
fn discord_reads_the_wildcard_guild_and_its_channel() {
    let config = r#"{ channels: { discord: { guilds: { "*": {
        tools: { deny: ["browser"] },
        channels: { "123": { tools: { deny: ["exec"] } }, "456": { requireMention: true } } },
        "999": { tools: { deny: ["canvas"] } } } } } }"#;
    let res = run(config, "agent:main:discord:channel:123");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.discord.guilds.\"*\".channels.\"123\".tools.deny[0]"
    );
    assert!(visible(&res, "browser"), "the channel's policy wins");
    assert!(visible(&res, "canvas"), "no guild in the context");
    // A channel entry without tools: the guild's.
    let bare = run(config, "agent:main:discord:channel:456");
    assert_eq!(
        group_rule(&bare, "browser"),
        "channels.discord.guilds.\"*\".tools.deny[0]"
    );
}

#[test]
fn matrix_rooms_keep_their_case_and_read_tools_only() {
    let config = r#"{ channels: { matrix: { groups: {
        "!Room:example.org": { tools: { deny: ["exec"] } },
        "*": { tools: { deny: ["canvas"] } } } } } }"#;
    let res = run(config, "agent:main:matrix:channel:!Room:example.org");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.matrix.groups.\"!Room:example.org\".tools.deny[0]"
    );
    // The room's own entry, not "*" as well.
    assert!(visible(&res, "canvas"));
    // OpenClaw 2026.9's schema has no toolsBySender for Matrix rooms: such a config is refused.
    let refused = load_from_str_with_pack(
        r#"{ channels: { matrix: { groups: { "!R:x": { toolsBySender: { "*": { deny: ["exec"] } } } } } } }"#,
        "test.json5",
        "2026.9",
    )
    .expect_err("refused");
    assert!(refused.message.contains("toolsBySender"), "{refused:?}");
}

#[test]
fn a_channel_the_pack_does_not_name_says_so_and_reads_its_groups() {
    let res = run(
        r#"{ channels: { irc: { groups: { town: { tools: { deny: ["exec"] } } } } } }"#,
        "agent:main:irc:group:town",
    );
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.irc.groups.town.tools.deny[0]"
    );
    let note = res
        .warnings
        .iter()
        .find(|w| w.message.contains("channel irc: group policy not modelled"))
        .expect("a note on the channel");
    assert!(note.message.contains("read channels.irc.groups"));
    // A modelled channel has no such note.
    let known = run(
        r#"{ channels: { telegram: {} } }"#,
        "agent:main:telegram:group:-1",
    );
    assert!(
        !known
            .warnings
            .iter()
            .any(|w| w.message.contains("not modelled"))
    );
}

#[test]
fn the_seed_pack_reads_groups_for_every_channel() {
    let cfg = load_from_str_with_pack(
        r#"{ channels: { slack: { groups: { c1: { tools: { deny: ["exec"] } } } } } }"#,
        "test.json5",
        "seed",
    )
    .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let ctx = PolicyContext {
        channel: Some("slack".into()),
        group: Some("c1".into()),
        ..PolicyContext::default()
    };
    let res = resolve(&cfg, &registry, &ctx).unwrap();
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.slack.groups.c1.tools.deny[0]"
    );
    assert!(res.warnings.is_empty(), "{:?}", res.warnings);
}

#[test]
fn slack_of_openclaw_2026_8_matches_the_channel_id_exactly_as_given() {
    assert_eq!(slack::candidates("c0123abc", true), ["c0123abc"]);
    let config = r#"{ channels: { slack: { channels: {
        C0123ABC: { tools: { deny: ["exec"] } },
        "*": { tools: { deny: ["read"] } } } } } }"#;
    let ctx = || PolicyContext {
        session_key: Some("agent:main:slack:channel:c0123abc".into()),
        ..PolicyContext::default()
    };
    // 2026.9's plugin finds the upper-case entry; 2026.8's falls through to "*".
    let today = run_pack(config, ctx(), "2026.9");
    assert!(!visible(&today, "exec"));
    assert!(visible(&today, "read"));
    let old = run_pack(config, ctx(), "2026.8");
    assert!(
        visible(&old, "exec"),
        "2026.8 matched C0123ABC case-insensitively"
    );
    assert_eq!(
        group_rule(&old, "read"),
        r#"channels.slack.channels."*".tools.deny[0]"#
    );
}
