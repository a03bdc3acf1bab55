//! `RouterService`: starts runs, enforces the deadline, keeps a bounded history, and publishes
//! every run's events for the console and `clawdeck route`.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use serde::Serialize;
use tokio::sync::{broadcast, watch};
// tokio's clock, so that deadlines follow a paused test clock.
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::argv::{self, MessageArg};
use super::clean;
use super::env::child_env;
use super::events::{RouterEvent, RouterEventKind, StdStream};
use super::outcome::{RouterOutcome, RunStatus};
use super::request::{Mode, OutputMode, RouterRequest, TransportKind};
use super::texts;
use super::transport::{
    ChunkSink, HttpPlan, NoteSink, RunPlan, StartFailure, Stop, StopReason, Transport, TransportEnd,
};
use crate::config::settings::RouterSettings;
use clawdeck_core::bounds;

pub use super::transport::OPERATOR_TIMEOUT_CEILING;

/// Output kept per run: the record holds the output's first whole lines up to this size and
/// stops there, saying so (`RecordCut`); nothing after the cut is kept, so the record never has
/// a gap in its middle.
pub const RAW_LIMIT_BYTES: usize = 8 * 1024 * 1024;

/// Event buffer per subscriber; a subscriber that falls this far behind loses events.
const EVENT_CAPACITY: usize = 4096;

/// Environment lookup (injected in tests).
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Why a request was not started: `model` is what the tool returns (the seed's text),
/// `operator` the same in English for the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub model: String,
    pub operator: String,
}

impl Refusal {
    fn new(model: impl Into<String>, operator: impl Into<String>) -> Refusal {
        Refusal {
            model: model.into(),
            operator: operator.into(),
        }
    }
}

/// One run as the history keeps it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouterRun {
    pub run_id: u64,
    pub argv: Vec<String>,
    pub transport: TransportKind,
    pub agent: Option<String>,
    pub to: Option<String>,
    pub message: String,
    pub mode: Mode,
    pub timeout_seconds: u64,
    pub started_at: SystemTime,
    pub deadline: SystemTime,
    /// None while running.
    #[serde(serialize_with = "serialize_outcome")]
    pub outcome: Option<Arc<RouterOutcome>>,
    /// Where the run's record stopped at `RAW_LIMIT_BYTES`, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_cut: Option<RecordCut>,
}

/// Where a run's record stopped: it holds the output's first `kept_lines` whole lines
/// (`kept_bytes`), and what came after (`dropped_*`) is not kept anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordCut {
    pub kept_bytes: u64,
    pub kept_lines: u64,
    pub dropped_bytes: u64,
    pub dropped_lines: u64,
}

impl RecordCut {
    /// The sentence that ends a cut record (and the run's notes).
    pub(crate) fn note(&self) -> String {
        format!(
            "{RECORD_STOPS} after line {}: the record keeps the first {} bytes of output, under its {} MiB cap; {} more lines ({} bytes) were not kept",
            self.kept_lines,
            self.kept_bytes,
            RAW_LIMIT_BYTES / (1024 * 1024),
            self.dropped_lines,
            self.dropped_bytes
        )
    }
}

/// A run's record for a copy: the output in arrival order, ended by the cut's note when the
/// cap stopped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRecord {
    pub text: String,
    pub cut: Option<RecordCut>,
}

fn serialize_outcome<S: serde::Serializer>(
    outcome: &Option<Arc<RouterOutcome>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    outcome.as_deref().serialize(s)
}

/// Deadline and kill controls of a running run.
struct RunControl {
    started: Instant,
    started_wall: SystemTime,
    deadline: watch::Sender<Instant>,
    kill: CancellationToken,
    /// Output so far, for views that open while the run is going.
    buffers: Arc<Mutex<RunBuffers>>,
}

impl RunControl {
    fn set_deadline(&self, total: Duration) -> Duration {
        let total = total.clamp(Duration::from_secs(1), OPERATOR_TIMEOUT_CEILING);
        self.deadline.send_replace(self.started + total);
        total
    }
}

/// Output of one run, in arrival order.
#[derive(Default)]
struct RunBuffers {
    raw: Vec<u8>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// Set once a chunk did not fit under `RAW_LIMIT_BYTES`: nothing after it is kept.
    cut: Option<RecordCut>,
    /// The last byte not kept was not a newline (a line the count has not closed yet).
    dropped_open: bool,
}

