//! `clawdeck mcp` over stdio, spoken to line by line (no SDK on this side), on the 2025-06-18
//! protocol that most clients still speak: the handshake, a refused call that names its rule,
//! a malformed frame that does not take the server down, `notifications/tools/list_changed`
//! after a config edit, and the server ending (with its children) when stdin closes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

const CONFIG: &str = r#"{ tools: { profile: "coding", deny: ["web_fetch"] } }"#;
const EDITED: &str = r#"{ tools: { profile: "coding", deny: ["web_fetch", "exec"] } }"#;

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
    _dir: tempfile::TempDir,
    config: std::path::PathBuf,
}

impl Server {
    fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        let config = dir.path().join("openclaw.json5");
        std::fs::write(&config, CONFIG).unwrap();
        std::fs::write(
            dir.path().join("clawdeck.json5"),
            r#"{ workspace: "ws", openclawVersion: "2026.9" }"#,
        )
        .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
            .arg("--config")
            .arg(&config)
            .arg("mcp")
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("server wrote a non-JSON line ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            lines,
            _dir: dir,
            config,
        }
    }

    fn send(&mut self, frame: &str) {
        self.send_bytes(frame.as_bytes());
    }

    fn send_bytes(&mut self, frame: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(frame).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message matching `pick`, skipping others; panics after 15 s.
    fn wait_for(&self, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) if pick(&v) => return v,
                Ok(_) => continue,
                Err(_) => panic!("no {what} from the server"),
            }
        }
    }

    fn response(&self, id: i64) -> Value {
        self.wait_for(&format!("response {id}"), |v| v["id"] == id)
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        self.response(id)
    }

    fn handshake(&mut self) -> Value {
        let init = self.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "line-test", "version": "1"}}),
        );
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        init
    }

    fn tool_names(&mut self, id: i64) -> Vec<String> {
        let listed = self.request(id, "tools/list", json!({}));
        listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(response: &Value) -> String {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn handshake_refusal_and_a_malformed_frame() {
    let mut server = Server::start();
    let init = server.handshake();
    assert_eq!(init["result"]["serverInfo"]["name"], "clawdeck");
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);

    let names = server.tool_names(2);
    assert!(names.contains(&"exec".to_string()), "{names:?}");
    assert!(!names.contains(&"web_fetch".to_string()), "{names:?}");

    let refused = server.request(
        3,
        "tools/call",
        json!({"name": "web_fetch", "arguments": {"url": "https://example.com"}}),
    );
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(text(&refused).contains("tools.deny"), "{refused}");

    // Not JSON at all, then a frame of the wrong shape: the session goes on.
    server.send("this is not json");
    server.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"nope":1}}"#);
    let _ = server.response(4);
    let unknown = server.request(5, "tools/call", json!({"name": "no_such_tool"}));
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
    let still = server.tool_names(6);
    assert_eq!(still, names, "the server answers as before");
}

/// The next parse error the server answers: JSON-RPC 2.0's -32700 with a null id.
fn parse_error(server: &Server, what: &str) -> Value {
    let error = server.wait_for(what, |v| v.get("error").is_some());
    assert_eq!(error["jsonrpc"], "2.0", "{error}");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(error["id"].is_null(), "{error}");
    assert!(
        error.as_object().unwrap().contains_key("id"),
        "the id is there and null: {error}"
    );
    error
}

#[test]
fn an_undecodable_line_is_answered_with_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::start();
    server.handshake();
    server.send("this is not json");
    let error = parse_error(&server, "a parse error for text");
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Parse error")),
        "{error}"
    );
    server.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list""#);
    parse_error(&server, "a parse error for cut JSON");
    server.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"\xff\xfe\"}");
    parse_error(&server, "a parse error for invalid UTF-8");
    server.send_bytes(b"\xc3\x28 not utf-8 at all");
    parse_error(&server, "a parse error for bytes that are not UTF-8");
    // The session goes on: the next request is answered as before.
    let names = server.tool_names(5);
    assert!(names.contains(&"exec".to_string()), "{names:?}");
}

#[test]
fn a_config_edit_sends_list_changed_and_the_next_list_follows_it() {
    let mut server = Server::start();
    server.handshake();
    assert!(server.tool_names(2).contains(&"exec".to_string()));
    let tmp = server.config.with_extension("tmp");
    std::fs::write(&tmp, EDITED).unwrap();
    std::fs::rename(&tmp, &server.config).unwrap();
    server.wait_for("notifications/tools/list_changed", |v| {
        v["method"] == "notifications/tools/list_changed"
    });
    let after = server.tool_names(3);
    assert!(!after.contains(&"exec".to_string()), "{after:?}");
    assert!(after.contains(&"read".to_string()), "{after:?}");
}

#[test]
fn closing_stdin_ends_the_server_and_its_running_calls() {
    let mut server = Server::start();
    server.handshake();
    let pidfile = server.config.with_file_name("long.pid");
    server.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "exec",
            "arguments": {"command": format!("sleep 300 & echo $! > {}; wait", pidfile.display()),
                          "yieldMs": 600000}}})
        .to_string(),
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the exec never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(server.stdin.take());
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server outlived its stdin"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let alive = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map(|s| !s.contains("State:\tZ"))
        .unwrap_or(false);
    assert!(!alive, "the call's child {pid} outlived the server");
}

/// Started by hand on a terminal, `clawdeck mcp` says on stderr what it is waiting for (a client
/// on stdin/stdout, or --listen for HTTP) instead of waiting silently; for a client (stdin a
/// pipe) it says nothing.
#[test]
fn on_a_terminal_mcp_says_what_it_waits_for() {
    use std::os::fd::OwnedFd;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json5");
    std::fs::write(&config, CONFIG).unwrap();
    let pty = nix::pty::openpty(None, None).unwrap();
    let terminal: OwnedFd = pty.slave;
    let mut child = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .arg("--config")
        .arg(&config)
        .args(["mcp", "--no-watch"])
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let hint = rx.recv_timeout(Duration::from_secs(30));
    let _ = child.kill();
    let _ = child.wait();
    drop(pty.master);
    let hint = hint.expect("a line on stderr");
    assert!(
        hint.starts_with("clawdeck mcp: serving MCP on stdin/stdout")
            && hint.contains("clawdeck mcp --listen 127.0.0.1:8765"),
        "{hint}"
    );

    // A client's pipe gets no hint.
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .arg("--config")
        .arg(&config)
        .args(["mcp", "--no-watch"])
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("serving MCP on stdin/stdout"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
