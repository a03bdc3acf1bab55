//! One test per rule of the chain.

use super::*;
use crate::catalog::{Registry, core_specs, plugins};
use crate::config::{load_from_str, load_from_str_with_pack};
use crate::context::PolicyContext;

fn registry_with_plugins() -> Registry {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/plugins");
    let mut warnings = Vec::new();
    Registry::from_parts(core_specs(), plugins::discover(&[dir], &mut warnings))
}

fn resolve_with(registry: &Registry, config: &str, ctx: &PolicyContext) -> Resolution {
    let cfg = load_from_str_with_pack(config, "test.json5", "seed").unwrap();
    resolve(&cfg, registry, ctx).unwrap()
}

fn run(config: &str, ctx: &PolicyContext) -> Resolution {
    resolve_with(&Registry::from_specs(core_specs()), config, ctx)
}

fn ctx() -> PolicyContext {
    PolicyContext::default()
}

fn visible(res: &Resolution) -> Vec<String> {
    res.visible_names()
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn removal(res: &Resolution, tool: &str) -> Removal {
    res.trace(tool)
        .unwrap()
        .removed_by
        .clone()
        .unwrap_or_else(|| panic!("{tool} is visible"))
}

fn is_visible(res: &Resolution, tool: &str) -> bool {
    res.trace(tool).unwrap().visible
}

#[test]
fn empty_config_keeps_every_tool_and_skips_every_layer() {
    let res = run("{}", &ctx());
    assert_eq!(res.visible().count(), core_specs().len());
    for tool in &res.tools {
        assert!(
            tool.decisions
                .iter()
                .all(|d| d.decision == Decision::Skipped),
            "{}",
            tool.name
        );
    }
    assert!(res.warnings.is_empty());
}

#[test]
fn deny_wins_over_allow_in_the_same_layer() {
    let res = run(
        "{ tools: { allow: ['exec', 'read'], deny: ['exec'] } }",
        &ctx(),
    );
    let r = removal(&res, "exec");
    assert_eq!(r.layer, LayerId::Global);
    assert_eq!(r.kind, RemovalKind::Denied);
    assert_eq!(r.pattern.as_deref(), Some("exec"));
    assert_eq!(r.config_path.as_deref(), Some("tools.deny[0]"));
    assert!(is_visible(&res, "read"));
}

#[test]
fn a_non_empty_allowlist_removes_everything_else() {
    let res = run("{ tools: { allow: ['read'] } }", &ctx());
    assert_eq!(visible(&res), vec!["read"]);
    let r = removal(&res, "write");
    assert_eq!(r.kind, RemovalKind::NotAllowed);
    assert_eq!(r.pattern, None);
    assert_eq!(r.config_path.as_deref(), Some("tools.allow"));
}

#[test]
fn an_empty_allowlist_keeps_everything() {
    let res = run("{ tools: { allow: [], deny: ['exec'] } }", &ctx());
    assert_eq!(res.visible().count(), core_specs().len() - 1);
}

#[test]
fn blank_entries_are_dropped() {
    let res = run("{ tools: { allow: ['', '  '], deny: [' '] } }", &ctx());
    assert_eq!(res.visible().count(), core_specs().len());
    assert!(res.warnings.is_empty(), "{:?}", res.warnings);
}

#[test]
fn wildcards_only_star_is_special() {
    let res = run("{ tools: { deny: ['sessions_*', 'web_?etch'] } }", &ctx());
    assert!(!is_visible(&res, "sessions_list"));
    assert!(!is_visible(&res, "sessions_spawn"));
    assert!(is_visible(&res, "session_status"));
    assert!(is_visible(&res, "web_fetch"), "? is literal");
    assert!(
        res.warnings
            .iter()
            .any(|w| w.message.contains("web_?etch") && w.message.contains("matches no tool"))
    );
}

#[test]
fn groups_expand_and_removals_name_the_group() {
    let res = run("{ tools: { deny: ['group:fs'] } }", &ctx());
    let r = removal(&res, "edit");
    assert_eq!(r.pattern.as_deref(), Some("group:fs"));
    assert_eq!(r.expanded_from.as_deref(), Some("group:fs"));
    assert_eq!(r.config_path.as_deref(), Some("tools.deny[0]"));
    assert!(is_visible(&res, "exec"));
}

#[test]
fn names_and_patterns_are_normalised_with_aliases() {
    let res = run("{ tools: { deny: ['  BASH '] } }", &ctx());
    assert!(!is_visible(&res, "exec"));
    assert_eq!(res.trace("Bash").unwrap().name, "exec");
}

#[test]
fn apply_patch_follows_exec_in_an_allowlist() {
    let res = run("{ tools: { allow: ['exec'] } }", &ctx());
    assert!(is_visible(&res, "apply_patch"));
    assert!(!is_visible(&res, "write"));
    let d = res
        .trace("apply_patch")
        .unwrap()
        .decision(LayerId::Global)
        .unwrap()
        .clone();
    assert!(
        d.reason.contains("apply_patch follows exec"),
        "{}",
        d.reason
    );
}

#[test]
fn profiles_match_the_seed() {
    let names = |profile: &str| {
        visible(&run(
            &format!("{{ tools: {{ profile: '{profile}' }} }}"),
            &ctx(),
        ))
    };
    assert_eq!(names("minimal"), vec!["session_status"]);
    assert_eq!(
        names("coding"),
        vec![
            "read",
            "write",
            "edit",
            "apply_patch",
            "exec",
            "process",
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "sessions_spawn",
            "session_status",
            "image",
            "memory_search",
            "memory_get",
        ]
    );
    assert_eq!(
        names("messaging"),
        vec![
            "message",
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "session_status"
        ]
    );
    assert_eq!(names("full").len(), core_specs().len());
}

#[test]
fn unknown_profile_is_no_restriction_with_a_warning() {
    let res = run("{ tools: { profile: 'wizard' } }", &ctx());
    assert_eq!(res.visible().count(), core_specs().len());
    assert!(
        res.warnings_for(LayerId::Profile)
            .any(|w| w.message.contains("unknown profile \"wizard\""))
    );
}

#[test]
fn also_allow_extends_the_profile() {
    let res = run(
        "{ tools: { profile: 'coding', alsoAllow: ['web_search'] } }",
        &ctx(),
    );
    assert!(is_visible(&res, "web_search"));
    assert!(!is_visible(&res, "web_fetch"));
    let d = res
        .trace("web_search")
        .unwrap()
        .decision(LayerId::Profile)
        .unwrap()
        .clone();
    assert_eq!(
        d.rule.unwrap().config_path.as_deref(),
        Some("tools.alsoAllow[0]")
    );
    // alsoAllow alone on the global layer is no restriction.
    assert_eq!(res.layer(LayerId::Global).unwrap().allow, None);
    let miss = removal(&res, "web_fetch");
    assert_eq!(miss.layer, LayerId::Profile);
    assert!(
        miss.reason.contains("not in profile \"coding\""),
        "{}",
        miss.reason
    );
}

#[test]
fn agent_profile_and_also_allow_override_the_global_ones() {
    let config = "{ tools: { profile: 'coding', alsoAllow: ['web_search'] },
        agents: { list: [{ id: 'main' }, { id: 'bot', tools: { profile: 'minimal', alsoAllow: ['message'] } }] } }";
    let res = run(
        config,
        &PolicyContext {
            agent: Some("bot".into()),
            ..ctx()
        },
    );
    assert_eq!(visible(&res), vec!["message", "session_status"]);
    assert_eq!(
        res.layer(LayerId::Profile).unwrap().source_path.as_deref(),
        Some("agents.list[1].tools.profile")
    );
}

