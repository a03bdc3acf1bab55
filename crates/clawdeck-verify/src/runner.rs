//! Runs the real OpenClaw CLI against the recording mock in an isolated home and returns what
//! the model received.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

pub use super::cli_run::strip_ansi;
use super::cli_run::{cli_spec, tail_lines, write_run_config};
use super::home::{agent_model, inexpressible, isolated_config, session_args};
use super::mock::RecordingMock;
use super::observed::{NO_TOOLS_ERROR_PREFIX, ObservedView, main_request};
use crate::context::PolicyContext;
use crate::dotenv::DotEnvPlace;
use crate::process::{self, SpawnError};

/// The environment variable naming the real CLI.
pub(crate) const OPENCLAW_BIN_ENV: &str = "OPENCLAW_BIN";

/// A real run takes ~15 s (node start-up, plugin load, one agent turn).
pub(crate) const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// The message the agent turn is started with.
pub const RUN_MESSAGE: &str = "clawdeck verify: list nothing, just answer.";

/// Why no observation could be made. Each names where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error(
        "real OpenClaw not found: set {OPENCLAW_BIN_ENV} or put `openclaw` on PATH (looked at: {searched})"
    )]
    CliMissing { searched: String },
    #[error("cannot start {program}: {message}")]
    Spawn { program: String, message: String },
    #[error("cannot prepare the isolated OpenClaw home {path}: {message}")]
    Home { path: String, message: String },
    #[error("cannot start the recording mock LLM: {0}")]
    Mock(String),
    #[error("`{command}` did not finish within {seconds} s (its process group was killed)")]
    Timeout { command: String, seconds: u64 },
    #[error(
        "`{command}` {status} without asking the model anything; its output ends with:\n{output}"
    )]
    CliFailed {
        command: String,
        status: String,
        output: String,
    },
    #[error(
        "`{command}` exited 0 but the mock LLM recorded no request; its output ends with:\n{output}"
    )]
    NoRequest { command: String, output: String },
    #[error("the gateway's {method} failed: {message}")]
    Gateway { method: String, message: String },
    #[error("context flags a CLI run cannot express: {0}")]
    Inexpressible(String),
}

/// Where the CLI is and how long a run may take.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The CLI; None = `$OPENCLAW_BIN`, then `openclaw` on PATH.
    pub openclaw_bin: Option<PathBuf>,
    pub timeout: Duration,
    /// Official plugins (`@openclaw/discord`) installed from npm, at the CLI's own release,
    /// into the run's home before it runs: OpenClaw loads some only as a trusted install,
    /// never from `plugins.load.paths`. A load path of the same package is dropped from the
    /// run's config.
    pub official_plugins: Vec<String>,
    /// The operator's dotenv files (the `.env` beside the config, `gateway.env`), each copied
    /// to its place in the run's home: OpenClaw loads their variables (provider keys) into its
    /// environment.
    pub dotenv_files: Vec<(DotEnvPlace, PathBuf)>,
    /// The credential variables the operator's login shell sets (`env.shellEnv`): the run's
    /// home gets a `~/.profile` exporting each with a stand-in value, so the real OpenClaw's
    /// login shell sets them too (the operator's own profile and values stay where they are).
    pub login_shell_names: Vec<String>,
    /// The operator's stored auth profiles: the run's home gets a profile of the same id and
    /// provider in the same store, with a stand-in key, written by OpenClaw's own `models auth
    /// paste-api-key` (the operator's credentials stay where they are).
    pub auth_profiles: Vec<LabProfile>,
    /// The gateway client whose `chat.send` starts the turn, as clawdeck resolves the
    /// context's (its id and every capability it declares); the lab connects as it.
    pub client: Option<clawdeck_core::semantics::TurnClient>,
}

/// A stored auth profile the lab gives its run: the agent whose store it goes into (the
/// default agent's is the shared store: OpenClaw's writer puts it there), the profile id and
/// the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabProfile {
    pub agent: String,
    pub id: String,
    pub provider: String,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            openclaw_bin: None,
            timeout: DEFAULT_RUN_TIMEOUT,
            official_plugins: Vec::new(),
            dotenv_files: Vec::new(),
            login_shell_names: Vec::new(),
            auth_profiles: Vec::new(),
            client: None,
        }
    }
}

