use super::*;

#[test]
fn demo_config_loads_without_warnings() {
    let loaded = load_demo().unwrap();
    assert_eq!(loaded.source, ConfigSource::EmbeddedDemo);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.agent_ids(), vec!["main", "ops", "support"]);
    assert_eq!(loaded.default_agent_id(), "main");
    assert_eq!(loaded.settings.router.default_agent.as_deref(), Some("ops"));
    assert!(loaded.describe().contains("embedded demo"));
}

#[test]
fn syntax_error_has_line_and_column() {
    let text = "{\n  tools: {\n    deny: [\"exec\",,]\n  }\n}\n";
    let err = load_from_str(text, "bad.json5").unwrap_err();
    assert_eq!(err.kind, ConfigErrorKind::Syntax);
    assert_eq!(err.line, Some(3));
    assert!(err.column.is_some());
    assert!(err.to_string().starts_with("bad.json5:3:"), "{err}");
    // The key path the broken value is under, when there is one.
    assert_eq!(err.key_path.as_deref(), Some("tools.deny[1]"), "{err}");
    let nested = "{ agents: { list: [ { id: 'a', tools: { allow: ['read' 'exec'] } } ] } }";
    let err = load_from_str(nested, "n.json5").unwrap_err();
    assert_eq!(err.kind, ConfigErrorKind::Syntax);
    assert!(
        err.to_string().ends_with("(at agents.list[0].tools.allow)"),
        "{err}"
    );
    // At the top level there is no path; trailing text is still an error.
    let err = load_from_str("{ tools: {} } }", "t.json5").unwrap_err();
    assert_eq!(err.key_path, None, "{err}");
}

#[test]
fn type_error_has_line_column_and_key_path() {
    let text = "{\n  agents: {\n    list: [\n      { id: 'main' },\n      { id: 'ops', tools: { deny: 'exec' } },\n    ],\n  },\n}\n";
    let err = load_from_str(text, "cfg.json5").unwrap_err();
    assert_eq!(err.kind, ConfigErrorKind::Type);
    assert_eq!(err.key_path.as_deref(), Some("agents.list[1].tools.deny"));
    assert_eq!(err.line, Some(5));
    assert!(err.column.is_some());
    let shown = err.to_string();
    assert!(shown.starts_with("cfg.json5:5:"), "{shown}");
    assert!(shown.ends_with("(at agents.list[1].tools.deny)"), "{shown}");
}

#[test]
fn unknown_keys_are_warnings_with_their_path() {
    let text = "{\n  tools: { alow: ['read'] },\n  gateway: { port: 1 },\n  channels: { telegram: { botToken: 'x' } },\n}";
    // Under a pack with OpenClaw's schema an unknown key refuses the config (schema_check); the
    // seed has none, so it is a warning there.
    let loaded = super::load_from_str_with_pack(text, "w.json5", "seed").unwrap();
    assert_eq!(
        loaded.warnings,
        vec!["w.json5:2:12: unknown key ignored (at tools.alow)".to_string()]
    );
}

#[test]
fn agents_from_list_and_entries() {
    let text = r#"{ agents: { list: [{ id: "Main" }, { name: "no id" }],
                   entries: { ops: { default: true }, main: {} } } }"#;
    // Both forms at once and an id-less entry: OpenClaw 2026.9 refuses that; the seed reads it.
    let loaded = super::load_from_str_with_pack(text, "a.json5", "seed").unwrap();
    assert_eq!(loaded.agent_ids(), vec!["main", "ops"]);
    assert_eq!(loaded.default_agent_id(), "ops");
    assert_eq!(
        loaded.agent("OPS").unwrap().path.to_string(),
        "agents.entries.ops"
    );
    assert_eq!(loaded.warnings.len(), 2, "{:?}", loaded.warnings);
}

#[test]
fn no_agents_means_implicit_main() {
    let loaded = load_from_str("{}", "e.json5").unwrap();
    assert_eq!(loaded.agent_ids(), vec!["main"]);
    assert!(loaded.agents[0].implicit);
}

#[test]
fn pickers_list_providers_models_channels_groups_senders() {
    let loaded = load_demo().unwrap();
    assert_eq!(loaded.providers(), vec!["anthropic", "google", "openai"]);
    assert!(loaded.models().contains(&"openai/gpt-5-mini".to_string()));
    assert_eq!(loaded.channels(), vec!["telegram"]);
    assert_eq!(loaded.groups("telegram", None), vec!["*", "-100123456"]);
    assert_eq!(
        loaded.sender_keys("telegram", None, "-100123456"),
        vec!["*", "id:42", "username:@alice"]
    );
    assert_eq!(loaded.agent_model("ops").unwrap().0, "openai/gpt-5");
}

