//! Hostile gateway answers (issue 31): what a gateway sends is bounded before it is parsed, and
//! a bad answer is an error naming the gateway, never a crash.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::json;
use support::fake_gateway::{FakeGateway, Script, clawdeck_on};
use support::peak_until_exit;

/// A `config.get` whose `raw` is nested 200,000 levels deep: `tools`, `explain` and `lint`
/// with `--remote-config` refuse it with the place named (they died of a stack overflow,
/// exit 134, when the text was parsed to be redacted before the depth check).
#[test]
fn a_remote_config_nested_200000_deep_is_a_located_error_not_a_crash() {
    let raw = format!(
        "{{ tools: {}1{} }}",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let gateway = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
               "raw": raw, "includedPaths": [], "hash": "h"}),
    ));
    let state = tempfile::tempdir().unwrap();
    for command in [
        vec!["tools", "--json"],
        vec!["explain", "exec"],
        vec!["lint"],
    ] {
        let out = clawdeck_on(&gateway, state.path())
            .args(&command)
            .args(["--remote-config", "--gateway", &gateway.url])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(
            stderr.contains("nested deeper than 128 levels")
                && stderr.contains("/srv/openclaw/openclaw.json on gateway"),
            "{command:?}: {stderr}"
        );
    }
}

/// A gateway whose secret is a `tokenFile` at `token_file` (as written in clawdeck.json5), for
/// `gateway status` from the home `home`: its exit code, stderr and how long it took.
fn status_with_token_file(
    gateway: &FakeGateway,
    home: &std::path::Path,
    token_file: &str,
) -> (Option<i32>, String, std::time::Duration) {
    let dir = home.join(".config/clawdeck");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("clawdeck.json5"),
        format!(
            r#"{{ gateways: [ {{ name: "g", url: "{}", tokenFile: "{token_file}" }} ] }}"#,
            gateway.url
        ),
    )
    .unwrap();
    run_in_home(home, &["gateway", "status"])
}

/// clawdeck with `args` from the home `home` (its XDG dirs under it, no OpenClaw config, no
/// gateway or version from the environment): its exit code, stderr and how long it took.
fn run_in_home(
    home: &std::path::Path,
    args: &[&str],
) -> (Option<i32>, String, std::time::Duration) {
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_GATEWAY_TOKEN")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// `tokenFile` is read as the device key is: a FIFO is refused at once (it hung every gateway
/// command), `~` is the home directory (the docs' own `~/.secrets/gw-token` failed), and a
/// token file others can read is refused with the fix named.
#[test]
fn a_token_file_is_a_private_regular_file_and_tilde_is_home() {
    use std::os::unix::fs::PermissionsExt;
    let gateway = FakeGateway::start(Script::everything());
    let home = tempfile::tempdir().unwrap();
    let secrets = home.path().join(".secrets");
    std::fs::create_dir_all(&secrets).unwrap();

    let fifo = secrets.join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let (code, stderr, took) = status_with_token_file(&gateway, home.path(), "~/.secrets/fifo");
    assert_ne!(code, Some(0), "{stderr}");
    assert!(
        took < std::time::Duration::from_secs(5),
        "took {took:?}: {stderr}"
    );
    assert!(
        stderr.contains("tokenFile") && stderr.contains("FIFO"),
        "{stderr}"
    );

    let token = secrets.join("gw-token");
    std::fs::write(&token, "fake-token\n").unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, stderr, _) = status_with_token_file(&gateway, home.path(), "~/.secrets/gw-token");
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("chmod 600"), "{stderr}");

    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, stderr, _) = status_with_token_file(&gateway, home.path(), "~/.secrets/gw-token");
    assert_eq!(code, Some(0), "the token under ~ is read: {stderr}");
}

