//! Fidelity against the real OpenClaw: every config under tests/fixtures/fidelity/<name>/ is run
//! through the real CLI (`openclaw agent --local`, model served by clawdeck's recording mock,
//! isolated home) and clawdeck's prediction for the same config and context is compared with
//! what the model received.
//!
//! Each case's `context.json` holds the context (`PolicyContext` fields) and what real OpenClaw
//! is known to do there (`expect`: tools present / absent, a refused run, Tool Search); those
//! are checked first, so a case proves something about OpenClaw even before the comparison.
//! The comparison must show 0 policy disagreements and 0 schema differences.
//!
//! Three kinds of case need more than `openclaw agent --local`:
//! - sandbox cases (`@SSH_*@` in the config) sandbox on OpenClaw's SSH backend against a private
//!   sshd on loopback (tests/ssh_target): Docker, the default backend, needs a daemon;
//! - non-owner cases run twice on a private gateway, as owner and not;
//! - sender cases (a `sender*` field in the context) run twice as Telegram direct messages to a
//!   private gateway through clawdeck's stand-in Bot API, from the case's sender and from one
//!   only `*` matches.
//!
//! The paired cases compare what the one difference changes (see `Pair`).
//!
//! Runs only where the real CLI is installed ($OPENCLAW_BIN, or `openclaw` on PATH;
//! ../shared/realclaw/setup.sh installs it and .ci/run exports OPENCLAW_BIN); elsewhere it prints
//! a SKIPPED line. Cases run two at a time (FIDELITY_JOBS to change; FIDELITY_CASES=a,b runs
//! only those), each under a timeout; the full report is written to
//! $CARGO_TARGET_TMPDIR/fidelity-report.txt.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::catalog::Registry;
use clawdeck_core::config;
use clawdeck_core::context::PolicyContext;
use clawdeck_verify::{self as verify, Comparison, ObservedView, RunOptions, Surface};
use serde::Deserialize;
use tokio::sync::Semaphore;

mod ssh_target;
mod support;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Expect {
    present: Vec<String>,
    absent: Vec<String>,
    refused: bool,
    /// `tool_search` when Tool Search must be on; otherwise schemas must be direct.
    surface: Option<String>,
}

#[derive(Debug, Deserialize)]
struct CaseFile {
    #[serde(default)]
    context: PolicyContext,
    expect: Expect,
    /// What another release does with the same config (`"2026.8"`: its own `expect`, or `skip`
    /// with the reason when that release refuses the config or lacks the feature).
    #[serde(default)]
    versions: std::collections::BTreeMap<String, VersionCase>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionCase {
    #[serde(default)]
    expect: Option<Expect>,
    #[serde(default)]
    skip: Option<String>,
}

struct Case {
    name: String,
    dir: PathBuf,
    file: CaseFile,
    /// The pack clawdeck answers with (a pack synced from the release under test); `None`:
    /// the one the config's load picks.
    pack: Option<Arc<clawdeck_core::semantics::Semantics>>,
    /// The case's config with every placeholder filled in.
    config_text: String,
    /// Whether it sandboxes with the SSH backend (and so needs the private sshd).
    uses_ssh: bool,
}

struct Outcome {
    name: String,
    seconds: f64,
    /// Real OpenClaw did not do what the case says it does.
    truth_failures: Vec<String>,
    /// No observation could be made.
    error: Option<String>,
    comparison: Option<Comparison>,
    /// Non-owner cases: tools on which the owner gate's removals disagree.
    gate_disagreements: Vec<String>,
    report: String,
}

/// `mcp.servers` are started and listed, as `clawdeck` does without `--no-mcp-servers`; one
/// lister for the run, so each server set is listed once.
fn server_listing() -> &'static clawdeck_core::mcp_servers::ServerListing {
    static LISTING: std::sync::OnceLock<clawdeck_core::mcp_servers::ServerListing> =
        std::sync::OnceLock::new();
    LISTING.get_or_init(clawdeck_mcp::SdkServerLister::shared)
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fidelity")
}

/// A case's config text, with `@FIXTURES@` (where a case's MCP servers live) made absolute,
/// `@CHANNEL_PLUGINS@` naming the installed channel plugins and the `@SSH_*@` of the sandbox
/// cases filled by `ssh`.
fn case_config_text(text: &str, ssh: &dyn Fn(&str) -> String) -> String {
    ssh(&text
        .replace("@FIXTURES@", &fixtures().display().to_string())
        .replace(
            "@CHANNEL_PLUGINS@",
            &channel_plugins().display().to_string(),
        ))
}