#[test]
fn explicit_path_and_sibling_settings() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("openclaw.json");
    std::fs::write(&cfg, "{ tools: { deny: ['exec'] } }").unwrap();
    std::fs::write(
        dir.path().join(SETTINGS_FILE),
        "{ router: { defaultAgent: 'ops' } }",
    )
    .unwrap();
    let loaded = load(Some(&cfg)).unwrap();
    assert_eq!(loaded.source, ConfigSource::Flag);
    assert_eq!(loaded.settings.router.default_agent.as_deref(), Some("ops"));
    assert!(loaded.describe().ends_with("(--config)"));
}

#[test]
fn broken_settings_file_is_an_error_with_position() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("openclaw.json");
    std::fs::write(&cfg, "{}").unwrap();
    std::fs::write(
        dir.path().join(SETTINGS_FILE),
        "{\n  router: { bogus: 1 },\n}",
    )
    .unwrap();
    let err = load(Some(&cfg)).unwrap_err();
    assert!(err.file.ends_with(SETTINGS_FILE));
    assert_eq!(err.line, Some(2));
    assert_eq!(err.key_path.as_deref(), Some("router.bogus"), "{err}");
}

#[test]
fn missing_explicit_file_is_an_io_error() {
    let err = load(Some(Path::new("/definitely/not/here.json"))).unwrap_err();
    assert_eq!(err.kind, ConfigErrorKind::Io);
    assert!(err.to_string().starts_with("/definitely/not/here.json: "));
}

#[test]
fn seed_form_agents_keyed_under_agents_are_agents() {
    // Seed 001 §3.4 writes `agents: { support-bot: { tools: ... } }`.
    let text = r#"{ agents: { defaults: { workspace: "/w" },
                   "support-bot": { tools: { profile: "messaging", deny: ["exec"] } },
                   weird: { tools: { deny: 5 } }, routing: { rules: [] } } }"#;
    let loaded = super::load_from_str_with_pack(text, "seed.json5", "seed").unwrap();
    assert_eq!(loaded.agent_ids(), vec!["support-bot"]);
    let agent = loaded.agent("support-bot").unwrap();
    assert_eq!(agent.path.to_string(), "agents.\"support-bot\"");
    assert_eq!(
        agent
            .entry
            .tools
            .as_ref()
            .and_then(|t| t.profile.clone())
            .as_deref(),
        Some("messaging")
    );
    // The agent's key is no longer "unknown"; the entry that is not an agent says why.
    assert!(
        !loaded.warnings.iter().any(|w| w.contains("support-bot")),
        "{:?}",
        loaded.warnings
    );
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w.starts_with("agents.weird: not an agent")),
        "{:?}",
        loaded.warnings
    );
    // An object without any agent key stays an unknown key.
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w.ends_with("unknown key ignored (at agents.routing)")),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn an_unknown_profile_is_refused_where_it_stands_unless_the_seed_answers() {
    let text = "{ tools: { byProvider: { google: { profile: 'codng' } } } }";
    let err = load_from_str(text, "x.json5").unwrap_err();
    assert_eq!(
        err.key_path.as_deref(),
        Some("tools.byProvider.google.profile")
    );
    assert_eq!((err.line, err.column), (Some(1), Some(36)));
    assert!(
        err.message
            .contains(r#"(allowed: "minimal", "coding", "messaging", "full")"#),
        "{err}"
    );
    // The seed ignores it; asking for 2026.9 afterwards refuses it.
    let seed = load_from_str_with_pack(text, "x.json5", "seed").unwrap();
    let refused = seed.with_pack("2026.9").unwrap_err();
    assert!(
        refused.contains("tools.byProvider.google.profile"),
        "{refused}"
    );
}

#[test]
fn a_commands_own_openclaw_binary_comes_before_the_environment_and_the_settings() {
    let mut loaded = load_from_str("{}", "t.json5").unwrap();
    loaded.settings.router.bin = "from-settings".into();
    loaded.settings.router.cli_bin = Some("/opt/openclaw-2026.8/bin/openclaw".into());
    // Whatever $OPENCLAW_BIN says.
    assert_eq!(openclaw_bin(&loaded), "/opt/openclaw-2026.8/bin/openclaw");
}

#[test]
fn a_saved_node_list_that_is_not_json_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nodes.json");
    std::fs::write(&path, "{\n  nodes: [").unwrap();
    let err = super::saved_node_list(&path).unwrap_err();
    assert!(
        err.starts_with(&format!("{}:2:3: not JSON", path.display())),
        "{err}"
    );
}
