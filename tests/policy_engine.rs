//! The policy engine on fixture configs (valid and invalid) and its properties.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clawdeck_core::catalog::{Registry, core_specs, plugins};
use clawdeck_core::config::{self, ConfigErrorKind};
use clawdeck_core::context::PolicyContext;
use clawdeck_core::policy::matcher::{CompiledList, NO_MATCH};
use clawdeck_core::policy::{self, Decision, LayerId, LayerPolicy, Resolution, RuleEntry};
use proptest::prelude::*;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/configs")
        .join(rel)
}

fn resolve_file(rel: &str, ctx: &PolicyContext) -> Resolution {
    // These fixtures are the seeds' examples: answered by the seed pack whatever is installed.
    let cfg = config::load(Some(&fixture(rel)))
        .unwrap()
        .with_pack("seed")
        .unwrap();
    let registry = Registry::build(&cfg, &clawdeck_core::mcp_servers::ServerListing::Off);
    policy::resolve(&cfg, &registry, ctx).unwrap()
}

fn hidden_by(res: &Resolution, tool: &str) -> Option<LayerId> {
    res.trace(tool)
        .unwrap()
        .removed_by
        .as_ref()
        .map(|r| r.layer)
}

#[test]
fn seed_examples_profile_with_also_allow() {
    let res = resolve_file("valid/seed_3_4.json5", &PolicyContext::default());
    assert!(res.trace("web_search").unwrap().visible);
    assert!(res.trace("exec").unwrap().visible);
    assert_eq!(hidden_by(&res, "browser"), Some(LayerId::Profile));
}

#[test]
fn seed_examples_provider_model_allows_everything_the_profile_left() {
    let opus = PolicyContext {
        provider: Some("anthropic".into()),
        model: Some("claude-opus-4".into()),
        ..Default::default()
    };
    let res = resolve_file("valid/seed_3_4.json5", &opus);
    assert_eq!(
        res.layer(LayerId::GlobalProvider).unwrap().allow,
        Some(vec!["*".to_string()])
    );
    assert!(res.trace("exec").unwrap().visible);
}

#[test]
fn seed_examples_support_bot() {
    let bot = PolicyContext {
        agent: Some("support-bot".into()),
        ..Default::default()
    };
    let res = resolve_file("valid/seed_3_4.json5", &bot);
    // messaging profile (with the global alsoAllow), then the agent allowlist and deny.
    assert_eq!(
        res.visible_names(),
        vec!["message", "web_search", "web_fetch"]
    );
    assert_eq!(hidden_by(&res, "sessions_list"), Some(LayerId::Agent));
}

#[test]
fn seed_examples_group_senders() {
    let admin = PolicyContext {
        channel: Some("telegram".into()),
        group: Some("-100123456".into()),
        sender_id: Some("admin_user".into()),
        ..Default::default()
    };
    let res = resolve_file("valid/seed_3_4.json5", &admin);
    assert!(res.trace("exec").unwrap().visible);
    let other = PolicyContext {
        sender_id: Some("someone".into()),
        ..admin.clone()
    };
    let res = resolve_file("valid/seed_3_4.json5", &other);
    assert_eq!(hidden_by(&res, "exec"), Some(LayerId::Group));
    let elsewhere = PolicyContext {
        group: Some("-5".into()),
        ..admin
    };
    let res = resolve_file("valid/seed_3_4.json5", &elsewhere);
    assert_eq!(
        res.layer(LayerId::Group).unwrap().source_path.as_deref(),
        Some("channels.telegram.groups.\"*\".tools")
    );
    assert_eq!(
        res.trace("gateway")
            .unwrap()
            .decision(LayerId::Group)
            .unwrap()
            .decision,
        Decision::Removed
    );
}