#[test]
fn allow_and_also_allow_merge_on_a_layer() {
    let res = run(
        "{ tools: { allow: ['read'], alsoAllow: ['exec'] } }",
        &ctx(),
    );
    assert_eq!(visible(&res), vec!["read", "apply_patch", "exec"]);
}

#[test]
fn provider_model_beats_provider() {
    let config = "{ tools: { byProvider: { OpenAI: { deny: ['browser'] }, 'openai/gpt-5': { deny: ['canvas'] } } } }";
    let gpt5 = PolicyContext {
        provider: Some("openai".into()),
        model: Some("gpt-5".into()),
        ..ctx()
    };
    let res = run(config, &gpt5);
    assert!(is_visible(&res, "browser"));
    assert_eq!(
        removal(&res, "canvas").config_path.as_deref(),
        Some("tools.byProvider.\"openai/gpt-5\".deny[0]")
    );
    let other = PolicyContext {
        provider: Some("openai".into()),
        model: Some("gpt-4".into()),
        ..ctx()
    };
    let res = run(config, &other);
    assert_eq!(removal(&res, "browser").layer, LayerId::GlobalProvider);
    assert!(is_visible(&res, "canvas"));
    // A model id that already names its provider.
    let full = PolicyContext {
        model: Some("openai/gpt-5".into()),
        ..ctx()
    };
    assert!(!is_visible(&run(config, &full), "canvas"));
}

#[test]
fn provider_profile_layer() {
    let config =
        "{ tools: { byProvider: { google: { profile: 'minimal', alsoAllow: ['read'] } } } }";
    let res = run(
        config,
        &PolicyContext {
            provider: Some("google".into()),
            ..ctx()
        },
    );
    assert_eq!(visible(&res), vec!["read", "session_status"]);
    assert_eq!(removal(&res, "exec").layer, LayerId::ProviderProfile);
}

#[test]
fn the_agents_model_supplies_the_provider() {
    let config = "{ tools: { byProvider: { openai: { deny: ['browser'] } } },
        agents: { list: [{ id: 'main', model: 'openai/gpt-5' }] } }";
    let res = run(config, &ctx());
    assert_eq!(res.resolved.provider.as_deref(), Some("openai"));
    assert_eq!(
        res.resolved.model_source.as_deref(),
        Some("agents.list[0].model")
    );
    assert!(!is_visible(&res, "browser"));
}

#[test]
fn agent_policy_from_list_and_entries() {
    let list = "{ agents: { list: [{ id: 'main' }, { id: 'ops', tools: { deny: ['exec'] } }] } }";
    let res = run(
        list,
        &PolicyContext {
            agent: Some("ops".into()),
            ..ctx()
        },
    );
    let r = removal(&res, "exec");
    assert_eq!(
        (r.layer, r.config_path.as_deref()),
        (LayerId::Agent, Some("agents.list[1].tools.deny[0]"))
    );
    assert!(
        is_visible(&run(list, &ctx()), "exec"),
        "the default agent is main"
    );

    let entries =
        "{ agents: { entries: { main: { default: true }, ops: { tools: { allow: ['read'] } } } } }";
    let res = run(
        entries,
        &PolicyContext {
            agent: Some("OPS".into()),
            ..ctx()
        },
    );
    assert_eq!(visible(&res), vec!["read"]);
    assert_eq!(
        removal(&res, "exec").config_path.as_deref(),
        Some("agents.entries.ops.tools.allow")
    );
}

#[test]
fn agent_provider_policy() {
    let config = "{ agents: { list: [{ id: 'main', tools: { byProvider: { anthropic: { deny: ['image'] } } } }] } }";
    let res = run(
        config,
        &PolicyContext {
            provider: Some("anthropic".into()),
            ..ctx()
        },
    );
    let r = removal(&res, "image");
    assert_eq!(r.layer, LayerId::AgentProvider);
    assert_eq!(
        r.config_path.as_deref(),
        Some("agents.list[0].tools.byProvider.anthropic.deny[0]")
    );
}

#[test]
fn unknown_agent_is_an_error() {
    let cfg = load_from_str("{ agents: { list: [{ id: 'main' }] } }", "t").unwrap();
    let err = resolve(
        &cfg,
        &Registry::from_specs(core_specs()),
        &PolicyContext {
            agent: Some("nope".into()),
            ..ctx()
        },
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "unknown agent \"nope\" (configured: main)");
}

/// Seed 001 §3.4 group example.
const SEED_GROUPS: &str = r#"{
  channels: { telegram: { groups: {
    "-100123456": {
      tools: { allow: ["group:fs"] },
      toolsBySender: { "admin_user": { allow: ["*"] }, "*": { deny: ["exec"] } },
    },
    "*": { tools: { deny: ["gateway"] } },
  } } },
}"#;

fn in_group(group: &str, sender: Option<&str>) -> PolicyContext {
    PolicyContext {
        channel: Some("telegram".into()),
        group: Some(group.into()),
        sender_id: sender.map(str::to_string),
        ..ctx()
    }
}

#[test]
fn group_sender_match_wins_first() {
    let res = run(SEED_GROUPS, &in_group("-100123456", Some("admin_user")));
    assert_eq!(res.visible().count(), core_specs().len());
    assert_eq!(
        res.layer(LayerId::Group).unwrap().source_path.as_deref(),
        Some("channels.telegram.groups.\"-100123456\".toolsBySender.admin_user")
    );
    assert!(
        res.warnings_for(LayerId::Group)
            .any(|w| w.message.contains("untyped sender key \"admin_user\""))
    );
}

#[test]
fn group_wildcard_sender_applies_to_everyone_else() {
    let res = run(SEED_GROUPS, &in_group("-100123456", Some("bob")));
    let r = removal(&res, "exec");
    assert_eq!(
        r.config_path.as_deref(),
        Some("channels.telegram.groups.\"-100123456\".toolsBySender.\"*\".deny[0]")
    );
    assert!(
        is_visible(&res, "browser"),
        "the sender entry wins over group.tools"
    );
}

