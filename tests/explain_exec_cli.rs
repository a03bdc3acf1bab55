//! `clawdeck explain exec --command CMD`: the verdict and its JSON contract (`command.verdict`,
//! `step`, `key`, `fix`, `segments`) on fixture configs, with executables found on
//! PATH=/usr/bin:/bin. The agreement with the real OpenClaw's allowlist evaluation is
//! tests/exec_allowlist_oracle.rs; the whole verdict against real turns is
//! tests/exec_verdict_real.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/exec_verdict")
        .join(name)
        .display()
        .to_string()
}

fn explain(args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    explain_in(home.path(), args)
}

/// `clawdeck explain exec ARGS` with HOME at `home` (OpenClaw's state in `home/.openclaw`).
fn explain_in(home: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["explain", "exec"])
        .args(args)
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("OPENCLAW_STATE_DIR")
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn verdict(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = explain(&all);
    assert_eq!(code, 0, "{err}{out}");
    serde_json::from_str::<Value>(&out).unwrap()["command"].clone()
}

#[test]
fn a_chain_with_one_unlisted_command_is_denied_at_the_allowlist_and_says_the_fix() {
    let v = verdict(&[
        "--command",
        "ls -la && nosuchbin-clawdeck x",
        "--config",
        &fixture("allowlist-ask-off.json5"),
        "--approvals",
        &fixture("approvals-ls.json5"),
    ]);
    assert_eq!(v["verdict"], "denied", "{v}");
    assert_eq!(v["step"], "allowlist");
    assert_eq!(v["key"], "tools.exec.ask");
    assert!(v["fix"].as_str().unwrap().contains("on-miss"), "{v}");
    let segments: Vec<(&str, &str)> = v["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["text"].as_str().unwrap(), s["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        segments,
        [("ls -la", "runs"), ("nosuchbin-clawdeck x", "denied")]
    );
    // The same chain of allowlisted parts runs.
    let v = verdict(&[
        "--command",
        "cd /tmp && ls | head -n 5",
        "--config",
        &fixture("allowlist-ask-off.json5"),
        "--approvals",
        &fixture("approvals-ls.json5"),
    ]);
    assert_eq!(v["verdict"], "runs", "{v}");
}

#[test]
fn a_miss_asks_an_operator_and_is_denied_where_nobody_can_answer() {
    let config = fixture("allowlist-on-miss.json5");
    let interactive = verdict(&["--command", "ls -la", "--config", &config]);
    assert_eq!(interactive["verdict"], "asks", "{interactive}");
    let headless = verdict(&[
        "--command",
        "ls -la",
        "--config",
        &config,
        "--surface",
        "headless",
    ]);
    assert_eq!(headless["verdict"], "denied", "{headless}");
    assert_eq!(headless["step"], "askFallback");
    assert!(
        headless["reason"]
            .as_str()
            .unwrap()
            .starts_with("exec denied: Headless runs cannot wait for interactive exec approval."),
        "{headless}"
    );
    // A redirect can never be bound to an approval: denied, not asked.
    let redirect = verdict(&["--command", "ls > out.txt", "--config", &config]);
    assert_eq!(redirect["verdict"], "denied", "{redirect}");
}

#[test]
fn a_hidden_exec_names_the_layer_and_bad_input_is_a_usage_error() {
    let v = verdict(&[
        "--command",
        "ls",
        "--config",
        &fixture("exec-denied-by-policy.json5"),
    ]);
    assert_eq!(v["verdict"], "hidden", "{v}");
    assert_eq!(v["step"], "policy");
    assert_eq!(v["key"], "tools.deny[0]");
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["explain", "read", "--command", "ls"])
        .env("HOME", home.path())
        .env_remove("OPENCLAW_CONFIG_PATH")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let (code, _, err) = explain(&["--command", "ls", "--approvals", "/nonexistent/doc.json5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/doc.json5"), "{err}");
}

#[test]
fn a_legacy_approvals_file_is_an_error_naming_it_and_an_embedded_run_cannot_ask() {
    let home = tempfile::tempdir().unwrap();
    let state = home.path().join(".openclaw");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("exec-approvals.json"), "{}").unwrap();
    let args = [
        "--command",
        "whoami",
        "--config",
        &fixture("allowlist-on-miss.json5"),
    ];
    let (code, out, err) = explain_in(home.path(), &args);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(".openclaw/exec-approvals.json") && err.contains("doctor --fix"),
        "{err}"
    );
    // Nothing stored: OpenClaw's defaults, and an embedded (--local) turn cannot register the
    // question a miss raises.
    std::fs::remove_file(state.join("exec-approvals.json")).unwrap();
    let mut local = args.to_vec();
    local.extend(["--surface", "local", "--json"]);
    let (code, out, err) = explain_in(home.path(), &local);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["approvals"], Value::Null);
    assert_eq!(answer["surface"], "local");
    assert_eq!(answer["command"]["verdict"], "denied", "{answer}");
    assert!(
        answer["command"]["reason"]
            .as_str()
            .unwrap()
            .contains("registration failed"),
        "{answer}"
    );
}

