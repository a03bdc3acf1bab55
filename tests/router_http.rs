//! clawbot_router's HTTP transport and the gateway client against a local mock gateway
//! (a few lines of HTTP/1.1 over a TcpListener): SSE deltas streamed like CLI output, the same
//! timeout and error contract, `POST /tools/invoke`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clawdeck_core::config::settings::RouterSettings;
use clawdeck_core::tool::{Tool, ToolCall, ToolError, ToolFlags, ToolSource, ToolSpec};
use clawdeck_router::service::EnvLookup;
use clawdeck_router::{
    OpenClawOnlyTool, RouterEventKind, RouterRequest, RouterService, RunStatus, StdStream,
    ToolsInvokeClient, TransportKind, texts,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the mock saw: (method+path, headers lowercased, body).
type Seen = Arc<Mutex<Vec<(String, HashMap<String, String>, Value)>>>;

async fn read_request(sock: &mut TcpStream) -> Option<(String, HashMap<String, String>, Value)> {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 4096];
    let header_end = loop {
        let n = sock.read(&mut tmp).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let request_line = lines.next()?.to_string();
    let mut headers = HashMap::new();
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < header_end + len {
        let n = sock.read(&mut tmp).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&tmp[..n]);
    }
    let body = serde_json::from_slice(&buf[header_end..]).unwrap_or(Value::Null);
    let mut parts = request_line.split(' ');
    let what = format!(
        "{} {}",
        parts.next().unwrap_or(""),
        parts.next().unwrap_or("")
    );
    Some((what, headers, body))
}

async fn respond(sock: &mut TcpStream, status: &str, content_type: &str, body: &str) {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = sock.write_all(head.as_bytes()).await;
    let _ = sock.write_all(body.as_bytes()).await;
}

fn sse(delta: &str) -> String {
    format!(
        "data: {}\n\n",
        json!({"choices": [{"index": 0, "delta": {"content": delta}}]})
    )
}

/// Starts the mock gateway; the scenario comes from the user message (`[[sse:NAME]]`).
async fn mock_gateway() -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let log = log.clone();
            tokio::spawn(async move {
                let Some((what, headers, body)) = read_request(&mut sock).await else {
                    return;
                };
                log.lock()
                    .unwrap()
                    .push((what.clone(), headers.clone(), body.clone()));
                if headers.get("authorization").map(String::as_str) != Some("Bearer tok") {
                    respond(
                        &mut sock,
                        "401 Unauthorized",
                        "application/json",
                        r#"{"error":{"message":"Unauthorized","type":"unauthorized"}}"#,
                    )
                    .await;
                    return;
                }
                if what == "POST /tools/invoke" {
                    let (status, body) = match body["tool"].as_str() {
                        Some("sessions_list") => (
                            "200 OK",
                            json!({"ok": true, "result": {"content": [{"type": "text", "text": "2 sessions"}], "details": {"count": 2, "agentId": body["agentId"]}}}),
                        ),
                        Some("exec") => (
                            "404 Not Found",
                            json!({"ok": false, "error": {"type": "not_found", "message": "Tool not available: exec"}}),
                        ),
                        _ => (
                            "400 Bad Request",
                            json!({"ok": false, "error": {"type": "invalid_request", "message": "bad args"}}),
                        ),
                    };
                    respond(&mut sock, status, "application/json", &body.to_string()).await;
                    return;
                }
                if body["model"] == json!("openclaw/nope") {
                    respond(&mut sock, "400 Bad Request", "application/json", r#"{"error":{"message":"Unknown agent 'nope'.","type":"invalid_request_error"}}"#).await;
                    return;
                }
                let message = body["messages"][0]["content"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
                let _ = sock.write_all(head.as_bytes()).await;
                if message.contains("[[sse:stall]]") {
                    let _ = sock.write_all(sse("thinking").as_bytes()).await;
                    tokio::time::sleep(Duration::from_secs(600)).await;
                    return;
                }
                if message.contains("[[sse:error]]") {
                    let _ = sock.write_all(sse("partial").as_bytes()).await;
                    let _ = sock
                        .write_all(b"data: {\"error\":{\"message\":\"memory read failed\"}}\n\n")
                        .await;
                    let _ = sock.write_all(b"data: [DONE]\n\n").await;
                    return;
                }
                let _ = sock
                    .write_all(b"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n")
                    .await;
                if message.contains("[[sse:no-final-newline]]") {
                    // As a real gateway's reply: no newline at its end.
                    for word in ["All", " done."] {
                        let _ = sock.write_all(sse(word).as_bytes()).await;
                    }
                    let _ = sock.write_all(b"data: [DONE]\n\n").await;
                    return;
                }
                for word in ["Summary:", " 2 errors", " in 日志", "\n"] {
                    let _ = sock.write_all(sse(word).as_bytes()).await;
                    let _ = sock.flush().await;
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
                let _ = sock.write_all(b"data: [DONE]\n\n").await;
            });
        }
    });
    (url, seen)
}

