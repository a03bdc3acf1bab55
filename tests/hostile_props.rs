//! Property tests: arbitrary config text and arbitrary tool parameters never panic or hang.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use clawdeck_core::config::settings::ExecSettings;
use clawdeck_core::local_tools::apply_patch::ApplyPatchTool;
use clawdeck_core::local_tools::edit::EditTool;
use clawdeck_core::local_tools::exec::ExecTool;
use clawdeck_core::local_tools::read::ReadTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::write::WriteTool;
use clawdeck_core::local_tools::{ExecSessions, PathGuard, WorkspaceAccess};
use clawdeck_core::tool::{Tool, ToolCall};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Pieces that JSON5 configs are made of, including the hostile ones.
fn config_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("tools".to_string()),
        Just("allow".to_string()),
        Just("deny".to_string()),
        Just("agents".to_string()),
        Just("list".to_string()),
        Just("router".to_string()),
        Just("timeoutSeconds".to_string()),
        Just("killGraceMs".to_string()),
        Just("\"exec\"".to_string()),
        Just("'group:fs'".to_string()),
        Just("18446744073709551615".to_string()),
        Just("1e300".to_string()),
        Just("-1".to_string()),
        Just("NaN".to_string()),
        Just("Infinity".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
        Just("// c\n".to_string()),
        Just("/* c */".to_string()),
        Just("\"\\u0000\\u001b]0;x\\u0007\"".to_string()),
        "[\\PC]{0,8}".prop_map(|s| format!("{s:?}")),
        "[a-zA-Z_]{1,8}",
        (1usize..400).prop_map(|n| "[".repeat(n)),
    ]
}

fn config_text() -> impl Strategy<Value = String> {
    prop::collection::vec(config_piece(), 0..60).prop_map(|pieces| pieces.join(" "))
}

/// Arbitrary JSON values, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        prop::num::f64::NORMAL.prop_map(|f| json!(f)),
        Just(json!(1e300)),
        Just(json!(-1e300)),
        "[\\PC]{0,12}".prop_map(Value::String),
        Just(json!("../../etc/passwd")),
        Just(json!("/dev/zero")),
        Just(json!("f.txt")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Parameter objects using the tools' own keys with arbitrary values.
fn tool_params() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("path"),
        Just("file_path"),
        Just("content"),
        Just("offset"),
        Just("limit"),
        Just("oldText"),
        Just("newText"),
        Just("edits"),
        Just("input"),
        Just("timeout"),
        Just("yieldMs"),
        Just("background"),
        Just("workdir"),
        Just("env"),
    ];
    prop::collection::btree_map(key, json_value(), 0..6)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn config_text_never_panics(text in config_text()) {
        let _ = clawdeck_core::config::load_from_str(&text, "fuzz.json");
        let _ = clawdeck_core::config::parse_settings(&text, "fuzz.json5");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn tool_parameters_never_panic_or_hang(params in tool_params(), sandboxed in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f.txt"), "a\nb\n").unwrap();
        let guard = Arc::new(if sandboxed {
            PathGuard::sandboxed(dir.path(), WorkspaceAccess::Rw).unwrap()
        } else {
            PathGuard::host(dir.path())
        });
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let tools: Vec<Box<dyn Tool>> = vec![
            Box::new(ReadTool::new(builtin_spec("read").unwrap(), Arc::clone(&guard))),
            Box::new(WriteTool::new(builtin_spec("write").unwrap(), Arc::clone(&guard))),
            Box::new(EditTool::new(builtin_spec("edit").unwrap(), Arc::clone(&guard))),
            Box::new(ApplyPatchTool::new(builtin_spec("apply_patch").unwrap(), Arc::clone(&guard))),
            Box::new(ExecTool::new(
                builtin_spec("exec").unwrap(),
                Arc::clone(&guard),
                ExecSettings::default(),
                ExecSessions::new(Duration::from_secs(5)),
            )),
        ];
        for tool in &tools {
            let mut params = params.clone();
            if tool.spec().name == "exec" {
                // Any value for every other key, but never a random shell command.
                params["command"] = json!("true");
            }
            let finished = rt.block_on(async {
                tokio::time::timeout(
                    Duration::from_secs(20),
                    tool.execute(ToolCall::new("t", params.clone())),
                )
                .await
            });
            prop_assert!(finished.is_ok(), "{} hung on {params}", tool.spec().name);
        }
    }
}