#[test]
fn real_openclaw_config_loads_quietly_and_explains_exec_for_ops() {
    // A config of the seed's OpenClaw (2026.9.6 refuses `meta.lastTouchedAt`,
    // `tools.exec.timeoutSec`, ...): read as the seed's OpenClaw read it.
    let path = fixture("valid/real_openclaw.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let cfg = config::load_from_str_with_pack(&text, &path.display().to_string(), "seed").unwrap();
    assert!(cfg.warnings.is_empty(), "{:?}", cfg.warnings);
    assert_eq!(cfg.agent_ids(), vec!["main", "ops", "family"]);
    assert_eq!(cfg.models(), vec!["mock/mock-1"]);
    let registry = Registry::build(&cfg, &clawdeck_core::mcp_servers::ServerListing::Off);
    let ops = PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    };
    let res = policy::resolve(&cfg, &registry, &ops).unwrap();
    let exec = res.trace("exec").unwrap();
    let removal = exec.removed_by.as_ref().unwrap();
    assert_eq!(removal.layer, LayerId::Agent);
    assert_eq!(removal.pattern.as_deref(), Some("exec"));
    assert_eq!(
        removal.config_path.as_deref(),
        Some("agents.list[1].tools.deny[0]")
    );
    // ops is sandboxed by its own mode; the sandbox policy comes from the agent.
    assert!(res.resolved.sandboxed);
    assert_eq!(
        res.layer(LayerId::Sandbox).unwrap().source_path.as_deref(),
        Some("agents.list[1].tools.sandbox.tools")
    );
    // The keyed agents.entries form works too.
    let family = PolicyContext {
        agent: Some("family".into()),
        ..Default::default()
    };
    let res = policy::resolve(&cfg, &registry, &family).unwrap();
    // family allows read and message, but it runs sandboxed and the default sandbox allowlist
    // has no message tool: the sandbox layer is the one to change.
    assert_eq!(res.visible_names(), vec!["read"]);
    assert_eq!(hidden_by(&res, "message"), Some(LayerId::Sandbox));
}

#[test]
fn every_layer_fixture_uses_all_ten_layers() {
    let ctx = PolicyContext {
        agent: Some("ops".into()),
        provider: Some("openai".into()),
        model: Some("gpt-5".into()),
        channel: Some("telegram".into()),
        group: Some("-1".into()),
        sender_id: Some("9".into()),
        session_key: Some("agent:ops:subagent:1".into()),
        owner: Some(false),
        ..Default::default()
    };
    let res = resolve_file("valid/every_layer.json5", &ctx);
    for layer in &res.layers {
        assert!(
            layer.present && layer.removed > 0,
            "{:?} removed nothing: {}",
            layer.id,
            layer.note
        );
    }
    let expected = [
        ("whatsapp_login", LayerId::Owner),
        ("gateway", LayerId::Profile),
        ("memory_get", LayerId::ProviderProfile),
        ("agents_list", LayerId::Global),
        ("nodes", LayerId::GlobalProvider),
        ("cron", LayerId::Agent),
        ("tts", LayerId::AgentProvider),
        ("browser", LayerId::Group),
        ("web_fetch", LayerId::Sandbox),
        ("sessions_list", LayerId::Subagent),
    ];
    for (tool, layer) in expected {
        assert_eq!(hidden_by(&res, tool), Some(layer), "{tool}");
    }
    assert_eq!(
        res.visible_names(),
        vec![
            "read",
            "write",
            "edit",
            "apply_patch",
            "exec",
            "process",
            "message",
            "image"
        ]
    );
}

#[test]
fn invalid_configs_name_file_line_column_and_key() {
    let err = config::load(Some(&fixture("invalid/syntax.json5"))).unwrap_err();
    assert_eq!((err.kind, err.line), (ConfigErrorKind::Syntax, Some(3)));
    assert!(err.to_string().contains("syntax.json5:3:"), "{err}");

    let err = config::load(Some(&fixture("invalid/wrong_type.json5"))).unwrap_err();
    assert_eq!((err.kind, err.line), (ConfigErrorKind::Type, Some(5)));
    assert_eq!(err.key_path.as_deref(), Some("agents.list[1].tools.deny"));

    let err = config::load(Some(&fixture("invalid/not_an_object.json5"))).unwrap_err();
    assert_eq!(err.kind, ConfigErrorKind::Type);
}

// ---------------------------------------------------------------------------------------------
// Properties

fn registry() -> Registry {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plugins");
    let mut warnings = Vec::new();
    Registry::from_parts(core_specs(), plugins::discover(&[dir], &mut warnings))
}

/// An independent oracle for one pattern: `*` any run of characters, everything else literal.
fn wildcard_matches(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(i) => rest = &rest[i + middle.len()..],
            None => return false,
        }
    }
    true
}

fn oracle_matches(registry: &Registry, pattern: &str, name: &str) -> bool {
    let p = policy::normalize_tool_name(pattern);
    if p.is_empty() {
        return false;
    }
    if p != "*"
        && let Some(members) = registry.expand_group(&p)
    {
        return members.iter().any(|m| m == name);
    }
    wildcard_matches(&p, name)
}

