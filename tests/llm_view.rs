//! What the LLM sees, at the library level: provider exports of real-world schemas, the
//! normalisation properties, skills (precedence, eligibility, limits, commands) and the system
//! prompt for fixture contexts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use clawdeck_core::prompt::{PromptInput, PromptMode, RuntimeInfo, build_system_prompt};
use clawdeck_core::provider::gemini::{GEMINI_REWRITTEN_KEYWORDS, gemini_violations};
use clawdeck_core::provider::{
    GEMINI_FORBIDDEN_KEYWORDS, ProviderApi, check_payload, export_tools, normalize_parameters,
    prepare_parameters,
};
use clawdeck_core::skills::commands::dispatch_params;
use clawdeck_core::skills::{
    EligibilityEnv, Ineligible, SkillRoots, SkillSet, SkillSource, SkillsPromptLimits,
    build_skill_commands, find_command, parse_slash, resolve_skills,
};
use clawdeck_core::tool::{ToolFlags, ToolSource, ToolSpec};
use proptest::prelude::*;
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn spec_from(value: &Value, source: ToolSource) -> ToolSpec {
    let name = value["name"].as_str().unwrap_or_default().to_string();
    ToolSpec {
        label: name.clone(),
        name,
        description: value["description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        summary: String::new(),
        emoji: "🧩".to_string(),
        parameters: value["parameters"].clone(),
        source,
        flags: ToolFlags::default(),
    }
}

/// Every schema fixture as a tool spec, in file order.
fn fixture_specs() -> Vec<ToolSpec> {
    let dir = fixtures().join("schemas");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            spec_from(&value, ToolSource::plugin("fixtures"))
        })
        .collect()
}

#[test]
fn every_provider_export_matches_its_snapshot() {
    let specs = fixture_specs();
    for api in ProviderApi::ALL {
        let export = export_tools(api, &specs);
        let shown = json!({"tools": export.payload, "warnings": export.warnings});
        insta::assert_snapshot!(
            format!("export_{}", api.id()),
            serde_json::to_string_pretty(&shown).unwrap()
        );
    }
}

#[test]
fn exports_meet_each_providers_constraints() {
    let specs = fixture_specs();
    for api in ProviderApi::ALL {
        let export = export_tools(api, &specs);
        let problems = check_payload(api, &export.payload);
        assert!(problems.is_empty(), "{api}: {problems:#?}");
        // The non-object root never reaches any provider.
        assert!(!export.tools.contains(&"batch_rename".to_string()), "{api}");
        assert!(
            export
                .warnings
                .iter()
                .any(|w| w.starts_with("batch_rename: dropped")),
            "{api}"
        );
        // Dotted names: only Gemini's pattern allows them.
        assert_eq!(
            export.tools.contains(&"notion.search".to_string()),
            api == ProviderApi::Gemini,
            "{api}"
        );
        // Every tool the exporter kept is an object schema at the top.
        assert_eq!(
            export.tools.len() + export.warnings.len(),
            specs.len(),
            "{api}"
        );
    }
}

#[test]
fn gemini_export_has_no_refs_or_unions_anywhere() {
    let export = export_tools(ProviderApi::Gemini, &fixture_specs());
    let text = export.payload.to_string();
    for keyword in [
        "\"$ref\"",
        "\"anyOf\"",
        "\"oneOf\"",
        "\"allOf\"",
        "\"$defs\"",
        "\"additionalProperties\"",
    ] {
        assert!(
            !text.contains(keyword),
            "{keyword} left in the Gemini payload"
        );
    }
    // The recursive outline stops after one level of inlining.
    let decls = export.payload[0]["functionDeclarations"]
        .as_array()
        .unwrap();
    let outline = decls.iter().find(|d| d["name"] == "write_outline").unwrap();
    let children = &outline["parameters"]["properties"]["root"]["properties"]["children"];
    assert_eq!(
        children["items"],
        json!({"type": "object", "description": "A section with nested subsections."})
    );
}

