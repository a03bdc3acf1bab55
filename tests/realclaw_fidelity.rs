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
//! The paired cases compare what the one difference changes (see `PairKind`).
//!
//! A case with `"prompt": true` in its context.json keeps the system prompt in its recording,
//! normalised (`recorded_prompt`); tests/prompt_fidelity.rs compares clawdeck's prompt with it.
//!
//! What the real OpenClaw answered is kept in tests/recordings/fidelity/<version>/ (see
//! tests/support/recordings.rs): `clawdeck_agrees_with_every_fidelity_recording` compares
//! clawdeck with every recording in a plain `cargo test`; the `#[ignore]`d real runs ask the
//! real OpenClaw again about the cases whose recording is missing or new and a rotating share
//! of the rest, and fail when an answer differs from its recording. tests/recordings/record.sh
//! records them.
//!
//! The real runs need the real CLI ($OPENCLAW_BIN, or `openclaw` on PATH;
//! ../shared/realclaw/setup.sh installs it and .ci/run exports OPENCLAW_BIN); elsewhere they
//! print a SKIPPED line. Cases run two at a time (FIDELITY_JOBS to change; FIDELITY_CASES=a,b
//! runs only those), each under a timeout; the full report is written to
//! $CARGO_TARGET_TMPDIR/fidelity-report.txt.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clawdeck_core::catalog::Registry;
use clawdeck_core::config;
use clawdeck_core::context::PolicyContext;
use clawdeck_core::dotenv::DotEnvPlace;
use clawdeck_core::semantics::Semantics;
use clawdeck_verify::{self as verify, Comparison, ObservedView, RunOptions, Surface};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

mod ssh_target;
mod support;

use support::recordings::{self, Portable, Shelf, openclaw_version};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Expect {
    present: Vec<String>,
    absent: Vec<String>,
    refused: bool,
    /// The run must expose no tool at all, Tool Search's controls included (a scheduled job
    /// whose cap is empty builds none).
    #[serde(default)]
    none: bool,
    /// `tool_search` when Tool Search must be on, `code_mode` when Code Mode must engage;
    /// otherwise schemas must be direct.
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
    /// Keep the system prompt in the recording (normalised: see `recorded_prompt`), for
    /// tests/prompt_fidelity.rs to compare clawdeck's prompt with.
    #[serde(default)]
    prompt: bool,
    /// Keep a scheduled job's user message in the recording (normalised like the prompt), for
    /// tests/prompt_fidelity.rs to compare with `clawdeck prompt --user-message`; a case that
    /// keeps its prompt keeps it too.
    #[serde(default, rename = "userMessage")]
    user_message: bool,
    /// Keep the system prompt for these sections only to be compared (a turn whose other
    /// sections clawdeck does not write yet, such as a Telegram chat's conversation context).
    #[serde(default, rename = "promptSections")]
    prompt_sections: Vec<String>,
    /// Official plugins the real run installs from npm (`@openclaw/discord`: OpenClaw loads it
    /// only as a trusted install); clawdeck reads the same package from its load path.
    #[serde(default)]
    installs: Vec<String>,
    /// Why the case needs this machine's OpenClaw install to be answered (which plugins it
    /// has): the comparison with its recording skips it, saying so, where clawdeck finds none.
    #[serde(default, rename = "needsInstall")]
    needs_install: Option<String>,
    /// Auth profiles stored in the case's state: the real run's home gets each through
    /// OpenClaw's own writer (`models auth paste-api-key`, a stand-in key), clawdeck reads
    /// them as its state reader would have found them.
    #[serde(default, rename = "authProfiles")]
    auth_profiles: Vec<CaseProfile>,
}

/// One stored auth profile of a case: in `agent`'s own store, else (no agent) the shared one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseProfile {
    #[serde(default)]
    agent: Option<String>,
    id: String,
    provider: String,
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
    pack: Option<Arc<Semantics>>,
    /// The case's config with every placeholder filled in.
    config_text: String,
    /// Whether it sandboxes with the SSH backend (and so needs the private sshd).
    uses_ssh: bool,
    /// The hash of the case directory's files: its recordings are named by it.
    inputs: String,
}