/// Writes the run's `~/.profile` exporting `names` (variable names only; any other is
/// skipped) with a stand-in value.
fn write_login_profile(home: &Path, names: &[String]) -> Result<(), VerifyError> {
    let text: String = names
        .iter()
        .filter(|name| crate::dotenv::is_env_name(name))
        .map(|name| format!("export {name}=clawdeck-lab\n"))
        .collect();
    let to = home.join(DotEnvPlace::LoginShell.under_home());
    crate::process::private_fs::write_private(&to, text.as_bytes()).map_err(|err| {
        VerifyError::Home {
            path: to.display().to_string(),
            message: err.to_string(),
        }
    })
}

/// Largest `.env` copied into a run's home.
const MAX_DOTENV_BYTES: u64 = 1024 * 1024;

/// Copies one of the operator's dotenv files to `place` in the run's home (0600: it holds
/// keys).
fn copy_dotenv(place: DotEnvPlace, from: &Path, home: &Path) -> Result<(), VerifyError> {
    let failed = |path: &Path, message: String| VerifyError::Home {
        path: path.display().to_string(),
        message,
    };
    let meta = std::fs::metadata(from).map_err(|err| failed(from, err.to_string()))?;
    if !meta.is_file() {
        return Err(failed(from, "not a regular file".to_string()));
    }
    let size = meta.len();
    if size > MAX_DOTENV_BYTES {
        return Err(failed(
            from,
            format!("{size} bytes is too large for a .env file (at most {MAX_DOTENV_BYTES})"),
        ));
    }
    let text = std::fs::read(from).map_err(|err| failed(from, err.to_string()))?;
    let to = home.join(place.under_home());
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|err| failed(dir, err.to_string()))?;
    }
    crate::process::private_fs::write_private(&to, &text)
        .map_err(|err| failed(&to, err.to_string()))
}

/// The real CLI: the explicit path, `$OPENCLAW_BIN`, or `openclaw` on PATH.
pub fn find_openclaw(explicit: Option<&Path>) -> Result<PathBuf, VerifyError> {
    // A path the operator names is the one to use: a missing one is an error, never a fallback.
    if let Some(path) = explicit {
        if path.is_file() {
            return Ok(path.to_path_buf());
        }
        return Err(VerifyError::CliMissing {
            searched: path.display().to_string(),
        });
    }
    let mut searched = Vec::new();
    let from_env = std::env::var_os(OPENCLAW_BIN_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    if let Some(candidate) = from_env {
        if candidate.is_file() {
            return Ok(candidate);
        }
        searched.push(candidate.display().to_string());
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join("openclaw");
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    searched.push("openclaw on PATH".to_string());
    Err(VerifyError::CliMissing {
        searched: searched.join(", "),
    })
}

/// A temporary directory removed on drop (or by the stop policy when clawdeck is stopped).
struct TempHome(PathBuf);

impl TempHome {
    fn create() -> Result<Self, VerifyError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!(
            "clawdeck-verify-{}-{nanos}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let failed = |err: std::io::Error| VerifyError::Home {
            path: dir.display().to_string(),
            message: err.to_string(),
        };
        // 0700 from the start (the home gets a copy of openclaw.json with its tokens); a
        // directory someone made there first is refused, not used (nor removed).
        crate::process::private_fs::create_private_dir(&dir).map_err(failed)?;
        // Registered before anything is written in it: a stop of clawdeck removes it.
        crate::process::stop::register_temp(&dir);
        if let Err(err) = crate::process::private_fs::create_private_dir(&dir.join(".openclaw")) {
            crate::process::stop::remove_temp(&dir);
            return Err(failed(err));
        }
        Ok(Self(dir))
    }
}

impl Drop for TempHome {
    fn drop(&mut self) {
        crate::process::stop::remove_temp(&self.0);
    }
}

/// Runs `openclaw agent --local` for `agent` in `ctx` with the operator's `config` (the raw
/// JSON) and returns what the model received: the tools with schemas and the system prompt, or
/// the refusal when an allowlist left no callable tool.
pub async fn observe_cli(
    config: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
) -> Result<ObservedView, VerifyError> {
    let lost = inexpressible(ctx);
    if !lost.is_empty() {
        return Err(VerifyError::Inexpressible(lost.join(", ")));
    }
    if super::job_creator::creator_over_telegram(ctx) {
        return observe_job_made_over_telegram(config, agent, ctx, options).await;
    }
    if ctx.is_scheduled() {
        let start = super::private_gateway::Start::Scheduled;
        return observe_through_gateway(config, agent, ctx, options, start).await;
    }
    if ctx.heartbeat {
        let start = super::private_gateway::Start::Heartbeat;
        return observe_through_gateway(config, agent, ctx, options, start).await;
    }
    if super::sender_run::has_sender(ctx) {
        return observe_inbound(config, agent, ctx, options).await;
    }
    if super::private_gateway::node_turn(ctx) {
        let start = super::private_gateway::Start::NodeVoice;
        return observe_through_gateway(config, agent, ctx, options, start).await;
    }
    if ctx.names_client() {
        // Only `chat.send` carries a client's capabilities.
        let as_owner = ctx.owner != Some(false);
        let start = super::private_gateway::Start::ChatSend { as_owner };
        return observe_through_gateway(config, agent, ctx, options, start).await;
    }
    if ctx.owner == Some(false) || ctx.spawner_key().is_some() || ctx.gateway_run {
        // Only a gateway runs a non-owner's turn, a turn whose subagent is observed, or a turn
        // asked of its agent method.
        let as_owner = ctx.owner != Some(false);
        let start = super::private_gateway::Start::AgentMethod { as_owner };
        return observe_through_gateway(config, agent, ctx, options, start).await;
    }
    let Prepared {
        program,
        mock,
        home,
        isolated,
    } = prepare(config, agent, ctx, options).await?;
    write_run_config(&home.0, &isolated)?;

    let mut args = vec![
        "agent".to_string(),
        "--local".to_string(),
        "--agent".to_string(),
        agent.to_string(),
    ];
    args.extend(session_args(agent, ctx));
    args.extend(["--message".to_string(), RUN_MESSAGE.to_string()]);
    let spec = cli_spec(&program, &home.0, options.timeout).args(args);
    let command = spec.display_command();
    let running = process::spawn(spec).map_err(|err| spawn_error(&program, &err))?;
    let outcome = running.wait().await;

    let bodies: Vec<Value> = mock.completions().into_iter().map(|r| r.body).collect();
    mock.stop().await;
    drop(home);

    if outcome.timed_out {
        return Err(VerifyError::Timeout {
            command,
            seconds: options.timeout.as_secs(),
        });
    }
    if let Some(body) = main_request(&bodies) {
        return Ok(ObservedView::from_request(body));
    }
    let output = strip_ansi(&outcome.output.combined_text());
    if let Some(line) = output
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with(NO_TOOLS_ERROR_PREFIX))
    {
        return Ok(ObservedView::refused(line.trim().to_string()));
    }
    let tail = tail_lines(&output, 12);
    if outcome.success() {
        Err(VerifyError::NoRequest {
            command,
            output: tail,
        })
    } else {
        Err(VerifyError::CliFailed {
            command,
            status: outcome.summary(),
            output: tail,
        })
    }
}

