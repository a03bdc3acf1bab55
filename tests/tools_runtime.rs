//! The built-in tools running for real: path guard (property tests), read/write/edit,
//! apply_patch, exec and process, plugin tools, and the local system tools with fake helpers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clawdeck_core::catalog::PluginToolCommand;
use clawdeck_core::config::settings::ExecSettings;
use clawdeck_core::local_tools::apply_patch::ApplyPatchTool;
use clawdeck_core::local_tools::apps::{OpenWebsiteTool, StartAppTool};
use clawdeck_core::local_tools::edit::EditTool;
use clawdeck_core::local_tools::exec::ExecTool;
use clawdeck_core::local_tools::plugin::PluginTool;
use clawdeck_core::local_tools::process_tool::ProcessTool;
use clawdeck_core::local_tools::read::ReadTool;
use clawdeck_core::local_tools::specs::builtin_spec;
use clawdeck_core::local_tools::volume::VolumeTool;
use clawdeck_core::local_tools::write::WriteTool;
use clawdeck_core::local_tools::{ExecSessions, PathAccess, PathGuard, SystemEnv, WorkspaceAccess};
use clawdeck_core::tool::{ContentBlock, Tool, ToolCall, ToolError, ToolResult};
use proptest::prelude::*;
use serde_json::{Value, json};

fn spec(name: &str) -> clawdeck_core::tool::ToolSpec {
    builtin_spec(name).unwrap()
}

async fn call(tool: &dyn Tool, params: Value) -> Result<ToolResult, ToolError> {
    tool.execute(ToolCall::new("t1", params)).await
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

// ---------------------------------------------------------------- path guard properties

/// outer/ws (the root) with sub/, files and symlinks; outer/ws2 a sibling sharing the prefix.
struct Sandbox {
    _dir: tempfile::TempDir,
    outer: PathBuf,
    guard: PathGuard,
}

fn sandbox_tree() -> Sandbox {
    let dir = tempfile::tempdir().unwrap();
    let outer = std::fs::canonicalize(dir.path()).unwrap();
    let root = outer.join("ws");
    std::fs::create_dir_all(root.join("sub/deep")).unwrap();
    std::fs::create_dir_all(outer.join("ws2")).unwrap();
    std::fs::write(root.join("sub/a.txt"), "a").unwrap();
    std::fs::write(outer.join("ws2/secret.txt"), "s").unwrap();
    symlink(root.join("sub"), root.join("link_in")).unwrap();
    symlink(&outer, root.join("link_out")).unwrap();
    symlink("../ws2", root.join("link_rel_out")).unwrap();
    symlink("sub/deep", root.join("sub_rel")).unwrap();
    symlink(outer.join("missing"), root.join("dangling_out")).unwrap();
    let guard = PathGuard::sandboxed(&root, WorkspaceAccess::Rw).unwrap();
    Sandbox {
        _dir: dir,
        outer,
        guard,
    }
}

fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just("sub".to_string()),
        Just("deep".to_string()),
        Just("a.txt".to_string()),
        Just("new.txt".to_string()),
        Just("missing".to_string()),
        Just("link_in".to_string()),
        Just("link_out".to_string()),
        Just("link_rel_out".to_string()),
        Just("sub_rel".to_string()),
        Just("dangling_out".to_string()),
        Just("ws".to_string()),
        Just("ws2".to_string()),
        Just("secret.txt".to_string()),
    ]
}

/// How a generated path starts: relative, at the root, at the `/root2` sibling, at the outer
/// directory, or at `/`.
#[derive(Debug, Clone)]
enum Start {
    Relative,
    Root,
    RootSibling,
    Outer,
    Slash,
}

fn start() -> impl Strategy<Value = Start> {
    prop_oneof![
        Just(Start::Relative),
        Just(Start::Root),
        Just(Start::RootSibling),
        Just(Start::Outer),
        Just(Start::Slash)
    ]
}

fn build_path(sb: &Sandbox, start: &Start, parts: &[String]) -> String {
    let root = sb.guard.root().display().to_string();
    let prefix = match start {
        Start::Relative => String::new(),
        Start::Root => format!("{root}/"),
        Start::RootSibling => format!("{root}2/"),
        Start::Outer => format!("{}/", sb.outer.display()),
        Start::Slash => "/".to_string(),
    };
    let joined = parts.join("/");
    let path = format!("{prefix}{joined}");
    if path.is_empty() {
        ".".to_string()
    } else {
        path
    }
}