struct Outcome {
    name: String,
    seconds: f64,
    /// Real OpenClaw did not do what the case says it does.
    truth_failures: Vec<String>,
    /// No observation could be made.
    error: Option<String>,
    /// The fresh answer has no recording for its inputs, or differs from it.
    recording: Option<String>,
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

/// A case's config text, with `@FIXTURES@` (where a case's MCP servers live) and
/// `@SKILL_FIXTURES@` (tests/fixtures/skills, the skills cases' roots) made absolute,
/// `@CHANNEL_PLUGINS@` naming the installed channel plugins and the `@SSH_*@` of the sandbox
/// cases filled by `ssh`.
fn case_config_text(text: &str, ssh: &dyn Fn(&str) -> String) -> String {
    ssh(&text
        .replace("@FIXTURES@", &fixtures().display().to_string())
        .replace(
            "@SKILL_FIXTURES@",
            &fixtures().with_file_name("skills").display().to_string(),
        )
        .replace(
            "@CHANNEL_PLUGINS@",
            &channel_plugins().display().to_string(),
        )
        .replace("@CHECKOUT@", env!("CARGO_MANIFEST_DIR")))
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

/// The dotenv files a case holds, each with where OpenClaw looks for it.
fn case_dotenv_files(dir: &Path) -> Vec<(DotEnvPlace, PathBuf)> {
    [
        (DotEnvPlace::StateDir, ".env"),
        (DotEnvPlace::GatewayEnv, "gateway.env"),
        (DotEnvPlace::LoginShell, "login-profile"),
    ]
    .into_iter()
    .map(|(place, name)| (place, dir.join(name)))
    .filter(|(_, file)| file.is_file())
    .collect()
}

/// The stores a case's auth profiles are in, as clawdeck's state reader returns them
/// (tests/realclaw_fidelity.rs's `stored_profiles_round_trip` reads what OpenClaw's writer
/// wrote with that reader).
fn case_profile_stores(case: &Case) -> Vec<clawdeck_core::auth_profiles::ProfileStore> {
    use clawdeck_core::auth_profiles::{ProfileStore, StoreOwner, StoredProfile};
    let mut stores: Vec<ProfileStore> = Vec::new();
    for profile in &case.file.auth_profiles {
        let owner = match &profile.agent {
            None => StoreOwner::Shared,
            Some(agent) => StoreOwner::Agent(agent.clone()),
        };
        let stored = StoredProfile {
            id: profile.id.clone(),
            provider: profile.provider.clone(),
            kind: "api_key".to_string(),
        };
        match stores.iter_mut().find(|store| store.owner == owner) {
            Some(store) => store.profiles.push(stored),
            None => stores.push(ProfileStore {
                owner,
                path: case.dir.join("authProfiles"),
                profiles: vec![stored],
            }),
        }
    }
    stores
}

/// A case's config, loaded, and the registry clawdeck builds for it.
fn load_case(case: &Case) -> (config::LoadedConfig, Registry) {
    let origin = case.dir.join("openclaw.json5");
    let mut loaded = config::load_from_str(&case.config_text, &origin.display().to_string())
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    // A case's `.env` is its state dir's, its `gateway.env` the one in ~/.config/openclaw, its
    // `login-profile` the home's ~/.profile (the real run gets copies). With env.shellEnv on,
    // clawdeck runs the login shell in a home holding that profile, as OpenClaw runs it.
    for (place, file) in case_dotenv_files(&case.dir) {
        if place != DotEnvPlace::LoginShell {
            config::read_dotenv_file(&mut loaded, place, &file);
        } else if clawdeck_core::login_shell_env::enabled(&loaded.raw) {
            let home = tempfile::tempdir().unwrap();
            std::fs::copy(&file, home.path().join(".profile")).unwrap();
            config::read_login_shell(&mut loaded, home.path());
        }
    }
    loaded.auth_profiles = case_profile_stores(case);
    if let Some(pack) = &case.pack {
        loaded.semantics = pack.clone();
        loaded.pack.pack = pack.id.clone();
        loaded.pack.reason = "the pack the suite synced from the release under test".into();
    }
    // The plugins the real run's OpenClaw discovers: its package's bundled ones, the case's
    // load paths and the official plugins it installs from npm.
    loaded.installed_plugins = config::discoverable_plugins(&loaded, None).map(|mut ids| {
        let installs = case.file.installs.iter();
        ids.extend(installs.map(|i| i.rsplit('/').next().unwrap_or(i).to_string()));
        Arc::new(ids)
    });
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
                inputs: recordings::dir_inputs_hash(&dir),
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
    // Tool Search's controls count: a run that sends only them still exposes something (an
    // empty allowlist with Tool Search on leaves nothing else).
    let mut names = observed.exposed_names();
    if let Surface::ToolSearch { meta_tools, .. } = &observed.surface {
        names.extend(meta_tools.iter().cloned());
    }
    let refused = matches!(observed.surface, Surface::Refused { .. });
    if refused != expect.refused {
        failures.push(format!(
            "expected refused={}, OpenClaw: {:?}",
            expect.refused, observed.surface
        ));
    }
    if expect.none && !names.is_empty() {
        failures.push(format!("expected no tool at all, OpenClaw: {names:?}"));
    }
    if !expect.refused && !expect.none && names.is_empty() {
        failures.push("OpenClaw exposed no tool at all".to_string());
    }
    let kind = match observed.surface {
        Surface::ToolSearch { .. } => "tool_search",
        Surface::CodeMode { .. } => "code_mode",
        _ => "direct",
    };
    let wanted = expect.surface.as_deref().unwrap_or("direct");
    if !refused && kind != wanted {
        failures.push(format!("expected surface {wanted}, OpenClaw: {kind}"));
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

/// What the real OpenClaw answered for a case, as recorded: one run, or two runs of a pair (see
/// `PairKind`). Tools are kept sorted by name and without the system prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answer {
    Single {
        view: ObservedView,
    },
    Pair {
        base: ObservedView,
        run: ObservedView,
    },
}

/// What a recording keeps of a view's texts besides its tools (each normalised for `local`).
#[derive(Clone, Copy, Default)]
struct Keep<'a> {
    prompt: Option<&'a Portable>,
    user_message: Option<&'a Portable>,
}

/// What a case's recording keeps: its prompt when it asks for it (or for some of its
/// sections); a scheduled job's user message when it asks for that or for its prompt.
fn case_keeps<'a>(case: &Case, local: &'a Portable) -> Keep<'a> {
    let scheduled = case.file.context.is_scheduled();
    let prompt = case.file.prompt || !case.file.prompt_sections.is_empty();
    Keep {
        prompt: prompt.then_some(local),
        user_message: ((case.file.prompt || case.file.user_message) && scheduled).then_some(local),
    }
}

/// A view as a recording keeps it: tools and the deferred directory sorted by name; the system
/// prompt only when the case asks for it (`prompt`), normalised so that a run on another day or
/// machine records the same text.
fn recorded_view(mut view: ObservedView, keep: Keep<'_>) -> ObservedView {
    let Keep {
        prompt: keep_prompt,
        user_message: keep_message,
    } = keep;
    view.tools.sort_by(|a, b| a.name.cmp(&b.name));
    if let Surface::ToolSearch {
        meta_tools,
        deferred,
        ..
    } = &mut view.surface
    {
        meta_tools.sort();
        deferred.sort_by(|a, b| a.name.cmp(&b.name));
    }
    view.system_prompt = view
        .system_prompt
        .take()
        .zip(keep_prompt)
        .map(|(prompt, local)| recorded_prompt(&prompt, local));
    view.user_message = view
        .user_message
        .take()
        .zip(keep_message)
        .map(|(message, local)| recorded_prompt(&message, local));
    view.request = None;
    view
}

/// A real system prompt as its recording keeps it: the run's temporary home, the OpenClaw
/// package's path, ids, dates and ports replaced (`prompt_compare::normalize_prompt`, which
/// tests/prompt_fidelity.rs applies to both sides too). This machine's fixture paths and SSH
/// target (`local`) are kept out of its reach (a target's port is the private sshd's, which the
/// recording keeps as `@SSH_TARGET@`) and become their placeholders in the recording, as in
/// every answer.
fn recorded_prompt(prompt: &str, local: &Portable) -> String {
    local.around(prompt, |text| {
        clawdeck_core::comparison::prompt_compare::normalize_prompt(text, &[])
    })
}

/// A case observed twice, in a base context and in the case's own, where only one thing of the
/// context differs: what that difference changes in OpenClaw (tools that appear or disappear)
/// is compared with what it changes in clawdeck. Turns that only a gateway runs (a non-owner's,
/// a channel sender's) carry a few host- and channel-specific tools and schemas of their own
/// (`github_identity_status`; `message` and `sessions_spawn` as a Telegram-started run words
/// them), which no local prediction names; the difference cancels them out. The case's run
/// must also pass the case's truth checks.
struct PairKind {
    /// What differs, for the report (`the owner gate`, `the sender's toolsBySender entry`).
    what: &'static str,
    /// How both runs are made.
    how: &'static str,
    base_ctx: PolicyContext,
}

