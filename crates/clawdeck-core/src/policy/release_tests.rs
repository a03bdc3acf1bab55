//! What the shipped release packs change in the chain: the same config under 2026.8 and 2026.9,
//! each difference read from the pack (captured from openclaw@2026.8.2 and 2026.9.6).

use super::*;
use crate::catalog::Registry;
use crate::config::load_from_str_with_pack;
use crate::context::PolicyContext;

fn resolve_in(pack: &str, config: &str, ctx: &PolicyContext) -> Resolution {
    let cfg = load_from_str_with_pack(config, "test.json5", pack).unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    resolve(&cfg, &registry, ctx).unwrap()
}

fn visible_in(pack: &str, config: &str, ctx: &PolicyContext, tool: &str) -> bool {
    let res = resolve_in(pack, config, ctx);
    res.trace(tool)
        .unwrap_or_else(|| panic!("{pack} has no {tool}"))
        .visible
}

fn subagent() -> PolicyContext {
    PolicyContext {
        subagent: true,
        ..PolicyContext::default()
    }
}

#[test]
fn a_plugin_tool_pattern_selects_nothing_in_2026_8() {
    let pattern = "{ tools: { allow: ['read', 'memory_*'] } }";
    assert!(visible_in(
        "2026.9",
        pattern,
        &PolicyContext::default(),
        "memory_search"
    ));
    assert!(!visible_in(
        "2026.8",
        pattern,
        &PolicyContext::default(),
        "memory_search"
    ));
    let res = resolve_in("2026.8", pattern, &PolicyContext::default());
    let removed = res
        .trace("memory_search")
        .unwrap()
        .removed_by
        .clone()
        .unwrap();
    assert_eq!(removed.builtin.as_deref(), Some(plugin_selection::RULE));
    // The exact name still selects it.
    let exact = "{ tools: { allow: ['read', 'memory_search'] } }";
    assert!(visible_in(
        "2026.8",
        exact,
        &PolicyContext::default(),
        "memory_search"
    ));
}

#[test]
fn a_subagent_is_a_leaf_by_default_and_keeps_progress_card_in_2026_8() {
    let config = "{}";
    // 2026.9: default maxSpawnDepth 5, so depth 1 orchestrates; progress_card always denied.
    assert!(visible_in("2026.9", config, &subagent(), "sessions_spawn"));
    assert!(!visible_in("2026.9", config, &subagent(), "progress_card"));
    // 2026.8: default 1, so depth 1 is a leaf; progress_card is not in the always-deny list.
    assert!(!visible_in("2026.8", config, &subagent(), "sessions_spawn"));
    assert!(!visible_in("2026.8", config, &subagent(), "subagents"));
    assert!(visible_in("2026.8", config, &subagent(), "progress_card"));
    // A configured depth makes it an orchestrator again.
    let deeper = "{ agents: { defaults: { subagents: { maxSpawnDepth: 2 } } } }";
    assert!(visible_in("2026.8", deeper, &subagent(), "sessions_spawn"));
}

#[test]
fn no_profile_lists_gateway_and_group_openclaw_lacks_openclaw_in_2026_8() {
    let none = PolicyContext::default();
    for profile in ["minimal", "coding", "messaging"] {
        let config = format!("{{ tools: {{ profile: '{profile}' }} }}");
        assert!(visible_in("2026.9", &config, &none, "gateway"), "{profile}");
        assert!(
            !visible_in("2026.8", &config, &none, "gateway"),
            "{profile}"
        );
    }
    let group = "{ tools: { allow: ['group:openclaw'] } }";
    assert!(visible_in("2026.9", group, &none, "openclaw"));
    assert!(!visible_in("2026.8", group, &none, "openclaw"));
    assert!(visible_in("2026.8", group, &none, "gateway"));
    assert!(
        visible_in("2026.8", "{}", &none, "openclaw"),
        "2026.8 has the tool"
    );
}

#[test]
fn the_2026_8_pack_says_slack_channel_keys_match_case_sensitively() {
    let old = crate::semantics::embedded("2026.8").unwrap();
    assert_eq!(old.channel_keys_case_sensitive, vec!["slack".to_string()]);
    assert!(!old.plugin_allowlist_patterns);
    let today = crate::semantics::embedded("2026.9").unwrap();
    assert!(today.channel_keys_case_sensitive.is_empty());
    assert!(today.plugin_allowlist_patterns);
}

