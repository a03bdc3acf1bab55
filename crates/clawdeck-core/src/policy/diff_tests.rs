use super::*;
use crate::catalog::Registry;
use crate::config::{LoadedConfig, load_from_str};
use crate::policy::{LayerId, resolve};

fn loaded(text: &str, pack: &str) -> (LoadedConfig, Registry) {
    let cfg = load_from_str(text, "t.json5")
        .unwrap()
        .with_pack(pack)
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    (cfg, registry)
}

fn ctx(agent: &str) -> PolicyContext {
    PolicyContext {
        agent: Some(agent.to_string()),
        ..PolicyContext::default()
    }
}

#[test]
fn two_agents_differ_by_the_rule_of_the_side_that_hides() {
    let (cfg, registry) = loaded(
        "{ tools: { profile: 'coding' }, agents: { ownership: 'explicit', entries: { main: {}, ops: { tools: { deny: ['exec'], alsoAllow: ['browser'] } } } } }",
        "2026.9",
    );
    let a = resolve(&cfg, &registry, &ctx("main")).unwrap();
    let b = resolve(&cfg, &registry, &ctx("ops")).unwrap();
    let input = |label: &str, res| DiffInput {
        label: label.to_string(),
        config: cfg.describe(),
        resolution: res,
        semantics: &registry.semantics,
    };
    let d = diff(&input("agent main", &a), &input("agent ops", &b));
    assert!(!d.is_same());
    let gone: Vec<&str> = d.disappear.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(gone, vec!["exec"]);
    let exec = &d.disappear[0];
    assert_eq!(exec.hidden_on, SideId::B);
    assert_eq!(exec.hidden_by.layer, LayerId::Agent);
    assert_eq!(exec.hidden_by.pattern.as_deref(), Some("exec"));
    assert_eq!(
        exec.hidden_by.config_path.as_deref(),
        Some("agents.entries.ops.tools.deny[0]")
    );
    let came: Vec<&str> = d.appear.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(came, vec!["browser"]);
    assert_eq!(d.appear[0].hidden_on, SideId::A);
    assert_eq!(d.appear[0].hidden_by.layer, LayerId::Profile);
    assert!(d.only_in_a.is_empty() && d.only_in_b.is_empty());
    let text = render_diff(&d);
    assert!(text.contains("- exec"), "{text}");
    assert!(text.contains("+ browser"), "{text}");
}

#[test]
fn the_same_context_twice_is_no_difference() {
    let (cfg, registry) = loaded("{ tools: { deny: ['exec'] } }", "2026.9");
    let a = resolve(&cfg, &registry, &PolicyContext::default()).unwrap();
    let input = DiffInput {
        label: "a".into(),
        config: cfg.describe(),
        resolution: &a,
        semantics: &registry.semantics,
    };
    let d = diff(&input, &input);
    assert!(d.is_same());
    assert_eq!(d.visible_in_both, a.visible().count());
    assert!(render_diff(&d).contains("no difference"));
}

#[test]
fn two_versions_report_tools_only_one_has_with_their_other_name() {
    let text = "{ tools: { allow: ['group:fs', 'cron', 'image'] } }";
    let (seed_cfg, seed_reg) = loaded(text, "seed");
    let (today_cfg, today_reg) = loaded(text, "2026.9");
    let a = resolve(&seed_cfg, &seed_reg, &PolicyContext::default()).unwrap();
    let b = resolve(&today_cfg, &today_reg, &PolicyContext::default()).unwrap();
    let d = diff(
        &DiffInput {
            label: "seed".into(),
            config: seed_cfg.describe(),
            resolution: &a,
            semantics: &seed_reg.semantics,
        },
        &DiffInput {
            label: "today".into(),
            config: today_cfg.describe(),
            resolution: &b,
            semantics: &today_reg.semantics,
        },
    );
    let only_a = |name: &str| d.only_in_a.iter().find(|t| t.tool == name).unwrap();
    let only_b = |name: &str| d.only_in_b.iter().find(|t| t.tool == name).unwrap();
    assert!(only_a("cron").visible);
    assert_eq!(only_a("cron").other_name.as_deref(), Some("automations"));
    assert_eq!(only_a("image").other_name.as_deref(), Some("view_image"));
    assert!(only_b("automations").visible, "cron still names it");
    assert_eq!(only_b("automations").other_name.as_deref(), Some("cron"));
    assert!(!only_b("sessions_yield").visible);
    assert_eq!(d.a.openclaw, "seed");
    assert_eq!(d.b.openclaw, "2026.9");
    // write, read ... visible on both.
    assert!(d.visible_in_both >= 4);
}

