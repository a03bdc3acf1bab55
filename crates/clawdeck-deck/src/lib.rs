//! The `Deck`: the one way to build clawdeck's core for a config. It owns the config, the tool
//! registry, the execution pipeline, the lane queue, the tool runtime (background exec sessions)
//! and the router service, so the console and the headless commands wire nothing themselves.
//!
//! - `Deck::load` / `Deck::new` build everything from a config;
//! - `reload` / `apply` re-apply what the config decides (registry with plugins, hooks and skills,
//!   the pipeline, lane limits and warnAfterMs, the exec session TTL, router settings) and return the new snapshot, or
//!   the located error while the last good config stays in use;
//! - `forward_events` hands on one stream of core events (router runs, lane queue), router
//!   events paced by permits; a reader that falls behind is told how many events it skipped
//!   instead of making anything wait or grow (back-pressure lives here);
//! - `open_desk` opens the approvals desk on the configured gateways and keeps it;
//! - each snapshot (`DeckState`) resolves policy per context once and keeps the answers;
//! - `cancel_call` kills one queued or running call (the console's Queue view kill);
//! - `record_decisions` makes every call through its pipelines (this one and those built on
//!   reload) write a decision-log record;
//! - `shutdown` cancels and awaits every call and run, including those started before a reload.
//!
//! No terminal code here: the console is a client of the Deck like `route` is.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::broadcast;

use crate::catalog::Registry;
use crate::config::{ConfigRequest, LoadedConfig};
use crate::decision_log::{DecisionLog, DecisionSink};
use crate::local_tools::ToolRuntime;
use crate::mcp_servers::ServerListing;
use crate::pipeline::Pipeline;
use crate::queue::{
    EntryId, KilledEntry, LANE_CRON, LANE_MAIN, LANE_NESTED, LANE_SUBAGENT, LaneLimits, LaneQueue,
    QueueEvent,
};
use crate::router::{RouterEvent, RouterService};

/// The tool registry for a config (plugin manifests are read here, `mcp.servers` listed through
/// `listing`). The Deck is the one place that builds it, so a change to how registries are
/// built is made once.
pub fn build_registry(config: &LoadedConfig, listing: &ServerListing) -> Registry {
    Registry::build(config, listing)
}

/// What one config decides, built together and replaced together on reload.
pub struct DeckState {
    pub config: Arc<LoadedConfig>,
    pub registry: Arc<Registry>,
    pub pipeline: Arc<Pipeline>,
    pub limits: LaneLimits,
    /// The policy resolutions of this config, per context.
    resolutions: crate::resolutions::Resolutions,
}

impl DeckState {
    fn new(
        config: Arc<LoadedConfig>,
        registry: Arc<Registry>,
        pipeline: Arc<Pipeline>,
        limits: LaneLimits,
    ) -> DeckState {
        DeckState {
            config,
            registry,
            pipeline,
            limits,
            resolutions: Default::default(),
        }
    }

    /// What this config shows in `context` (each layer's allow and deny, every tool's trace),
    /// resolved the first time a context is asked for and kept while the config is installed
    /// (at most [`resolutions::KEPT_CONTEXTS`] contexts). It reads no file, but a first ask
    /// costs a resolution: the console asks off its task.
    pub fn resolve(&self, context: &crate::context::PolicyContext) -> resolutions::Resolved {
        self.resolutions
            .resolve(&self.config, &self.registry, context)
    }

    /// The kept resolution for `context`, if it was asked for before.
    pub fn cached_resolution(
        &self,
        context: &crate::context::PolicyContext,
    ) -> Option<resolutions::Resolved> {
        self.resolutions.cached(context)
    }
}

impl std::fmt::Debug for DeckState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeckState")
            .field("config", &self.config.describe())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// The core of one clawdeck instance. Cheap to clone.
#[derive(Clone)]
pub struct Deck {
    inner: Arc<Inner>,
}

