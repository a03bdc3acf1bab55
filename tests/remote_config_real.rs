//! `--remote-config` against a real OpenClaw gateway of the test's own (tests/support's
//! OwnGateway, free ports, never 18789): `explain`, `tools --json` and `lint` answer for the
//! gateway's config fetched with `config.get` exactly as `--config` on that gateway's
//! openclaw.json (apart from the line naming the source), the gateway's token never shows, and
//! with `--session-key` the session's own `tools.effective` is shown beside.
//! Needs OPENCLAW_BIN (the real CLI) and ../shared/realclaw; .ci/run runs it with --ignored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::without_config_source as without_source;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::own_gateway::OwnGateway;

/// A tools policy with something to explain: a profile, a global deny, an allow-list addition
/// and exec approvals.
const POLICY: &str = r#"tools: { profile: "coding", deny: ["browser", "web_fetch"], alsoAllow: ["message"], exec: { ask: "always" } },"#;

fn clawdeck(gw: &OwnGateway, state: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("OPENCLAW_GATEWAY_TOKEN", &gw.token)
        .env_remove("OPENCLAW_GATEWAY_URL")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state)
        .env("HOME", state)
        .output()
        .unwrap()
}

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN) and ../shared/realclaw: .ci/run runs it with --ignored"]
fn remote_config_answers_as_the_gateways_own_file() {
    let Some(gw) = OwnGateway::start_with(POLICY) else {
        eprintln!("remote_config_real: skipped (OPENCLAW_BIN or ../shared/realclaw missing)");
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let file = gw.config_path();
    let file = file.to_str().unwrap();
    for command in [
        vec!["explain", "exec"],
        vec!["explain", "browser", "--agent", "ops"],
        vec!["explain"],
        vec!["tools", "--json"],
        vec!["lint"],
        vec!["lint", "--json"],
    ] {
        let mut remote = command.clone();
        remote.extend(["--remote-config", "--gateway", &gw.url]);
        let mut local = command.clone();
        local.extend(["--config", file]);
        let remote_out = clawdeck(&gw, state.path(), &remote);
        let local_out = clawdeck(&gw, state.path(), &local);
        let stderr = String::from_utf8_lossy(&remote_out.stderr);
        assert_eq!(
            remote_out.status.code(),
            local_out.status.code(),
            "{command:?}: {stderr}"
        );
        let (r_stdout, r_stderr) = without_source(&remote_out);
        let (l_stdout, l_stderr) = without_source(&local_out);
        assert_eq!(r_stdout, l_stdout, "{command:?}");
        assert_eq!(r_stderr, l_stderr, "{command:?}");
        assert!(!r_stdout.is_empty(), "{command:?} answered: {stderr}");
        assert!(!r_stdout.contains(&gw.token) && !stderr.contains(&gw.token));
        let source = String::from_utf8_lossy(&remote_out.stdout);
        // `tools --json` names no config (with --config neither).
        assert!(
            command == ["tools", "--json"]
                || source.contains(&format!("{file} on gateway ws://127.0.0.1:{}", gw.port())),
            "{command:?} names the gateway: {source}"
        );
    }
    // The policy really is the gateway's: browser is denied, exec is there.
    let tools = clawdeck(
        &gw,
        state.path(),
        &["tools", "--json", "--remote-config", "--gateway", &gw.url],
    );
    let tools: Value = serde_json::from_slice(&tools.stdout).unwrap();
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"exec") && !names.contains(&"browser"),
        "{names:?}"
    );
}

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN) and ../shared/realclaw: .ci/run runs it with --ignored"]
fn explain_with_a_session_key_shows_the_gateways_effective_list_beside() {
    let Some(gw) = OwnGateway::start_with(POLICY) else {
        eprintln!("remote_config_real: skipped (OPENCLAW_BIN or ../shared/realclaw missing)");
        return;
    };
    const SESSION: &str = "agent:ops:main";
    let created = Command::new(gw.openclaw_bin())
        .args(["gateway", "call", "sessions.create", "--json"])
        .args(["--port", &gw.port().to_string(), "--token", &gw.token])
        .args(["--params", &format!(r#"{{"key":"{SESSION}"}}"#)])
        .env("REALCLAW_HOME", gw.home())
        .output()
        .unwrap();
    assert!(
        created.status.success(),
        "sessions.create: {}",
        String::from_utf8_lossy(&created.stderr)
    );
    let state = tempfile::tempdir().unwrap();
    let explain = |tool: &str| {
        let out = clawdeck(
            &gw,
            state.path(),
            &[
                "explain",
                tool,
                "--remote-config",
                "--gateway",
                &gw.url,
                "--session-key",
                SESSION,
            ],
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let beside = format!(
        "gateway ws://127.0.0.1:{} tools.effective for session {SESSION}",
        gw.port()
    );
    let exec = explain("exec");
    assert!(
        exec.contains(&format!("{beside}: exec is present")),
        "{exec}"
    );
    let browser = explain("browser");
    assert!(
        browser.contains(&format!("{beside}: browser is absent")),
        "{browser}"
    );
}
