use std::cell::Cell;

use super::*;
use crate::config::{load_from_str, load_from_str_with_pack};

thread_local! {
    /// How often two findings were compared while gathering (see `FindingKey`).
    static KEY_COMPARISONS: Cell<u64> = const { Cell::new(0) };
}

pub(super) fn count_key_comparison() {
    KEY_COMPARISONS.with(|c| c.set(c.get() + 1));
}

fn report_for(text: &str, pack: &str) -> LintReport {
    let cfg = load_from_str_with_pack(text, "test.json5", pack).unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    lint(&cfg, &registry, &LintScope::AllAgents, Some(text)).unwrap()
}

fn of_kind(report: &LintReport, kind: FindingKind) -> Vec<&Finding> {
    report.findings.iter().filter(|f| f.kind == kind).collect()
}

#[test]
fn allow_with_also_allow_is_an_error_today_and_a_note_in_the_seed() {
    let text =
        "{ agents: { entries: { ops: { tools: { allow: ['read'], alsoAllow: ['exec'] } } } } }";
    // OpenClaw 2026.9 refuses the config before any lint (its schema's rule, schema_check).
    let refused = load_from_str_with_pack(text, "test.json5", "2026.9").unwrap_err();
    assert_eq!(
        refused.key_path.as_deref(),
        Some("agents.entries.ops.tools")
    );
    assert!(refused.message.contains("allow and alsoAllow"), "{refused}");

    let seed = report_for(text, "seed");
    let found = of_kind(&seed, FindingKind::AllowWithAlsoAllow);
    assert_eq!(found[0].severity, Severity::Info);
}

#[test]
fn renamed_and_unknown_names_are_told_apart() {
    let text = "{ tools: { deny: ['image', 'cron', 'whatsapp_login', 'bash', 'nope_tool', 'group:nope', 'outlook__*', 'code_execution'] },
        mcp: { servers: { outlook: { command: 'x' } } } }";
    let report = report_for(text, "2026.9");
    let by_path = |path: &str| {
        report
            .findings
            .iter()
            .filter(|f| f.config_path.as_deref() == Some(path))
            .collect::<Vec<_>>()
    };
    let image = by_path("tools.deny[0]");
    assert_eq!(image.len(), 1);
    assert_eq!(image[0].kind, FindingKind::RenamedName);
    assert_eq!(image[0].severity, Severity::Warning);
    assert!(
        image[0].message.contains("\"view_image\""),
        "{}",
        image[0].message
    );
    assert!(image[0].message.contains("denies nothing"));

    let cron = by_path("tools.deny[1]");
    assert_eq!(cron[0].kind, FindingKind::RenamedName);
    assert_eq!(cron[0].severity, Severity::Info);
    assert!(cron[0].message.contains("\"automations\""));

    let whatsapp = by_path("tools.deny[2]");
    assert_eq!(whatsapp[0].kind, FindingKind::UnknownName);
    assert!(whatsapp[0].message.contains("a tool of the seed design"));

    assert!(by_path("tools.deny[3]").is_empty(), "bash is an old alias");
    assert!(by_path("tools.deny[4]")[0].message.contains("a typo"));
    assert!(
        by_path("tools.deny[5]")[0]
            .message
            .contains("no such group")
    );
    assert!(by_path("tools.deny[6]").is_empty(), "an MCP server glob");
    assert!(by_path("tools.deny[7]").is_empty(), "a conditional tool");
}

#[test]
fn seed_names_today_tools_as_unknown_with_a_hint() {
    let report = report_for("{ tools: { allow: ['read', 'automations'] } }", "seed");
    let found = of_kind(&report, FindingKind::UnknownName);
    assert_eq!(found.len(), 1);
    assert!(found[0].message.contains("a tool of OpenClaw 2026.9"));
}