struct Inner {
    /// `--config` as given and the OpenClaw version asked for (reloads read the same).
    request: ConfigRequest,
    state: Mutex<Arc<DeckState>>,
    queue: LaneQueue,
    runtime: ToolRuntime,
    /// The clawbot_router service: run history and live events, one per Deck; it supplies its
    /// tools to every tool set through the runtime.
    router: RouterService,
    /// Every pipeline built (one per reload): shutdown cancels calls started under old configs.
    pipelines: Mutex<Vec<Arc<Pipeline>>>,
    /// Fires with a new count each time a config is installed (MCP clients are told).
    installed: broadcast::Sender<u64>,
    /// Set by `record_decisions`: every pipeline built from then on records into it.
    decisions: Mutex<Option<DecisionSink>>,
    /// The approvals desk on the configured gateways, once opened (`open_desk`).
    desk: Mutex<Option<crate::gateway::desk::GatewayDesk>>,
    /// The MCP HTTP endpoint serving this Deck, if one was started (the console shows it).
    mcp_endpoint: Mutex<Option<crate::mcp_endpoint::EndpointMonitor>>,
    /// Held while a config is installed, so a pack settled from the installed config never
    /// overwrites a newer one.
    installing: Mutex<()>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl std::fmt::Debug for Deck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deck")
            .field("config", &self.config().describe())
            .finish()
    }
}

impl Deck {
    /// Loads the config (`--config`, then the default places) and builds everything;
    /// `mcp.servers` are listed through `listing`, now and on every reload.
    pub fn load(
        config_arg: Option<&Path>,
        listing: &ServerListing,
    ) -> Result<Deck, crate::config::ConfigError> {
        Deck::load_from(&ConfigRequest::at(config_arg), listing)
    }

    /// `load` for a request that names the OpenClaw version too (`--openclaw-version`).
    pub fn load_from(
        request: &ConfigRequest,
        listing: &ServerListing,
    ) -> Result<Deck, crate::config::ConfigError> {
        let config = crate::config::load_from(request)?;
        let registry = build_registry(&config, listing);
        Ok(Deck::with_registry(config, registry, request.clone()))
    }

    /// `load`, without waiting for the installed `openclaw --version` when its answer is not
    /// known yet (the console's first frame never waits): the pack is then provisional, marked
    /// `Installed::Detecting`, until [`Deck::settle_openclaw_version`].
    pub fn load_without_waiting_for_openclaw(
        request: &ConfigRequest,
        listing: &ServerListing,
    ) -> Result<Deck, crate::config::ConfigError> {
        let config = crate::config::load_without_waiting_for_openclaw(request)?;
        let registry = build_registry(&config, listing);
        Ok(Deck::with_registry(config, registry, request.clone()))
    }

    /// Builds everything for a loaded config; `config_arg` is what `reload` re-reads, for the
    /// version the config was requested for.
    pub fn new(config: LoadedConfig, config_arg: Option<PathBuf>, listing: &ServerListing) -> Deck {
        let registry = build_registry(&config, listing);
        let request = ConfigRequest {
            path: config_arg,
            openclaw_version: config.requested.clone(),
            node_list: None,
        };
        Deck::with_registry(config, registry, request)
    }

    /// Builds everything around a registry the caller already built (the headless commands
    /// report its warnings before running); reloads list `mcp.servers` the way it did.
    pub fn with_registry(config: LoadedConfig, registry: Registry, request: ConfigRequest) -> Deck {
        let router = RouterService::new(config.settings.router.clone());
        Deck::assemble(config, registry, request, router)
    }

    /// A Deck for a config already in memory whose clawbot_router runs through `router` (a
    /// service that resolves `openclaw` its own way: tests and benchmarks point it at a stand-in).
    pub fn with_router(config: LoadedConfig, router: RouterService) -> Deck {
        let registry = build_registry(&config, &ServerListing::Off);
        Deck::assemble(config, registry, ConfigRequest::default(), router)
    }

