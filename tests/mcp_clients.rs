//! `clawdeck mcp` against MCP clients nobody here wrote: the official Python SDK (PyPI `mcp`)
//! and the MCP Inspector CLI (npm `@modelcontextprotocol/inspector`), over stdio and over
//! streamable HTTP. Each test is ignored unless those clients are installed (`.ci/run` installs
//! them into ~/.cache/clawdeck-mcp and runs these tests with `--ignored`).
//!
//! What is checked: the handshake; the tool list is the policy's (a denied tool is absent, the
//! schemas are objects); read, exec and clawbot_router (the fake `openclaw`) run through the
//! pipeline; a hidden tool and a schema-invalid call come back as tool errors naming why; a
//! cancelled long exec leaves no process behind; a config edit makes the server say the list
//! changed, and the next list follows the edit; `mcp.clients` entries matched by the name a
//! client announces and by its HTTP token give it a narrower context and a lane, and what a
//! client asks for in a call never widens its context.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const IGNORE_REASON: &str = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)";

fn tools_home() -> PathBuf {
    match std::env::var_os("CLAWDECK_MCP_CLIENTS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/clawdeck-mcp"),
    }
}

fn python() -> PathBuf {
    let python = tools_home().join("venv/bin/python");
    assert!(
        python.exists(),
        "{IGNORE_REASON}: {} missing",
        python.display()
    );
    python
}

fn inspector() -> PathBuf {
    let cli = tools_home().join("inspector/node_modules/.bin/mcp-inspector");
    assert!(cli.exists(), "{IGNORE_REASON}: {} missing", cli.display());
    cli
}

fn clawdeck_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_clawdeck"))
}

fn fake_openclaw() -> String {
    format!(
        "{}/tests/fixtures/fake-openclaw",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A config directory of its own (the test edits it): coding profile, `web_fetch` denied, the
/// router on the fake CLI, a workspace holding `notes.txt`.
struct Fixture {
    dir: tempfile::TempDir,
}

const CONFIG: &str = r#"{
  tools: { profile: "coding", alsoAllow: ["clawbot_router"], deny: ["web_fetch"] },
  agents: { list: [{ id: "main", default: true }] },
}"#;

const CONFIG_EDITED: &str = r#"{
  tools: { profile: "coding", alsoAllow: ["clawbot_router"], deny: ["web_fetch", "exec"] },
  agents: { list: [{ id: "main", default: true }] },
}"#;

/// Agents for the client-identity test: `restricted` may not exec, `ci` may not read.
const CONFIG_AGENTS: &str = r#"{
  tools: { profile: "coding", alsoAllow: ["clawbot_router"], deny: ["web_fetch"] },
  agents: { list: [
    { id: "main", default: true },
    { id: "restricted", tools: { deny: ["exec"] } },
    { id: "ci", tools: { deny: ["read"] } },
  ] },
}"#;

impl Fixture {
    fn new() -> Fixture {
        Fixture::with(CONFIG, Value::Null)
    }

    /// `config` as openclaw.json5; `mcp` (unless null) as clawdeck.json5's `mcp` section.
    fn with(config: &str, mcp: Value) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        std::fs::write(dir.path().join("ws/notes.txt"), "mcp notes line\n").unwrap();
        std::fs::write(dir.path().join("openclaw.json5"), config).unwrap();
        let mut settings = json!({
            "workspace": "ws",
            "openclawVersion": "2026.9",
            "router": {"bin": fake_openclaw(), "defaultAgent": "main", "timeoutSeconds": 20, "minTimeoutSeconds": 1},
        });
        if !mcp.is_null() {
            settings["mcp"] = mcp;
        }
        std::fs::write(dir.path().join("clawdeck.json5"), settings.to_string()).unwrap();
        Fixture { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("openclaw.json5")
    }

