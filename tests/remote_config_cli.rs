//! `--remote-config` against a local fake gateway (no OpenClaw needed): `explain`, `tools` and
//! `lint` answer for the config the gateway returns from `config.get` exactly as for the same
//! text read with `--config` (apart from the line naming the source), and a secret the gateway
//! left in the text never reaches clawdeck's output.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::without_config_source as without_source;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::json;
use support::fake_gateway::{FakeGateway, Script};

const CONFIG: &str = r#"{
  gateway: { auth: { mode: "token", token: "leaky-gateway-token-42" } },
  agents: { list: [ { id: "main", default: true }, { id: "ops", tools: { deny: ["exec"] } } ] },
  tools: { profile: "coding", deny: ["browser"], alsoAllow: ["nonexistent_tool"] },
}
"#;

fn clawdeck(state: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state)
        .env("HOME", state)
        .output()
        .unwrap()
}

#[test]
fn remote_config_answers_as_the_same_file_and_redacts_what_the_gateway_left() {
    let gateway = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
               "raw": CONFIG, "includedPaths": [], "hash": "h1"}),
    ));
    let state = tempfile::tempdir().unwrap();
    let file = state.path().join("openclaw.json");
    std::fs::write(&file, CONFIG).unwrap();
    let file = file.to_str().unwrap();
    for command in [
        vec!["explain", "exec"],
        vec!["explain", "exec", "--agent", "ops"],
        vec!["tools", "--json"],
        vec!["lint"],
    ] {
        let mut remote = command.clone();
        remote.extend(["--remote-config", "--gateway", &gateway.url]);
        let mut local = command.clone();
        local.extend(["--config", file]);
        let remote_out = clawdeck(state.path(), &remote);
        let local_out = clawdeck(state.path(), &local);
        assert_eq!(
            remote_out.status.code(),
            local_out.status.code(),
            "{command:?}: {}",
            String::from_utf8_lossy(&remote_out.stderr)
        );
        let (r_stdout, r_stderr) = without_source(&remote_out);
        let (l_stdout, l_stderr) = without_source(&local_out);
        let l_stdout = l_stdout.replace(file, "/srv/openclaw/openclaw.json");
        let l_stderr = l_stderr.replace(file, "/srv/openclaw/openclaw.json");
        assert_eq!(r_stdout, l_stdout, "{command:?}");
        assert_eq!(r_stderr, l_stderr, "{command:?}");
        assert!(!r_stdout.is_empty(), "{command:?} answered");
    }
    let explain = clawdeck(
        state.path(),
        &[
            "explain",
            "exec",
            "--remote-config",
            "--gateway",
            &gateway.url,
        ],
    );
    let text = String::from_utf8_lossy(&explain.stdout);
    assert!(
        text.starts_with(&format!(
            "config: /srv/openclaw/openclaw.json on gateway {} (config.get)\n",
            gateway.url
        )),
        "{text}"
    );
    assert!(gateway.methods().iter().any(|m| m == "config.get"));
}

#[test]
fn remote_config_shows_no_secret_and_refuses_a_local_config_beside_it() {
    let gateway = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/openclaw.json", "exists": true, "valid": true,
               "raw": CONFIG, "includedPaths": []}),
    ));
    let state = tempfile::tempdir().unwrap();
    for args in [
        vec!["lint", "--json"],
        vec!["explain", "--json"],
        vec!["tools"],
    ] {
        let mut args = args.clone();
        args.extend(["--remote-config", "--gateway", &gateway.url]);
        let out = clawdeck(state.path(), &args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains("leaky-gateway-token-42"), "{args:?}: {all}");
    }
    let out = clawdeck(
        state.path(),
        &[
            "explain",
            "--remote-config",
            "--gateway",
            &gateway.url,
            "--config",
            "/x.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "--remote-config reads the gateway's config; --config /x.json names a local one"
    ));

    let missing = FakeGateway::start(Script::default().answer(
        "config.get",
        json!({"path": "/srv/none.json", "exists": false, "valid": true}),
    ));
    let out = clawdeck(
        state.path(),
        &["tools", "--remote-config", "--gateway", &missing.url],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "clawdeck tools: gateway {}: config.get: the gateway has no config file (/srv/none.json does not exist)",
            missing.url
        )
    );
}