#[test]
fn an_allowlist_leaving_no_tool_is_an_error_naming_the_list() {
    let report = report_for("{ tools: { allow: ['nonexistent_tool'] } }", "2026.9");
    let found = of_kind(&report, FindingKind::NoCallableTool);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(found[0].severity, Severity::Error);
    assert_eq!(found[0].config_path.as_deref(), Some("tools.allow"));
    assert!(found[0].message.contains("No callable tools remain"));
    assert_eq!(found[0].contexts, vec!["agent main".to_string()]);
    assert_eq!(report.findings[0].kind, FindingKind::NoCallableTool);
}

#[test]
fn plugin_only_allowlists_are_found_in_both_packs() {
    let text = "{ agents: { list: [{ id: 'ops', tools: { allow: ['group:plugins'] } }] } }";
    let today = report_for(text, "2026.9");
    let found = of_kind(&today, FindingKind::PluginOnlyAllowlist);
    assert_eq!(found.len(), 1, "{:#?}", today.findings);
    assert!(found[0].message.contains("every core tool is removed"));
    assert_eq!(
        found[0].config_path.as_deref(),
        Some("agents.list[0].tools.allow")
    );

    let seed = report_for(text, "seed");
    let found = of_kind(&seed, FindingKind::PluginOnlyAllowlist);
    assert_eq!(found.len(), 1, "{:#?}", seed.findings);
    assert!(found[0].message.contains("Ignoring allowlist"));
    assert!(of_kind(&seed, FindingKind::NoCallableTool).is_empty());
}

#[test]
fn mcp_tools_behind_the_sandbox_gate() {
    let base = "agents: { defaults: { sandbox: { mode: 'all' } } }, mcp: { servers: { outlook: { command: 'x' } } }";
    let report = report_for(&format!("{{ {base} }}"), "2026.9");
    let found = of_kind(&report, FindingKind::McpHiddenBySandbox);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(
        found[0].config_path.as_deref(),
        Some("tools.sandbox.tools.alsoAllow")
    );
    assert!(found[0].message.contains("\"outlook__*\""));

    let fixed =
        format!("{{ {base}, tools: {{ sandbox: {{ tools: {{ alsoAllow: ['bundle-mcp'] }} }} }} }}");
    assert!(
        of_kind(
            &report_for(&fixed, "2026.9"),
            FindingKind::McpHiddenBySandbox
        )
        .is_empty()
    );
    // A minimal profile hides MCP tools before the sandbox: not the gate's doing.
    let minimal = format!("{{ {base}, tools: {{ profile: 'minimal' }} }}");
    assert!(
        of_kind(
            &report_for(&minimal, "2026.9"),
            FindingKind::McpHiddenBySandbox
        )
        .is_empty()
    );
    // The seed design has no MCP gate.
    assert!(
        of_kind(
            &report_for(&format!("{{ {base} }}"), "seed"),
            FindingKind::McpHiddenBySandbox
        )
        .is_empty()
    );
}

#[test]
fn non_main_sandboxes_are_linted_as_their_own_context() {
    let text = "{ agents: { entries: { ops: { sandbox: { mode: 'non-main' } } } }, mcp: { servers: { gh: { command: 'x' } } } }";
    let report = report_for(text, "2026.9");
    let labels: Vec<&str> = report.contexts.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        vec!["agent ops", "agent ops (non-main session, sandboxed)"]
    );
    let found = of_kind(&report, FindingKind::McpHiddenBySandbox);
    assert_eq!(
        found[0].contexts,
        vec!["agent ops (non-main session, sandboxed)".to_string()]
    );
}

#[test]
fn exec_approvals_without_a_surface() {
    let report = report_for("{ tools: { exec: { ask: 'always' } } }", "2026.9");
    let found = of_kind(&report, FindingKind::ExecApprovalHeadless);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(found[0].config_path.as_deref(), Some("tools.exec.ask"));
    assert!(found[0].message.contains("approvals.exec.enabled"));

    let agent = "{ agents: { entries: { ops: { tools: { exec: { mode: 'ask' } } } } } }";
    let found = report_for(agent, "2026.9");
    assert_eq!(
        of_kind(&found, FindingKind::ExecApprovalHeadless)[0]
            .config_path
            .as_deref(),
        Some("agents.entries.ops.tools.exec.mode")
    );
    for quiet in [
        "{ tools: { exec: { ask: 'always' } }, approvals: { exec: { enabled: true, targets: [{ channel: 'slack', to: 'U1' }] } } }",
        "{ tools: { exec: { ask: 'off' } } }",
        "{ tools: { exec: { ask: 'always' }, deny: ['exec'] } }",
        "{ tools: { exec: { ask: 'always' } }, agents: { defaults: { sandbox: { mode: 'all' } } } }",
    ] {
        let report = report_for(quiet, "2026.9");
        assert!(
            of_kind(&report, FindingKind::ExecApprovalHeadless).is_empty(),
            "{quiet}: {:#?}",
            report.findings
        );
    }
}