#[test]
fn other_groups_fall_back_to_the_wildcard_group() {
    let res = run(SEED_GROUPS, &in_group("-999", None));
    assert_eq!(
        removal(&res, "gateway").config_path.as_deref(),
        Some("channels.telegram.groups.\"*\".tools.deny[0]")
    );
    assert!(is_visible(&res, "exec"));
}

#[test]
fn group_tools_apply_without_a_sender_entry() {
    let config =
        r#"{ channels: { telegram: { groups: { "-1": { tools: { allow: ["group:fs"] } } } } } }"#;
    let res = run(config, &in_group("-1:topic:5", Some("x")));
    assert_eq!(visible(&res), vec!["read", "write", "edit", "apply_patch"]);
}

#[test]
fn typed_sender_keys_in_match_order() {
    let config = r#"{ channels: { telegram: { groups: { "g": { toolsBySender: {
        "name:Bob": { deny: ["read"] }, "username:@bob": { deny: ["write"] },
        "e164:+15550001": { deny: ["edit"] }, "id:7": { deny: ["exec"] } } } } } } }"#;
    let with = |id: Option<&str>, e164: Option<&str>, user: Option<&str>, name: Option<&str>| {
        let c = PolicyContext {
            channel: Some("telegram".into()),
            group: Some("g".into()),
            sender_id: id.map(Into::into),
            sender_e164: e164.map(Into::into),
            sender_username: user.map(Into::into),
            sender_name: name.map(Into::into),
            ..ctx()
        };
        run(config, &c)
            .tools
            .iter()
            .filter(|t| !t.visible)
            .map(|t| t.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        with(Some("7"), Some("+15550001"), Some("bob"), Some("bob")),
        vec!["exec"]
    );
    assert_eq!(
        with(Some("8"), Some("+15550001"), Some("bob"), Some("bob")),
        vec!["edit"]
    );
    assert_eq!(with(None, None, Some("@BOB"), Some("bob")), vec!["write"]);
    assert_eq!(with(None, None, None, Some(" bob ")), vec!["read"]);
    assert!(with(None, None, None, Some("carol")).is_empty());
}

#[test]
fn account_groups_beat_channel_groups() {
    let config = r#"{ channels: { discord: {
        groups: { "room": { tools: { deny: ["read"] } } },
        accounts: { work: { groups: { "room": { tools: { deny: ["write"] } } } } } } } }"#;
    let c = PolicyContext {
        channel: Some("discord".into()),
        account: Some("work".into()),
        group: Some("room".into()),
        ..ctx()
    };
    let res = run(config, &c);
    assert_eq!(
        removal(&res, "write").config_path.as_deref(),
        Some("channels.discord.accounts.work.groups.room.tools.deny[0]")
    );
    assert!(is_visible(&res, "read"));
}

#[test]
fn no_group_in_context_skips_the_group_layer() {
    let res = run(
        SEED_GROUPS,
        &PolicyContext {
            channel: Some("telegram".into()),
            ..ctx()
        },
    );
    assert!(!res.layer(LayerId::Group).unwrap().present);
}

#[test]
fn sandbox_defaults() {
    let res = run(
        "{ channels: { telegram: {} } }",
        &PolicyContext {
            sandboxed: true,
            ..ctx()
        },
    );
    assert!(is_visible(&res, "exec"));
    assert!(is_visible(&res, "sessions_spawn"));
    let r = removal(&res, "browser");
    assert_eq!(
        (r.layer, r.builtin.as_deref()),
        (LayerId::Sandbox, Some("default sandbox denylist"))
    );
    let r = removal(&res, "web_search");
    assert_eq!(r.kind, RemovalKind::NotAllowed);
    assert!(r.reason.contains("default sandbox allowlist"));
    assert_eq!(
        res.layer(LayerId::Sandbox)
            .unwrap()
            .deny
            .last()
            .map(String::as_str),
        Some("telegram")
    );
}

#[test]
fn sandbox_config_agent_beats_global_and_empty_allow_allows_all() {
    let config = "{ tools: { sandbox: { tools: { allow: ['read'] } } },
        agents: { list: [{ id: 'main', tools: { sandbox: { tools: { allow: [], deny: ['exec'] } } } }] } }";
    let res = run(
        config,
        &PolicyContext {
            sandboxed: true,
            ..ctx()
        },
    );
    assert!(
        is_visible(&res, "browser"),
        "explicit empty allow = allow all; agent deny replaces the default deny"
    );
    assert_eq!(
        removal(&res, "exec").config_path.as_deref(),
        Some("agents.list[0].tools.sandbox.tools.deny[0]")
    );
}

#[test]
fn sandbox_mode_and_read_only_workspace() {
    let config = "{ agents: { defaults: { sandbox: { mode: 'non-main', workspaceAccess: 'ro' } },
        list: [{ id: 'main' }, { id: 'box', sandbox: { mode: 'all' } }] } }";
    assert!(
        !run(config, &ctx()).resolved.sandboxed,
        "the console is the main session"
    );
    let res = run(
        config,
        &PolicyContext {
            session_key: Some("agent:main:telegram:group:1".into()),
            ..ctx()
        },
    );
    assert!(res.resolved.sandboxed);
    let r = removal(&res, "write");
    assert_eq!(r.builtin.as_deref(), Some("read-only sandbox workspace"));
    assert_eq!(
        r.config_path.as_deref(),
        Some("agents.defaults.sandbox.workspaceAccess")
    );
    assert!(
        run(
            config,
            &PolicyContext {
                agent: Some("box".into()),
                ..ctx()
            }
        )
        .resolved
        .sandboxed
    );
}

#[test]
fn subagent_default_deny_list() {
    let res = run(
        "{}",
        &PolicyContext {
            session_key: Some("agent:main:subagent:42".into()),
            ..ctx()
        },
    );
    assert!(res.resolved.subagent);
    for denied in &crate::semantics::seed().subagent.default_deny {
        assert_eq!(removal(&res, denied).layer, LayerId::Subagent, "{denied}");
    }
    assert!(is_visible(&res, "exec"));
    assert!(is_visible(&res, "clawbot_router"));
}

#[test]
fn subagent_config_allow_lifts_defaults_and_deny_adds() {
    let config =
        "{ tools: { subagents: { tools: { alsoAllow: ['memory_search'], deny: ['exec'] } } } }";
    let res = run(
        config,
        &PolicyContext {
            subagent: true,
            ..ctx()
        },
    );
    assert!(is_visible(&res, "memory_search"));
    assert!(!is_visible(&res, "memory_get"));
    assert_eq!(
        removal(&res, "exec").config_path.as_deref(),
        Some("tools.subagents.tools.deny[0]")
    );
}

