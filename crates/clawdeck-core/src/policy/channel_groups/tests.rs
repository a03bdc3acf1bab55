//! One test per channel plugin rule; each has a fidelity case against real OpenClaw too
//! (tests/fixtures/fidelity/slack-*, matrix-*, irc-*, msteams-*, ...), but Discord's, which
//! cannot run there (OpenClaw loads its plugin only when trusted, never from a path).

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
    // A third-party channel plugin's resolver is unknown: its groups are read, with a note.
    let res = run(
        r#"{ channels: { acmechat: { groups: { town: { tools: { deny: ["exec"] } } } } } }"#,
        "agent:main:acmechat:group:town",
    );
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.acmechat.groups.town.tools.deny[0]"
    );
    let note = res
        .warnings
        .iter()
        .find(|w| {
            w.message
                .contains("channel acmechat: group policy not modelled")
        })
        .expect("a note on the channel");
    assert!(note.message.contains("read channels.acmechat.groups"));
    // A modelled channel has no such note.
    let known = run(
        r##"{ channels: { irc: { groups: { "#town": { tools: { deny: ["exec"] } } } } } }"##,
        "agent:main:irc:group:#town",
    );
    assert!(!visible(&known, "exec"));
    assert!(
        !known
            .warnings
            .iter()
            .any(|w| w.message.contains("not modelled"))
    );
}

#[test]
fn telegram_reads_a_topic_by_its_chat_before_a_literal_topic_key() {
    let config = r#"{ channels: { telegram: { groups: {
        "-100123": { tools: { deny: ["exec"] } },
        "-100123:topic:7": { tools: { deny: ["browser"] } } } } } }"#;
    let res = run(config, "agent:main:telegram:group:-100123:topic:7");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.telegram.groups.\"-100123\".tools.deny[0]"
    );
    assert!(
        visible(&res, "browser"),
        "the topic's literal key is not read"
    );
}

#[test]
fn no_account_reads_the_default_account_and_an_empty_one_inherits() {
    let config = r#"{ channels: { telegram: {
        groups: { "-1": { tools: { deny: ["exec"] } } },
        accounts: { default: { groups: { "-1": { tools: { deny: ["browser"] } } } } } } } }"#;
    let res = run(config, "agent:main:telegram:group:-1");
    assert_eq!(
        group_rule(&res, "browser"),
        "channels.telegram.accounts.default.groups.\"-1\".tools.deny[0]"
    );
    assert!(
        visible(&res, "exec"),
        "the account's map replaces the channel's"
    );
    let inherits = run(
        r#"{ channels: { telegram: {
            groups: { "-1": { tools: { deny: ["exec"] } } },
            accounts: { default: { groups: {} } } } } }"#,
        "agent:main:telegram:group:-1",
    );
    assert_eq!(
        group_rule(&inherits, "exec"),
        "channels.telegram.groups.\"-1\".tools.deny[0]"
    );
}

#[test]
fn feishu_matches_ignoring_case_and_reads_only_the_channels_groups() {
    let config = r#"{ channels: { feishu: {
        groups: { OC_ABC: { tools: { deny: ["exec"] } }, "*": { tools: { deny: ["browser"] } } },
        accounts: { default: { groups: { oc_abc: { tools: { deny: ["canvas"] } } } } } } } }"#;
    let res = run(config, "agent:main:feishu:group:oc_abc");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.feishu.groups.OC_ABC.tools.deny[0]"
    );
    assert!(
        visible(&res, "canvas"),
        "the plugin reads no account's groups"
    );
    assert!(visible(&res, "browser"), "one entry");
}

#[test]
fn irc_falls_back_to_the_wildcards_tools_and_needs_the_hash() {
    let config = r##"{ channels: { irc: { groups: {
        "#Dev": { requireMention: true },
        "dev": { tools: { deny: ["canvas"] } },
        "*": { tools: { deny: ["exec"] } } } } } }"##;
    let res = run(config, "agent:main:irc:group:#dev");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.irc.groups.\"*\".tools.deny[0]"
    );
    assert!(visible(&res, "canvas"), "`dev` is not `#dev`");
}