impl RunBuffers {
    /// Keeps a chunk while the record is under the cap. The chunk that reaches the cap keeps
    /// its whole lines that fit and ends the record there; every later byte is counted as not
    /// kept, never stored, so the record is the output's complete beginning.
    fn keep(&mut self, stream: StdStream, bytes: &[u8]) {
        let reaches_cap = self.cut.is_none() && self.raw.len() + bytes.len() > RAW_LIMIT_BYTES;
        let kept = if self.cut.is_some() {
            0
        } else if reaches_cap {
            let room = RAW_LIMIT_BYTES - self.raw.len();
            memchr::memrchr(b'\n', &bytes[..room]).map_or(0, |i| i + 1)
        } else {
            bytes.len()
        };
        let (keep, drop) = bytes.split_at(kept);
        self.raw.extend_from_slice(keep);
        match stream {
            StdStream::Stdout => self.stdout.extend_from_slice(keep),
            StdStream::Stderr => self.stderr.extend_from_slice(keep),
        }
        if reaches_cap {
            // The record ends after its last whole line: an unfinished one goes with the rest.
            // (The per-stream copies keep it; only the `clean` output reads them.)
            let end = memchr::memrchr(b'\n', &self.raw).map_or(0, |i| i + 1);
            let unfinished = (self.raw.len() - end) as u64;
            self.raw.truncate(end);
            self.cut = Some(RecordCut {
                kept_bytes: end as u64,
                kept_lines: memchr::memchr_iter(b'\n', &self.raw).count() as u64,
                dropped_bytes: unfinished,
                dropped_lines: 0,
            });
        }
        if let (Some(cut), false) = (self.cut.as_mut(), drop.is_empty()) {
            cut.dropped_bytes += drop.len() as u64;
            cut.dropped_lines += memchr::memchr_iter(b'\n', drop).count() as u64;
            self.dropped_open = drop.last() != Some(&b'\n');
        }
    }

    /// Where the record stopped, a last unfinished line counted as a line.
    fn record_cut(&self) -> Option<RecordCut> {
        self.cut.map(|mut cut| {
            cut.dropped_lines += u64::from(self.dropped_open);
            cut
        })
    }
}

struct Shared {
    /// Replaced whole on reload; a run reads it once, at its start.
    settings: std::sync::RwLock<Arc<RouterSettings>>,
    env: EnvLookup,
    cli: Arc<dyn Transport>,
    http: Arc<dyn Transport>,
    gateway: Arc<dyn Transport>,
    events: broadcast::Sender<RouterEvent>,
    history: Mutex<VecDeque<RouterRun>>,
    active: Mutex<HashMap<u64, Arc<RunControl>>>,
    next_id: AtomicU64,
}

/// Runs clawbot_router tasks. Cheap to clone.
#[derive(Clone)]
pub struct RouterService {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for RouterService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RouterService")
            .field("bin", &self.settings().bin)
            .field("transport", &self.settings().transport)
            .field("runs", &lock(&self.shared.history).len())
            .finish()
    }
}

/// A started run: its id, controls, and its outcome when it ends.
pub struct RunHandle {
    pub run_id: u64,
    control: Arc<RunControl>,
    events: broadcast::Sender<RouterEvent>,
    done: watch::Receiver<Option<Arc<RouterOutcome>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl RouterService {
    /// A service over the real transports (CLI child through the process supervisor, gateway
    /// HTTP) reading the process environment.
    pub fn new(settings: RouterSettings) -> Self {
        let env: EnvLookup = Arc::new(|k: &str| std::env::var(k).ok());
        Self::with_transports(
            settings,
            env,
            Arc::new(super::cli_transport::CliTransport),
            Arc::new(super::http_transport::HttpTransport::new()),
        )
    }

    /// A service with an injected environment and transports (tests, benchmarks).
    pub(crate) fn with_transports(
        settings: RouterSettings,
        env: EnvLookup,
        cli: Arc<dyn Transport>,
        http: Arc<dyn Transport>,
    ) -> Self {
        Self::with_all_transports(
            settings,
            env,
            cli,
            http,
            Arc::new(super::gateway_transport::GatewayTransport),
        )
    }

    /// `with_transports` with the gateway transport injected too.
    pub(crate) fn with_all_transports(
        settings: RouterSettings,
        env: EnvLookup,
        cli: Arc<dyn Transport>,
        http: Arc<dyn Transport>,
        gateway: Arc<dyn Transport>,
    ) -> Self {
        let (events, _) = broadcast::channel(EVENT_CAPACITY);
        RouterService {
            shared: Arc::new(Shared {
                settings: std::sync::RwLock::new(Arc::new(settings)),
                env,
                cli,
                http,
                gateway,
                events,
                history: Mutex::new(VecDeque::new()),
                active: Mutex::new(HashMap::new()),
                next_id: AtomicU64::new(1),
            }),
        }
    }

    /// A service with the real transports and an injected environment.
    pub fn with_env(settings: RouterSettings, env: EnvLookup) -> Self {
        Self::with_transports(
            settings,
            env,
            Arc::new(super::cli_transport::CliTransport),
            Arc::new(super::http_transport::HttpTransport::new()),
        )
    }

    /// The settings in force (a snapshot: a reload replaces them for runs started later).
    pub fn settings(&self) -> Arc<RouterSettings> {
        let guard = self
            .shared
            .settings
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(&guard)
    }

    /// Re-applies the config's router settings (reload); running runs keep theirs.
    pub fn apply_settings(&self, settings: RouterSettings) {
        let mut guard = self
            .shared
            .settings
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *guard = Arc::new(settings);
    }

    /// Every event of every run from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<RouterEvent> {
        self.shared.events.subscribe()
    }

