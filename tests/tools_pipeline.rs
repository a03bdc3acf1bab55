//! The execution pipeline end to end: policy refusals, aliases, schema validation with paths,
//! before_tool_call hooks (block, merge, failure, timeout, priority), the lane queue, error
//! results, cancellation and result sanitising.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::catalog::Registry;
use clawdeck_core::config::settings::HookCommand;
use clawdeck_core::context::PolicyContext;
use clawdeck_core::local_tools::ToolRuntime;
use clawdeck_core::pipeline::{CallOutcome, CallRequest, Pipeline};
use clawdeck_core::policy::LayerId;
use clawdeck_core::queue::{LaneLimits, LaneQueue, QueueEvent};
use clawdeck_core::stages::hooks::{DEFAULT_BLOCK_REASON, HOOK_FAILED_REASON, HookStep};
use clawdeck_core::stages::results::TRUNCATION_MARKER;
use clawdeck_core::tool::ContentBlock;
use serde_json::{Value, json};

fn hook_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hooks")
        .join(name)
        .display()
        .to_string()
}

fn hook(name: &str, argv: Vec<String>, priority: i64) -> HookCommand {
    HookCommand {
        name: name.into(),
        command: argv,
        priority,
        timeout_ms: 5000,
        tools: vec![],
    }
}

struct Setup {
    dir: tempfile::TempDir,
    config: String,
    hooks: Vec<HookCommand>,
    plugin_dirs: Vec<PathBuf>,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            dir: tempfile::tempdir().unwrap(),
            config: r#"{ tools: { profile: "full" } }"#.into(),
            hooks: vec![],
            plugin_dirs: vec![],
        }
    }

    fn ws(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    fn build(&self) -> Pipeline {
        let mut loaded = clawdeck_core::config::load_from_str(&self.config, "test-config.json5")
            .unwrap()
            .with_pack("seed")
            .unwrap();
        // clawdeck does not create a configured workspace; the fixture's exists.
        if let Err(e) = std::fs::create_dir_all(self.ws()) {
            panic!("cannot create the test workspace: {e}");
        }
        loaded.settings.workspace = Some(self.ws());
        loaded.settings.hooks.before_tool_call = self.hooks.clone();
        loaded.settings.plugins.dirs = self.plugin_dirs.clone();
        let registry = Registry::build(&loaded, &clawdeck_core::mcp_servers::ServerListing::Off);
        // These tests expect no OpenClaw gateway, whatever the machine's environment says (CI
        // exports OPENCLAW_GATEWAY_URL for the real-OpenClaw tests).
        let router = clawdeck_router::RouterService::with_env(
            loaded.settings.router.clone(),
            Arc::new(|key: &str| {
                if key.starts_with("OPENCLAW_") {
                    None
                } else {
                    std::env::var(key).ok()
                }
            }),
        );
        let runtime = ToolRuntime::new(&loaded).with_supplier(Arc::new(router));
        Pipeline::new(
            Arc::new(loaded),
            Arc::new(registry),
            LaneQueue::new(LaneLimits::default()),
            runtime,
        )
    }
}

async fn run(p: &Pipeline, tool: &str, params: Value) -> CallOutcome {
    p.call(CallRequest::new(tool, params, PolicyContext::default()))
        .await
}

fn completed(outcome: CallOutcome) -> (clawdeck_core::tool::ToolResult, bool) {
    match outcome {
        CallOutcome::Completed {
            result, is_error, ..
        } => (result, is_error),
        other => panic!("expected Completed, got {other:?}"),
    }
}

#[tokio::test]
async fn aliases_reach_the_tool_and_results_come_back() {
    let s = Setup::new();
    let p = s.build();
    let (r, is_error) = completed(
        run(
            &p,
            "write",
            json!({"file_path": "notes/a.txt", "content": "hello"}),
        )
        .await,
    );
    assert!(!is_error, "{r:?}");
    assert_eq!(
        std::fs::read_to_string(s.ws().join("notes/a.txt")).unwrap(),
        "hello"
    );
    let (r, _) = completed(
        run(
            &p,
            "edit",
            json!({"filePath": "notes/a.txt", "old_string": "hello", "new_string": "bye"}),
        )
        .await,
    );
    assert_eq!(
        r.joined_text(),
        "Successfully replaced text in notes/a.txt."
    );
    // `Bash` is OpenClaw's alias for exec.
    let (r, _) = completed(run(&p, "Bash", json!({"command": "cat notes/a.txt"})).await);
    assert_eq!(r.joined_text(), "bye");
}

