//! The MCP server's own cost (`cargo bench --bench mcp`), each against a baseline measured in the
//! same run:
//! - `tools/call` over stdio vs the same call through the pipeline in-process (`Pipeline::call`
//!   on a Deck for the same config): the difference is what MCP adds (framing, pipes, the SDK's
//!   dispatch). Target: under 1 ms at the median.
//! - `tools/list` over stdio with 1,000 plugin tools vs building the same list in-process.
//!   Target: under 10 ms at the median.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use clawdeck_core::context::PolicyContext;
use clawdeck_core::pipeline::CallRequest;
use clawdeck_deck::Deck;
use serde_json::{Value, json};

#[path = "support/timing.rs"]
mod timing;
use timing::{median, ms};

const CALLS: usize = 400;
const LISTS: usize = 60;
const PLUGIN_TOOLS: usize = 1_000;

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Server {
    fn start(config: &Path, state: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
            .arg("--config")
            .arg(config)
            .args(["mcp", "--no-watch"])
            .env("XDG_STATE_HOME", state)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("clawdeck mcp: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
        let stdout = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("stdout")));
        let mut server = Server {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        server.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, frame: &Value) {
        let mut line = frame.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("write to clawdeck mcp: {e}"));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .stdout
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("read from clawdeck mcp: {e}"));
            assert!(read > 0, "clawdeck mcp closed its stdout");
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad frame {e}: {line}"));
            if value["id"] == id {
                return value;
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_fixture(dir: &Path) {
    std::fs::create_dir_all(dir.join("ws")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("ws/tiny.txt"), "tiny\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(dir.join("plugins/many")).unwrap_or_else(|e| panic!("{e}"));
    let tools: Vec<Value> = (0..PLUGIN_TOOLS)
        .map(|i| {
            json!({"name": format!("bulk_tool_{i:04}"), "description": format!("Bulk tool {i}."),
                   "parameters": {"type": "object", "properties": {"x": {"type": "string"}}},
                   "command": ["true"]})
        })
        .collect();
    let manifest = json!({"id": "many", "name": "Many", "version": "0.1.0",
        "configSchema": {"type": "object", "properties": {}}, "clawdeck": {"tools": tools}});
    std::fs::write(
        dir.join("plugins/many/openclaw.plugin.json"),
        manifest.to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.join("openclaw.json5"),
        r#"{ tools: { profile: "coding", alsoAllow: ["many"] } }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.join("clawdeck.json5"),
        r#"{ workspace: "ws", openclawVersion: "2026.9", plugins: { dirs: ["plugins"] } }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

fn main() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_fixture(dir.path());
    let config = dir.path().join("openclaw.json5");
    let state = dir.path().join("state");
    let loaded = clawdeck_core::config::load(Some(&config)).unwrap_or_else(|e| panic!("{e}"));
    let deck = Deck::new(loaded, Some(config.clone()), &Default::default());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));

    let listed =
        clawdeck_mcp::listed_tools(&deck.config(), &deck.registry(), &PolicyContext::default())
            .unwrap_or_else(|e| panic!("{e}"));
    let plugin_listed = listed
        .iter()
        .filter(|t| t.name.starts_with("bulk_tool_"))
        .count();
    assert_eq!(plugin_listed, PLUGIN_TOOLS, "the plugin's tools are listed");

    let params = json!({"path": "tiny.txt"});
    // Baseline: the call through the pipeline, in-process.
    let mut direct = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let request = CallRequest::new("read", params.clone(), PolicyContext::default());
        let started = Instant::now();
        let outcome = runtime.block_on(deck.pipeline().call(request));
        direct.push(started.elapsed());
        assert!(
            matches!(
                outcome,
                clawdeck_core::pipeline::CallOutcome::Completed {
                    is_error: false,
                    ..
                }
            ),
            "{}",
            outcome.message()
        );
    }

    let mut server = Server::start(&config, &state);
    // Warm up (first call builds validators, caches).
    for _ in 0..20 {
        server.request("tools/call", json!({"name": "read", "arguments": params}));
    }
    let mut over_mcp = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let started = Instant::now();
        let reply = server.request("tools/call", json!({"name": "read", "arguments": params}));
        over_mcp.push(started.elapsed());
        assert_ne!(reply["result"]["isError"], true, "{reply}");
    }
    let direct_median = median(direct);
    let mcp_median = median(over_mcp);
    let overhead = mcp_median.saturating_sub(direct_median);
    println!(
        "tools/call read over stdio: median {:.3} ms; in-process pipeline: {:.3} ms; MCP adds {:.3} ms ({:.2}x) [target < 1 ms added]: {}",
        ms(mcp_median),
        ms(direct_median),
        ms(overhead),
        mcp_median.as_secs_f64() / direct_median.as_secs_f64().max(1e-9),
        if overhead < Duration::from_millis(1) {
            "met"
        } else {
            "NOT met"
        }
    );

    // tools/list with 1,000 plugin tools.
    let mut in_process = Vec::with_capacity(LISTS);
    for _ in 0..LISTS {
        let started = Instant::now();
        let tools =
            clawdeck_mcp::listed_tools(&deck.config(), &deck.registry(), &PolicyContext::default())
                .unwrap_or_else(|e| panic!("{e}"));
        in_process.push(started.elapsed());
        assert!(tools.len() > PLUGIN_TOOLS);
    }
    let mut listed_over_mcp = Vec::with_capacity(LISTS);
    for _ in 0..LISTS {
        let started = Instant::now();
        let reply = server.request("tools/list", json!({}));
        listed_over_mcp.push(started.elapsed());
        let count = reply["result"]["tools"].as_array().map_or(0, Vec::len);
        assert!(count > PLUGIN_TOOLS, "{count} tools listed");
    }
    let list_median = median(listed_over_mcp);
    let build_median = median(in_process);
    println!(
        "tools/list with {PLUGIN_TOOLS} plugin tools over stdio: median {:.3} ms; building the list in-process: {:.3} ms ({:.2}x) [target < 10 ms]: {}",
        ms(list_median),
        ms(build_median),
        list_median.as_secs_f64() / build_median.as_secs_f64().max(1e-9),
        if list_median < Duration::from_millis(10) {
            "met"
        } else {
            "NOT met"
        }
    );
}