/// Where the npm channel plugins the channel cases load live (`@openclaw/slack`, `discord`,
/// `signal`, ... of the release under test): $CLAWDECK_CHANNEL_PLUGINS, else the directory
/// .ci/run installs them in. Real OpenClaw loads them from `plugins.load.paths`.
fn channel_plugins() -> PathBuf {
    if let Some(dir) = std::env::var_os("CLAWDECK_CHANNEL_PLUGINS") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("/root"), PathBuf::from);
    home.join(".cache/clawdeck-channel-plugins/2026.9.6/node_modules/@openclaw")
}

/// The SSH placeholders for a prediction alone: a target nobody is asked to answer.
fn ssh_unreached(text: &str) -> String {
    text.replace("@SSH_TARGET@", "clawdeck@127.0.0.1:9")
        .replace("@SSH_IDENTITY@", "/nonexistent/clawdeck-fixture-key")
        .replace(
            "@SSH_KNOWN_HOSTS@",
            "/nonexistent/clawdeck-fixture-known-hosts",
        )
        .replace("@SSH_WORKSPACES@", "/tmp/clawdeck-fixture-sandboxes")
}

/// A case's config, loaded, and the registry clawdeck builds for it.
fn load_case(case: &Case) -> (config::LoadedConfig, Registry) {
    let origin = case.dir.join("openclaw.json5");
    let mut loaded = config::load_from_str(&case.config_text, &origin.display().to_string())
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    if let Some(pack) = &case.pack {
        loaded.semantics = pack.clone();
        loaded.pack.pack = pack.id.clone();
        loaded.pack.reason = "the pack the suite synced from the release under test".into();
    }
    let registry = Registry::build(&loaded, server_listing());
    (loaded, registry)
}

fn load_cases(ssh: &dyn Fn(&str) -> String) -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("openclaw.json5").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("context.json")).unwrap();
            let file: CaseFile = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}/context.json: {e}", dir.display()));
            let config = std::fs::read_to_string(dir.join("openclaw.json5")).unwrap();
            Case {
                name: dir.file_name().unwrap().to_string_lossy().into_owned(),
                config_text: case_config_text(&config, ssh),
                uses_ssh: config.contains("@SSH_TARGET@"),
                pack: None,
                dir,
                file,
            }
        })
        .collect()
}

/// What real OpenClaw must have done for this case.
fn check_truth(expect: &Expect, observed: &ObservedView) -> Vec<String> {
    let mut failures = Vec::new();
    let names = observed.exposed_names();
    let refused = matches!(observed.surface, Surface::Refused { .. });
    if refused != expect.refused {
        failures.push(format!(
            "expected refused={}, OpenClaw: {:?}",
            expect.refused, observed.surface
        ));
    }
    if !expect.refused && names.is_empty() {
        failures.push("OpenClaw exposed no tool at all".to_string());
    }
    let tool_search = matches!(observed.surface, Surface::ToolSearch { .. });
    let want_tool_search = expect.surface.as_deref() == Some("tool_search");
    if !refused && tool_search != want_tool_search {
        failures.push(format!(
            "expected Tool Search {}, OpenClaw: {}",
            if want_tool_search { "on" } else { "off" },
            if tool_search { "on" } else { "off" }
        ));
    }
    for tool in &expect.present {
        if !names.contains(tool) {
            failures.push(format!("expected {tool} to be exposed; it is not"));
        }
    }
    for tool in &expect.absent {
        if names.contains(tool) {
            failures.push(format!("expected {tool} to be hidden; OpenClaw exposes it"));
        }
    }
    failures
}

/// A case observed twice, in a base context and in the case's own, where only one thing of the
/// context differs: what that difference changes in OpenClaw (tools that appear or disappear)
/// is compared with what it changes in clawdeck. Turns that only a gateway runs (a non-owner's,
/// a channel sender's) carry a few host- and channel-specific tools and schemas of their own
/// (`github_identity_status`; `message` and `sessions_spawn` as a Telegram-started run words
/// them), which no local prediction names; the difference cancels them out. The case's run
/// must also pass the case's truth checks.
struct Pair {
    /// What differs, for the report (`the owner gate`, `the sender's toolsBySender entry`).
    what: &'static str,
    /// How both runs were made.
    how: &'static str,
    base_ctx: PolicyContext,
    base: Result<ObservedView, verify::VerifyError>,
    run: Result<ObservedView, verify::VerifyError>,
}