#[test]
fn local_system_tools_never_reach_subagents_or_remote_callers() {
    let open_all = "{ tools: { subagents: { tools: { allow: ['*', 'start_app'] } } } }";
    let res = run(
        open_all,
        &PolicyContext {
            subagent: true,
            ..ctx()
        },
    );
    for local in ["system_volume_control", "start_app", "open_website"] {
        let r = removal(&res, local);
        assert_eq!(r.layer, LayerId::Subagent);
        assert!(
            r.reason.contains("never offered to a subagent"),
            "{}",
            r.reason
        );
    }
    let res = run(
        "{}",
        &PolicyContext {
            remote: true,
            ..ctx()
        },
    );
    let r = removal(&res, "start_app");
    assert_eq!(r.layer, LayerId::Owner);
    assert!(r.reason.contains("remote caller"));
    assert!(is_visible(&res, "exec"));
}

#[test]
fn owner_only_tools_are_removed_for_non_owners() {
    let res = run(
        "{}",
        &PolicyContext {
            owner: Some(false),
            ..ctx()
        },
    );
    assert_eq!(removal(&res, "whatsapp_login").layer, LayerId::Owner);
    assert_eq!(res.visible().count(), core_specs().len() - 1);
    assert!(
        is_visible(&run("{}", &ctx()), "whatsapp_login"),
        "the console operator is an owner"
    );
}

#[test]
fn owner_from_owner_allow_from() {
    let config = "{ commands: { ownerAllowFrom: ['telegram:42', 7] } }";
    let sender = |channel: &str, id: &str| PolicyContext {
        channel: Some(channel.into()),
        sender_id: Some(id.into()),
        ..ctx()
    };
    assert!(run(config, &sender("telegram", "42")).resolved.owner);
    assert!(!run(config, &sender("discord", "42")).resolved.owner);
    assert!(run(config, &sender("discord", "7")).resolved.owner);
    let res = run(config, &sender("telegram", "5"));
    assert!(!res.resolved.owner);
    assert!(!is_visible(&res, "whatsapp_login"));
}

#[test]
fn plugin_only_allowlist_is_stripped_with_the_seed_warning() {
    let registry = registry_with_plugins();
    let res = resolve_with(&registry, "{ tools: { allow: ['textkit'] } }", &ctx());
    assert_eq!(res.visible().count(), registry.tools.len());
    let w: Vec<_> = res.warnings_for(LayerId::Global).collect();
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message
            .contains("Ignoring allowlist so core tools remain available")
    );
    assert!(
        w[0].message
            .contains("Use tools.alsoAllow for additive plugin tool enablement.")
    );
    assert_eq!(res.layer(LayerId::Global).unwrap().allow, None);
}

#[test]
fn an_allowlist_with_a_core_entry_keeps_its_plugin_entries() {
    let registry = registry_with_plugins();
    let res = resolve_with(
        &registry,
        "{ tools: { allow: ['read', 'group:plugins', 'mystery'] } }",
        &ctx(),
    );
    assert_eq!(
        visible(&res),
        vec!["read", "notes_add", "notes_list", "text_upper"]
    );
    let r = res
        .trace("text_upper")
        .unwrap()
        .decision(LayerId::Global)
        .unwrap()
        .rule
        .clone()
        .unwrap();
    assert_eq!(r.expanded_from.as_deref(), Some("group:plugins"));
    assert!(res.warnings.iter().any(|w| {
        w.message.contains("unknown entries (mystery)")
            && w.message
                .contains("won't match any tool unless the plugin is enabled")
    }));
}

#[test]
fn plugin_id_groups_expand() {
    let registry = registry_with_plugins();
    let res = resolve_with(&registry, "{ tools: { deny: ['notes'] } }", &ctx());
    let r = removal(&res, "notes_add");
    assert_eq!(
        (r.pattern.as_deref(), r.expanded_from.as_deref()),
        (Some("notes"), Some("notes"))
    );
    assert!(is_visible(&res, "text_upper"));
}

#[test]
fn entries_that_match_nothing_are_warnings_tied_to_their_layer() {
    let config = "{ agents: { list: [{ id: 'main', tools: { deny: ['reed', 'group:nope'] } }] } }";
    let res = run(config, &ctx());
    let w: Vec<_> = res.warnings_for(LayerId::Agent).collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!(
        w[0].config_path.as_deref(),
        Some("agents.list[0].tools.deny[0]")
    );
    assert!(w[1].message.contains("no such group"));
}

#[test]
fn every_removing_layer_is_shown_and_only_the_first_is_reached() {
    let config = "{ tools: { profile: 'minimal', deny: ['exec'] } }";
    let res = run(config, &ctx());
    let exec = res.trace("exec").unwrap();
    assert_eq!(exec.removed_by.as_ref().unwrap().layer, LayerId::Profile);
    let global = exec.decision(LayerId::Global).unwrap();
    assert_eq!(
        (global.decision, global.reached),
        (Decision::Removed, false)
    );
    assert_eq!(
        res.layer(LayerId::Profile).unwrap().removed,
        core_specs().len() - 1
    );
    assert_eq!(res.layer(LayerId::Global).unwrap().removed, 0);
}

#[test]
fn demo_config_shows_something_in_every_layer() {
    let cfg = crate::config::load_demo()
        .unwrap()
        .with_pack("seed")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let contexts = [
        PolicyContext::default(),
        PolicyContext {
            agent: Some("ops".into()),
            ..ctx()
        },
        PolicyContext {
            provider: Some("google".into()),
            ..ctx()
        },
        PolicyContext {
            channel: Some("telegram".into()),
            group: Some("-100123456".into()),
            sender_id: Some("7".into()),
            ..ctx()
        },
        PolicyContext {
            subagent: true,
            ..ctx()
        },
        // A subagent of the default agent spawned by ops, which may not run exec.
        PolicyContext {
            agent: Some("main".into()),
            spawned_by: Some("agent:ops:main".into()),
            ..ctx()
        },
    ];
    let mut removing = std::collections::BTreeSet::new();
    for c in &contexts {
        let res = resolve(&cfg, &registry, c).unwrap();
        for layer in &res.layers {
            if layer.removed > 0 {
                removing.insert(layer.id);
            }
        }
    }
    // Every layer of the seed's chain (it has no separate sender layer).
    assert_eq!(removing.len(), LayerId::ALL.len() - 1, "{removing:?}");
    assert!(!removing.contains(&LayerId::Sender));
    // The demo's headline: ops cannot see exec, and the agent layer says why.
    let ops = resolve(&cfg, &registry, &contexts[1]).unwrap();
    assert_eq!(
        removal(&ops, "exec").config_path.as_deref(),
        Some("agents.list[1].tools.deny[0]")
    );
}

#[test]
fn render_table_names_every_tool_and_layer() {
    let res = run("{ tools: { deny: ['exec'] } }", &ctx());
    let table = render_table(&res);
    for tool in &res.tools {
        assert!(table.contains(&tool.name));
    }
    assert!(table.contains("hidden by global: denied by \"exec\" at tools.deny[0]"));
    assert!(!table.contains('\u{1b}'), "no terminal codes");
}