    /// The history, oldest first, including running runs.
    pub fn runs(&self) -> Vec<RouterRun> {
        lock(&self.shared.history).iter().cloned().collect()
    }

    /// Requests a kill of a running run; false when it is not running.
    pub fn kill(&self, run_id: u64) -> bool {
        match lock(&self.shared.active).get(&run_id) {
            Some(c) => {
                c.kill.cancel();
                true
            }
            None => false,
        }
    }

    /// A running run's output so far (stdout and stderr interleaved in arrival order); None
    /// when it is not running (finished runs have it in their outcome).
    pub fn live_output(&self, run_id: u64) -> Option<String> {
        let control = lock(&self.shared.active).get(&run_id).cloned()?;
        let text = String::from_utf8_lossy(&lock(&control.buffers).raw).into_owned();
        Some(text)
    }

    /// A run's retained record: its raw output as the tool returns it (stdout and stderr in
    /// arrival order), complete from the first byte; when `RAW_LIMIT_BYTES` stopped it, a last
    /// line says after which line and how much was not kept. None for an unknown run.
    pub fn record(&self, run_id: u64) -> Option<RunRecord> {
        let (raw, cut) = if let Some(control) = lock(&self.shared.active).get(&run_id).cloned() {
            let b = lock(&control.buffers);
            (String::from_utf8_lossy(&b.raw).into_owned(), b.record_cut())
        } else {
            let history = lock(&self.shared.history);
            let run = history.iter().find(|r| r.run_id == run_id)?;
            (run.outcome.as_ref()?.raw.clone(), run.record_cut)
        };
        let mut text = raw;
        if let Some(cut) = &cut {
            push_marker(&mut text, &cut.note());
        }
        Some(RunRecord { text, cut })
    }

    /// Sets a running run's total timeout (from its start); false when it is not running.
    pub fn set_timeout(&self, run_id: u64, total: Duration) -> bool {
        let control = lock(&self.shared.active).get(&run_id).cloned();
        match control {
            Some(c) => {
                let total = c.set_deadline(total);
                self.publish_deadline(run_id, &c, total);
                true
            }
            None => false,
        }
    }

    /// Adds to a running run's timeout; false when it is not running.
    pub fn extend_timeout(&self, run_id: u64, by: Duration) -> bool {
        let control = lock(&self.shared.active).get(&run_id).cloned();
        match control {
            Some(c) => {
                let current = c.deadline.borrow().saturating_duration_since(c.started);
                let total = c.set_deadline(current + by);
                self.publish_deadline(run_id, &c, total);
                true
            }
            None => false,
        }
    }

    fn publish_deadline(&self, run_id: u64, c: &RunControl, total: Duration) {
        let _ = self.shared.events.send(RouterEvent {
            run_id,
            kind: RouterEventKind::DeadlineChanged {
                timeout_seconds: total.as_secs(),
                deadline: c.started_wall + total,
            },
        });
    }

    /// The effective timeout for a requested one: the default when none, bounded by the
    /// configured minimum and maximum, never zero or unbounded.
    pub fn effective_timeout(&self, requested: Option<u64>) -> u64 {
        let s = self.settings();
        let max = if s.max_timeout_seconds == 0 {
            60
        } else {
            s.max_timeout_seconds.min(bounds::MAX_TIMEOUT_SECONDS)
        };
        let min = s.min_timeout_seconds.clamp(1, max);
        requested.unwrap_or(s.timeout_seconds).clamp(min, max)
    }

    /// An operator's timeout (`route --timeout`): honoured as given, within 1 s and the
    /// operator ceiling.
    pub fn operator_timeout(seconds: u64) -> u64 {
        seconds.clamp(1, OPERATOR_TIMEOUT_CEILING.as_secs())
    }

    /// The gateway (URL, token): env `OPENCLAW_GATEWAY_URL` / `OPENCLAW_GATEWAY_TOKEN` over
    /// `router.gateway`.
    pub(crate) fn gateway(&self) -> Option<(String, Option<String>)> {
        let env = &self.shared.env;
        let settings = self.settings();
        let g = &settings.gateway;
        let url = env("OPENCLAW_GATEWAY_URL")
            .filter(|u| !u.trim().is_empty())
            .or_else(|| g.url.clone())?;
        let token = env("OPENCLAW_GATEWAY_TOKEN")
            .filter(|t| !t.is_empty())
            .or_else(|| g.token.clone());
        Some((url.trim_end_matches('/').to_string(), token))
    }

    /// The transport a request uses.
    pub(crate) fn transport_for(&self, request: &RouterRequest) -> TransportKind {
        request
            .transport
            .or_else(|| TransportKind::parse(&self.settings().transport))
            .unwrap_or_default()
    }

