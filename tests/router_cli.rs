//! clawbot_router over the CLI transport with the fake `openclaw` (tests/fixtures/fake-openclaw):
//! every branch of seed 000 §3.5, argv/env/stdin as the child saw them, streaming, and the
//! boundary (router output is never executed).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::config::settings::RouterSettings;
use clawdeck_core::tool::{Tool, ToolCall, ToolError};
use clawdeck_router::service::EnvLookup;
use clawdeck_router::{
    ClawbotRouterTool, RouterEventKind, RouterRequest, RouterService, RunStatus, StdStream, texts,
};
use serde_json::{Value, json};

fn fake_bin() -> String {
    format!(
        "{}/tests/fixtures/fake-openclaw",
        env!("CARGO_MANIFEST_DIR")
    )
}

struct Fixture {
    dir: tempfile::TempDir,
    env: HashMap<String, String>,
    settings: RouterSettings,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut env = HashMap::new();
        for key in ["PATH", "HOME", "LANG"] {
            if let Ok(v) = std::env::var(key) {
                env.insert(key.to_string(), v);
            }
        }
        env.insert(
            "FAKE_OPENCLAW_RECORD".into(),
            dir.path().join("record.json").display().to_string(),
        );
        env.insert(
            "FAKE_OPENCLAW_MARKER".into(),
            dir.path().join("marker").display().to_string(),
        );
        env.insert(
            "FAKE_OPENCLAW_PIDFILE".into(),
            dir.path().join("pids").display().to_string(),
        );
        env.insert("CLAWDECK_TEST_SECRET".into(), "must-not-leak".into());
        env.insert("OPENAI_API_KEY".into(), "sk-must-not-leak".into());
        let mut settings = RouterSettings {
            bin: fake_bin(),
            timeout_seconds: 20,
            min_timeout_seconds: 1,
            max_timeout_seconds: 60,
            kill_grace_ms: 300,
            drain_grace_ms: 300,
            ..RouterSettings::default()
        };
        settings.env_passthrough.extend(
            [
                "FAKE_OPENCLAW_RECORD",
                "FAKE_OPENCLAW_MARKER",
                "FAKE_OPENCLAW_PIDFILE",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        Fixture { dir, env, settings }
    }

    fn service(&self) -> RouterService {
        let env = self.env.clone();
        let lookup: EnvLookup = Arc::new(move |k: &str| env.get(k).cloned());
        RouterService::with_env(self.settings.clone(), lookup)
    }

    fn record_path(&self) -> PathBuf {
        self.dir.path().join("record.json")
    }

    fn record(&self) -> Value {
        let text = std::fs::read_to_string(self.record_path()).expect("the fake recorded its argv");
        serde_json::from_str(&text).unwrap()
    }

    fn marker(&self) -> PathBuf {
        self.dir.path().join("marker")
    }

    fn pids(&self) -> Vec<i32> {
        let text = std::fs::read_to_string(self.dir.path().join("pids")).unwrap_or_default();
        text.split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    }
}

/// A process that is still running (zombies count as gone: they run nothing).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|s| s.split_whitespace().next())
                .unwrap_or("X");
            state != "Z" && state != "X"
        }
        Err(_) => false,
    }
}

fn ops(message: &str) -> RouterRequest {
    RouterRequest::new(message).with_agent("ops")
}

async fn call_tool(tool: &ClawbotRouterTool, params: Value) -> clawdeck_core::tool::ToolResult {
    tool.execute(ToolCall::new("call-1", params))
        .await
        .expect("the router never fails a call")
}