/// What every observation starts from: the CLI, the recording mock, an isolated home and the
/// operator's config pointed at the mock.
struct Prepared {
    program: PathBuf,
    mock: RecordingMock,
    home: TempHome,
    isolated: Value,
}

async fn prepare(
    config: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
) -> Result<Prepared, VerifyError> {
    let program = find_openclaw(options.openclaw_bin.as_deref())?;
    let mock = RecordingMock::start()
        .await
        .map_err(|err| VerifyError::Mock(err.to_string()))?;
    let home = TempHome::create()?;
    for (place, file) in &options.dotenv_files {
        copy_dotenv(*place, file, &home.0)?;
    }
    if !options.login_shell_names.is_empty() {
        write_login_profile(&home.0, &options.login_shell_names)?;
    }
    let model = agent_model(config, agent, ctx);
    let isolated = isolated_config(config, &model, &mock.base_url());
    let mut prepared = Prepared {
        program,
        mock,
        home,
        isolated,
    };
    for package in &options.official_plugins {
        install_official_plugin(&prepared, package).await?;
    }
    if !options.auth_profiles.is_empty() {
        store_profiles(&prepared, &options.auth_profiles).await?;
    }
    prepared.isolated =
        super::home::without_load_paths_of(&prepared.isolated, &options.official_plugins);
    Ok(prepared)
}

/// One turn through a private gateway (see `private_gateway`), started as `start` says: the
/// `agent` method or `chat.send` (webchat), as its owner (an `operator.admin` connection) or
/// not. Comparing the two shows exactly what the owner gate removes in a gateway-hosted run.
pub async fn observe_through_gateway(
    config: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
    start: super::private_gateway::Start,
) -> Result<ObservedView, VerifyError> {
    let prepared = prepare(config, agent, ctx, options).await?;
    let isolated = match start {
        // A node's voice turn asks for thinking level `low`, which only a reasoning model has.
        super::private_gateway::Start::NodeVoice => {
            super::home::with_reasoning_model(&prepared.isolated)
        }
        _ => prepared.isolated.clone(),
    };
    let observed = on_private_gateway(&prepared, &isolated, agent, ctx, options, start).await;
    prepared.mock.stop().await;
    observed
}