    /// Starts a run. Must be called inside a tokio runtime. A blank message, a missing target
    /// or a missing gateway are refused without spawning anything.
    pub fn start(&self, request: RouterRequest) -> Result<RunHandle, Refusal> {
        if request.message.trim().is_empty() {
            return Err(Refusal::new(
                texts::EMPTY_MESSAGE,
                texts::operator::EMPTY_MESSAGE,
            ));
        }
        let settings = self.settings();
        let settings = &*settings;
        let target = argv::resolve_target(request.agent_name(), settings)
            .map_err(|t| Refusal::new(t, texts::operator::NO_TARGET))?;
        let transport_kind = self.transport_for(&request);
        let timeout_seconds = match request.timeout_seconds {
            Some(t) if request.operator_timeout => Self::operator_timeout(t),
            requested => self.effective_timeout(requested),
        };
        let timeout = Duration::from_secs(timeout_seconds);
        let run_id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);

        let mut plan = RunPlan {
            run_id,
            argv: Vec::new(),
            env: Vec::new(),
            clear_env: settings.clear_env,
            target: target.clone(),
            remote_message: request.remote_message(),
            http: None,
            message_file: None,
            timeout,
            // Bounded (the config refuses more): the run ends by timeout + grace + drain.
            kill_grace: Duration::from_millis(settings.kill_grace_ms.min(bounds::MAX_GRACE_MS)),
            drain_grace: Duration::from_millis(settings.drain_grace_ms.min(bounds::MAX_GRACE_MS)),
        };
        let shown_argv = self.plan_transport(&mut plan, transport_kind, settings)?;

        let started = Instant::now();
        let started_wall = SystemTime::now();
        let (deadline_tx, _) = watch::channel(started + timeout);
        let control = Arc::new(RunControl {
            started,
            started_wall,
            deadline: deadline_tx,
            kill: CancellationToken::new(),
            buffers: Arc::default(),
        });
        let (done_tx, done_rx) = watch::channel(None);

        self.announce(
            RouterRun {
                run_id,
                argv: shown_argv,
                transport: transport_kind,
                agent: target.agent().map(str::to_string),
                to: target.to().map(str::to_string),
                message: request.message.clone(),
                mode: request.reported_mode(),
                timeout_seconds,
                started_at: started_wall,
                deadline: started_wall + timeout,
                outcome: None,
                record_cut: None,
            },
            &control,
        );

        let service = self.clone();
        let run_control = control.clone();
        let run_buffers = control.buffers.clone();
        tokio::spawn(async move {
            let outcome = service
                .drive(plan, transport_kind, request.reported_mode(), run_control)
                .await;
            let outcome = Arc::new(outcome);
            let cut = lock(&run_buffers).record_cut();
            service.finish(run_id, outcome.clone(), cut);
            let _ = done_tx.send(Some(outcome));
        });