/// The pair a case is observed as, if it is one: a sender case (the case's sender and a sender
/// no `toolsBySender` key but `*` names, each a Telegram direct message to a private gateway;
/// no CLI flag or gateway method carries a sender; both are non-owners alike, so only the
/// sender rules differ), a node case (a node's voice transcript and a non-owner's turn in the
/// same session: only the message provider differs), a spawner case (the subagent a turn in
/// the case's spawner session spawns, and the one a turn in the agent's main session spawns:
/// only the spawner's session differs), or a non-owner case (as the owner and as a non-owner, both through a private
/// gateway's `agent` method, a spawner's turn too; a local CLI run is always its owner's).
fn pair_kind(case: &Case) -> Option<PairKind> {
    let ctx = &case.file.context;
    if verify::sender_run::has_sender(ctx) {
        let signal =
            verify::sender_run::sender_channel(ctx) == verify::sender_run::SenderChannel::Signal;
        // Nobody: a sender no key but `*` names (on Signal, another phone number).
        let (how, base_ctx) = match signal {
            true => (
                "two Signal direct messages to a private gateway",
                PolicyContext {
                    sender_id: Some("+15550009999".into()),
                    sender_username: None,
                    sender_name: Some("Nobody".into()),
                    sender_e164: None,
                    ..ctx.clone()
                },
            ),
            false => (
                "two Telegram direct messages to a private gateway",
                PolicyContext {
                    sender_id: Some("7000099".into()),
                    sender_username: Some("clawdeck_nobody".into()),
                    sender_name: Some("Nobody".into()),
                    sender_e164: None,
                    ..ctx.clone()
                },
            ),
        };
        return Some(PairKind {
            what: "the sender (its toolsBySender entry, the owner list)",
            how,
            base_ctx,
        });
    }
    if ctx.names_client() {
        // The same chat.send turn from clawdeck's own client (`cli`, declaring only
        // `tool-events`: none of the capabilities that decide tools; its id is the turn's
        // sender, as any client's that is no operator UI).
        return Some(PairKind {
            what: "the turn's gateway client (the tools its capabilities decide)",
            how: "two chat.send turns on a private gateway, one from clawdeck's own client",
            base_ctx: PolicyContext {
                client: Some("cli".into()),
                client_caps: vec!["tool-events".into()],
                channel: ctx.channel.clone().or_else(|| Some("webchat".into())),
                ..ctx.clone()
            },
        });
    }
    if verify::private_gateway::node_turn(ctx) {
        return Some(PairKind {
            what: "the turn's message provider (a paired node's voice transcript)",
            how: "a non-owner's agent-method turn and a node's voice transcript, same session",
            base_ctx: PolicyContext {
                channel: None,
                ..ctx.clone()
            },
        });
    }
    if webchat(ctx) && ctx.owner == Some(false) {
        return Some(PairKind {
            what: "the owner at webchat (the owner gate; an owner's sender rules skipped)",
            how: "two chat.send turns on a private gateway",
            base_ctx: PolicyContext {
                owner: Some(true),
                ..ctx.clone()
            },
        });
    }
    if let Some(spawner) = ctx.spawner_key().filter(|_| ctx.owner != Some(false)) {
        // The subagent's own agent's main session (the spawner may be another agent).
        let agent = ctx
            .agent
            .clone()
            .or_else(|| clawdeck_core::session_key::parse(spawner).agent)
            .unwrap_or_else(|| "main".to_string());
        return Some(PairKind {
            what: "the spawner's session (its group policy, what its subagent inherits)",
            how: "two subagents spawned on a private gateway, one from the agent's main session",
            base_ctx: PolicyContext {
                spawned_by: Some(format!("agent:{agent}:main")),
                ..ctx.clone()
            },
        });
    }
    // The owner's turn runs through the same agent method.
    (ctx.owner == Some(false)).then(|| PairKind {
        what: "the owner gate",
        how: "two runs on a private gateway",
        base_ctx: PolicyContext {
            owner: Some(true),
            gateway_run: true,
            ..ctx.clone()
        },
    })
}

/// Whether the case's turn comes from webchat (the gateway's own chat: `chat.send`), as a
/// named gateway client's turn always does.
fn webchat(ctx: &PolicyContext) -> bool {
    ctx.clone().with_session_key().is_chat_send_turn()
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

/// Asks the real OpenClaw (`options` names the CLI) about a case.
async fn observe(
    case: &Case,
    options: &RunOptions,
    local: &Portable,
) -> Result<Answer, verify::VerifyError> {
    let (loaded, _) = load_case(case);
    let ctx = &case.file.context;
    let agent = case_agent(case);
    let mut options = options.clone();
    options.auth_profiles = verify::lab_profiles(&loaded, &agent).0;
    let options = &options;
    let Some(pair) = pair_kind(case) else {
        let view = verify::observe_cli(&loaded.raw, &agent, ctx, options).await?;
        return Ok(Answer::Single {
            view: recorded_view(view, case_keeps(case, local)),
        });
    };
    let (base, run) = if verify::sender_run::has_sender(ctx) {
        let base = verify::observe_inbound(&loaded.raw, &agent, &pair.base_ctx, options).await?;
        (
            base,
            verify::observe_inbound(&loaded.raw, &agent, ctx, options).await?,
        )
    } else {
        // Both sides on a private gateway, each as its context's owner or not: webchat's
        // `chat.send`, else the `agent` method (a spawner's turn, whose subagent is observed).
        let start = |c: &PolicyContext| {
            let as_owner = c.owner != Some(false);
            if verify::private_gateway::node_turn(c) {
                return verify::Start::NodeVoice;
            }
            match webchat(ctx) {
                true => verify::Start::ChatSend { as_owner },
                false => verify::Start::AgentMethod { as_owner },
            }
        };
        // Each side's turn comes from its own context's client.
        let options_for = |c: &PolicyContext| RunOptions {
            client: loaded.semantics.client_capabilities.turn_client(c),
            ..options.clone()
        };
        let base_ctx = &pair.base_ctx;
        let base = verify::observe_through_gateway(
            &loaded.raw,
            &agent,
            base_ctx,
            &options_for(base_ctx),
            start(base_ctx),
        )
        .await?;
        let run = verify::observe_through_gateway(
            &loaded.raw,
            &agent,
            ctx,
            &options_for(ctx),
            start(ctx),
        )
        .await?;
        (base, run)
    };
    Ok(Answer::Pair {
        base: recorded_view(base, Keep::default()),
        run: recorded_view(run, case_keeps(case, local)),
    })
}

fn outcome_for(case: &Case, seconds: f64) -> Outcome {
    Outcome {
        name: case.name.clone(),
        seconds,
        truth_failures: Vec::new(),
        error: None,
        recording: None,
        comparison: None,
        gate_disagreements: Vec::new(),
        report: String::new(),
    }
}

/// clawdeck's prediction for a case against what the real OpenClaw answered.
fn judge(case: &Case, answer: &Answer, seconds: f64) -> Outcome {
    match answer {
        Answer::Single { view } => judge_single(case, view, seconds),
        Answer::Pair { base, run } => judge_pair(case, base, run, seconds),
    }
}

fn judge_pair(case: &Case, base: &ObservedView, run: &ObservedView, seconds: f64) -> Outcome {
    let pair = pair_kind(case).unwrap_or_else(|| {
        panic!(
            "{}: a pair was recorded for a case that is not one",
            case.name
        )
    });
    let (loaded, registry) = load_case(case);
    let ctx = case.file.context.clone();
    let own = verify::own_tools(&registry);
    let visible = |c: &PolicyContext| -> BTreeSet<String> {
        let view = verify::predict(&loaded, &registry, c).unwrap_or_else(|e| panic!("{e}"));
        view.resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !own.contains(n))
            .collect()
    };
    let mut outcome = outcome_for(case, seconds);
    outcome.truth_failures = check_truth(&case.file.expect, run);
    let names = |o: &ObservedView| -> BTreeSet<String> { o.exposed_names().into_iter().collect() };
    let (real_base, real_run) = (names(base), names(run));
    let (predicted_base, predicted_run) = (visible(&pair.base_ctx), visible(&ctx));
    let differs =
        |a: &BTreeSet<String>, b: &BTreeSet<String>| a.difference(b).cloned().collect::<Vec<_>>();
    let real_removed = differs(&real_base, &real_run);
    let real_added = differs(&real_run, &real_base);
    let predicted_removed = differs(&predicted_base, &predicted_run);
    let predicted_added = differs(&predicted_run, &predicted_base);
    // A gateway host's own tool (the pack's gatewayEffective.alsoLists) that clawdeck's catalog
    // does not hold: its presence cannot be predicted, so it is said, not judged.
    let host_only = |tool: &String| {
        registry.get(tool).is_none()
            && registry
                .semantics
                .gateway_effective
                .also_lists
                .contains_key(tool)
    };
    // A tool a gateway turn without a caller never builds (the pack's
    // gatewayEffective.neverLists: transcripts) that neither OpenClaw turn had: what clawdeck
    // says happens to it between the two turns cannot be seen, so it is said, not judged.
    let never_built = |tool: &String| {
        !real_base.contains(tool)
            && !real_run.contains(tool)
            && registry
                .semantics
                .gateway_effective
                .never_lists
                .contains_key(tool)
    };
    let unjudged: Vec<&String> = real_removed
        .iter()
        .chain(&real_added)
        .filter(|t| host_only(t))
        .collect();
    let unseen: Vec<&String> = predicted_removed
        .iter()
        .chain(&predicted_added)
        .filter(|t| never_built(t))
        .collect();
    for (real, predicted, verb) in [
        (&real_removed, &predicted_removed, "removes"),
        (&real_added, &predicted_added, "adds"),
    ] {
        for tool in real
            .iter()
            .filter(|t| !predicted.contains(t) && !host_only(t))
        {
            outcome.gate_disagreements.push(format!(
                "{tool}: {} {verb} it in OpenClaw, not in clawdeck",
                pair.what
            ));
        }
        for tool in predicted
            .iter()
            .filter(|t| !real.contains(t) && !never_built(t))
        {
            outcome.gate_disagreements.push(format!(
                "{tool}: {} {verb} it in clawdeck, not in OpenClaw",
                pair.what
            ));
        }
    }
    // The turn itself, tool by tool: what the pair's difference cannot show (a layer both
    // turns share). Tools clawdeck's catalog lacks and tools neither turn built are not judged.
    let judged = |tool: &&String| registry.get(tool).is_some() && !never_built(tool);
    for tool in real_run.difference(&predicted_run).filter(judged) {
        outcome.gate_disagreements.push(format!(
            "{tool}: OpenClaw's turn exposes it, clawdeck's prediction for it hides it"
        ));
    }
    for tool in predicted_run.difference(&real_run).filter(judged) {
        outcome.gate_disagreements.push(format!(
            "{tool}: clawdeck's prediction for the turn shows it, OpenClaw's turn does not expose it"
        ));
    }
    outcome.gate_disagreements.extend(pair_form_differences(
        &loaded, &registry, &pair, case, base, run,
    ));
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
    for tool in unjudged {
        report.push_str(&format!(
            "  not judged    {tool}: a gateway host's own tool, not in clawdeck's catalog\n"
        ));
    }
    for tool in unseen {
        report.push_str(&format!(
            "  not judged    {tool}: neither gateway turn built it (it needs a caller or an owner those turns lack)\n"
        ));
    }
    for failure in &outcome.truth_failures {
        report.push_str(&format!("  TRUTH CHECK FAILED: {failure}\n"));
    }
    for d in &outcome.gate_disagreements {
        report.push_str(&format!("  difference    {d}\n"));
    }
    outcome.report = report;
    outcome
}

