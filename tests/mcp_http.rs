//! `clawdeck mcp --listen` under attack, spoken to with raw HTTP/1.1 (no SDK on this side): a
//! flood of idle sockets at a low open-file limit neither ends nor wedges the server, an idle
//! socket is closed after the header timeout, a dropped request cancels its call (the exec
//! child is killed, the decision log says cancelled), and a browser Origin that is not loopback
//! gets 403 (DNS rebinding).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TOKEN: &str = "http-test-token";
const CONFIG: &str = r#"{ tools: { profile: "coding" } }"#;

/// A server's directory: openclaw.json5, clawdeck.json5 (with `mcp` when given), state.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(mcp: Value) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        std::fs::write(dir.path().join("openclaw.json5"), CONFIG).unwrap();
        let mut settings = json!({ "workspace": "ws", "openclawVersion": "2026.9" });
        if !mcp.is_null() {
            settings["mcp"] = mcp;
        }
        std::fs::write(dir.path().join("clawdeck.json5"), settings.to_string()).unwrap();
        Fixture { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// An MCP `initialize` request, as a raw client sends it.
fn initialize_body() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw-http-test", "version": "1"}}})
    .to_string()
}

/// `clawdeck mcp --listen 127.0.0.1:0`, its address read from what it prints; stderr is kept.
struct Server {
    child: Child,
    authority: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(fixture: &Fixture, open_files: Option<u64>) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.arg("--config")
            .arg(fixture.path("openclaw.json5"))
            .args(["mcp", "--listen", "127.0.0.1:0", "--token", TOKEN])
            .env("XDG_STATE_HOME", fixture.path("state"))
            .env_remove("CLAWDECK_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(limit) = open_files {
            // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    let rlimit = libc::rlimit {
                        rlim_cur: limit,
                        rlim_max: limit,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &rlimit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut authority = String::new();
        let mut seen = String::new();
        let mut line = String::new();
        while authority.is_empty() && stderr.read_line(&mut line).unwrap() > 0 {
            seen.push_str(&line);
            if let Some(rest) = line.trim().strip_prefix("clawdeck mcp: serving http://") {
                authority = rest.trim_end_matches("/mcp").to_string();
            }
            line.clear();
        }
        assert!(
            !authority.is_empty(),
            "the server never said where it listens:\n{seen}"
        );
        let kept = Arc::new(Mutex::new(seen));
        let sink = Arc::clone(&kept);
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).unwrap_or(0) > 0 {
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Server {
            child,
            authority,
            stderr: kept,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn assert_running(&mut self) {
        let exited = self.child.try_wait().unwrap();
        assert!(
            exited.is_none(),
            "the server exited ({exited:?}):\n{}",
            self.stderr()
        );
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.authority).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        stream
    }

    /// Writes one POST to /mcp on `stream` (token, session and extra headers as given).
    fn write_post(&self, stream: &mut TcpStream, session: Option<&str>, extra: &str, body: &str) {
        let session = session
            .map(|s| format!("Mcp-Session-Id: {s}\r\nMCP-Protocol-Version: 2025-06-18\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nAuthorization: Bearer {TOKEN}\r\n\
             {session}{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.authority,
            body.len()
        )
        .unwrap();
        stream.flush().unwrap();
    }

    /// One POST on a fresh connection, read to the end: (status, head, body); status 0 when
    /// the connection failed or was closed without an answer.
    fn post(&self, session: Option<&str>, extra: &str, body: &str) -> (u16, String, String) {
        let Ok(mut stream) = TcpStream::connect(&self.authority) else {
            return (0, String::new(), String::new());
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(15)));
        self.write_post(&mut stream, session, extra, body);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        (status, head.to_string(), body.to_string())
    }

    /// `initialize` and `notifications/initialized`: the session id, or what went wrong.
    fn try_handshake(&self) -> Result<String, String> {
        let (status, head, body) = self.post(None, "", &initialize_body());
        if status != 200 || !body.contains("\"serverInfo\"") {
            return Err(format!("initialize: {status}\n{head}\n{body}"));
        }
        let session = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_string())
            })
            .ok_or_else(|| format!("no session id: {head}"))?;
        let (status, _, _) = self.post(
            Some(&session),
            "",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        if status != 202 && status != 200 {
            return Err(format!("initialized: {status}"));
        }
        Ok(session)
    }

    fn handshake(&self) -> String {
        self.try_handshake().unwrap_or_else(|e| panic!("{e}"))
    }

    /// A whole client still gets its answers: the handshake and a tools/list.
    fn answers(&self) -> Result<(), String> {
        let session = self.try_handshake()?;
        let (status, _, body) = self.post(
            Some(&session),
            "",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        );
        if status == 200 && body.contains("\"exec\"") {
            Ok(())
        } else {
            Err(format!("tools/list: {status}\n{body}"))
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.child.id() as i32),
            nix::sys::signal::Signal::SIGTERM,
        );
        let _ = self.child.wait();
    }
}