#[test]
fn demo_config_shows_something_in_every_layer_of_todays_chain() {
    let cfg = crate::config::load_demo()
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let contexts = [
        PolicyContext::default(),
        PolicyContext {
            agent: Some("ops".into()),
            ..ctx()
        },
        PolicyContext {
            provider: Some("google".into()),
            ..ctx()
        },
        PolicyContext {
            channel: Some("telegram".into()),
            group: Some("-100123456".into()),
            sender_id: Some("7".into()),
            ..ctx()
        },
        PolicyContext {
            sender_name: Some("guest".into()),
            sender_id: Some("7".into()),
            channel: Some("telegram".into()),
            ..ctx()
        },
        PolicyContext {
            subagent: true,
            ..ctx()
        },
        // A subagent of the default agent spawned by ops, which may not run exec.
        PolicyContext {
            agent: Some("main".into()),
            spawned_by: Some("agent:ops:main".into()),
            ..ctx()
        },
    ];
    let mut removing = std::collections::BTreeSet::new();
    for c in &contexts {
        let res = resolve(&cfg, &registry, c).unwrap();
        assert_eq!(res.resolved.openclaw, "2026.9");
        for layer in &res.layers {
            if layer.removed > 0 {
                removing.insert(layer.id);
            }
        }
    }
    assert_eq!(removing.len(), LayerId::ALL.len(), "{removing:?}");
}