/// One turn of `agent` on a private gateway in the prepared home, with `isolated` as its config.
/// A context that names its spawner is observed as the subagent that spawner's turn spawns:
/// the turn runs in the spawner's session and calls `sessions_spawn`.
async fn on_private_gateway(
    prepared: &Prepared,
    isolated: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
    start: super::private_gateway::Start,
) -> Result<ObservedView, VerifyError> {
    let spawner = ctx.spawner();
    let (spawner_agent, message) = turn_message(ctx, agent);
    super::private_gateway::observe(
        &prepared.program,
        &prepared.home.0,
        isolated,
        super::private_gateway::Turn {
            agent: &spawner_agent,
            ctx: spawner.as_ref().unwrap_or(ctx),
            start,
            timeout: options.timeout,
            message: &message,
            spawned: spawner.is_some(),
            client: options.client.as_ref(),
        },
        &prepared.mock,
    )
    .await
}

/// The agent the turn goes to and its message: with a spawner, the spawner's agent and the
/// message that makes it spawn `agent`'s subagent; else `agent` and the plain message.
fn turn_message(ctx: &PolicyContext, agent: &str) -> (String, String) {
    let Some(spawner) = ctx.spawner() else {
        return (agent.to_string(), RUN_MESSAGE.to_string());
    };
    let spawner_agent = spawner.agent.unwrap_or_else(|| agent.to_string());
    let other = !spawner_agent.eq_ignore_ascii_case(agent);
    let message = super::private_gateway::spawn_message(other.then_some(agent));
    (spawner_agent, message)
}

/// Whether a sender's direct message can be the spawner's turn: it runs in the spawning
/// agent's main session (OpenClaw's default `session.dmScope`), so only that key can be named.
fn spawned_in_a_direct_chat(ctx: &PolicyContext, agent: &str) -> bool {
    let Some(key) = ctx.spawner_key() else {
        return true;
    };
    let spawner_agent = clawdeck_core::session_key::parse(key)
        .agent
        .unwrap_or_else(|| agent.to_string());
    key.trim()
        .eq_ignore_ascii_case(&format!("agent:{spawner_agent}:main"))
}

fn spawn_error(program: &Path, err: &SpawnError) -> VerifyError {
    VerifyError::Spawn {
        program: program.display().to_string(),
        message: err.to_string(),
    }
}

/// The stand-in a sender's direct message comes from.
enum InboundStub {
    Telegram(super::telegram_stub::TelegramStub),
    Signal(super::signal_stub::SignalStub),
}

impl InboundStub {
    /// Starts the stand-in of the context's sender channel and points `isolated` at it.
    async fn start(
        ctx: &PolicyContext,
        isolated: &Value,
        agent: &str,
        message: &str,
    ) -> Result<(InboundStub, Value), VerifyError> {
        use super::sender_run::{SenderChannel, sender_channel};
        match sender_channel(ctx) {
            SenderChannel::Telegram => {
                let sender = super::sender_run::telegram_sender(ctx);
                let stub = Self::telegram(sender, message, None).await?;
                let config =
                    super::sender_run::with_telegram_inbound(isolated, &stub.api_root(), agent);
                Ok((InboundStub::Telegram(stub), config))
            }
            SenderChannel::Signal => {
                let sender = super::sender_run::signal_sender(ctx);
                let stub = super::signal_stub::SignalStub::start(sender, message)
                    .await
                    .map_err(|err| {
                        VerifyError::Mock(format!("the stand-in signal-cli daemon: {err}"))
                    })?;
                let config = super::sender_run::with_signal_inbound(isolated, &stub.url(), agent);
                Ok((InboundStub::Signal(stub), config))
            }
        }
    }

    /// The stand-in Bot API, `message` waiting for the bot `recipient` names (any bot's when
    /// `None`).
    async fn telegram(
        sender: super::telegram_stub::TelegramSender,
        message: &str,
        recipient: Option<String>,
    ) -> Result<super::telegram_stub::TelegramStub, VerifyError> {
        super::telegram_stub::TelegramStub::start(sender, message, recipient)
            .await
            .map_err(|err| VerifyError::Mock(format!("the stand-in Telegram Bot API: {err}")))
    }

