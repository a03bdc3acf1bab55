//! A paired node's MCP servers against the real OpenClaw: two real node hosts (`openclaw node
//! run`, each with its own state and `nodeHost.mcp.servers`) paired to a private gateway, and a
//! real agent turn on that gateway. What the turn sends the model is compared with clawdeck's
//! answer from the gateway's `node.list`, both saved (`--node-list`) and asked live
//! (`--remote-config`). Needs OPENCLAW_BIN and the MCP Python SDK in ~/.cache/clawdeck-mcp
//! (`.ci/run` installs both).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::own_gateway::OwnGateway;

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const IGNORE: &str = "needs the real OpenClaw (OPENCLAW_BIN) and the MCP Python SDK in ~/.cache/clawdeck-mcp (.ci/run installs both)";

fn mcp_python() -> PathBuf {
    let home = std::env::var("CLAWDECK_MCP_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/clawdeck-mcp")
        });
    let python = home.join("venv/bin/python");
    assert!(python.is_file(), "{IGNORE}: no {}", python.display());
    python
}

/// A node host of its own (state, config, log), in its own process group; killed on drop.
struct NodeHost {
    child: Child,
    home: tempfile::TempDir,
}

impl NodeHost {
    fn start(gateway: &OwnGateway, display_name: &str, servers: &[&str]) -> NodeHost {
        let home = tempfile::tempdir().unwrap();
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/node_mcp/docs_server.py");
        let python = mcp_python();
        let servers: serde_json::Map<String, Value> = servers
            .iter()
            .map(|name| {
                let launch = json!({"command": python, "args": [script]});
                (name.to_string(), launch)
            })
            .collect();
        let config = json!({"nodeHost": {"mcp": {"servers": servers}}});
        std::fs::create_dir_all(home.path().join(".openclaw")).unwrap();
        std::fs::write(
            home.path().join(".openclaw/openclaw.json"),
            config.to_string(),
        )
        .unwrap();
        let log = std::fs::File::create(home.path().join("node.log")).unwrap();
        let child = Command::new(gateway.openclaw_bin())
            .args(["node", "run", "--host", "127.0.0.1", "--port"])
            .arg(gateway.port().to_string())
            .args(["--display-name", display_name])
            .env("REALCLAW_HOME", home.path())
            .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
            .env_remove("OPENCLAW_GATEWAY_URL")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("starting openclaw node run");
        NodeHost { child, home }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.home.path().join("node.log")).unwrap_or_default()
    }
}

impl Drop for NodeHost {
    fn drop(&mut self) {
        let group = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

/// The gateway's own CLI (its home holds the port and token).
fn gateway_cli(gateway: &OwnGateway, args: &[&str]) -> String {
    let out = Command::new(gateway.openclaw_bin())
        .args(args)
        .env("REALCLAW_HOME", gateway.home())
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_GATEWAY_TOKEN")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn call(gateway: &OwnGateway, method: &str, params: Value) -> Value {
    let text = gateway_cli(
        gateway,
        &[
            "gateway",
            "call",
            method,
            "--json",
            "--params",
            &params.to_string(),
        ],
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method}: {e}: {text}"))
}

/// Approves each node's command surface (its first pairing asks for it) until the gateway keeps
/// `tools` published tools in all; the `node.list` answer then.
fn approve_until_published(gateway: &OwnGateway, nodes: &[&NodeHost], tools: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(150);
    loop {
        let pending: Value =
            serde_json::from_str(&gateway_cli(gateway, &["nodes", "pending", "--json"]))
                .unwrap_or(Value::Null);
        for request in pending.as_array().into_iter().flatten() {
            if let Some(id) = request["requestId"].as_str() {
                gateway_cli(gateway, &["nodes", "approve", id]);
            }
        }
        let list = call(gateway, "node.list", json!({}));
        let published: usize = list["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n["nodePluginTools"].as_array())
            .map(Vec::len)
            .sum();
        if published == tools {
            return list;
        }
        assert!(
            Instant::now() < deadline,
            "the nodes published {published} tools, not {tools}:\n{list:#}\n{}",
            nodes
                .iter()
                .map(|n| n.log())
                .collect::<Vec<_>>()
                .join("\n---\n")
        );
        std::thread::sleep(Duration::from_secs(2));
    }
}

/// `node.list` without what changes with the machine and the moment (times, host stats, the
/// PATH): what tests/recordings/node_list keeps.
fn recordable(list: &Value) -> Value {
    let mut list = list.clone();
    if let Some(object) = list.as_object_mut() {
        object.remove("ts");
    }
    for node in list["nodes"].as_array_mut().into_iter().flatten() {
        if let Some(node) = node.as_object_mut() {
            node.retain(|key, _| !key.ends_with("AtMs") && key != "hostStats" && key != "pathEnv");
        }
    }
    list
}

/// What of an answer a fresh one is compared on: what clawdeck reads of each node, but its id
/// (new every run); the commands a node advertises depend on its machine.
fn without_ids(list: &Value) -> Value {
    let nodes: Vec<Value> = list["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|node| {
            json!({
                "displayName": node["displayName"],
                "connected": node["connected"],
                "nodePluginTools": node["nodePluginTools"],
            })
        })
        .collect();
    json!(nodes)
}

/// With CLAWDECK_RECORD=1 (tests/recordings/record.sh) the answer is kept as
/// tests/recordings/node_list/<release>.json, the docs' example input; otherwise a fresh answer
/// must match the recording of its release, node ids aside.
fn record_or_recheck(list: &Value) {
    let release = list["nodes"][0]["version"]
        .as_str()
        .expect("the node's release")
        .to_string();
    let path = support::recordings::recordings_root().join(format!("node_list/{release}.json"));
    if support::recordings::recording() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = serde_json::to_string_pretty(&recordable(list)).unwrap();
        std::fs::write(&path, text + "\n").unwrap();
        return;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        panic!(
            "no recording {} (tests/recordings/record.sh makes it)",
            path.display()
        );
    };
    let recorded: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        without_ids(&recorded),
        without_ids(list),
        "the gateway's node.list differs from {}",
        path.display()
    );
}