/// No existing prefix of `path` is a symlink.
fn symlink_free(path: &Path) -> bool {
    let mut current = PathBuf::from("/");
    for c in path.components().skip(1) {
        current.push(c);
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

/// Whatever the path, an accepted one lies under the root with no symlink in it, and an existing
/// path is accepted exactly when the kernel's own resolution lands under the root. One tree serves
/// every case (resolving never changes it), so the runner is driven by hand.
#[test]
fn sandbox_paths_never_escape() {
    use proptest::test_runner::{Config, TestRunner};
    let sb = sandbox_tree();
    let root = sb.guard.root().to_path_buf();
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        ..Config::default()
    });
    let strategy = (start(), prop::collection::vec(component(), 0..7));
    let result = runner.run(&strategy, |(start, parts)| {
        let raw = build_path(&sb, &start, &parts);
        let resolved = sb.guard.resolve(&raw, PathAccess::Write);
        if let Ok(path) = &resolved {
            prop_assert!(
                path.starts_with(&root),
                "{raw} resolved to {} outside {}",
                path.display(),
                root.display()
            );
            prop_assert!(
                symlink_free(path),
                "{raw} resolved through a symlink: {}",
                path.display()
            );
        }
        let absolute = if raw.starts_with('/') {
            PathBuf::from(&raw)
        } else {
            root.join(&raw)
        };
        if let Ok(real) = std::fs::canonicalize(&absolute) {
            match &resolved {
                Ok(path) => prop_assert_eq!(path, &real),
                Err(_) => prop_assert!(
                    !real.starts_with(&root),
                    "{raw} is really {} (inside) but was refused",
                    real.display()
                ),
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

proptest! {
    /// Host mode never refuses and keeps relative paths under the root.
    #[test]
    fn host_paths_join_the_root(parts in prop::collection::vec("[a-z]{1,5}", 1..5)) {
        let guard = PathGuard::host("/work/ws");
        let raw = parts.join("/");
        let resolved = guard.resolve(&raw, PathAccess::Write).unwrap();
        prop_assert_eq!(resolved, PathBuf::from("/work/ws").join(&raw));
    }
}

#[test]
fn sandbox_refusals_name_the_root_and_the_path() {
    let sb = sandbox_tree();
    let err = sb
        .guard
        .resolve("link_rel_out/secret.txt", PathAccess::Read)
        .unwrap_err();
    assert!(matches!(err, ToolError::Unauthorized(_)));
    assert_eq!(
        err.to_string(),
        format!(
            "Path escapes sandbox root ({}): link_rel_out/secret.txt",
            sb.guard.root().display()
        )
    );
}

// ---------------------------------------------------------------- file tools

#[tokio::test]
async fn write_read_and_edit_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let guard = Arc::new(PathGuard::host(dir.path()));
    let write = WriteTool::new(spec("write"), Arc::clone(&guard));
    let read = ReadTool::new(spec("read"), Arc::clone(&guard));
    let edit = EditTool::new(spec("edit"), Arc::clone(&guard));

    let r = call(
        &write,
        json!({"path": "nested/dir/f.txt", "content": "alpha\nbeta\ngamma\n"}),
    )
    .await
    .unwrap();
    assert_eq!(
        r.joined_text(),
        "Successfully wrote 17 bytes to nested/dir/f.txt"
    );
    let r = call(
        &read,
        json!({"path": "nested/dir/f.txt", "offset": 2, "limit": 1}),
    )
    .await
    .unwrap();
    assert_eq!(
        r.joined_text(),
        "beta\n\n[Showing lines 2-2 of 3. Use offset=3 to continue.]"
    );

    let r = call(
        &edit,
        json!({"path": "nested/dir/f.txt", "edits": [
            {"oldText": "alpha", "newText": "ALPHA"},
            {"oldText": "gamma\n", "newText": "GAMMA\ndelta\n"}
        ]}),
    )
    .await
    .unwrap();
    assert_eq!(
        r.joined_text(),
        "Successfully replaced 2 blocks in nested/dir/f.txt."
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("nested/dir/f.txt")).unwrap(),
        "ALPHA\nbeta\nGAMMA\ndelta\n"
    );

    // A failing edit among several leaves the file untouched.
    let err = call(
        &edit,
        json!({"path": "nested/dir/f.txt", "edits": [
            {"oldText": "beta", "newText": "B"},
            {"oldText": "nope", "newText": "x"}
        ]}),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("edits[1].oldText"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("nested/dir/f.txt")).unwrap(),
        "ALPHA\nbeta\nGAMMA\ndelta\n"
    );

    let err = call(&read, json!({"path": "missing.txt"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string().starts_with("Cannot read missing.txt"),
        "{err}"
    );
}

#[tokio::test]
async fn read_returns_images_as_image_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let png = [b"\x89PNG\r\n\x1a\n".as_slice(), &[0u8; 32]].concat();
    std::fs::write(dir.path().join("pic.bin"), &png).unwrap();
    let read = ReadTool::new(spec("read"), Arc::new(PathGuard::host(dir.path())));
    let r = call(&read, json!({"path": "pic.bin"})).await.unwrap();
    assert!(
        matches!(&r.content[1], ContentBlock::Image { mime_type, .. } if mime_type == "image/png")
    );
}

#[tokio::test]
async fn sandboxed_file_tools_refuse_escapes_and_read_only_writes() {
    let sb = sandbox_tree();
    let guard = Arc::new(sb.guard.clone());
    let read = ReadTool::new(spec("read"), Arc::clone(&guard));
    let write = WriteTool::new(spec("write"), Arc::clone(&guard));
    assert!(call(&read, json!({"path": "link_in/a.txt"})).await.is_ok());
    let err = call(&read, json!({"path": "../ws2/secret.txt"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string().starts_with("Path escapes sandbox root"),
        "{err}"
    );
    let err = call(
        &write,
        json!({"path": "link_out/ws2/evil.txt", "content": "x"}),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().starts_with("Path escapes sandbox root"),
        "{err}"
    );
    assert!(!sb.outer.join("ws2/evil.txt").exists());

    let ro = Arc::new(PathGuard::sandboxed(sb.guard.root(), WorkspaceAccess::Ro).unwrap());
    let write_ro = WriteTool::new(spec("write"), Arc::clone(&ro));
    let edit_ro = EditTool::new(spec("edit"), Arc::clone(&ro));
    let patch_ro = ApplyPatchTool::new(spec("apply_patch"), Arc::clone(&ro));
    for err in [
        call(&write_ro, json!({"path": "sub/b.txt", "content": "x"}))
            .await
            .unwrap_err(),
        call(
            &edit_ro,
            json!({"path": "sub/a.txt", "oldText": "a", "newText": "b"}),
        )
        .await
        .unwrap_err(),
        call(
            &patch_ro,
            json!({"input": "*** Begin Patch\n*** Add File: sub/c.txt\n+x\n*** End Patch"}),
        )
        .await
        .unwrap_err(),
    ] {
        assert!(
            matches!(&err, ToolError::Unauthorized(m) if m.contains("workspaceAccess is \"ro\"")),
            "{err}"
        );
    }
    assert!(
        call(
            &ReadTool::new(spec("read"), ro),
            json!({"path": "sub/a.txt"})
        )
        .await
        .is_ok()
    );
}

// ---------------------------------------------------------------- apply_patch

#[tokio::test]
async fn apply_patch_adds_updates_moves_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.rs"),
        "fn main() {\n    println!(\"old\");\n}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("gone.txt"), "bye\n").unwrap();
    std::fs::write(dir.path().join("old_name.txt"), "one\ntwo\n").unwrap();
    let tool = ApplyPatchTool::new(spec("apply_patch"), Arc::new(PathGuard::host(dir.path())));
    let patch = "*** Begin Patch
*** Add File: docs/new.md
+# Title
+body
*** Update File: main.rs
@@ fn main() {
-    println!(\"old\");
+    println!(\"new\");
*** Delete File: gone.txt
*** Update File: old_name.txt
*** Move to: moved/new_name.txt
@@
 one
-two
+2
*** End Patch";
    let r = call(&tool, json!({"input": patch})).await.unwrap();
    assert_eq!(
        r.joined_text(),
        "Success. Updated the following files:\nA docs/new.md\nM main.rs\nM moved/new_name.txt\nD gone.txt"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("docs/new.md")).unwrap(),
        "# Title\nbody\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("main.rs")).unwrap(),
        "fn main() {\n    println!(\"new\");\n}\n"
    );
    assert!(!dir.path().join("gone.txt").exists());
    assert!(!dir.path().join("old_name.txt").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("moved/new_name.txt")).unwrap(),
        "one\n2\n"
    );
}

#[tokio::test]
async fn apply_patch_failures_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "keep\n").unwrap();
    let tool = ApplyPatchTool::new(spec("apply_patch"), Arc::new(PathGuard::host(dir.path())));
    // The first operation would succeed; the second does not match: nothing is written.
    let patch = "*** Begin Patch\n*** Add File: b.txt\n+new\n*** Update File: a.txt\n@@\n-absent line\n+x\n*** End Patch";
    let err = call(&tool, json!({"input": patch})).await.unwrap_err();
    assert!(
        err.to_string()
            .contains("Failed to find expected lines in a.txt"),
        "{err}"
    );
    assert!(!dir.path().join("b.txt").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "keep\n"
    );

    let err = call(
        &tool,
        json!({"input": "*** Begin Patch\n*** Delete File: nothere.txt\n*** End Patch"}),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().starts_with("Failed to delete nothere.txt"),
        "{err}"
    );
    let err = call(&tool, json!({"input": "*** Update File: a.txt\n"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("first line of the patch must be '*** Begin Patch'"),
        "{err}"
    );
    let err = call(&tool, json!({"input": "*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch"})).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Failed to read file to update missing.txt"),
        "{err}"
    );
}

// ---------------------------------------------------------------- exec / process

fn exec_tools(dir: &Path, timeout_seconds: u64) -> (ExecTool, ProcessTool) {
    let sessions = ExecSessions::new(Duration::from_secs(60));
    let settings = ExecSettings {
        timeout_seconds,
        ..ExecSettings::default()
    };
    (
        ExecTool::new(
            spec("exec"),
            Arc::new(PathGuard::host(dir)),
            settings,
            sessions.clone(),
        ),
        ProcessTool::new(spec("process"), sessions),
    )
}

#[tokio::test]
async fn exec_foreground_output_exit_codes_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = exec_tools(dir.path(), 30);
    let r = call(
        &exec,
        json!({"command": "echo out; echo err >&2; pwd", "env": {"X": "1"}}),
    )
    .await
    .unwrap();
    let text = r.joined_text();
    assert!(text.contains("out") && text.contains("err"), "{text}");
    assert!(
        text.contains(&*std::fs::canonicalize(dir.path()).unwrap().to_string_lossy()),
        "runs in the workspace: {text}"
    );
    assert_eq!(r.details["status"], "completed");
    assert_eq!(r.details["exitCode"], 0);

    let r = call(&exec, json!({"command": "echo partial; exit 4"}))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "partial\n\n(Command exited with code 4)");
    assert_eq!(r.details["status"], "completed");

    let r = call(&exec, json!({"command": "true"})).await.unwrap();
    assert_eq!(r.joined_text(), "(no output)");

    let r = call(&exec, json!({"command": "definitely-not-a-command-xyz"}))
        .await
        .unwrap();
    assert!(
        r.joined_text().ends_with("Command not found"),
        "{}",
        r.joined_text()
    );
    assert!(r.is_error());

    let err = call(&exec, json!({"command": "   "})).await.unwrap_err();
    assert_eq!(err.to_string(), "Provide a command to start.");

    std::fs::write(dir.path().join("script.sh"), "#!/bin/sh\necho hi\n").unwrap();
    let r = call(&exec, json!({"command": "./script.sh"}))
        .await
        .unwrap();
    assert!(
        r.joined_text()
            .ends_with("Command not executable (permission denied)"),
        "{}",
        r.joined_text()
    );
    assert_eq!(r.details["failureKind"], "shell-not-executable");

    let r = call(&exec, json!({"command": "kill -USR1 $$"}))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "Command aborted by signal SIGUSR1");
    assert!(r.is_error());

    let r = call(&exec, json!({"command": "pwd", "workdir": "nope"}))
        .await
        .unwrap();
    assert!(
        r.joined_text().starts_with("Working directory not found"),
        "{}",
        r.joined_text()
    );
}

#[tokio::test]
async fn exec_reports_live_output_while_in_the_foreground() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = exec_tools(dir.path(), 30);
    let seen: Arc<std::sync::Mutex<Vec<ToolResult>>> = Arc::default();
    let mut c = ToolCall::new("t", json!({"command": "echo early; sleep 0.5; echo late"}));
    let sink = Arc::clone(&seen);
    c.progress = Arc::new(move |update| sink.lock().unwrap().push(update));
    let r = exec.execute(c).await.unwrap();
    assert_eq!(r.joined_text(), "early\nlate");
    let updates = seen.lock().unwrap();
    assert!(!updates.is_empty(), "no progress update");
    assert_eq!(updates[0].joined_text(), "early\n");
    assert_eq!(updates[0].details["status"], "running");
}

#[tokio::test]
async fn exec_timeout_kills_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = exec_tools(dir.path(), 30);
    let started = std::time::Instant::now();
    let r = call(
        &exec,
        json!({"command": "echo before; sleep 30", "timeout": 1}),
    )
    .await
    .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    let text = r.joined_text();
    assert!(
        text.starts_with("before\n\nCommand timed out after 1 seconds."),
        "{text}"
    );
    assert_eq!(r.details["status"], "timeout");
    assert!(r.is_error());
}