#[test]
fn todays_rules_come_from_the_2026_pack() {
    let cfg = load_from_str("{ tools: { allow: ['write'] } }", "t.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &ctx()).unwrap();
    // An allowed write brings apply_patch; exec no longer does.
    assert!(is_visible(&res, "write"));
    assert!(is_visible(&res, "apply_patch"));
    assert!(!is_visible(&res, "exec"));
    assert!(
        res.trace("apply_patch")
            .unwrap()
            .decisions
            .iter()
            .any(|d| d.reason.as_str().contains("apply_patch follows write"))
    );

    // An allowlist naming only unknown tools is kept: nothing callable remains, run refused.
    let cfg = load_from_str("{ tools: { allow: ['no_such_tool'] } }", "t.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &ctx()).unwrap();
    assert!(
        res.visible().all(|t| t.clawdeck_own),
        "{:?}",
        res.visible_names()
    );
    assert_eq!(
        res.refusal.as_deref(),
        Some(
            "No callable tools remain after resolving explicit tool allowlist (tools.allow: no_such_tool); no registered tools matched. Fix the allowlist or enable the plugin that registers the requested tool."
        )
    );

    // Non-owners lose the dangerous list, not only owner-flagged tools.
    let cfg = load_from_str("{}", "t.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(
        &cfg,
        &registry,
        &PolicyContext {
            owner: Some(false),
            ..ctx()
        },
    )
    .unwrap();
    for tool in ["gateway", "automations", "sessions", "terminal", "portal"] {
        assert_eq!(removal(&res, tool).layer, LayerId::Owner, "{tool}");
    }

    // Subagents: always-denied tools, and the spawning tools only for leaves.
    let sub = |depth: u32| {
        resolve(
            &cfg,
            &registry,
            &PolicyContext {
                subagent: true,
                subagent_depth: Some(depth),
                ..ctx()
            },
        )
        .unwrap()
    };
    let orchestrator = sub(1);
    for tool in ["gateway", "message", "sessions_send", "agents_list"] {
        assert_eq!(
            removal(&orchestrator, tool).layer,
            LayerId::Subagent,
            "{tool}"
        );
    }
    assert!(is_visible(&orchestrator, "sessions_spawn"));
    assert!(
        is_visible(&orchestrator, "memory_search"),
        "memory is no longer denied"
    );
    let leaf = sub(5);
    assert_eq!(removal(&leaf, "sessions_spawn").layer, LayerId::Subagent);
    assert!(removal(&leaf, "subagents").reason.contains("leaf"));

    // Aliases of today: `cron` names automations.
    let cfg = load_from_str("{ tools: { deny: ['cron'] } }", "t.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &ctx()).unwrap();
    assert_eq!(removal(&res, "automations").layer, LayerId::Global);
}

fn resolve_2026(config: &str, ctx: &PolicyContext) -> Resolution {
    let cfg = load_from_str(config, "t.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    resolve(&cfg, &registry, ctx).unwrap()
}

#[test]
fn a_sandbox_allow_that_names_a_default_denied_tool_lifts_its_default_deny() {
    let sandboxed = PolicyContext {
        sandboxed: true,
        ..ctx()
    };
    // Default deny holds gateway, canvas and nodes; allow names gateway, alsoAllow a glob (in
    // two configs: OpenClaw 2026.9 refuses allow and alsoAllow in one scope).
    let config = "{ tools: { sandbox: { tools: { allow: ['read', 'gateway'] } } } }";
    let res = resolve_2026(config, &sandboxed);
    assert!(is_visible(&res, "gateway"));
    let also = resolve_2026(
        "{ tools: { sandbox: { tools: { alsoAllow: ['can*'] } } } }",
        &sandboxed,
    );
    assert!(is_visible(&also, "canvas"));
    assert_eq!(removal(&res, "nodes").layer, LayerId::Sandbox);
    assert_eq!(
        removal(&res, "nodes").builtin.as_deref(),
        Some("default sandbox denylist")
    );
    // A configured deny replaces the default list: nothing to lift.
    let res = resolve_2026(
        "{ tools: { sandbox: { tools: { allow: ['gateway'], deny: ['gateway'] } } } }",
        &sandboxed,
    );
    assert_eq!(removal(&res, "gateway").layer, LayerId::Sandbox);
    // The seed's sandbox keeps its default deny whatever allow names.
    let cfg = load_from_str(
        "{ tools: { sandbox: { tools: { allow: ['gateway'] } } } }",
        "t.json5",
    )
    .unwrap()
    .with_pack("seed")
    .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &sandboxed).unwrap();
    assert_eq!(removal(&res, "gateway").layer, LayerId::Sandbox);
}

#[test]
fn a_sandboxed_run_never_gets_the_unsandboxed_only_tools_whatever_the_sandbox_allows() {
    let sandboxed = PolicyContext {
        sandboxed: true,
        ..ctx()
    };
    let only = ["terminal", "portal", "openclaw", "skill_workshop"];
    // An allow list naming them, and an empty one (allows everything with Tool Search off; on,
    // it keeps only Tool Search's controls): still absent.
    for config in [
        "{ tools: { sandbox: { tools: { allow: ['read', 'terminal', 'portal', 'openclaw', 'skill_workshop'] } } } }",
        "{ tools: { toolSearch: false, sandbox: { tools: { allow: [] } } } }",
    ] {
        let res = resolve_2026(config, &sandboxed);
        assert!(is_visible(&res, "read"), "{config}");
        for tool in only {
            let r = removal(&res, tool);
            assert_eq!(r.layer, LayerId::Sandbox, "{tool} in {config}");
            assert_eq!(
                r.builtin.as_deref(),
                Some("never built for a sandboxed run (sandbox.unsandboxedOnly)"),
                "{tool} in {config}"
            );
        }
    }
    // Not sandboxed: they are there.
    let res = resolve_2026("{}", &ctx());
    for tool in only {
        assert!(is_visible(&res, tool), "{tool}");
    }
    // The seed has no such rule: no removal names it.
    let cfg = load_from_str(
        "{ tools: { sandbox: { tools: { allow: [] } } } }",
        "t.json5",
    )
    .unwrap()
    .with_pack("seed")
    .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &sandboxed).unwrap();
    assert!(res.tools.iter().all(|t| {
        t.removed_by
            .as_ref()
            .and_then(|r| r.builtin.as_deref())
            .is_none_or(|b| !b.contains("unsandboxedOnly"))
    }));
}

#[test]
fn plugin_tools_exist_only_when_the_combined_allowlists_select_them() {
    let rule = "plugin tool not selected: no allowlist names its plugin, group:plugins, * or a pattern matching it (plugin tools are built only when selected)";
    // A core group expands to plugin tools in the filter but selects none of them.
    let res = resolve_2026(
        "{ tools: { allow: ['group:memory', 'group:ui', 'read'] } }",
        &ctx(),
    );
    assert!(is_visible(&res, "read"));
    assert!(is_visible(&res, "theme"), "core members of group:ui stay");
    for tool in ["memory_search", "memory_get", "browser", "canvas"] {
        let r = removal(&res, tool);
        assert_eq!(r.layer, LayerId::Global, "{tool}");
        assert_eq!(r.builtin.as_deref(), Some(rule), "{tool}");
        assert_eq!(r.config_path.as_deref(), Some("tools.allow"), "{tool}");
    }
    // The plugin id, a matching pattern, group:plugins or * select them.
    for config in [
        "{ tools: { allow: ['group:memory', 'read', 'memory-core'] } }",
        "{ tools: { allow: ['group:memory', 'read', 'memory_*'] } }",
        "{ tools: { allow: ['group:memory', 'read', 'group:plugins'] } }",
        "{ tools: { allow: ['group:memory', 'read', '*'] } }",
        // Another layer's allowlist counts too: the lists are combined.
        "{ tools: { allow: ['group:memory', 'read'] }, agents: { list: [{ id: 'main', tools: { allow: ['memory_search', 'memory_get', 'read'] } }] } }",
        // An alsoAllow-only policy stands for the defaults: every plugin tool is built.
        "{ tools: { alsoAllow: ['read'] }, agents: { list: [{ id: 'main', tools: { allow: ['group:memory', 'read'] } }] } }",
    ] {
        let res = resolve_2026(config, &ctx());
        assert!(is_visible(&res, "memory_search"), "{config}");
        assert!(is_visible(&res, "memory_get"), "{config}");
    }
    // No allowlist at all: every plugin tool is built.
    let res = resolve_2026("{ tools: { deny: ['exec'] } }", &ctx());
    assert!(is_visible(&res, "memory_search"));
    assert!(is_visible(&res, "browser"));
}

#[test]
fn gateway_keeps_its_config_reads_unless_a_profile_restricts_without_naming_it() {
    let reads = |config: &str| resolve_2026(config, &ctx()).resolved.gateway_config_reads;
    assert!(reads("{}"), "no profile");
    assert!(reads("{ tools: { profile: 'full' } }"));
    assert!(!reads("{ tools: { profile: 'coding' } }"));
    assert!(reads(
        "{ tools: { profile: 'coding', alsoAllow: ['gateway'] } }"
    ));
    assert!(reads(
        "{ tools: { profile: 'coding', alsoAllow: ['group:automation'] } }"
    ));
    assert!(!reads(
        "{ tools: { profile: 'coding', alsoAllow: ['read'] } }"
    ));
    // A provider profile restricts too.
    let provider = PolicyContext {
        provider: Some("openai".into()),
        ..ctx()
    };
    let res = resolve_2026(
        "{ tools: { byProvider: { openai: { profile: 'minimal' } } } }",
        &provider,
    );
    assert!(!res.resolved.gateway_config_reads);
}

#[test]
fn a_channel_sender_key_comes_before_the_id_and_a_sender_owns_nothing_unlisted() {
    let config = "{ tools: { toolsBySender: { 'id:42': { deny: ['tts'] }, 'channel:telegram:42': { deny: ['canvas'] } } } }";
    let sender_on = |channel: &str| PolicyContext {
        channel: Some(channel.into()),
        sender_id: Some("42".into()),
        ..ctx()
    };
    let res = resolve_2026(config, &sender_on("telegram"));
    assert_eq!(removal(&res, "canvas").layer, LayerId::Sender);
    assert!(is_visible(&res, "tts"));
    let res = resolve_2026(config, &sender_on("slack"));
    assert!(is_visible(&res, "canvas"));
    assert_eq!(removal(&res, "tts").layer, LayerId::Sender);
    // Today's OpenClaw owns a channel sender only when commands.ownerAllowFrom names them.
    assert!(!res.resolved.owner);
    assert_eq!(removal(&res, "gateway").layer, LayerId::Owner);
    let listed = resolve_2026(
        "{ commands: { ownerAllowFrom: ['telegram:42'] } }",
        &sender_on("telegram"),
    );
    assert!(listed.resolved.owner);
    // The seed's owned every sender.
    let cfg = load_from_str("{}", "t.json5")
        .unwrap()
        .with_pack("seed")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    assert!(
        resolve(&cfg, &registry, &sender_on("telegram"))
            .unwrap()
            .resolved
            .owner
    );
}

/// An owner's turn from webchat (an operator.admin connection's `chat.send`) asks for no sender
/// policy (OpenClaw's `isOwnerInternalSession`); a non-owner's there, and an owner's from any
/// other channel, still take theirs.
#[test]
fn an_owners_webchat_turn_takes_no_sender_policy() {
    let config = "{ tools: { toolsBySender: { '*': { deny: ['canvas'] } } } }";
    let on = |channel: &str, owner: bool| PolicyContext {
        channel: Some(channel.into()),
        owner: Some(owner),
        ..ctx()
    };
    let res = resolve_2026(config, &on("webchat", true));
    assert!(is_visible(&res, "canvas"));
    let sender = res
        .layers
        .iter()
        .find(|l| l.id == LayerId::Sender)
        .expect("the sender layer");
    assert!(
        !sender.present && sender.note.contains("webchat"),
        "{}",
        sender.note
    );
    let res = resolve_2026(config, &on(" WebChat ", false));
    assert_eq!(removal(&res, "canvas").layer, LayerId::Sender);
    let res = resolve_2026(config, &on("telegram", true));
    assert_eq!(removal(&res, "canvas").layer, LayerId::Sender);
}

/// Today's OpenClaw knows a sender by id and phone number (its sender candidates), never by
/// username, and strips `*` from the owner list: recorded as the owner-sender fidelity cases.
#[test]
fn todays_owner_list_matches_ids_and_phone_numbers_not_usernames_or_a_wildcard() {
    let alice = PolicyContext {
        channel: Some("telegram".into()),
        sender_id: Some("42".into()),
        sender_username: Some("alice".into()),
        ..ctx()
    };
    let owner = |config: &str, who: &PolicyContext| resolve_2026(config, who).resolved.owner;
    assert!(owner(
        "{ commands: { ownerAllowFrom: ['telegram:42'] } }",
        &alice
    ));
    assert!(!owner(
        "{ commands: { ownerAllowFrom: ['telegram:@alice'] } }",
        &alice
    ));
    assert!(!owner(
        "{ commands: { ownerAllowFrom: ['alice'] } }",
        &alice
    ));
    assert!(!owner("{ commands: { ownerAllowFrom: ['*'] } }", &alice));
    let by_phone = PolicyContext {
        sender_e164: Some("+15550001".into()),
        ..alice.clone()
    };
    assert!(owner(
        "{ commands: { ownerAllowFrom: ['+15550001'] } }",
        &by_phone
    ));
    // Named by username only: a channel sender nobody can match, not the console operator.
    let username_only = PolicyContext {
        sender_id: None,
        ..alice
    };
    assert!(!owner(
        "{ commands: { ownerAllowFrom: ['42'] } }",
        &username_only
    ));
}

#[test]
fn a_direct_chat_takes_its_own_entry_whole_and_its_sender_rules_first() {
    let config = "{ channels: { telegram: { direct: {
        '*': { tools: { deny: ['canvas'] } },
        '42': { tools: { deny: ['web_search'] },
                toolsBySender: { 'username:alice': { deny: ['tts'] }, 'e164:+15550001': { deny: ['read'] } } } } } } }";
    let chat = |id: &str, username: &str| PolicyContext {
        channel: Some("telegram".into()),
        sender_id: Some(id.into()),
        sender_username: Some(username.into()),
        sender_e164: Some("+15550001".into()),
        ..ctx()
    };
    let res = resolve_2026(config, &chat("42", "alice"));
    let tts = removal(&res, "tts");
    assert_eq!(tts.layer, LayerId::Group);
    assert_eq!(
        tts.config_path.as_deref(),
        Some(r#"channels.telegram.direct."42".toolsBySender."username:alice".deny[0]"#)
    );
    assert!(
        is_visible(&res, "canvas"),
        "the chat's entry replaces \"*\""
    );
    assert!(
        is_visible(&res, "web_search"),
        "its sender entry replaces its tools"
    );
    // A phone number is no sender key in a direct chat; the chat's tools apply.
    let res = resolve_2026(config, &chat("42", "bob"));
    assert!(is_visible(&res, "read"));
    assert_eq!(removal(&res, "web_search").layer, LayerId::Group);
    // Another chat: "*".
    let res = resolve_2026(config, &chat("43", "alice"));
    assert_eq!(removal(&res, "canvas").layer, LayerId::Group);
    // The seed's OpenClaw had no direct-chat policy.
    let cfg = load_from_str(config, "t.json5")
        .unwrap()
        .with_pack("seed")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let res = resolve(&cfg, &registry, &chat("43", "alice")).unwrap();
    assert!(is_visible(&res, "canvas"));
}