#[tokio::test]
async fn argv_env_and_stdin_as_the_child_saw_them() {
    let mut f = Fixture::new();
    // The opt-in minimal environment (`router.clearEnv: true`).
    f.settings.clear_env = true;
    let tool = ClawbotRouterTool::new(f.service());
    let message = "-x --agent evil \"double\" 'single' `tick` $(touch /tmp/nope)\nsecond line\n日志 🚀 naïve\\n";
    let result = call_tool(&tool, json!({"agent": "ops", "message": message})).await;

    let rec = f.record();
    // No `mode` in the call: the message reaches OpenClaw verbatim (seed 000 §3.3).
    let remote = message.to_string();
    assert_eq!(
        rec["argv"],
        json!(["agent", "--agent", "ops", format!("--message={remote}")])
    );
    assert_eq!(rec["message"], json!(remote));
    assert_eq!(rec["stdin"], json!("devnull"));
    let env = rec["env"].as_object().unwrap();
    assert!(
        env.get("CLAWDECK_TEST_SECRET").is_none() && env.get("OPENAI_API_KEY").is_none(),
        "{env:?}"
    );
    let allowed = tool.service().settings().env_passthrough.clone();
    // Nothing of our own environment reaches the child unless listed. (The fixture runs through
    // `env python3`, which may be a shell shim adding PWD/SHLVL/_ and PYENV_* of its own.)
    let shim_added = |k: &str| {
        matches!(k, "PWD" | "OLDPWD" | "SHLVL" | "_" | "LC_CTYPE") || k.starts_with("PYENV")
    };
    for (key, _) in std::env::vars() {
        if env.contains_key(&key) && !shim_added(&key) {
            assert!(
                allowed.contains(&key),
                "{key} reached the child without being in envPassthrough"
            );
        }
    }
    assert!(env.contains_key("PATH"));

    let v = serde_json::to_value(&result).unwrap();
    assert_eq!(v["details"]["directTTS"], json!(false));
    assert_eq!(v["details"]["interruptMode"], json!(2));
    assert_eq!(v["details"]["status"], json!("completed"));
    assert_eq!(v["details"]["exitCode"], json!(0));
    assert_eq!(v["details"]["agent"], json!("ops"));
    let text = result.joined_text();
    assert!(
        text.contains("\u{1b}[36m[agent]\u{1b}[0m run started\n"),
        "ANSI kept verbatim: {text:?}"
    );
    assert!(text.contains(&format!("reply: {remote}\n")));
}

#[tokio::test]
async fn by_default_the_child_inherits_the_environment() {
    let defaults = RouterSettings::default();
    assert!(!defaults.clear_env, "inheriting is the default");
    assert!(
        !defaults
            .env_passthrough
            .iter()
            .any(|k| k.contains("REALCLAW")),
        "no test names in product defaults: {:?}",
        defaults.env_passthrough
    );
    let f = Fixture::new();
    let o = f.service().start(ops("env")).unwrap().wait().await;
    assert_eq!(o.status, RunStatus::Completed);
    let rec = f.record();
    let env = rec["env"].as_object().unwrap();
    // Cargo sets this for the test process; nothing lists it, so only inheritance brings it.
    let inherited = std::env::var("CARGO_PKG_NAME").expect("cargo sets CARGO_PKG_NAME");
    assert_eq!(
        env.get("CARGO_PKG_NAME"),
        Some(&json!(inherited)),
        "{env:?}"
    );
}

