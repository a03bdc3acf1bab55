//! End to end: the real binary in tmux on a fixture config, each test on its own tmux server.
//!
//! - at 160×48: finds a hidden tool's reason in the policy view, starts a router run against a
//!   fake `openclaw` that streams and then hangs, sees the lines arrive, kills it with the key
//!   (after the question), sees the kill note, invokes a tool from the invoke view, quits, and
//!   checks the terminal is back to normal and no child remains;
//! - at 100×12 and 80×24: visits every view and overlay with a live run;
//! - the console hosting MCP (`--mcp-listen`): a client's clawbot_router run streams in the
//!   Router view and is killed there, its exec is killed from the Queue view; the client reads
//!   each kill and no child remains;
//! - headless `invoke` and `route` printing hostile control sequences to the terminal: the title
//!   and tmux's paste buffers (OSC 52) stay unchanged, and `--raw` shows the test can fail;
//! - SIGTERM, SIGHUP and SIGINT to the console during a router run: exit 128 + n, the run's
//!   tree gone, the terminal back on the main screen in cooked mode;
//! - a slow or hanging `openclaw --version`: the first frame comes at once and says "detecting
//!   OpenClaw version…", the header then shows the version (or that it is unknown), and
//!   quitting meanwhile leaves no probe behind.
//! - the console items of issue 18 on a fresh HOME: the Policy path scrolls to every layer at
//!   80x24, the new-run dialog takes the task first and picks the agent, `y` after a 200k-line
//!   flood saves every line up to the stated cap with an end line, and the tab bar shows every
//!   view (the active one whole) at 120, 60 and 39 columns.
//!
//! They need tmux, so they are `#[ignore]`d: `cargo test` reports them as ignored, and `.ci/run`
//! (which installs tmux) runs them with `cargo test --test e2e_tmux -- --ignored`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::tmux::Tmux;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tui")
        .join(name)
}

