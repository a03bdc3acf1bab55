//! The Policy view names the config switch that keeps OpenClaw from building a tool.

use super::harness::Harness;
use crossterm::event::KeyCode;

/// `text` loaded as a 2026.9 config.
fn config_2026_9(text: &str, origin: &str) -> crate::config::LoadedConfig {
    crate::config::load_from_str(text, origin)
        .expect("parses")
        .with_pack("2026.9")
        .expect("2026.9 pack")
}

/// A console showing `config`, its status line cleared.
fn console_on(config: crate::config::LoadedConfig) -> Harness {
    let mut h = Harness::new();
    h.app.set_config(config);
    h.app.status = None;
    h
}

/// Filters the Policy view's tools by `name`.
fn filter(h: &mut Harness, name: &str) {
    h.key(KeyCode::Char('/'));
    h.type_text(name);
    h.key(KeyCode::Enter);
}

/// A 2026.9 config whose tools.web.search.enabled is false and whose plugins.deny names canvas.
fn switched_config() -> crate::config::LoadedConfig {
    config_2026_9(
        "{ tools: { web: { search: { enabled: false } } }, plugins: { deny: ['canvas'] } }",
        "switches.json5",
    )
}

#[test]
fn policy_view_says_which_key_switched_a_tool_off() {
    let mut h = console_on(switched_config());
    // Hidden tools only, then the one whose name starts with web_s.
    h.key(KeyCode::Char('h'));
    let hidden: Vec<String> = h.app.policy.rows().iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        hidden,
        vec!["canvas", "web_search"],
        "only the switched-off tools"
    );
    filter(&mut h, "web_s");
    let screen = h.screen(150, 30);
    assert!(
        screen.contains("HIDDEN: absent: tools.web.search.enabled is false"),
        "{screen}"
    );
    assert!(screen.contains("absent"), "{screen}");
    assert!(
        !screen.contains("hidden@"),
        "a switch is not a layer's decision: {screen}"
    );
    insta::assert_snapshot!("policy_switched_off_web_search", screen);
}

/// A 2026.9 config with two agents on models it declares: main's takes text only, ops's also
/// takes images.
fn vision_config() -> crate::config::LoadedConfig {
    config_2026_9(
        "{ models: { providers: { local: { baseUrl: 'http://127.0.0.1:9/v1', models: [
             { id: 'text-1', name: 'T', input: ['text'] },
             { id: 'eye-1', name: 'E', input: ['text', 'image'] } ] } } },
           agents: { list: [ { id: 'main', default: true, model: 'local/text-1' },
                             { id: 'ops', model: 'local/eye-1' } ] },
           tools: { profile: 'full' } }",
        "vision.json5",
    )
}

#[test]
fn policy_view_says_what_built_a_tool_and_why_another_run_lacks_it() {
    let mut h = console_on(vision_config());
    // Main's model takes text only: computer is absent, with the model entry's path.
    filter(&mut h, "computer");
    let screen = h.screen(150, 30);
    assert!(
        screen.contains("HIDDEN: absent: the run's model local/text-1 does not take images"),
        "{screen}"
    );
    assert!(!screen.contains("built because"), "{screen}");
    insta::assert_snapshot!("policy_computer_absent_for_a_text_model", screen);
    // Ops's model takes images: view_image is built, and the pane says by what.
    let ctx = crate::context::PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    };
    h.app.handle_event(crate::event::AppEvent::SetContext(ctx));
    h.pump();
    h.key(KeyCode::Esc);
    filter(&mut h, "view_image");
    let screen = h.screen(150, 30);
    assert!(screen.contains("VISIBLE"), "{screen}");
    assert!(
        screen.contains(
            "built because the run's model local/eye-1 takes images (models.providers.local.models[1].input)"
        ),
        "{screen}"
    );
    insta::assert_snapshot!("policy_view_image_built_for_a_vision_model", screen);
}

/// A 2026.9 config of two agents whose FAL key is a stored auth profile in ops's own store.
fn ops_profile_config() -> crate::config::LoadedConfig {
    use clawdeck_deck::api::auth_profiles::{ProfileStore, StoreOwner, StoredProfile};
    let mut config = config_2026_9(
        r#"{ agents: { list: [{ id: "main", default: true }, { id: "ops" }] } }"#,
        "profiles.json5",
    );
    config.auth_profiles = vec![ProfileStore {
        owner: StoreOwner::Agent("ops".into()),
        path: "/state/agents/ops/agent/openclaw-agent.sqlite".into(),
        profiles: vec![StoredProfile {
            id: "fal:manual".into(),
            provider: "fal".into(),
            kind: "api_key".into(),
        }],
    }];
    config
}

#[test]
fn policy_view_says_a_tool_comes_from_another_agents_stored_profile() {
    let mut h = console_on(ops_profile_config());
    h.set_context(crate::context::PolicyContext {
        agent: Some("main".into()),
        ..Default::default()
    });
    h.key(KeyCode::Char('h'));
    let hidden: Vec<String> = h.app.policy.rows().iter().map(|t| t.name.clone()).collect();
    for tool in ["image_generate", "video_generate", "music_generate"] {
        assert!(hidden.iter().any(|t| t == tool), "{tool}: {hidden:?}");
    }
    filter(&mut h, "image_g");
    let screen = h.screen(150, 30);
    assert!(
        screen.contains("only another agent's stored auth profile brings it"),
        "{screen}"
    );
    insta::assert_snapshot!("policy_tool_of_another_agents_profile", screen);
    // ops reads its own store: the tool is there.
    h.set_context(crate::context::PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    });
    let visible: Vec<String> = h.app.policy.rows().iter().map(|t| t.name.clone()).collect();
    assert!(
        !visible.iter().any(|t| t == "image_generate"),
        "hidden only: {visible:?}"
    );
}

/// A tool a paired node published (the gateway's node.list): the pane says which node, its
/// name shown as the gateway's text, never interpreted.
#[test]
fn policy_view_says_which_node_published_a_tool() {
    let mut config = config_2026_9("{}", "nodes.json5");
    let answer = serde_json::json!({"nodes": [{
        "nodeId": "e3f1c0de", "displayName": "lab\u{1b}[2Jbox", "connected": true,
        "nodePluginTools": [{"pluginId": "node-mcp", "name": "docs_search",
            "description": "Search the documents.", "command": "mcp.tools.call.v1",
            "mcp": {"server": "docs", "tool": "search"}}]}]});
    let nodes = crate::node_tools::parse_node_list(&answer, "node.list").expect("an answer");
    config.connected_nodes = Some(std::sync::Arc::new(nodes));
    let mut h = console_on(config);
    filter(&mut h, "docs_search");
    let screen = h.screen(150, 30);
    assert!(screen.contains("docs_search"), "{screen}");
    assert!(
        screen.contains(
            "built because node lab\\x1b[2Jbox published it from its MCP server docs (node.list, node e3f1c0de)"
        ),
        "{screen}"
    );
    insta::assert_snapshot!("policy_node_tool_names_its_node", screen);
}