/// A real turn of agent `ops` on the gateway (`openclaw agent`, no `--local`): the `tools` it
/// sent the mock model.
fn real_turn(gateway: &OwnGateway, session_id: &str, mock_log: &Path) -> Value {
    let out = Command::new(gateway.openclaw_bin())
        .args(["agent", "--agent", "ops", "--session-id", session_id])
        .args(["--message", "hi"])
        .env("REALCLAW_HOME", gateway.home())
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_GATEWAY_TOKEN")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let requests = std::fs::read_to_string(mock_log).unwrap();
    let request: Value = serde_json::from_str(requests.lines().last().unwrap()).unwrap();
    request["request"]["tools"].clone()
}

/// clawdeck's `schema` for the same turn, its nodes' tools from the saved `node.list`.
fn predicted_tools(gateway: &OwnGateway, saved: &Path) -> Value {
    let home = tempfile::tempdir().unwrap();
    let schema = clawdeck(home.path())
        .arg("--config")
        .arg(gateway.config_path())
        .args(["--agent", "ops", "--gateway-run", "--node-list"])
        .arg(saved)
        .args(["schema", "--api", "openai"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&schema.stderr);
    assert!(schema.status.success(), "{stderr}");
    serde_json::from_slice(&schema.stdout).unwrap()
}

/// The node tools (their functions by name) of an OpenAI Chat Completions `tools` payload.
fn node_functions(tools: &Value) -> BTreeMap<String, Value> {
    tools
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("function"))
        .filter(|f| {
            f["description"]
                .as_str()
                .is_some_and(|d| d.contains("(node: "))
        })
        .map(|f| (f["name"].as_str().unwrap().to_string(), f.clone()))
        .collect()
}

fn clawdeck(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CLAWDECK_NO_MCP_SERVERS", "1");
    cmd
}

#[test]
#[ignore = "needs the real OpenClaw (OPENCLAW_BIN) and the MCP Python SDK in ~/.cache/clawdeck-mcp (.ci/run installs both)"]
fn two_nodes_mcp_servers_are_the_tools_a_real_turn_sends() {
    two_nodes_against(&std::env::var("OPENCLAW_BIN").expect(IGNORE));
}

#[test]
#[ignore = "needs openclaw@2026.8.2 (OPENCLAW_BIN_2026_8) and the MCP Python SDK in ~/.cache/clawdeck-mcp (.ci/run installs both)"]
fn two_nodes_mcp_servers_are_the_tools_a_real_2026_8_turn_sends() {
    two_nodes_against(&std::env::var("OPENCLAW_BIN_2026_8").expect(IGNORE));
}