#[tokio::test]
async fn default_phone_goes_to_dash_dash_to() {
    let mut f = Fixture::new();
    f.settings.default_to = Some("+15555550123".into());
    let outcome = f
        .service()
        .start(RouterRequest::new("hi"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(outcome.status, RunStatus::Completed);
    assert_eq!(outcome.to.as_deref(), Some("+15555550123"));
    let argv = f.record()["argv"].clone();
    assert_eq!(argv[1], json!("--to"));
    assert_eq!(argv[2], json!("+15555550123"));
}

#[tokio::test]
async fn blank_message_and_missing_target_spawn_nothing() {
    let f = Fixture::new();
    let service = f.service();
    let tool = ClawbotRouterTool::new(service.clone());
    for params in [
        json!({"message": "   \n\t"}),
        json!({"message": ""}),
        json!({"agent": "ops"}),
    ] {
        let r = call_tool(&tool, params).await;
        assert_eq!(r.joined_text(), texts::EMPTY_MESSAGE);
        assert_eq!(r.details["directTTS"], json!(false));
        assert_eq!(r.details["interruptMode"], json!(2));
    }
    let r = call_tool(&tool, json!({"message": "no agent, no phone"})).await;
    assert_eq!(r.joined_text(), texts::NO_TARGET);
    assert!(!f.record_path().exists(), "nothing was spawned");
    assert!(service.runs().is_empty());
}

#[tokio::test]
async fn chunks_stream_live_and_interleave_in_arrival_order() {
    let f = Fixture::new();
    let service = f.service();
    let mut events = service.subscribe();
    let handle = service.start(ops("[[scenario:interleave:4]]")).unwrap();
    let run_id = handle.run_id;
    let mut seen = Vec::new();
    let mut first_chunk_at = None;
    let begun = Instant::now();
    let finished = loop {
        let ev = events.recv().await.unwrap();
        assert_eq!(ev.run_id, run_id);
        match ev.kind {
            RouterEventKind::Started {
                argv,
                agent,
                timeout_seconds,
                ..
            } => {
                assert_eq!(argv[0], fake_bin());
                assert_eq!(agent.as_deref(), Some("ops"));
                assert_eq!(timeout_seconds, 20);
            }
            RouterEventKind::Chunk { stream, bytes, .. } => {
                first_chunk_at.get_or_insert_with(|| begun.elapsed());
                seen.push((stream, String::from_utf8(bytes).unwrap()));
            }
            RouterEventKind::Finished { outcome } => break outcome,
            _ => {}
        }
    };
    let expected: Vec<(StdStream, String)> = (0..4)
        .flat_map(|i| {
            [
                (StdStream::Stdout, format!("out {i}\n")),
                (StdStream::Stderr, format!("err {i}\n")),
            ]
        })
        .collect();
    assert_eq!(seen, expected);
    assert_eq!(
        finished.raw,
        "out 0\nerr 0\nout 1\nerr 1\nout 2\nerr 2\nout 3\nerr 3\n"
    );
    assert_eq!(finished.content, finished.raw);
    // The first chunk arrived while the child was still writing (8 × 30 ms).
    assert!(
        first_chunk_at.unwrap() + Duration::from_millis(150) < finished.duration,
        "{first_chunk_at:?} vs {:?}",
        finished.duration
    );
    let outcome = handle.wait().await;
    assert_eq!(outcome.run_id, run_id);
    let runs = service.runs();
    assert_eq!(runs.len(), 1);
    assert!(runs[0].outcome.is_some());
}

#[tokio::test]
async fn timeout_kills_a_sigterm_ignoring_child_and_appends_the_note() {
    let mut f = Fixture::new();
    f.settings.min_timeout_seconds = 2;
    let tool = ClawbotRouterTool::new(f.service());
    let begun = Instant::now();
    // timeoutSeconds below the minimum is raised to it (2 s here: room for python's start-up on
    // a loaded machine, so that SIGTERM arrives after the child ignores it).
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "[[scenario:ignore-term]]", "timeoutSeconds": 0}),
    )
    .await;
    let took = begun.elapsed();
    assert_eq!(
        r.joined_text(),
        format!("ignoring SIGTERM\n{}", texts::timed_out(2))
    );
    assert_eq!(r.details["status"], json!("timeout"));
    assert_eq!(r.details["timeoutSeconds"], json!(2));
    assert!(
        took < Duration::from_millis(3500),
        "timeout 2 s + grace 0.3 s took {took:?}"
    );
    let pid = f.record()["pid"].as_i64().unwrap() as i32;
    assert!(!alive(pid), "the SIGTERM-ignoring child {pid} survived");
}

#[tokio::test]
async fn timeout_kills_grandchildren_too() {
    let f = Fixture::new();
    let outcome = f
        .service()
        .start(RouterRequest {
            timeout_seconds: Some(3),
            ..ops("[[scenario:grandchild]]")
        })
        .unwrap()
        .wait()
        .await;
    assert_eq!(outcome.status, RunStatus::TimedOut);
    assert!(outcome.content.ends_with(&texts::timed_out(3)));
    let pids = f.pids();
    assert_eq!(pids.len(), 2, "pidfile: {pids:?}");
    for pid in pids {
        assert!(
            !alive(pid),
            "process {pid} of the tree survived the timeout"
        );
    }
}

#[tokio::test]
async fn grandchild_holding_the_pipe_after_the_cli_exits_is_killed_after_the_drain_grace() {
    let f = Fixture::new();
    let begun = Instant::now();
    let outcome = f
        .service()
        .start(ops("[[scenario:grandchild-exit]]"))
        .unwrap()
        .wait()
        .await;
    assert!(
        begun.elapsed() < Duration::from_secs(5),
        "took {:?}",
        begun.elapsed()
    );
    assert_eq!(outcome.status, RunStatus::Completed);
    assert_eq!(outcome.exit_code, Some(0));
    assert!(outcome.raw.starts_with("grandchild "));
    // SIGKILL is delivered asynchronously: give a loaded machine a moment to carry it out.
    for pid in f.pids() {
        let deadline = Instant::now() + Duration::from_secs(2);
        while alive(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(pid), "process {pid} survived the drain grace");
    }
}