/// The forms (descriptions and schemas) where clawdeck's prediction differs from what OpenClaw
/// sent, turn by turn: each tool of the case's turn, and each tool of the base turn the case's
/// turn has too (a tool only the base turn has is what the pair removes, judged by name). Both
/// turns are judged whole: a difference they share (a gateway turn's wording clawdeck gets
/// wrong in both) is a difference too.
fn pair_form_differences(
    loaded: &config::LoadedConfig,
    registry: &Registry,
    pair: &PairKind,
    case: &Case,
    base: &ObservedView,
    run: &ObservedView,
) -> Vec<String> {
    let differing = |ctx: &PolicyContext, observed: &ObservedView, turn: &str| {
        let view = verify::predict(loaded, registry, ctx).unwrap_or_else(|e| panic!("{e}"));
        verify::compare_view(&view, registry, observed)
            .verdicts
            .into_iter()
            .filter(|v| v.has_schema_difference())
            .filter(|v| turn == "case's" || run.exposed_names().contains(&v.tool))
            .map(|v| {
                let shown: Vec<&str> = v
                    .schema
                    .iter()
                    .take(4)
                    .map(|d| d.pointer.as_str())
                    .collect();
                format!(
                    "{}: OpenClaw's {turn} turn words it otherwise than clawdeck ({} schema \
                     diffs: {})",
                    v.tool,
                    v.schema.len(),
                    shown.join(", ")
                )
            })
            .collect::<Vec<_>>()
    };
    let mut out = differing(&case.file.context, run, "case's");
    out.extend(differing(&pair.base_ctx, base, "base"));
    out
}