        Ok(RunHandle {
            run_id,
            control,
            events: self.shared.events.clone(),
            done: done_rx,
        })
    }

    /// Fills in how the plan reaches OpenClaw; returns what the operator is shown of it (the
    /// argv, or the request line).
    fn plan_transport(
        &self,
        plan: &mut RunPlan,
        transport_kind: TransportKind,
        settings: &RouterSettings,
    ) -> Result<Vec<String>, Refusal> {
        match transport_kind {
            TransportKind::Cli => self.plan_cli(plan, settings),
            TransportKind::Http | TransportKind::Gateway => {
                self.plan_gateway(plan, transport_kind, settings)
            }
        }
    }

    /// The `openclaw agent` argv and environment; a long message goes in a temp file.
    fn plan_cli(
        &self,
        plan: &mut RunPlan,
        settings: &RouterSettings,
    ) -> Result<Vec<String>, Refusal> {
        let bin = argv::resolve_bin(settings, &*self.shared.env);
        if argv::needs_message_file(&plan.remote_message, settings) {
            let path = write_message_file(plan.run_id, &plan.remote_message).map_err(|e| {
                Refusal::new(
                    texts::spawn_failed(&format!("无法写入 --message-file 临时文件：{e}")),
                    texts::operator::message_file_failed(&e.to_string()),
                )
            })?;
            plan.argv = argv::build_argv(&bin, settings, &plan.target, MessageArg::File(&path));
            plan.message_file = Some(path);
        } else {
            plan.argv = argv::build_argv(
                &bin,
                settings,
                &plan.target,
                MessageArg::Inline(&plan.remote_message),
            );
        }
        plan.env = child_env(settings, &*self.shared.env);
        Ok(plan.argv.clone())
    }

    /// The gateway's address and token for the HTTP and WebSocket transports.
    fn plan_gateway(
        &self,
        plan: &mut RunPlan,
        transport_kind: TransportKind,
        settings: &RouterSettings,
    ) -> Result<Vec<String>, Refusal> {
        let (base_url, token) = self.gateway().ok_or_else(|| {
            Refusal::new(
                texts::no_gateway(transport_kind.as_str()),
                texts::operator::no_gateway(transport_kind.as_str()),
            )
        })?;
        let agent = plan.target.http_agent(settings);
        let shown = if transport_kind == TransportKind::Http {
            vec![
                "POST".to_string(),
                format!("{base_url}/v1/chat/completions"),
                format!("model=openclaw/{agent}"),
                "stream=true".to_string(),
            ]
        } else {
            vec![
                "WS".to_string(),
                base_url.clone(),
                "agent".to_string(),
                format!("agentId={agent}"),
            ]
        };
        plan.http = Some(HttpPlan {
            base_url,
            token,
            agent,
        });
        Ok(shown)
    }

    /// Records a started run in the history and the active runs, and tells the subscribers.
    fn announce(&self, record: RouterRun, control: &Arc<RunControl>) {
        let run_id = record.run_id;
        let started = RouterEventKind::Started {
            argv: record.argv.clone(),
            transport: record.transport,
            agent: record.agent.clone(),
            to: record.to.clone(),
            message: record.message.clone(),
            mode: record.mode,
            timeout_seconds: record.timeout_seconds,
            started_at: record.started_at,
            deadline: record.deadline,
        };
        self.push_history(record);
        lock(&self.shared.active).insert(run_id, control.clone());
        let _ = self.shared.events.send(RouterEvent {
            run_id,
            kind: started,
        });
    }

    fn push_history(&self, record: RouterRun) {
        let limit = self.settings().history_limit.max(1);
        let mut history = lock(&self.shared.history);
        history.push_back(record);
        while history.len() > limit {
            // Drop the oldest finished run; running runs stay visible.
            match history.iter().position(|r| r.outcome.is_some()) {
                Some(i) => {
                    history.remove(i);
                }
                None => break,
            }
        }
    }

    fn finish(&self, run_id: u64, outcome: Arc<RouterOutcome>, cut: Option<RecordCut>) {
        lock(&self.shared.active).remove(&run_id);
        if let Some(r) = lock(&self.shared.history)
            .iter_mut()
            .find(|r| r.run_id == run_id)
        {
            r.outcome = Some(outcome.clone());
            r.record_cut = cut;
        }
        let _ = self.shared.events.send(RouterEvent {
            run_id,
            kind: RouterEventKind::Finished {
                outcome: Box::new((*outcome).clone()),
            },
        });
    }

    /// Runs the transport under the deadline and the kill control, then builds the outcome.
    async fn drive(
        &self,
        plan: RunPlan,
        transport_kind: TransportKind,
        mode: Mode,
        control: Arc<RunControl>,
    ) -> RouterOutcome {
        let run_id = plan.run_id;
        let target = plan.target.clone();
        let message_file = plan.message_file.clone();
        let started = control.started;
        let (chunks, notes, collected_notes) = self.run_sinks(run_id, &control);

        let transport = match transport_kind {
            TransportKind::Cli => self.shared.cli.clone(),
            TransportKind::Http => self.shared.http.clone(),
            TransportKind::Gateway => self.shared.gateway.clone(),
        };
        let stop = Stop::new();
        let run = transport.run(plan, chunks, notes.clone(), stop.clone());
        let (end, stopped_by) = run_until_end(run, &control, &stop, &notes).await;

        if let Some(path) = message_file {
            crate::process::stop::remove_temp(&path);
        }

        // Kept (not taken) so that `live_output` stays complete until the run leaves `active`.
        let b = lock(&control.buffers);
        let mut notes_out = std::mem::take(&mut *lock(&collected_notes));
        notes_out.extend(end.notes.iter().cloned());
        if let Some(cut) = b.record_cut() {
            notes_out.push(cut.note());
        }
        let raw = String::from_utf8_lossy(&b.raw).into_owned();
        let timeout_seconds = control
            .deadline
            .borrow()
            .saturating_duration_since(started)
            .as_secs()
            .max(1);
        let (status, content, operator_note) = verdict(&end, stopped_by, &raw, timeout_seconds);

        let clean =
            (OutputMode::parse(&self.settings().output) == Some(OutputMode::Clean)).then(|| {
                clean::clean(
                    &String::from_utf8_lossy(&b.stdout),
                    &String::from_utf8_lossy(&b.stderr),
                )
            });

        RouterOutcome {
            run_id,
            status,
            transport: transport_kind,
            agent: target.agent().map(str::to_string),
            to: target.to().map(str::to_string),
            mode,
            exit_code: end.exit_code,
            signal: end.signal.clone(),
            raw,
            content,
            notes: notes_out,
            timeout_seconds,
            duration: started.elapsed(),
            clean,
            operator_note,
        }
    }

    /// Where a run's output and notes go: into its buffers and notes, and out as events.
    fn run_sinks(
        &self,
        run_id: u64,
        control: &RunControl,
    ) -> (ChunkSink, NoteSink, Arc<Mutex<Vec<String>>>) {
        let started = control.started;
        let chunk_buffers = control.buffers.clone();
        let chunk_events = self.shared.events.clone();
        let chunks: ChunkSink = Arc::new(move |stream: StdStream, bytes: Vec<u8>| {
            if bytes.is_empty() {
                return;
            }
            // The lock also fixes the arrival order between the two reader tasks.
            lock(&chunk_buffers).keep(stream, &bytes);
            let _ = chunk_events.send(RouterEvent {
                run_id,
                kind: RouterEventKind::Chunk {
                    stream,
                    at: SystemTime::now(),
                    elapsed: started.elapsed(),
                    bytes,
                },
            });
        });
        let note_events = self.shared.events.clone();
        let collected_notes = Arc::new(Mutex::new(Vec::<String>::new()));
        let note_store = collected_notes.clone();
        let notes: NoteSink = Arc::new(move |text: String| {
            lock(&note_store).push(text.clone());
            let _ = note_events.send(RouterEvent {
                run_id,
                kind: RouterEventKind::Note { text },
            });
        });
        (chunks, notes, collected_notes)
    }
}