#[test]
fn exec_settings_for_a_hidden_exec_and_a_switch_read_as_never_ask() {
    // #33871: exec tuned, but the messaging profile leaves it out.
    let report = report_for(
        "{ tools: { profile: 'messaging', exec: { security: 'allowlist', ask: 'on-miss' } } }",
        "2026.9",
    );
    let found = of_kind(&report, FindingKind::ExecConfigUnused);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(found[0].config_path.as_deref(), Some("tools.profile"));
    assert!(
        found[0].message.contains("tools.exec is configured"),
        "{}",
        found[0].message
    );
    // The global block while one agent still has exec: it configures that agent, no finding.
    let shared = "{ tools: { exec: { ask: 'on-miss' } }, agents: { ownership: 'explicit', entries: { a: {}, b: { tools: { deny: ['exec'] } } } } }";
    assert!(of_kind(&report_for(shared, "2026.9"), FindingKind::ExecConfigUnused).is_empty());
    assert!(found[0].message.contains("alsoAllow"));
    // Only the agent whose exec is hidden: its own settings are named.
    let per_agent = "{ agents: { ownership: 'explicit', entries: { a: {}, b: { tools: { deny: ['exec'], exec: { ask: 'always' } } } } } }";
    let report = report_for(per_agent, "2026.9");
    let found = of_kind(&report, FindingKind::ExecConfigUnused);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(found[0].contexts, ["agent b"]);
    assert!(found[0].message.contains("agents.entries.b.tools.exec"));
    assert!(
        of_kind(
            &report_for("{ tools: { deny: ['exec'] } }", "2026.9"),
            FindingKind::ExecConfigUnused
        )
        .is_empty()
    );

    // approvals.exec.enabled: false does not stop questions.
    let report = report_for(
        "{ tools: { exec: { ask: 'always' } }, approvals: { exec: { enabled: false } } }",
        "2026.9",
    );
    let found = of_kind(&report, FindingKind::ExecApprovalSwitches);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(
        found[0].config_path.as_deref(),
        Some("approvals.exec.enabled")
    );
    assert!(found[0].message.contains("only stops forwarding"));
    assert!(of_kind(&report, FindingKind::ExecApprovalHeadless).is_empty());
}

#[test]
fn a_clean_config_has_no_findings_and_one_context_per_agent() {
    let text = "{ tools: { profile: 'coding' }, agents: { ownership: 'explicit', entries: { a: {}, b: { tools: { deny: ['browser'] } } } } }";
    let report = report_for(text, "2026.9");
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert!(!report.has_problems());
    assert_eq!(report.worst(), None);
    assert_eq!(report.contexts.len(), 2);
    assert_eq!(report.openclaw, "2026.9");
}

#[test]
fn a_given_context_is_the_only_one_linted() {
    let text = "{ agents: { ownership: 'explicit', entries: { a: {}, b: { tools: { allow: ['nothing_here'] } } } } }";
    let cfg = load_from_str(text, "t")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let ctx = PolicyContext {
        agent: Some("a".into()),
        ..PolicyContext::default()
    };
    let report = lint(&cfg, &registry, &LintScope::Context(Box::new(ctx)), None).unwrap();
    assert_eq!(report.contexts.len(), 1);
    assert!(of_kind(&report, FindingKind::NoCallableTool).is_empty());
    let all = lint(&cfg, &registry, &LintScope::AllAgents, None).unwrap();
    assert_eq!(of_kind(&all, FindingKind::NoCallableTool).len(), 1);
    assert!(all.findings.iter().all(|f| f.location.is_none()));
    let unknown = lint(
        &cfg,
        &registry,
        &LintScope::Context(Box::new(PolicyContext {
            agent: Some("zzz".into()),
            ..PolicyContext::default()
        })),
        None,
    );
    assert!(unknown.is_err());
}