fn compare_pair(case: &Case, started: Instant, pair: Pair) -> Outcome {
    let (loaded, registry) = load_case(case);
    let ctx = case.file.context.clone();
    let own = verify::own_tools(&registry);
    let visible = |c: &PolicyContext| -> std::collections::BTreeSet<String> {
        let view = verify::predict(&loaded, &registry, c).unwrap_or_else(|e| panic!("{e}"));
        view.resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !own.contains(n))
            .collect()
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut outcome = Outcome {
        name: case.name.clone(),
        seconds,
        truth_failures: Vec::new(),
        error: None,
        comparison: None,
        gate_disagreements: Vec::new(),
        report: String::new(),
    };
    let (base, run) = match (pair.base, pair.run) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(err), _) | (_, Err(err)) => {
            outcome.report = format!("== {} ({seconds:.0} s)\nERROR: {err}\n", case.name);
            outcome.error = Some(err.to_string());
            return outcome;
        }
    };
    outcome.truth_failures = check_truth(&case.file.expect, &run);
    let names = |o: &ObservedView| -> std::collections::BTreeSet<String> {
        o.exposed_names().into_iter().collect()
    };
    let (real_base, real_run) = (names(&base), names(&run));
    let (predicted_base, predicted_run) = (visible(&pair.base_ctx), visible(&ctx));
    let differs = |a: &std::collections::BTreeSet<String>,
                   b: &std::collections::BTreeSet<String>| {
        a.difference(b).cloned().collect::<Vec<String>>()
    };
    let real_removed = differs(&real_base, &real_run);
    let real_added = differs(&real_run, &real_base);
    let predicted_removed = differs(&predicted_base, &predicted_run);
    let predicted_added = differs(&predicted_run, &predicted_base);
    for (real, predicted, verb) in [
        (&real_removed, &predicted_removed, "removes"),
        (&real_added, &predicted_added, "adds"),
    ] {
        for tool in real.iter().filter(|t| !predicted.contains(t)) {
            outcome.gate_disagreements.push(format!(
                "{tool}: {} {verb} it in OpenClaw, not in clawdeck",
                pair.what
            ));
        }
        for tool in predicted.iter().filter(|t| !real.contains(t)) {
            outcome.gate_disagreements.push(format!(
                "{tool}: {} {verb} it in clawdeck, not in OpenClaw",
                pair.what
            ));
        }
    }
    let mut report = format!(
        "== {} ({seconds:.0} s, {}): {} removes {} and adds {} tools in OpenClaw, {} and {} in clawdeck; {} disagreements\n  openclaw removes: {}\n  openclaw adds: {}\n",
        case.name,
        pair.how,
        pair.what,
        real_removed.len(),
        real_added.len(),
        predicted_removed.len(),
        predicted_added.len(),
        outcome.gate_disagreements.len(),
        real_removed.join(" "),
        real_added.join(" ")
    );
    for failure in &outcome.truth_failures {
        report.push_str(&format!("  TRUTH CHECK FAILED: {failure}\n"));
    }
    for d in &outcome.gate_disagreements {
        report.push_str(&format!("  difference    {d}\n"));
    }
    outcome.report = report;
    outcome
}

/// The agent clawdeck resolves for the case's context.
fn case_agent(case: &Case) -> String {
    let (loaded, registry) = load_case(case);
    verify::predict(&loaded, &registry, &case.file.context)
        .unwrap_or_else(|e| panic!("{e}"))
        .resolution
        .resolved
        .agent
        .clone()
}

/// A non-owner case: as the owner and as a non-owner, both through a private gateway's `agent`
/// method (a local CLI run is always its owner's).
async fn run_non_owner_case(case: Case, options: RunOptions) -> Outcome {
    let started = Instant::now();
    let (loaded, _) = load_case(&case);
    let ctx = case.file.context.clone();
    let agent = case_agent(&case);
    let base_ctx = PolicyContext {
        owner: Some(true),
        ..ctx.clone()
    };
    let base =
        verify::observe_through_gateway(&loaded.raw, &agent, &base_ctx, &options, true).await;
    let run = verify::observe_through_gateway(&loaded.raw, &agent, &ctx, &options, false).await;
    let pair = Pair {
        what: "the owner gate",
        how: "two runs on a private gateway",
        base_ctx,
        base,
        run,
    };
    compare_pair(&case, started, pair)
}