fn service(url: Option<&str>, token: Option<&str>) -> RouterService {
    let mut settings = RouterSettings {
        transport: "http".into(),
        min_timeout_seconds: 1,
        ..RouterSettings::default()
    };
    settings.gateway.url = url.map(str::to_string);
    settings.gateway.token = token.map(str::to_string);
    let env: EnvLookup = Arc::new(|_| None);
    RouterService::with_env(settings, env)
}

/// `clawdeck route --transport http`: the reply has no final newline; the transcript gets one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route_over_http_ends_its_output_with_a_newline() {
    let (url, _seen) = mock_gateway().await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openclaw.json"), "{}").unwrap();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .arg("--config")
        .arg(dir.path().join("openclaw.json"))
        .args(["route", "--transport", "http", "--agent", "ops"])
        .args(["--message", "[[sse:no-final-newline]]"])
        .env("OPENCLAW_GATEWAY_URL", &url)
        .env("OPENCLAW_GATEWAY_TOKEN", "tok")
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "All done.\n",
        "{stderr}"
    );
}

#[tokio::test]
async fn sse_deltas_stream_as_stdout_chunks() {
    let (url, seen) = mock_gateway().await;
    let service = service(Some(&url), Some("tok"));
    let mut events = service.subscribe();
    let handle = service
        .start(RouterRequest::new("-x \"q\"\n日志").with_agent("ops"))
        .unwrap();
    let mut chunks = Vec::new();
    loop {
        let ev = events.recv().await.unwrap();
        match ev.kind {
            RouterEventKind::Started {
                argv, transport, ..
            } => {
                assert_eq!(transport, TransportKind::Http);
                assert_eq!(
                    argv,
                    [
                        "POST".to_string(),
                        format!("{url}/v1/chat/completions"),
                        "model=openclaw/ops".into(),
                        "stream=true".into()
                    ]
                );
            }
            RouterEventKind::Chunk { stream, bytes, .. } => {
                chunks.push((stream, String::from_utf8(bytes).unwrap()))
            }
            RouterEventKind::Finished { .. } => break,
            _ => {}
        }
    }
    let o = handle.wait().await;
    assert_eq!(o.status, RunStatus::Completed);
    assert_eq!(o.content, "Summary: 2 errors in 日志\n");
    assert_eq!(chunks.len(), 4, "one chunk per delta: {chunks:?}");
    assert!(chunks.iter().all(|(s, _)| *s == StdStream::Stdout));
    let r = o.to_tool_result();
    assert_eq!(r.details["directTTS"], json!(false));
    assert_eq!(r.details["interruptMode"], json!(2));
    assert_eq!(r.details["transport"], json!("http"));

    let seen = seen.lock().unwrap();
    let (what, headers, body) = &seen[0];
    assert_eq!(what, "POST /v1/chat/completions");
    assert_eq!(headers["authorization"], "Bearer tok");
    assert_eq!(body["model"], json!("openclaw/ops"));
    assert_eq!(body["stream"], json!(true));
    let sent = body["messages"][0]["content"].as_str().unwrap();
    // No `mode` in the request: the message goes out verbatim (seed 000 §3.3).
    assert_eq!(sent, "-x \"q\"\n日志");
}