#[tokio::test]
async fn non_zero_exit_keeps_the_remote_error_verbatim() {
    let f = Fixture::new();
    let tool = ClawbotRouterTool::new(f.service());
    let r = call_tool(
        &tool,
        json!({"agent": "x", "message": "[[scenario:exit:3]]"}),
    )
    .await;
    assert_eq!(
        r.joined_text(),
        "Unknown agent id \"x\". Use \"openclaw agents list\" to see configured agents.\n"
    );
    assert_eq!(r.details["exitCode"], json!(3));
    assert_eq!(r.details["status"], json!("error"));
}

#[tokio::test]
async fn death_by_signal_is_reported() {
    let f = Fixture::new();
    let o = f
        .service()
        .start(ops("[[scenario:signal]]"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::Failed);
    assert_eq!(o.signal.as_deref(), Some("SIGKILL"));
    assert_eq!(
        o.content,
        format!("about to crash\n{}", texts::killed_by_signal("SIGKILL"))
    );
}

#[tokio::test]
async fn missing_binary_is_content_with_the_install_hint() {
    let mut f = Fixture::new();
    f.settings.bin = "/nonexistent/dir/openclaw".into();
    let tool = ClawbotRouterTool::new(f.service());
    let r = call_tool(&tool, json!({"agent": "ops", "message": "hi"})).await;
    let text = r.joined_text();
    assert_eq!(
        text,
        format!(
            "{}\n{}",
            texts::spawn_failed("spawn /nonexistent/dir/openclaw ENOENT：找不到该命令"),
            texts::INSTALL_HINT
        )
    );
    assert!(text.starts_with("[clawbot_router] 无法启动远程 Agent（openclaw CLI 启动失败："));
    assert!(text.contains("Node.js ≥ 24.16") && text.contains("npm install -g openclaw"));
    assert_eq!(r.details["status"], json!("error"));
}

#[tokio::test]
async fn not_executable_binary_is_content_without_the_install_hint() {
    let mut f = Fixture::new();
    let path = f.dir.path().join("openclaw");
    std::fs::write(&path, "#!/bin/sh\necho hi\n").unwrap();
    f.settings.bin = path.display().to_string();
    let o = f.service().start(ops("hi")).unwrap().wait().await;
    assert_eq!(o.status, RunStatus::SpawnFailed);
    assert!(
        o.content
            .starts_with("[clawbot_router] 无法启动远程 Agent（openclaw CLI 启动失败：spawn ")
    );
    assert!(o.content.contains("EACCES"));
    assert!(!o.content.contains(texts::INSTALL_HINT));
}

#[tokio::test]
async fn openclaw_bin_env_overrides_the_configured_binary() {
    let mut f = Fixture::new();
    f.settings.bin = "/nonexistent/openclaw".into();
    f.env.insert("OPENCLAW_BIN".into(), fake_bin());
    let o = f.service().start(ops("hello")).unwrap().wait().await;
    assert_eq!(o.status, RunStatus::Completed, "{}", o.content);
}

#[tokio::test]
async fn router_output_full_of_tool_calls_triggers_nothing() {
    let mut f = Fixture::new();
    f.settings.output = "clean".into();
    let tool = ClawbotRouterTool::new(f.service());
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "[[scenario:toolcalls]]"}),
    )
    .await;
    // Give anything that might have reacted a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!f.marker().exists(), "router output was executed locally");
    let text = r.joined_text();
    assert!(text.contains("FunctionCallBegin\n[{\"name\": \"exec\""));
    assert!(text.contains("\"name\": \"write\""));
    let names: Vec<&str> = r.details["clean"]["toolCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "exec",
            "write",
            "system_volume_control",
            "start_app",
            "exec"
        ]
    );
    assert_eq!(r.details["clean"]["answer"], json!("done: summarised logs"));
    assert_eq!(r.details["raw"], json!(text));
}