fn pattern_strategy() -> impl Strategy<Value = String> {
    let names: Vec<String> = registry().tools.iter().map(|t| t.name.clone()).collect();
    prop_oneof![
        4 => proptest::sample::select(names),
        2 => proptest::sample::select(vec![
            "group:fs", "group:runtime", "group:web", "group:sessions", "group:openclaw", "group:plugins",
            "textkit", "notes", "group:nope", "BASH", "apply-patch",
        ]).prop_map(str::to_string),
        2 => proptest::sample::select(vec![
            "*", "sessions_*", "*_list", "web_*", "*e*", "s*s", "mem*_get", "**", "[ab]*", "a?c*", "{x,y}*", "\\*",
        ]).prop_map(str::to_string),
        1 => "[a-z_*?\\[\\]{}]{0,8}",
    ]
}

fn list_strategy() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(pattern_strategy(), 0..5)
}

fn layer_strategy() -> impl Strategy<Value = LayerPolicy> {
    (
        any::<bool>(),
        proptest::option::of(list_strategy()),
        list_strategy(),
    )
        .prop_map(|(present, allow, deny)| {
            let entries = |list: &[String], kind: &str| {
                list.iter()
                    .enumerate()
                    .map(|(i, p)| RuleEntry::configured(p.clone(), format!("x.{kind}[{i}]")))
                    .collect()
            };
            LayerPolicy {
                id: LayerId::Global,
                label: "test".into(),
                present,
                source_path: None,
                allow: allow.as_ref().map(|a| entries(a, "allow")),
                allow_path: Some("x.allow".into()),
                deny: entries(&deny, "deny"),
                note: String::new(),
                defaults_plus: None,
                miss_reason: None,
            }
        })
}

fn layers_strategy() -> impl Strategy<Value = Vec<LayerPolicy>> {
    proptest::collection::vec(layer_strategy(), 0..6).prop_map(|mut layers| {
        for (layer, id) in layers.iter_mut().zip(LayerId::ALL) {
            layer.id = id;
        }
        layers
    })
}

fn visible_set(res: &Resolution) -> BTreeSet<String> {
    res.visible().map(|t| t.name.clone()).collect()
}

fn run_layers(layers: &[LayerPolicy], registry: &Registry) -> Resolution {
    policy::resolve_layers(layers.to_vec(), registry, &mut Vec::new())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A tool matched by a deny entry of any present layer is never visible.
    #[test]
    fn deny_always_wins(layers in layers_strategy()) {
        let registry = registry();
        let res = run_layers(&layers, &registry);
        for tool in &res.tools {
            let denied = layers.iter().filter(|l| l.present).any(|l| {
                l.deny.iter().any(|e| oracle_matches(&registry, &e.pattern, &tool.name))
            });
            if denied {
                prop_assert!(!tool.visible, "{} visible despite a deny", tool.name);
            }
        }
    }

    /// Adding a layer at the end never makes a tool visible.
    #[test]
    fn a_later_layer_never_adds(layers in layers_strategy(), extra in layer_strategy()) {
        let registry = registry();
        let before = visible_set(&run_layers(&layers, &registry));
        let mut more = layers.clone();
        more.push(extra);
        let after = visible_set(&run_layers(&more, &registry));
        prop_assert!(after.is_subset(&before));
    }

    /// A layer with an empty allowlist and no deny changes nothing.
    #[test]
    fn empty_allow_keeps_all(layers in layers_strategy(), at in 0usize..6) {
        let registry = registry();
        let before = visible_set(&run_layers(&layers, &registry));
        let mut more = layers.clone();
        let empty = LayerPolicy {
            id: LayerId::Sandbox, label: "empty".into(), present: true, source_path: None,
            allow: Some(Vec::new()), allow_path: None, deny: Vec::new(), note: String::new(), miss_reason: None, defaults_plus: None,
        };
        more.insert(at.min(more.len()), empty);
        prop_assert_eq!(before, visible_set(&run_layers(&more, &registry)));
    }

    /// The final list is an AND: the order of layers does not change it.
    #[test]
    fn layer_order_does_not_change_the_result(layers in layers_strategy(), seed in any::<u64>()) {
        let registry = registry();
        let before = visible_set(&run_layers(&layers, &registry));
        let mut shuffled = layers.clone();
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        prop_assert_eq!(before, visible_set(&run_layers(&shuffled, &registry)));
    }

    /// Pattern-major matching over the registry gives the same first match as name-by-name.
    #[test]
    fn whole_registry_matching_agrees_with_single_names(list in list_strategy()) {
        let registry = registry();
        let entries = list.iter().enumerate().map(|(i, p)| RuleEntry::configured(p.clone(), format!("x[{i}]"))).collect();
        let compiled = CompiledList::compile(entries, &registry);
        let mut used_all = vec![false; list.len()];
        let first = compiled.first_matches(&registry, &mut used_all);
        let mut used_each = vec![false; list.len()];
        for (i, tool) in registry.tools.iter().enumerate() {
            let one = compiled.scan(&tool.name, &mut Vec::new(), &mut used_each);
            prop_assert_eq!(one.map(|p| p as u32).unwrap_or(NO_MATCH), first[i], "{}", tool.name);
            let oracle = list.iter().any(|p| oracle_matches(&registry, p, &tool.name));
            prop_assert_eq!(one.is_some(), oracle, "{} vs {:?}", tool.name, list);
        }
        prop_assert_eq!(used_all, used_each);
    }

    /// The explanation agrees with the final list, layer by layer.
    #[test]
    fn explanation_agrees_with_the_final_list(layers in layers_strategy()) {
        let registry = registry();
        let res = run_layers(&layers, &registry);
        for tool in &res.tools {
            let first_removed = tool.decisions.iter().find(|d| d.decision == Decision::Removed);
            prop_assert_eq!(tool.visible, first_removed.is_none());
            prop_assert_eq!(tool.removed_by.as_ref().map(|r| r.layer), first_removed.map(|d| d.id));
            let mut reached = true;
            for (d, layer) in tool.decisions.iter().zip(&layers) {
                prop_assert_eq!(d.reached, reached);
                prop_assert_eq!(d.decision == Decision::Skipped, !layer.present);
                if d.decision == Decision::Removed { reached = false; }
            }
        }
        let removed: usize = res.layers.iter().map(|l| l.removed).sum();
        prop_assert_eq!(removed, res.tools.iter().filter(|t| !t.visible).count());
    }
}