fn spawned(key: &str, spawner: &str) -> PolicyContext {
    PolicyContext {
        session_key: Some(key.into()),
        spawned_by: Some(spawner.into()),
        ..ctx()
    }
}

#[test]
fn a_sender_named_with_a_spawner_wrote_to_the_spawner_not_to_the_subagent() {
    let config = r#"{ tools: { toolSearch: false, toolsBySender: {
        "id:42": { deny: ["canvas"] }, "*": { deny: ["web_fetch"] } } } }"#;
    let spawned_by_42 = PolicyContext {
        channel: Some("telegram".into()),
        sender_id: Some("42".into()),
        ..spawned("agent:main:subagent:7", "agent:main:main")
    };
    let res = resolve_2026(config, &spawned_by_42);
    // The spawner's own entry reaches the subagent as an inherited denial ...
    let canvas = res.trace("canvas").unwrap().removed_by.clone().unwrap();
    assert_eq!(canvas.layer, LayerId::Inherited);
    // ... and the subagent's own turn takes no sender rules (not even "*"): OpenClaw applies
    // a spawned child's stored inherited lists instead of its group and sender policy.
    assert!(res.trace("web_fetch").unwrap().visible);
    assert!(!res.layer(LayerId::Sender).unwrap().present);
    assert!(res.trace("read").unwrap().visible);
    // A sender only "*" names: its denial is what the subagent inherits.
    let nobody = PolicyContext {
        sender_id: Some("7".into()),
        ..spawned_by_42.clone()
    };
    let res = resolve_2026(config, &nobody);
    let fetch = res.trace("web_fetch").unwrap().removed_by.clone().unwrap();
    assert_eq!(fetch.layer, LayerId::Inherited);
    assert!(res.trace("canvas").unwrap().visible);
    // The context still says whose turn spawned it.
    assert_eq!(res.context.sender_id.as_deref(), Some("7"));
}

#[test]
fn a_subagent_spawned_in_a_group_takes_the_groups_policy() {
    let config = r#"{ tools: { toolSearch: false },
        channels: { telegram: { groups: { "-100abc": { tools: { deny: ["canvas"] } } } } } }"#;
    let own_key = PolicyContext {
        session_key: Some("agent:main:subagent:42".into()),
        ..ctx()
    };
    assert!(
        resolve_2026(config, &own_key)
            .trace("canvas")
            .unwrap()
            .visible
    );
    let res = resolve_2026(
        config,
        &spawned(
            "agent:main:subagent:42",
            "agent:main:telegram:group:-100abc",
        ),
    );
    // The group's denial reaches the subagent as inherited from its spawner's turn; its own
    // turn takes no group policy.
    let canvas = res.trace("canvas").unwrap();
    assert_eq!(
        canvas.removed_by.as_ref().unwrap().layer,
        LayerId::Inherited
    );
    assert!(!res.layer(LayerId::Group).unwrap().present);
    assert_eq!(res.context.group.as_deref(), Some("-100abc"));
    assert_eq!(res.context.subagent_depth, Some(1));
    assert!(res.resolved.subagent);
    let inherited = res.layer(LayerId::Inherited).unwrap();
    assert!(inherited.present, "{inherited:?}");
    // A spawner named without a session key of the subagent's own works the same.
    let bare = resolve_2026(
        config,
        &PolicyContext {
            spawned_by: Some("agent:main:telegram:group:-100abc".into()),
            ..ctx()
        },
    );
    let canvas = bare.trace("canvas").unwrap().removed_by.clone().unwrap();
    assert_eq!(canvas.layer, LayerId::Inherited);
    assert!(!bare.trace("sessions_send").unwrap().visible, "a subagent");
}