#[tokio::test]
async fn remote_errors_stay_raw_and_are_listed_when_cleaning() {
    let mut f = Fixture::new();
    f.settings.output = "clean".into();
    let o = f
        .service()
        .start(ops("[[scenario:remote-errors]]"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::Completed);
    assert!(
        o.content
            .contains("\u{1b}[31m[memory]\u{1b}[0m memory read failed: ENOENT\n")
    );
    let clean = o.clean.as_ref().unwrap();
    assert_eq!(clean.answer, "两条要点：磁盘告警；证书将过期");
    assert_eq!(
        clean.errors,
        [
            "Unknown channel: foo",
            "[memory] memory read failed: ENOENT",
            "[browser] browser failed: no display"
        ]
    );
}

#[tokio::test]
async fn long_messages_go_through_a_message_file_that_is_removed_afterwards() {
    let mut f = Fixture::new();
    f.settings.message_file_threshold = 200;
    let message = format!("-starts with a dash\n{}", "长".repeat(100));
    let o = f.service().start(ops(&message)).unwrap().wait().await;
    assert_eq!(o.status, RunStatus::Completed);
    let rec = f.record();
    let argv = rec["argv"].as_array().unwrap();
    assert_eq!(argv[3], json!("--message-file"));
    let path = PathBuf::from(argv[4].as_str().unwrap());
    assert_eq!(rec["message"], json!(message), "no mode given: verbatim");
    assert_eq!(
        rec["messageFileMode"],
        json!(0o600),
        "only its owner can read the message file"
    );
    assert!(!path.exists(), "message file {path:?} left behind");
}

#[tokio::test]
async fn write_mode_reaches_the_remote_agent() {
    let f = Fixture::new();
    let tool = ClawbotRouterTool::new(f.service());
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "send the alert", "mode": "write"}),
    )
    .await;
    assert_eq!(r.details["mode"], json!("write"));
    let msg = f.record()["message"].as_str().unwrap().to_string();
    assert!(msg.starts_with("[clawbot_router mode=write]"));
    assert!(msg.ends_with("\n\nsend the alert"));
    // Without `mode` the message reaches OpenClaw exactly as the caller wrote it (seed 000 §3.3).
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "只看日志，不要改"}),
    )
    .await;
    assert_eq!(r.details["mode"], json!("read-only"));
    assert_eq!(f.record()["message"], json!("只看日志，不要改"));
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "只看", "mode": "read-only"}),
    )
    .await;
    assert_eq!(r.details["mode"], json!("read-only"));
    let msg = f.record()["message"].as_str().unwrap().to_string();
    assert!(msg.starts_with("[clawbot_router mode=read-only]"), "{msg}");
    let r = call_tool(
        &tool,
        json!({"agent": "ops", "message": "x", "mode": "delete-everything"}),
    )
    .await;
    assert!(r.joined_text().contains("mode 只能是"));
}

#[tokio::test]
async fn operator_kill_and_deadline_controls() {
    let f = Fixture::new();
    let service = f.service();
    let handle = service
        .start(RouterRequest {
            timeout_seconds: Some(1),
            ..ops("[[scenario:sleep]]")
        })
        .unwrap();
    handle.extend_timeout(Duration::from_secs(1));
    let begun = Instant::now();
    let o = handle.wait().await;
    assert_eq!(o.status, RunStatus::TimedOut);
    assert_eq!(o.timeout_seconds, 2);
    assert!(o.content.ends_with(&texts::timed_out(2)));
    assert!(begun.elapsed() >= Duration::from_millis(1500));

    let mut events = service.subscribe();
    let handle = service.start(ops("[[scenario:sleep]]")).unwrap();
    // Kill once the child is really running (its first line arrived).
    while !matches!(
        events.recv().await.unwrap().kind,
        RouterEventKind::Chunk { .. }
    ) {}
    assert!(service.kill(handle.run_id));
    let o = handle.wait().await;
    assert_eq!(o.status, RunStatus::Killed);
    assert_eq!(o.content, format!("working\n{}", texts::KILLED));
    assert!(!service.kill(o.run_id), "a finished run cannot be killed");
}

