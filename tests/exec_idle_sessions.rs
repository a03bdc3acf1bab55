//! An idle background exec session holds no thread (issue 19, "held, but worth bounding": each
//! held two reader threads and ~4.5 MB). A silent pipe waits on the async reactor; a reader
//! thread that finds its pipe silent hands it back there, and output after that is still read.
//! One test in this binary, so that no other test's reader threads are counted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::config::settings::ExecSettings;
use clawdeck_core::local_tools::exec::ExecTool;
use clawdeck_core::local_tools::process_tool::ProcessTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::{ExecSessions, PathGuard};
use clawdeck_core::tool::{Tool, ToolCall};
use serde_json::{Value, json};

/// Threads of this process that read a child's pipe (`clawdeck-stdout`, `clawdeck-stderr`).
fn reader_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .filter(|comm| comm.trim().starts_with("clawdeck-std"))
        .count()
}

/// Waits up to `within` for `pred`; false if it never held.
async fn eventually(within: Duration, pred: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if pred() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    pred()
}

async fn run(tool: &dyn Tool, params: Value) -> Value {
    let r = tool.execute(ToolCall::new("t", params)).await.unwrap();
    json!({"text": r.joined_text(), "details": r.details})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_hold_no_reader_threads_and_output_after_idling_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = ExecSessions::new(Duration::from_secs(60));
    let exec = ExecTool::new(
        builtin_spec("exec").unwrap(),
        Arc::new(PathGuard::host(dir.path())),
        ExecSettings::default(),
        sessions.clone(),
    );
    let process = ProcessTool::new(builtin_spec("process").unwrap(), sessions.clone());
    let start = |command: &'static str| {
        let exec = &exec;
        async move {
            let r = run(exec, json!({"command": command, "background": true})).await;
            r["details"]["sessionId"].as_str().unwrap().to_string()
        }
    };

    // Silent from the start: no thread ever.
    let mut ids = Vec::new();
    for _ in 0..20 {
        ids.push(start("sleep 60").await);
    }
    assert!(
        eventually(Duration::from_secs(10), || reader_threads() == 0).await,
        "{} reader threads for 20 silent sessions",
        reader_threads()
    );

    // Output, then silence: the thread that read it hands the pipe back within ~5 s (10 idle
    // polls). Waiting for the text first, so the count is taken while a thread exists: before
    // the fix (tokio hands pipes back in blocking mode, so a thread's read(2) waited for the
    // child) a check made before the first read passed by luck.
    let chatty = start("echo first; sleep 7; echo second; sleep 60").await;
    let log = |id: String| {
        let process = &process;
        async move {
            run(process, json!({"action": "log", "sessionId": id})).await["text"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    let wait_for_text = |id: String, needle: &'static str| {
        let log = &log;
        async move {
            let deadline = Instant::now() + Duration::from_secs(20);
            let mut text = log(id.clone()).await;
            while !text.contains(needle) && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(50)).await;
                text = log(id.clone()).await;
            }
            text
        }
    };
    let text = wait_for_text(chatty.clone(), "first").await;
    assert!(text.contains("first"), "{text:?}");
    assert!(reader_threads() >= 1, "no reader thread right after a read");
    assert!(
        eventually(Duration::from_secs(20), || reader_threads() == 0).await,
        "{} reader threads after the output stopped",
        reader_threads()
    );
    // Output after the pipe went back to waiting is read, and that thread parks too.
    let text = wait_for_text(chatty.clone(), "second").await;
    assert!(
        text.contains("first") && text.contains("second"),
        "{text:?}"
    );
    assert!(
        eventually(Duration::from_secs(20), || reader_threads() == 0).await,
        "{} reader threads after the output stopped again",
        reader_threads()
    );

    // Ending a session whose pipes wait without a thread is prompt, output kept.
    let said = start("echo bye; sleep 60").await;
    assert!(wait_for_text(said.clone(), "bye").await.contains("bye"));
    assert!(
        eventually(Duration::from_secs(20), || reader_threads() == 0).await,
        "{} reader threads after bye",
        reader_threads()
    );
    let killed_at = Instant::now();
    run(&process, json!({"action": "kill", "sessionId": said})).await;
    let session = sessions.get(&said).unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(20), session.process().wait())
        .await
        .expect("the killed session never ended");
    assert!(killed_at.elapsed() < Duration::from_secs(15));
    assert!(outcome.output.combined_text().contains("bye"));

    for id in ids.iter().chain([&chatty]) {
        run(&process, json!({"action": "remove", "sessionId": id})).await;
    }
}