/// A sender case: the case's sender and a sender no `toolsBySender` key but `*` names, each a
/// Telegram direct message to a private gateway (no CLI flag or gateway method carries a
/// sender). Both are non-owners alike, so only the sender rules differ between them.
async fn run_sender_case(case: Case, options: RunOptions) -> Outcome {
    let started = Instant::now();
    let (loaded, _) = load_case(&case);
    let ctx = case.file.context.clone();
    let agent = case_agent(&case);
    let base_ctx = PolicyContext {
        sender_id: Some("7000099".into()),
        sender_username: Some("clawdeck_nobody".into()),
        sender_name: Some("Nobody".into()),
        sender_e164: None,
        ..ctx.clone()
    };
    let base = verify::observe_inbound(&loaded.raw, &agent, &base_ctx, &options).await;
    let run = verify::observe_inbound(&loaded.raw, &agent, &ctx, &options).await;
    let pair = Pair {
        what: "the sender's toolsBySender entry",
        how: "two Telegram direct messages to a private gateway",
        base_ctx,
        base,
        run,
    };
    compare_pair(&case, started, pair)
}

async fn run_case(case: Case, options: RunOptions) -> Outcome {
    if verify::sender_run::has_sender(&case.file.context) {
        return run_sender_case(case, options).await;
    }
    if case.file.context.owner == Some(false) {
        return run_non_owner_case(case, options).await;
    }
    let started = Instant::now();
    let (loaded, registry) = load_case(&case);
    let ctx = case.file.context.clone();
    let view = verify::predict(&loaded, &registry, &ctx).unwrap_or_else(|e| panic!("{e}"));
    let agent = view.resolution.resolved.agent.clone();
    let observed = verify::observe_cli(&loaded.raw, &agent, &ctx, &options).await;
    let seconds = started.elapsed().as_secs_f64();
    let mut outcome = Outcome {
        name: case.name.clone(),
        seconds,
        truth_failures: Vec::new(),
        error: None,
        comparison: None,
        gate_disagreements: Vec::new(),
        report: String::new(),
    };
    match observed {
        Err(err) => {
            outcome.report = format!("== {} ({seconds:.0} s)\nERROR: {err}\n", case.name);
            outcome.error = Some(err.to_string());
        }
        Ok(observed) => {
            outcome.truth_failures = check_truth(&case.file.expect, &observed);
            let comparison = verify::compare_view(&view, &registry, &observed);
            let mut report = format!(
                "== {} ({seconds:.0} s): OpenClaw exposes {} tools; {}\n",
                case.name,
                observed.exposed_names().len(),
                comparison.summary()
            );
            report.push_str(&format!(
                "  openclaw exposes: {}\n",
                observed.exposed_names().join(" ")
            ));
            for failure in &outcome.truth_failures {
                report.push_str(&format!("  TRUTH CHECK FAILED: {failure}\n"));
            }
            for v in comparison.disagreements() {
                let kind = match v.agreement {
                    verify::Agreement::Agree => "schema",
                    verify::Agreement::ClawdeckOnly => "clawdeck-only",
                    verify::Agreement::OpenclawOnly => "openclaw-only",
                };
                let pointers: Vec<&str> = v.schema.iter().map(|d| d.pointer.as_str()).collect();
                let detail = if pointers.is_empty() {
                    String::new()
                } else {
                    format!(
                        " [{} schema diffs: {}{}]",
                        pointers.len() + v.schema_more,
                        pointers
                            .iter()
                            .take(4)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", "),
                        if pointers.len() > 4 { ", ..." } else { "" }
                    )
                };
                report.push_str(&format!(
                    "  {kind:13} {:20} clawdeck: {}{detail}\n",
                    v.tool,
                    v.clawdeck_rule.as_deref().unwrap_or("-")
                ));
            }
            for note in &comparison.notes {
                report.push_str(&format!("  note: {note}\n"));
            }
            outcome.report = report;
            outcome.comparison = Some(comparison);
        }
    }
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
async fn real_openclaw_and_clawdeck_agree_on_every_fidelity_config() {
    // The sandbox cases use OpenClaw's SSH backend against a private sshd.
    let ssh = match ssh_target::SshTarget::start() {
        Ok(target) => Some(target),
        Err(err) => {
            eprintln!(
                "realclaw_fidelity: the sandbox cases' SSH target is not running ({err}); \
                 they point at an address nobody answers (OpenClaw 2026.9.6 settles a run's \
                 tools before its first sandboxed call connects). .ci/run installs openssh-server."
            );
            None
        }
    };
    let fill = |text: &str| match &ssh {
        Some(target) => target.fill(text),
        None => ssh_unreached(text),
    };
    let cases = load_cases(&fill);
    if !channel_plugins().join("slack/package.json").is_file() {
        eprintln!(
            "realclaw_fidelity: no channel plugins at {} (.ci/run installs them; \
             CLAWDECK_CHANNEL_PLUGINS names another place): the channel cases will fail",
            channel_plugins().display()
        );
    }
    assert!(
        cases.len() >= 15,
        "the suite needs at least 15 configs, found {}",
        cases.len()
    );
    // FIDELITY_CASES=a,b runs only those cases (the 15-config check above still holds).
    let cases: Vec<Case> = match std::env::var("FIDELITY_CASES") {
        Ok(only) if !only.trim().is_empty() => {
            let wanted: Vec<&str> = only.split(',').map(str::trim).collect();
            eprintln!("realclaw_fidelity: FIDELITY_CASES limits the run to {wanted:?}");
            cases
                .into_iter()
                .filter(|c| wanted.contains(&c.name.as_str()))
                .collect()
        }
        _ => cases,
    };
    let bin = match verify::find_openclaw(None) {
        Ok(bin) => bin,
        Err(err) => {
            eprintln!(
                "SKIPPED (no real OpenClaw): realclaw_fidelity needs the real CLI: {err}. \
                 ../shared/realclaw/setup.sh installs it; .ci/run sets OPENCLAW_BIN."
            );
            return;
        }
    };
    // A case that cannot run against this release says why (`versions."2026.9".skip`).
    let (cases, skipped) = cases_for_release(cases, FIRST_RELEASE);
    run_suite(&bin, cases, ssh.as_ref(), "fidelity-report.txt", &skipped).await;
}