#[test]
fn elevated_mode_moves_a_sandboxed_call_to_the_gateway_only_for_an_allowed_sender() {
    let config = fixture("elevated-sandboxed.json5");
    let base = [
        "--command",
        "whoami",
        "--config",
        &config,
        "--channel",
        "telegram",
    ];
    let sandboxed = verdict(&[&base[..], &["--sender-id", "999"]].concat());
    assert_eq!(
        (
            &sandboxed["host"],
            &sandboxed["verdict"],
            &sandboxed["elevated"]["level"]
        ),
        (
            &Value::from("sandbox"),
            &Value::from("runs"),
            &Value::from("off")
        ),
        "{sandboxed}"
    );
    assert!(
        sandboxed["elevated"]["why"]
            .as_str()
            .unwrap()
            .contains("tools.elevated.allowFrom.telegram"),
        "{sandboxed}"
    );
    // The allowed sender gets the default level `on`: the gateway's allowlist then applies.
    let allowed = verdict(&[&base[..], &["--sender-id", "12345"]].concat());
    assert_eq!(
        (
            &allowed["host"],
            &allowed["verdict"],
            &allowed["elevated"]["level"]
        ),
        (
            &Value::from("gateway"),
            &Value::from("asks"),
            &Value::from("on")
        ),
        "{allowed}"
    );
    // `full` skips approvals only where the policy asks for nothing: not over an allowlist.
    let full = verdict(&[&base[..], &["--sender-id", "12345", "--elevated", "full"]].concat());
    assert_eq!(full["verdict"], "asks", "{full}");
    let (code, _, err) = explain(&[&base[..], &["--elevated", "sometimes"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an elevated level"), "{err}");
}

#[test]
fn elevated_full_and_a_full_permission_mode_skip_a_strict_inline_eval_question() {
    let config = fixture("elevated-sandboxed.json5");
    let base = [
        "--command",
        "awk 'BEGIN { print 1 }'",
        "--config",
        &config,
        "--channel",
        "telegram",
        "--sender-id",
        "12345",
    ];
    let guarded = verdict(&[&base[..], &["--permission-mode", "guarded"]].concat());
    assert_eq!(guarded["verdict"], "asks", "{guarded}");
    let full_mode = verdict(&[&base[..], &["--permission-mode", "full"]].concat());
    assert_eq!(
        (&full_mode["verdict"], &full_mode["step"]),
        (&Value::from("runs"), &Value::from("permissionMode")),
        "{full_mode}"
    );
    // Elevated full over security full / ask off (the full mode's pair): no question either.
    let both = verdict(
        &[
            &base[..],
            &["--permission-mode", "full", "--elevated", "full"],
        ]
        .concat(),
    );
    assert_eq!(both["verdict"], "runs", "{both}");
}

#[test]
fn a_turns_exec_directive_counts_on_a_chat_turn_only_and_only_tightens_a_mode() {
    let config = fixture("allowlist-ask-off.json5");
    let base = ["--command", "whoami", "--config", &config];
    let plain = verdict(&base);
    assert_eq!(plain["verdict"], "denied", "{plain}");
    let loosened = verdict(&[&base[..], &["--exec-security", "full"]].concat());
    assert_eq!(
        (&loosened["verdict"], &loosened["key"]),
        (
            &Value::from("runs"),
            &Value::from("the turn's /exec security=full")
        ),
        "{loosened}"
    );
    let headless = verdict(
        &[
            &base[..],
            &["--exec-security", "full", "--surface", "headless"],
        ]
        .concat(),
    );
    assert_eq!(
        headless["verdict"], "denied",
        "a headless run reads no /exec: {headless}"
    );
    let in_mode = verdict(
        &[
            &base[..],
            &["--exec-security", "full", "--permission-mode", "read-only"],
        ]
        .concat(),
    );
    assert_eq!(in_mode["verdict"], "denied", "{in_mode}");
    let (code, _, err) = explain(&[&base[..], &["--exec-ask", "sometimes"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an exec ask"), "{err}");
}

#[test]
fn an_automations_question_is_denied_as_an_automation_and_names_the_standing_grant() {
    let config = fixture("allowlist-on-miss.json5");
    let v = verdict(&[
        "--command",
        "whoami",
        "--config",
        &config,
        "--surface",
        "cron",
    ]);
    assert_eq!(v["verdict"], "denied", "{v}");
    let reason = v["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("exec denied: Automation runs cannot wait")
            && reason.contains("standing grant"),
        "{reason}"
    );
    assert!(v["fix"].as_str().unwrap().contains("allow-always"), "{v}");
}