#[tokio::test]
async fn exec_yields_to_the_background_and_process_follows_up() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, process) = exec_tools(dir.path(), 30);
    let r = call(
        &exec,
        json!({"command": "echo first; sleep 1; echo second; exit 7", "yieldMs": 200}),
    )
    .await
    .unwrap();
    let id = r.details["sessionId"].as_str().unwrap().to_string();
    let pid = r.details["pid"].as_u64().unwrap();
    assert_eq!(
        r.joined_text(),
        format!(
            "Command still running (session {id}, pid {pid}). Use process (list/poll/log/write/kill/clear/remove) for follow-up."
        )
    );
    assert_eq!(r.details["status"], "running");

    let list = call(&process, json!({"action": "list"})).await.unwrap();
    assert!(
        list.joined_text().starts_with(&format!("{id} running")),
        "{}",
        list.joined_text()
    );

    let first = call(&process, json!({"action": "poll", "sessionId": id}))
        .await
        .unwrap();
    assert!(
        first.joined_text().starts_with("first"),
        "{}",
        first.joined_text()
    );
    assert!(first.joined_text().ends_with("Process still running."));

    let done = call(
        &process,
        json!({"action": "poll", "sessionId": id, "timeout": 5000}),
    )
    .await
    .unwrap();
    let mut text = done.joined_text();
    if done.details["status"] == "running" {
        text = call(
            &process,
            json!({"action": "poll", "sessionId": id, "timeout": 5000}),
        )
        .await
        .unwrap()
        .joined_text();
    }
    assert!(text.ends_with("Process exited with code 7."), "{text}");
    assert!(
        !text.contains("first"),
        "poll only returns new output: {text}"
    );

    let log = call(&process, json!({"action": "log", "sessionId": id}))
        .await
        .unwrap();
    assert!(
        log.joined_text().starts_with("first\nsecond"),
        "{}",
        log.joined_text()
    );
    let log = call(
        &process,
        json!({"action": "log", "sessionId": id, "offset": 1, "limit": 1}),
    )
    .await
    .unwrap();
    assert!(
        log.joined_text().starts_with("second"),
        "{}",
        log.joined_text()
    );

    let cleared = call(&process, json!({"action": "clear", "sessionId": id}))
        .await
        .unwrap();
    assert_eq!(cleared.joined_text(), format!("Cleared session {id}."));
    let gone = call(&process, json!({"action": "poll", "sessionId": id}))
        .await
        .unwrap();
    assert_eq!(gone.joined_text(), format!("No session found for {id}"));
    assert!(gone.is_error());
}

