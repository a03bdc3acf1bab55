//! Console tests of the analysis panes: the Policy view's verdict column against a gateway
//! session (agreeing, and with disagreements), the session picker, the Lint view (9) and the
//! Diff what-if view (0). Drawn on a TestBackend with a fixed clock; each snapshot is also
//! asserted for what it means.

use std::path::PathBuf;

use super::harness::Harness;
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::deck::session_compare::{check_session, session_context};
use crate::event::{AppEvent, CoreEvent};
use crate::gateway::ClientEvent;
use crate::views::ViewId;
use crate::views::policy_verdicts::CompareState;
use crate::views::sessions::SessionsView;
use crossterm::event::KeyCode;
use serde_json::{Value, json};

const SESSION: &str = "agent:ops:main";

/// The Lint/Diff fixture under the 2026.9 pack, read from its file (findings get their
/// line:column).
fn lint_config() -> LoadedConfig {
    let rel = "tests/fixtures/tui/lint.json5";
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cfg = crate::config::load_from_str(&text, rel)
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    cfg.path = Some(path);
    cfg
}

/// The console fixture (as the views tests use it) under the 2026.9 pack.
fn tui_config() -> LoadedConfig {
    let rel = "tests/fixtures/tui/openclaw.json5";
    let text = std::fs::read_to_string(
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(rel),
    )
    .unwrap();
    crate::config::load_from_str(&text, rel)
        .unwrap()
        .with_pack("2026.9")
        .unwrap()
}

fn harness(config: LoadedConfig) -> Harness {
    let mut h = Harness::new();
    h.app.set_config(config);
    h.pump();
    h.app.status = None;
    h
}

impl Harness {
    /// What clawdeck shows for the session's context (its own tools left out), as a gateway
    /// would list it when it agrees.
    fn agreeing_payload(&self) -> Vec<String> {
        let config = self.app.config().cloned().unwrap();
        let registry = Registry::build(&config, &crate::mcp_servers::ServerListing::Off);
        let own = crate::comparison::own_tools(&registry);
        crate::policy::resolve(&config, &registry, &session_context(SESSION))
            .unwrap()
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !own.contains(n))
            .collect()
    }

    /// Picks the session (without a deck the ask fails at once) and answers it with a
    /// gateway's `tools.effective` listing `tools`, through the same event the core sends.
    fn compare_with(&mut self, tools: &[String]) {
        self.app.handle_event(AppEvent::CompareSession(Some((
            "gw".into(),
            SESSION.into(),
        ))));
        self.pump();
        let payload = effective(tools);
        let config = self.app.config().cloned().unwrap();
        let registry = self.app.registry().cloned().unwrap();
        let check = check_session(&config, &registry, "gw", SESSION, &payload).unwrap();
        let generation = self.app.session_generation();
        self.app
            .handle_event(AppEvent::Core(CoreEvent::SessionChecked {
                generation,
                result: Ok(Box::new(check)),
            }));
    }
}

fn effective(tools: &[String]) -> Value {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"id": t, "source": "core"}))
        .collect();
    json!({"agentId": "ops", "groups": [{"id": "core", "label": "Built-in", "tools": tools}]})
}

// ---------------------------------------------------------------- Policy view verdicts

#[test]
fn without_a_gateway_the_policy_view_has_no_verdict_column_and_s_says_why() {
    let mut h = harness(tui_config());
    let screen = h.screen(150, 40);
    assert!(!screen.contains("✓ agree"), "{screen}");
    assert!(!screen.contains("session agent:"), "{screen}");
    h.app.sessions = SessionsView::unavailable("no gateway configured");
    h.key(KeyCode::Char('s'));
    assert!(h.app.policy.session_picker.is_none());
    let status = h.app.status.clone().unwrap().0;
    assert!(
        status.contains("no gateway session to compare with: no gateway configured"),
        "{status}"
    );
}