fn wait_until(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

fn process_alive(pid: i32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    !status.is_empty() && !status.contains("State:\tZ")
}

/// Opens `count` connections that never send a byte.
fn idle_flood(server: &Server, count: usize) -> Vec<TcpStream> {
    (0..count)
        .filter_map(|_| TcpStream::connect(&server.authority).ok())
        .collect()
}

#[test]
fn an_idle_flood_at_a_low_file_limit_is_refused_over_the_cap_and_the_server_keeps_serving() {
    let fixture = Fixture::new(Value::Null);
    let mut server = Server::start(&fixture, Some(256));
    let flood = idle_flood(&server, 400);
    std::thread::sleep(Duration::from_millis(500));
    server.assert_running();
    assert!(flood.len() > 300, "the flood could not connect");
    drop(flood);
    // The held sockets end as their peers close; then a real client is served.
    assert!(
        wait_until(Duration::from_secs(10), || server.answers().is_ok()),
        "the server stopped answering:\n{}",
        server.stderr()
    );
    server.assert_running();
    let stderr = server.stderr();
    assert!(
        stderr.contains("refused") && stderr.contains("connections open"),
        "the refusals were not reported:\n{stderr}"
    );
}

#[test]
fn accept_errors_back_off_and_the_server_keeps_serving() {
    // A cap above the file limit: accept() itself fails with EMFILE.
    let fixture = Fixture::new(json!({ "http": { "maxConnections": 1000 } }));
    let mut server = Server::start(&fixture, Some(128));
    let flood = idle_flood(&server, 300);
    assert!(
        wait_until(Duration::from_secs(10), || server
            .stderr()
            .contains("Too many open files")),
        "no accept error was reported:\n{}",
        server.stderr()
    );
    server.assert_running();
    drop(flood);
    assert!(
        wait_until(Duration::from_secs(15), || server.answers().is_ok()),
        "the server stopped answering:\n{}",
        server.stderr()
    );
    server.assert_running();
}

#[test]
fn an_idle_or_half_sent_request_is_closed_after_the_header_timeout() {
    let fixture = Fixture::new(json!({ "http": { "headerTimeoutMs": 500 } }));
    let server = Server::start(&fixture, None);
    let mut idle = server.connect();
    let mut partial = server.connect();
    partial
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let started = Instant::now();
    for stream in [&mut idle, &mut partial] {
        let mut buf = [0u8; 512];
        let read = stream.read(&mut buf);
        let held = started.elapsed();
        assert!(
            held < Duration::from_secs(5),
            "held for {held:?} ({read:?})"
        );
        if let Ok(n) = read {
            // hyper may answer 408 before closing; either way the socket ends.
            let text = String::from_utf8_lossy(&buf[..n]).into_owned();
            assert!(n == 0 || text.starts_with("HTTP/1.1 408"), "{text}");
        }
    }
    assert!(started.elapsed() >= Duration::from_millis(400));
    server.answers().unwrap();
}

#[test]
fn a_dropped_request_cancels_its_call_and_kills_its_process_tree() {
    let fixture = Fixture::new(Value::Null);
    let mut server = Server::start(&fixture, None);
    let session = server.handshake();
    let pidfile = fixture.path("long.pid");
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "exec",
        "arguments": {"command": format!("sleep 300 & echo $! > {}; wait", pidfile.display()),
                      "yieldMs": 600000}}});
    let mut stream = server.connect();
    server.write_post(&mut stream, Some(&session), "", &call.to_string());
    let mut pid = None;
    assert!(
        wait_until(Duration::from_secs(15), || {
            pid = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|t| t.trim().parse::<i32>().ok());
            pid.is_some()
        }),
        "the exec never started:\n{}",
        server.stderr()
    );
    let pid = pid.unwrap();
    assert!(process_alive(pid));
    drop(stream);
    assert!(
        wait_until(Duration::from_secs(5), || !process_alive(pid)),
        "the call's child {pid} outlived its dropped request"
    );
    server.assert_running();
    let cancelled = wait_until(Duration::from_secs(5), || {
        decisions(&fixture.path("state"))
            .iter()
            .any(|r| r["tool"]["canonical"] == "exec" && r["outcome"] == "cancelled")
    });
    assert!(
        cancelled,
        "no cancelled exec record: {:?}",
        decisions(&fixture.path("state"))
    );
}