/// The release of the first run (the installed 2026.9.x): a case's `versions."2026.9"` entry
/// may say why it cannot run there.
const FIRST_RELEASE: &str = "2026.9";

/// The release of the second run: its series names the cases' `versions` entry.
const SECOND_RELEASE: &str = "2026.8";

/// The cases as they stand for `release`: its own `expect` where a case has one, and the
/// cases it skips (with the reason) set apart.
fn cases_for_release(cases: Vec<Case>, release: &str) -> (Vec<Case>, Vec<String>) {
    let mut kept = Vec::new();
    let mut skipped = Vec::new();
    for mut case in cases {
        match case.file.versions.remove(release) {
            Some(VersionCase {
                skip: Some(why), ..
            }) => skipped.push(format!("{}: {why}", case.name)),
            Some(VersionCase {
                expect: Some(expect),
                ..
            }) => {
                case.file.expect = expect;
                kept.push(case);
            }
            _ => kept.push(case),
        }
    }
    (kept, skipped)
}

/// `clawdeck catalog sync` from a private gateway of the release `bin` runs, into a fresh data
/// dir; the stored pack as every command reads it.
fn sync_from_release(bin: &Path) -> Result<Arc<clawdeck_core::semantics::Semantics>, String> {
    let gateway = support::own_gateway::OwnGateway::start_release(bin, "")
        .ok_or("../shared/realclaw/start.sh or the release's install is missing")?;
    let home = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(["catalog", "sync", "--json"])
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", &gateway.token)
        .env("OPENCLAW_BIN", home.path().join("no-openclaw"))
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "clawdeck catalog sync: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let synced: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let version = synced["version"].as_str().unwrap_or_default().to_string();
    let path = home
        .path()
        .join("data/clawdeck/packs")
        .join(format!("{version}.json"));
    let pack = clawdeck_core::semantics::stored_pack(&path)?;
    eprintln!(
        "realclaw_fidelity: synced {} from a {version} gateway: pack {} ({} tools)",
        path.display(),
        pack.id,
        pack.tools.len()
    );
    Ok(pack)
}