#[tokio::test]
async fn a_cancelled_call_kills_the_tree_and_reports_cancelled() {
    let f = Fixture::new();
    let tool = ClawbotRouterTool::new(f.service());
    let call = ToolCall::new(
        "c",
        json!({"agent": "ops", "message": "[[scenario:ignore-term]]"}),
    );
    let cancel = call.cancel.clone();
    let record = f.record_path();
    tokio::spawn(async move {
        // Cancel once the child is really running (it wrote its record).
        while !record.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let begun = Instant::now();
    assert_eq!(tool.execute(call).await.unwrap_err(), ToolError::Cancelled);
    assert!(begun.elapsed() < Duration::from_secs(3));
    let pid = f.record()["pid"].as_i64().unwrap() as i32;
    assert!(!alive(pid));
    let runs = tool.service().runs();
    assert_eq!(runs[0].outcome.as_ref().unwrap().status, RunStatus::Killed);
}

#[tokio::test]
async fn history_is_bounded() {
    let mut f = Fixture::new();
    f.settings.history_limit = 2;
    let service = f.service();
    for i in 0..3 {
        service
            .start(ops(&format!("run {i}")))
            .unwrap()
            .wait()
            .await;
    }
    let runs = service.runs();
    assert_eq!(
        runs.iter().map(|r| r.message.as_str()).collect::<Vec<_>>(),
        ["run 1", "run 2"]
    );
}

#[tokio::test]
async fn partial_last_line_and_cli_json_output() {
    let mut f = Fixture::new();
    f.settings.output = "clean".into();
    let service = f.service();
    let o = service
        .start(ops("[[scenario:partial]]"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.content, "no newline");
    let o = service
        .start(ops("[[scenario:json]]"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.clean.as_ref().unwrap().answer, "json answer");
}

/// A config dir whose `clawdeck.json5` lets the fake's pidfile variable through.
fn route_config(dir: &std::path::Path) -> PathBuf {
    std::fs::write(dir.join("openclaw.json"), "{}").unwrap();
    std::fs::write(
        dir.join("clawdeck.json5"),
        r#"{ router: { defaultAgent: "ops", envPassthrough: ["PATH", "HOME", "FAKE_OPENCLAW_PIDFILE"], killGraceMs: 300, drainGraceMs: 300 } }"#,
    )
    .unwrap();
    dir.join("openclaw.json")
}

#[test]
fn route_streams_stdout_and_stderr_to_their_own_streams() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let out = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "-x [[scenario:interleave:2]]"])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "out 0\nout 1\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "err 0\nerr 1\n");

    let out = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "[[scenario:exit:4]]", "--json"])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["content"][0]["type"], json!("text"));
    assert!(
        v["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Unknown agent id")
    );
    assert_eq!(v["details"]["directTTS"], json!(false));
    assert_eq!(v["details"]["interruptMode"], json!(2));
    assert_eq!(v["details"]["exitCode"], json!(4));
}

#[test]
fn route_honours_the_operators_timeout_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let started = std::time::Instant::now();
    let out = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args([
            "route",
            "--message",
            "[[scenario:sleep:20]]",
            "--timeout",
            "2",
            "--json",
        ])
        .env("OPENCLAW_BIN", fake_bin())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["details"]["timeoutSeconds"], json!(2), "{v}");
    assert_eq!(v["details"]["status"], json!("timeout"), "{v}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "the 2 s timeout held"
    );
    assert!(
        stderr.contains(
            "--timeout 2 is outside router.minTimeoutSeconds..maxTimeoutSeconds (30..60 s"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("honoured"), "{stderr}");
}

#[test]
fn route_ctrl_c_kills_the_whole_tree() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let pidfile = dir.path().join("pids");
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "[[scenario:grandchild]]"])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env("FAKE_OPENCLAW_PIDFILE", &pidfile)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    while !pidfile.exists() && begun.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
        .unwrap()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    // The stop policy: 128 + SIGINT's number, after the run's transcript.
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("grandchild "), "{stdout}");
    assert!(
        stdout.ends_with(&format!("{}\n", texts::KILLED)),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("Ctrl-C"));
    for pid in pids {
        assert!(!alive(pid), "process {pid} survived Ctrl-C");
    }
}