fn judge_single(case: &Case, observed: &ObservedView, seconds: f64) -> Outcome {
    let (loaded, registry) = load_case(case);
    let view =
        verify::predict(&loaded, &registry, &case.file.context).unwrap_or_else(|e| panic!("{e}"));
    let mut outcome = outcome_for(case, seconds);
    outcome.truth_failures = check_truth(&case.file.expect, observed);
    let comparison = verify::compare_view(&view, &registry, observed);
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
            let shown: Vec<&str> = pointers.iter().take(4).copied().collect();
            format!(
                " [{} schema diffs: {}{}]",
                pointers.len() + v.schema_more,
                shown.join(", "),
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
    outcome
}

/// The placeholders a case's config may hold; a recording keeps them in place of this
/// machine's values (the SSH target's, the fixtures' and the channel plugins' paths; the
/// checkout's, which a prompt names as the repository a fixture workspace is in).
const PLACEHOLDERS: &[&str] = &[
    "@SSH_TARGET@",
    "@SSH_IDENTITY@",
    "@SSH_KNOWN_HOSTS@",
    "@SSH_WORKSPACES@",
    "@FIXTURES@",
    "@SKILL_FIXTURES@",
    "@CHANNEL_PLUGINS@",
    "@CHECKOUT@",
];

fn portable(ssh: &dyn Fn(&str) -> String) -> Portable {
    let subs: Vec<(&str, String)> = PLACEHOLDERS
        .iter()
        .map(|p| (*p, case_config_text(p, ssh)))
        .collect();
    Portable::new(&subs)
}

/// The release series of a version (`2026.9.6` → `2026.9`): a case's `versions` key.
fn series(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// The recording that holds the pack a real `catalog sync` stored (the second release's run).
const SYNCED_PACK: &str = "catalog-sync";

/// The pack clawdeck answers with for a version's recordings: the recorded synced pack where
/// the shelf has one, else the shipped pack of the version's series.
fn pack_for_shelf(shelf: &Shelf) -> Arc<Semantics> {
    if let Some(recording) = shelf.find(SYNCED_PACK, &synced_pack_inputs()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{}.json", shelf.version));
        std::fs::write(&path, recording.answer.to_string()).unwrap();
        return clawdeck_core::semantics::stored_pack(&path)
            .unwrap_or_else(|e| panic!("{}: the recorded synced pack: {e}", shelf.dir.display()));
    }
    shipped_pack(&shelf.version)
}

fn shipped_pack(version: &str) -> Arc<Semantics> {
    clawdeck_core::semantics::embedded(version)
        .or_else(|| clawdeck_core::semantics::embedded(&series(version)))
        .unwrap_or_else(|| panic!("no shipped pack for openclaw {version}"))
}

/// A synced pack has no case inputs: what the gateway of that release answers.
fn synced_pack_inputs() -> String {
    recordings::inputs_hash(&[])
}

/// The cases that run against a release, with their inputs hashes, and the skipped ones.
fn cases_with_inputs(cases: &[Case]) -> Vec<(String, String)> {
    cases
        .iter()
        .map(|c| (c.name.clone(), c.inputs.clone()))
        .collect()
}

/// A real run of the suite against one release: which cases it asks, and what it does with
/// the answers (records them, or checks them against their recordings).
struct RealRun {
    bin: PathBuf,
    /// What `openclaw --version` printed.
    openclaw: String,
    shelf: Shelf,
    portable: Portable,
    report_name: &'static str,
    skipped: Vec<String>,
    /// Ask about every case given, whatever the selection would pick.
    ask_all: bool,
}

/// What became of one case's fresh answer beside its recording.
fn check_recording(run: &RealRun, case: &Case, answer: &Answer) -> Option<String> {
    let fresh = serde_json::to_value(answer).unwrap();
    run.shelf.record_or_check(
        &case.name,
        &case.inputs,
        &run.openclaw,
        &fresh,
        &run.portable,
    )
}

/// The cases this run asks the real OpenClaw about (all when recording).
fn chosen(run: &RealRun, cases: Vec<Case>) -> Vec<Case> {
    let share = if run.ask_all {
        1
    } else {
        recordings::share_from_env()
    };
    let changed =
        recordings::changed_in_submission(&fixtures(), recordings::SUBMISSION_GAP_SECONDS);
    let picked = recordings::recheck_selection(
        &cases_with_inputs(&cases),
        &run.shelf,
        &changed,
        share,
        recordings::now(),
    );
    recordings::announce("realclaw_fidelity", &picked, cases.len(), share);
    cases
        .into_iter()
        .filter(|c| picked.iter().any(|(name, _)| *name == c.name))
        .collect()
}

/// Asks the real OpenClaw about the chosen cases and compares; writes the report to
/// `report_name` in $CARGO_TARGET_TMPDIR.
async fn run_real(run: RealRun, cases: Vec<Case>, ssh: Option<&ssh_target::SshTarget>) -> Verdict {
    let jobs: usize = std::env::var("FIDELITY_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2);
    let options = RunOptions {
        openclaw_bin: Some(run.bin.to_path_buf()),
        // ~15 s on an idle machine; over 2 minutes were seen with five builds running beside it.
        timeout: Duration::from_secs(300),
        ..RunOptions::default()
    };
    let cases = chosen(&run, cases);
    let inputs: std::collections::BTreeMap<String, String> =
        cases_with_inputs(&cases).into_iter().collect();
    eprintln!(
        "realclaw_fidelity: {} configs against {}, {jobs} at a time",
        cases.len(),
        run.bin.display()
    );
    let sandbox_cases = cases.iter().filter(|c| c.uses_ssh).count();
    let gate = Arc::new(Semaphore::new(jobs));
    let run = Arc::new(run);
    let mut tasks = Vec::new();
    for case in cases {
        let (gate, mut options, run) = (gate.clone(), options.clone(), run.clone());
        options.official_plugins = case.file.installs.clone();
        options.dotenv_files = case_dotenv_files(&case.dir);
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await.unwrap();
            let started = Instant::now();
            let answer = observe(&case, &options, &run.portable).await;
            let seconds = started.elapsed().as_secs_f64();
            let outcome = match answer {
                Err(err) => {
                    let mut outcome = outcome_for(&case, seconds);
                    outcome.report = format!("== {} ({seconds:.0} s)\nERROR: {err}\n", case.name);
                    outcome.error = Some(err.to_string());
                    outcome
                }
                Ok(answer) => {
                    let mut outcome = judge(&case, &answer, seconds);
                    outcome.recording = check_recording(&run, &case, &answer);
                    outcome
                }
            };
            eprint!("{}", outcome.report);
            outcome
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }
    let sandbox_line = match ssh {
        Some(target) => format!(
            "sandbox: {sandbox_cases} configs on the SSH backend of a private sshd; OpenClaw logged in {} times (a run settles its tools before its first sandboxed call connects)\n",
            target.logins_since_start()
        ),
        None => format!("sandbox: {sandbox_cases} configs on an SSH target nobody answers\n"),
    };
    let verdict = Verdict::of(&outcomes, &run.skipped);
    let report = format!("{}{sandbox_line}", verdict.report);
    let report_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(run.report_name);
    let _ = std::fs::write(&report_path, &report);
    eprintln!(
        "{sandbox_line}{}full report: {}",
        verdict.summary,
        report_path.display()
    );
    if recordings::recording() {
        if std::env::var("FIDELITY_CASES").is_err() {
            let mut live: std::collections::BTreeMap<String, String> = outcomes
                .iter()
                .filter_map(|o| Some((o.name.clone(), inputs.get(&o.name)?.clone())))
                .collect();
            live.insert(SYNCED_PACK.to_string(), synced_pack_inputs());
            for path in run.shelf.orphans(&live) {
                eprintln!("realclaw_fidelity: removes {path} (no case has it)");
                let _ = std::fs::remove_file(path);
            }
            let pruned = run.shelf.prune_pool();
            eprintln!("realclaw_fidelity: removed {pruned} pooled schemas no recording uses");
        }
        eprintln!(
            "realclaw_fidelity: recorded {} answers in {}",
            outcomes.iter().filter(|o| o.error.is_none()).count(),
            run.shelf.dir.display()
        );
    }
    verdict
}

/// What a set of outcomes says, summed.
struct Verdict {
    report: String,
    summary: String,
    errors: Vec<String>,
    truth_failures: Vec<String>,
    recordings: Vec<String>,
    policy: usize,
    schema: usize,
}

impl Verdict {
    fn of(outcomes: &[Outcome], skipped: &[String]) -> Verdict {
        let mut report = String::new();
        let (mut policy, mut schema) = (0, 0);
        for o in outcomes {
            report.push_str(&o.report);
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
        let recordings: Vec<String> = outcomes
            .iter()
            .filter_map(|o| o.recording.clone())
            .collect();
        let slowest = outcomes.iter().map(|o| o.seconds).fold(0.0, f64::max);
        let summary = format!(
            "TOTAL: {} configs ({} skipped), {policy} policy disagreements, {schema} schema \
             differences, {} truth-check failures, {} errors, {} recordings missing or stale \
             (slowest run {slowest:.0} s)\n",
            outcomes.len(),
            skipped.len(),
            truth_failures.len(),
            errors.len(),
            recordings.len()
        );
        report.push_str(&summary);
        for line in skipped {
            report.push_str(&format!("SKIPPED {line}\n"));
            eprintln!("SKIPPED {line}");
        }
        for line in &recordings {
            report.push_str(&format!("RECORDING {line}\n"));
        }
        Verdict {
            report,
            summary,
            errors,
            truth_failures,
            recordings,
            policy,
            schema,
        }
    }

    /// A real run's end: recording asks only that every run answered.
    fn assert_clean(&self) {
        if recordings::recording() {
            assert!(
                self.errors.is_empty(),
                "runs that failed:\n{}",
                self.errors.join("\n")
            );
            return;
        }
        assert!(
            self.errors.is_empty(),
            "runs that failed:\n{}",
            self.errors.join("\n")
        );
        assert!(
            self.recordings.is_empty(),
            "recordings missing or stale:\n{}",
            self.recordings.join("\n")
        );
        assert!(
            self.truth_failures.is_empty(),
            "real OpenClaw did not behave as the cases say:\n{}",
            self.truth_failures.join("\n")
        );
        assert_eq!(
            (self.policy, self.schema),
            (0, 0),
            "clawdeck disagrees with real OpenClaw ({} policy disagreements, {} schema \
             differences); see the report above",
            self.policy,
            self.schema
        );
    }
}

/// The first run: the installed 2026.9.x ($OPENCLAW_BIN). It asks the real OpenClaw about the
/// cases `recheck_selection` picks and checks their recordings (CLAWDECK_RECORD=1: records all).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
async fn real_openclaw_and_clawdeck_agree_on_every_fidelity_config() {
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
    let (version, printed) = openclaw_version(&bin);
    if !channel_plugins().join("slack/package.json").is_file() {
        eprintln!(
            "realclaw_fidelity: no channel plugins at {} (.ci/run installs them; \
             CLAWDECK_CHANNEL_PLUGINS names another place): the channel cases will fail",
            channel_plugins().display()
        );
    }
    let release = Release {
        pack: shipped_pack(&version),
        shelf: Shelf::new(SUITE, &version),
        bin,
        printed,
        report_name: "fidelity-report.txt",
    };
    check_release(release).await.assert_clean();
}

/// One release under test: its CLI, what its `--version` printed, the pack clawdeck answers
/// with, its recordings and where its report goes.
struct Release {
    bin: PathBuf,
    printed: String,
    pack: Arc<Semantics>,
    shelf: Shelf,
    report_name: &'static str,
}

/// The cases as they stand for the release (its series' `expect` and skips; FIDELITY_CASES),
/// answered with its pack, asked of its CLI as `run_real` picks and checked against (or
/// recorded on) its shelf.
async fn check_release(release: Release) -> Verdict {
    let ssh = ssh_for_run();
    let fill = |text: &str| match &ssh {
        Some(target) => target.fill(text),
        None => ssh_unreached(text),
    };
    let (mut cases, skipped) =
        cases_for_release(load_cases(&fill), &series(&release.shelf.version));
    only_asked(&mut cases);
    for case in &mut cases {
        case.pack = Some(release.pack.clone());
    }
    eprintln!(
        "realclaw_fidelity: {} configs against openclaw {} with the {} pack ({} skipped)",
        cases.len(),
        release.shelf.version,
        release.pack.id,
        skipped.len()
    );
    let run = RealRun {
        bin: release.bin,
        openclaw: release.printed,
        shelf: release.shelf,
        portable: portable(&fill),
        report_name: release.report_name,
        skipped,
        ask_all: false,
    };
    run_real(run, cases, ssh.as_ref()).await
}

/// The recordings' suite name (tests/recordings/fidelity/<version>/).
const SUITE: &str = "fidelity";

/// The private sshd the sandbox cases sandbox on (OpenClaw's SSH backend), when it starts.
fn ssh_for_run() -> Option<ssh_target::SshTarget> {
    ssh_target::SshTarget::start()
        .map_err(|err| {
            eprintln!(
                "realclaw_fidelity: the sandbox cases' SSH target is not running ({err}); \
                 they point at an address nobody answers (OpenClaw 2026.9.6 settles a run's \
                 tools before its first sandboxed call connects). .ci/run installs openssh-server."
            )
        })
        .ok()
}

/// FIDELITY_CASES=a,b keeps only those cases.
fn only_asked(cases: &mut Vec<Case>) {
    if let Ok(only) = std::env::var("FIDELITY_CASES")
        && !only.trim().is_empty()
    {
        let wanted: Vec<&str> = only.split(',').map(str::trim).collect();
        eprintln!("realclaw_fidelity: FIDELITY_CASES limits the run to {wanted:?}");
        cases.retain(|c| wanted.contains(&c.name.as_str()));
    }
}

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
/// dir; the stored pack's file as written.
fn sync_from_release(bin: &Path) -> Result<serde_json::Value, String> {
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
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The same cases against openclaw@2026.8.2 ($OPENCLAW_BIN_2026_8; .ci/run installs it with
/// `OPENCLAW_VERSION=2026.8.2 setup.sh`), clawdeck answering with the pack a real `catalog
/// sync` from a 2026.8.2 gateway stored (laid over the shipped 2026.8 pack); that pack is a
/// recording too (`catalog-sync`), checked against the fresh sync. Cases whose config 2026.8.2
/// refuses or whose feature it lacks say so in their `versions."2026.8".skip`.
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
    let (version, printed) = openclaw_version(&bin);
    let synced = tokio::task::spawn_blocking({
        let bin = bin.clone();
        move || sync_from_release(&bin)
    })
    .await
    .unwrap()
    .unwrap_or_else(|err| panic!("a real catalog sync from a {version} gateway failed: {err}"));
    let shelf = Shelf::new(SUITE, &version);
    let pack_problem = check_synced_pack(&shelf, &printed, &synced);
    let pack = pack_for_shelf(&shelf);
    assert!(
        pack.id.starts_with(&format!("{}.", series(&version))),
        "the gateway of {} reported version {}",
        bin.display(),
        pack.id
    );
    let release = Release {
        bin,
        printed,
        pack,
        shelf,
        report_name: "fidelity-report-2026.8.txt",
    };
    check_release(release).await.assert_clean();
    assert!(
        pack_problem.is_none(),
        "{}",
        pack_problem.unwrap_or_default()
    );
}

/// The mechanism itself: a deliberately wrong recording (one tool taken out of a real
/// answer, in a private copy of the shelf) fails the re-check; the real OpenClaw is asked once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
async fn a_wrong_recording_fails_the_recheck() {
    let Ok(bin) = verify::find_openclaw(None) else {
        eprintln!("SKIPPED (no real OpenClaw): ../shared/realclaw/setup.sh installs it");
        return;
    };
    if recordings::recording() {
        eprintln!("SKIPPED: recording, not checking");
        return;
    }
    let (version, printed) = openclaw_version(&bin);
    let name = "global-allow-deny";
    let mut case = load_cases(&ssh_unreached)
        .into_iter()
        .find(|c| c.name == name)
        .unwrap();
    case.pack = Some(shipped_pack(&version));
    let recording = Shelf::new(SUITE, &version)
        .find(name, &case.inputs)
        .unwrap_or_else(|| panic!("{name} has no recording of openclaw {version}"));
    let mut answer: Answer = serde_json::from_value(recording.answer).unwrap();
    let Answer::Single { view } = &mut answer else {
        panic!("{name} is one run")
    };
    let gone = view.tools.remove(0).name;
    let dir = tempfile::tempdir().unwrap();
    let shelf = Shelf {
        dir: dir.path().join(&version),
        version: version.clone(),
    };
    shelf.write(
        name,
        &case.inputs,
        &printed,
        serde_json::to_value(&answer).unwrap(),
    );
    let run = RealRun {
        bin: bin.clone(),
        openclaw: printed,
        shelf,
        portable: portable(&ssh_unreached),
        report_name: "fidelity-report-wrong-recording.txt",
        skipped: Vec::new(),
        ask_all: true,
    };
    let verdict = run_real(run, vec![case], None).await;
    assert!(verdict.errors.is_empty(), "{:?}", verdict.errors);
    assert_eq!(
        verdict.recordings.len(),
        1,
        "the recording without {gone} passed the re-check: {:?}",
        verdict.recordings
    );
    assert!(
        verdict.recordings[0].contains("answers otherwise than its recording"),
        "{}",
        verdict.recordings[0]
    );
}

/// A synced pack as its recording keeps it: without what differs on every sync (when, and the
/// private gateway's port, kept as `@GATEWAY@`).
fn recorded_pack(synced: &serde_json::Value) -> serde_json::Value {
    let mut pack = synced.clone();
    let gateway = pack["capture"]["gateway"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if let Some(capture) = pack["capture"].as_object_mut() {
        capture.insert("capturedAtMs".into(), serde_json::json!(0));
    }
    Portable::new(&[("@GATEWAY@", gateway)]).to_recorded(&pack)
}

/// Records the freshly synced pack, or checks it against its recording (None: it matches).
fn check_synced_pack(shelf: &Shelf, printed: &str, synced: &serde_json::Value) -> Option<String> {
    let synced = recorded_pack(synced);
    let same = Portable::new(&[]);
    shelf.record_or_check(SYNCED_PACK, &synced_pack_inputs(), printed, &synced, &same)
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
    // clawdeck's own client, with a device of its own (the token pairs it on loopback).
    let device = tempfile::tempdir().unwrap();
    let identity = clawdeck_gateway::DeviceIdentity::load_or_create(device.path()).unwrap();
    let observed = verify::observe_gateway(&target, session, &identity, Duration::from_secs(30))
        .await
        .unwrap();
    let names = observed.exposed_names();
    assert!(names.iter().any(|n| n == "read"), "{names:?}");
    assert!(observed.tools.iter().all(|t| t.owner.is_some()));

    let unknown = verify::observe_gateway(
        &target,
        "agent:ops:explicit:no-such-session",
        &identity,
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

/// What `shelf` recorded real OpenClaw answering for `case`'s inputs, read back with this
/// machine's paths; `None` when nothing was recorded for them.
fn recorded_answer(shelf: &Shelf, local: &Portable, case: &Case) -> Option<Answer> {
    let recording = shelf.find(&case.name, &case.inputs)?;
    let answer = serde_json::from_value(local.to_local(&recording.answer))
        .unwrap_or_else(|e| panic!("{}: {e}", shelf.dir.display()));
    Some(answer)
}

/// Every recording of every release against clawdeck's prediction now: no node, no real
/// OpenClaw. A case without a recording for its inputs, or a recording no case has, fails.
#[test]
fn clawdeck_agrees_with_every_fidelity_recording() {
    let versions = Shelf::versions(SUITE);
    assert!(
        !versions.is_empty(),
        "no recordings under {}",
        recordings::recordings_root().join(SUITE).display()
    );
    let mut problems = Vec::new();
    for version in versions {
        let shelf = Shelf::new(SUITE, &version);
        let (mut cases, mut skipped) =
            cases_for_release(load_cases(&ssh_unreached), &series(&version));
        let mut live: std::collections::BTreeMap<String, String> =
            cases_with_inputs(&cases).into_iter().collect();
        live.insert(SYNCED_PACK.to_string(), synced_pack_inputs());
        problems.extend(shelf.orphans(&live).into_iter().map(|path| {
            format!("{path}: a recording no case has (its case is gone or its inputs changed)")
        }));
        let pack = pack_for_shelf(&shelf);
        for case in &mut cases {
            case.pack = Some(pack.clone());
        }
        // Kept on the shelf above, but not compared where clawdeck cannot see an install.
        cases.retain(|case| match &case.file.needs_install {
            Some(why) if load_case(case).0.installed_plugins.is_none() => {
                skipped.push(format!("{}: no OpenClaw install found: {why}", case.name));
                false
            }
            _ => true,
        });
        let local = portable(&ssh_unreached);
        let mut outcomes = Vec::new();
        for case in &mut cases {
            let Some(answer) = recorded_answer(&shelf, &local, case) else {
                problems.push(format!(
                    "{}: no recording of openclaw {version} for its inputs ({}): \
                     tests/recordings/record.sh records it",
                    case.name, case.inputs
                ));
                continue;
            };
            outcomes.push(judge(case, &answer, 0.0));
        }
        let verdict = Verdict::of(&outcomes, &skipped);
        eprintln!("openclaw {version}: {}", verdict.summary.trim_end());
        if verdict.policy + verdict.schema + verdict.truth_failures.len() > 0 {
            eprint!("{}", verdict.report);
            problems.push(format!(
                "openclaw {version}: {}",
                verdict.summary.trim_end()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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
            e.refused || e.none || !e.present.is_empty(),
            "{}: a case must name tools OpenClaw exposes (or expect none at all)",
            case.name
        );
        assert!(
            !e.none || e.present.is_empty(),
            "{}: a case expecting no tool names none present",
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

/// Stores two auth profiles with OpenClaw's own writer (`models auth paste-api-key`) in a fresh
/// home: one for the default agent (the shared store) and one for `ops` (its own store), then
/// loads the config there with clawdeck's reader: it finds each in its store, never the key,
/// and the fal profile brings image_generate to both agents, the x-ai one nothing to `main`.
/// On 2026.9.6 and, with OPENCLAW_BIN_2026_8, on 2026.8.2.
#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn stored_profiles_round_trip() {
    use clawdeck_core::auth_profiles::StoreOwner;
    let Ok(bin) = verify::find_openclaw(None) else {
        eprintln!("SKIPPED (no real OpenClaw): ../shared/realclaw/setup.sh installs it");
        return;
    };
    let older = std::env::var_os("OPENCLAW_BIN_2026_8").map(PathBuf::from);
    for bin in std::iter::once(bin).chain(older) {
        let home = tempfile::tempdir().unwrap();
        let config = home.path().join(".openclaw/openclaw.json");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::write(
            &config,
            r#"{ "agents": { "list": [ { "id": "main", "default": true }, { "id": "ops" } ] } }"#,
        )
        .unwrap();
        for (agent, provider, id) in [("main", "fal", "fal:lab"), ("ops", "x-ai", "xai:ops")] {
            let mut child = std::process::Command::new(&bin)
                .args(["models", "auth", "paste-api-key", "--provider", provider])
                .args(["--profile-id", id, "--agent", agent])
                .env("HOME", home.path())
                .env("REALCLAW_HOME", home.path())
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"round-trip-secret\n")
                .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                bin.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let loaded = config::load(Some(&config)).unwrap();
        let stores = &loaded.auth_profiles;
        let found: Vec<(StoreOwner, String, String)> = stores
            .iter()
            .flat_map(|s| {
                s.profiles
                    .iter()
                    .map(|p| (s.owner.clone(), p.id.clone(), p.provider.clone()))
            })
            .collect();
        assert_eq!(
            found,
            [
                (StoreOwner::Shared, "fal:lab".into(), "fal".into()),
                (
                    StoreOwner::Agent("ops".into()),
                    "xai:ops".into(),
                    "x-ai".into()
                ),
            ],
            "{}",
            bin.display()
        );
        assert!(!format!("{stores:?}").contains("round-trip-secret"));
        let semantics = &loaded.semantics;
        let source = |agent: &str, tool: &str| {
            semantics.media_source(&loaded.raw, &loaded.credentials(Some(agent)), tool)
        };
        assert!(source("main", "image_generate").is_some());
        assert!(source("ops", "image_generate").is_some());
        // pdf comes from xai (its media understanding), through ops's own store only.
        assert_eq!(source("main", "pdf"), None);
        assert!(
            matches!(source("ops", "pdf"),
                Some(clawdeck_core::semantics::MediaSource::Credential { plugin, .. }) if plugin == "xai"),
            "{:?}",
            source("ops", "pdf")
        );
    }
}

/// Calls `each` with every recorded Code Mode run's release, case and `exec` description.
fn for_each_recorded_code_mode_exec(mut each: impl FnMut(&str, &Case, &str)) {
    for version in Shelf::versions(SUITE) {
        let shelf = Shelf::new(SUITE, &version);
        let (mut cases, _) = cases_for_release(load_cases(&ssh_unreached), &series(&version));
        let pack = pack_for_shelf(&shelf);
        let local = portable(&ssh_unreached);
        for case in &mut cases {
            case.pack = Some(pack.clone());
            let Some(Answer::Single { view }) = recorded_answer(&shelf, &local, case) else {
                continue;
            };
            let Surface::CodeMode { controls, .. } = &view.surface else {
                continue;
            };
            if let Some(exec) = controls.iter().find(|c| c.name == "exec") {
                each(
                    &version,
                    case,
                    exec.function["description"].as_str().unwrap_or_default(),
                );
            }
        }
    }
}

/// Every line of every recorded Code Mode index (`- name INPUT -> OUTPUT` in the `exec` real
/// OpenClaw sent) names the input hint clawdeck renders from that tool's schema in the same
/// config and context (clawdeck_core's `code_mode_input_hint`, OpenClaw's
/// compactToolInputHint). Runs on the recordings, so in every plain `cargo test`.
#[test]
fn code_mode_input_hints_match_every_recorded_index() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for_each_recorded_code_mode_exec(|version, case, description| {
        let (_, registry) = load_case(case);
        for line in description.lines().filter_map(|l| l.strip_prefix("- ")) {
            let Some((name, rest)) = line.split_once(' ') else {
                continue;
            };
            let Some((input, _output)) = rest.rsplit_once(" -> ") else {
                continue;
            };
            let Some(spec) = registry.get(name) else {
                continue;
            };
            checked += 1;
            // 2026.8 writes numbers without their bounds.
            let bounds = !version.starts_with("2026.8.");
            let ours = clawdeck_core::semantics::code_mode_input_hint(&spec.parameters, bounds);
            if ours != input {
                problems.push(format!(
                    "{version} {}: {name}\n  openclaw: {input}\n  clawdeck: {ours}",
                    case.name
                ));
            }
        }
    });
    assert!(checked > 20, "only {checked} index lines were checked");
    assert!(
        problems.is_empty(),
        "{} of {checked} differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The part of Code Mode's `exec` description from its index's heading on.
fn code_mode_index_of(description: &str) -> Option<&str> {
    let at = description.find("\n\nEnabled async tool globals")?;
    Some(&description[at + 2..])
}

/// Every Code Mode run recorded (both releases) sent `exec` with a description for the run (its
/// budgets and catalog facts) and an index of the tools callable from code: clawdeck writes the
/// same description for the case's context, and the same index line for line (callable names,
/// input and output hints, order, what the budget leaves out and the footer), except where a
/// tool's output hint is one no capture run showed (said, and counted). It needs the installed
/// OpenClaw package: its bundled skills decide whether the description tells of the `skills`
/// global, as they did in the recorded runs.
#[test]
#[ignore = "needs the real OpenClaw package (OPENCLAW_BIN) for its bundled skills: .ci/run runs it with --ignored"]
fn code_mode_exec_description_matches_every_recorded_run() {
    let bin = std::env::var("OPENCLAW_BIN").unwrap_or_else(|_| "openclaw".into());
    assert!(
        clawdeck_core::paths::openclaw_package(&bin).is_some(),
        "no OpenClaw package found for {bin:?}: set OPENCLAW_BIN to the real CLI \
         (../shared/realclaw/setup.sh installs it)"
    );
    let (mut checked, mut unknown) = (0, Vec::new());
    let mut problems = Vec::new();
    for_each_recorded_code_mode_exec(|version, case, description| {
        let real_description = description.to_string();
        let real = code_mode_index_of(&real_description)
            .unwrap_or_default()
            .to_string();
        let (loaded, registry) = load_case(case);
        let predicted = verify::predict(&loaded, &registry, &case.file.context)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let our_description = predicted
            .export
            .payload
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("function"))
            .find(|f| f["name"] == "exec")
            .and_then(|f| f["description"].as_str())
            .unwrap_or_default()
            .to_string();
        let ours = code_mode_index_of(&our_description)
            .unwrap_or_default()
            .to_string();
        checked += 1;
        // The description before the index: the run's budgets and catalog facts.
        let head = |d: &str| {
            d.split("\n\nEnabled async tool globals")
                .next()
                .map(str::to_string)
        };
        if head(&real_description) != head(&our_description) {
            problems.push(format!(
                    "{version} {}: exec's description before its index differs\n  openclaw: {:?}\n  clawdeck: {:?}",
                    case.name,
                    head(&real_description),
                    head(&our_description)
                ));
        }
        if ours == real {
            return;
        }
        // A line whose tool's output no capture run showed cannot be written: said, not judged.
        let unknown_here: Vec<&str> = real
            .lines()
            .zip(ours.lines())
            .filter(|(r, o)| r != o && o.ends_with(" -> ?") && !r.ends_with(" -> ?"))
            .map(|(_, o)| o.split(' ').nth(1).unwrap_or_default())
            .collect();
        let differing: Vec<String> = real
            .lines()
            .zip(ours.lines())
            .filter(|(r, o)| r != o)
            .map(|(r, o)| format!("  openclaw: {r}\n  clawdeck: {o}"))
            .collect();
        if !unknown_here.is_empty() && unknown_here.len() == differing.len() {
            unknown.push(format!(
                "{version} {}: {}",
                case.name,
                unknown_here.join(" ")
            ));
            return;
        }
        problems.push(format!(
            "{version} {} ({} lines openclaw, {} clawdeck):\n{}",
            case.name,
            real.lines().count(),
            ours.lines().count(),
            differing.into_iter().take(6).collect::<Vec<_>>().join("\n")
        ));
    });
    if !unknown.is_empty() {
        eprintln!(
            "code_mode_index: output hints no capture run showed: {}",
            unknown.join("; ")
        );
    }
    assert!(checked > 5, "only {checked} Code Mode runs were checked");
    assert!(
        problems.is_empty(),
        "{} of {checked} indexes differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