/// The same cases against openclaw@2026.8.2 ($OPENCLAW_BIN_2026_8; .ci/run installs it with
/// `OPENCLAW_VERSION=2026.8.2 setup.sh`), clawdeck answering with the pack a real `catalog
/// sync` from a 2026.8.2 gateway stored (laid over the shipped 2026.8 pack). Cases whose config
/// 2026.8.2 refuses or whose feature it lacks say so in their `versions."2026.8".skip`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs openclaw@2026.8.2 (OPENCLAW_BIN_2026_8): .ci/run installs it and runs this with --ignored"]
async fn real_openclaw_2026_8_and_clawdeck_agree_after_a_real_catalog_sync() {
    let bin = match std::env::var("OPENCLAW_BIN_2026_8") {
        Ok(bin) if Path::new(&bin).is_file() => PathBuf::from(bin),
        _ => {
            eprintln!(
                "SKIPPED (no openclaw@2026.8.2): set OPENCLAW_BIN_2026_8 to its bin/openclaw \
                 (`OPENCLAW_VERSION=2026.8.2 ../shared/realclaw/setup.sh PREFIX` installs it; \
                 .ci/run does)"
            );
            return;
        }
    };
    let pack = match tokio::task::spawn_blocking({
        let bin = bin.clone();
        move || sync_from_release(&bin)
    })
    .await
    .unwrap()
    {
        Ok(pack) => pack,
        Err(err) => panic!("a real catalog sync from a 2026.8.2 gateway failed: {err}"),
    };
    assert!(
        pack.id.starts_with("2026.8."),
        "the gateway of {} reported version {}",
        bin.display(),
        pack.id
    );
    let ssh = ssh_target::SshTarget::start()
        .map_err(|err| eprintln!("realclaw_fidelity: no SSH target for the sandbox cases ({err})"))
        .ok();
    let fill = |text: &str| match &ssh {
        Some(target) => target.fill(text),
        None => ssh_unreached(text),
    };
    let (mut cases, skipped) = cases_for_release(load_cases(&fill), SECOND_RELEASE);
    if let Ok(only) = std::env::var("FIDELITY_CASES")
        && !only.trim().is_empty()
    {
        let wanted: Vec<&str> = only.split(',').map(str::trim).collect();
        cases.retain(|c| wanted.contains(&c.name.as_str()));
    }
    for case in &mut cases {
        case.pack = Some(pack.clone());
    }
    eprintln!(
        "realclaw_fidelity: {} configs against openclaw {} ({} skipped)",
        cases.len(),
        pack.id,
        skipped.len()
    );
    run_suite(
        &bin,
        cases,
        ssh.as_ref(),
        "fidelity-report-2026.8.txt",
        &skipped,
    )
    .await;
}

