//! An exec approval is judged as the gateway that raised it would judge it: two gateways with
//! different configs and approvals documents, one command, two verdicts; each names the
//! gateway whose config decided, and neither is this machine's config.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use clawdeck_core::exec_verdict::Verdict;
use clawdeck_core::mcp_servers::ServerListing;
use clawdeck_deck::Deck;
use serde_json::json;
use support::fake_gateway::{FakeGateway, Script};

/// A gateway whose `config.get` answers `config` and `exec.approvals.get` answers `approvals`.
fn gateway_with(config: &str, approvals: serde_json::Value) -> FakeGateway {
    FakeGateway::start(
        Script::everything()
            .answer(
                "config.get",
                json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
                       "raw": config, "includedPaths": [], "hash": "h"}),
            )
            .answer(
                "exec.approvals.get",
                json!({"path": "/srv/openclaw/state/openclaw.sqlite#exec_approvals_config",
                       "exists": true, "file": approvals}),
            ),
    )
}

#[test]
fn each_gateways_approval_is_judged_with_that_gateways_config_and_document() {
    // This process's own homes: the device identity is created under them.
    let home = tempfile::tempdir().unwrap();
    // SAFETY: set before any thread of this test binary starts (one test in this file).
    unsafe {
        std::env::set_var("HOME", home.path());
        std::env::set_var("XDG_STATE_HOME", home.path().join("state"));
        std::env::set_var("XDG_CONFIG_HOME", home.path().join("config"));
        std::env::remove_var("OPENCLAW_GATEWAY_URL");
        std::env::remove_var("OPENCLAW_GATEWAY_TOKEN");
    }
    let asks = gateway_with(
        r#"{ tools: { exec: { host: "gateway", security: "full", ask: "always" } } }"#,
        json!({"version": 1, "agents": {"main": {"askFallback": "full"}}}),
    );
    let runs = gateway_with(
        r#"{ tools: { exec: { host: "gateway", security: "full", ask: "off" } } }"#,
        json!({"version": 1}),
    );
    // The same config as `runs`, but the session was set read-only there (`sessions.patch`):
    // the gateway's `sessions.describe` says so, and the session's mode decides.
    let read_only = FakeGateway::start(
        Script::everything()
            .answer(
                "config.get",
                json!({"path": "/srv/openclaw/openclaw.json", "exists": true, "valid": true,
                       "raw": r#"{ tools: { exec: { host: "gateway", security: "full", ask: "off" } } }"#,
                       "includedPaths": [], "hash": "h"}),
            )
            .answer(
                "sessions.describe",
                json!({"session": {"key": "agent:main:main", "permissionMode": "read-only"}}),
            ),
    );
    // Asks on a miss: a chat turn's allow-always stores an allowlist entry, an automation's
    // mints a standing grant for its job.
    let on_miss = gateway_with(
        r#"{ tools: { exec: { host: "gateway", security: "allowlist", ask: "on-miss" } } }"#,
        json!({"version": 1}),
    );
    // This machine's config would deny every command: neither verdict may come from it.
    let dir = home.path().join("openclaw");
    std::fs::create_dir_all(&dir).unwrap();
    let local = dir.join("openclaw.json5");
    std::fs::write(&local, r#"{ tools: { exec: { security: "deny" } } }"#).unwrap();
    std::fs::write(
        dir.join("clawdeck.json5"),
        format!(
            r#"{{ gateways: [ {{ name: "one", url: "{}", token: "t1" }}, {{ name: "two", url: "{}", token: "t2" }}, {{ name: "locked", url: "{}", token: "t3" }}, {{ name: "onmiss", url: "{}", token: "t4" }} ] }}"#,
            asks.url, runs.url, read_only.url, on_miss.url
        ),
    )
    .unwrap();
    let deck = Deck::load(Some(&local), &ServerListing::default()).expect("the deck loads");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let judge = |gateway: &str| {
        runtime
            .block_on(deck.judge_gateway_approval(gateway, "agent:main:main", "", "whoami"))
            .unwrap_or_else(|e| panic!("{gateway}: {e}"))
    };
    let judge_in = |gateway: &str, session: &str| {
        runtime
            .block_on(deck.judge_gateway_approval(gateway, session, "", "whoami"))
            .unwrap_or_else(|e| panic!("{gateway}: {e}"))
    };
    let one = judge("one");
    assert_eq!(one.interactive.verdict, Verdict::Asks, "{one:?}");
    assert_eq!(
        one.headless.verdict,
        Verdict::Runs,
        "gateway one's document sets askFallback full: {one:?}"
    );
    assert_eq!(one.config_from.as_deref(), Some(asks.url.as_str()));
    assert!(
        one.approvals
            .as_deref()
            .is_some_and(|a| a.starts_with(&asks.url) && a.ends_with("#exec_approvals_config")),
        "{:?}",
        one.approvals
    );
    let two = judge("two");
    assert_eq!(two.interactive.verdict, Verdict::Runs, "{two:?}");
    assert_eq!(two.config_from.as_deref(), Some(runs.url.as_str()));
    let locked = judge("locked");
    assert_eq!(locked.interactive.verdict, Verdict::Denied, "{locked:?}");
    assert!(
        locked
            .interactive
            .key
            .as_deref()
            .is_some_and(|k| k.contains("permissionMode \"read-only\"")),
        "{locked:?}"
    );
    assert!(read_only.methods().iter().any(|m| m == "sessions.describe"));
    // (What allow-always stores for each is decide.rs's unit test: as root, as CI runs, every
    // executable is one the gateway's user could change and allow-always is never offered.)
    let chat = judge_in("onmiss", "agent:main:main");
    let cron = judge_in("onmiss", "agent:main:cron:job-1:run:r-1");
    assert_eq!(cron.interactive.verdict, Verdict::Asks, "{cron:?}");
    assert_eq!(
        cron.interactive.allow_always.as_ref().map(|a| &a.decisions),
        chat.interactive.allow_always.as_ref().map(|a| &a.decisions),
    );
    assert!(
        chat.headless
            .reason
            .starts_with("exec denied: Headless runs cannot wait"),
        "{chat:?}"
    );
    assert!(
        cron.headless
            .reason
            .starts_with("exec denied: Automation runs cannot wait"),
        "{cron:?}"
    );
    // Each was asked for its own config and document, and nothing else was changed.
    for gateway in [&asks, &runs] {
        let methods = gateway.methods();
        assert!(methods.iter().any(|m| m == "config.get"), "{methods:?}");
        assert!(
            methods.iter().any(|m| m == "exec.approvals.get"),
            "{methods:?}"
        );
        assert!(
            !methods
                .iter()
                .any(|m| m.contains("resolve") || m.contains(".set")),
            "{methods:?}"
        );
    }
    // A gateway that is not configured gets nothing sent.
    let err = runtime
        .block_on(deck.judge_gateway_approval("three", "agent:main:main", "", "whoami"))
        .unwrap_err();
    assert!(err.contains("no gateway named three"), "{err}");
}