/// A job an agent made in `agent:main:main` (no channel in its creator's key) from the
/// Telegram account `work`: 2026.9 looks for the account in the channel the creator's turn
/// came over, 2026.8 in the job's own delivery's (seen on both releases:
/// tests/fixtures/fidelity/agent-job-*-main-session).
#[test]
fn where_a_job_finds_its_creators_account_is_the_releases_rule() {
    let config =
        "{ channels: { telegram: { botToken: '1:a', accounts: { work: { botToken: '2:b' } } } } }";
    let job = |channel: Option<&str>, creator: Option<&str>| PolicyContext {
        scheduled_tools: Some(vec!["read".into()]),
        scheduled_delivery: channel.map(|_| crate::context::ScheduledDelivery::Announce),
        channel: channel.map(str::to_string),
        job_owner: Some("agent:main:main".into()),
        job_owner_account: Some("work".into()),
        job_owner_channel: creator.map(str::to_string),
        ..PolicyContext::default()
    };
    let refused = |pack: &str, ctx: &PolicyContext| resolve_in(pack, config, ctx).refusal.is_some();
    let announcing = job(Some("telegram"), None);
    assert!(refused("2026.9", &announcing));
    assert!(!refused("2026.8", &announcing));
    let over_telegram = job(None, Some("telegram"));
    assert!(!refused("2026.9", &over_telegram));
    assert!(refused("2026.8", &over_telegram));
    assert!(
        !crate::semantics::embedded("2026.8")
            .unwrap()
            .creator_channel_from_turn
    );
    assert!(
        crate::semantics::embedded("2026.9")
            .unwrap()
            .creator_channel_from_turn
    );
}

/// Issue 33 item 1: with Tool Search on (2026.9's default) OpenClaw adds its controls to every
/// layer's allowlist, and `allow: []` is an allowlist there: the layer keeps only the controls.
/// With Tool Search off, `[]` restricts nothing.
#[test]
fn an_empty_allowlist_with_tool_search_on_keeps_no_tool() {
    let none = PolicyContext::default();
    let sandboxed = "{ agents: { defaults: { sandbox: { mode: 'all' } } },
        tools: { sandbox: { tools: { allow: [] } } } }";
    let res = resolve_in("2026.9", sandboxed, &none);
    assert_eq!(res.visible_names(), Vec::<&str>::new());
    assert_eq!(
        res.refusal, None,
        "the controls are still sent: not refused"
    );
    let read = res.trace("read").unwrap();
    let removal = read.removed_by.as_ref().unwrap();
    assert_eq!(removal.layer, LayerId::Sandbox);
    assert_eq!(
        removal.config_path.as_deref(),
        Some("tools.sandbox.tools.allow")
    );
    assert!(removal.reason.contains("Tool Search"), "{}", removal.reason);
    let off = "{ agents: { defaults: { sandbox: { mode: 'all' } } },
        tools: { toolSearch: false, sandbox: { tools: { allow: [] } } } }";
    assert!(visible_in("2026.9", off, &none, "read"));
    assert!(visible_in("2026.9", off, &none, "exec"));

    // Every other allowlist the same: global, the agent's, a provider's.
    for (config, layer) in [
        ("{ tools: { allow: [] } }", LayerId::Global),
        (
            "{ agents: { list: [{ id: 'main', tools: { allow: [] } }] } }",
            LayerId::Agent,
        ),
        (
            "{ tools: { byProvider: { anthropic: { allow: [] } } } }",
            LayerId::GlobalProvider,
        ),
    ] {
        let ctx = PolicyContext {
            provider: Some("anthropic".into()),
            ..PolicyContext::default()
        };
        let res = resolve_in("2026.9", config, &ctx);
        assert_eq!(res.visible_names(), Vec::<&str>::new(), "{config}");
        let removal = res.trace("exec").unwrap().removed_by.clone().unwrap();
        assert_eq!(removal.layer, layer, "{config}");
    }
    // alsoAllow beside an empty allow is OpenClaw's `["*", ...alsoAllow]`: nothing is removed.
    let also = "{ tools: { allow: [], alsoAllow: ['exec'] } }";
    assert!(visible_in("2026.9", also, &none, "read"));
    // 2026.8 has Tool Search off by default: `[]` restricts nothing there.
    assert!(visible_in(
        "2026.8",
        "{ tools: { allow: [] } }",
        &none,
        "read"
    ));
}

/// A subagent's `allow: []` with `alsoAllow` is that alsoAllow (OpenClaw's
/// mergeConfiguredSubagentAllow), not everything.
#[test]
fn a_subagent_allowlist_left_empty_takes_its_also_allow() {
    let config = "{ tools: { toolSearch: false,
        subagents: { tools: { allow: [], alsoAllow: ['read'] } } } }";
    assert!(visible_in("2026.9", config, &subagent(), "read"));
    assert!(!visible_in("2026.9", config, &subagent(), "web_fetch"));
    let empty = "{ tools: { toolSearch: false, subagents: { tools: { allow: [] } } } }";
    assert!(visible_in("2026.9", empty, &subagent(), "web_fetch"));
}