    fn pidfile(&self) -> PathBuf {
        self.dir.path().join("long.pid")
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    fn plan(&self, transport: Value) -> Value {
        let mut plan = json!({
            "read_path": "notes.txt",
            "hidden_tool": "web_fetch",
            "pidfile": self.pidfile(),
            "edit": {"path": self.config(), "text": CONFIG_EDITED},
        });
        for (k, v) in transport.as_object().unwrap() {
            plan[k] = v.clone();
        }
        plan
    }

    /// The environment the server runs with: its own state dir, no real OpenClaw.
    fn server_env(&self) -> Vec<(String, String)> {
        vec![
            ("XDG_STATE_HOME".into(), self.state().display().to_string()),
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("HOME".into(), std::env::var("HOME").unwrap_or_default()),
        ]
    }
}

fn run_python(plan: &Value) -> Value {
    let out = Command::new(python())
        .arg(format!(
            "{}/tests/mcp/python_client.py",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg(plan.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python client failed ({}):\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("client report is not JSON ({e}): {stdout}"))
}

/// The decision log the server wrote, through `clawdeck log --json`.
fn decisions(state: &std::path::Path) -> Vec<Value> {
    let out = Command::new(clawdeck_bin())
        .args(["log", "--json", "--limit", "1000"])
        .env("XDG_STATE_HOME", state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// One line per call, each naming the client; the refusal carries the rule that decided.
fn assert_decisions(state: &std::path::Path) {
    let records = decisions(state);
    let find = |tool: &str, decision: &str| {
        records
            .iter()
            .find(|r| r["tool"]["canonical"] == tool && r["decision"] == decision)
            .cloned()
            .unwrap_or_else(|| panic!("no {decision} record for {tool}: {records:?}"))
    };
    let read = find("read", "shown");
    assert_eq!(read["outcome"], "ok", "{read}");
    assert!(
        read["client"].as_str().is_some_and(|c| !c.is_empty()),
        "{read}"
    );
    assert!(
        read.get("arguments").is_none(),
        "arguments are only hashed: {read}"
    );
    let refused = find("web_fetch", "refused");
    assert!(
        refused["rule"].to_string().contains("tools.deny"),
        "{refused}"
    );
    find("read", "invalid_params");
}

fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn process_alive(pid: i32) -> bool {
    // Signal 0 checks existence; a zombie still counts as gone for our purposes once reaped.
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    !status.is_empty() && !status.contains("State:\tZ")
}

fn wait_gone(pid: i32, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if !process_alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    !process_alive(pid)
}

/// Everything both transports must show.
fn assert_report(report: &Value) {
    assert_eq!(
        report["initialize"]["serverInfo"]["name"], "clawdeck",
        "{report}"
    );
    let tools = report["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for wanted in ["read", "write", "exec", "clawbot_router"] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    assert!(
        !names.contains(&"web_fetch"),
        "denied tool listed: {names:?}"
    );
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }

    assert_ne!(report["read"]["isError"], true, "{}", report["read"]);
    assert!(text_of(&report["read"]).contains("mcp notes line"));

    assert_ne!(report["exec"]["isError"], true, "{}", report["exec"]);
    let progress = report["exec_progress"].to_string();
    assert!(
        progress.contains("tick-"),
        "exec's output tail arrives as progress: {progress}"
    );
    assert!(
        text_of(&report["exec"]).contains("via-mcp-42"),
        "{}",
        report["exec"]
    );

    assert_ne!(report["router"]["isError"], true, "{}", report["router"]);
    assert!(
        text_of(&report["router"]).contains("hello from mcp"),
        "the fake openclaw echoes the message: {}",
        report["router"]
    );

    assert_eq!(report["hidden"]["isError"], true, "{}", report["hidden"]);
    let hidden = text_of(&report["hidden"]);
    assert!(hidden.contains("web_fetch is not available"), "{hidden}");
    assert!(
        hidden.contains("tools.deny"),
        "the rule that decided: {hidden}"
    );

    assert_eq!(report["invalid"]["isError"], true, "{}", report["invalid"]);
    let invalid = text_of(&report["invalid"]);
    assert!(invalid.contains("Invalid parameters for read"), "{invalid}");

    let pid = report["cancelled_pid"].as_i64().unwrap() as i32;
    assert!(
        wait_gone(pid, Duration::from_secs(10)),
        "the cancelled exec's child {pid} is still running"
    );

    assert!(report["list_changed"].is_string(), "{report}");
    let after: Vec<&str> = report["tools_after_edit"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        !after.contains(&"exec"),
        "exec denied by the edit: {after:?}"
    );
    assert!(after.contains(&"read"));
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn python_sdk_over_stdio() {
    let fixture = Fixture::new();
    let env: serde_json::Map<String, Value> = fixture
        .server_env()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let plan = fixture.plan(json!({
        "transport": "stdio",
        "command": clawdeck_bin(),
        "args": ["--config", fixture.config(), "mcp"],
        "env": env,
    }));
    let report = run_python(&plan);
    assert_report(&report);
    assert_decisions(&fixture.state());
}

/// `clawdeck mcp --listen 127.0.0.1:0`, its address read from what it prints.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    fn start(fixture: &Fixture, token: &str) -> HttpServer {
        let mut cmd = Command::new(clawdeck_bin());
        cmd.args(["--config"])
            .arg(fixture.config())
            .args(["mcp", "--listen", "127.0.0.1:0", "--token", token])
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in fixture.server_env() {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut url = String::new();
        let mut line = String::new();
        while url.is_empty() && stderr.read_line(&mut line).unwrap() > 0 {
            if let Some(rest) = line.trim().strip_prefix("clawdeck mcp: serving ") {
                url = rest.to_string();
            }
            line.clear();
        }
        assert!(!url.is_empty(), "the server never said where it listens");
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stderr.read_to_end(&mut sink);
        });
        HttpServer { child, url }
    }

    fn authority(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_string()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.child.id() as i32),
            nix::sys::signal::Signal::SIGTERM,
        );
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn python_sdk_over_http() {
    let fixture = Fixture::new();
    let server = HttpServer::start(&fixture, "test-token-1");
    let plan = fixture.plan(json!({
        "transport": "http",
        "url": server.url,
        "token": "test-token-1",
    }));
    let report = run_python(&plan);
    assert_report(&report);
    assert_decisions(&fixture.state());
}

/// A raw POST with or without a token: the listener answers 401 before any MCP handling.
fn post_status(authority: &str, token: Option<&str>) -> u16 {
    let mut stream = TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn http_without_the_token_is_refused() {
    let fixture = Fixture::new();
    let server = HttpServer::start(&fixture, "right-token");
    assert_eq!(post_status(&server.authority(), None), 401);
    assert_eq!(post_status(&server.authority(), Some("wrong-token")), 401);
    assert_ne!(post_status(&server.authority(), Some("right-token")), 401);
}

/// The stdio plan for the `calls` scenario: `clawdeck --config C mcp <server_args>`, the
/// client announcing `client_name`.
fn stdio_calls_plan(fixture: &Fixture, server_args: &[&str], client_name: &str) -> Value {
    let env: serde_json::Map<String, Value> = fixture
        .server_env()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let mut args = vec![
        "--config".to_string(),
        fixture.config().display().to_string(),
        "mcp".to_string(),
    ];
    args.extend(server_args.iter().map(|a| a.to_string()));
    json!({
        "transport": "stdio",
        "command": clawdeck_bin(),
        "args": args,
        "env": env,
        "client_name": client_name,
        "scenario": "calls",
        "calls": widening_calls(),
    })
}

/// A read and an exec, each asking in `_meta` (`clawdeck/context`, `agent`) for the default agent
/// as its owner: what a client asks for never changes its context.
fn widening_calls() -> Value {
    let ask = json!({"clawdeck/context": {"agent": "main", "owner": true}, "agent": "main"});
    json!([
        {"key": "read", "tool": "read", "arguments": {"path": "notes.txt"}, "meta": ask},
        {"key": "exec", "tool": "exec", "arguments": {"command": "echo ran-$((6*7))"}, "meta": ask},
    ])
}

/// `tool` is absent from the list, and calling it is refused naming the rule at `rule`.
fn assert_hidden_and_refused(report: &Value, tool: &str, rule: &str) {
    let names: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(!names.contains(&tool), "{tool} listed: {names:?}");
    let call = &report["calls"][tool];
    assert_eq!(call["isError"], true, "{call}");
    let text = text_of(call);
    assert!(
        text.contains(&format!("{tool} is not available in this context")),
        "{text}"
    );
    assert!(
        text.contains(rule),
        "the rule that decided ({rule}): {text}"
    );
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn python_sdk_clients_get_the_context_and_lane_the_server_decides() {
    let fixture = Fixture::with(
        CONFIG_AGENTS,
        json!({"clients": [
            {"name": "restricted-bot", "context": {"agent": "restricted", "owner": false}, "lane": "bots"},
            {"name": "ci-bot", "token": "ci-token", "context": {"agent": "ci"}, "lane": "ci"},
        ]}),
    );
    let exec_rule = "agents.list[1].tools.deny";

    // Flags decide for a client no entry matches (`--lane` too); asking for more in `_meta`
    // changes nothing.
    let plan = stdio_calls_plan(
        &fixture,
        &["--agent", "restricted", "--lane", "flag-lane"],
        "some-client",
    );
    let flags = run_python(&plan);
    assert_hidden_and_refused(&flags, "exec", exec_rule);
    assert!(text_of(&flags["calls"]["read"]).contains("mcp notes line"));

    // The server's flags would allow exec; the entry matched by the announced name narrows it.
    let named = run_python(&stdio_calls_plan(&fixture, &[], "restricted-bot"));
    assert_hidden_and_refused(&named, "exec", exec_rule);
    assert!(text_of(&named["calls"]["read"]).contains("mcp notes line"));

    // Over HTTP the token picks the entry, whatever name the client announces.
    let server = HttpServer::start(&fixture, "server-token");
    let by_token = run_python(&json!({
        "transport": "http",
        "url": server.url,
        "token": "ci-token",
        "client_name": "restricted-bot",
        "scenario": "calls",
        "calls": widening_calls(),
    }));
    drop(server);
    assert_hidden_and_refused(&by_token, "read", "agents.list[2].tools.deny");
    let exec = &by_token["calls"]["exec"];
    assert_ne!(exec["isError"], true, "{exec}");
    assert!(text_of(exec).contains("ran-42"), "{exec}");

    // The decision log: who, in which context, in which lane.
    let records = decisions(&fixture.state());
    let find = |agent: &str, tool: &str| {
        records
            .iter()
            .find(|r| r["context"]["agent"] == agent && r["tool"]["canonical"] == tool)
            .cloned()
            .unwrap_or_else(|| panic!("no {tool} record for agent {agent}: {records:?}"))
    };
    let flag_read = records
        .iter()
        .find(|r| r["client"] == "some-client" && r["tool"]["canonical"] == "read")
        .unwrap_or_else(|| panic!("no read by some-client: {records:?}"));
    assert_eq!(flag_read["context"]["agent"], "restricted", "{flag_read}");
    assert_eq!(flag_read["lane"], "flag-lane", "{flag_read}");
    let named_read = records
        .iter()
        .find(|r| {
            r["client"] == "restricted-bot"
                && r["context"]["agent"] == "restricted"
                && r["tool"]["canonical"] == "read"
        })
        .unwrap_or_else(|| panic!("no read by restricted-bot: {records:?}"));
    assert_eq!(named_read["context"]["owner"], false, "{named_read}");
    assert_eq!(named_read["lane"], "bots", "{named_read}");
    for refused in [find("restricted", "exec"), find("ci", "read")] {
        assert_eq!(refused["decision"], "refused", "{refused}");
        assert!(
            refused["rule"].to_string().contains("tools.deny"),
            "{refused}"
        );
    }
    let ci_exec = find("ci", "exec");
    assert_eq!(ci_exec["client"], "restricted-bot", "{ci_exec}");
    assert_eq!(ci_exec["lane"], "ci", "{ci_exec}");
}

/// `mcp-inspector --cli <method args> <target>`; a stdio target comes after `--` so that the
/// server's own flags are not read as the Inspector's.
fn run_inspector(target: &[String], method_args: &[&str]) -> Value {
    let out = Command::new(inspector())
        .arg("--cli")
        .args(method_args)
        .args(target)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "inspector failed ({}):\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("inspector output not JSON ({e}): {stdout}"))
}

fn inspector_checks(target: &[String]) {
    let listed = run_inspector(target, &["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"read") && names.contains(&"exec"),
        "{names:?}"
    );
    assert!(!names.contains(&"web_fetch"), "{names:?}");

    let read = run_inspector(
        target,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "read",
            "--tool-arg",
            "path=notes.txt",
        ],
    );
    assert!(text_of(&read).contains("mcp notes line"), "{read}");

    let exec = run_inspector(
        target,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "exec",
            "--tool-arg",
            "command=echo inspector-$((6*7))",
        ],
    );
    assert!(text_of(&exec).contains("inspector-42"), "{exec}");

    // The Inspector checks a name against the list before calling: a hidden tool is not there.
    let hidden = Command::new(inspector())
        .arg("--cli")
        .args([
            "--method",
            "tools/call",
            "--tool-name",
            "web_fetch",
            "--tool-arg",
            "url=https://example.com",
        ])
        .args(target)
        .output()
        .unwrap();
    assert!(!hidden.status.success());
    let said = String::from_utf8_lossy(&hidden.stderr);
    assert!(said.contains("Tool 'web_fetch' not found"), "{said}");
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn inspector_cli_over_stdio() {
    let fixture = Fixture::new();
    let mut target: Vec<String> = Vec::new();
    for (k, v) in fixture.server_env() {
        target.push("-e".into());
        target.push(format!("{k}={v}"));
    }
    target.push("-e".into());
    target.push(format!(
        "OPENCLAW_CONFIG_PATH={}",
        fixture.config().display()
    ));
    target.push("--".into());
    target.push(clawdeck_bin().display().to_string());
    target.push("mcp".into());
    inspector_checks(&target);
}

#[test]
#[ignore = "needs the MCP Python SDK and the MCP Inspector in ~/.cache/clawdeck-mcp (.ci/run installs them)"]
fn inspector_cli_over_http() {
    let fixture = Fixture::new();
    let server = HttpServer::start(&fixture, "inspector-token");
    let target = vec![
        "--transport".into(),
        "http".into(),
        "--header".into(),
        "Authorization: Bearer inspector-token".into(),
        "--".into(),
        server.url.clone(),
    ];
    inspector_checks(&target);
}