/// Runs every case against `bin` and compares; writes the report to `report_name` in
/// $CARGO_TARGET_TMPDIR. `skipped` (case: reason) are listed in the summary.
async fn run_suite(
    bin: &Path,
    cases: Vec<Case>,
    ssh: Option<&ssh_target::SshTarget>,
    report_name: &str,
    skipped: &[String],
) {
    let jobs: usize = std::env::var("FIDELITY_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2);
    let options = RunOptions {
        openclaw_bin: Some(bin.to_path_buf()),
        // ~15 s on an idle machine; over 2 minutes were seen with five builds running beside it.
        timeout: Duration::from_secs(300),
    };
    eprintln!(
        "realclaw_fidelity: {} configs against {}, {jobs} at a time",
        cases.len(),
        bin.display()
    );
    let sandbox_cases = cases.iter().filter(|c| c.uses_ssh).count();
    let gate = Arc::new(Semaphore::new(jobs));
    let mut tasks = Vec::new();
    for case in cases {
        let gate = gate.clone();
        let options = options.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await.unwrap();
            let outcome = run_case(case, options).await;
            eprint!("{}", outcome.report);
            outcome
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }

    let mut full = String::new();
    let (mut policy, mut schema) = (0, 0);
    for o in &outcomes {
        full.push_str(&o.report);
        if let Some(c) = &o.comparison {
            policy += c.policy_disagreements();
            schema += c.schema_differences();
        }
        policy += o.gate_disagreements.len();
    }
    let truth_failures: Vec<String> = outcomes
        .iter()
        .flat_map(|o| {
            o.truth_failures
                .iter()
                .map(move |f| format!("{}: {f}", o.name))
        })
        .collect();
    let errors: Vec<String> = outcomes
        .iter()
        .filter_map(|o| o.error.as_ref().map(|e| format!("{}: {e}", o.name)))
        .collect();
    let slowest = outcomes.iter().map(|o| o.seconds).fold(0.0, f64::max);
    let summary = format!(
        "TOTAL: {} configs ({} skipped), {policy} policy disagreements, {schema} schema differences, \
         {} truth-check failures, {} errors (slowest run {slowest:.0} s)\n",
        outcomes.len(),
        skipped.len(),
        truth_failures.len(),
        errors.len()
    );
    full.push_str(&summary);
    for line in skipped {
        full.push_str(&format!("SKIPPED {line}\n"));
        eprintln!("SKIPPED {line}");
    }
    let sandbox_line = match ssh {
        Some(target) => format!(
            "sandbox: {sandbox_cases} configs on the SSH backend of a private sshd; OpenClaw logged in {} times (a run settles its tools before its first sandboxed call connects)\n",
            target.logins_since_start()
        ),
        None => format!("sandbox: {sandbox_cases} configs on an SSH target nobody answers\n"),
    };
    full.push_str(&sandbox_line);
    eprint!("{sandbox_line}");
    let report_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(report_name);
    let _ = std::fs::write(&report_path, &full);
    eprintln!("{summary}full report: {}", report_path.display());

    assert!(
        errors.is_empty(),
        "runs that failed:\n{}",
        errors.join("\n")
    );
    assert!(
        truth_failures.is_empty(),
        "real OpenClaw did not behave as the cases say:\n{}",
        truth_failures.join("\n")
    );
    assert_eq!(
        (policy, schema),
        (0, 0),
        "clawdeck disagrees with real OpenClaw ({policy} policy disagreements, {schema} \
         schema differences); see the report above"
    );
}

/// `clawdeck verify --gateway`'s path: a real session on the running gateway (.ci/run starts one
/// with ../shared/realclaw/start.sh --gateway), its `tools.effective`, and the comparison.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway: .ci/run runs it with --ignored"]
async fn a_running_gateway_answers_tools_effective_for_a_real_session() {
    let (Ok(url), Ok(token), Ok(home)) = (
        std::env::var("OPENCLAW_GATEWAY_URL"),
        std::env::var("OPENCLAW_GATEWAY_TOKEN"),
        std::env::var("REALCLAW_HOME"),
    ) else {
        eprintln!(
            "SKIPPED (no real OpenClaw gateway): set OPENCLAW_GATEWAY_URL, OPENCLAW_GATEWAY_TOKEN \
             and REALCLAW_HOME (../shared/realclaw/start.sh --gateway prints them)"
        );
        return;
    };
    let bin = verify::find_openclaw(None).expect("the gateway's CLI");
    // One turn through the gateway makes the session exist.
    let turn = clawdeck_core::process::ProcessSpec::new(bin.display().to_string())
        .args([
            "agent",
            "--agent",
            "ops",
            "--session-id",
            "clawdeck-verify-gw",
            "--message",
            "hi",
        ])
        .timeout(Some(Duration::from_secs(300)));
    let outcome = clawdeck_core::process::spawn(turn).unwrap().wait().await;
    assert!(
        outcome.success(),
        "{}: {}",
        outcome.summary(),
        outcome.output.combined_text()
    );

    let target = verify::GatewayTarget {
        url,
        token: Some(token),
    };
    let session = "agent:ops:explicit:clawdeck-verify-gw";
    let observed = verify::observe_gateway(&target, session, Some(&bin), Duration::from_secs(30))
        .await
        .unwrap();
    let names = observed.exposed_names();
    assert!(names.iter().any(|n| n == "read"), "{names:?}");
    assert!(observed.tools.iter().all(|t| t.owner.is_some()));

    let unknown = verify::observe_gateway(
        &target,
        "agent:ops:explicit:no-such-session",
        Some(&bin),
        Duration::from_secs(30),
    )
    .await
    .unwrap_err();
    assert!(
        unknown.to_string().contains("unknown session key"),
        "{unknown}"
    );

    let origin = Path::new(&home).join(".openclaw/openclaw.json");
    let loaded = config::load_from_str(
        &std::fs::read_to_string(&origin).unwrap(),
        &origin.display().to_string(),
    )
    .unwrap();
    let registry = Registry::build(&loaded, server_listing());
    let ctx = PolicyContext {
        agent: Some("ops".into()),
        session_key: Some(session.into()),
        ..PolicyContext::default()
    };
    let view = verify::predict(&loaded, &registry, &ctx).unwrap();
    let comparison = verify::compare_view(&view, &registry, &observed);
    assert_eq!(comparison.schema_differences(), 0, "names only: no schemas");
    eprintln!(
        "gateway tools.effective for {session}: {} tools; {}",
        names.len(),
        comparison.summary()
    );
}

#[test]
fn every_fidelity_case_parses_and_resolves_in_clawdeck() {
    // Runs everywhere (no real CLI needed): a broken fixture must not hide behind a skip.
    let cases = load_cases(&ssh_unreached);
    assert!(cases.len() >= 15, "found {}", cases.len());
    for case in cases {
        let (loaded, registry) = load_case(&case);
        verify::predict(&loaded, &registry, &case.file.context)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let e = &case.file.expect;
        assert!(
            e.refused || !e.present.is_empty(),
            "{}: a case must name tools OpenClaw exposes",
            case.name
        );
    }
}

/// A stand-in for the CLI: answers like `openclaw agent --local` by sending the model request
/// whose tools are in `tools.json` beside it to the provider its isolated config names.
const FAKE_CLI: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
cfg = json.load(open(os.path.join(os.environ["HOME"], ".openclaw", "openclaw.json")))
provider = next(iter(cfg["models"]["providers"].values()))
tools = json.load(open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "tools.json")))
body = {"model": provider["models"][0]["id"], "stream": True, "tools": tools,
        "messages": [{"role": "system", "content": "fake"}, {"role": "user", "content": "hi"}]}