#[tokio::test]
async fn invalid_params_name_their_path() {
    let s = Setup::new();
    let p = s.build();
    match run(
        &p,
        "edit",
        json!({"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}, {"newText": "z"}]}),
    )
    .await
    {
        CallOutcome::InvalidParams { problems, .. } => {
            assert_eq!(problems, vec!["/edits/1/oldText: required".to_string()])
        }
        other => panic!("{other:?}"),
    }
    match run(&p, "exec", json!({"command": 5})).await {
        CallOutcome::InvalidParams { problems, .. } => {
            assert!(
                problems
                    .iter()
                    .any(|p| p.starts_with("/command: ") && p.contains("string")),
                "{problems:?}"
            )
        }
        other => panic!("{other:?}"),
    }
    match run(&p, "write", json!({"content": "x"})).await {
        CallOutcome::InvalidParams { problems, tool } => {
            assert_eq!(tool, "write");
            assert_eq!(problems, vec!["/path: required".to_string()]);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn hidden_tools_are_refused_with_the_trace() {
    let mut s = Setup::new();
    s.config = r#"{ tools: { profile: "full", deny: ["exec"] } }"#.into();
    let p = s.build();
    match run(&p, "exec", json!({"command": "echo no"})).await {
        CallOutcome::Refused {
            trace, explanation, ..
        } => {
            let removal = trace.removed_by.clone().unwrap();
            assert_eq!(removal.layer, LayerId::Global);
            assert_eq!(removal.config_path.as_deref(), Some("tools.deny[0]"));
            assert!(explanation.contains("HIDDEN"), "{explanation}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        run(&p, "no_such_tool", json!({})).await,
        CallOutcome::UnknownTool { .. }
    ));
}

#[tokio::test]
async fn errors_become_error_results_and_openclaw_only_tools_say_so() {
    let s = Setup::new();
    let p = s.build();
    let (r, is_error) = completed(run(&p, "read", json!({"path": "missing.txt"})).await);
    assert!(is_error);
    assert!(
        r.details["error"]
            .as_str()
            .unwrap()
            .starts_with("Cannot read missing.txt"),
        "{r:?}"
    );
    assert_eq!(
        r.joined_text(),
        serde_json::to_string_pretty(&r.details).unwrap()
    );

    let (r, is_error) = completed(run(&p, "sessions_list", json!({})).await);
    assert!(is_error);
    assert!(
        r.details["error"]
            .as_str()
            .unwrap()
            .starts_with("sessions_list runs only inside OpenClaw"),
        "{r:?}"
    );
}

#[tokio::test]
async fn long_text_is_truncated_with_the_marker() {
    let s = Setup::new();
    let p = s.build();
    let (r, _) = completed(
        run(
            &p,
            "exec",
            json!({"command": "head -c 9000 /dev/zero | tr '\\0' x"}),
        )
        .await,
    );
    let text = r.joined_text();
    assert!(
        text.ends_with(TRUNCATION_MARKER),
        "{}",
        &text[text.len() - 40..]
    );
    assert_eq!(
        text.chars().count(),
        8000 + TRUNCATION_MARKER.chars().count()
    );
}

#[tokio::test]
async fn plugin_images_are_checked() {
    let mut s = Setup::new();
    let plugin = s.dir.path().join("plugins/pics");
    std::fs::create_dir_all(&plugin).unwrap();
    std::fs::write(
        plugin.join("openclaw.plugin.json"),
        r#"{"id": "pics", "configSchema": {"type": "object"}, "clawdeck": {"tools": [
            {"name": "pic_bad", "description": "bad image", "parameters": {"type": "object"}, "command": ["./bad.sh"]},
            {"name": "pic_png", "description": "png", "parameters": {"type": "object"}, "command": ["./png.sh"]}]}}"#,
    )
    .unwrap();
    let script = |name: &str, body: &str| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(
            plugin.join(name),
            format!("#!/bin/sh\ncat >/dev/null\n{body}\n"),
        )
        .unwrap();
        std::fs::set_permissions(plugin.join(name), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    };
    script(
        "bad.sh",
        r#"echo '{"content":[{"type":"image","data":"%%%not-base64","mimeType":"image/png"}]}'"#,
    );
    // A PNG declared as JPEG: the MIME type comes from the bytes.
    script(
        "png.sh",
        r#"echo '{"content":[{"type":"image","data":"iVBORw0KGgoAAAAAAAAAAA==","mimeType":"image/jpeg"}]}'"#,
    );
    s.plugin_dirs = vec![s.dir.path().join("plugins")];
    let p = s.build();
    let (r, _) = completed(run(&p, "pic_bad", json!({})).await);
    assert_eq!(
        r.joined_text(),
        "[pic_bad] omitted image payload: invalid base64"
    );
    let (r, _) = completed(run(&p, "pic_png", json!({})).await);
    assert!(
        matches!(&r.content[0], ContentBlock::Image { mime_type, .. } if mime_type == "image/png"),
        "{r:?}"
    );
}

#[tokio::test]
async fn hooks_block_with_their_reason_or_the_default() {
    let mut s = Setup::new();
    s.hooks = vec![hook("blocker", vec![hook_fixture("block.sh")], 0)];
    let p = s.build();
    match run(&p, "write", json!({"path": "x.txt", "content": "x"})).await {
        CallOutcome::Blocked { reason, hooks, .. } => {
            assert_eq!(reason, "blocked by the block fixture");
            assert_eq!(
                hooks,
                vec![HookStep::Blocked {
                    hook: "blocker".into(),
                    reason: reason.clone()
                }]
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!s.ws().join("x.txt").exists(), "a blocked call never runs");

    s.hooks = vec![hook("quiet", vec![hook_fixture("block_silent.sh")], 0)];
    match run(
        &s.build(),
        "write",
        json!({"path": "x.txt", "content": "x"}),
    )
    .await
    {
        CallOutcome::Blocked { reason, .. } => assert_eq!(reason, DEFAULT_BLOCK_REASON),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn hooks_merge_params_in_priority_order_and_stop_at_the_first_block() {
    let mut s = Setup::new();
    let log = s.dir.path().join("hooks.log");
    let setter = |key: &str, value: &str| {
        vec![
            hook_fixture("set_param.py"),
            key.to_string(),
            value.to_string(),
            log.display().to_string(),
        ]
    };
    // Config order: low first; priority puts high first; the low hook sees high's change.
    s.hooks = vec![
        hook("low", setter("content", "from-low"), 1),
        hook("high", setter("content", "from-high"), 10),
    ];
    let p = s.build();
    let outcome = run(&p, "write", json!({"path": "m.txt", "content": "original"})).await;
    let CallOutcome::Completed { hooks, .. } = &outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        hooks,
        &vec![
            HookStep::Passed {
                hook: "high".into(),
                changed: vec!["content".into()]
            },
            HookStep::Passed {
                hook: "low".into(),
                changed: vec!["content".into()]
            },
        ]
    );
    assert_eq!(
        std::fs::read_to_string(s.ws().join("m.txt")).unwrap(),
        "from-low"
    );
    let seen: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(seen[0]["params"]["content"], "original");
    assert_eq!(
        seen[1]["params"]["content"], "from-high",
        "the second hook sees the merged params"
    );
    assert_eq!(
        seen[1]["params"]["path"], "m.txt",
        "the merge is shallow: other keys stay"
    );

    // A block stops the chain: the lower-priority hook never runs.
    std::fs::remove_file(&log).unwrap();
    s.hooks = vec![
        hook("after", setter("content", "late"), 0),
        hook("stop", vec![hook_fixture("block.sh")], 5),
    ];
    assert!(matches!(
        run(
            &s.build(),
            "write",
            json!({"path": "m.txt", "content": "o"})
        )
        .await,
        CallOutcome::Blocked { .. }
    ));
    assert!(!log.exists(), "the hook after the block ran");

    // A hook limited to other tools is skipped.
    let mut only_read = hook("reader", vec![hook_fixture("block.sh")], 0);
    only_read.tools = vec!["read".into()];
    s.hooks = vec![only_read];
    let outcome = run(
        &s.build(),
        "write",
        json!({"path": "m.txt", "content": "o"}),
    )
    .await;
    let CallOutcome::Completed { hooks, .. } = &outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        hooks,
        &vec![HookStep::Skipped {
            hook: "reader".into()
        }]
    );
}

#[tokio::test]
async fn failing_garbage_missing_and_slow_hooks_block() {
    let mut s = Setup::new();
    for (script, needle) in [
        ("fail.sh", "exited with code 3: hook exploded"),
        ("garbage.sh", "stdout is not JSON"),
        ("/nonexistent/hook", "could not start"),
    ] {
        let argv = vec![if script.starts_with('/') {
            script.to_string()
        } else {
            hook_fixture(script)
        }];
        s.hooks = vec![hook("h", argv, 0)];
        match run(
            &s.build(),
            "write",
            json!({"path": "f.txt", "content": "x"}),
        )
        .await
        {
            CallOutcome::Blocked { reason, hooks, .. } => {
                assert_eq!(reason, HOOK_FAILED_REASON);
                let HookStep::Failed { detail, .. } = &hooks[0] else {
                    panic!("{hooks:?}")
                };
                assert!(detail.contains(needle), "{script}: {detail}");
            }
            other => panic!("{script}: {other:?}"),
        }
    }
    let mut slow = hook("slow", vec![hook_fixture("slow.sh")], 0);
    slow.timeout_ms = 300;
    s.hooks = vec![slow];
    let started = Instant::now();
    match run(
        &s.build(),
        "write",
        json!({"path": "f.txt", "content": "x"}),
    )
    .await
    {
        CallOutcome::Blocked { reason, hooks, .. } => {
            assert_eq!(reason, HOOK_FAILED_REASON);
            assert!(
                matches!(&hooks[0], HookStep::Failed { detail, .. } if detail == "timed out after 300 ms"),
                "{hooks:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the slow hook was killed: {:?}",
        started.elapsed()
    );
    assert!(!s.ws().join("f.txt").exists());
}

#[tokio::test]
async fn calls_go_through_the_named_lane_and_publish_queue_events() {
    let s = Setup::new();
    let p = s.build();
    let mut events = p.queue().subscribe();
    let mut request = CallRequest::new(
        "exec",
        json!({"command": "echo lane"}),
        PolicyContext::default(),
    );
    request.lane = Some("cron".into());
    let outcome = p.call(request).await;
    let CallOutcome::Completed { lane, .. } = &outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(lane, "cron");
    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        match event {
            QueueEvent::Enqueued { lane, label, .. } => seen.push(format!(
                "enqueued {lane} {}",
                label.split(':').next().unwrap()
            )),
            QueueEvent::Started { lane, .. } => seen.push(format!("started {lane}")),
            QueueEvent::Finished { lane, .. } => seen.push(format!("finished {lane}")),
            _ => {}
        }
    }
    assert_eq!(
        seen,
        vec!["enqueued cron exec", "started cron", "finished cron"]
    );
}

#[tokio::test]
async fn cancellation_is_never_an_error_result() {
    let s = Setup::new();
    let p = Arc::new(s.build());
    let request = CallRequest::new(
        "exec",
        json!({"command": "sleep 30"}),
        PolicyContext::default(),
    );
    let cancel = request.cancel.clone();
    let task = tokio::spawn({
        let p = Arc::clone(&p);
        async move { p.call(request).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    cancel.cancel();
    let outcome = tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        outcome,
        CallOutcome::Cancelled {
            tool: "exec".into(),
            killed_by_operator: false,
        }
    );
}

#[tokio::test]
async fn sandboxed_contexts_use_the_sandbox_workspace() {
    let mut s = Setup::new();
    let sandboxes = s.dir.path().join("sandboxes");
    s.config = format!(
        r#"{{ tools: {{ profile: "full" }}, agents: {{ defaults: {{ sandbox: {{ mode: "all", workspaceAccess: "none", workspaceRoot: "{}" }} }} }} }}"#,
        sandboxes.display()
    );
    let p = s.build();
    let ctx = PolicyContext {
        sandboxed: true,
        ..Default::default()
    };
    let outcome = p
        .call(CallRequest::new(
            "write",
            json!({"path": "in.txt", "content": "x"}),
            ctx.clone(),
        ))
        .await;
    let (_, is_error) = completed(outcome);
    assert!(!is_error);
    assert!(
        sandboxes.join("agent-main/in.txt").exists(),
        "written to the isolated sandbox workspace"
    );
    assert!(
        !s.ws().join("in.txt").exists(),
        "the agent workspace is not exposed"
    );
    let outcome = p
        .call(CallRequest::new(
            "read",
            json!({"path": "../../ws/whatever"}),
            ctx,
        ))
        .await;
    let (r, is_error) = completed(outcome);
    assert!(is_error);
    assert!(
        r.details["error"]
            .as_str()
            .unwrap()
            .starts_with("Path escapes sandbox root"),
        "{r:?}"
    );
}

#[tokio::test]
async fn the_configs_sandbox_mode_confines_file_tools_without_the_flag() {
    let mut s = Setup::new();
    s.config = r#"{ tools: { profile: "full" }, agents: { defaults: { sandbox: { mode: "all", workspaceAccess: "ro" } } } }"#.into();
    let p = s.build();
    std::fs::create_dir_all(s.ws()).unwrap();
    std::fs::write(s.ws().join("r.txt"), "readable").unwrap();
    let (r, is_error) = completed(run(&p, "read", json!({"path": "r.txt"})).await);
    assert!(!is_error, "{r:?}");
    std::fs::write(s.dir.path().join("outside.txt"), "secret").unwrap();
    let (r, is_error) = completed(run(&p, "read", json!({"path": "../outside.txt"})).await);
    assert!(
        is_error,
        "the guard applies although the context did not say --sandboxed"
    );
    assert!(
        r.details["error"]
            .as_str()
            .unwrap()
            .starts_with("Path escapes sandbox root"),
        "{r:?}"
    );
    // The policy's sandbox layer already hides the writers for `ro`; the guard would refuse too.
    assert!(matches!(
        run(&p, "write", json!({"path": "w.txt", "content": "x"})).await,
        CallOutcome::Refused { .. }
    ));
}