#[tokio::test]
async fn gateway_errors_are_content() {
    let (url, _) = mock_gateway().await;
    let o = service(Some(&url), Some("wrong"))
        .start(RouterRequest::new("hi").with_agent("ops"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::SpawnFailed);
    assert!(
        o.content.starts_with(
            "[clawbot_router] 无法连接远程 Agent（OpenClaw gateway 请求失败：HTTP 401"
        ),
        "{}",
        o.content
    );
    assert!(o.content.contains("Unauthorized"));

    // Nothing listens on port 9 of loopback.
    let o = service(Some("http://127.0.0.1:9"), Some("tok"))
        .start(RouterRequest::new("hi").with_agent("ops"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::SpawnFailed);
    assert!(o.content.contains("连接失败"), "{}", o.content);

    // A remote refusal (unknown agent) is remote output, like the CLI's stderr.
    let o = service(Some(&url), Some("tok"))
        .start(RouterRequest::new("hi").with_agent("nope"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::Failed);
    assert_eq!(o.content, "Unknown agent 'nope'.\n");

    let err = service(None, None)
        .start(RouterRequest::new("hi").with_agent("ops"))
        .err()
        .unwrap();
    assert_eq!(err.model, texts::NO_GATEWAY);
}

#[tokio::test]
async fn stalled_stream_times_out_with_the_note() {
    let (url, _) = mock_gateway().await;
    let o = service(Some(&url), Some("tok"))
        .start(RouterRequest {
            timeout_seconds: Some(1),
            ..RouterRequest::new("[[sse:stall]]").with_agent("ops")
        })
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::TimedOut);
    assert_eq!(o.content, format!("thinking\n{}", texts::timed_out(1)));
}

#[tokio::test]
async fn errors_inside_the_stream_arrive_on_stderr() {
    let (url, _) = mock_gateway().await;
    let o = service(Some(&url), Some("tok"))
        .start(RouterRequest::new("[[sse:error]]").with_agent("ops"))
        .unwrap()
        .wait()
        .await;
    assert_eq!(o.status, RunStatus::Completed);
    assert_eq!(o.content, "partialmemory read failed\n");
}

#[tokio::test]
async fn tools_invoke_through_the_gateway() {
    let (url, seen) = mock_gateway().await;
    let client = ToolsInvokeClient::new(&url, Some("tok".into()), Duration::from_secs(5));
    let r = client
        .invoke("sessions_list", &json!({}), Some("ops"))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "2 sessions");
    assert_eq!(r.details["count"], json!(2));
    assert_eq!(
        seen.lock().unwrap()[0].2,
        json!({"tool": "sessions_list", "args": {}, "agentId": "ops"})
    );
    match client.invoke("exec", &json!({"command": "id"}), None).await {
        Err(ToolError::Failed(m)) => assert!(
            m.contains("HTTP 404") && m.contains("Tool not available: exec"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        client.invoke("other", &json!({}), None).await,
        Err(ToolError::Input(_))
    ));
    let bad = ToolsInvokeClient::new(&url, None, Duration::from_secs(5));
    assert!(matches!(
        bad.invoke("sessions_list", &json!({}), None).await,
        Err(ToolError::Unauthorized(_))
    ));
}

fn platform_spec(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        label: name.into(),
        description: String::new(),
        summary: String::new(),
        emoji: String::new(),
        parameters: json!({"type": "object"}),
        source: ToolSource::Core,
        flags: ToolFlags {
            openclaw_only: true,
            ..ToolFlags::default()
        },
    }
}

#[tokio::test]
async fn openclaw_only_tools_use_the_gateway_or_say_they_cannot_run_here() {
    let (url, _) = mock_gateway().await;
    let tool = OpenClawOnlyTool::new(platform_spec("sessions_list"), None, None);
    let r = tool.execute(ToolCall::new("c", json!({}))).await.unwrap();
    assert_eq!(r.joined_text(), texts::openclaw_only("sessions_list"));
    assert!(r.is_error());

    let tools = clawdeck_router::router_tools(
        &service(Some(&url), Some("tok")),
        &[platform_spec("sessions_list")],
        Some("ops"),
    );
    let names: Vec<&str> = tools.iter().map(|t| t.spec().name.as_str()).collect();
    assert_eq!(names, ["clawbot_router", "sessions_list"]);
    let r = tools[1]
        .execute(ToolCall::new("c", json!({})))
        .await
        .unwrap();
    assert_eq!(r.joined_text(), "2 sessions");
    assert_eq!(r.details["agentId"], json!("ops"));

    let tools = clawdeck_router::router_tools(
        &service(None, None),
        &[platform_spec("sessions_list")],
        None,
    );
    assert_eq!(
        tools.len(),
        1,
        "without a gateway the platform tools keep their local runner"
    );
}

#[tokio::test]
async fn https_gateways_are_spoken_to_over_tls() {
    // A listener that records the first bytes the client sends, then hangs up: an `https://`
    // gateway must get a TLS ClientHello (record type 0x16, version 3.x), not plain HTTP.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let first_bytes = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.unwrap();
        let mut buf = [0u8; 3];
        sock.read_exact(&mut buf).await.unwrap();
        buf
    });
    let client = ToolsInvokeClient::new(
        format!("https://{addr}"),
        Some("tok".into()),
        Duration::from_secs(5),
    );
    let err = client
        .invoke("sessions_list", &json!({}), None)
        .await
        .unwrap_err();
    let hello = tokio::time::timeout(Duration::from_secs(5), first_bytes)
        .await
        .expect("the client never connected: no TLS support for https://")
        .unwrap();
    assert_eq!(hello[0], 0x16, "TLS handshake record");
    assert_eq!(hello[1], 0x03, "TLS version major");
    assert!(matches!(err, ToolError::Failed(_)), "{err:?}");
}

/// `router.gateway.url` for the HTTP transport follows the rules of every gateway URL: a user
/// name or password before '@' is refused, and so is plain http to a host that is not loopback
/// (the token would cross the network in clear); nothing is sent.
#[tokio::test]
async fn a_gateway_url_with_userinfo_or_plain_http_off_loopback_is_refused() {
    for url in [
        "http://user:secret@127.0.0.1:9",
        "http://gateway.example.com:18789",
    ] {
        let o = service(Some(url), Some("tok"))
            .start(RouterRequest::new("hi").with_agent("ops"))
            .unwrap()
            .wait()
            .await;
        assert_eq!(o.status, RunStatus::SpawnFailed, "{url}: {}", o.content);
        assert!(
            o.content.contains("router.gateway.url"),
            "{url}: {}",
            o.content
        );
    }
}
