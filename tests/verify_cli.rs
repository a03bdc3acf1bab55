//! `clawdeck verify --gateway` without the real OpenClaw: a fake gateway answers the
//! `tools.effective` the command asks through clawdeck's own client (no `openclaw` process:
//! none is on the PATH the command gets). The session key decides the context, the report names
//! it, and the embedded demo config gets a warning (tests/gateway_real.rs runs the same against
//! the real gateway).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};
use support::fake_gateway::{FakeGateway, Script};

const CONFIG: &str = r#"{ agents: { list: [ { id: "main", default: true, tools: { deny: ["exec"] } },
                                  { id: "ops" } ] } }"#;

struct Scratch {
    dir: tempfile::TempDir,
    gateway: FakeGateway,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("openclaw.json5"), CONFIG).unwrap();
        let gateway = FakeGateway::start(Script::default().answer(
            "tools.effective",
            json!({"agentId": "ops", "groups": [
                {"id": "core", "tools": [{"id": "exec", "source": "core"}]},
            ]}),
        ));
        Scratch { dir, gateway }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn verify(&self, config: Option<&Path>, extra: &[&str]) -> Output {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        if let Some(config) = config {
            cmd.arg("--config").arg(config);
        }
        cmd.args(["verify", "--gateway", &self.gateway.url])
            .args(extra)
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_BIN")
            .env("PATH", "/usr/bin:/bin")
            .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
            .env("HOME", self.path("home"))
            .env("XDG_STATE_HOME", self.path("state"))
            .env("XDG_CONFIG_HOME", self.path("config"));
        cmd.output().unwrap()
    }
}

#[test]
fn the_session_key_decides_the_context_and_the_report_names_it() {
    let scratch = Scratch::new();
    let config = scratch.path("openclaw.json5");
    let out = scratch.verify(Some(&config), &["--session", "agent:ops:main", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(
        report["compared"]["sessionKey"], "agent:ops:main",
        "{report}"
    );
    assert_eq!(report["compared"]["agent"], "ops", "{report}");
    let asked = scratch.gateway.requests.lock().unwrap().clone();
    assert!(
        asked
            .iter()
            .any(|r| r["method"] == "tools.effective"
                && r["params"]["sessionKey"] == "agent:ops:main"),
        "the gateway itself was asked: {asked:?}"
    );
    assert_eq!(report["compared"]["channel"], Value::Null, "{report}");
    assert_eq!(report["compared"]["group"], Value::Null, "{report}");
    assert_eq!(report["compared"]["subagent"], false, "{report}");
    // ops may run exec; the default agent may not: compared with ops, exec agrees.
    let exec = report["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["tool"] == "exec")
        .unwrap();
    assert_eq!(exec["agreement"], "agree", "{exec}");
    assert!(!stderr.contains("embedded demo"), "{stderr}");

    let out = scratch.verify(
        Some(&config),
        &["--session", "agent:ops:telegram:group:-100"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("session: agent:ops:telegram:group:-100\n"),
        "{text}"
    );
    assert!(
        text.contains("compared: agent ops, channel telegram, group -100, subagent no\n"),
        "{text}"
    );

    let out = scratch.verify(
        Some(&config),
        &["--session", "agent:ops:main", "--agent", "main"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("--agent main contradicts the session key agent:ops:main (its agent is ops)"),
        "{stderr}"
    );
}

#[test]
fn a_gateway_compared_with_the_embedded_demo_is_warned_about() {
    let scratch = Scratch::new();
    let out = scratch.verify(None, &["--session", "agent:ops:main"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: comparing a gateway with the embedded demo config")
            && stderr.contains("disagreements are expected"),
        "{stderr}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("compared: agent ops"), "{text}");
}