    /// The turn `start` starts on a private gateway beside this stand-in, whose message it
    /// waits for (a timeout says how far the message got); then the stand-in and the mock stop.
    async fn observe_beside(
        self,
        prepared: Prepared,
        isolated: &Value,
        turn: (&str, &PolicyContext, &RunOptions),
        start: super::private_gateway::Start,
    ) -> Result<ObservedView, VerifyError> {
        let (agent, ctx, options) = turn;
        let observed = on_private_gateway(&prepared, isolated, agent, ctx, options, start).await;
        let observed = self.with_progress(observed);
        self.stop().await;
        prepared.mock.stop().await;
        observed
    }

    /// How far the message got, for a timeout.
    fn progress(&self) -> String {
        match self {
            InboundStub::Telegram(stub) => format!(
                "the stand-in Bot API saw {}",
                describe_calls(&stub.calls(), stub.acknowledged(), "acknowledged")
            ),
            InboundStub::Signal(stub) => format!(
                "the stand-in signal-cli daemon saw {}",
                describe_calls(&stub.calls(), stub.delivered(), "streamed")
            ),
        }
    }

    /// The observation, a timeout saying how far the message got.
    fn with_progress(
        &self,
        observed: Result<ObservedView, VerifyError>,
    ) -> Result<ObservedView, VerifyError> {
        observed.map_err(|err| match err {
            VerifyError::Timeout { command, seconds } => VerifyError::Timeout {
                command: format!("{command}; {}", self.progress()),
                seconds,
            },
            other => other,
        })
    }

    async fn stop(self) {
        match self {
            InboundStub::Telegram(stub) => stub.stop().await,
            InboundStub::Signal(stub) => stub.stop().await,
        }
    }
}

/// One turn started by the context's sender: a direct message (see `sender_run`) to a private
/// gateway whose Telegram or Signal channel reads from a stand-in.
pub async fn observe_inbound(
    config: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
) -> Result<ObservedView, VerifyError> {
    let mut lost = super::sender_run::unsendable(ctx);
    if !spawned_in_a_direct_chat(ctx, agent) {
        lost.push("--spawned-by other than the spawning agent's main session with a sender (a direct message runs in agent:<id>:main)");
    }
    if !lost.is_empty() {
        return Err(VerifyError::Inexpressible(lost.join(", ")));
    }
    let prepared = prepare(config, agent, ctx, options).await?;
    if super::sender_run::sender_channel(ctx) == super::sender_run::SenderChannel::Signal {
        install_official_plugin(&prepared, "@openclaw/signal").await?;
    }
    // The message goes to the spawning agent, whose turn spawns the observed subagent.
    let (spawner_agent, message) = turn_message(ctx, agent);
    let (stub, isolated) =
        InboundStub::start(ctx, &prepared.isolated, &spawner_agent, &message).await?;
    let start = super::private_gateway::Start::Inbound;
    stub.observe_beside(prepared, &isolated, (agent, ctx, options), start)
        .await
}

/// A job an agent made from an owner's Telegram direct message (see `job_creator`): the
/// message, waiting at a stand-in Bot API for the creator's account, makes the creator's turn
/// add the job; the private gateway then runs it, and its turn is observed.
async fn observe_job_made_over_telegram(
    config: &Value,
    agent: &str,
    ctx: &PolicyContext,
    options: &RunOptions,
) -> Result<ObservedView, VerifyError> {
    let lost = super::job_creator::creator_unsayable_in(config, ctx);
    if !lost.is_empty() {
        return Err(VerifyError::Inexpressible(lost.join(", ")));
    }
    let prepared = prepare(config, agent, ctx, options).await?;
    let key = ctx.session_key.as_deref().filter(|k| !k.trim().is_empty());
    let turn = super::lab_job::JobTurn {
        agent,
        ctx,
        message: RUN_MESSAGE,
    };
    let message = super::lab_job::creator_message(super::lab_job::scheduled_job(turn, key));
    let sender = super::sender_run::telegram_sender(&PolicyContext::default());
    let recipient = super::job_creator::creator_token(&prepared.isolated, ctx);
    let sender_id = sender.id;
    let stub = InboundStub::telegram(sender, &message, Some(recipient)).await?;
    let isolated = super::job_creator::with_telegram_creator(
        &prepared.isolated,
        &stub.api_root(),
        agent,
        ctx,
        sender_id,
    );
    let start = super::private_gateway::Start::Scheduled;
    InboundStub::Telegram(stub)
        .observe_beside(prepared, &isolated, (agent, ctx, options), start)
        .await
}