    fn assemble(
        config: LoadedConfig,
        registry: Registry,
        request: ConfigRequest,
        router: RouterService,
    ) -> Deck {
        let limits = LaneLimits::from_settings(&config.settings.lanes, &config.raw);
        let queue = LaneQueue::new(limits.clone());
        for lane in [LANE_MAIN, LANE_SUBAGENT, LANE_CRON, LANE_NESTED] {
            // The standard lanes are visible before any work arrives.
            queue.set_limit(lane, limits.limit_for(lane));
        }
        let runtime = ToolRuntime::new(&config).with_supplier(Arc::new(router.clone()));
        let config = Arc::new(config);
        let registry = Arc::new(registry);
        let pipeline = Arc::new(Pipeline::new(
            Arc::clone(&config),
            Arc::clone(&registry),
            queue.clone(),
            runtime.clone(),
        ));
        let state = DeckState::new(config, registry, Arc::clone(&pipeline), limits);
        Deck {
            inner: Arc::new(Inner {
                request,
                state: Mutex::new(Arc::new(state)),
                queue,
                runtime,
                router,
                pipelines: Mutex::new(vec![pipeline]),
                installed: broadcast::channel(8).0,
                decisions: Mutex::new(None),
                desk: Mutex::new(None),
                mcp_endpoint: Mutex::new(None),
                installing: Mutex::new(()),
            }),
        }
    }

    /// The MCP HTTP endpoint serving this Deck: where it listens, open connections, refusals,
    /// the last error (`EndpointMonitor::status`).
    pub fn mcp_endpoint(&self) -> Option<crate::mcp_endpoint::EndpointMonitor> {
        lock(&self.inner.mcp_endpoint).clone()
    }

    /// Called by the MCP listener as it starts.
    pub fn set_mcp_endpoint(&self, monitor: crate::mcp_endpoint::EndpointMonitor) {
        *lock(&self.inner.mcp_endpoint) = Some(monitor);
    }

    /// The current snapshot (config, registry, pipeline); stays valid across reloads.
    pub fn state(&self) -> Arc<DeckState> {
        Arc::clone(&lock(&self.inner.state))
    }

    pub fn config(&self) -> Arc<LoadedConfig> {
        Arc::clone(&self.state().config)
    }

    pub fn registry(&self) -> Arc<Registry> {
        Arc::clone(&self.state().registry)
    }

    pub fn pipeline(&self) -> Arc<Pipeline> {
        Arc::clone(&self.state().pipeline)
    }

    pub fn queue(&self) -> &LaneQueue {
        &self.inner.queue
    }

    pub fn tool_runtime(&self) -> &ToolRuntime {
        &self.inner.runtime
    }

    pub fn router(&self) -> &RouterService {
        &self.inner.router
    }

    /// Starts feeding the gateways' session rosters to `sink` (one background task per
    /// gateway; `stop` ends them). Returns the gateways' names (none when no gateway is
    /// configured: clawdeck.json5 `gateways`, OPENCLAW_GATEWAY_URL) and the handle that picks
    /// the session whose transcript is followed.
    pub fn feed_gateway_rosters(
        &self,
        sink: crate::gateway::feed::RosterSink,
        stop: tokio_util::sync::CancellationToken,
    ) -> Result<(Vec<String>, crate::gateway::feed::SessionFollow), String> {
        use crate::gateway::feed::SessionFollow;
        let Some((endpoints, identity)) = self.configured_gateways()? else {
            return Ok((Vec::new(), SessionFollow::default()));
        };
        let names = endpoints.iter().map(|e| e.name.clone()).collect();
        let follow = crate::gateway::feed::spawn_roster_feed(
            endpoints,
            identity,
            crate::gateway::Backoff::default(),
            sink,
            stop,
        );
        Ok((names, follow))
    }