#[test]
fn policy_view_with_a_gateway_session_that_agrees() {
    let mut h = harness(tui_config());
    let tools = h.agreeing_payload();
    h.compare_with(&tools);
    // The console took the session's context: agent ops.
    assert_eq!(h.app.context.agent.as_deref(), Some("ops"));
    let compare = h.app.policy.session.clone().unwrap();
    let CompareState::Ready(check) = &compare.state else {
        panic!("{compare:?}")
    };
    assert_eq!(check.comparison.policy_disagreements(), 0);
    let screen = h.screen(170, 40);
    assert!(
        screen.contains("✓ 0 policy disagreements, 0 schema differences"),
        "{screen}"
    );
    assert!(
        screen.contains("gateway gw · session agent:ops:main · compared as agent ops"),
        "{screen}"
    );
    assert!(screen.contains("result"), "{screen}");
    assert!(screen.contains("✓ agree"), "{screen}");
    assert!(!screen.contains("✗ clawdeck-only"), "{screen}");
    assert!(!screen.contains("✗ openclaw-only"), "{screen}");
    insta::assert_snapshot!("policy_verdicts_agree", screen);
    // clawdeck's own tools are not compared (OpenClaw never has them).
    h.key(KeyCode::Char('/'));
    h.type_text("clawbot");
    h.key(KeyCode::Enter);
    let screen = h.screen(170, 40);
    assert!(screen.contains("· own tool"), "{screen}");
    assert!(
        screen.contains("clawdeck's own tool: OpenClaw never has it"),
        "{screen}"
    );
}

#[test]
fn policy_view_marks_each_disagreement_and_shows_the_deciding_rule_beside_the_gateway() {
    let mut h = harness(tui_config());
    let mut tools = h.agreeing_payload();
    // The gateway lacks read (clawdeck shows it) and lists process (ops denies it), a tool
    // clawdeck does not know and one this config does not bring (no music model or key).
    tools.retain(|t| t != "read");
    tools.push("process".into());
    tools.push("brand_new_tool".into());
    tools.push("music_generate".into());
    h.compare_with(&tools);
    let check = h
        .app
        .policy
        .session
        .as_ref()
        .unwrap()
        .check()
        .unwrap()
        .clone();
    assert_eq!(check.comparison.policy_disagreements(), 4);

    // Tall enough for every row, wide enough for the whole status line.
    let screen = h.screen(210, 90);
    assert!(screen.contains("4 policy disagreements"), "{screen}");
    assert!(
        screen.contains("✗ openclaw-only, not in clawdeck's catalog: brand_new_tool ·"),
        "{screen}"
    );
    assert!(
        screen.contains("✗ openclaw-only, not built for this config: music_generate"),
        "{screen}"
    );
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains("│"))
            .unwrap_or_else(|| panic!("no row for {name}: {screen}"))
            .to_string()
    };
    assert!(row("read").contains("✗ clawdeck-only"), "{}", row("read"));
    assert!(
        row("process").contains("✗ openclaw-only"),
        "{}",
        row("process")
    );
    assert!(row("exec").contains("✓ agree"), "{}", row("exec"));

    // The selected disagreeing tool: clawdeck's rule beside what the gateway says.
    h.key(KeyCode::Char('/'));
    h.type_text("process");
    h.key(KeyCode::Enter);
    let screen = h.screen(170, 40);
    assert!(
        screen.contains(
            "✗ openclaw-only gateway gw · session agent:ops:main · compared as agent ops"
        ),
        "{screen}"
    );
    assert!(
        screen.contains("clawdeck: hidden at agent: denied by \"process\""),
        "{screen}"
    );
    assert!(screen.contains("agents.list[1].tools.deny"), "{screen}");
    assert!(
        screen.contains("gateway:  tools.effective lists it (core)"),
        "{screen}"
    );
    insta::assert_snapshot!("policy_verdicts_disagree", screen);

    // Changing the context away from the session's drops the verdicts.
    h.app
        .handle_event(AppEvent::SetContext(session_context("agent:main:main")));
    assert!(h.app.policy.session.is_none());
    assert!(
        h.app
            .status
            .clone()
            .unwrap()
            .0
            .contains("gateway comparison dropped")
    );
}