/// The closing texts: stdout (the tool's content) and the `--json` tool result keep the seed's
/// text byte for byte; the operator reads English on stderr beside it.
#[test]
fn route_tells_the_operator_in_english_beside_the_seed_text() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let route = |args: &[&str], bin: &str| {
        clawdeck_command()
            .arg("--config")
            .arg(&config)
            .arg("route")
            .args(args)
            .env("OPENCLAW_BIN", bin)
            .env("CLAWDECK_OPENCLAW_VERSION", "seed")
            .output()
            .unwrap()
    };
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();

    // Not found: the seed's spawn failure and install hint; English on stderr.
    let missing = dir.path().join("no-such-openclaw").display().to_string();
    let out = route(&["--message", "hello", "--json"], &missing);
    assert_eq!(out.status.code(), Some(1));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = result["content"][0]["text"].as_str().unwrap();
    assert!(content.ends_with(texts::INSTALL_HINT), "{content}");
    assert!(
        content.starts_with("[clawbot_router] 无法启动远程 Agent"),
        "{content}"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("clawdeck route: the remote agent could not be started")
            && stderr.contains("the openclaw command was not found. Install Node.js ≥ 24.16"),
        "{stderr}"
    );
    assert!(!stderr.contains("无法"), "{stderr}");

    // Timed out: the seed's text closes stdout, English on stderr.
    let out = route(
        &["--message", "[[scenario:sleep]]", "--timeout", "1"],
        &fake_bin(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).ends_with(&format!("{}\n", texts::timed_out(1))),
        "{}",
        text(&out.stdout)
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "clawdeck route: the remote clawBot did not finish within 1 s; the run was stopped"
        ),
        "{stderr}"
    );

    // Refused before any run: the seed's text on stdout, English on stderr.
    let out = route(&["--message", "   "], &fake_bin());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), format!("{}\n", texts::EMPTY_MESSAGE));
    assert!(
        text(&out.stderr).contains("clawdeck route: no task given (the message is empty)"),
        "{}",
        text(&out.stderr)
    );
}

/// Killed by the operator: the tool's content ends with the seed's text; the console's note and
/// `route`'s stderr say it in English.
#[test]
fn route_says_a_kill_in_english_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let pidfile = dir.path().join("pids");
    let child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "[[scenario:grandchild]]"])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env("FAKE_OPENCLAW_PIDFILE", &pidfile)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    while !pidfile.exists() && begun.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.ends_with(&format!("{}\n", texts::KILLED)),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "clawdeck route: the remote run was stopped by hand; its result is incomplete"
        ),
        "{stderr}"
    );
}

/// A reply that streams without a final newline still ends the transcript with one.
#[test]
fn route_ends_its_output_with_a_newline() {
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let out = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "[[scenario:partial]]"])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "no newline\n");
}

#[tokio::test]
async fn progress_sink_gets_the_output_tail_while_running() {
    let f = Fixture::new();
    let tool = ClawbotRouterTool::new(f.service());
    let updates: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let seen = updates.clone();
    let mut call = ToolCall::new(
        "c",
        json!({"agent": "ops", "message": "[[scenario:interleave:10]]"}),
    );
    call.progress = Arc::new(move |r: clawdeck_core::tool::ToolResult| {
        assert_eq!(r.details["status"], json!("running"));
        seen.lock().unwrap().push(r.joined_text());
    });
    let r = tool.execute(call).await.unwrap();
    let updates = updates.lock().unwrap().clone();
    assert!(
        !updates.is_empty() && updates.len() < 20,
        "throttled updates: {updates:?}"
    );
    assert!(updates[0].starts_with("out 0\n"));
    assert!(
        r.joined_text()
            .starts_with(updates.last().unwrap().as_str())
    );
}

#[test]
fn tool_call_json_in_router_output_runs_nothing_through_the_full_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openclaw.json"), "{}").unwrap();
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        r#"{ router: { defaultAgent: "ops", envPassthrough: ["PATH", "HOME", "FAKE_OPENCLAW_MARKER"] } }"#,
    )
    .unwrap();
    let marker = dir.path().join("marker");
    let out = clawdeck_command()
        .arg("--config")
        .arg(dir.path().join("openclaw.json"))
        .args([
            "invoke",
            "clawbot_router",
            "--params",
            r#"{"message": "[[scenario:toolcalls]]"}"#,
            "--json",
        ])
        .env("OPENCLAW_BIN", fake_bin())
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env("FAKE_OPENCLAW_MARKER", &marker)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("\"command\": \"touch {}\"", marker.display())),
        "{text}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!marker.exists(), "router output was executed locally");
}