#[test]
fn unknown_profiles_are_named() {
    // The seed ignores an unknown profile (2026.9 refuses the config: src/config/tests.rs).
    let report = report_for(
        "{ agents: { list: [{ id: 'a', tools: { profile: 'codeing' } }] } }",
        "seed",
    );
    let found = of_kind(&report, FindingKind::UnknownName);
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(
        found[0].config_path.as_deref(),
        Some("agents.list[0].tools.profile")
    );
    assert!(
        found[0]
            .message
            .contains("coding, full, messaging, minimal")
    );
}

#[test]
fn gathering_findings_from_many_contexts_is_linear() {
    // 20,000 contexts, each with a finding of its own, one finding all share and a repeated
    // label: a search through the findings (and through a finding's contexts) per merge made
    // this ~6e8 comparisons; one hash lookup each makes it about one per merge.
    const CONTEXTS: usize = 20_000;
    let finding = |path: String| {
        Finding::new(
            Severity::Warning,
            FindingKind::ExecApprovalHeadless,
            format!("exec asks at {path}"),
            Some(path),
        )
    };
    KEY_COMPARISONS.with(|c| c.set(0));
    let mut gathered = Gathered::new(vec![finding("tools.exec.ask".into())]);
    for n in 0..CONTEXTS {
        let label = format!("agent a{n}");
        gathered.merge(finding(format!("agents.list[{n}].tools.exec.ask")), &label);
        gathered.merge(finding("tools.exec.ask".into()), &label);
        gathered.merge(finding("tools.exec.ask".into()), &label);
    }
    let comparisons = KEY_COMPARISONS.with(Cell::get);
    let merges = 3 * CONTEXTS as u64;
    assert!(
        comparisons <= 2 * merges,
        "{comparisons} comparisons for {merges} merges: not linear"
    );
    let findings = gathered.into_findings();
    assert_eq!(findings.len(), CONTEXTS + 1);
    assert_eq!(
        findings[0].contexts.len(),
        CONTEXTS,
        "each context named once"
    );
    assert_eq!(
        findings[0].contexts[CONTEXTS - 1],
        format!("agent a{}", CONTEXTS - 1)
    );
    assert_eq!(findings[1].contexts, ["agent a0"]);
}

#[test]
fn many_agents_lint_to_the_same_findings_as_few() {
    // The indexes (agents by id, findings by key, places in one pass) change no answer: the
    // findings for agent n are the same whether it is one of 3 or of 3,000.
    let config = |n: usize| {
        let agents: Vec<String> = (0..n)
            .map(|i| format!("{{ id: 'a{i}', tools: {{ exec: {{ ask: 'always' }} }} }}"))
            .collect();
        format!(
            "{{ tools: {{ profile: 'coding', exec: {{ ask: 'on-miss' }} }}, agents: {{ ownership: 'explicit', list: [{}] }} }}",
            agents.join(", ")
        )
    };
    let small = report_for(&config(3), "2026.9");
    let large = report_for(&config(3_000), "2026.9");
    assert_eq!(large.contexts.len(), 3_000);
    assert_eq!(large.findings.len(), 3_000);
    for (a, b) in small.findings.iter().zip(&large.findings) {
        assert_eq!(
            (&a.message, &a.config_path, &a.contexts, &a.location),
            (&b.message, &b.config_path, &b.contexts, &b.location)
        );
    }
    let last = &large.findings[2_999];
    assert_eq!(
        last.config_path.as_deref(),
        Some("agents.list[2999].tools.exec.ask")
    );
    assert_eq!(last.contexts, ["agent a2999"]);
    assert!(last.location.is_some());
}