#[test]
fn root_unions_flatten_for_every_provider() {
    let specs = fixture_specs();
    let message = specs.iter().find(|s| s.name == "message").unwrap();
    for api in ProviderApi::ALL {
        let params = prepare_parameters(api, &message.parameters);
        assert_eq!(params["type"], "object", "{api}");
        assert_eq!(params["required"], json!(["action"]), "{api}");
        assert_eq!(
            params["properties"]["action"]["enum"],
            json!(["send", "react", "poll"]),
            "{api}"
        );
    }
    let lookup = specs.iter().find(|s| s.name == "lookup_record").unwrap();
    let params = prepare_parameters(ProviderApi::OpenAiChat, &lookup.parameters);
    assert!(params.get("oneOf").is_none());
    assert!(
        params["properties"].get("id").is_some() && params["properties"].get("email").is_some()
    );
    assert!(params.get("required").is_none());
}

// ---------------------------------------------------------------------------------------------
// Properties of normalisation.

fn leaf_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(
            json!({"type": "string", "format": "uri", "minLength": 1, "pattern": "^a", "examples": ["a"]})
        ),
        Just(json!({"type": ["integer", "null"], "minimum": 0, "maximum": 9, "multipleOf": 3})),
        Just(json!({"const": "fixed"})),
        Just(json!({"const": 7})),
        Just(json!({"enum": [1, 2, null], "description": "level"})),
        Just(json!({"enum": ["a", "b"]})),
        Just(json!({"type": "null"})),
        Just(json!({"$ref": "#/$defs/Node"})),
        Just(json!({"$ref": "#/definitions/Missing", "description": "dangling"})),
        Just(json!(true)),
        Just(json!({"type": "array", "uniqueItems": true})),
        Just(
            json!({"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1})
        ),
        Just(
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "x", "type": "boolean"})
        ),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(4, 48, 4, |inner| {
        prop_oneof![
            (prop::collection::btree_map("[a-z]{1,5}|format|pattern|path|oldText", inner.clone(), 0..4), any::<bool>())
                .prop_map(|(props, strict)| {
                    let required: Vec<String> = props.keys().step_by(2).cloned().chain(["ghost".to_string()]).collect();
                    json!({"type": "object", "properties": props, "required": required, "additionalProperties": !strict})
                }),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"anyOf": v})),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"oneOf": v, "description": "either"})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"allOf": v})),
            inner.clone().prop_map(|i| json!({"type": "array", "items": i, "minItems": 1, "maxItems": 5})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"type": "array", "items": v})),
            inner.clone().prop_map(|i| json!({"not": i, "type": "string"})),
            (inner.clone(), inner).prop_map(|(a, b)| json!({
                "properties": {"a": a, "next": {"$ref": "#/$defs/Node"}},
                "$defs": {"Node": {"type": "object", "properties": {"v": b, "next": {"$ref": "#/$defs/Node"}}}},
                "patternProperties": {"^x": {}}
            })),
        ]
    })
}