/// Who ended a run before it ended by itself.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StoppedBy {
    /// Nobody: the run ended (or failed to start) on its own.
    Itself,
    /// The deadline passed.
    Deadline,
    /// The operator's kill.
    Operator,
}

/// Waits for the transport to end the run, stopping it at the (movable) deadline or on the
/// operator's kill.
async fn run_until_end(
    mut run: crate::tool::BoxFuture<'static, TransportEnd>,
    control: &RunControl,
    stop: &Stop,
    notes: &NoteSink,
) -> (TransportEnd, StoppedBy) {
    let started = control.started;
    let mut deadline_rx = control.deadline.subscribe();
    loop {
        let deadline = *deadline_rx.borrow_and_update();
        tokio::select! {
            end = &mut run => return (end, StoppedBy::Itself),
            _ = tokio::time::sleep_until(deadline) => {
                // The deadline may have moved while we slept.
                if *deadline_rx.borrow() <= Instant::now() {
                    notes(format!("deadline reached after {} s; killing the process tree", deadline.saturating_duration_since(started).as_secs()));
                    stop.request(StopReason::Timeout);
                    return (run.await, StoppedBy::Deadline);
                }
            }
            _ = deadline_rx.changed() => {}
            _ = control.kill.cancelled() => {
                notes("kill requested; killing the process tree".to_string());
                stop.request(StopReason::Killed);
                return (run.await, StoppedBy::Operator);
            }
        }
    }
}

/// The run's status, the content the model receives (the seed's texts) and the operator's
/// English note.
fn verdict(
    end: &TransportEnd,
    stopped_by: StoppedBy,
    raw: &str,
    timeout_seconds: u64,
) -> (RunStatus, String, Option<String>) {
    if let Some(failure) = &end.failure {
        let (text, note) = start_failure_texts(failure);
        (RunStatus::SpawnFailed, append_line(raw, &text), Some(note))
    } else if stopped_by == StoppedBy::Deadline {
        (
            RunStatus::TimedOut,
            append_line(raw, &texts::timed_out(timeout_seconds)),
            Some(texts::operator::timed_out(timeout_seconds)),
        )
    } else if stopped_by == StoppedBy::Operator {
        (
            RunStatus::Killed,
            append_line(raw, texts::KILLED),
            Some(texts::operator::KILLED.to_string()),
        )
    } else if let Some(signal) = &end.signal {
        (
            RunStatus::Failed,
            append_line(raw, &texts::killed_by_signal(signal)),
            Some(texts::operator::killed_by_signal(signal)),
        )
    } else if end.exit_code.is_some_and(|c| c != 0) {
        // Remote errors stay in the raw output as they are (seed 000 §3.5 (3)); say the exit
        // status only when the remote side said nothing.
        let code = end.exit_code.unwrap_or(1);
        let content = if raw.trim().is_empty() {
            texts::exited_with(code)
        } else {
            raw.to_string()
        };
        (
            RunStatus::Failed,
            content,
            Some(texts::operator::exited_with(code)),
        )
    } else {
        (RunStatus::Completed, raw.to_string(), None)
    }
}

/// A start failure's text for the model and note for the operator.
fn start_failure_texts(failure: &StartFailure) -> (String, String) {
    match failure {
        StartFailure::Spawn {
            error,
            operator_error,
            not_found,
        } => {
            let mut text = texts::spawn_failed(error);
            let mut note = texts::operator::spawn_failed(operator_error);
            if *not_found {
                text.push('\n');
                text.push_str(texts::INSTALL_HINT);
                note = format!("{note}. {}", texts::operator::INSTALL_HINT);
            }
            (text, note)
        }
        StartFailure::Gateway { error } => (
            texts::gateway_failed(error),
            texts::operator::gateway_failed(error),
        ),
    }
}

/// `raw`, a newline if it does not end with one, then `line`.
fn append_line(raw: &str, line: &str) -> String {
    if raw.is_empty() {
        return line.to_string();
    }
    let sep = if raw.ends_with('\n') { "" } else { "\n" };
    format!("{raw}{sep}{line}")
}

