//! The Policy view names the config switch that keeps OpenClaw from building a tool.

use super::harness::Harness;
use crossterm::event::KeyCode;

/// A 2026.9 config whose tools.web.search.enabled is false and whose plugins.deny names canvas.
fn switched_config() -> crate::config::LoadedConfig {
    crate::config::load_from_str(
        "{ tools: { web: { search: { enabled: false } } }, plugins: { deny: ['canvas'] } }",
        "switches.json5",
    )
    .expect("parses")
    .with_pack("2026.9")
    .expect("2026.9 pack")
}

#[test]
fn policy_view_says_which_key_switched_a_tool_off() {
    let mut h = Harness::new();
    h.app.set_config(switched_config());
    h.app.status = None;
    // Hidden tools only, then the one whose name starts with web_s.
    h.key(KeyCode::Char('h'));
    let hidden: Vec<String> = h.app.policy.rows().iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        hidden,
        vec!["canvas", "web_search"],
        "only the switched-off tools"
    );
    h.key(KeyCode::Char('/'));
    h.type_text("web_s");
    h.key(KeyCode::Enter);
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