/// Every key at a schema position (properties values, items), for the forbidden-keyword check.
fn schema_keys(schema: &Value, out: &mut Vec<String>) {
    let Some(obj) = schema.as_object() else {
        return;
    };
    out.extend(obj.keys().cloned());
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for sub in props.values() {
            schema_keys(sub, out);
        }
    }
    if let Some(items) = obj.get("items") {
        schema_keys(items, out);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn normalisation_is_idempotent(schema in schema()) {
        let once = normalize_parameters(&schema);
        prop_assert_eq!(&normalize_parameters(&once), &once);
        for api in ProviderApi::ALL {
            let once = prepare_parameters(api, &schema);
            prop_assert_eq!(&prepare_parameters(api, &once), &once, "{}", api);
        }
    }

    #[test]
    fn gemini_schema_never_keeps_a_forbidden_keyword(schema in schema()) {
        let cleaned = prepare_parameters(ProviderApi::Gemini, &schema);
        let mut keys = Vec::new();
        schema_keys(&cleaned, &mut keys);
        for key in &keys {
            prop_assert!(!GEMINI_FORBIDDEN_KEYWORDS.contains(&key.as_str()), "{} in {}", key, cleaned);
            prop_assert!(!GEMINI_REWRITTEN_KEYWORDS.contains(&key.as_str()), "{} in {}", key, cleaned);
        }
        let violations = gemini_violations(&cleaned);
        prop_assert!(violations.is_empty(), "{:?} in {}", violations, cleaned);
    }

    #[test]
    fn object_roots_always_export(props in prop::collection::btree_map("[a-z]{1,6}", schema(), 0..4), wrap in 0..3u8) {
        let object = json!({"type": "object", "properties": props});
        let root = match wrap {
            0 => object,
            1 => json!({"anyOf": [object, {"type": "object", "properties": {"extra": {"type": "string"}}}]}),
            _ => json!({"properties": object["properties"].clone()}),
        };
        let spec = spec_from(&json!({"name": "probe", "description": "p", "parameters": root}), ToolSource::Core);
        for api in ProviderApi::ALL {
            let export = export_tools(api, std::slice::from_ref(&spec));
            prop_assert_eq!(export.tools.len(), 1, "{}: {:?}", api, export.warnings);
            let problems = check_payload(api, &export.payload);
            prop_assert!(problems.is_empty(), "{}: {:?}", api, problems);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Skills.

fn skill_roots() -> SkillRoots {
    let base = fixtures().join("skills");
    SkillRoots {
        extra: vec![base.join("extra")],
        bundled: Some(base.join("bundled")),
        managed: Some(base.join("managed")),
        workspace: Some(base.join("workspace/skills")),
        linked: Vec::new(),
    }
}

/// A linux machine whose PATH holds only the fixture `psql` and `curl`, with the browser
/// enabled in config and no NOTION_API_KEY.
fn fixture_env() -> EligibilityEnv {
    EligibilityEnv {
        path_dirs: vec![fixtures().join("skills/bin")],
        env: Default::default(),
        config: json!({"browser": {"enabled": true}}),
        os: "linux".to_string(),
        agent_skills: None,
    }
}

fn fixture_skills(limits: &SkillsPromptLimits) -> SkillSet {
    resolve_skills(&skill_roots(), &fixture_env(), limits, None)
}

/// Fixture paths start with the checkout; snapshots show them from `tests/fixtures`.
fn relative(text: &str) -> String {
    text.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")
}

#[test]
fn skills_precedence_later_sources_win() {
    let set = fixture_skills(&SkillsPromptLimits::default());
    let by_name = |name: &str| {
        set.statuses
            .iter()
            .find(|s| s.skill.name == name)
            .map(|s| &s.skill)
            .unwrap()
    };
    assert_eq!(by_name("web-developer").source, SkillSource::Workspace);
    assert_eq!(
        by_name("web-developer").description,
        "Expert web developer with focus on accessibility"
    );
    assert_eq!(by_name("database-expert").source, SkillSource::Managed);
    assert_eq!(by_name("notes").source, SkillSource::Extra);
    assert_eq!(by_name("weather").source, SkillSource::Bundled);
    let overridden: Vec<(&str, SkillSource, SkillSource)> = set
        .overridden
        .iter()
        .map(|o| (o.name.as_str(), o.replaced, o.by))
        .collect();
    assert_eq!(
        overridden,
        vec![
            (
                "database-expert",
                SkillSource::Bundled,
                SkillSource::Managed
            ),
            ("web-developer", SkillSource::Extra, SkillSource::Workspace),
        ]
    );
    assert_eq!(set.warnings.len(), 1);
    assert!(
        set.warnings[0].contains(
            "missing-description/SKILL.md: skipped: frontmatter `description` is required"
        )
    );
}

#[test]
fn skills_eligibility_reasons() {
    let set = fixture_skills(&SkillsPromptLimits::default());
    let reasons = |name: &str| {
        set.statuses
            .iter()
            .find(|s| s.skill.name == name)
            .unwrap()
            .ineligible
            .clone()
    };
    assert!(
        reasons("database-expert").is_empty(),
        "psql is on the fixture PATH"
    );
    assert!(reasons("weather").is_empty(), "curl is one of anyBins");
    assert!(
        reasons("browser-helper").is_empty(),
        "browser.enabled is truthy"
    );
    assert_eq!(
        reasons("discord-admin"),
        vec![Ineligible::MissingConfig {
            paths: vec!["channels.discord.token".into()]
        }]
    );
    assert_eq!(
        reasons("notion"),
        vec![Ineligible::MissingEnv {
            env: vec!["NOTION_API_KEY".into()]
        }]
    );
    assert_eq!(
        reasons("apple-notes"),
        vec![
            Ineligible::Os {
                allowed: vec!["darwin".into()],
                actual: "linux".into()
            },
            Ineligible::MissingBins {
                bins: vec!["memo".into()]
            },
        ]
    );
    assert_eq!(
        reasons("tmux"),
        vec![Ineligible::MissingBins {
            bins: vec!["clawdeck-fixture-tmux-missing".into()]
        }]
    );

    // The apiKey in skills.entries stands for the primary env var.
    let mut env = fixture_env();
    env.config = json!({"browser": {"enabled": true}, "skills": {"entries": {"notion": {"apiKey": "secret"}}}});
    let set = resolve_skills(&skill_roots(), &env, &SkillsPromptLimits::default(), None);
    assert!(set.eligible().any(|s| s.name == "notion"));
}

#[test]
fn skills_prompt_lists_eligible_model_invocable_skills() {
    let set = fixture_skills(&SkillsPromptLimits::default());
    let text = &set.prompt.text;
    assert!(text.contains("<name>web-developer</name>"));
    assert!(
        !text.contains("release-checklist"),
        "disable-model-invocation keeps it out of the prompt"
    );
    assert!(
        text.contains("<name>style-guide</name>"),
        "user-invocable: false still reaches the model"
    );
    assert!(!text.contains("apple-notes") && !text.contains("<name>notion</name>"));
    assert!(text.contains("<name>quote-&amp;-escape</name>"));
    assert!(text.contains(
        "<description>Handles &lt;xml&gt; &amp; &quot;quoted&quot; text safely</description>"
    ));
    insta::assert_snapshot!("skills_block_full", relative(text));
}

#[test]
fn skills_limits_fall_back_to_compact_then_truncate() {
    let full = fixture_skills(&SkillsPromptLimits::default());
    let full_len = full.prompt.text.chars().count();

    let compact = fixture_skills(&SkillsPromptLimits {
        max_skills: 150,
        max_chars: full_len - 1,
    });
    assert!(compact.prompt.compact && !compact.prompt.truncated);
    assert!(
        compact
            .prompt
            .text
            .starts_with("⚠️ Skills catalog using compact format (descriptions omitted).\n")
    );
    assert!(!compact.prompt.text.contains("<description>"));

    let tight = fixture_skills(&SkillsPromptLimits {
        max_skills: 150,
        max_chars: 400,
    });
    assert!(tight.prompt.truncated && tight.prompt.compact);
    assert!(tight.prompt.included < tight.prompt.total);
    assert!(tight.prompt.text.chars().count() <= 400);
    insta::assert_snapshot!("skills_block_truncated", relative(&tight.prompt.text));

    let counted = fixture_skills(&SkillsPromptLimits {
        max_skills: 2,
        max_chars: 30_000,
    });
    assert!(counted.prompt.text.starts_with(&format!(
        "⚠️ Skills truncated: included 2 of {}.\n",
        full.prompt.total
    )));
    assert!(counted.prompt.text.contains("<description>"));
}

#[test]
fn skill_commands_and_dispatch() {
    let set = fixture_skills(&SkillsPromptLimits::default());
    let names: Vec<&str> = set.commands.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"db_expert"));
    assert!(
        names.contains(&"release_checklist"),
        "model-hidden skills are still commands"
    );
    assert!(
        !names.contains(&"style_guide"),
        "user-invocable: false is not a command"
    );
    assert!(
        !names.contains(&"notion"),
        "ineligible skills are not commands"
    );
    assert!(names.iter().all(|n| {
        n.len() <= 32
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    }));

    let (typed, args) = parse_slash("/db_expert optimize this query").unwrap();
    let command = find_command(&set.commands, &typed).unwrap();
    let dispatch = command.dispatch.as_ref().unwrap();
    assert_eq!(dispatch.tool, "sessions_spawn");
    let specs = fixture_specs();
    let spawn = specs.iter().find(|s| s.name == "sessions_spawn").unwrap();
    assert_eq!(
        dispatch_params(spawn, &command.skill_name, &args),
        json!({"message": "optimize this query", "agentId": "db-expert"})
    );
    // The seed's spelling finds the same command, quotes removed.
    let (typed, args) = parse_slash("/db-expert \"optimize this query\"").unwrap();
    assert_eq!(
        find_command(&set.commands, &typed).unwrap().name,
        "db_expert"
    );
    assert_eq!(
        dispatch_params(spawn, "db-expert", &args)["message"],
        "optimize this query"
    );

    // Two skills that sanitise to one name are told apart.
    let eligible: Vec<_> = set.eligible().cloned().collect();
    let mut twins = eligible.clone();
    let mut twin = eligible
        .iter()
        .find(|s| s.name == "db-expert")
        .unwrap()
        .clone();
    twin.name = "DB Expert".into();
    twins.push(twin);
    let refs: Vec<_> = twins.iter().collect();
    let names: Vec<String> = build_skill_commands(&refs)
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert!(names.contains(&"db_expert".to_string()) && names.contains(&"db_expert_2".to_string()));
}

// ---------------------------------------------------------------------------------------------
// The system prompt.

fn prompt_tools() -> Vec<ToolSpec> {
    let mut tools = fixture_specs();
    let extra = [
        json!({"name": "read", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}),
        json!({"name": "web_fetch", "description": "Fetch a URL", "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}}),
        json!({"name": "clawbot_router", "description": "Route to clawBot", "parameters": {"type": "object", "properties": {"message": {"type": "string"}}}}),
    ];
    tools.extend(extra.iter().map(|v| spec_from(v, ToolSource::Core)));
    if let Some(router) = tools.iter_mut().find(|t| t.name == "clawbot_router") {
        router.summary = "Hand complex remote tasks to clawBot (OpenClaw multi-agent)".into();
    }
    tools
}

fn fixture_prompt(mode: PromptMode, tools: &[ToolSpec]) -> String {
    let skills = fixture_skills(&SkillsPromptLimits::default());
    let skills_text = relative(&skills.prompt.text);
    let input = PromptInput {
        mode,
        tools,
        skills_prompt: Some(&skills_text),
        router_guidance: Some(
            "## clawbot_router (fixture guidance)\nSay the notice first, then call clawbot_router.",
        ),
        workspace: Some(PathBuf::from("/home/demo/.openclaw/workspace")),
        runtime: RuntimeInfo {
            agent: Some("main".into()),
            os: Some("linux".into()),
            arch: Some("x86_64".into()),
            provider: Some("anthropic".into()),
            model: Some("claude-opus-4".into()),
            channel: None,
        },
        tooling: None,
    };
    build_system_prompt(&input)
}

#[test]
fn prompt_snapshots_for_each_mode() {
    let tools = prompt_tools();
    for mode in [PromptMode::Full, PromptMode::Minimal, PromptMode::None] {
        insta::assert_snapshot!(
            format!("prompt_{}", mode.id()),
            fixture_prompt(mode, &tools)
        );
    }
}

#[test]
fn prompt_without_the_router_has_no_router_guidance() {
    let tools: Vec<ToolSpec> = prompt_tools()
        .into_iter()
        .filter(|t| t.name != "clawbot_router")
        .collect();
    let text = fixture_prompt(PromptMode::Full, &tools);
    assert!(!text.contains("clawbot_router"));
    assert!(text.contains("## Skills (mandatory)"));
    assert!(text.contains("Tool availability (filtered by policy):\nTool names are case-sensitive. Call tools exactly as listed.\n- read: Read file contents\n- edit: Make precise edits to files\n- exec:"));
}

#[test]
fn real_openclaw_chat_payload_passes_our_checks_and_shares_our_envelope() {
    let text = std::fs::read_to_string(fixtures().join("realclaw/openai_chat_tools.json")).unwrap();
    let real: Value = serde_json::from_str(&text).unwrap();
    assert!(check_payload(ProviderApi::OpenAiChat, &real).is_empty());
    let specs: Vec<ToolSpec> = real
        .as_array()
        .unwrap()
        .iter()
        .map(|t| spec_from(&t["function"], ToolSource::Core))
        .collect();
    let ours = export_tools(ProviderApi::OpenAiChat, &specs);
    assert!(ours.warnings.is_empty(), "{:?}", ours.warnings);
    for (mine, theirs) in ours
        .payload
        .as_array()
        .unwrap()
        .iter()
        .zip(real.as_array().unwrap())
    {
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(mine), keys(theirs));
        assert_eq!(keys(&mine["function"]), keys(&theirs["function"]));
        let name = theirs["function"]["name"].as_str().unwrap();
        if name != "read" {
            // OpenClaw's own schemas are already normal: nothing changes but key order.
            assert_eq!(
                mine["function"]["parameters"], theirs["function"]["parameters"],
                "{name}"
            );
        } else {
            // read gains the older path aliases (seed 001 §4.4), which current OpenClaw dropped.
            let params = &mine["function"]["parameters"];
            assert!(params["properties"].get("file_path").is_some());
            assert!(params.get("required").is_none());
        }
    }
}
