//! The decision log as the Deck writes it: every call through its pipelines, reloads included.

use std::sync::Arc;

use serde_json::json;

use crate::context::PolicyContext;
use crate::decision_log::args_sha256;
use crate::decision_log::{
    CallEnd, DecisionKind, DecisionLog, DecisionLogSettings, DecisionRecord, read_all,
};
use crate::pipeline::CallOutcome;

/// A Deck over a temp config whose workspace holds `hello.txt`.
fn deck_in(dir: &std::path::Path, settings: &str) -> crate::Deck {
    let config = dir.join("openclaw.json");
    std::fs::write(
        &config,
        r#"{ "tools": { "profile": "full", "deny": ["process"] } }"#,
    )
    .unwrap();
    let ws = dir.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("hello.txt"), "hi\n").unwrap();
    std::fs::write(
        dir.join(crate::config::SETTINGS_FILE),
        format!("{{ workspace: \"{}\", {settings} }}", ws.display()),
    )
    .unwrap();
    crate::Deck::load(Some(&config), &Default::default()).unwrap()
}

#[tokio::test]
async fn the_deck_records_every_call_with_the_default_or_the_requests_client() {
    use crate::pipeline::CallRequest;
    let dir = tempfile::tempdir().unwrap();
    let deck = deck_in(dir.path(), "");
    let log_dir = dir.path().join("decisions");
    let log = Arc::new(DecisionLog::open(&log_dir, DecisionLogSettings::default()));
    // Without a sink nothing is written.
    let ctx = PolicyContext::default();
    deck.pipeline()
        .call(CallRequest::new(
            "read",
            json!({"path": "hello.txt"}),
            ctx.clone(),
        ))
        .await;
    assert!(read_all(&log_dir).is_empty());

    deck.record_decisions_in(Arc::clone(&log), "console");
    let outcome = deck
        .pipeline()
        .call(CallRequest::new(
            "read",
            json!({"path": "hello.txt"}),
            ctx.clone(),
        ))
        .await;
    assert!(matches!(
        outcome,
        CallOutcome::Completed {
            is_error: false,
            ..
        }
    ));
    let mut request = CallRequest::new("process", json!({"action": "list"}), ctx.clone());
    request.client = Some("claude-code".to_string());
    deck.pipeline().call(request).await;
    deck.pipeline()
        .call(CallRequest::new("read", json!({"path": 5}), ctx.clone()))
        .await;

    // A reload keeps recording, with the new limits.
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        format!(
            "{{ workspace: \"{}\", decisionLog: {{ enabled: false }} }}",
            dir.path().join("ws").display()
        ),
    )
    .unwrap();
    deck.reload().unwrap();
    assert!(!log.settings().enabled);
    deck.pipeline()
        .call(CallRequest::new("read", json!({"path": "hello.txt"}), ctx))
        .await;

    let records: Vec<DecisionRecord> = read_all(&log_dir).into_iter().map(|e| e.unwrap()).collect();
    assert_eq!(records.len(), 3, "{records:#?}");
    assert_eq!(records[0].client.as_deref(), Some("console"));
    assert_eq!(records[0].decision, DecisionKind::Shown);
    assert_eq!(records[0].outcome, Some(CallEnd::Ok));
    assert_eq!(
        records[0].args_sha256,
        args_sha256(&json!({"path": "hello.txt"}))
    );
    assert_eq!(records[1].client.as_deref(), Some("claude-code"));
    assert_eq!(records[1].decision, DecisionKind::Refused);
    let rule = records[1].rule.clone().unwrap();
    assert_eq!(
        (
            rule.layer.as_str(),
            rule.kind.as_str(),
            rule.config_path.as_deref()
        ),
        ("global", "denied", Some("tools.deny[0]"))
    );
    assert_eq!(records[2].decision, DecisionKind::InvalidParams);
    assert_eq!(records[2].outcome, None);
}
