//! Hostile gateway answers (issue 31): what a gateway sends is bounded before it is parsed, and
//! a bad answer is an error naming the gateway, never a crash.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::json;
use support::fake_gateway::{FakeGateway, Script, clawdeck_on};

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