#[test]
fn a_spawners_denials_and_allowlist_are_inherited() {
    let config = r#"{ tools: { toolSearch: false },
        agents: { list: [ { id: "main", default: true },
          { id: "ops", tools: { deny: ["web_fetch"] } },
          { id: "lean", tools: { allow: ["read", "exec", "sessions_spawn"] } } ] } }"#;
    let by_ops = resolve_2026(
        config,
        &PolicyContext {
            agent: Some("main".into()),
            ..spawned("agent:main:subagent:1", "agent:ops:main")
        },
    );
    let fetch = by_ops.trace("web_fetch").unwrap();
    let removal = fetch.removed_by.as_ref().unwrap();
    assert_eq!(removal.layer, LayerId::Inherited);
    assert_eq!(
        removal.config_path.as_deref(),
        Some("agents.list[1].tools.deny[0]")
    );
    assert!(by_ops.trace("read").unwrap().visible);
    assert!(
        by_ops.trace("canvas").unwrap().visible,
        "no allowlist passed on"
    );
    let by_lean = resolve_2026(
        config,
        &PolicyContext {
            agent: Some("main".into()),
            ..spawned("agent:main:subagent:2", "agent:lean:main")
        },
    );
    let mut shown: Vec<String> = visible(&by_lean);
    shown.sort();
    assert_eq!(shown, ["exec", "read", "sessions_spawn"]);
    let canvas = by_lean.trace("canvas").unwrap().removed_by.clone().unwrap();
    assert_eq!(canvas.layer, LayerId::Inherited);
    // Without a spawner there is no such layer.
    let plain = resolve_2026(config, &ctx());
    assert!(plain.layer(LayerId::Inherited).is_none());
}

#[test]
fn a_non_owners_spawn_keeps_the_owner_only_tools_from_its_subagent() {
    let res = resolve_2026(
        "{ tools: { toolSearch: false } }",
        &PolicyContext {
            owner: Some(false),
            ..spawned("agent:main:subagent:1", "agent:main:main")
        },
    );
    let inherited = res.layer(LayerId::Inherited).unwrap();
    assert!(inherited.present);
    assert!(!res.trace("nodes").unwrap().visible);
}

#[test]
fn a_turns_message_provider_limits_its_tools() {
    let config = "{ tools: { toolSearch: false } }";
    let turn = |channel: &str| PolicyContext {
        channel: Some(channel.into()),
        ..ctx()
    };
    let voice = resolve_2026(config, &turn("voice"));
    let tts = voice.trace("tts").unwrap().removed_by.clone().unwrap();
    assert_eq!(tts.layer, LayerId::Owner);
    assert!(voice.trace("web_fetch").unwrap().visible);
    let node = resolve_2026(config, &turn("node"));
    let mut shown: Vec<String> = visible(&node)
        .into_iter()
        .filter(|n| {
            !n.starts_with("clawbot")
                && n != "system_volume_control"
                && n != "start_app"
                && n != "open_website"
        })
        .collect();
    shown.sort();
    assert!(
        shown.iter().all(|t| [
            "canvas",
            "pdf",
            "tts",
            "view_image",
            "web_fetch",
            "web_search"
        ]
        .contains(&t.as_str())),
        "{shown:?}"
    );
    assert!(shown.contains(&"web_fetch".to_string()), "{shown:?}");
    // A session key that names a channel says where the session lives, not who sent the turn.
    let keyed = resolve_2026(
        config,
        &PolicyContext {
            session_key: Some("agent:main:voice:group:g1".into()),
            ..ctx()
        },
    );
    assert_eq!(keyed.context.channel.as_deref(), Some("voice"));
    assert!(keyed.trace("tts").unwrap().visible);
}

#[test]
fn a_plugin_off_by_default_brings_its_tools_only_when_turned_on() {
    let off = resolve_2026("{ tools: { toolSearch: false } }", &ctx());
    assert!(off.trace("wiki_search").is_none(), "not in the registry");
    let on = r#"{ tools: { toolSearch: false },
        plugins: { entries: { "Memory-Wiki": { enabled: true }, workboard: { enabled: true } } } }"#;
    let res = resolve_2026(on, &ctx());
    assert!(res.trace("wiki_search").unwrap().visible);
    // workboard's tools are optional: no allowlist selects them.
    let list = removal(&res, "workboard_list");
    assert_eq!(list.layer, LayerId::Owner);
    assert!(
        list.reason.contains("optional plugin tool"),
        "{}",
        list.reason
    );
    // An alsoAllow naming the plugin selects them; another optional plugin stays out.
    let named = r#"{ tools: { toolSearch: false, alsoAllow: ["workboard"] },
        plugins: { entries: { workboard: { enabled: true }, "llm-task": { enabled: true } } } }"#;
    let res = resolve_2026(named, &ctx());
    assert!(res.trace("workboard_list").unwrap().visible);
    assert!(!res.trace("llm-task").unwrap().visible);
    // A plugin the allowlist of plugins leaves out is not loaded, turned on or not.
    let denied = r#"{ tools: { toolSearch: false },
        plugins: { deny: ["memory-wiki"], entries: { "memory-wiki": { enabled: true } } } }"#;
    assert!(
        !resolve_2026(denied, &ctx())
            .trace("wiki_search")
            .unwrap()
            .visible
    );
}

#[test]
fn a_turns_sender_decides_the_form_explain_names() {
    let cfg = load_from_str_with_pack(
        "{ tools: { profile: 'full', toolSearch: false }, commands: { ownerAllowFrom: ['telegram:42'] } }",
        "test.json5",
        "2026.9",
    )
    .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let form = |ctx: PolicyContext, tool: &str| -> Option<String> {
        let res = resolve(&cfg, &registry, &ctx.with_session_key()).unwrap();
        let trace = res.tools.iter().find(|t| t.name == tool)?;
        trace
            .notes
            .iter()
            .find(|n| n.topic == "form")
            .map(|n| n.text.clone())
    };
    let control_ui = || PolicyContext {
        client: Some("control-ui".into()),
        ..ctx()
    };
    let admin = form(control_ui(), "automations").expect("a Control UI admin manages");
    assert!(admin.contains("on-exit schedules"), "{admin}");
    let owner = PolicyContext {
        channel: Some("telegram".into()),
        sender_id: Some("42".into()),
        ..ctx()
    };
    let by_owner = form(owner, "automations").expect("the channel owner manages");
    assert!(by_owner.contains("commands.ownerAllowFrom"), "{by_owner}");
    assert_eq!(form(ctx(), "automations"), None, "a local run does not");
    let guest = PolicyContext {
        owner: Some(false),
        ..control_ui()
    };
    let library = form(guest, "skill_workshop").expect("a guest has a library");
    assert!(library.contains("personal skill library"), "{library}");
    let own_chat = PolicyContext {
        client: Some("cli".into()),
        ..ctx()
    };
    assert_eq!(
        form(own_chat, "skill_workshop"),
        None,
        "a CLI client has none"
    );
}