/// Lists a gateway sends are bounded by what the command promises, and what was left out is
/// said: `sessions.list` pages that ignore `limit`, a `chat.history` of 100,000 messages, a
/// `grants.list` of 20,000 after 500 were asked for.
#[test]
fn gateway_lists_stop_at_what_the_command_promises_and_say_what_was_left_out() {
    let gateway = FakeGateway::start(
        Script::everything()
            .answer_with("sessions.list", |params| {
                let offset = params["offset"].as_u64().unwrap_or(0);
                let rows: Vec<serde_json::Value> = (0..2_000)
                    .map(
                        |i| json!({"key": format!("agent:main:s{}", offset + i), "kind": "direct"}),
                    )
                    .collect();
                json!({"sessions": rows, "hasMore": true, "nextOffset": offset + 2_000,
                       "totalCount": 1_000_000})
            })
            .answer_with("chat.history", |params| {
                let messages: Vec<serde_json::Value> = (0..100_000)
                    .map(|i| json!({"role": "user", "content": format!("m{i}"), "timestamp": i}))
                    .collect();
                json!({"sessionKey": params["sessionKey"], "messages": messages,
                       "totalMessages": 100_000, "hasMore": false})
            })
            .answer_with("exec.approval.grants.list", |_| {
                let grants: Vec<serde_json::Value> = (0..20_000)
                    .map(
                        |i| json!({"grantId": format!("g{i}"), "command": "ls", "agentId": "main"}),
                    )
                    .collect();
                json!({"grants": grants})
            }),
    );
    let state = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = clawdeck_on(&gateway, state.path())
            .args(args)
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (stdout, stderr) = run(&["gateway", "sessions", "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    let rows = listed["sessions"].as_array().map_or(0, Vec::len);
    assert!(rows <= 5_000, "{rows} sessions listed");
    assert!(stderr.contains("left out"), "{stderr}");

    let (stdout, stderr) = run(&["gateway", "history", "agent:main:main", "--json"]);
    let history: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    let shown = history["messages"]
        .as_array()
        .or(history["entries"].as_array())
        .map_or(0, Vec::len);
    assert!(
        shown <= 200,
        "{shown} messages printed: {}",
        &stdout[..300.min(stdout.len())]
    );
    assert!(
        stdout.contains("99800") || stderr.contains("99800"),
        "the left-out count is said: {stderr}"
    );

    let (stdout, stderr) = run(&["approvals", "grants", "--json"]);
    let grants: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    assert_eq!(grants["grants"].as_array().map_or(0, Vec::len), 500);
    assert!(
        stderr.contains("19500 grants") && stderr.contains("left out"),
        "{stderr}"
    );
}

/// A pack file stored for `version` under the data dir of `home`.
fn store_pack(
    home: &std::path::Path,
    version: &str,
    tools: Vec<serde_json::Value>,
) -> std::path::PathBuf {
    let dir = home.join("data/clawdeck/packs");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{version}.json"));
    let pack = json!({"version": version, "capturedFrom": "a test", "tools": tools,
                      "groups": {}, "profiles": {}});
    std::fs::write(&path, pack.to_string()).unwrap();
    path
}

/// `clawdeck tools` with the pack of `version`, from the home `home`.
fn tools_with_pack(
    home: &std::path::Path,
    version: &str,
) -> (Option<i32>, String, std::time::Duration) {
    run_in_home(home, &["tools", "--openclaw-version", version])
}

/// `catalog sync` stores only what a later load takes (a 70,000-character tool id, or 20,000
/// tools, is refused and nothing stored), and a pack stored before (by an older clawdeck, or by
/// hand) with either is skipped with a warning naming its file, quickly: later commands neither
/// panic nor slow down.
#[test]
fn a_synced_catalog_cannot_break_or_slow_every_later_command() {
    let long_id = "x".repeat(70_000);
    let gateway = FakeGateway::start(Script::everything().answer(
        "tools.catalog",
        json!({"agentId": "main", "profiles": [{"id": "coding"}],
               "groups": [{"id": "fs", "tools": [{"id": long_id, "description": "d"}]}]}),
    ));
    let home = tempfile::tempdir().unwrap();
    let out = clawdeck_on(&gateway, home.path())
        .args(["catalog", "sync"])
        .env("XDG_DATA_HOME", home.path().join("data"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("a tool name has 1 to 64") && stderr.contains("nothing stored"),
        "{stderr}"
    );
    assert!(
        !home
            .path()
            .join("data/clawdeck/packs/2026.9.6.json")
            .exists()
    );

    let tool =
        |name: &str| json!({"name": name, "summary": "s", "section": "fs", "source": "core"});
    let stored = store_pack(home.path(), "2026.9.77", vec![tool(&long_id)]);
    let (code, stderr, _) = tools_with_pack(home.path(), "2026.9.77");
    assert!(code.is_some(), "no crash: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(&stored.display().to_string()),
        "the file is named: {stderr}"
    );

    let many: Vec<serde_json::Value> = (0..20_000).map(|i| tool(&format!("t{i}"))).collect();
    let stored = store_pack(home.path(), "2026.9.78", many);
    let (code, stderr, took) = tools_with_pack(home.path(), "2026.9.78");
    assert!(code.is_some() && !stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(&stored.display().to_string()), "{stderr}");
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
}

/// `chat` with its stdout unread while the turn streams 100,000 deltas (100 MB): its memory
/// stays bounded (the events queued in front of a blocked stdout took it to 2 GB) and it ends
/// once the turn does.
#[test]
fn chat_with_an_unread_stdout_under_a_delta_flood_keeps_bounded_memory() {
    // A chat that falls behind asks `agent.wait` for the turn's end: answered as the real
    // gateway answers for a finished run.
    let gateway = FakeGateway::start(
        Script::everything()
            .chat_reply("hi")
            .chat_flood(100_000)
            .answer(
                "agent.wait",
                json!({"status": "ok", "stopReason": "stop",
                       "terminalReply": {"disposition": "visible", "text": "hi"}}),
            ),
    );
    let state = tempfile::tempdir().unwrap();
    let (read_end, write_end) = nix::unistd::pipe().unwrap();
    let started = std::time::Instant::now();
    let mut child = clawdeck_on(&gateway, state.path())
        .args(["chat", "--session", "agent:main:main", "-m", "hi", "--json"])
        .stdout(std::process::Stdio::from(write_end))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let peak = peak_until_exit(
        &mut child,
        started,
        std::time::Duration::from_secs(60),
        "chat",
    );
    drop(read_end);
    eprintln!("chat under a 100 MB delta flood, stdout unread: peak {peak} kB");
    // Formatting keeps up with the socket, so the queue in front of it stays short (80 MB
    // here; it passed 230 MB and kept growing before).
    assert!(peak < 200 * 1024, "peak memory {peak} kB");
}

/// 50,000 `sessions.changed` events arrive while the console's roster feed waits for its
/// `sessions.list` answer: at most its capacity of them wait (all of them did before), the rest
/// are said as a gap (`Lagged`), and the feed lists the sessions again after it.
#[test]
fn the_console_roster_feed_under_an_event_flood_stays_bounded_and_lists_again() {
    use clawdeck_gateway::feed::{RosterSink, spawn_roster_feed};
    use clawdeck_gateway::{
        Backoff, ClientEvent, DeviceIdentity, FEED_CAPACITY, GatewayAuth, GatewayEndpoint,
    };
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    const FLOOD: usize = 50_000;
    let mut script = Script::everything();
    for n in 0..FLOOD {
        script = script.event(
            "sessions.changed",
            json!({"sessionKey": format!("agent:main:s{n}"), "n": n}),
        );
    }
    let gateway = FakeGateway::start(script);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = seen.clone();
    let sink: RosterSink = Arc::new(move |_gateway, event| {
        let tag = match &event {
            ClientEvent::Event(frame) if frame.event == "sessions.changed" => "changed".into(),
            ClientEvent::Lagged { dropped } => format!("lagged {dropped}"),
            ClientEvent::Subscribed { method, .. } if method == "sessions.list" => {
                "snapshot".into()
            }
            _ => return true,
        };
        log.lock().unwrap().push(tag);
        true
    });
    let stop = tokio_util::sync::CancellationToken::new();
    runtime.block_on(async {
        spawn_roster_feed(
            vec![GatewayEndpoint {
                name: "fake".into(),
                url: gateway.url.clone(),
                auth: GatewayAuth::Token("t".into()),
                origin: "test".into(),
            }],
            DeviceIdentity::from_seed([7; 32]),
            Backoff::default(),
            sink,
            stop.clone(),
        );
        // Done when the sessions were listed again after a gap and every event of the flood
        // passed or was counted (a slow machine may still be sending when the first gap is
        // said).
        let settled = || {
            let seen = seen.lock().unwrap();
            let accounted: usize = seen
                .iter()
                .map(|t| match t.strip_prefix("lagged ") {
                    Some(n) => n.parse().unwrap_or(0),
                    None => usize::from(t == "changed"),
                })
                .sum();
            accounted > FLOOD
                && seen
                    .iter()
                    .position(|t| t.starts_with("lagged"))
                    .is_some_and(|at| seen[at..].iter().any(|t| t == "snapshot"))
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while !settled() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        stop.cancel();
    });
    let seen = seen.lock().unwrap();
    let changed = seen.iter().filter(|t| *t == "changed").count();
    let dropped: usize = seen
        .iter()
        .filter_map(|t| t.strip_prefix("lagged ")?.parse::<usize>().ok())
        .sum();
    // (`everything` sends a `sessions.changed` of its own too.)
    assert!(
        changed + dropped > FLOOD,
        "every event passed or was counted: {changed} passed, {dropped} dropped"
    );
    // An unbounded queue never drops: every event waited while the feed waited for its
    // list (how many the feed read in between depends on the machine's load).
    assert!(
        dropped > 0,
        "{changed} passed, none dropped (capacity {FEED_CAPACITY})"
    );
    let lagged_at = seen.iter().position(|t| t.starts_with("lagged")).unwrap();
    assert!(
        seen[lagged_at..].iter().any(|t| t == "snapshot"),
        "the sessions are listed again after the gap: {:?}",
        &seen[lagged_at..seen.len().min(lagged_at + 5)]
    );
}

/// A session key holding a C1 control (8-bit CSI), a bidi override and an isolate: `--json`
/// writes them as `\u009b`, `\u202e`, `\u2066` (they went out raw), and the JSON reads back
/// the same.
#[test]
fn json_output_escapes_c1_and_bidi_characters_and_keeps_the_value() {
    let key = "agent:main:\u{202e}txt.exe\u{9b}31m\u{2066}x";
    let gateway = FakeGateway::start(Script::everything().answer(
        "sessions.list",
        json!({"sessions": [{"key": key, "kind": "direct", "updatedAt": 1}]}),
    ));
    let state = tempfile::tempdir().unwrap();
    let out = clawdeck_on(&gateway, state.path())
        .args(["gateway", "sessions", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for raw in ['\u{9b}', '\u{202e}', '\u{2066}'] {
        assert!(
            !stdout.contains(raw),
            "U+{:04X} went out raw: {stdout}",
            raw as u32
        );
    }
    assert!(
        stdout.contains("\\u202e") && stdout.contains("\\u009b") && stdout.contains("\\u2066"),
        "{stdout}"
    );
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        value.to_string().contains(key),
        "the key reads back unchanged: {value}"
    );
}

/// A chat turn whose reader falls 20,000 deltas behind (the console redrawing, a slow
/// terminal): what waits is bounded, the gap is reported as a `Gap`, and the turn still ends
/// although its final event was among what was left out: the gateway's `agent.wait` says how.
#[test]
fn a_chat_turn_that_falls_behind_reports_the_gap_and_still_ends() {
    use clawdeck_gateway::chat::{ChatEvent, ChatRequest, run_turn};
    use clawdeck_gateway::{Backoff, ConnectOptions, DeviceIdentity, GatewayAuth, GatewayClient};
    use std::time::Duration;

    const FLOOD: usize = 20_000;
    let gateway = FakeGateway::start(
        Script::everything()
            .chat_reply("hi")
            .chat_flood(FLOOD)
            .answer(
                "agent.wait",
                json!({"status": "ok", "stopReason": "stop",
                       "terminalReply": {"disposition": "visible", "text": "the whole reply"}}),
            ),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (events, end) = runtime.block_on(async {
        let client = GatewayClient::connect(
            clawdeck_gateway::GatewayEndpoint {
                name: "fake".into(),
                url: gateway.url.clone(),
                auth: GatewayAuth::Token("fake-token".into()),
                origin: "test".into(),
            },
            DeviceIdentity::from_seed([9; 32]),
            ConnectOptions::default(),
            Backoff::default(),
        )
        .await
        .unwrap();
        let request = ChatRequest::new("agent:main:main", None, "hi");
        let mut seen = Vec::new();
        let end = tokio::time::timeout(
            Duration::from_secs(60),
            run_turn(&client, &request, std::future::pending(), |event| {
                // The reader stalls on its first delta while the flood arrives.
                let first_delta = matches!(event, ChatEvent::Delta { .. })
                    && !seen.iter().any(|e| matches!(e, ChatEvent::Delta { .. }));
                if first_delta {
                    std::thread::sleep(Duration::from_secs(3));
                }
                seen.push(event.clone());
            }),
        )
        .await
        .expect("the turn ended")
        .unwrap();
        client.close();
        (seen, end)
    });
    let deltas = events
        .iter()
        .filter(|e| matches!(e, ChatEvent::Delta { .. }))
        .count();
    let dropped: u64 = events
        .iter()
        .map(|e| match e {
            ChatEvent::Gap { dropped } => *dropped,
            _ => 0,
        })
        .sum();
    assert!(dropped > 0, "no gap reported ({deltas} deltas passed)");
    assert!(
        deltas <= 2 * clawdeck_gateway::FEED_CAPACITY,
        "{deltas} deltas passed, {dropped} dropped"
    );
    // The final event was dropped with the flood: the end is the one `agent.wait` gave.
    assert!(
        matches!(&end, ChatEvent::Final { text, .. } if text == "the whole reply"),
        "the turn ended: {end:?}"
    );
    assert!(gateway.methods().iter().any(|m| m == "agent.wait"));
}