req = urllib.request.Request(provider["baseUrl"] + "/chat/completions", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
urllib.request.urlopen(req).read()
"#;

#[test]
fn clawdeck_verify_prints_disagreements_with_rules_and_exits_by_verdict() {
    let python = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("python3").is_file()))
        .unwrap_or(false);
    if !python {
        eprintln!("SKIPPED: python3 (the fake CLI's interpreter) is not on PATH");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("openclaw.json5");
    std::fs::write(
        &config_path,
        r#"{ tools: { profile: "coding", deny: ["exec"], toolSearch: false } }"#,
    )
    .unwrap();
    let fake = dir.path().join("openclaw");
    std::fs::write(&fake, FAKE_CLI).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();

    // "OpenClaw" sends exactly clawdeck's own prediction (without clawdeck's own tools).
    let loaded = config::load_from_str(
        &std::fs::read_to_string(&config_path).unwrap(),
        &config_path.display().to_string(),
    )
    .unwrap();
    let registry = Registry::build(&loaded, server_listing());
    let view = verify::predict(&loaded, &registry, &PolicyContext::default()).unwrap();
    let own = verify::own_tools(&registry);
    let mut tools: Vec<serde_json::Value> = view
        .export
        .payload
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !own.contains(t["function"]["name"].as_str().unwrap()))
        .cloned()
        .collect();
    let tools_file = dir.path().join("tools.json");
    std::fs::write(&tools_file, serde_json::to_string(&tools).unwrap()).unwrap();

    let verify_cmd = |extra: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("clawdeck").unwrap();
        cmd.arg("--config")
            .arg(&config_path)
            .arg("verify")
            .arg("--openclaw")
            .arg(&fake)
            .args(extra)
            .timeout(Duration::from_secs(120));
        cmd.output().unwrap()
    };
    let agree = verify_cmd(&[]);
    let text = String::from_utf8_lossy(&agree.stdout);
    assert_eq!(agree.status.code(), Some(0), "{text}");
    assert!(
        text.contains("summary: 0 policy disagreements, 0 schema differences"),
        "{text}"
    );

    // OpenClaw drops `read` and keeps `exec`: two disagreements, each with clawdeck's rule.
    tools.retain(|t| t["function"]["name"] != "read");
    tools.push(serde_json::json!({"type": "function",
        "function": {"name": "exec", "description": "Run", "parameters": {"type": "object"}}}));
    std::fs::write(&tools_file, serde_json::to_string(&tools).unwrap()).unwrap();
    let differ = verify_cmd(&[]);
    let text = String::from_utf8_lossy(&differ.stdout);
    assert_eq!(differ.status.code(), Some(1), "{text}");
    let read_line = text.lines().find(|l| l.contains(" read ")).unwrap();
    assert!(
        read_line.trim_start().starts_with("clawdeck-only"),
        "{read_line}"
    );
    assert!(read_line.contains("clawdeck: visible"), "{read_line}");
    let exec_line = text.lines().find(|l| l.contains(" exec ")).unwrap();
    assert!(
        exec_line.trim_start().starts_with("openclaw-only"),
        "{exec_line}"
    );
    assert!(exec_line.contains("tools.deny"), "{exec_line}");
    assert!(text.contains("summary: 2 policy disagreements"), "{text}");

    let json_out = verify_cmd(&["--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json_out.stdout).unwrap();
    assert_eq!(value["summary"]["policyDisagreements"], 2);
    let exec = value["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["tool"] == "exec")
        .unwrap();
    assert_eq!(exec["agreement"], "openclaw-only");

    // No CLI, or a context a local run cannot express: exit 2 with the reason.
    let mut missing = assert_cmd::Command::cargo_bin("clawdeck").unwrap();
    let out = missing
        .arg("--config")
        .arg(&config_path)
        .args(["verify", "--openclaw", "/nonexistent/openclaw"])
        .env_remove("OPENCLAW_BIN")
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("real OpenClaw not found"));
    // A phone number: a sender comes through Telegram, which has none.
    let sender = verify_cmd(&["--sender-e164", "+15550001"]);
    assert_eq!(sender.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sender.stderr).contains("--sender-e164"));
}