    /// Opens the approvals desk (exec approvals and `tools.invoke`) on the configured gateways
    /// with clawdeck's device identity, as operator.admin when `all_operators` or
    /// `approvals.allOperators` asks; its events go to `sink` until `stop`. Returns the
    /// gateways' names, none when no gateway is configured.
    pub fn open_desk(
        &self,
        all_operators: bool,
        sink: crate::gateway::desk::DeskSink,
        stop: tokio_util::sync::CancellationToken,
    ) -> Result<Vec<String>, String> {
        let Some((endpoints, identity)) = self.configured_gateways()? else {
            return Ok(Vec::new());
        };
        let all_operators = all_operators || self.config().settings.approvals.all_operators;
        let desk = crate::gateway::desk::GatewayDesk::spawn_with(
            endpoints,
            identity,
            crate::gateway::desk::approver_options().all_operators(all_operators),
            crate::gateway::Backoff::default(),
            sink,
            stop,
        );
        let names = desk.gateways().to_vec();
        self.attach_desk(desk);
        Ok(names)
    }

    /// Uses a desk opened elsewhere (on gateways of the caller's choosing).
    pub fn attach_desk(&self, desk: crate::gateway::desk::GatewayDesk) {
        *lock(&self.inner.desk) = Some(desk);
    }

    /// The approvals desk, once opened.
    pub fn desk(&self) -> Option<crate::gateway::desk::GatewayDesk> {
        lock(&self.inner.desk).clone()
    }

    /// The gateways the console attaches to (clawdeck.json5 `gateways`, else
    /// `OPENCLAW_GATEWAY_URL`/`_TOKEN`) with clawdeck's device identity; None when none is
    /// configured.
    pub(crate) fn configured_gateways(
        &self,
    ) -> Result<
        Option<(
            Vec<crate::gateway::GatewayEndpoint>,
            crate::gateway::DeviceIdentity,
        )>,
        String,
    > {
        let configured = self.config().settings.gateways.clone();
        let env = |key: &str| std::env::var(key).ok();
        let endpoints = match crate::gateway::resolve_endpoints(&configured, &[], &env) {
            Ok(e) => e,
            Err(_) if configured.is_empty() => return Ok(None),
            Err(e) => return Err(e),
        };
        if endpoints.is_empty() {
            return Ok(None);
        }
        Ok(Some((
            endpoints,
            crate::gateway::DeviceIdentity::load_default()?,
        )))
    }

    /// `--config` as given.
    pub fn config_arg(&self) -> Option<&Path> {
        self.inner.request.path.as_deref()
    }

    /// `--config` and the OpenClaw version asked for: what `reload` reads.
    pub fn config_request(&self) -> &ConfigRequest {
        &self.inner.request
    }

    /// Records every call from now on in the decision log under clawdeck's state dir, with
    /// `default_client` for requests that name no client (`invoke`, `console`). The log's
    /// limits follow the config (`decisionLog` in clawdeck.json5), reloads included. Returns
    /// the log, or why there is none (no state dir); calls go on either way.
    pub fn record_decisions(&self, default_client: &str) -> Result<Arc<DecisionLog>, String> {
        let settings = self.config().settings.decision_log.clone();
        let log = Arc::new(DecisionLog::open_default(settings)?);
        self.record_decisions_in(Arc::clone(&log), default_client);
        Ok(log)
    }

    /// `record_decisions` into a log the caller opened (tests, a second sink).
    pub(crate) fn record_decisions_in(&self, log: Arc<DecisionLog>, default_client: &str) {
        let sink = DecisionSink::new(log, Some(default_client));
        self.pipeline().set_decision_sink(Some(sink.clone()));
        *lock(&self.inner.decisions) = Some(sink);
    }

    /// Re-reads the config the way it was first found. A broken file is an error naming its
    /// place; the last good state stays in use.
    pub fn reload(&self) -> Result<Arc<DeckState>, crate::config::ConfigError> {
        let config = crate::config::load_from(&self.inner.request)?;
        Ok(self.apply(config))
    }

    /// Installs a config: a new registry and pipeline (plugins, hooks, skills), the lane limits
    /// and warnAfterMs, the exec session TTL, the router settings. Runs and calls already going keep going.
    pub fn apply(&self, config: LoadedConfig) -> Arc<DeckState> {
        let registry = self.registry().rebuild_for(&config);
        self.apply_built(config, registry)
    }