#[tokio::test]
async fn process_kill_remove_write_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, process) = exec_tools(dir.path(), 30);
    let missing = call(&process, json!({"action": "poll"})).await.unwrap();
    assert_eq!(
        missing.joined_text(),
        "sessionId is required for this action."
    );
    let unknown = call(&process, json!({"action": "dance", "sessionId": "x"}))
        .await
        .unwrap();
    assert_eq!(unknown.joined_text(), "Unknown action dance");

    // A background session reading stdin.
    let r = call(
        &exec,
        json!({"command": "read line; echo got:$line", "background": true}),
    )
    .await
    .unwrap();
    let id = r.details["sessionId"].as_str().unwrap().to_string();
    let w = call(
        &process,
        json!({"action": "write", "sessionId": id, "data": "hello\n", "eof": true}),
    )
    .await
    .unwrap();
    assert_eq!(
        w.joined_text(),
        format!("Wrote 6 bytes to session {id} (stdin closed).")
    );
    let done = call(
        &process,
        json!({"action": "poll", "sessionId": id, "timeout": 5000}),
    )
    .await
    .unwrap();
    assert!(
        done.joined_text().starts_with("got:hello"),
        "{}",
        done.joined_text()
    );

    // submit / send-keys / paste write to the pipe too.
    let r = call(
        &exec,
        json!({"command": "head -c 12 | od -An -c", "background": true}),
    )
    .await
    .unwrap();
    let keys = r.details["sessionId"].as_str().unwrap().to_string();
    let p = call(
        &process,
        json!({"action": "paste", "sessionId": keys, "text": "ab"}),
    )
    .await
    .unwrap();
    assert_eq!(
        p.joined_text(),
        format!("Pasted 2 chars to session {keys}.")
    );
    let k = call(
        &process,
        json!({"action": "send-keys", "sessionId": keys, "keys": ["Tab", "C-c", "x"]}),
    )
    .await
    .unwrap();
    assert_eq!(k.joined_text(), format!("Sent 3 key(s) to session {keys}."));
    let s = call(&process, json!({"action": "submit", "sessionId": keys}))
        .await
        .unwrap();
    assert_eq!(
        s.joined_text(),
        format!("Submitted session {keys} (sent CR).")
    );
    call(
        &process,
        json!({"action": "write", "sessionId": keys, "data": "123456", "eof": true}),
    )
    .await
    .unwrap();
    let out = call(
        &process,
        json!({"action": "poll", "sessionId": keys, "timeout": 5000}),
    )
    .await
    .unwrap();
    let text = out.joined_text();
    assert!(
        text.contains("a   b  \\t 003   x  \\r   1   2   3   4   5   6"),
        "{text}"
    );
    let bad = call(
        &process,
        json!({"action": "send-keys", "sessionId": keys, "keys": ["Hyper"]}),
    )
    .await
    .unwrap();
    assert!(bad.is_error());

    // A session that moved to the background after yieldMs has no stdin pipe.
    let r = call(&exec, json!({"command": "sleep 30", "yieldMs": 10}))
        .await
        .unwrap();
    let sleeper = r.details["sessionId"].as_str().unwrap().to_string();
    let w = call(
        &process,
        json!({"action": "write", "sessionId": sleeper, "data": "x"}),
    )
    .await
    .unwrap();
    assert!(
        w.joined_text().contains("stdin is not writable"),
        "{}",
        w.joined_text()
    );
    let k = call(&process, json!({"action": "kill", "sessionId": sleeper}))
        .await
        .unwrap();
    assert_eq!(
        k.joined_text(),
        format!("Termination requested for session {sleeper}.")
    );
    let ended = call(
        &process,
        json!({"action": "poll", "sessionId": sleeper, "timeout": 5000}),
    )
    .await
    .unwrap();
    assert!(
        ended
            .joined_text()
            .contains("Process stopped by request (signal SIGTERM)."),
        "{}",
        ended.joined_text()
    );
    let again = call(&process, json!({"action": "kill", "sessionId": sleeper}))
        .await
        .unwrap();
    assert_eq!(
        again.joined_text(),
        format!("No active session found for {sleeper}")
    );

    // remove kills a running session and forgets it.
    let r = call(&exec, json!({"command": "sleep 30", "background": true}))
        .await
        .unwrap();
    let other = r.details["sessionId"].as_str().unwrap().to_string();
    let pid = r.details["pid"].as_u64().unwrap() as i32;
    let rm = call(&process, json!({"action": "remove", "sessionId": other}))
        .await
        .unwrap();
    assert_eq!(
        rm.joined_text(),
        format!("Removed session {other} (termination requested).")
    );
    let mut alive = true;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if !Path::new(&format!("/proc/{pid}")).exists() {
            alive = false;
            break;
        }
    }
    assert!(!alive, "removed session's process {pid} is still running");
    let clear = call(&process, json!({"action": "clear", "sessionId": other}))
        .await
        .unwrap();
    assert_eq!(
        clear.joined_text(),
        format!("No finished session found for {other}")
    );
}