#[test]
fn msteams_reads_the_wildcard_team_then_scans_the_teams() {
    let config = r#"{ channels: { msteams: { teams: {
        "*": { tools: { deny: ["browser"] }, channels: { "19:abc@thread.tacv2": { tools: { deny: ["exec"] } } } },
        "team-b": { tools: { deny: ["canvas"] }, channels: { "19:other@thread.tacv2": { requireMention: true } } } } } } }"#;
    let res = run(config, "agent:main:msteams:channel:19:abc@thread.tacv2");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.msteams.teams.\"*\".channels.\"19:abc@thread.tacv2\".tools.deny[0]"
    );
    assert!(visible(&res, "browser"), "the channel's policy wins");
    // A conversation the wildcard team does not list: its own tools, so no scan.
    let team = run(config, "agent:main:msteams:channel:19:new@thread.tacv2");
    assert_eq!(
        group_rule(&team, "browser"),
        "channels.msteams.teams.\"*\".tools.deny[0]"
    );
    // Without a wildcard team, the team that lists the conversation answers (by slug).
    let scanned = run(
        r#"{ channels: { msteams: { teams: {
            "team-b": { tools: { deny: ["canvas"] }, channels: { "19:OTHER@thread.tacv2": { requireMention: true } } } } } } }"#,
        "agent:main:msteams:channel:19:other@thread.tacv2",
    );
    assert_eq!(
        group_rule(&scanned, "canvas"),
        "channels.msteams.teams.\"team-b\".tools.deny[0]"
    );
}

#[test]
fn nextcloud_talk_matches_rooms_by_slug_and_falls_back_to_the_wildcard() {
    let config = r#"{ channels: { "nextcloud-talk": { rooms: {
        ABCD1234: { tools: { deny: ["exec"] } },
        "*": { tools: { deny: ["browser"] } } } } } }"#;
    let res = run(config, "agent:main:nextcloud-talk:group:abcd1234");
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.\"nextcloud-talk\".rooms.ABCD1234.tools.deny[0]"
    );
    let other = run(config, "agent:main:nextcloud-talk:group:zz");
    assert_eq!(
        group_rule(&other, "browser"),
        "channels.\"nextcloud-talk\".rooms.\"*\".tools.deny[0]"
    );
}

#[test]
fn zalouser_takes_one_entry_exactly() {
    let config = r#"{ channels: { zalouser: { groups: {
        "123": { requireMention: true },
        "*": { tools: { deny: ["exec"] } } } } } }"#;
    let res = run(config, "agent:main:zalouser:group:123");
    // The plugin gives nothing for an entry without tools; OpenClaw's generic reader then
    // reads the same groups, entry then "*".
    assert_eq!(
        group_rule(&res, "exec"),
        "channels.zalouser.groups.\"*\".tools.deny[0]"
    );
}

#[test]
fn matrix_merges_the_accounts_rooms_key_by_key_and_skips_other_accounts() {
    let config = r#"{ channels: { matrix: {
        groups: {
            "!a:x": { tools: { deny: ["exec"] } },
            "!b:x": { account: "work", tools: { deny: ["browser"] } } },
        accounts: { default: { groups: { "!c:x": { tools: { deny: ["canvas"] } } } } } } } }"#;
    let a = run(config, "agent:main:matrix:channel:!a:x");
    assert_eq!(
        group_rule(&a, "exec"),
        "channels.matrix.groups.\"!a:x\".tools.deny[0]"
    );
    let b = run(config, "agent:main:matrix:channel:!b:x");
    assert!(visible(&b, "browser"), "scoped to another account");
    let c = run(config, "agent:main:matrix:channel:!c:x");
    assert_eq!(
        group_rule(&c, "canvas"),
        "channels.matrix.accounts.default.groups.\"!c:x\".tools.deny[0]"
    );
}

#[test]
fn an_empty_policy_is_no_policy() {
    // Slack's entry has tools, but nothing in them: OpenClaw asks the generic reader next.
    let res = run(
        r#"{ channels: { slack: { channels: { C1: { tools: {} } } } } }"#,
        "agent:main:slack:channel:c1",
    );
    assert!(visible(&res, "exec"));
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