    /// `apply` with a registry built elsewhere (off the caller's task: it reads plugin files).
    pub(crate) fn apply_built(&self, config: LoadedConfig, registry: Registry) -> Arc<DeckState> {
        let _installing = lock(&self.inner.installing);
        self.install(config, registry)
    }

    /// When the installed config's pack waits for `openclaw --version` (see
    /// [`Deck::load_without_waiting_for_openclaw`]), waits for the answer (the probe runs under
    /// the process supervisor with its own timeout, once per process) and installs the config
    /// again with the pack the answer decides. None when nothing waited.
    pub async fn settle_openclaw_version(&self) -> Option<Arc<DeckState>> {
        let config = self.config();
        if config.pack.installed != crate::semantics::Installed::Detecting {
            return None;
        }
        let bin = crate::config::openclaw_bin(&config);
        let deck = self.clone();
        tokio::task::spawn_blocking(move || {
            crate::semantics::probe_openclaw_version(&bin);
            deck.choose_pack_again()
        })
        .await
        .ok()
    }

    /// Chooses the installed config's pack again (the probe's answer is in) and installs it.
    fn choose_pack_again(&self) -> Arc<DeckState> {
        let _installing = lock(&self.inner.installing);
        let mut config = (*self.config()).clone();
        if config.pack.installed != crate::semantics::Installed::Detecting {
            // A reload in the meantime waited for the answer.
            return self.state();
        }
        if let Err(err) = crate::config::select_pack(&mut config, crate::config::VersionProbe::Wait)
        {
            config.pack.installed = crate::semantics::Installed::Unknown(err.to_string());
        }
        let registry = self.registry().rebuild_for(&config);
        self.install(config, registry)
    }

    fn install(&self, config: LoadedConfig, registry: Registry) -> Arc<DeckState> {
        let limits = LaneLimits::from_settings(&config.settings.lanes, &config.raw);
        self.inner.queue.apply_limits(&limits);
        self.router().apply_settings(config.settings.router.clone());
        self.inner.runtime.sessions.set_ttl(Duration::from_secs(
            config.settings.exec.session_ttl_seconds,
        ));
        self.inner
            .runtime
            .sessions
            .set_max_running(config.settings.exec.max_background_sessions);
        let config = Arc::new(config);
        let registry = Arc::new(registry);
        let pipeline = Arc::new(Pipeline::new(
            Arc::clone(&config),
            Arc::clone(&registry),
            self.inner.queue.clone(),
            self.inner.runtime.clone(),
        ));
        if let Some(sink) = lock(&self.inner.decisions).clone() {
            sink.log
                .apply_settings(config.settings.decision_log.clone());
            pipeline.set_decision_sink(Some(sink));
        }
        lock(&self.inner.pipelines).push(Arc::clone(&pipeline));
        let state = Arc::new(DeckState::new(config, registry, pipeline, limits));
        *lock(&self.inner.state) = Arc::clone(&state);
        let installs = lock(&self.inner.pipelines).len() as u64;
        let _ = self.inner.installed.send(installs);
        state
    }

    /// Tells each time a new config is installed (`reload` / `apply`): whoever lists tools to
    /// someone else (the MCP server) says the list may have changed.
    pub fn installed(&self) -> broadcast::Receiver<u64> {
        self.inner.installed.subscribe()
    }

