//! `clawdeck approvals pending | resolve | history | grants | revoke` against the fake gateway,
//! for every kind OpenClaw 2026.9.6 has (exec, plugin, system agent): what each lists, which
//! method each answer goes through (checked on the fake's side), and what the output says.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::fake_gateway::{FakeGateway, Script};

use std::process::Command;

use serde_json::{Value, json};

fn run(gateway: &FakeGateway, args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .env("HOME", home.path())
        .env("XDG_STATE_HOME", home.path())
        .env("XDG_DATA_HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env("OPENCLAW_CONFIG_PATH", home.path().join("none.json"))
        .env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn params_of(gateway: &FakeGateway, method: &str) -> Option<Value> {
    gateway
        .requests
        .lock()
        .unwrap()
        .iter()
        .find(|r| r["method"] == method)
        .map(|r| r["params"].clone())
}

/// One pending approval of each kind, as the three list methods answer (bare arrays).
fn three_kinds() -> Script {
    Script::everything()
        .answer(
            "exec.approval.list",
            json!([{"id": "e1", "createdAtMs": 1, "expiresAtMs": 4_102_444_800_000u64,
                    "request": {"command": format!("make {}END", "x ".repeat(200)), "cwd": "/w",
                                "agentId": "ops", "sessionKey": "agent:ops:main", "ask": "always"}}]),
        )
        .answer(
            "plugin.approval.list",
            json!([{"id": "plugin:1", "createdAtMs": 1, "expiresAtMs": 4_102_444_800_000u64,
                    "approvalKind": "plugin",
                    "request": {"title": "Send an e-mail", "description": "to boss",
                                "detail": "Subject: \u{1b}[2Jnumbers", "pluginId": "mailer",
                                "toolName": "send_mail", "agentId": "ops"}}]),
        )
        .answer(
            "openclaw.approval.list",
            json!([{"id": "system-agent:1", "createdAtMs": 1, "expiresAtMs": 4_102_444_800_000u64,
                    "request": {"title": "OpenClaw change", "description": "Set tools.exec.ask",
                                "command": "Set tools.exec.ask", "proposalHash": "ab12",
                                "allowedDecisions": ["allow-once", "deny"]}}]),
        )
}

#[test]
fn pending_lists_every_kind_with_what_it_approves_in_full() {
    let gateway = FakeGateway::start(three_kinds());
    let (code, out, err) = run(&gateway, &["approvals", "pending", "--json"]);
    assert_eq!(code, 0, "{err}");
    let listed: Value = serde_json::from_str(out.trim()).unwrap();
    let kinds: Vec<&str> = listed["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 3, "{listed}");
    for kind in ["exec", "plugin", "system-agent"] {
        assert!(kinds.contains(&kind), "{kind}: {listed}");
    }
    let (code, out, _) = run(&gateway, &["approvals", "pending"]);
    assert_eq!(code, 0);
    assert!(out.contains("END"), "a long command is whole: {out}");
    assert!(out.contains("title: Send an e-mail"), "{out}");
    assert!(
        out.contains("source: plugin mailer, tool send_mail"),
        "{out}"
    );
    assert!(out.contains("change: Set tools.exec.ask"), "{out}");
    assert!(
        !out.contains('\u{1b}'),
        "gateway text is sanitized: {out:?}"
    );
}

#[test]
fn each_kind_is_resolved_through_its_own_method() {
    for (kind, id, method, params) in [
        (
            "plugin",
            "plugin:1",
            "plugin.approval.resolve",
            json!({"id": "plugin:1", "decision": "deny"}),
        ),
        (
            "system-agent",
            "system-agent:1",
            "approval.resolve",
            json!({"id": "system-agent:1", "kind": "system-agent", "decision": "deny"}),
        ),
        (
            "exec",
            "e1",
            "exec.approval.resolve",
            json!({"id": "e1", "decision": "deny"}),
        ),
    ] {
        let gateway = FakeGateway::start(
            three_kinds()
                .answer(
                    "approval.get",
                    json!({"approval": {"id": id, "status": "pending",
                           "presentation": {"kind": kind}}}),
                )
                .answer(method, json!({"ok": true})),
        );
        let (code, out, err) = run(&gateway, &["approvals", "resolve", id, "deny", "--json"]);
        assert_eq!(code, 0, "{kind}: {err}");
        let done: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(done["kind"], kind, "{done}");
        assert_eq!(done["decision"], "deny");
        assert_eq!(params_of(&gateway, "approval.get"), Some(json!({"id": id})));
        assert_eq!(params_of(&gateway, method), Some(params), "{kind}");
    }
}

#[test]
fn history_grants_and_revoke() {
    let gateway = FakeGateway::start(
        Script::everything()
            .answer(
                "approval.history",
                json!({"items": [
                    {"id": "e9", "urlPath": "/x", "createdAtMs": 1, "expiresAtMs": 2,
                     "resolvedAtMs": 2, "status": "expired", "reason": "no-approval-route",
                     "presentation": {"kind": "exec", "commandText": "echo gone",
                                      "allowedDecisions": ["deny"]}},
                ]}),
            )
            .answer(
                "exec.approval.grants.list",
                json!({"grants": [
                    {"grantId": "g1", "mintedByApprovalId": "e1", "agentId": "ops",
                     "cronJobId": "job-1", "cronJobName": "nightly", "command": "backup.sh",
                     "cwd": null, "createdAtMs": 0, "expiresAtMs": null, "revokedAtMs": null,
                     "revokedBy": null, "lastUsedAtMs": null, "useCount": 2},
                ]}),
            ),
    );
    let (code, out, err) = run(
        &gateway,
        &["approvals", "history", "--kind", "exec", "--limit", "5"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("expired (no-approval-route)"), "{out}");
    assert!(out.contains("echo gone"), "{out}");
    assert_eq!(
        params_of(&gateway, "approval.history"),
        Some(json!({"limit": 5, "kind": "exec"}))
    );
    let (code, out, _) = run(&gateway, &["approvals", "grants", "--json"]);
    assert_eq!(code, 0);
    let grants: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(grants["grants"][0]["state"], "until revoked", "{grants}");
    assert_eq!(grants["grants"][0]["automation"], "nightly");
    let (code, out, err) = run(&gateway, &["approvals", "revoke", "g1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("grant g1 revoked"), "{out}");
    assert_eq!(
        params_of(&gateway, "exec.approval.grants.revoke"),
        Some(json!({"grantId": "g1"}))
    );
}

#[test]
fn history_follows_the_cursor_to_older_pages_up_to_the_limit() {
    // Page one: 100 entries and a cursor; page two: the rest, no cursor.
    let gateway = FakeGateway::start(Script::everything().answer_with(
        "approval.history",
        |params| {
            let (first, count, next) = match params["cursor"].as_str() {
                None => (0, 100, json!("older")),
                Some(_) => (100, 30, Value::Null),
            };
            let items: Vec<Value> = (first..first + count)
                .map(|i| {
                    json!({"id": format!("a{i}"), "status": "allowed", "decision": "allow-once",
                           "resolvedAtMs": 1_000_000 - i,
                           "presentation": {"kind": "exec", "commandText": format!("echo {i}")}})
                })
                .collect();
            json!({"items": items, "nextCursor": next})
        },
    ));
    let (code, out, err) = run(
        &gateway,
        &["approvals", "history", "--limit", "120", "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let items = serde_json::from_str::<Value>(out.trim()).unwrap()["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(items.len(), 120, "the limit, across two pages");
    assert_eq!(items[119]["id"], "a119");
    let pages: Vec<Value> = gateway
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == "approval.history")
        .map(|r| r["params"].clone())
        .collect();
    assert_eq!(
        pages,
        [
            json!({"limit": 100}),
            json!({"limit": 20, "cursor": "older"})
        ]
    );
}
