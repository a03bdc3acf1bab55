//! `clawdeck schema`, `prompt` and `dispatch` on the skills fixture config: what an operator
//! sees is what the model is sent, under the same policy.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use clawdeck_core::provider::{ProviderApi, check_payload};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skills")
}

/// The binary on the fixture config, with a PATH holding the fixture `psql` and `curl` first and
/// no NOTION_API_KEY, so skill eligibility does not depend on the machine.
fn clawdeck() -> Command {
    let mut cmd = Command::cargo_bin("clawdeck").unwrap();
    let path = format!(
        "{}:{}",
        fixtures().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    cmd.env("PATH", path)
        .env_remove("NOTION_API_KEY")
        .env("CLAWDECK_OPENCLAW_VERSION", "seed")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("OPENCLAW_STATE_DIR")
        .arg("--config")
        .arg(fixtures().join("config/openclaw.json5"));
    cmd
}

fn json_output(cmd: &mut Command) -> (Value, i32) {
    let out = cmd.output().unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (value, out.status.code().unwrap_or(-1))
}

#[test]
fn schema_payloads_pass_each_providers_check() {
    for api in ProviderApi::ALL {
        let (out, code) = json_output(clawdeck().args(["schema", "--api", api.id(), "--json"]));
        assert_eq!(code, 0, "{api}: {out}");
        assert_eq!(out["api"], api.id());
        assert_eq!(out["violations"], Value::Array(vec![]), "{api}");
        assert!(check_payload(api, &out["payload"]).is_empty(), "{api}");
        let tools: Vec<&str> = out["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            tools.contains(&"read") && tools.contains(&"sessions_spawn"),
            "{api}: {tools:?}"
        );
    }
}

#[test]
fn schema_follows_the_context_provider() {
    // The agent's model picks the API; --provider overrides it, and its policy applies.
    let (out, _) = json_output(clawdeck().args(["schema", "--json"]));
    assert_eq!(out["api"], "anthropic");
    assert!(out["payload"][0].get("input_schema").is_some());
    let (out, _) = json_output(clawdeck().args(["--provider", "google", "schema", "--json"]));
    assert_eq!(out["api"], "gemini");
    let names: Vec<&str> = out["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        !names.contains(&"message"),
        "tools.byProvider.google denies message"
    );
    assert!(out["payload"][0]["functionDeclarations"].is_array());
    // Plain output is the payload alone.
    let plain = clawdeck()
        .args(["schema", "--api", "openai"])
        .output()
        .unwrap();
    let payload: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(payload[0]["type"], "function");
}

#[test]
fn prompt_shows_tools_skills_and_router_guidance() {
    let out = clawdeck().arg("prompt").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("You are a personal assistant running inside OpenClaw.\n\n## Tooling\nTool availability (filtered by policy):"));
    assert!(text.contains("\n- read: Read file contents\n"));
    assert!(
        text.contains("## clawbot_router"),
        "the router is visible for main"
    );
    assert!(text.contains("我正在通过 clawBot 处理复杂任务，可能需要几秒钟。"));
    assert!(text.contains("## Skills (mandatory)"));
    assert!(text.contains("<name>db-expert</name>"));
    assert!(
        text.contains("<name>database-expert</name>"),
        "psql from the fixture PATH"
    );
    assert!(
        !text.contains("<name>notion</name>"),
        "NOTION_API_KEY is not set"
    );
    assert!(text.contains("Your working directory is: "));

    // The locked agent has no router: no guidance, and --router says why.
    let locked = clawdeck()
        .args(["--agent", "locked", "prompt"])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8(locked.stdout)
            .unwrap()
            .contains("## clawbot_router")
    );
    let note = clawdeck()
        .args(["--agent", "locked", "prompt", "--router"])
        .output()
        .unwrap();
    let note = String::from_utf8(note.stdout).unwrap();
    assert!(
        note.starts_with("no router guidance: clawbot_router is hidden in this context"),
        "{note}"
    );
}