#[test]
fn an_older_answer_never_replaces_a_newer_question() {
    let mut h = harness(tui_config());
    let tools = h.agreeing_payload();
    h.compare_with(&tools);
    let stale = h.app.session_generation();
    // Asked again (a config reload re-asks): the old answer is ignored.
    h.app.set_config(tui_config());
    assert!(h.app.session_generation() > stale);
    let config = h.app.config().cloned().unwrap();
    let registry = h.app.registry().cloned().unwrap();
    let check = check_session(&config, &registry, "gw", SESSION, &effective(&[])).unwrap();
    h.app
        .handle_event(AppEvent::Core(CoreEvent::SessionChecked {
            generation: stale,
            result: Ok(Box::new(check)),
        }));
    let state = &h.app.policy.session.as_ref().unwrap().state;
    assert!(!matches!(state, CompareState::Ready(_)), "{state:?}");
}

#[test]
fn the_session_picker_lists_the_roster_and_asks_for_the_pick() {
    let mut h = harness(tui_config());
    h.app.sessions = SessionsView::attaching(&["gw".to_string()]);
    h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
        gateway: "gw".into(),
        event: ClientEvent::Subscribed {
            method: "sessions.list".into(),
            payload: json!({"sessions": [
                {"key": "agent:ops:main", "agentId": "ops", "kind": "direct", "updatedAt": 1_767_225_600_000u64},
                {"key": "agent:main:main", "agentId": "main", "kind": "direct", "updatedAt": 1_767_225_500_000u64},
            ]}),
        },
        permit: crate::deck::paced::Permit::none(),
    }));
    h.key(KeyCode::Char('s'));
    assert!(h.app.policy.session_picker.is_some());
    let screen = h.screen(120, 30);
    assert!(
        screen.contains("agent:ops:main · agent ops · gw"),
        "{screen}"
    );
    assert!(
        screen.contains("agent:main:main · agent main · gw"),
        "{screen}"
    );
    assert!(screen.contains("none (no verdict column)"), "{screen}");
    // `j` is typed into the picker's filter, not a move: filter to main's session.
    h.type_text("main:main");
    h.key(KeyCode::Enter);
    let events = h.pump();
    assert!(
        events
            .iter()
            .any(|e| e.contains("CompareSession(Some((\"gw\", \"agent:main:main\")))")),
        "{events:?}"
    );
    assert_eq!(h.app.context.agent.as_deref(), Some("main"));
    let compare = h.app.policy.session.as_ref().unwrap();
    assert_eq!(compare.session_key, "agent:main:main");
    // No runtime to ask on in this test: the view says so instead of waiting forever.
    assert!(
        matches!(&compare.state, CompareState::Failed(e) if e.contains("no runtime")),
        "{compare:?}"
    );
    // Picking "none" drops the comparison.
    h.key(KeyCode::Char('s'));
    h.type_text("none");
    h.key(KeyCode::Enter);
    h.pump();
    assert!(h.app.policy.session.is_none());
}

// ---------------------------------------------------------------- Lint view

