use super::*;
use crate::tool::ToolSource;

const ISSUE_TOOLS: &[&str] = &[
    "read",
    "write",
    "edit",
    "apply_patch",
    "exec",
    "process",
    "browser",
    "canvas",
    "nodes",
    "cron",
    "message",
    "tts",
    "gateway",
    "agents_list",
    "sessions_list",
    "sessions_history",
    "sessions_send",
    "sessions_spawn",
    "session_status",
    "web_search",
    "web_fetch",
    "image",
    "memory_search",
    "memory_get",
    "whatsapp_login",
    "clawbot_router",
    "system_volume_control",
    "start_app",
    "open_website",
];

#[test]
fn catalog_has_every_tool_the_issue_names() {
    let specs = core_specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ISSUE_TOOLS);
}

#[test]
fn every_schema_is_a_top_level_object_without_unions() {
    for spec in core_specs() {
        assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
        let text = spec.parameters.to_string();
        assert!(
            !text.contains("anyOf") && !text.contains("oneOf"),
            "{}",
            spec.name
        );
        if let Some(required) = spec.parameters.get("required").and_then(|r| r.as_array()) {
            for key in required {
                let key = key.as_str().unwrap();
                assert!(
                    spec.parameters["properties"].get(key).is_some(),
                    "{}: required {key} undefined",
                    spec.name
                );
            }
        }
        assert!(
            !spec.summary.is_empty() && !spec.description.is_empty() && !spec.label.is_empty(),
            "{}",
            spec.name
        );
    }
}

#[test]
fn display_data_follows_openclaw() {
    let specs = core_specs();
    let get = |n: &str| specs.iter().find(|s| s.name == n).unwrap().clone();
    assert_eq!(
        (get("exec").emoji.as_str(), get("exec").label.as_str()),
        ("🛠️", "Exec")
    );
    assert_eq!(get("read").emoji, "📖");
    assert_eq!(get("sessions_spawn").emoji, "🧑‍🔧");
    assert_eq!(get("tts").emoji, "🔊");
}

#[test]
fn flags_and_sources() {
    let specs = core_specs();
    let get = |n: &str| specs.iter().find(|s| s.name == n).unwrap().clone();
    let router = get("clawbot_router");
    assert_eq!(router.source, ToolSource::Remote);
    assert_eq!(
        router.parameters["required"],
        serde_json::json!(["message"])
    );
    assert_eq!(
        router.parameters["properties"]["mode"]["enum"],
        serde_json::json!(["read-only", "write"])
    );
    for local in ["system_volume_control", "start_app", "open_website"] {
        assert!(get(local).flags.local_system, "{local}");
        assert!(!get(local).flags.openclaw_only, "{local}");
    }
    assert!(get("whatsapp_login").flags.owner_only);
    for platform in [
        "browser",
        "canvas",
        "nodes",
        "cron",
        "message",
        "tts",
        "gateway",
        "agents_list",
        "sessions_list",
        "sessions_history",
        "sessions_send",
        "sessions_spawn",
        "session_status",
        "web_search",
        "web_fetch",
        "image",
        "memory_search",
        "memory_get",
        "whatsapp_login",
    ] {
        assert!(get(platform).flags.openclaw_only, "{platform}");
    }
    for local in [
        "read",
        "write",
        "edit",
        "apply_patch",
        "exec",
        "process",
        "clawbot_router",
    ] {
        assert!(!get(local).flags.openclaw_only, "{local}");
    }
}

#[test]
fn registry_groups_and_lookup() {
    let registry = Registry::from_specs(core_specs());
    assert!(registry.is_core("exec"));
    assert_eq!(registry.groups_of("read"), vec!["group:fs"]);
    assert_eq!(
        registry.expand_group("group:runtime"),
        Some(vec!["exec".to_string(), "process".to_string()])
    );
    assert!(
        registry
            .group_names()
            .contains(&"group:plugins".to_string())
    );
}

fn fixture_plugins() -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/plugins")
}

#[test]
fn plugins_are_discovered_and_duplicates_dropped() {
    let mut warnings = Vec::new();
    let discovered = plugins::discover(&[fixture_plugins()], &mut warnings);
    let ids: Vec<&str> = discovered.iter().map(|p| p.info.id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["broken-tools", "notes", "textkit"],
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("clawdeck.tools.json")),
        "{warnings:?}"
    );
    let registry = Registry::from_parts(core_specs(), discovered);
    assert!(registry.contains("text_upper"));
    assert!(registry.contains("notes_add"));
    assert_eq!(
        registry.get("read").unwrap().source,
        ToolSource::Core,
        "existing name wins"
    );
    assert!(
        registry
            .warnings
            .iter()
            .any(|w| w.contains("\"read\" dropped")),
        "{:?}",
        registry.warnings
    );
    assert_eq!(
        registry.groups_of("text_upper"),
        vec!["group:plugins", "textkit"]
    );
    assert_eq!(registry.plugin_groups().all.len(), 3);
    let command = &registry.plugin_tool_commands["text_upper"];
    assert!(
        command.argv[0].ends_with("textkit/run.sh"),
        "{:?}",
        command.argv
    );
    assert_eq!(command.timeout, std::time::Duration::from_secs(5));
}

#[test]
fn missing_plugin_dir_is_a_warning() {
    let mut warnings = Vec::new();
    let found = plugins::discover(
        &[std::path::PathBuf::from("/no/such/plugins")],
        &mut warnings,
    );
    assert!(found.is_empty());
    assert_eq!(warnings.len(), 1);
}

#[test]
fn contracts_tools_name_plugin_tools_that_only_openclaw_runs() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("quotes");
    std::fs::create_dir(&plugin).unwrap();
    std::fs::write(
        plugin.join(plugins::MANIFEST_FILE),
        r#"{ "id": "quotes",
             "contracts": { "tools": ["stock_quote", "local_quote", "Bad Name", 7] },
             "clawdeck": { "tools": [{ "name": "local_quote", "command": ["true"] }] } }"#,
    )
    .unwrap();
    let mut warnings = Vec::new();
    let found = plugins::discover(&[dir.path().to_path_buf()], &mut warnings);
    let registry = Registry::from_parts(Vec::new(), found);
    let quote = registry
        .get("stock_quote")
        .expect("named by contracts.tools");
    assert_eq!(quote.source.plugin_id(), Some("quotes"));
    assert!(quote.flags.openclaw_only && quote.flags.schema_unknown);
    assert!(!registry.plugin_tool_commands.contains_key("stock_quote"));
    // A declared tool keeps its command and is not doubled by the contract.
    let local = registry.get("local_quote").expect("declared");
    assert!(!local.flags.schema_unknown);
    assert!(registry.plugin_tool_commands.contains_key("local_quote"));
    assert_eq!(registry.plugins[0].tools, ["local_quote", "stock_quote"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("contracts.tools[2]")));
    assert!(warnings.iter().any(|w| w.contains("contracts.tools[3]")));
}
