//! Code Mode in the console: the context bar says when the run engages it, and only then.

use super::harness::Harness;
use crate::context::PolicyContext;

const CODE_MODE_CONFIG: &str = r#"{
  agents: {
    defaults: { model: { primary: "openai/gpt-5.5" } },
    list: [{ id: "main", default: true }, { id: "ops", tools: { codeMode: false } }],
  },
}"#;

/// The context bar of a console on the config, for `agent`.
fn context_bar(agent: &str) -> String {
    let mut h = Harness::new();
    let config = crate::config::load_from_str(CODE_MODE_CONFIG, "code-mode.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    h.app.set_config(config);
    h.set_context(PolicyContext {
        agent: Some(agent.into()),
        ..PolicyContext::default()
    });
    h.context_bar()
}

#[test]
fn the_context_bar_says_when_code_mode_engages() {
    // main runs on a model the openai catalog marks "preferred": 2026.9's "auto" engages it.
    let main = context_bar("main");
    assert!(main.contains("code mode on"), "{main}");
    insta::assert_snapshot!("context_bar_code_mode_on", main);
    // ops turns it off for itself: nothing to say.
    let ops = context_bar("ops");
    assert!(!ops.contains("code mode"), "{ops}");
}