/// The decision log the server wrote, through `clawdeck log --json`.
fn decisions(state: &Path) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["log", "--json", "--limit", "1000"])
        .env("XDG_STATE_HOME", state)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn a_browser_origin_that_is_not_loopback_is_refused_with_403() {
    let fixture = Fixture::new(Value::Null);
    let server = Server::start(&fixture, None);
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"o","version":"1"}}}"#;
    for origin in [
        "http://evil.example",
        "https://evil.example:8443",
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example",
        "http://127.0.0.1:1@evil.example",
        "null",
        "file://",
        "not an origin",
    ] {
        let (status, head, body) = server.post(None, &format!("Origin: {origin}\r\n"), list);
        assert_eq!(status, 403, "Origin {origin}: {head}\n{body}");
        assert!(body.contains("Origin"), "Origin {origin}: {body}");
    }
    // The same request from a loopback page, or from a client that sends no Origin.
    for origin in [
        "http://localhost:6274",
        "http://127.0.0.1:8080",
        "http://[::1]:3000",
        "HTTP://LOCALHOST:1",
        "https://localhost",
    ] {
        let (status, head, _) = server.post(None, &format!("Origin: {origin}\r\n"), list);
        assert_eq!(status, 200, "Origin {origin}: {head}");
    }
    let (status, head, _) = server.post(None, "", list);
    assert_eq!(status, 200, "no Origin: {head}");
}

/// The SDK's own streamable HTTP client (sends no Origin, reuses its connections) gets through
/// the gate under a short header timeout.
#[test]
fn the_sdk_client_lists_the_tools_through_the_gate() {
    let fixture = Fixture::new(json!({ "http": { "headerTimeoutMs": 300 } }));
    let server = Server::start(&fixture, None);
    let headers = std::collections::BTreeMap::from([(
        "Authorization".to_string(),
        format!("Bearer {TOKEN}"),
    )]);
    let url = format!("http://{}/mcp", server.authority);
    // reqwest is built without a default TLS provider (as clawdeck's router client installs).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for _ in 0..2 {
        let offer = runtime
            .block_on(clawdeck_mcp::sdk_client::list_over_http(&url, &headers))
            .unwrap_or_else(|e| panic!("{e}\n{}", server.stderr()));
        assert!(offer.tools.iter().any(|t| t.name == "exec"), "{offer:?}");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// `mcp.http.maxSessions`: a new session over the cap closes the one idle longest; while every
/// session is busy (sent something in the last 5 s) a new one is refused with a JSON-RPC error
/// naming the key. (6,000 `initialize` requests kept every session: 640 MB.)
#[test]
fn sessions_over_the_cap_close_the_idlest_and_when_all_are_busy_are_refused_naming_the_key() {
    let fixture = Fixture::new(json!({ "http": { "maxSessions": 2 } }));
    let mut server = Server::start(&fixture, None);
    let first = server.handshake();
    std::thread::sleep(Duration::from_millis(5_500));
    let second = server.handshake();
    let third = server.handshake();
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (status, _, _) = server.post(Some(&first), "", list);
    assert_eq!(status, 404, "the idlest session was closed to make room");
    for session in [&second, &third] {
        let (status, _, body) = server.post(Some(session), "", list);
        assert_eq!(status, 200, "{body}");
    }
    let (status, _, body) = server.post(None, "", &initialize_body());
    assert_eq!(status, 503, "{body}");
    let error: Value = serde_json::from_str(&body).unwrap();
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("mcp.http.maxSessions")),
        "{body}"
    );
    server.assert_running();
}

/// 3,000 `initialize` requests with the token, as fast as they come: past the default cap (256
/// sessions) they are refused, so the server's peak memory grows by a bounded amount (each
/// session was kept for 5 idle minutes, and 6,000 added 640 MB).
#[test]
fn a_burst_of_initialize_requests_keeps_the_servers_memory_bounded() {
    let fixture = Fixture::new(json!({}));
    let mut server = Server::start(&fixture, None);
    server.handshake();
    let before = support::peak_rss_kb(server.child.id()).unwrap();
    let mut refused = 0;
    let started = std::time::Instant::now();
    for _ in 0..3_000 {
        let (status, _, body) = server.post(None, "", &initialize_body());
        match status {
            200 => {}
            503 => refused += 1,
            other => panic!("initialize answered {other}: {body}"),
        }
    }
    let after = support::peak_rss_kb(server.child.id()).unwrap();
    eprintln!("3,000 initialize requests: peak {before} kB -> {after} kB, {refused} refused");
    // A session idle for 5 s is closed to make room, so a burst slower than that (a loaded
    // machine) admits more than the cap; the memory bound holds either way.
    let took = started.elapsed();
    if took < Duration::from_secs(5) {
        assert!(
            refused >= 3_000 - 256,
            "the cap refused {refused} in {took:?}"
        );
    } else {
        assert!(refused > 0, "the cap refused nothing in {took:?}");
    }
    assert!(
        after - before < 64 * 1024,
        "peak memory grew {} kB over 3,000 initialize requests",
        after - before
    );
    server.assert_running();
}