/// Random JSON documents over the config's own keys.
fn json_strategy() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i32>().prop_map(serde_json::Value::from),
        pattern_strategy().prop_map(serde_json::Value::from),
    ];
    let keys = proptest::sample::select(vec![
        "tools",
        "agents",
        "list",
        "entries",
        "defaults",
        "channels",
        "telegram",
        "groups",
        "accounts",
        "toolsBySender",
        "*",
        "id:1",
        "allow",
        "alsoAllow",
        "deny",
        "profile",
        "byProvider",
        "openai",
        "sandbox",
        "mode",
        "subagents",
        "id",
        "model",
        "workspaceAccess",
        "commands",
        "ownerAllowFrom",
        "plugins",
        "load",
        "paths",
        "x",
    ]);
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            proptest::collection::btree_map(keys.clone().prop_map(str::to_string), inner, 0..5)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn context_strategy() -> impl Strategy<Value = PolicyContext> {
    let opt = |v: Vec<&'static str>| {
        proptest::option::of(proptest::sample::select(v).prop_map(str::to_string))
    };
    (
        opt(vec!["main", "ops", "x", ""]),
        opt(vec!["openai", "OPENAI", "google"]),
        opt(vec!["gpt-5", "openai/gpt-5", "/"]),
        opt(vec!["telegram", "x"]),
        opt(vec!["*", "id:1", "-1:topic:2:sender:3", ""]),
        opt(vec!["1", "@a", " "]),
        opt(vec![
            "subagent:1",
            "agent:main:subagent:x",
            "agent:main:main",
        ]),
        proptest::option::of(any::<bool>()),
        any::<(bool, bool, bool)>(),
    )
        .prop_map(
            |(
                agent,
                provider,
                model,
                channel,
                group,
                sender,
                session_key,
                owner,
                (subagent, sandboxed, remote),
            )| {
                PolicyContext {
                    agent,
                    provider,
                    model,
                    channel,
                    group,
                    sender_id: sender.clone(),
                    sender_username: sender,
                    session_key,
                    owner,
                    subagent,
                    sandboxed,
                    remote,
                    ..Default::default()
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// No config document and no context makes loading or resolving panic.
    #[test]
    fn random_configs_never_panic(doc in json_strategy(), ctx in context_strategy()) {
        let text = doc.to_string();
        if let Ok(cfg) = config::load_from_str(&text, "random.json") {
            let registry = registry();
            if let Ok(res) = policy::resolve(&cfg, &registry, &ctx) {
                let _ = policy::render_table(&res);
                let _ = serde_json::to_string(&res);
            }
        }
    }

    /// Arbitrary text (mostly broken JSON5) is an error with a position, never a panic.
    #[test]
    fn random_text_never_panics(text in "[{}\\[\\]:,'\"a-z0-9 \\n/*]{0,60}") {
        if let Err(err) = config::load_from_str(&text, "t.json5") {
            prop_assert!(!err.to_string().is_empty());
        }
    }
}