fn alive(pid: u32) -> bool {
    // A zombie has exited; only a live process counts.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

fn number_after(screen: &str, key: &str) -> Option<u32> {
    let at = screen.find(key)? + key.len();
    screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .ok()
}

fn write_config(dir: &Path) -> PathBuf {
    let config = dir.join("openclaw.json5");
    std::fs::copy(fixture("openclaw.json5"), &config).expect("copy config");
    let settings = format!(
        "{{ workspace: {:?}, router: {{ bin: {:?} }} }}",
        fixture("workspace").display().to_string(),
        fixture("fake-openclaw-stream").display().to_string()
    );
    std::fs::write(dir.join("clawdeck.json5"), settings).expect("write settings");
    config
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn console_end_to_end_in_tmux() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(dir.path());
    let tmux = Tmux::start("e2e", 160, 48);
    let command = format!(
        "{} --openclaw-version seed --config {}; echo CLAWDECK-EXITED=$?",
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    );
    tmux.text(&command);
    tmux.keys(&["Enter"]);

    // Policy view: hidden only, filter `exec`, the reason with its config path.
    tmux.wait_for("Tools × layers", Duration::from_secs(10));
    assert_eq!(
        tmux.display("#{alternate_on}"),
        "1",
        "the console uses the alternate screen"
    );
    tmux.keys(&["h", "/"]);
    tmux.text("exec");
    tmux.keys(&["Enter"]);
    tmux.wait_for(
        "denied by \"exec\" at agents.list[0].tools.deny[0]",
        Duration::from_secs(5),
    );

    // Router view: start a run against the fake openclaw, see its lines arrive.
    tmux.keys(&["3"]);
    tmux.wait_for("no router runs yet", Duration::from_secs(5));
    // The dialog takes the task at once; Down picks the next of the config's agents (ops).
    tmux.keys(&["r"]);
    tmux.text("summarise the logs");
    tmux.keys(&["Down"]);
    tmux.wait_for("agent: ‹ ops ›", Duration::from_secs(5));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("stream-hang", Duration::from_secs(10));
    let screen = if screen.contains("grandchild=") {
        screen
    } else {
        tmux.wait_for("grandchild=", Duration::from_secs(5))
    };
    assert!(screen.contains("stream line 5"), "{screen}");
    assert!(
        screen.contains("green line from the remote agent"),
        "{screen}"
    );
    // stderr comes through its own pipe and reader, so on a loaded machine it may land after the
    // stdout lines: wait for it rather than expecting it in the same capture.
    let screen = tmux.wait_for("E│warning: something on stderr", Duration::from_secs(5));
    assert!(
        screen.contains("progress 100%") && !screen.contains("progress 10%"),
        "{screen}"
    );
    assert!(
        screen.contains("title clip clear done"),
        "control sequences dropped: {screen}"
    );
    assert!(screen.contains("● running"), "{screen}");
    let child = number_after(&screen, "stream-start pid=").expect("child pid on screen");
    let grandchild = number_after(&screen, "grandchild=").expect("grandchild pid on screen");
    assert!(alive(child) && alive(grandchild));
    assert!(
        !tmux.display("#{pane_title}").contains("PWNED"),
        "child output must not set the title"
    );

    // `k` moves (it never kills); `x` asks, `y` kills; the kill note appears and the tree is gone.
    tmux.keys(&["k"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(child), "k does not kill");
    tmux.keys(&["j", "x"]);
    tmux.wait_for("Kill run #1 (ops)?", Duration::from_secs(5));
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("run ■ killed", Duration::from_secs(10));
    assert!(screen.contains("kill"), "{screen}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while (alive(child) || alive(grandchild)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!alive(child), "the fake openclaw was killed");
    assert!(!alive(grandchild), "its grandchild was killed too");

    // Invoke view: read a file from the workspace through the pipeline.
    tmux.keys(&["4"]);
    tmux.wait_for("Tools (", Duration::from_secs(5));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Parameters of read", Duration::from_secs(5));
    tmux.keys(&["Down", "End", "Left"]);
    tmux.text("notes.txt");
    tmux.keys(&["C-r"]);
    tmux.wait_for("hello from the console fixture", Duration::from_secs(10));

    // Quit (Esc leaves the editor first): the shell comes back on the normal screen.
    tmux.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
    assert!(screen.contains("E2E-SHELL$"), "{screen}");
    assert_eq!(
        tmux.display("#{alternate_on}"),
        "0",
        "alternate screen left"
    );
    assert!(!tmux.display("#{pane_title}").contains("PWNED"));
    // The terminal is usable again: cooked mode echoes what we type.
    tmux.text("echo restored-$((40+2))");
    tmux.keys(&["Enter"]);
    tmux.wait_for("restored-42", Duration::from_secs(5));
    assert!(!alive(child) && !alive(grandchild));
}

/// Starts the console in `tmux` on the fixture config and a live router run (the fake streams,
/// then hangs); returns the child's pid.
fn console_with_a_live_run(tmux: &Tmux, config: &Path) -> u32 {
    // The pid line may be out of a small pane's sight; the fake also writes it to a file.
    let pidfile = config.with_extension("fake.pid");
    tmux.command(&format!(
        "FAKE_PIDFILE={} {} --config {}; echo CLAWDECK-EXITED=$?",
        pidfile.display(),
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    tmux.wait_for("Tools", Duration::from_secs(10));
    tmux.keys(&["3"]);
    tmux.wait_for("Runs", Duration::from_secs(5));
    tmux.keys(&["r"]);
    tmux.text("summarise");
    tmux.keys(&["Down"]);
    tmux.wait_for("‹ ops ›", Duration::from_secs(5));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("● running", Duration::from_secs(10));
    let _ = screen;
    // The pid line may have scrolled out of a small pane: scroll to the top of the stream.
    tmux.keys(&["g"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let screen = tmux.screen();
        if let Some(pid) = number_after(&screen, "stream-start pid=") {
            return pid;
        }
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "no child pid on screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Presses `keys` and waits for `needle`; the console must still be running afterwards.
fn visit(tmux: &Tmux, keys: &[&str], needle: &str) {
    for key in keys {
        tmux.keys(&[key]);
        if *key == "Escape" {
            // A key right after ESC would arrive as Alt-<key>.
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    let screen = tmux.wait_for(needle, Duration::from_secs(5));
    assert!(
        !screen.contains("CLAWDECK-EXITED") && !screen.contains("panicked"),
        "after {keys:?}:\n{screen}"
    );
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn every_view_and_overlay_at_100x12_and_80x24_with_a_live_run() {
    for (width, height) in [(100, 12), (80, 24)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = write_config(dir.path());
        let tmux = Tmux::start(&format!("sizes{width}x{height}"), width, height);
        let child = console_with_a_live_run(&tmux, &config);
        assert!(alive(child));
        // Every view.
        visit(&tmux, &["1"], "Tools ×");
        visit(&tmux, &["2"], "Lanes");
        visit(&tmux, &["3"], "Runs (1 total, 1 running)");
        visit(&tmux, &["4"], "Tools (");
        visit(&tmux, &["5"], "What the model sees");
        // Every overlay, from the Router view (where the run-specific ones live).
        visit(&tmux, &["3"], "Runs (");
        visit(&tmux, &["?"], "Keys (type to search");
        visit(&tmux, &["Escape"], "Runs (");
        visit(&tmux, &["c"], "Context (Enter edits");
        visit(&tmux, &["Escape"], "Runs (");
        visit(&tmux, &["x"], "Kill run #1");
        visit(&tmux, &["n"], "Runs (1 total, 1 running)");
        visit(&tmux, &["T"], "Set timeout");
        visit(&tmux, &["Escape"], "Runs (");
        visit(&tmux, &["/"], "Search the stream");
        visit(&tmux, &["Escape"], "Runs (");
        visit(&tmux, &["r"], "New router run");
        visit(&tmux, &["Escape"], "Runs (");
        visit(&tmux, &["4", "Enter"], "Parameters of");
        visit(&tmux, &["Escape", "1", "/"], "Tools ×");
        visit(&tmux, &["Escape"], "Tools ×");
        assert!(alive(child), "the run is still live after the tour");
        // Quitting asks (a run is live); yes kills it and the shell comes back.
        visit(&tmux, &["q"], "Quit and kill");
        tmux.keys(&["y"]);
        tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
        let deadline = Instant::now() + Duration::from_secs(10);
        while alive(child) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(!alive(child), "quitting killed the run");
    }
}

/// The pane's title and tmux's paste buffers (where OSC 52 lands with set-clipboard on).
fn title_and_buffers(tmux: &Tmux) -> (String, String) {
    (tmux.display("#{pane_title}"), tmux.run(&["list-buffers"]))
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn headless_output_to_a_terminal_cannot_retitle_it_or_fill_the_clipboard() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(dir.path());
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).expect("ws");
    std::fs::write(
        ws.join("evil.txt"),
        "before\x1b]0;PWNED-TITLE\x07\x1b]52;c;cHduZWQ=\x07\x1b[31mred\x1b[0m after\n",
    )
    .expect("evil file");
    std::fs::write(
        dir.path().join("clawdeck.json5"),
        format!(
            "{{ workspace: {:?}, router: {{ bin: {:?}, defaultAgent: \"ops\" }} }}",
            ws.display().to_string(),
            fixture("fake-openclaw-hostile").display().to_string()
        ),
    )
    .expect("settings");
    let tmux = Tmux::start("hostile", 120, 30);
    tmux.run(&["set-option", "-g", "set-clipboard", "on"]);
    tmux.run(&["set-option", "-g", "allow-rename", "on"]);
    tmux.run(&["select-pane", "-t", &tmux.session, "-T", "E2E-TITLE"]);
    let before = title_and_buffers(&tmux);
    assert_eq!(before.0, "E2E-TITLE");
    let bin = env!("CARGO_BIN_EXE_clawdeck");
    let cfg = config.display();
    tmux.command(&format!(
        "{bin} --config {cfg} invoke read -p '{{\"file_path\": \"evil.txt\"}}'; echo INVOKE-$((1+1))"
    ));
    let screen = tmux.wait_for("INVOKE-2", Duration::from_secs(10));
    assert!(screen.contains("beforered after"), "{screen}");
    tmux.command(&format!(
        "{bin} --config {cfg} route -m hi; {bin} --config {cfg} route -m hi --json >/dev/null; echo ROUTE-$((1+1))"
    ));
    let screen = tmux.wait_for("ROUTE-2", Duration::from_secs(20));
    assert!(screen.contains("remote says hi"), "{screen}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        title_and_buffers(&tmux),
        before,
        "title and paste buffers unchanged"
    );
    // The same bytes with --raw do reach the terminal: the check above can fail.
    tmux.command(&format!(
        "{bin} --config {cfg} --raw invoke read -p '{{\"file_path\": \"evil.txt\"}}'; echo RAW-$((1+1))"
    ));
    tmux.wait_for("RAW-2", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(300));
    let after = title_and_buffers(&tmux);
    assert!(
        after.0.contains("PWNED") || after.1.contains("pwned") || after.1.contains("buffer"),
        "--raw passes the sequences through: {after:?}"
    );
}

/// One MCP request over HTTP with curl; returns the response headers and body.
fn mcp_post(url: &str, token: &str, session: Option<&str>, body: &str) -> String {
    let mut cmd = Command::new("curl");
    // Bounded: a call that is never answered fails the test instead of hanging it.
    cmd.args(["-s", "-i", "--max-time", "120", "-X", "POST", url])
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args(["-H", "Content-Type: application/json"])
        .args(["-H", "Accept: application/json, text/event-stream"]);
    if let Some(session) = session {
        cmd.args(["-H", &format!("Mcp-Session-Id: {session}")]);
    }
    let out = cmd.args(["-d", body]).output().expect("curl runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[ignore = "needs tmux and curl: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_console_hosts_mcp_and_shows_a_clients_call_in_the_queue() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(dir.path());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let tmux = Tmux::start("mcphost", 120, 30);
    tmux.command(&format!(
        "{} --openclaw-version seed --config {} --agent ops --mcp-listen 127.0.0.1:{port} --mcp-token e2e-token; echo CLAWDECK-EXITED=$?",
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    tmux.wait_for("Tools", Duration::from_secs(10));
    tmux.wait_for(&format!("MCP: {url}"), Duration::from_secs(5));
    tmux.keys(&["2"]);
    tmux.wait_for("Queue", Duration::from_secs(5));

    // A client on the 2025-06-18 protocol: initialize, initialized, then a call that takes a while.
    let init = mcp_post(
        &url,
        "e2e-token",
        None,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e-client","version":"1"}}}"#,
    );
    let session = init
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id in:\n{init}"));
    mcp_post(
        &url,
        "e2e-token",
        Some(&session),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    let call_url = url.clone();
    let call_session = session.clone();
    let call = std::thread::spawn(move || {
        mcp_post(
            &call_url,
            "e2e-token",
            Some(&call_session),
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"exec","arguments":{"command":"sleep 3; echo mcp-call-done"}}}"#,
        )
    });
    let screen = tmux.wait_for("sleep 3", Duration::from_secs(10));
    assert!(
        screen.contains("exec") && screen.contains("· e2e-client"),
        "the client's call is in the Queue, naming the client:\n{screen}"
    );
    let answer = call.join().expect("the call thread");
    assert!(answer.contains("mcp-call-done"), "{answer}");
    let after = tmux.screen();
    assert!(
        !after.contains("CLAWDECK-EXITED") && !after.contains("panicked"),
        "{after}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

/// The programs of `tools` that do not run here (`tool -V` fails), for a visible skip.
fn missing(tools: &[&str]) -> Vec<String> {
    tools
        .iter()
        .filter(|tool| {
            !Command::new(tool)
                .arg("-V")
                .output()
                .is_ok_and(|out| out.status.success())
        })
        .map(|tool| tool.to_string())
        .collect()
}

/// An MCP session over HTTP with curl (2025-06-18 protocol): initialize, initialized; returns
/// the session id.
fn mcp_session(url: &str, token: &str, client: &str) -> String {
    let init = mcp_post(
        url,
        token,
        None,
        &format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"{client}","version":"1"}}}}}}"#
        ),
    );
    let session = init
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id in:\n{init}"));
    mcp_post(
        url,
        token,
        Some(&session),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    session
}

/// A `tools/call` in a thread of its own (it answers when the call ends); the answer's raw
/// HTTP response (SSE frames) comes back through the handle.
fn mcp_call_in_background(
    url: &str,
    session: &str,
    id: u32,
    tool: &str,
    arguments: serde_json::Value,
) -> std::thread::JoinHandle<String> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    })
    .to_string();
    let (url, session) = (url.to_string(), session.to_string());
    std::thread::spawn(move || mcp_post(&url, "e2e-token", Some(&session), &body))
}

/// The `result` of the JSON-RPC answer in an SSE response.
fn call_result(raw: &str) -> serde_json::Value {
    raw.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<serde_json::Value>(d.trim()).ok())
        .find_map(|m| m.get("result").cloned())
        .unwrap_or_else(|| panic!("no result in the answer:\n{raw}"))
}

fn wait_gone(pids: &[u32]) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    for pid in pids {
        assert!(!alive(*pid), "process {pid} survived the kill");
    }
}

#[test]
#[ignore = "needs tmux and curl: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn an_mcp_clients_router_run_and_exec_are_killed_from_the_console() {
    let absent = missing(&["tmux", "curl"]);
    if !absent.is_empty() {
        eprintln!(
            "SKIPPED an_mcp_clients_router_run_and_exec_are_killed_from_the_console: {absent:?} not installed"
        );
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(dir.path());
    let pidfile = dir.path().join("fake.pid");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let tmux = Tmux::start("mcpkill", 160, 40);
    tmux.command(&format!(
        "FAKE_PIDFILE={} {} --openclaw-version seed --config {} --agent ops --mcp-listen 127.0.0.1:{port} --mcp-token e2e-token; echo CLAWDECK-EXITED=$?",
        pidfile.display(),
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    tmux.wait_for("Tools", Duration::from_secs(10));
    tmux.wait_for(&format!("MCP: {url}"), Duration::from_secs(5));
    let session = mcp_session(&url, "e2e-token", "e2e-client");

    // The client's clawbot_router run streams in the Router view (the fake streams, then hangs).
    let router_call = mcp_call_in_background(
        &url,
        &session,
        2,
        "clawbot_router",
        serde_json::json!({"message": "summarise via mcp", "agent": "ops"}),
    );
    tmux.keys(&["3"]);
    tmux.wait_for("stream-hang", Duration::from_secs(15));
    let screen = tmux.wait_for("grandchild=", Duration::from_secs(5));
    assert!(screen.contains("● running"), "{screen}");
    assert!(screen.contains("stream line 5"), "{screen}");
    let grandchild = number_after(&screen, "grandchild=").expect("grandchild pid on screen");
    let child: u32 = std::fs::read_to_string(&pidfile)
        .expect("the fake wrote its pid")
        .trim()
        .parse()
        .expect("a pid");
    assert!(alive(child) && alive(grandchild));
    // The operator kills it (after the question); the client gets the kill text.
    tmux.keys(&["x"]);
    tmux.wait_for("Kill run #1 (ops)?", Duration::from_secs(5));
    assert!(alive(child), "asking kills nothing");
    tmux.keys(&["y"]);
    tmux.wait_for("run ■ killed", Duration::from_secs(10));
    let answer = call_result(&router_call.join().expect("the router call thread"));
    let text = answer["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains(clawdeck_router::texts::KILLED),
        "the client reads the kill: {answer}"
    );
    assert!(
        text.contains("stream line 5"),
        "and what streamed: {answer}"
    );
    assert_eq!(answer["isError"], true, "{answer}");
    wait_gone(&[child, grandchild]);

    // The client's exec, running: killed from the Queue view (after the question).
    let exec_pid = dir.path().join("exec.pid");
    let exec_call = mcp_call_in_background(
        &url,
        &session,
        3,
        "exec",
        serde_json::json!({
            "command": format!("sleep 300 & echo $! > {}; wait", exec_pid.display()),
            "yieldMs": 600000,
        }),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let sleeper: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&exec_pid)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the exec never started");
        std::thread::sleep(Duration::from_millis(50));
    };
    tmux.keys(&["2"]);
    tmux.wait_for("Entries of lane", Duration::from_secs(5));
    // The lanes are sorted: cron, main, ...; Enter puts the cursor on main's first entry.
    tmux.keys(&["Down"]);
    tmux.wait_for("Entries of lane main", Duration::from_secs(5));
    tmux.keys(&["Enter", "x"]);
    let screen = tmux.wait_for("Kill call #", Duration::from_secs(5));
    assert!(screen.contains("· e2e-client)?"), "{screen}");
    assert!(alive(sleeper), "asking kills nothing");
    tmux.keys(&["y"]);
    tmux.wait_for("■ killed by the operator", Duration::from_secs(10));
    let answer = call_result(&exec_call.join().expect("the exec call thread"));
    let text = answer["content"][0]["text"].as_str().unwrap_or_default();
    assert_eq!(text, "exec: killed by the operator", "{answer}");
    assert_eq!(answer["isError"], true, "{answer}");
    assert_eq!(
        answer["_meta"]["clawdeck/details"]["killedBy"], "operator",
        "{answer}"
    );
    wait_gone(&[sleeper]);

    let screen = tmux.screen();
    assert!(
        !screen.contains("CLAWDECK-EXITED") && !screen.contains("panicked"),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn a_200_kb_bracketed_paste_lands_and_is_checked_without_another_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(dir.path());
    // About 200 KB over 25,003 lines; pasted before the skeleton's `{`, so the check reports
    // the join on the paste's last line: proof that all of it arrived and was validated.
    let mut big = String::from("{\n  \"path\": \"");
    big.push_str(&"a".repeat(100_000));
    big.push_str("\"\n");
    big.push_str(&"  \n".repeat(25_000));
    big.push('}');
    let file = dir.path().join("big.json");
    std::fs::write(&file, &big).expect("write paste");
    let tmux = Tmux::start("paste", 160, 40);
    tmux.command(&format!(
        "{} --openclaw-version seed --config {}; echo CLAWDECK-EXITED=$?",
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    tmux.wait_for("Tools × layers", Duration::from_secs(10));
    tmux.keys(&["4"]);
    tmux.wait_for("Tools (", Duration::from_secs(5));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Parameters of read · ✓ valid", Duration::from_secs(5));
    tmux.run(&["load-buffer", "-b", "big", &file.display().to_string()]);
    // -p: bracketed, as a terminal pastes when the application asked for it.
    tmux.run(&["paste-buffer", "-p", "-b", "big", "-t", &tmux.session]);
    // No further key: the paste is one event, and the pause-then-check runs on the tick.
    let screen = tmux.wait_for("line 25003 column 2", Duration::from_secs(10));
    assert!(screen.contains("trailing characters"), "{screen}");
    // Separate sends: ESC and `q` together would read as Alt-q.
    tmux.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

/// The console refuses a config real OpenClaw refuses (an unknown tool profile) the way it
/// refuses any broken config: the error on the terminal, exit 2, no screen taken over.
#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_console_refuses_to_start_on_an_unknown_profile() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("openclaw.json5");
    std::fs::write(
        &config,
        "{\n  agents: { list: [{ id: \"main\", tools: { profile: \"codng\" } }] },\n}\n",
    )
    .expect("write config");
    let tmux = Tmux::start("badprofile", 160, 20);
    tmux.command(&format!(
        "{} --config {}; echo CLAWDECK-EXITED=$?",
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    // The typed line holds `CLAWDECK-EXITED=$?`; only the echo has the status.
    let screen = tmux.wait_for("CLAWDECK-EXITED=2", Duration::from_secs(15));
    // The message is longer than a row: rows joined.
    let screen = screen.replace('\n', "");
    assert!(
        screen.contains("unknown tool profile \"codng\"")
            // OpenClaw names it in the roster it converts the list to, and says where it is written.
            && screen.contains("(at agents.entries.main.tools.profile)")
            && screen.contains("written at agents.list[0].tools.profile")
            && screen.contains(r#""minimal", "coding", "messaging", "full""#),
        "{screen}"
    );
}

/// The pid of the pane's foreground `clawdeck` (a child of the pane's shell).
fn clawdeck_in_pane(tmux: &Tmux) -> i32 {
    let shell: i32 = tmux.display("#{pane_pid}").parse().expect("pane pid");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let found = std::fs::read_dir("/proc")
            .expect("/proc")
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .find(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                let ppid = stat
                    .rsplit(')')
                    .next()
                    .and_then(|rest| rest.split_whitespace().nth(1))
                    .and_then(|p| p.parse::<i32>().ok());
                stat.contains("(clawdeck)") && ppid == Some(shell)
            });
        if let Some(pid) = found {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "no clawdeck under the pane's shell"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The terminal's line discipline as the shell's next command sees it: `icanon echo` when
/// restored, `-icanon -echo` when left raw.
fn tty_modes(tmux: &Tmux, tag: &str) -> String {
    tmux.command(&format!(
        "stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo {tag}-$((1+1))"
    ));
    let done = format!("{tag}-2");
    let screen = tmux.wait_for(&done, Duration::from_secs(5));
    screen
        .lines()
        .find(|l| l.trim_end().ends_with(&done) && !l.contains("stty"))
        .unwrap_or_default()
        .trim_end()
        .trim_end_matches(&done)
        .trim()
        .to_string()
}

/// SIGTERM, SIGHUP and SIGINT (sent by `kill`, as a supervisor or a closing terminal does) to
/// the console during a router run whose fake openclaw has a grandchild sleeping: the console
/// exits through the stop policy with 128 + n, the run's tree is gone, and the terminal is
/// back to normal (main screen, cooked mode with echo).
#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn stop_signals_to_the_console_kill_the_run_and_restore_the_terminal() {
    use nix::sys::signal::Signal;
    for signal in [Signal::SIGTERM, Signal::SIGHUP, Signal::SIGINT] {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = write_config(dir.path());
        let pidfile = dir.path().join("fake.pid");
        let tmux = Tmux::start(&format!("stop{}", signal as i32), 160, 48);
        tmux.command(&format!(
            "FAKE_PIDFILE={} {} --openclaw-version seed --config {}; echo CLAWDECK-EXITED=$?",
            pidfile.display(),
            env!("CARGO_BIN_EXE_clawdeck"),
            config.display()
        ));
        tmux.wait_for("Tools × layers", Duration::from_secs(10));
        tmux.keys(&["3"]);
        tmux.wait_for("no router runs yet", Duration::from_secs(5));
        tmux.keys(&["r", "C-u"]);
        tmux.text("ops");
        tmux.keys(&["Tab"]);
        tmux.text("summarise the logs");
        tmux.keys(&["Enter"]);
        let screen = tmux.wait_for("grandchild=", Duration::from_secs(10));
        let grandchild = number_after(&screen, "grandchild=").expect("grandchild pid");
        let child: u32 = std::fs::read_to_string(&pidfile)
            .expect("the fake wrote its pid")
            .trim()
            .parse()
            .expect("a pid");
        assert!(alive(child) && alive(grandchild));

        let console = clawdeck_in_pane(&tmux);
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(console), signal).expect("kill");
        let code = 128 + signal as i32;
        let screen = tmux.wait_for(&format!("CLAWDECK-EXITED={code}"), Duration::from_secs(15));
        let label = if signal == Signal::SIGINT {
            "Ctrl-C"
        } else {
            signal.as_str()
        };
        assert!(
            screen.contains(&format!("clawdeck: {label}: stopped")),
            "the stop policy, not the signal's default action, ended it (child {child} grandchild {grandchild}):\n{screen}"
        );
        assert_eq!(
            tmux.display("#{alternate_on}"),
            "0",
            "{signal}: alternate screen left"
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        while (alive(child) || alive(grandchild)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(!alive(child), "{signal}: the fake openclaw survived");
        assert!(!alive(grandchild), "{signal}: its grandchild survived");
        assert_eq!(
            tty_modes(&tmux, "STTY"),
            "icanon echo",
            "{signal}: the terminal is back in cooked mode with echo"
        );
        tmux.command("echo restored-$((40+2))");
        tmux.wait_for("restored-42", Duration::from_secs(5));
    }
}

/// A fake `openclaw` whose `--version` writes its pid to `pidfile`, sleeps `seconds`, then
/// prints `OpenClaw 2026.9.6 (fake)`.
fn slow_version_openclaw(dir: &Path, seconds: u32, pidfile: &Path) -> PathBuf {
    let path = dir.join("slow-version-openclaw");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then\n  echo $$ > {}\n  sleep {seconds}\n  echo 'OpenClaw 2026.9.6 (fake)'\n  exit 0\nfi\necho run\n",
            pidfile.display()
        ),
    )
    .expect("write fake");
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    path
}

/// Starts the console on the fixture config with `bin` as the installed OpenClaw (a cache of
/// its own, so the probe really runs) and returns when the command was typed.
fn console_probing(tmux: &Tmux, dir: &Path, bin: &Path) -> Instant {
    let config = write_config(dir);
    tmux.command(&format!(
        "OPENCLAW_BIN={} XDG_CACHE_HOME={} {} --config {}; echo CLAWDECK-EXITED=$?",
        bin.display(),
        dir.join("cache").display(),
        env!("CARGO_BIN_EXE_clawdeck"),
        config.display()
    ));
    Instant::now()
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_first_frame_does_not_wait_for_a_hanging_openclaw_version() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("probe.pid");
    let bin = slow_version_openclaw(dir.path(), 10, &pidfile);
    let tmux = Tmux::start("probehang", 160, 48);
    let typed = console_probing(&tmux, dir.path(), &bin);
    let screen = tmux.wait_for("detecting OpenClaw version…", Duration::from_secs(4));
    let first_frame = typed.elapsed();
    assert!(screen.contains("Tools × layers"), "{screen}");
    assert!(
        first_frame < Duration::from_millis(2500),
        "the first frame took {first_frame:?} (the probe hangs for 10 s)"
    );
    // The probe runs meanwhile, under its 5 s timeout; then the header says it is unknown.
    let probe: u32 = std::fs::read_to_string(&pidfile)
        .expect("the probe started")
        .trim()
        .parse()
        .expect("a pid");
    let screen = tmux.wait_for("OpenClaw version unknown", Duration::from_secs(10));
    assert!(screen.contains("no answer within 5 s"), "{screen}");
    assert!(!alive(probe), "the timed-out probe was killed");
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_header_shows_the_installed_version_once_openclaw_answers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("probe.pid");
    let bin = slow_version_openclaw(dir.path(), 3, &pidfile);
    let tmux = Tmux::start("probeslow", 160, 48);
    let typed = console_probing(&tmux, dir.path(), &bin);
    tmux.wait_for("detecting OpenClaw version…", Duration::from_secs(4));
    let first_frame = typed.elapsed();
    assert!(
        first_frame < Duration::from_millis(2500),
        "the first frame took {first_frame:?} (the probe answers after 3 s)"
    );
    let screen = tmux.wait_for("OpenClaw 2026.9.6", Duration::from_secs(10));
    assert!(!screen.contains("detecting OpenClaw version"), "{screen}");
    assert!(
        screen.contains("OpenClaw 2026.9.6 detected: pack 2026.9"),
        "the status line says which pack now answers:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn quitting_while_openclaw_version_hangs_leaves_no_probe_behind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("probe.pids");
    // `--version` hangs with a child of its own in its process group.
    let bin = dir.path().join("hanging-openclaw");
    std::fs::write(
        &bin,
        format!(
            "#!/bin/sh\nsleep 60 &\necho $$ $! > {}\nwait\n",
            pidfile.display()
        ),
    )
    .expect("write fake");
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let tmux = Tmux::start("probequit", 160, 48);
    console_probing(&tmux, dir.path(), &bin);
    tmux.wait_for("detecting OpenClaw version…", Duration::from_secs(4));
    let deadline = Instant::now() + Duration::from_secs(5);
    let pids: Vec<u32> = loop {
        let pids: Vec<u32> = std::fs::read_to_string(&pidfile)
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        if pids.len() == 2 {
            break pids;
        }
        assert!(Instant::now() < deadline, "the probe never started");
        std::thread::sleep(Duration::from_millis(50));
    };
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
    let deadline = Instant::now() + Duration::from_secs(3);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in pids {
        assert!(!alive(pid), "probe process {pid} outlived the console");
    }
}

/// The console on the fixture config with a fresh HOME and state dir under `dir`, in tmux at
/// `width`x`height`; `router_bin` is the fake `openclaw` its router runs.
fn console_on_a_fresh_home(
    name: &str,
    dir: &Path,
    width: u16,
    height: u16,
    router_bin: &Path,
) -> Tmux {
    let config = dir.join("openclaw.json5");
    std::fs::copy(fixture("openclaw.json5"), &config).expect("copy config");
    std::fs::write(
        dir.join("clawdeck.json5"),
        format!(
            "{{ workspace: {:?}, router: {{ bin: {:?} }} }}",
            fixture("workspace").display().to_string(),
            router_bin.display().to_string()
        ),
    )
    .expect("write settings");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let tmux = Tmux::start(name, width, height);
    tmux.command(&format!(
        "HOME={home} XDG_STATE_HOME={home}/state {bin} --openclaw-version seed --config {config}; echo CLAWDECK-EXITED=$?",
        home = home.display(),
        bin = env!("CARGO_BIN_EXE_clawdeck"),
        config = config.display()
    ));
    tmux.wait_for("Tools × layers", Duration::from_secs(10));
    tmux
}

/// Quits the console; it must exit with 0 (the echoed command holds `=$?`, not `=0`).
fn quit(tmux: &Tmux) {
    tmux.keys(&["q"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

/// Whether the Policy path pane shows the line of layer `id`.
fn path_shows(screen: &str, id: &str) -> bool {
    let cell = format!(" {id:<17}");
    screen
        .lines()
        .any(|l| l.contains(&cell) && l.trim_start_matches('│').starts_with(' '))
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_policy_path_scrolls_to_every_layer_at_80x24() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tmux = console_on_a_fresh_home(
        "pathscroll",
        dir.path(),
        80,
        24,
        &fixture("fake-openclaw-stream"),
    );
    let screen = tmux.wait_for("K/J scroll", Duration::from_secs(5));
    assert!(path_shows(&screen, "owner"), "{screen}");
    assert!(!path_shows(&screen, "subagent"), "{screen}");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..10 {
        let screen = tmux.screen();
        for id in [
            "owner",
            "profile",
            "provider_profile",
            "global",
            "agent",
            "group",
            "sandbox",
            "subagent",
        ] {
            if path_shows(&screen, id) {
                seen.insert(id);
            }
        }
        tmux.keys(&["J"]);
        std::thread::sleep(Duration::from_millis(150));
    }
    assert_eq!(seen.len(), 8, "every layer scrolled into sight: {seen:?}");
    let screen = tmux.wait_for("↑ lines", Duration::from_secs(5));
    assert!(path_shows(&screen, "subagent"), "{screen}");
    // Shift-Up scrolls back; the selected tool never moved.
    tmux.keys(&["S-Up"]);
    tmux.wait_for("↑↓ lines", Duration::from_secs(5));
    assert!(tmux.screen().contains("›read"), "{}", tmux.screen());
    quit(&tmux);
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_new_run_dialog_takes_the_task_first_and_picks_the_agent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tmux = console_on_a_fresh_home(
        "newrun",
        dir.path(),
        120,
        40,
        &fixture("fake-openclaw-stream"),
    );
    tmux.keys(&["3"]);
    tmux.wait_for("no router runs yet", Duration::from_secs(5));
    tmux.keys(&["r"]);
    tmux.wait_for("New router run", Duration::from_secs(5));
    // Typed at once, the task goes to the message; the agent stays the context's.
    tmux.text("summarise the logs");
    let screen = tmux.wait_for("message: summarise the logs", Duration::from_secs(5));
    assert!(screen.contains("agent: ‹ main ›"), "{screen}");
    tmux.keys(&["Down"]);
    tmux.wait_for("agent: ‹ ops ›", Duration::from_secs(5));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("● running", Duration::from_secs(10));
    let row = screen
        .lines()
        .find(|l| l.contains("#1"))
        .unwrap_or_default()
        .to_string();
    assert!(
        row.contains("ops") && row.contains("summarise the logs"),
        "{screen}"
    );
    // Quitting asks (the run is live); yes kills it.
    tmux.keys(&["q"]);
    tmux.wait_for("Quit and kill", Duration::from_secs(5));
    tmux.keys(&["y"]);
    tmux.wait_for("CLAWDECK-EXITED=0", Duration::from_secs(10));
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn y_after_a_200k_line_flood_saves_every_line_up_to_the_stated_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let flood = dir.path().join("flood");
    std::fs::write(
        &flood,
        "#!/bin/sh\nawk 'BEGIN { for (i = 1; i <= 200000; i++) printf \"flood line %06d the quick brown fox jumps over the lazy dog\\n\", i }'\n",
    )
    .expect("flood script");
    std::fs::set_permissions(&flood, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let tmux = console_on_a_fresh_home("flood", dir.path(), 160, 48, &flood);
    tmux.keys(&["3"]);
    tmux.wait_for("no router runs yet", Duration::from_secs(5));
    tmux.keys(&["r"]);
    tmux.text("flood");
    tmux.keys(&["Enter"]);
    tmux.wait_for("✓ completed", Duration::from_secs(30));
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("the record stops at its 8 MiB cap", Duration::from_secs(30));
    let file = dir.path().join("home/state/clawdeck/router-run-1.txt");
    let text = std::fs::read_to_string(&file).expect("the copy's file");
    let lines: Vec<&str> = text.lines().collect();
    let (end, output) = lines.split_last().expect("lines");
    for (i, line) in output.iter().enumerate() {
        assert_eq!(
            *line,
            format!(
                "flood line {:06} the quick brown fox jumps over the lazy dog",
                i + 1
            ),
            "line {} of {}",
            i + 1,
            file.display()
        );
    }
    let kept = output.len();
    assert!(kept > 100_000 && kept < 200_000, "{kept}");
    assert!(
        end.starts_with(&format!(
            "[clawdeck: the record stops here after line {kept}: "
        )) && end.contains(&format!("{} more lines", 200_000 - kept)),
        "{end}"
    );
    // The status line says the same (it may be cut at the pane's width).
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("{kept} lines")) && flat.contains("8 MiB cap"),
        "{screen}"
    );
    quit(&tmux);
}

#[test]
#[ignore = "needs tmux: cargo test --test e2e_tmux -- --ignored (.ci/run does)"]
fn the_tab_bar_shows_every_view_at_120_60_and_39_columns() {
    for width in [120u16, 60, 39] {
        let dir = tempfile::tempdir().expect("tempdir");
        let tmux = console_on_a_fresh_home(
            &format!("tabs{width}"),
            dir.path(),
            width,
            20,
            &fixture("fake-openclaw-stream"),
        );
        for (key, title) in [
            ("1", "Policy"),
            ("4", "Invoke"),
            ("8", "Approvals"),
            ("0", "Diff"),
        ] {
            tmux.keys(&[key]);
            let tab = format!("{key} {title}");
            let screen = tmux.wait_for(&tab, Duration::from_secs(5));
            // The bar up to the config's place (a temp path may hold digits).
            let line = screen.lines().next().unwrap_or_default();
            let bar = line.split('/').next().unwrap_or_default();
            assert!(bar.contains(&tab), "{width}: the active tab whole: {bar}");
            for k in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] {
                assert!(bar.contains(k), "{width}: tab {k} missing: {bar}");
            }
            assert!(!screen.contains("too small"), "{screen}");
        }
        quit(&tmux);
    }
}