    /// The core's events (router runs, lane queue), handed to `send` from the Deck's own
    /// tasks until it returns false. A router event comes with a permit the reader keeps
    /// until it is done with the event (a chunk: sanitized); with `router_in_flight` permits
    /// out, the Deck stops reading the router, whose buffer then moves on, and the reader is
    /// told how many events it missed (`RouterLagged`) instead of anything waiting or growing.
    /// Queue events come without a budget; a reader that falls behind them is told too.
    pub fn forward_events<F>(&self, router_in_flight: usize, send: F)
    where
        F: Fn(DeckEvent, crate::paced::Permit) -> bool + Send + Sync + 'static,
    {
        use crate::paced::{Delivery, Permit};
        let send = Arc::new(send);
        let router_send = Arc::clone(&send);
        crate::paced::forward_broadcast(
            self.router().subscribe(),
            router_in_flight,
            move |delivery| match delivery {
                Delivery::Event(event, permit) => router_send(DeckEvent::Router(event), permit),
                Delivery::Lagged(n) => router_send(DeckEvent::RouterLagged(n), Permit::none()),
            },
        );
        let mut queue = self.inner.queue.subscribe();
        tokio::spawn(async move {
            use broadcast::error::RecvError;
            loop {
                let event = match queue.recv().await {
                    Ok(event) => DeckEvent::Queue(event),
                    Err(RecvError::Lagged(n)) => DeckEvent::QueueLagged(n),
                    Err(RecvError::Closed) => return,
                };
                if !send(event, Permit::none()) {
                    return;
                }
            }
        });
    }

    /// Live work: router runs and background exec sessions whose process still runs.
    pub fn live_work(&self) -> (usize, usize) {
        let runs = self
            .router()
            .runs()
            .iter()
            .filter(|r| r.outcome.is_none())
            .count();
        let sessions = self
            .inner
            .runtime
            .sessions
            .list()
            .iter()
            .filter(|s| s.outcome().is_none())
            .count();
        (runs, sessions)
    }

    /// Kills one call of the lane queue, whoever made it (an MCP client, the Invoke view, a
    /// `route` run): fires that call's cancellation, so its tool stops as for its own caller's
    /// cancel (an exec's process tree is killed, a clawbot_router run is killed) and its caller
    /// gets a cancelled result that says the operator killed it; a waiting call leaves the
    /// queue unrun. What follows comes back as queue events (`KillRequested`, then `Finished`
    /// with outcome `killed`). None when no call `id` is waiting or running.
    pub fn cancel_call(&self, id: EntryId) -> Option<KilledEntry> {
        self.inner.queue.kill(id)
    }

    /// Cancels every call (under every config ever applied), kills every router run and
    /// background exec session, and waits for them, at most `grace`.
    pub async fn shutdown(&self, grace: Duration) {
        self.inner.queue.set_draining(true);
        for pipeline in lock(&self.inner.pipelines).iter() {
            pipeline.cancel_all();
        }
        for run in self.router().runs() {
            if run.outcome.is_none() {
                self.router().kill(run.run_id);
            }
        }
        let sessions = self.inner.runtime.sessions.list();
        for session in &sessions {
            session.process().kill(crate::process::KillReason::Shutdown);
        }
        let wait = async {
            for session in &sessions {
                session.process().wait().await;
            }
            self.inner.queue.wait_idle().await;
            while self.router().runs().iter().any(|r| r.outcome.is_none()) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let _ = tokio::time::timeout(grace, wait).await;
    }
}

/// One event of the core.
#[derive(Debug, Clone)]
pub enum DeckEvent {
    Router(RouterEvent),
    /// The reader fell behind the router and skipped this many events (ends included: read
    /// them from `RouterService::runs`).
    RouterLagged(u64),
    Queue(QueueEvent),
    QueueLagged(u64),
}

pub mod api;
pub mod exec_sessions;
mod gateway_pulse;
mod gateway_verdict;
pub mod mcp_endpoint;
pub mod paced;
pub mod resolutions;
mod session_check;
pub mod session_compare;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod decision_tests;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

// The core's modules under their own names, so paths read the same in every crate.
pub(crate) use clawdeck_core::{
    catalog, comparison, config, context, decision_log, exec_allowlist, exec_verdict, local_tools,
    mcp_servers, pipeline, policy, process, queue, semantics,
};
pub(crate) use clawdeck_gateway as gateway;
pub(crate) use clawdeck_router as router;