#[test]
fn prompt_modes() {
    let minimal = String::from_utf8(
        clawdeck()
            .args(["prompt", "--mode", "minimal"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(minimal.contains("- read: Read file contents"));
    assert!(
        !minimal.contains("## Skills")
            && !minimal.contains("sessions_spawn")
            && !minimal.contains("clawbot_router")
    );
    let none = String::from_utf8(
        clawdeck()
            .args(["prompt", "--mode", "none"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        none.trim_end(),
        "You are a personal assistant running inside OpenClaw."
    );
    let bad = clawdeck()
        .args(["prompt", "--mode", "huge"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn prompt_json_lists_skill_eligibility_and_commands() {
    let (out, code) = json_output(clawdeck().args(["prompt", "--json"]));
    assert_eq!(code, 0);
    let skills = out["skills"]["skills"].as_array().unwrap();
    let find = |name: &str| skills.iter().find(|s| s["name"] == name).unwrap();
    assert_eq!(find("web-developer")["source"], "workspace");
    assert_eq!(find("apple-notes")["eligible"], false);
    assert_eq!(
        find("notion")["reasons"][0],
        "environment not set: NOTION_API_KEY"
    );
    let commands: Vec<&str> = out["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(commands.contains(&"db_expert") && commands.contains(&"release_checklist"));
}

#[test]
fn dispatch_routes_raw_args_to_the_tool() {
    let (out, code) = json_output(clawdeck().args([
        "dispatch",
        "/db_expert optimize this query",
        "--dry-run",
        "--json",
    ]));
    assert_eq!(code, 0, "{out}");
    let plan = &out["plan"];
    assert_eq!(plan["outcome"], "tool_call");
    assert_eq!(plan["tool"], "sessions_spawn");
    assert_eq!(plan["params"]["agentId"], "db-expert");
    // The raw text lands in sessions_spawn's text parameter (message, or task in OpenClaw's schema).
    let text = plan["params"]
        .get("message")
        .or_else(|| plan["params"].get("task"))
        .unwrap();
    assert_eq!(text, "optimize this query");

    // Plain --dry-run prints the call as JSON.
    let plain = clawdeck()
        .args([
            "dispatch",
            "/db-expert \"optimize this query\"",
            "--dry-run",
        ])
        .output()
        .unwrap();
    let call: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(call["tool"], "sessions_spawn");
}

#[test]
fn dispatch_is_refused_when_policy_hides_the_tool() {
    let (out, code) = json_output(clawdeck().args([
        "--agent",
        "locked",
        "dispatch",
        "/db_expert optimize",
        "--dry-run",
        "--json",
    ]));
    assert_eq!(code, 3, "{out}");
    assert_eq!(out["plan"]["outcome"], "refused");
    assert_eq!(out["plan"]["tool"], "sessions_spawn");
    assert!(
        out["plan"]["reason"]
            .as_str()
            .unwrap()
            .contains("sessions_spawn"),
        "{out}"
    );

    let unknown = clawdeck()
        .args(["dispatch", "/nope x", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no such skill command"));
    let model = clawdeck()
        .args(["dispatch", "/web_developer build a form", "--dry-run"])
        .output()
        .unwrap();
    assert!(model.status.success());
    assert!(
        String::from_utf8_lossy(&model.stdout)
            .contains("the model, pointed at skill \"web-developer\"")
    );
}

#[test]
fn dispatch_runs_the_call_through_the_pipeline() {
    let out = clawdeck()
        .args(["dispatch", "/shell echo dispatched-$((40+2))"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "dispatched-42");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("/shell → exec {\"command\":\"echo dispatched-$((40+2))\"}")
    );
}

#[test]
fn subagent_contexts_default_to_the_minimal_prompt() {
    let out = clawdeck()
        .args([
            "--session-key",
            "agent:main:subagent:42",
            "prompt",
            "--json",
        ])
        .output()
        .unwrap();
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["mode"], "minimal");
    assert!(!value["prompt"].as_str().unwrap().contains("## Skills"));
    let out = clawdeck()
        .args(["--subagent", "prompt", "--mode", "full", "--json"])
        .output()
        .unwrap();
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["mode"], "full");
}

/// `prompt` on a GPT-5 model under a pack with a prompt template: the overlay's Interaction
/// Style and behaviour contract, without the style when the OpenAI personality is off, and
/// `--sections` naming where the style comes from.
#[test]
fn prompt_on_a_gpt5_model_carries_the_overlay() {
    let home = tempfile::tempdir().unwrap();
    let fidelity = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fidelity");
    let prompt = |case: &str, extra: &[&str]| {
        let out = Command::cargo_bin("clawdeck")
            .unwrap()
            .env("HOME", home.path())
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_STATE_DIR")
            .env_remove("OPENCLAW_BIN")
            .args(["--openclaw-version", "2026.9", "--config"])
            .arg(fidelity.join(case).join("openclaw.json5"))
            .arg("prompt")
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let on = prompt("gpt5-prompt-overlay", &[]);
    assert!(on.contains("\n## Interaction Style\n"), "{on}");
    assert!(on.contains("<persona_latch>"));
    let off = prompt("gpt5-prompt-overlay-personality-off", &[]);
    assert!(!off.contains("## Interaction Style"));
    assert!(off.contains("<persona_latch>"));
    let plain = prompt("profile-full", &[]);
    assert!(!plain.contains("<persona_latch>") && !plain.contains("## Interaction Style"));
    let sections = prompt("gpt5-prompt-overlay", &["--sections"]);
    let style = sections
        .lines()
        .find(|l| l.contains("Interaction Style"))
        .unwrap_or_else(|| panic!("{sections}"));
    assert!(style.contains("the GPT-5 overlay"), "{style}");
}

/// A scheduled job's user message, as each release's cron service writes it: the job's mark,
/// the time, the preamble; an announcement with the message tool names its destination as
/// data; 2026.9 ends with the Runtime line (2026.8 keeps it in the system prompt). The seed
/// pack has no template for it.
#[test]
fn prompt_writes_a_scheduled_jobs_user_message() {
    let job = [
        "--user-message",
        "--job-id",
        "job-7",
        "--job-name",
        "nightly",
        "--job-message",
        "Sum up.",
    ];
    let announce = [
        "--scheduled-tools",
        "*",
        "--channel",
        "telegram",
        "--session-key",
        "agent:main:telegram:group:-100<9>",
        "--account",
        "work",
    ];
    let out = clawdeck()
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .args(["prompt"])
        .args(announce)
        .args(job)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("[cron:job-7 nightly] Sum up.\nCurrent time: "),
        "{text}"
    );
    assert!(
        text.contains("\n\nThis is an unattended scheduled run."),
        "{text}"
    );
    assert!(
        text.contains("notify the user directly with an explicit target."),
        "{text}"
    );
    // The group's `<` cannot open a tag in the model's view of the data.
    assert!(
        text.contains(
            "<untrusted-text>\n{\"channel\":\"telegram\",\"target\":\"-100&lt;9&gt;\",\"accountId\":\"work\"}\n</untrusted-text>"
        ),
        "{text}"
    );
    let runtime = text.lines().last().unwrap_or_default();
    assert!(
        runtime.starts_with("Runtime: agent=main | session=agent:main:telegram:group:-100<9> | "),
        "{text}"
    );
    assert!(
        runtime.contains("| channel=telegram | capabilities=none"),
        "{runtime}"
    );

    // A job in its own run session: the Runtime line names the job's session and no id.
    let own = clawdeck()
        .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
        .args(["prompt", "--scheduled-tools", "read"])
        .args(job)
        .output()
        .unwrap();
    let own = String::from_utf8_lossy(&own.stdout);
    let runtime = own.lines().last().unwrap_or_default();
    assert!(
        runtime.starts_with("Runtime: agent=main | session=agent:main:cron:job-7 | "),
        "{own}"
    );
    assert!(!runtime.contains("sessionId="), "{runtime}");
    assert!(!own.contains("notify the user"), "{own}");

    // 2026.8: no Runtime line in the message; a job with no chat gets no delivery guidance.
    let (json, code) = json_output(
        clawdeck()
            .env("CLAWDECK_OPENCLAW_VERSION", "2026.8")
            .args(["prompt", "--json", "--scheduled-tools", "read"])
            .args(&job[1..]),
    );
    assert_eq!(code, 0, "{json}");
    let message = json["user_message"].as_str().unwrap();
    assert!(
        message.ends_with("remove it if your available tools allow."),
        "{message}"
    );
    assert!(!message.contains("Runtime:"), "{message}");
    assert!(
        json["prompt"]
            .as_str()
            .unwrap()
            .contains("Runtime: agent=main")
    );

    let seed = clawdeck()
        .args(["prompt", "--scheduled-tools", "*", "--user-message"])
        .output()
        .unwrap();
    assert_eq!(seed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&seed.stderr).contains("no template of OpenClaw's prompt"));
}

/// A turn over a Telegram chat gets Telegram's reaction guidance, its level the account's
/// setting over the channel's; `off` writes no section, and a turn over no chat has none.
#[test]
fn a_telegram_turn_gets_its_accounts_reaction_guidance() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json");
    std::fs::write(
        &config,
        r#"{"channels": {"telegram": {"botToken": "1:a", "reactionLevel": "off",
            "accounts": {"Work": {"botToken": "2:b", "reactionLevel": "extensive"}}}}}"#,
    )
    .unwrap();
    let prompt = |args: &[&str]| {
        let out = Command::cargo_bin("clawdeck")
            .unwrap()
            .env("CLAWDECK_OPENCLAW_VERSION", "2026.9")
            .arg("--config")
            .arg(&config)
            .arg("prompt")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let work = prompt(&["--channel", "telegram", "--account", "work"]);
    assert!(
        work.contains("\n## Reactions\nTelegram reactions: EXTENSIVE.\nReact naturally"),
        "{work}"
    );
    let channel = prompt(&["--channel", "telegram"]);
    assert!(!channel.contains("## Reactions"), "{channel}");
    let no_chat = prompt(&[]);
    assert!(!no_chat.contains("## Reactions"), "{no_chat}");
}