/// Writes the message to a private temp file for `--message-file`.
fn write_message_file(run_id: u64, message: &str) -> std::io::Result<PathBuf> {
    let path = std::env::temp_dir().join(format!(
        "clawdeck-router-{}-{run_id}.md",
        std::process::id()
    ));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(&path)?;
    // Removed by the run when it ends, or by the stop policy if clawdeck is stopped first.
    crate::process::stop::register_temp(&path);
    f.write_all(message.as_bytes())?;
    Ok(path)
}

/// How the note of a cut record starts.
const RECORD_STOPS: &str = "the record stops here";

/// Appends `[clawdeck: note]` on a line of its own.
fn push_marker(text: &mut String, note: &str) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("[clawdeck: {note}]\n"));
}

impl RunHandle {
    /// Requests a kill (timeout-like: the tree is killed, the note appended).
    pub fn kill(&self) {
        self.control.kill.cancel();
    }

    /// Sets the total timeout from the run's start (1 s .. `OPERATOR_TIMEOUT_CEILING`).
    pub fn set_timeout(&self, total: Duration) {
        let total = self.control.set_deadline(total);
        let _ = self.events.send(RouterEvent {
            run_id: self.run_id,
            kind: RouterEventKind::DeadlineChanged {
                timeout_seconds: total.as_secs(),
                deadline: self.control.started_wall + total,
            },
        });
    }

    /// Adds to the timeout.
    pub fn extend_timeout(&self, by: Duration) {
        let current = self
            .control
            .deadline
            .borrow()
            .saturating_duration_since(self.control.started);
        self.set_timeout(current + by);
    }

    /// The current deadline (wall clock).
    pub fn deadline(&self) -> SystemTime {
        self.control.started_wall
            + self
                .control
                .deadline
                .borrow()
                .saturating_duration_since(self.control.started)
    }