#[tokio::test]
async fn finished_sessions_are_forgotten_after_the_ttl() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = ExecSessions::new(Duration::from_millis(300));
    let guard = Arc::new(PathGuard::host(dir.path()));
    let exec = ExecTool::new(
        spec("exec"),
        guard,
        ExecSettings::default(),
        sessions.clone(),
    );
    let process = ProcessTool::new(spec("process"), sessions.clone());
    let r = call(&exec, json!({"command": "echo quick", "background": true}))
        .await
        .unwrap();
    let id = r.details["sessionId"].as_str().unwrap().to_string();
    let mut text = String::new();
    for _ in 0..10 {
        let polled = call(
            &process,
            json!({"action": "poll", "sessionId": id, "timeout": 2000}),
        )
        .await
        .unwrap();
        text.push_str(&polled.joined_text());
        if polled.details["status"] != "running" {
            break;
        }
    }
    assert!(
        text.starts_with("quick") && text.ends_with("Process exited with code 0."),
        "{text}"
    );
    // Still listed right after it finished, gone once the TTL has passed.
    assert!(
        call(&process, json!({"action": "list"}))
            .await
            .unwrap()
            .joined_text()
            .starts_with(&id)
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        call(&process, json!({"action": "list"}))
            .await
            .unwrap()
            .joined_text(),
        "No running or recent sessions."
    );
    assert!(sessions.get(&id).is_none());
}