/// A stand-in `openclaw` that draws a `\r` progress line without a newline, sleeps, then ends
/// the line.
fn progress_bin(dir: &std::path::Path, sleep_seconds: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("progress-openclaw");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nprintf 'progress 10%%\\rprogress 50%%'\nsleep {sleep_seconds}\necho ' done'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[tokio::test]
async fn a_progress_line_without_newline_arrives_as_a_chunk_while_the_child_sleeps() {
    let mut f = Fixture::new();
    f.settings.bin = progress_bin(f.dir.path(), 2).display().to_string();
    let service = f.service();
    let mut events = service.subscribe();
    let begun = Instant::now();
    let handle = service.start(ops("show progress")).unwrap();
    let mut live = String::new();
    while !live.contains("progress 50%") {
        let ev = tokio::time::timeout(Duration::from_secs(5), events.recv())
            .await
            .expect("the progress line arrives before its newline")
            .unwrap();
        if let RouterEventKind::Chunk { stream, bytes, .. } = ev.kind {
            assert_eq!(stream, StdStream::Stdout);
            live.push_str(&String::from_utf8(bytes).unwrap());
        }
    }
    // The child sleeps 2 s before its newline; the partial line was there long before.
    assert!(
        begun.elapsed() < Duration::from_millis(1500),
        "{:?}",
        begun.elapsed()
    );
    assert_eq!(live, "progress 10%\rprogress 50%");
    assert_eq!(
        service.live_output(handle.run_id).as_deref(),
        Some("progress 10%\rprogress 50%")
    );
    let mut rest = String::new();
    let finished = loop {
        match events.recv().await.unwrap().kind {
            RouterEventKind::Chunk { bytes, .. } => {
                rest.push_str(&String::from_utf8(bytes).unwrap())
            }
            RouterEventKind::Finished { outcome } => break outcome,
            _ => {}
        }
    };
    assert_eq!(rest, " done\n");
    // The raw content is the bytes as received: no newline added, nothing twice.
    assert_eq!(finished.raw, "progress 10%\rprogress 50% done\n");
    assert_eq!(finished.status, RunStatus::Completed);
}

#[test]
fn route_writes_a_partial_line_as_it_arrives_without_adding_a_newline() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let config = route_config(dir.path());
    let mut child = clawdeck_command()
        .arg("--config")
        .arg(&config)
        .args(["route", "--message", "show progress"])
        .env("OPENCLAW_BIN", progress_bin(dir.path(), 2))
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let begun = Instant::now();
    let mut received = Vec::new();
    let mut partial_seen_at = None;
    let mut buf = [0u8; 256];
    loop {
        let read = stdout.read(&mut buf).unwrap();
        if read == 0 {
            break;
        }
        received.extend_from_slice(&buf[..read]);
        if partial_seen_at.is_none() && received.ends_with(b"progress 50%") {
            partial_seen_at = Some(begun.elapsed());
        }
    }
    assert!(child.wait().unwrap().success());
    let partial_seen_at = partial_seen_at.expect("the partial line was written on its own");
    assert!(
        partial_seen_at + Duration::from_millis(1000) < begun.elapsed(),
        "seen at {partial_seen_at:?}, ended at {:?}",
        begun.elapsed()
    );
    assert_eq!(
        String::from_utf8(received).unwrap(),
        "progress 10%\rprogress 50% done\n"
    );
}

#[tokio::test]
async fn progress_sink_gets_a_partial_line_while_the_child_sleeps() {
    use std::os::unix::fs::PermissionsExt;
    let mut f = Fixture::new();
    // A line, then (within the progress interval) a prompt without newline, then quiet for 2 s.
    let bin = f.dir.path().join("prompt-openclaw");
    std::fs::write(
        &bin,
        "#!/bin/sh\necho start\nsleep 0.1\nprintf 'Password: '\nsleep 2\necho\n",
    )
    .unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    f.settings.bin = bin.display().to_string();
    let tool = ClawbotRouterTool::new(f.service());
    let updates: Arc<std::sync::Mutex<Vec<(Duration, String)>>> = Arc::default();
    let seen = updates.clone();
    let begun = Instant::now();
    let mut call = ToolCall::new("c", json!({"agent": "ops", "message": "log in"}));
    call.progress = Arc::new(move |r: clawdeck_core::tool::ToolResult| {
        seen.lock()
            .unwrap()
            .push((begun.elapsed(), r.joined_text()));
    });
    let r = tool.execute(call).await.unwrap();
    assert_eq!(r.joined_text(), "start\nPassword: \n");
    let updates = updates.lock().unwrap().clone();
    let prompt = updates
        .iter()
        .find(|(_, text)| text == "start\nPassword: ")
        .unwrap_or_else(|| panic!("no update with the prompt: {updates:?}"));
    assert!(prompt.0 < Duration::from_millis(1500), "{updates:?}");
}

/// The binary, with its decision log in a scratch state dir rather than the user's
/// `~/.local/state`.
fn clawdeck_command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    command.env(
        "XDG_STATE_HOME",
        std::env::temp_dir().join(format!("clawdeck-test-state-{}", std::process::id())),
    );
    command
}