    /// Waits for the outcome.
    pub async fn wait(mut self) -> Arc<RouterOutcome> {
        loop {
            if let Some(outcome) = self.done.borrow_and_update().clone() {
                return outcome;
            }
            if self.done.changed().await.is_err() {
                // The driver task ended without an outcome (runtime shutting down).
                if let Some(outcome) = self.done.borrow().clone() {
                    return outcome;
                }
                return Arc::new(RouterOutcome {
                    run_id: self.run_id,
                    status: RunStatus::Killed,
                    transport: TransportKind::Cli,
                    agent: None,
                    to: None,
                    mode: Mode::ReadOnly,
                    exit_code: None,
                    signal: None,
                    raw: String::new(),
                    content: texts::KILLED.to_string(),
                    notes: vec!["the run's driver task ended without an outcome".to_string()],
                    timeout_seconds: 0,
                    duration: self.control.started.elapsed(),
                    clean: None,
                    operator_note: Some(texts::operator::KILLED.to_string()),
                });
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::tool::BoxFuture;
    use crate::transport::{ChunkSink, NoteSink, RunPlan, Stop, Transport, TransportEnd};

    /// Writes one stdout chunk, then waits for a stop (or finishes at once when `finish`).
    struct Scripted {
        finish: bool,
    }

    impl Transport for Scripted {
        fn run(
            &self,
            _plan: RunPlan,
            chunks: ChunkSink,
            _notes: NoteSink,
            stop: Stop,
        ) -> BoxFuture<'static, TransportEnd> {
            let finish = self.finish;
            Box::pin(async move {
                chunks(StdStream::Stdout, b"partial".to_vec());
                if !finish {
                    stop.requested().await;
                }
                TransportEnd {
                    exit_code: Some(0),
                    ..TransportEnd::default()
                }
            })
        }
    }

    fn service(settings: RouterSettings, finish: bool) -> RouterService {
        let t: Arc<dyn Transport> = Arc::new(Scripted { finish });
        RouterService::with_transports(settings, Arc::new(|_| None), t.clone(), t)
    }

    fn settings() -> RouterSettings {
        RouterSettings {
            default_agent: Some("main".into()),
            ..RouterSettings::default()
        }
    }

    #[test]
    fn timeouts_are_bounded_and_never_unbounded() {
        let s = service(settings(), true);
        assert_eq!(s.effective_timeout(None), 45);
        assert_eq!(s.effective_timeout(Some(100)), 60);
        assert_eq!(s.effective_timeout(Some(0)), 30);
        let mut broken = settings();
        broken.max_timeout_seconds = 0;
        broken.min_timeout_seconds = 500;
        broken.timeout_seconds = 0;
        let s = service(broken, true);
        assert_eq!(s.effective_timeout(None), 60);
        assert_eq!(s.effective_timeout(Some(u64::MAX)), 60);
    }

    #[tokio::test(start_paused = true)]
    async fn deadline_stops_the_transport_and_appends_the_note() {
        let s = service(settings(), false);
        let o = s.start(RouterRequest::new("x")).unwrap().wait().await;
        assert_eq!(o.status, RunStatus::TimedOut);
        assert_eq!(o.content, format!("partial\n{}", texts::timed_out(45)));
        assert!(
            o.duration >= Duration::from_secs(45) && o.duration < Duration::from_secs(46),
            "{:?}",
            o.duration
        );
    }

    #[tokio::test(start_paused = true)]
    async fn moving_the_deadline_while_running() {
        let s = service(settings(), false);
        let h = s.start(RouterRequest::new("x")).unwrap();
        let mut events = s.subscribe();
        assert!(s.set_timeout(h.run_id, Duration::from_secs(5)));
        match events.recv().await.unwrap().kind {
            RouterEventKind::DeadlineChanged {
                timeout_seconds, ..
            } => assert_eq!(timeout_seconds, 5),
            other => panic!("{other:?}"),
        }
        h.extend_timeout(Duration::from_secs(2));
        // The operator ceiling bounds even manual extensions.
        let id = h.run_id;
        let o = h.wait().await;
        assert_eq!(o.timeout_seconds, 7);
        assert!(
            o.duration >= Duration::from_secs(7) && o.duration < Duration::from_secs(8),
            "{:?}",
            o.duration
        );
        assert!(
            !s.extend_timeout(id, Duration::from_secs(1)),
            "finished runs have no deadline"
        );
        let h = s.start(RouterRequest::new("y")).unwrap();
        h.set_timeout(Duration::from_secs(100_000));
        let d = h.wait().await.duration;
        assert!(
            d >= OPERATOR_TIMEOUT_CEILING && d < OPERATOR_TIMEOUT_CEILING + Duration::from_secs(1),
            "{d:?}"
        );
    }

    #[tokio::test]
    async fn history_keeps_running_runs_when_full() {
        let mut st = settings();
        st.history_limit = 1;
        let slow = service(st.clone(), false);
        let mut events = slow.subscribe();
        let a = slow.start(RouterRequest::new("a")).unwrap();
        while !matches!(
            events.recv().await.unwrap().kind,
            RouterEventKind::Chunk { .. }
        ) {}
        let b = slow.start(RouterRequest::new("b")).unwrap();
        assert_eq!(slow.runs().len(), 2, "both running: none evicted");
        assert_eq!(slow.live_output(a.run_id).as_deref(), Some("partial"));
        slow.kill(a.run_id);
        slow.kill(b.run_id);
        a.wait().await;
        b.wait().await;
        let fast = service(st, true);
        for m in ["1", "2", "3"] {
            fast.start(RouterRequest::new(m)).unwrap().wait().await;
        }
        assert_eq!(
            fast.runs()
                .iter()
                .map(|r| r.message.as_str())
                .collect::<Vec<_>>(),
            ["3"]
        );
    }

    #[test]
    fn a_record_past_the_cap_ends_at_a_whole_line_and_keeps_no_later_chunk() {
        let mut b = RunBuffers::default();
        let line = |n: usize| format!("line {n:07}\n");
        let mut n = 0;
        // Whole lines up to a few bytes under the cap.
        let mut first = String::new();
        while first.len() + line(n).len() <= RAW_LIMIT_BYTES - 5 {
            first.push_str(&line(n));
            n += 1;
        }
        b.keep(StdStream::Stdout, first.as_bytes());
        assert!(b.cut.is_none());
        // A chunk that does not fit, then a small one that would: the small one is not kept.
        let big: String = (n..n + 100).map(line).collect();
        b.keep(StdStream::Stdout, big.as_bytes());
        b.keep(StdStream::Stderr, b"late\n");
        b.keep(StdStream::Stdout, b"partial");
        assert_eq!(b.raw, first.as_bytes(), "no line after the cut, no gap");
        // A chunk that fits but ends mid-line, then one past the cap: the record ends at the
        // last whole line.
        let mut c = RunBuffers::default();
        c.keep(StdStream::Stdout, first.as_bytes());
        c.keep(StdStream::Stdout, b"unfin");
        c.keep(StdStream::Stdout, big.as_bytes());
        assert_eq!(c.raw, first.as_bytes());
        assert_eq!(
            c.record_cut().map(|cut| cut.dropped_bytes),
            Some(5 + big.len() as u64)
        );
        let cut = b.record_cut().expect("cut");
        assert_eq!(cut.kept_lines, n as u64);
        assert_eq!(cut.kept_bytes, first.len() as u64);
        assert_eq!(
            cut.dropped_lines,
            100 + 1 + 1,
            "the unfinished last line counts"
        );
        assert_eq!(
            cut.dropped_bytes,
            (big.len() + "late\n".len() + "partial".len()) as u64
        );
        let mut text = "abc".to_string();
        push_marker(&mut text, &cut.note());
        assert!(
            text.starts_with(&format!(
                "abc\n[clawdeck: the record stops here after line {n}: "
            )),
            "{text}"
        );
        assert!(
            text.contains("under its 8 MiB cap; 102 more lines"),
            "{text}"
        );
    }
}