/// Stores `profiles` in the run's home with OpenClaw's own writer, each with a stand-in key:
/// the isolated config goes in first (the command checks the agent against it, and rewrites
/// it; every observation writes it again before its turn).
async fn store_profiles(prepared: &Prepared, profiles: &[LabProfile]) -> Result<(), VerifyError> {
    write_run_config(&prepared.home.0, &prepared.isolated)?;
    for profile in profiles {
        let args = [
            "models",
            "auth",
            "paste-api-key",
            "--provider",
            profile.provider.as_str(),
            "--profile-id",
            profile.id.as_str(),
            "--agent",
            profile.agent.as_str(),
        ];
        let spec = cli_spec(&prepared.program, &prepared.home.0, PASTE_KEY_TIMEOUT)
            .args(args.iter().map(|a| a.to_string()))
            .stdin(process::StdinMode::Piped);
        run_step(prepared, spec, Some(b"clawdeck-lab-stand-in-key\n")).await?;
    }
    Ok(())
}

/// Most stored profiles a run's home gets (each is one run of the CLI).
pub const MAX_LAB_PROFILES: usize = 16;

/// The stored auth profiles a run of `agent` reads in `loaded`'s state (the shared store's and
/// the agent's own), as the lab gives them to its run: at most [`MAX_LAB_PROFILES`], and how
/// many more there were.
pub fn lab_profiles(
    loaded: &clawdeck_core::config::LoadedConfig,
    agent: &str,
) -> (Vec<LabProfile>, usize) {
    use clawdeck_core::auth_profiles::StoreOwner;
    let default_agent = loaded.default_agent_id();
    let all: Vec<LabProfile> = loaded
        .auth_profiles
        .iter()
        .filter(|store| store.read_by(Some(agent)))
        .flat_map(|store| {
            let owner = match &store.owner {
                StoreOwner::Shared => default_agent.clone(),
                StoreOwner::Agent(owner) => owner.clone(),
            };
            store.profiles.iter().map(move |profile| LabProfile {
                agent: owner.clone(),
                id: profile.id.clone(),
                provider: profile.provider.clone(),
            })
        })
        .collect();
    let left_out = all.len().saturating_sub(MAX_LAB_PROFILES);
    (all.into_iter().take(MAX_LAB_PROFILES).collect(), left_out)
}

/// How long storing one auth profile may take.
const PASTE_KEY_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs one CLI step of preparing the run's home (`spec`), writing `input` to its stdin; an
/// error says what ran and its output.
async fn run_step(
    prepared: &Prepared,
    spec: process::ProcessSpec,
    input: Option<&[u8]>,
) -> Result<(), VerifyError> {
    use tokio::io::AsyncWriteExt;
    let command = spec.display_command();
    let timeout = spec.timeout.unwrap_or(DEFAULT_RUN_TIMEOUT);
    let mut running = process::spawn(spec).map_err(|err| spawn_error(&prepared.program, &err))?;
    if let (Some(input), Some(mut stdin)) = (input, running.take_stdin()) {
        // A CLI that exits before reading is judged by its outcome below.
        let _ = stdin.write_all(input).await;
    }
    let outcome = running.wait().await;
    if outcome.timed_out {
        return Err(VerifyError::Timeout {
            command,
            seconds: timeout.as_secs(),
        });
    }
    if !outcome.success() {
        return Err(VerifyError::CliFailed {
            command,
            status: outcome.summary(),
            output: tail_lines(&strip_ansi(&outcome.output.combined_text()), 12),
        });
    }
    Ok(())
}