#[test]
fn overrides_set_context_fields_and_name_bad_keys() {
    let mut c = PolicyContext::default();
    apply_override(&mut c, "agent=ops").unwrap();
    apply_override(&mut c, "sandboxed=true").unwrap();
    apply_override(&mut c, "owner=false").unwrap();
    apply_override(&mut c, "sender_id=42").unwrap();
    apply_override(&mut c, "subagent-depth=2").unwrap();
    assert_eq!(c.agent.as_deref(), Some("ops"));
    assert!(c.sandboxed && c.subagent);
    assert_eq!(c.owner, Some(false));
    assert_eq!(c.sender_id.as_deref(), Some("42"));
    assert_eq!(c.subagent_depth, Some(2));
    let err = apply_override(&mut c, "colour=red").unwrap_err();
    assert!(err.contains("unknown context key \"colour\""), "{err}");
    assert!(
        apply_override(&mut c, "sandboxed=maybe")
            .unwrap_err()
            .contains("true or false")
    );
    assert!(
        apply_override(&mut c, "agent")
            .unwrap_err()
            .contains("KEY=VALUE")
    );
}

#[test]
fn console_helpers_compare_contexts_and_versions() {
    let (cfg, registry) = loaded(
        "{ agents: { ownership: 'explicit', entries: { main: {}, ops: { tools: { deny: ['group:web'] } } } } }",
        "2026.9",
    );
    let d = diff_contexts(&cfg, &registry, &ctx("main"), &ctx("ops")).unwrap();
    assert_eq!(d.b.label, "agent ops");
    let gone: Vec<&str> = d.disappear.iter().map(|c| c.tool.as_str()).collect();
    assert!(gone.contains(&"web_fetch"), "{gone:?}");
    assert!(d.disappear.iter().all(|c| {
        c.hidden_by.expanded_from.as_deref() == Some("group:web")
            && c.hidden_by.config_path.as_deref() == Some("agents.entries.ops.tools.deny[0]")
    }));
    assert!(diff_contexts(&cfg, &registry, &ctx("main"), &ctx("ghost")).is_err());

    let sandboxed = PolicyContext {
        sandboxed: true,
        owner: Some(false),
        ..ctx("main")
    };
    assert_eq!(
        describe_context(&sandboxed, "main"),
        "agent main, owner=false, sandboxed=true"
    );
    let v = diff_versions(&cfg, &Default::default(), &ctx("main"), "seed", "2026.9").unwrap();
    assert_eq!(
        (v.a.openclaw.as_str(), v.b.openclaw.as_str()),
        ("seed", "2026.9")
    );
    assert!(v.only_in_b.iter().any(|t| t.tool == "automations"));
    assert!(diff_versions(&cfg, &Default::default(), &ctx("main"), "seed", "1999.1").is_err());
}

#[test]
fn what_if_changes_context_and_version_on_side_b_only() {
    let (cfg, registry) = loaded(
        "{ tools: { profile: 'coding' }, agents: { ownership: 'explicit', entries: { main: {}, ops: { tools: { deny: ['exec'] } } } } }",
        "2026.9",
    );
    // Same version: a context change alone.
    let d = diff_what_if(&cfg, &registry, &ctx("main"), &ctx("ops"), Some("2026.9")).unwrap();
    assert_eq!(d.a.openclaw, d.b.openclaw);
    let gone: Vec<&str> = d.disappear.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(gone, vec!["exec"]);
    assert_eq!(
        d.disappear[0].hidden_by.config_path.as_deref(),
        Some("agents.entries.ops.tools.deny[0]")
    );
    // Another version on b, same context: b answers with the seed pack, a keeps 2026.9.
    let d = diff_what_if(&cfg, &registry, &ctx("main"), &ctx("main"), Some("seed")).unwrap();
    assert_eq!(d.a.openclaw, "2026.9");
    assert_eq!(d.b.openclaw, "seed");
    assert!(
        d.only_in_a.iter().any(|t| t.tool == "automations"),
        "{:?}",
        d.only_in_a
    );
    assert!(diff_what_if(&cfg, &registry, &ctx("main"), &ctx("main"), Some("1999.1")).is_err());
}