#[test]
fn lint_view_lists_findings_with_the_key_to_change() {
    let mut h = harness(lint_config());
    h.key(KeyCode::Char('9'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Lint);
    let screen = h.screen(150, 30);
    assert!(screen.contains(" 9 Lint "), "{screen}");
    assert!(
        screen.contains("Lint · 0 errors · 2 warnings · 0 notes · OpenClaw 2026.9"),
        "{screen}"
    );
    assert!(
        screen.contains("⚠ warning agents.entries.ops.tools.deny[0] (12:18)"),
        "{screen}"
    );
    // The first finding in full: the sentence, the fix, the contexts.
    assert!(
        screen.contains(
            "fix: change agents.entries.ops.tools.deny[0] at tests/fixtures/tui/lint.json5:12:18"
        ),
        "{screen}"
    );
    insta::assert_snapshot!("lint_view", screen);
    h.key(KeyCode::Char('j'));
    let screen = h.screen(150, 30);
    assert!(
        screen.contains("\"image\" was renamed \"view_image\""),
        "{screen}"
    );
}

#[test]
fn lint_view_follows_config_reloads() {
    let mut h = harness(lint_config());
    h.app.handle_event(AppEvent::SwitchView(ViewId::Lint));
    h.pump();
    assert_eq!(h.app.lint.findings().len(), 2);
    let clean = crate::config::load_from_str("{ tools: { profile: 'coding' } }", "clean.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    // Reloaded while the Lint view is shown: linted again at once.
    h.app.set_config(clean);
    h.pump();
    let screen = h.screen(120, 20);
    assert!(
        screen.contains("✓ no findings in clean.json5 (text)"),
        "{screen}"
    );
}

// ---------------------------------------------------------------- Diff view

#[test]
fn diff_view_what_if_another_agent_shows_what_disappears_and_the_rule() {
    let mut h = harness(lint_config());
    h.key(KeyCode::Char('0'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Diff);
    let screen = h.screen(150, 30);
    assert!(screen.contains(" 0 Diff "), "{screen}");
    assert!(screen.contains("no difference: the same"), "{screen}");
    // `e`: side b becomes the next agent that is not a's (main): ops, at the first press.
    h.key(KeyCode::Char('e'));
    h.pump();
    assert_eq!(h.app.diff.what_if.agent.as_deref(), Some("ops"));
    let screen = h.screen(150, 30);
    assert!(screen.contains("b: agent ops"), "{screen}");
    assert!(screen.contains("35 gone on b"), "{screen}");
    assert!(
        screen.contains(
            "hidden on b by agent policy: not in the allowlist (agents.entries.ops.tools.allow)"
        ),
        "{screen}"
    );
    assert!(
        screen.contains("config key: agents.entries.ops.tools.allow"),
        "{screen}"
    );
    insta::assert_snapshot!("diff_view_other_agent", screen);
}

#[test]
fn diff_view_toggles_owner_subagent_sandbox_and_version() {
    let mut h = harness(lint_config());
    h.app.handle_event(AppEvent::SwitchView(ViewId::Diff));
    h.pump();
    // Owner off: the non-owner removal list goes.
    h.key(KeyCode::Char('o'));
    h.pump();
    let d = h.app.diff.result.clone().unwrap();
    assert!(d.b.label.contains("owner=false"), "{}", d.b.label);
    assert!(d.disappear.iter().any(|c| c.tool == "gateway"), "{d:?}");
    // Subagent on as well: gateway stays gone, sessions_send goes too (always denied to subagents).
    h.key(KeyCode::Char('u'));
    h.pump();
    let d = h.app.diff.result.clone().unwrap();
    assert!(d.b.label.contains("subagent=true"), "{}", d.b.label);
    // Back, then the sandbox: browser is in the sandbox's default deny.
    h.key(KeyCode::Char('z'));
    h.key(KeyCode::Char('b'));
    h.pump();
    let d = h.app.diff.result.clone().unwrap();
    assert!(d.b.label.contains("sandboxed=true"), "{}", d.b.label);
    assert!(d.disappear.iter().any(|c| c.tool == "automations"), "{d:?}");
    // Another version pack: the seed's catalog on b.
    h.key(KeyCode::Char('z'));
    while h.app.diff.what_if.version.as_deref() != Some("seed") {
        h.key(KeyCode::Char('v'));
        assert!(h.app.diff.what_if.version.is_some(), "seed is a known pack");
    }
    h.pump();
    let d = h.app.diff.result.clone().unwrap();
    assert_eq!(
        (d.a.openclaw.as_str(), d.b.openclaw.as_str()),
        ("2026.9", "seed")
    );
    assert!(d.only_in_a.iter().any(|t| t.tool == "automations"), "{d:?}");
    let screen = h.screen(150, 30);
    assert!(screen.contains("only a's ver"), "{screen}");
    assert!(screen.contains("OpenClaw seed"), "{screen}");
    insta::assert_snapshot!("diff_view_seed_version", screen);
}

// ---------------------------------------------------------------- Will this command run?

/// OpenClaw's state directory with an approvals document stored as OpenClaw 2026.9 keeps it
/// (`state/openclaw.sqlite`, table `exec_approvals_config`, row `current`).
fn state_with_approvals(raw: &str) -> tempfile::TempDir {
    let state = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(state.path().join("state")).unwrap();
    let db = rusqlite::Connection::open(state.path().join("state/openclaw.sqlite")).unwrap();
    db.execute(
        "CREATE TABLE exec_approvals_config (config_key TEXT PRIMARY KEY, raw_json TEXT)",
        [],
    )
    .unwrap();
    db.execute(
        "INSERT INTO exec_approvals_config VALUES ('current', ?1)",
        [raw],
    )
    .unwrap();
    state
}

#[test]
fn policy_view_judges_a_command_line_under_execs_layers() {
    let text = r#"{ tools: { exec: { host: "gateway", security: "allowlist", ask: "on-miss" } } }"#;
    let cfg = crate::config::load_from_str(text, "exec.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let mut h = harness(cfg);
    let state =
        state_with_approvals(r#"{"version":1,"agents":{"*":{"allowlist":["/usr/bin/ls"]}}}"#);
    h.app.openclaw_state = Some(state.path().to_path_buf());
    // `!` opens the line; Enter judges it and selects exec.
    h.key(KeyCode::Char('!'));
    assert!(h.app.policy.exec_input.is_some());
    h.type_text("/usr/bin/ls -la && whoami");
    h.key(KeyCode::Enter);
    h.pump();
    assert_eq!(
        h.app
            .policy
            .selected_tool()
            .map(|t| t.name.clone())
            .as_deref(),
        Some("exec")
    );
    let check = h.app.policy.exec_check.clone().unwrap();
    let crate::views::policy_exec::ExecCheckState::Ready(verdicts) = &check.state else {
        panic!("{check:?}")
    };
    assert_eq!(
        verdicts.interactive.verdict,
        crate::exec_verdict::Verdict::Asks
    );
    assert_eq!(
        verdicts.headless.verdict,
        crate::exec_verdict::Verdict::Denied
    );
    let screen = h.screen(120, 64);
    assert!(
        screen.contains("Will `/usr/bin/ls -la && whoami` run?"),
        "{screen}"
    );
    assert!(
        screen.contains("interactive ? asks at allowlist (tools.exec.ask)"),
        "{screen}"
    );
    assert!(
        screen.contains("headless    ✗ DENIED at askFallback"),
        "{screen}"
    );
    assert!(
        screen.contains("segment `/usr/bin/ls -la` ✓ runs (allowlist)"),
        "{screen}"
    );
    assert!(
        screen.contains("openclaw.sqlite#exec_approvals_config"),
        "{screen}"
    );
    let shown = screen.replace(&state.path().display().to_string(), "<state>");
    insta::assert_snapshot!("policy_exec_verdict", shown);

    // `!` again starts from the same line; Esc keeps the verdict, an empty line drops it.
    h.key(KeyCode::Char('!'));
    assert_eq!(
        h.app
            .policy
            .exec_input
            .as_ref()
            .map(|i| i.text.clone())
            .as_deref(),
        Some("/usr/bin/ls -la && whoami")
    );
    h.key(KeyCode::Esc);
    assert!(h.app.policy.exec_check.is_some());
    h.key(KeyCode::Char('!'));
    for _ in 0.."/usr/bin/ls -la && whoami".len() {
        h.key(KeyCode::Backspace);
    }
    h.key(KeyCode::Enter);
    h.pump();
    assert!(h.app.policy.exec_check.is_none());
    let screen = h.screen(120, 64);
    assert!(!screen.contains("run?\n"), "{screen}");
    assert!(
        screen.contains("! judges a command line: will it run?"),
        "{screen}"
    );
}

#[test]
fn a_command_judged_is_judged_again_when_the_context_changes() {
    let text = r#"{ agents: { list: [ { id: "main", default: true }, { id: "ops", tools: { deny: ["exec"] } } ] } }"#;
    let cfg = crate::config::load_from_str(text, "exec.json5")
        .unwrap()
        .with_pack("2026.9")
        .unwrap();
    let mut h = harness(cfg);
    h.key(KeyCode::Char('!'));
    h.type_text("uname -a");
    h.key(KeyCode::Enter);
    h.pump();
    let verdict = |h: &Harness| match &h.app.policy.exec_check.as_ref().unwrap().state {
        crate::views::policy_exec::ExecCheckState::Ready(v) => v.interactive.verdict,
        other => panic!("{other:?}"),
    };
    assert_eq!(verdict(&h), crate::exec_verdict::Verdict::Runs);
    let mut ops = h.app.context.clone();
    ops.agent = Some("ops".into());
    h.app.handle_event(AppEvent::SetContext(ops));
    h.pump();
    assert_eq!(verdict(&h), crate::exec_verdict::Verdict::Hidden);
    let screen = h.screen(120, 64);
    assert!(screen.contains("✗ hidden at policy"), "{screen}");
}