/// Installs an official channel plugin from npm into the isolated home (`openclaw plugins
/// install <package>@<version>`: the version the config's load path of it holds, else the
/// CLI's own release). OpenClaw opens a channel's ingress
/// only for a trusted plugin, and only an npm or ClawHub install is one; a plugin loaded from
/// `plugins.load.paths` or installed from a path is refused.
async fn install_official_plugin(prepared: &Prepared, package: &str) -> Result<(), VerifyError> {
    let program = prepared.program.display().to_string();
    // The version the config's load path holds, else the release's own (asked of the CLI only
    // then).
    let loaded =
        super::home::loaded_version_of(&prepared.isolated, package).filter(|v| !v.is_empty());
    let version = match loaded {
        Some(version) => version,
        None => tokio::task::spawn_blocking({
            let program = program.clone();
            move || clawdeck_core::semantics::installed_openclaw_version(&program)
        })
        .await
        .ok()
        .flatten()
        .map(|(version, _)| version)
        .ok_or_else(|| VerifyError::Spawn {
            program: program.clone(),
            message: format!(
                "its version is unknown, so {package} of that release cannot be installed"
            ),
        })?,
    };
    let spec = format!("{package}@{version}");
    let args = ["plugins", "install", spec.as_str(), "--accept-capabilities"];
    let mut process = cli_spec(&prepared.program, &prepared.home.0, PLUGIN_INSTALL_TIMEOUT)
        .args(args.iter().map(|a| a.to_string()));
    // npm's own content-addressed cache is shared (a cold one downloads every dependency on
    // every run); the plugin lands in the isolated home all the same.
    if let Some(home) = std::env::var_os("HOME") {
        let cache = std::path::Path::new(&home).join(".npm");
        process = process.env("npm_config_cache", cache.display().to_string());
    }
    // What reaching the registry needs on this machine (a proxy, its certificate authority).
    for key in NETWORK_ENV {
        if let Ok(value) = std::env::var(key) {
            process = process.env(key, value);
        }
    }
    run_step(prepared, process, None).await
}

/// The environment a plugin install passes through to reach npm's registry.
const NETWORK_ENV: [&str; 9] = [
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "no_proxy",
];

/// How long a plugin install from npm may take.
const PLUGIN_INSTALL_TIMEOUT: Duration = Duration::from_secs(300);