#[tokio::test]
async fn exec_is_cancelled_by_the_call_token() {
    let dir = tempfile::tempdir().unwrap();
    let (exec, _) = exec_tools(dir.path(), 30);
    let c = ToolCall::new("t", json!({"command": "sleep 30"}));
    let token = c.cancel.clone();
    let task = tokio::spawn(async move { exec.execute(c).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    token.cancel();
    let res = tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(res.unwrap_err(), ToolError::Cancelled);
}

// ---------------------------------------------------------------- plugin tools

fn plugin(script: &str, timeout: Duration) -> PluginTool {
    let mut spec = spec("read");
    spec.name = "demo_plugin_tool".into();
    let command = PluginToolCommand {
        plugin_id: "demo".into(),
        argv: vec![
            fixtures()
                .join("plugin_tools")
                .join(script)
                .display()
                .to_string(),
        ],
        cwd: fixtures(),
        timeout,
    };
    PluginTool::new(spec, command)
}

#[tokio::test]
async fn plugin_tools_run_as_external_commands() {
    let r = call(
        &plugin("echo_params.py", Duration::from_secs(10)),
        json!({"b": 2, "a": "x"}),
    )
    .await
    .unwrap();
    assert_eq!(r.joined_text(), r#"echo: {"a": "x", "b": 2}"#);
    assert_eq!(r.details["tool"], "demo_plugin_tool");

    let r = call(&plugin("plain_text.sh", Duration::from_secs(10)), json!({}))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "plain answer");

    let err = call(&plugin("fails.sh", Duration::from_secs(10)), json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Plugin tool demo_plugin_tool failed (exited with code 2): the plugin broke"
    );

    let started = std::time::Instant::now();
    let r = call(&plugin("sleeps.sh", Duration::from_millis(300)), json!({}))
        .await
        .unwrap();
    assert_eq!(r.details["status"], "timeout");
    assert!(r.is_error());
    assert!(started.elapsed() < Duration::from_secs(6));

    let err = call(&plugin("no-such-script", Duration::from_secs(1)), json!({}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("could not start"), "{err}");
}

// ---------------------------------------------------------------- local system tools

fn write_script(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn env_with(bin: &Path, data: Option<&Path>) -> SystemEnv {
    SystemEnv {
        path: Some(bin.as_os_str().to_owned()),
        data_home: data.map(Path::to_path_buf),
        data_dirs: vec![],
    }
}

#[tokio::test]
async fn volume_uses_pactl_and_falls_back_to_amixer() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let state = dir.path().join("vol");
    std::fs::write(&state, "40").unwrap();
    // A fake pactl keeping the volume in a file.
    write_script(
        &bin,
        "pactl",
        &format!(
            r#"S={state}
case "$1" in
  get-sink-volume) echo "Volume: front-left: 1 / $(cat $S)% / 0 dB";;
  set-sink-volume) echo "$3" | tr -d '%' > $S;;
  get-sink-mute) echo "Mute: no";;
  *) exit 1;;
esac"#,
            state = state.display()
        ),
    );
    let tool = VolumeTool::new(spec("system_volume_control"), env_with(&bin, None));
    let r = call(&tool, json!({"action": "up", "step": 10}))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "Volume 50% (not muted)");
    assert_eq!(r.details["backend"], "pactl");
    let r = call(&tool, json!({"action": "up", "step": 80}))
        .await
        .unwrap();
    assert_eq!(r.details["volume"], 100, "capped at 100");

    // pactl present but failing (no sound server): amixer answers.
    write_script(
        &bin,
        "pactl",
        "echo 'Connection failure: Connection refused' >&2; exit 1",
    );
    write_script(
        &bin,
        "amixer",
        "echo \"  Front Left: Playback 39321 [60%] [off]\"",
    );
    let r = call(&tool, json!({"action": "get"})).await.unwrap();
    assert_eq!(r.joined_text(), "Volume 60% (muted)");
    assert_eq!(r.details["backend"], "amixer");

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let none = VolumeTool::new(spec("system_volume_control"), env_with(&empty, None));
    let err = call(&none, json!({"action": "get"})).await.unwrap_err();
    assert!(
        err.to_string().contains("needs pactl") && err.to_string().contains("amixer"),
        "{err}"
    );
}

