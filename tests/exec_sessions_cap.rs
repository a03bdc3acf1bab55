//! Exec sessions are capped (issue 19, "held, but worth bounding"): each running session holds a
//! process group, its pipes and their readers, and 300 idle ones took 1.36 GB. At most
//! `exec.maxBackgroundSessions` run at once; past it `exec` is refused with an error naming the
//! cap and the setting, and a place is free again once a session ends.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::config::settings::ExecSettings;
use clawdeck_core::local_tools::exec::ExecTool;
use clawdeck_core::local_tools::process_tool::ProcessTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::{ExecSessions, PathGuard};
use clawdeck_core::tool::{Tool, ToolCall, ToolError, ToolResult};
use serde_json::{Value, json};

async fn call(tool: &dyn Tool, params: Value) -> Result<ToolResult, ToolError> {
    tool.execute(ToolCall::new("t1", params)).await
}

fn exec_tools(dir: &std::path::Path, sessions: &ExecSessions) -> (ExecTool, ProcessTool) {
    (
        ExecTool::new(
            builtin_spec("exec").unwrap(),
            Arc::new(PathGuard::host(dir)),
            ExecSettings::default(),
            sessions.clone(),
        ),
        ProcessTool::new(builtin_spec("process").unwrap(), sessions.clone()),
    )
}

async fn start_sleeper(exec: &ExecTool) -> Result<String, ToolError> {
    let r = call(exec, json!({"command": "sleep 60", "background": true})).await?;
    Ok(r.details["sessionId"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn exec_past_the_cap_is_refused_naming_it_until_a_session_ends() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = ExecSessions::new(Duration::from_secs(60));
    sessions.set_max_running(3);
    let (exec, process) = exec_tools(dir.path(), &sessions);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(start_sleeper(&exec).await.unwrap());
    }
    let err = start_sleeper(&exec).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("3 are already running"), "{text}");
    assert!(text.contains("exec.maxBackgroundSessions"), "{text}");
    // A foreground run needs a place too (it may stay in the background after yieldMs).
    let err = call(&exec, json!({"command": "echo hi"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("exec.maxBackgroundSessions"));

    // Ending one frees its place.
    call(&process, json!({"action": "kill", "sessionId": ids[0]}))
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while sessions.running() > 2 {
        assert!(Instant::now() < deadline, "the killed session never ended");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ids.push(start_sleeper(&exec).await.unwrap());
    // Finished foreground runs never hold a place.
    sessions.set_max_running(4);
    for _ in 0..5 {
        let r = call(&exec, json!({"command": "echo hi"})).await.unwrap();
        assert!(r.joined_text().contains("hi"));
    }
    for id in &ids[1..] {
        call(&process, json!({"action": "remove", "sessionId": id}))
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_started_at_once_cannot_overshoot_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = ExecSessions::new(Duration::from_secs(60));
    sessions.set_max_running(5);
    let (exec, process) = exec_tools(dir.path(), &sessions);
    let exec = Arc::new(exec);
    let starts: Vec<_> = (0..20)
        .map(|_| {
            let exec = Arc::clone(&exec);
            tokio::spawn(async move { start_sleeper(&exec).await })
        })
        .collect();
    let mut started = Vec::new();
    let mut refused = 0;
    for start in starts {
        match start.await.unwrap() {
            Ok(id) => started.push(id),
            Err(err) => {
                assert!(err.to_string().contains("exec.maxBackgroundSessions"));
                refused += 1;
            }
        }
    }
    assert_eq!(started.len(), 5, "refused {refused}");
    assert_eq!(sessions.running(), 5);
    for id in &started {
        call(&process, json!({"action": "remove", "sessionId": id}))
            .await
            .unwrap();
    }
}

/// `exec.maxBackgroundSessions` in clawdeck.json5: 1 ..= 4096, default 64, a located error else.
#[test]
fn the_setting_is_read_and_bounded() {
    let load = |settings: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("openclaw.json"), "{}").unwrap();
        std::fs::write(dir.path().join("clawdeck.json5"), settings).unwrap();
        clawdeck_core::config::load(Some(&dir.path().join("openclaw.json")))
    };
    let default = load("{}").unwrap();
    assert_eq!(default.settings.exec.max_background_sessions, 64);
    let set = load("{ exec: { maxBackgroundSessions: 8 } }").unwrap();
    assert_eq!(set.settings.exec.max_background_sessions, 8);
    for (text, needle) in [
        ("{ exec: { maxBackgroundSessions: 0 } }", "at least 1"),
        ("{ exec: { maxBackgroundSessions: 5000 } }", "at most 4096"),
        (
            "{ exec: { maxBackgroundSessions: -1 } }",
            "maxBackgroundSessions",
        ),
    ] {
        let err = load(text).expect_err(text).to_string();
        assert!(err.contains(needle), "{text}: {err}");
        assert!(err.contains("clawdeck.json5:1:"), "not located: {err}");
    }
}