fn describe_calls(calls: &[String], done: bool, what: &str) -> String {
    if calls.is_empty() {
        return "no call (the channel never started)".to_string();
    }
    let mut seen: Vec<&str> = Vec::new();
    for call in calls {
        if !seen.contains(&call.as_str()) {
            seen.push(call);
        }
    }
    format!(
        "{} ({}; the message was {}{what})",
        calls.len(),
        seen.join(", "),
        if done { "" } else { "not " }
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn ansi_sequences_are_removed() {
        assert_eq!(
            strip_ansi("\u{1b}[33m[tools]\u{1b}[39m No callable"),
            "[tools] No callable"
        );
    }

    #[test]
    fn a_missing_cli_is_named_with_where_it_was_looked_for() {
        let err = find_openclaw(Some(Path::new("/nonexistent/openclaw-bin"))).unwrap_err();
        let text = err.to_string();
        // Named explicitly: neither $OPENCLAW_BIN nor PATH stands in for it.
        assert!(text.contains("/nonexistent/openclaw-bin"), "{text}");
    }

    #[test]
    fn the_stand_in_profile_exports_only_variable_names() {
        let home = tempfile::tempdir().unwrap();
        let names = ["OPENAI_API_KEY", "FAL_KEY", "BAD;rm -rf /", "1X", ""].map(String::from);
        write_login_profile(home.path(), &names).unwrap();
        let text = std::fs::read_to_string(home.path().join(".profile")).unwrap();
        assert_eq!(
            text,
            "export OPENAI_API_KEY=clawdeck-lab\nexport FAL_KEY=clawdeck-lab\n"
        );
    }

    /// A stand-in for the CLI: reads the isolated config, sends one request to the provider it
    /// names, with its argv and environment facts in the system prompt.
    const FAKE_CLI: &str = r#"#!/usr/bin/env python3
import json, os, sys, urllib.request
home = os.environ["HOME"]
cfg = json.load(open(os.path.join(home, ".openclaw", "openclaw.json")))
provider_id, provider = next(iter(cfg["models"]["providers"].items()))
facts = {"argv": sys.argv[1:], "home": home, "provider": provider_id,
         "primary": cfg["agents"]["defaults"]["model"]["primary"], "tools": cfg.get("tools"),
         "leaked": sorted(k for k in os.environ if k.startswith("OPENCLAW_GATEWAY"))}
body = {"model": provider["models"][0]["id"], "stream": True,
        "messages": [{"role": "system", "content": json.dumps(facts)}, {"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "read", "description": "Read", "parameters": {"type": "object"}}}]}
req = urllib.request.Request(provider["baseUrl"] + "/chat/completions", data=json.dumps(body).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req).read().decode()[:20])
"#;

    #[tokio::test]
    async fn a_run_records_what_the_cli_sent_from_an_isolated_home() {
        let python = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).any(|d| d.join("python3").is_file()))
            .unwrap_or(false);
        if !python {
            eprintln!("SKIPPED: python3 (the fake CLI's interpreter) is not on PATH");
            return;
        }
        let dir = std::env::temp_dir().join(format!("clawdeck-verify-ok-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("openclaw");
        std::fs::write(&fake, FAKE_CLI).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let options = RunOptions {
            openclaw_bin: Some(fake),
            timeout: Duration::from_secs(30),
            ..RunOptions::default()
        };
        let config = serde_json::json!({
            "agents": {"list": [{"id": "ops", "model": "openai/gpt-5"}]},
            "tools": {"profile": "coding", "byProvider": {"openai": {"deny": ["exec"]}}},
        });
        let ctx = PolicyContext {
            subagent: true,
            ..PolicyContext::default()
        };
        let view = observe_cli(&config, "ops", &ctx, &options).await.unwrap();
        assert_eq!(view.exposed_names(), ["read"]);
        let facts: Value = serde_json::from_str(view.system_prompt.as_deref().unwrap()).unwrap();
        assert_eq!(
            facts["argv"],
            serde_json::json!([
                "agent",
                "--local",
                "--agent",
                "ops",
                "--session-key",
                "agent:ops:subagent:clawdeck-verify",
                "--message",
                RUN_MESSAGE
            ])
        );
        assert_eq!(facts["provider"], "openai");
        assert_eq!(facts["primary"], "openai/gpt-5");
        assert_eq!(facts["tools"], config["tools"]);
        assert_eq!(facts["leaked"], serde_json::json!([]));
        let home = PathBuf::from(facts["home"].as_str().unwrap());
        assert!(home.starts_with(std::env::temp_dir()), "{}", home.display());
        assert!(!home.exists(), "the isolated home is removed afterwards");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The isolated home holds a copy of openclaw.json with its tokens: while the CLI runs,
    /// the home and its .openclaw are 0700 and the config 0600 (as the CLI itself sees them).
    #[tokio::test]
    async fn the_isolated_home_and_its_config_are_private_while_the_cli_runs() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("openclaw");
        std::fs::write(
            &fake,
            "#!/bin/sh\nc=\"$HOME/.openclaw/openclaw.json\"\necho \"modes $(stat -c %a \"$HOME\") $(stat -c %a \"$HOME/.openclaw\") $(stat -c %a \"$c\")\" >&2\nexit 1\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let options = RunOptions {
            openclaw_bin: Some(fake),
            timeout: Duration::from_secs(20),
            ..RunOptions::default()
        };
        let config = serde_json::json!({"gateway": {"auth": {"token": "secret-token"}}});
        let err = observe_cli(&config, "main", &PolicyContext::default(), &options)
            .await
            .unwrap_err();
        match &err {
            VerifyError::CliFailed { output, .. } => {
                assert!(output.contains("modes 700 700 600"), "{output}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_cli_that_fails_is_reported_with_its_output() {
        let dir = std::env::temp_dir().join(format!("clawdeck-verify-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("openclaw");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho 'Unknown agent id \"x\".' >&2\nexit 1\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let options = RunOptions {
            openclaw_bin: Some(fake.clone()),
            timeout: Duration::from_secs(20),
            ..RunOptions::default()
        };
        let err = observe_cli(
            &serde_json::json!({}),
            "x",
            &PolicyContext::default(),
            &options,
        )
        .await
        .unwrap_err();
        match &err {
            VerifyError::CliFailed { status, output, .. } => {
                assert_eq!(status, "exited with code 1");
                assert!(output.contains("Unknown agent id"), "{output}");
            }
            other => panic!("{other:?}"),
        }

        // A refusal for an allowlist that matches nothing is an observation, not an error.
        std::fs::write(
            &fake,
            "#!/bin/sh\necho 'No callable tools remain after resolving explicit tool allowlist (tools.allow: x); no registered tools matched.' >&2\nexit 1\n",
        )
        .unwrap();
        let view = observe_cli(
            &serde_json::json!({}),
            "main",
            &PolicyContext::default(),
            &options,
        )
        .await
        .unwrap();
        assert!(view.exposed_names().is_empty());
        assert!(matches!(
            view.surface,
            super::super::observed::Surface::Refused { .. }
        ));

        // A CLI that hangs is killed at the timeout.
        std::fs::write(&fake, "#!/bin/sh\nsleep 30\n").unwrap();
        let quick = RunOptions {
            openclaw_bin: Some(fake),
            timeout: Duration::from_millis(300),
            ..RunOptions::default()
        };
        let err = observe_cli(
            &serde_json::json!({}),
            "main",
            &PolicyContext::default(),
            &quick,
        )
        .await
        .unwrap_err();
        assert!(matches!(err, VerifyError::Timeout { .. }), "{err:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