fn two_nodes_against(bin: &str) {
    let run = tempfile::tempdir().unwrap();
    let mock_log = run.path().join("requests.jsonl");
    // Tool Search off: the turn sends every tool's schema, so names, descriptions and schemas
    // are all compared.
    let gateway = OwnGateway::start_release_with_env(
        Path::new(bin),
        "tools: { toolSearch: { enabled: false } },",
        &[
            ("MOCK_LLM_LOG", mock_log.to_str().unwrap()),
            ("MOCK_LLM_LOG_FULL", "1"),
        ],
    )
    .expect(IGNORE);
    // Both run a server `docs`; only beta runs `notes`.
    let alpha = NodeHost::start(&gateway, "alpha", &["docs"]);
    let beta = NodeHost::start(&gateway, "beta", &["docs", "notes"]);
    let list = approve_until_published(&gateway, &[&alpha, &beta], 6);
    let saved = run.path().join("node-list.json");
    std::fs::write(&saved, list.to_string()).unwrap();
    record_or_recheck(&list);

    let sent = node_functions(&real_turn(&gateway, "nodes-1", &mock_log));

    // What it means: a name both nodes publish gets each node's fragment; beta's own keep theirs.
    let names: Vec<&str> = sent.keys().map(String::as_str).collect();
    assert_eq!(names.len(), 6, "{names:?}");
    assert!(
        names.contains(&"notes_read_doc") && names.contains(&"notes_search"),
        "{names:?}"
    );
    for base in ["docs_read_doc", "docs_search"] {
        let renamed: Vec<&&str> = names
            .iter()
            .filter(|n| n.ends_with(&format!("_{base}")))
            .collect();
        assert_eq!(
            renamed.len(),
            2,
            "{base} from both nodes, each renamed: {names:?}"
        );
    }
    assert!(
        sent["notes_search"]["description"]
            .as_str()
            .unwrap()
            .ends_with("(node: beta)")
    );

    // clawdeck from the saved answer: the same tools, byte for byte.
    let home = tempfile::tempdir().unwrap();
    let predicted = node_functions(&predicted_tools(&gateway, &saved));
    assert_eq!(predicted, sent);

    // And asked live: --remote-config reads node.list from the gateway itself.
    let tools = clawdeck(home.path())
        .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
        .args([
            "--agent",
            "ops",
            "tools",
            "--json",
            "--remote-config",
            "--gateway",
        ])
        .arg(&gateway.url)
        .output()
        .unwrap();
    assert!(
        tools.status.success(),
        "{}",
        String::from_utf8_lossy(&tools.stderr)
    );
    let answer: Value = serde_json::from_slice(&tools.stdout).unwrap();
    let mut live: Vec<&str> = answer["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["plugin"] == "node-mcp" && t["node"]["id"].is_string())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    live.sort();
    assert_eq!(live, names);

    // The gateway's own tools.effective lists them as its MCP tools.
    let sessions = call(&gateway, "sessions.list", json!({}));
    let key = sessions["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["key"].as_str())
        .find(|k| k.starts_with("agent:ops:"))
        .unwrap_or_else(|| panic!("the turn's session: {sessions:#}"))
        .to_string();
    let effective = call(&gateway, "tools.effective", json!({"sessionKey": key}));
    let mcp: Vec<&str> = effective["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("tools.effective: {effective:#}"))
        .iter()
        .filter(|g| g["id"] == "mcp")
        .flat_map(|g| g["tools"].as_array().unwrap())
        .filter_map(|t| t["id"].as_str())
        .collect();
    let mut mcp = mcp;
    mcp.sort();
    assert_eq!(mcp, names);

    code_mode_names_each_nodes_servers(&gateway, &mock_log, &saved);
}

/// With Code Mode on (a hot reload of the same gateway, the nodes still connected), `exec`'s
/// description names the servers code can call: a node's after its node, a name two nodes share
/// with each node's fragment in front.
fn code_mode_names_each_nodes_servers(gateway: &OwnGateway, mock_log: &Path, saved: &Path) {
    let config = std::fs::read_to_string(gateway.config_path()).unwrap();
    let code_mode = config.replace(
        "tools: { toolSearch: { enabled: false } },",
        "tools: { codeMode: { enabled: true } },",
    );
    assert_ne!(code_mode, config, "start.sh wrote the extra keys as given");
    std::fs::write(gateway.config_path(), code_mode).unwrap();
    assert!(
        gateway.wait_for_log(
            "config hot reload applied (tools.toolSearch, tools.codeMode)",
            Duration::from_secs(30)
        ),
        "the gateway did not reload its tools config"
    );
    let sent_tools = real_turn(gateway, "nodes-2", mock_log);
    let servers_line = |tools: &Value| -> String {
        let exec = tools
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["function"]["name"] == "exec")
            .unwrap_or_else(|| panic!("no exec in {tools:#}"));
        let description = exec["function"]["description"].as_str().unwrap();
        description
            .lines()
            .find(|l| l.contains("visible servers: "))
            .unwrap_or_else(|| panic!("no servers line in {description}"))
            .to_string()
    };
    let sent = servers_line(&sent_tools);
    assert!(sent.contains("notes (node: beta)"), "{sent}");
    assert!(sent.contains("Docs (node: alpha)"), "{sent}");

    assert_eq!(servers_line(&predicted_tools(gateway, saved)), sent);
}