#[tokio::test]
async fn start_app_finds_desktop_entries_and_launches_without_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    let apps = dir.path().join("data/applications/sub");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&apps).unwrap();
    let marker = dir.path().join("launched");
    // The Exec line carries shell metacharacters that must arrive as plain arguments.
    std::fs::write(
        apps.join("calc.desktop"),
        "[Desktop Entry]\nType=Application\nName=Calculator\nExec=recorder \"a;b\" $HOME %U\n",
    )
    .unwrap();
    write_script(
        &bin,
        "recorder",
        &format!("printf '%s|' \"$@\" > {}", marker.display()),
    );
    let tool = StartAppTool::new(
        spec("start_app"),
        env_with(&bin, Some(&dir.path().join("data"))),
    );
    let r = call(&tool, json!({"app": "calculator"})).await.unwrap();
    assert_eq!(r.joined_text(), "Started Calculator (sub-calc.desktop)");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "a;b|$HOME|");

    // With gtk-launch on PATH it is used with the desktop id.
    write_script(
        &bin,
        "gtk-launch",
        &format!("echo \"$@\" > {}", marker.display()),
    );
    let r = call(&tool, json!({"app": "sub-calc"})).await.unwrap();
    assert_eq!(r.details["launcher"], "gtk-launch");
    assert_eq!(std::fs::read_to_string(&marker).unwrap().trim(), "sub-calc");

    let err = call(&tool, json!({"app": "gimp"})).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("No application found for \"gimp\""),
        "{err}"
    );

    // A .desktop file by path runs its Exec line (with args appended); a program by path runs as is.
    let r = call(
        &tool,
        json!({"app": apps.join("calc.desktop").display().to_string(), "args": ["x y"]}),
    )
    .await
    .unwrap();
    assert_eq!(r.details["launcher"], "exec");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "a;b|$HOME|x y|");
    let r = call(
        &tool,
        json!({"app": bin.join("recorder").display().to_string(), "args": ["1", "2"]}),
    )
    .await
    .unwrap();
    assert_eq!(r.details["launcher"], "exec");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "1|2|");
    std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
    let err = call(
        &tool,
        json!({"app": dir.path().join("notes.txt").display().to_string()}),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("neither a .desktop file nor an executable"),
        "{err}"
    );
}

#[tokio::test]
async fn open_website_accepts_only_http_urls_and_needs_xdg_open() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let tool = OpenWebsiteTool::new(spec("open_website"), env_with(&bin, None));
    let err = call(&tool, json!({"url": "https://example.com"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("needs xdg-open"), "{err}");

    let marker = dir.path().join("opened");
    write_script(
        &bin,
        "xdg-open",
        &format!("echo \"$1\" > {}", marker.display()),
    );
    let r = call(&tool, json!({"url": "https://example.com/a?b=1"}))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "Opened https://example.com/a?b=1");
    assert_eq!(
        std::fs::read_to_string(&marker).unwrap().trim(),
        "https://example.com/a?b=1"
    );

    let err = call(&tool, json!({"url": "file:///etc/passwd"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Only http:// and https:// URLs"),
        "{err}"
    );

    write_script(&bin, "xdg-open", "echo 'no browser' >&2; exit 3");
    let err = call(&tool, json!({"url": "http://example.com"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("exited with code 3: no browser"),
        "{err}"
    );
}
