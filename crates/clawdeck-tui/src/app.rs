//! The App: owns every view's state, routes input (overlays, then text inputs, then the
//! keymap), performs the side effects of intents by calling the core, and turns core events into
//! view updates and frame requests.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use tokio::sync::mpsc::UnboundedReceiver;

use super::clock::SharedClock;
use super::context_bar::{ContextChoices, ContextEditor, EditorOutcome};
use super::event::{AppEvent, AppEventSender, CoreEvent};
use super::frame::FrameRequester;
use super::keymap::{Action, Keymap};
use super::views::approvals::ApprovalsView;
use super::views::decisions::DecisionsView;
use super::views::diff::DiffView;
use super::views::invoke::InvokeView;
use super::views::lint::LintView;
use super::views::policy::PolicyView;
use super::views::prompt::PromptView;
use super::views::queue::QueueView;
use super::views::router::RouterView;
use super::views::sessions::SessionsView;
use super::views::{View, ViewCtx, ViewId};
use super::widgets::confirm::{Confirm, ConfirmOutcome};
use super::widgets::help::HelpOverlay;
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::pipeline::CallRequest;
use crate::router::RouterRequest;

mod analysis;

/// How long a status message stays.
const STATUS_TTL: Duration = Duration::from_secs(6);
/// How long a tool run on a gateway from the Invoke view may take.
const GATEWAY_INVOKE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long quitting waits for killed runs to report their end.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Where copied output goes besides OSC 52.
pub(crate) trait Clipboard: Send {
    /// Puts text on the terminal's clipboard (OSC 52); returns false when it was not sent.
    fn set(&mut self, text: &str) -> bool;
}

/// OSC 52 written by the app itself (never by child output, which is sanitized).
pub(crate) struct Osc52Clipboard;

/// Terminals cap OSC 52 payloads; above this only the file copy is made.
const OSC52_MAX_BYTES: usize = 74_994;

impl Clipboard for Osc52Clipboard {
    fn set(&mut self, text: &str) -> bool {
        use base64::Engine as _;
        use std::io::Write as _;
        if text.len() > OSC52_MAX_BYTES {
            return false;
        }
        let payload = base64::engine::general_purpose::STANDARD.encode(text);
        let mut out = std::io::stdout();
        out.write_all(format!("\x1b]52;c;{payload}\x07").as_bytes())
            .is_ok()
            && out.flush().is_ok()
    }
}

/// A clipboard that keeps what it was given (tests).
#[cfg(test)]
#[derive(Default, Clone)]
pub(crate) struct RecordingClipboard(pub(crate) Arc<std::sync::Mutex<Vec<String>>>);

#[cfg(test)]
impl Clipboard for RecordingClipboard {
    fn set(&mut self, text: &str) -> bool {
        if let Ok(mut v) = self.0.lock() {
            v.push(text.to_string());
        }
        true
    }
}

/// A deck for a config held in memory (no file to reload, no `mcp.servers` listed): what the
/// console's tests and benchmarks drive.
#[cfg(any(test, feature = "bench"))]
pub(crate) fn in_memory_deck(config: LoadedConfig) -> crate::deck::Deck {
    crate::deck::Deck::new(config, None, &crate::mcp_servers::ServerListing::Off)
}

/// Overlays take every key while open.
pub(crate) enum Overlay {
    Help(HelpOverlay),
    Confirm(Confirm),
    Context(ContextEditor),
}

/// Counters read by tests and benchmarks.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) frames_drawn: AtomicU64,
    /// Key presses handled (benchmarks time key → next frame).
    pub(crate) keys_handled: AtomicU64,
    /// `frames_drawn` when the last key was handled: the next frame after it shows the key.
    pub(crate) frames_at_last_key: AtomicU64,
    /// Pieces of router output sanitized when the last key was handled (the work a key waited
    /// for; tests count it).
    pub(crate) output_pieces_at_last_key: AtomicU64,
}

pub(crate) struct App {
    pub(crate) view: ViewId,
    pub(crate) keymap: Keymap,
    pub(crate) policy: PolicyView,
    pub(crate) invoke: InvokeView,
    pub(crate) prompt: PromptView,
    /// The Prompt view is out of date (rebuilt when shown: it reads skill files).
    prompt_stale: bool,
    pub(crate) router: RouterView,
    pub(crate) queue: QueueView,
    pub(crate) decisions: DecisionsView,
    /// Gateway sessions (fed by the core's roster feed).
    pub(crate) sessions: SessionsView,
    /// Gateways' exec approvals (fed by the core's gateway desk).
    pub(crate) approvals: ApprovalsView,
    /// `clawdeck lint` for the installed config.
    pub(crate) lint: LintView,
    /// What-if: the context against another.
    pub(crate) diff: DiffView,
    /// The gateways' health, usage and live log (fed by the core's gateway pulse).
    pub(crate) gateways: super::views::gateways::GatewaysView,
    /// Generations of the session comparison, lint and diff jobs.
    analysis: analysis::AnalysisJobs,
    /// OpenClaw's state directory (its approvals document), from the environment at start;
    /// tests point it elsewhere or nowhere.
    pub(crate) openclaw_state: Option<std::path::PathBuf>,
    /// How exec verdicts find executables (this process's PATH and working directory).
    pub(crate) exec_resolver: crate::exec_allowlist::PathResolver,
    /// The deck's snapshot the views show (config, registry, its policy resolutions): the one
    /// last installed here (a reload's comes back as an event, so a newer one may wait in the
    /// deck meanwhile).
    pub(crate) shown: Option<Arc<crate::deck::DeckState>>,
    pub(crate) overlay: Option<Overlay>,
    pub(crate) context: PolicyContext,
    pub(crate) choices: ContextChoices,
    /// The last config reload error (the last good config stays in use).
    pub(crate) config_error: Option<String>,
    pub(crate) status: Option<(String, Instant)>,
    pub(crate) tx: AppEventSender,
    pub(crate) frames: FrameRequester,
    pub(crate) clock: SharedClock,
    /// The core the console is a client of: every side effect goes through it.
    pub(crate) deck: crate::deck::Deck,
    /// Reads the decision log for the Decisions view (see `decision_feed`).
    pub(crate) decision_feed: Option<crate::decision_log::LogFollower>,
    pub(crate) clipboard: Box<dyn Clipboard>,
    /// Rung (once, before the next frame) when an approval arrives.
    pub(crate) bell: Box<dyn crate::bell::Bell>,
    /// An approval arrived since the last frame: ring before drawing it.
    pub(crate) bell_pending: bool,
    /// `console.approvalBell` (default on).
    pub(crate) approval_bell: bool,
    /// Directory for copied output files.
    pub(crate) copy_dir: PathBuf,
    pub(crate) stats: Arc<Stats>,
    pub(crate) quit: bool,
    /// Numbers config reload requests; only the newest one's result is installed.
    reload_generation: u64,
    /// Numbers prompt builds; only the newest one's result is shown.
    prompt_generation: u64,
    /// Numbers policy resolutions asked for; only the newest one's result is shown.
    resolve_generation: u64,
    /// Screen areas of the tabs, for mouse clicks.
    pub(crate) tab_areas: Vec<(Rect, ViewId)>,
}

impl App {
    /// The console for `deck`; what the deck holds is shown once [`App::show_deck`] runs.
    pub fn new(
        deck: crate::deck::Deck,
        tx: AppEventSender,
        frames: FrameRequester,
        clock: SharedClock,
    ) -> App {
        App {
            view: ViewId::Policy,
            keymap: Keymap::default(),
            policy: PolicyView::default(),
            invoke: InvokeView::default(),
            router: RouterView::default(),
            prompt: PromptView::default(),
            prompt_stale: true,
            shown: None,
            queue: QueueView::default(),
            decisions: DecisionsView::unavailable("no decision log"),
            sessions: SessionsView::unavailable(
                "no gateway configured (clawdeck.json5 `gateways`, or OPENCLAW_GATEWAY_URL)",
            ),
            approvals: ApprovalsView::unavailable(
                "no gateway configured (clawdeck.json5 `gateways`, or OPENCLAW_GATEWAY_URL)",
            ),
            lint: LintView::default(),
            diff: DiffView::default(),
            gateways: super::views::gateways::GatewaysView::unavailable(
                "no gateway configured (clawdeck.json5 `gateways`, or OPENCLAW_GATEWAY_URL)",
            ),
            analysis: analysis::AnalysisJobs::default(),
            openclaw_state: crate::paths::openclaw_state_dir(),
            exec_resolver: crate::exec_allowlist::PathResolver::from_env(),
            overlay: None,
            context: PolicyContext::default(),
            choices: ContextChoices::default(),
            config_error: None,
            status: None,
            tx,
            frames,
            clock,
            deck,
            decision_feed: None,
            clipboard: Box::new(Osc52Clipboard),
            bell: Box::new(crate::bell::TerminalBell),
            bell_pending: false,
            approval_bell: true,
            copy_dir: crate::paths::console_copies_dir(),
            stats: Arc::default(),
            quit: false,
            reload_generation: 0,
            prompt_generation: 0,
            resolve_generation: 0,
            tab_areas: Vec::new(),
        }
    }

    /// Shows what the deck holds now: its config and everything computed from it, the queue.
    pub(crate) fn show_deck(&mut self) {
        let state = self.deck.state();
        self.install_state(&state);
        self.refresh_queue();
    }

    /// Installs a snapshot the deck built: keymap overrides, pickers, and everything computed
    /// from the config.
    fn install_state(&mut self, state: &Arc<crate::deck::DeckState>) {
        self.apply_settings(&state.config);
        self.queue.warn_after = state.limits.warn_after;
        self.shown = Some(Arc::clone(state));
        self.config_error = None;
        self.recompute();
        self.config_installed();
    }

    fn apply_settings(&mut self, config: &LoadedConfig) {
        self.keymap = Keymap::with_overrides(&config.settings.keys);
        self.approval_bell = config.settings.console.approval_bell;
        // A stored pack that cannot load comes first: every answer is the shipped pack's. Then
        // the key overrides, then what the CLI prints as `warning:` on loading the config (an
        // unreadable .env, a login shell that timed out, unknown keys).
        let warnings: Vec<&String> = config
            .pack
            .warnings
            .iter()
            .chain(&self.keymap.warnings)
            .chain(&config.warnings)
            .collect();
        if let Some(w) = warnings.first() {
            let more = warnings.len() - 1;
            // Config text is quoted in them: shown, never obeyed.
            let w = crate::sanitize::visible(w).text;
            let text = if more > 0 {
                format!("{w} (+{more} more)")
            } else {
                w.to_string()
            };
            self.set_status(text);
        }
        self.choices = ContextChoices::from_config(config, &self.context);
    }

    /// Makes the console a client of another deck and shows it (tests swap in a deck built
    /// around their own router, gateways or config file).
    #[cfg(test)]
    pub(crate) fn attach_deck(&mut self, deck: crate::deck::Deck) {
        self.deck = deck;
        let _ = self.deck.state().resolve(&self.context);
        self.show_deck();
    }

    /// Installs a config in the deck and shows it (the tests' way to change the config; the
    /// console reloads through [`App::reload_config`]).
    #[cfg(test)]
    pub(crate) fn set_config(&mut self, config: LoadedConfig) {
        let state = self.deck.apply(config);
        let _ = state.resolve(&self.context);
        self.install_state(&state);
    }

    /// Rebuilds what the model sees for the current context (prompt and provider payload). It
    /// reads skill files, so it runs as a job and comes back as `CoreEvent::PromptBuilt`.
    pub(crate) fn refresh_prompt(&mut self) {
        let Some(state) = self.shown.clone() else {
            return;
        };
        let (config, registry) = (Arc::clone(&state.config), Arc::clone(&state.registry));
        self.prompt_generation += 1;
        let generation = self.prompt_generation;
        let context = self.context.clone();
        let options = self.prompt.options.clone();
        let tx = self.tx.clone();
        self.prompt_stale = false;
        run_job(move || {
            let result =
                crate::prompt::view::build_llm_view(&config, &registry, &context, &options)
                    .map(Box::new)
                    .map_err(|e| e.to_string());
            tx.send(AppEvent::Core(CoreEvent::PromptBuilt {
                generation,
                result,
            }));
        });
    }

    /// Recomputes everything that depends on the config and the context.
    pub(crate) fn recompute(&mut self) {
        self.prompt_stale = true;
        if self.view == ViewId::Prompt {
            self.refresh_prompt();
        }
        let Some(state) = self.shown.clone() else {
            return;
        };
        self.router.known_agents = state.config.agent_ids();
        self.resolve_generation += 1;
        if let Some(known) = state.cached_resolution(&self.context) {
            self.show_resolution(&state, known);
            return;
        }
        // A first ask for this context: resolved off this task, shown when it comes back.
        let generation = self.resolve_generation;
        let context = self.context.clone();
        let tx = self.tx.clone();
        run_job(move || {
            let result = state.resolve(&context);
            tx.send(AppEvent::Core(CoreEvent::Resolved {
                generation,
                state,
                result,
            }));
        });
    }

    /// A reload job came back: installed unless a newer reload is on its way.
    fn reloaded(
        &mut self,
        generation: u64,
        result: Result<Arc<crate::deck::DeckState>, String>,
    ) -> bool {
        if generation != self.reload_generation {
            // A newer reload is on its way; this result is already out of date.
            return false;
        }
        match result {
            Ok(state) => {
                self.install_state(&state);
                self.set_status("config reloaded");
            }
            Err(e) => self.config_error = Some(e),
        }
        true
    }

    /// A resolution job came back: shown when nothing changed since it was asked for.
    fn resolved(
        &mut self,
        generation: u64,
        state: &Arc<crate::deck::DeckState>,
        result: crate::deck::resolutions::Resolved,
    ) -> bool {
        if generation != self.resolve_generation {
            return false;
        }
        self.show_resolution(state, result);
        true
    }

    fn show_resolution(
        &mut self,
        state: &crate::deck::DeckState,
        result: crate::deck::resolutions::Resolved,
    ) {
        match result {
            Ok(resolution) => {
                self.router.context_agent = Some(resolution.resolved.agent.clone());
                self.invoke.set_tools(&resolution, &state.registry);
                self.policy.set_resolution(resolution);
                // A command being judged is judged again in the new context.
                self.ask_exec();
            }
            Err(e) => self.policy.error = Some(e),
        }
    }

    /// Has the deck re-read its config; a broken file keeps the last good state and shows the
    /// error. The reading and building (plugin manifests, skills) run as a job off this task and
    /// come back as `CoreEvent::Reloaded`; a newer request wins over an older one.
    pub(crate) fn reload_config(&mut self) {
        let deck = self.deck.clone();
        self.reload_generation += 1;
        let generation = self.reload_generation;
        let tx = self.tx.clone();
        let context = self.context.clone();
        run_job(move || {
            let result = deck.reload().map_err(|e| e.to_string());
            if let Ok(state) = &result {
                // Resolved here, off the console's task, so installing it shows it at once.
                let _ = state.resolve(&context);
            }
            tx.send(AppEvent::Core(CoreEvent::Reloaded { generation, result }));
        });
    }

    /// Takes a fresh snapshot of the lane queue for the Queue view.
    pub(crate) fn refresh_queue(&mut self) {
        self.queue.execs.set(self.deck.exec_sessions());
        self.queue.set_snapshot(self.deck.queue().snapshot());
        self.queue.background = {
            let rt = self.deck.tool_runtime();
            rt.sessions
                .list()
                .iter()
                .filter(|s| s.outcome().is_none())
                .map(|s| {
                    let one_line: Vec<&str> = s.command.split_whitespace().collect();
                    crate::pipeline::call_label(
                        "exec",
                        &serde_json::json!({"command": one_line.join(" ")}),
                        "",
                    )
                    .trim_start_matches("exec: ")
                    .to_string()
                })
                .collect()
        };
    }

    /// The config the views show.
    pub(crate) fn config(&self) -> Option<&Arc<LoadedConfig>> {
        self.shown.as_ref().map(|s| &s.config)
    }

    /// The tool registry the views show (plugins included).
    pub(crate) fn registry(&self) -> Option<&Arc<Registry>> {
        self.shown.as_ref().map(|s| &s.registry)
    }

    pub(crate) fn set_status(&mut self, text: impl Into<String>) {
        self.status = Some((text.into(), self.clock.now()));
    }

    /// Live work that quitting would stop.
    pub fn live_work(&self) -> usize {
        self.router.live_runs() + self.invoke.running() + self.live_exec_sessions()
    }

    /// Background exec sessions whose process still runs (quitting kills them).
    pub(crate) fn live_exec_sessions(&self) -> usize {
        self.deck.live_work().1
    }

    /// What quitting would stop, in words (`1 router run and 2 background exec sessions`).
    fn live_work_words(&self) -> String {
        let plural = |n: usize, one: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {one}s")
            }
        };
        let parts: Vec<String> = [
            (self.router.live_runs(), "router run"),
            (self.invoke.running(), "tool call"),
            (self.live_exec_sessions(), "background exec session"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| plural(n, what))
        .collect();
        parts.join(" and ")
    }

    /// Handles one event (everything except `Draw`, which the loop handles).
    pub(crate) fn handle_event(&mut self, event: AppEvent) {
        self.handle_and_ask_for_frame(event);
    }

    /// Handles one event; returns whether it asked for a frame.
    pub(crate) fn handle_and_ask_for_frame(&mut self, event: AppEvent) -> bool {
        let redraw = match event {
            AppEvent::Key(key) => self.handle_key(key),
            AppEvent::Mouse(mouse) => self.handle_mouse(mouse),
            AppEvent::Paste(text) => self.handle_paste(&text),
            AppEvent::Resize | AppEvent::Draw => true,
            AppEvent::InputClosed | AppEvent::Quit => {
                self.quit = true;
                false
            }
            AppEvent::Tick => self.on_tick(),
            AppEvent::SwitchView(view) => self.switch_view(view),
            AppEvent::RefreshPrompt => {
                self.refresh_prompt();
                true
            }
            AppEvent::SetContext(ctx) => self.set_context(ctx),
            AppEvent::CompareSession(target) => {
                self.compare_session(target);
                true
            }
            AppEvent::CheckExecCommand(command) => {
                self.check_exec_command(command);
                true
            }
            AppEvent::JudgeInvokeCommand(command) => {
                self.judge_invoke_command(command);
                true
            }
            AppEvent::RefreshDiff => {
                self.refresh_diff();
                true
            }
            AppEvent::ReloadConfig => {
                self.reload_config();
                true
            }
            event @ (AppEvent::KillRun { .. }
            | AppEvent::SetRunTimeout { .. }
            | AppEvent::StartRun { .. }
            | AppEvent::SetLaneLimit { .. }
            | AppEvent::ClearLane { .. }
            | AppEvent::KillCall { .. }
            | AppEvent::KillExecSession { .. }
            | AppEvent::Invoke { .. }
            | AppEvent::ResolveApproval { .. }
            | AppEvent::ChatSession { .. }
            | AppEvent::AbortSession { .. }
            | AppEvent::ApprovalLedger(_)
            | AppEvent::InvokeGateway { .. }) => self.handle_work(event),
            AppEvent::CopyRun { run_id } => {
                self.copy_run(run_id);
                true
            }
            AppEvent::Status(text) => {
                self.set_status(text);
                true
            }
            AppEvent::Confirm { question, on_yes } => {
                self.overlay = Some(Overlay::Confirm(Confirm::new(question, *on_yes)));
                true
            }
            AppEvent::Core(core) => self.handle_core(core),
        };
        if redraw {
            self.frames.schedule_frame();
        }
        redraw
    }

    /// An intent that starts, changes or stops work (runs, lanes, calls, execs, approvals,
    /// gateway sessions); returns whether it asked for a frame.
    fn handle_work(&mut self, event: AppEvent) -> bool {
        match event {
            AppEvent::KillRun { run_id } => {
                self.kill_run(&run_id);
                true
            }
            AppEvent::SetRunTimeout {
                run_id,
                seconds,
                extend,
            } => {
                self.set_run_timeout(&run_id, seconds, extend);
                true
            }
            AppEvent::StartRun { agent, message } => {
                self.start_run(agent, message);
                true
            }
            AppEvent::SetLaneLimit { lane, limit } => self.set_lane_limit(&lane, limit),
            AppEvent::ClearLane { lane } => self.clear_lane(&lane),
            AppEvent::KillCall { id } => {
                self.kill_call(id);
                true
            }
            AppEvent::KillExecSession { id } => {
                self.kill_exec_session(&id);
                true
            }
            AppEvent::Invoke { call, tool, params } => {
                self.invoke_tool(call, tool, params);
                true
            }
            AppEvent::ResolveApproval {
                gateway,
                id,
                decision,
            } => {
                self.resolve_approval(&gateway, &id, decision);
                true
            }
            event @ (AppEvent::ChatSession { .. } | AppEvent::AbortSession { .. }) => {
                self.act_on_session(event)
            }
            AppEvent::ApprovalLedger(act) => {
                match self.deck.desk() {
                    Some(desk) => act.send_to(&desk),
                    None => self.set_status("no gateway attached: no approval history or grants"),
                }
                true
            }
            AppEvent::InvokeGateway {
                call,
                gateway,
                tool,
                params,
            } => {
                self.invoke_on_gateway(call, &gateway, tool, params);
                true
            }
            _ => false,
        }
    }

    /// Shows `view`, bringing its data up to date; asks for a frame.
    fn switch_view(&mut self, view: ViewId) -> bool {
        if view != self.view {
            // A message is about the view it came from.
            self.status = None;
        }
        self.view = view;
        if view == ViewId::Prompt && self.prompt_stale {
            self.refresh_prompt();
        }
        if view == ViewId::Decisions {
            self.refresh_decisions();
        }
        self.analysis_shown();
        true
    }

    /// Makes `ctx` the context every view is computed for; asks for a frame.
    fn set_context(&mut self, ctx: PolicyContext) -> bool {
        self.context = ctx;
        if let Some(config) = self.shown.as_ref().map(|s| &s.config) {
            self.choices = ContextChoices::from_config(config, &self.context);
        }
        self.recompute();
        self.context_changed();
        true
    }

    /// Sets a lane's concurrency limit on the lane queue; asks for a frame.
    fn set_lane_limit(&mut self, lane: &str, limit: usize) -> bool {
        self.deck.queue().set_limit(lane, limit);
        self.refresh_queue();
        true
    }

    /// Rejects every entry waiting in a lane; asks for a frame.
    fn clear_lane(&mut self, lane: &str) -> bool {
        let n = self.deck.queue().clear_lane(lane);
        self.set_status(format!("lane {lane}: {n} waiting entries rejected"));
        self.refresh_queue();
        true
    }

    fn handle_core(&mut self, event: CoreEvent) -> bool {
        match event {
            CoreEvent::ConfigFileChanged => {
                self.reload_config();
                true
            }
            CoreEvent::Resolved {
                generation,
                state,
                result,
            } => self.resolved(generation, &state, result),
            CoreEvent::PromptBuilt { generation, result } => {
                if generation != self.prompt_generation {
                    return false;
                }
                match result {
                    Ok(view) => self.prompt.set_view(&view, self.clock.wall()),
                    Err(e) => self.prompt.error = Some(e),
                }
                self.view == ViewId::Prompt
            }
            CoreEvent::Copied { message } => {
                self.set_status(message);
                true
            }
            CoreEvent::Reloaded { generation, result } => self.reloaded(generation, result),
            CoreEvent::OpenClawVersion(state) => {
                // A config error on screen is about the file, which this does not re-read.
                let config_error = self.config_error.take();
                self.install_state(&state);
                self.config_error = config_error;
                self.set_status(openclaw_version_status(&state.config.pack));
                true
            }
            CoreEvent::Router(ev, permit) => self.router_event(ev, permit),
            CoreEvent::Queue(ev) => {
                self.queue.record(&ev);
                self.refresh_queue();
                self.view == ViewId::Queue
            }
            CoreEvent::QueueLagged(n) => {
                self.set_status(format!(
                    "the console fell behind the queue: {n} events were skipped"
                ));
                self.refresh_queue();
                true
            }
            CoreEvent::Gateway {
                gateway,
                event,
                permit: _handled,
            } => {
                let applied = self.sessions.apply(&gateway, &event);
                if applied.roster {
                    self.queue.gateway_runs =
                        super::views::gateway_runs::GatewayRuns::from_roster(&self.sessions.roster);
                }
                (applied.view && self.view == ViewId::Sessions)
                    || (applied.roster && self.view == ViewId::Queue)
            }
            CoreEvent::Pulse { gateway, pulse } => {
                self.gateways.apply(&gateway, pulse) && self.view == ViewId::Gateways
            }
            CoreEvent::Desk(event) => self.handle_desk(event),
            CoreEvent::SessionChecked { generation, result } => {
                self.session_checked(generation, result) && self.view == ViewId::Policy
            }
            CoreEvent::ExecChecked { generation, result } => {
                self.exec_checked(generation, result) && self.view == ViewId::Policy
            }
            CoreEvent::InvokeJudged { generation, result } => {
                self.invoke_judged(generation, result) && self.view == ViewId::Invoke
            }
            CoreEvent::ApprovalJudged {
                gateway,
                id,
                result,
            } => self.approval_judged(gateway, id, result) && self.view == ViewId::Approvals,
            CoreEvent::Linted { generation, result } => {
                self.linted(generation, result) && self.view == ViewId::Lint
            }
            CoreEvent::Diffed {
                generation,
                result,
                packs,
            } => self.diffed(generation, result, packs) && self.view == ViewId::Diff,
            CoreEvent::InvokeDone { call, outcome } => self.invoke_done(call, outcome),
            CoreEvent::RouterLagged(n) => self.router_lagged(n),
        }
    }

    /// Applies a router event; returns whether it asks for a frame.
    fn router_event(
        &mut self,
        ev: crate::router::RouterEvent,
        permit: crate::deck::paced::Permit,
    ) -> bool {
        // A chunk's permit waits with it until it is sanitized; any other goes now.
        let was_pending = self.router.has_pending();
        let changed = self.router.apply(ev, permit) && self.view == ViewId::Router;
        if self.view != ViewId::Router {
            // Off screen: no frame is coming, so sanitize now.
            self.router.flush_pending();
        }
        // On screen, queued output is sanitized before the next frame: the first chunk
        // asks for it, and a frame that leaves output queued asks for the next one, so
        // a flood asks once per frame, not once per chunk.
        changed || (!was_pending && self.router.has_pending())
    }

    /// Records a finished Invoke call and says how it ended; asks for a frame.
    fn invoke_done(&mut self, call: u64, outcome: crate::pipeline::CallOutcome) -> bool {
        let tool = outcome.tool().to_string();
        let verdict = match &outcome {
            crate::pipeline::CallOutcome::Completed {
                is_error: false, ..
            } => "✓ ok",
            crate::pipeline::CallOutcome::Completed { .. } => "✗ tool error",
            crate::pipeline::CallOutcome::Cancelled { .. } => "∅ cancelled",
            _ => "✗ not run",
        };
        let text = outcome
            .message()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let summary = format!("{verdict}: {text}");
        self.invoke.finish(call, outcome);
        self.set_status(format!(
            "call #{call} ({tool}) ended: {}",
            super::widgets::ellipsize(&summary, 100)
        ));
        true
    }

    /// Marks `n` router events the console skipped; asks for a frame.
    fn router_lagged(&mut self, n: u64) -> bool {
        // Marked in its place behind the queued output, which is sanitized per frame.
        self.router.mark_skipped(n);
        if self.view != ViewId::Router {
            self.router.flush_pending();
        }
        // Skipped events may include a run's end: take the ends from the history.
        self.router.reconcile(self.deck.router().runs());
        self.set_status(format!(
            "the console fell behind the router: {n} events were skipped"
        ));
        true
    }

    fn on_tick(&mut self) -> bool {
        let mut redraw = false;
        if let Some((_, at)) = &self.status
            && self.clock.now().duration_since(*at) >= STATUS_TTL
        {
            self.status = None;
            redraw = true;
        }
        if self.view == ViewId::Decisions && self.refresh_decisions() {
            redraw = true;
        }
        if self.view == ViewId::Queue && self.queue.needs_tick() {
            self.refresh_queue();
            redraw = true;
        }
        // A large edited text is validated once typing pauses: the next frame does it.
        let validation = self.view == ViewId::Invoke && self.invoke.validation_pending();
        // While approvals wait, a frame each second: their countdown moves, and the badge
        // drops the ones that expire.
        let countdown = self.approvals.waiting(self.clock.wall()) > 0;
        redraw
            || validation
            || countdown
            || (self.view == ViewId::Router && self.router.needs_tick())
    }

    fn handle_key(&mut self, key: KeyEvent) -> bool {
        if key.kind == KeyEventKind::Release {
            return false;
        }
        let drawn = self.stats.frames_drawn.load(Ordering::SeqCst);
        self.stats.frames_at_last_key.store(drawn, Ordering::SeqCst);
        self.stats
            .output_pieces_at_last_key
            .store(self.router.sanitized_pieces, Ordering::SeqCst);
        self.stats.keys_handled.fetch_add(1, Ordering::SeqCst);
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(overlay) = self.overlay.take() {
            if ctrl_c && !matches!(overlay, Overlay::Confirm(_)) {
                self.request_quit();
                return true;
            }
            self.overlay = self.overlay_key(overlay, &key);
            return true;
        }
        if ctrl_c {
            self.request_quit();
            return true;
        }
        // Text inputs of the active view take keys before the keymap.
        let (view, ctx) = self.active_view();
        if view.input_key(&key, &ctx) {
            return true;
        }
        let Some(action) = self.keymap.lookup(self.view, &key) else {
            return false;
        };
        self.handle_action(action)
    }

    fn overlay_key(&mut self, overlay: Overlay, key: &KeyEvent) -> Option<Overlay> {
        match overlay {
            Overlay::Help(mut help) => help.handle_key(key).then_some(Overlay::Help(help)),
            Overlay::Confirm(confirm) => {
                let (rest, outcome) = confirm.handle_key(key);
                if let ConfirmOutcome::Yes(event) = outcome {
                    self.tx.send(*event);
                }
                rest.map(Overlay::Confirm)
            }
            Overlay::Context(mut editor) => match editor.handle_key(key, &self.choices) {
                EditorOutcome::Changed(ctx) => {
                    self.tx.send(AppEvent::SetContext(*ctx));
                    Some(Overlay::Context(editor))
                }
                EditorOutcome::Close => None,
                EditorOutcome::Pending => Some(Overlay::Context(editor)),
            },
        }
    }

    fn request_quit(&mut self) {
        let live = self.live_work();
        let draft = self.view == ViewId::Invoke && self.invoke.is_editing();
        let question = match (live, draft) {
            (0, false) => {
                self.tx.send(AppEvent::Quit);
                return;
            }
            (0, true) => "The parameters being edited are not kept. Quit anyway?".to_string(),
            (_, false) => format!("Live: {}. Quit and kill them?", self.live_work_words()),
            (_, true) => format!(
                "Live: {}, and the parameters being edited are not kept. Quit and kill them?",
                self.live_work_words()
            ),
        };
        self.overlay = Some(Overlay::Confirm(Confirm::new(question, AppEvent::Quit)));
    }

    /// Global actions first, then the active view's.
    pub(crate) fn handle_action(&mut self, action: Action) -> bool {
        match action {
            Action::Quit => self.request_quit(),
            Action::Help => self.overlay = Some(Overlay::Help(HelpOverlay::default())),
            Action::NextView => self.tx_send(AppEvent::SwitchView(self.view.next())),
            Action::PrevView => self.tx_send(AppEvent::SwitchView(self.view.prev())),
            Action::ViewPolicy => self.tx_send(AppEvent::SwitchView(ViewId::Policy)),
            Action::ViewQueue => self.tx_send(AppEvent::SwitchView(ViewId::Queue)),
            Action::ViewRouter => self.tx_send(AppEvent::SwitchView(ViewId::Router)),
            Action::ViewInvoke => self.tx_send(AppEvent::SwitchView(ViewId::Invoke)),
            Action::ViewPrompt => self.tx_send(AppEvent::SwitchView(ViewId::Prompt)),
            Action::ViewDecisions => self.tx_send(AppEvent::SwitchView(ViewId::Decisions)),
            Action::ViewSessions => self.tx_send(AppEvent::SwitchView(ViewId::Sessions)),
            Action::ViewApprovals => self.tx_send(AppEvent::SwitchView(ViewId::Approvals)),
            Action::ViewLint => self.tx_send(AppEvent::SwitchView(ViewId::Lint)),
            Action::ViewDiff => self.tx_send(AppEvent::SwitchView(ViewId::Diff)),
            Action::ViewGateways => self.tx_send(AppEvent::SwitchView(ViewId::Gateways)),
            Action::ReloadConfig => self.tx_send(AppEvent::ReloadConfig),
            Action::CompareSession => self.open_session_picker(),
            Action::EditContext => {
                self.overlay = Some(Overlay::Context(ContextEditor::new(&self.context)))
            }
            other => {
                let (view, ctx) = self.active_view();
                return view.action(other, &ctx);
            }
        }
        true
    }

    fn tx_send(&self, event: AppEvent) {
        self.tx.send(event);
    }

    fn handle_mouse(&mut self, mouse: MouseEvent) -> bool {
        if self.overlay.is_some() {
            return false;
        }
        if let MouseEventKind::Down(MouseButton::Left) = mouse.kind {
            let hit = self
                .tab_areas
                .iter()
                .find(|(r, _)| crate::widgets::mouse_in(*r, &mouse));
            if let Some((_, view)) = hit {
                self.tx.send(AppEvent::SwitchView(*view));
                return true;
            }
        }
        self.active_view().0.mouse(&mouse)
    }

    fn handle_paste(&mut self, text: &str) -> bool {
        let (view, ctx) = self.active_view();
        view.paste_in(text, &ctx)
    }

    /// The active view and what it may use (split borrows of the App's fields).
    pub(crate) fn active_view(&mut self) -> (&mut dyn View, ViewCtx<'_>) {
        let App {
            view,
            policy,
            queue,
            router,
            invoke,
            prompt,
            decisions,
            sessions,
            approvals,
            lint,
            diff,
            gateways,
            tx,
            clock,
            keymap,
            ..
        } = self;
        let active: &mut dyn View = match view {
            ViewId::Policy => policy,
            ViewId::Queue => queue,
            ViewId::Router => router,
            ViewId::Invoke => invoke,
            ViewId::Prompt => prompt,
            ViewId::Decisions => decisions,
            ViewId::Sessions => sessions,
            ViewId::Approvals => approvals,
            ViewId::Lint => lint,
            ViewId::Diff => diff,
            ViewId::Gateways => gateways,
        };
        let ctx = ViewCtx {
            tx,
            clock: &**clock,
            keymap,
        };
        (active, ctx)
    }

    fn parse_run_id(&mut self, run_id: &str) -> Option<u64> {
        let id = run_id.parse::<u64>().ok();
        if id.is_none() {
            self.set_status(format!("no run `{run_id}`"));
        }
        id
    }

    fn kill_run(&mut self, run_id: &str) {
        let Some(id) = self.parse_run_id(run_id) else {
            return;
        };
        let router = self.deck.router().clone();
        if router.kill(id) {
            self.set_status(format!(
                "kill sent to run #{id} (SIGTERM to its process group, then SIGKILL)"
            ));
        } else {
            self.set_status(format!("run #{id} is not running"));
        }
    }

    /// Kills a queued call through the core; the queue's events show what follows.
    fn kill_call(&mut self, id: crate::queue::EntryId) {
        let text = match self.deck.cancel_call(id) {
            Some(killed) if killed.running => format!(
                "kill sent to call #{id} ({}): its tool stops, an exec's process tree is killed",
                killed.label
            ),
            Some(killed) => format!(
                "call #{id} ({}) leaves the queue without running",
                killed.label
            ),
            None => format!("call #{id} is not running"),
        };
        self.set_status(text);
        self.refresh_queue();
    }

    fn kill_exec_session(&mut self, id: &str) {
        let text = match self.deck.kill_exec_session(id) {
            Some(killed) => format!(
                "kill sent to background exec {id} ({}): its process group (pid {}) is killed",
                killed.command, killed.pid
            ),
            None => format!("background exec {id} is not running"),
        };
        self.set_status(text);
        self.refresh_queue();
    }

    fn set_run_timeout(&mut self, run_id: &str, seconds: u64, extend: bool) {
        let Some(id) = self.parse_run_id(run_id) else {
            return;
        };
        let router = self.deck.router().clone();
        let ceiling = crate::router::service::OPERATOR_TIMEOUT_CEILING.as_secs();
        let current = self
            .router
            .runs
            .iter()
            .find(|r| r.run_id == id)
            .map(|r| r.timeout_seconds);
        let wanted = if extend {
            current.unwrap_or(0).saturating_add(seconds)
        } else {
            seconds
        };
        if wanted > ceiling && current == Some(ceiling) {
            self.set_status(format!(
                "run #{id} is already at the {ceiling} s ceiling; its timeout is unchanged"
            ));
            return;
        }
        let by = Duration::from_secs(seconds);
        let ok = if extend {
            router.extend_timeout(id, by)
        } else {
            router.set_timeout(id, by)
        };
        if !ok {
            self.set_status(format!("run #{id} is not running"));
        } else if wanted > ceiling {
            self.set_status(format!(
                "run #{id}: {wanted} s is above the {ceiling} s ceiling; timeout set to {ceiling} s"
            ));
        }
    }

    fn start_run(&mut self, agent: Option<String>, message: String) {
        let router = self.deck.router().clone();
        let mut request = RouterRequest::new(message);
        request.agent = agent;
        match router.start(request) {
            Ok(handle) => {
                let id = handle.run_id;
                self.set_status(format!("router run #{id} started"));
            }
            Err(refusal) => self.set_status(refusal.operator),
        }
    }

    fn invoke_tool(&mut self, call: u64, tool: String, params: serde_json::Value) {
        let pipeline = self.deck.pipeline();
        let request = CallRequest::new(tool.clone(), params, self.context.clone());
        let tx = self.tx.clone();
        self.set_status(format!(
            "call #{call}: {tool} sent through policy, hooks and the lane queue"
        ));
        tokio::spawn(async move {
            let outcome = pipeline.call(request).await;
            tx.send(AppEvent::Core(CoreEvent::InvokeDone { call, outcome }));
        });
    }

    /// Sends an approval's answer through the core's gateway desk; the gateway's
    /// `exec.approval.resolved` (or the refusal) comes back as `CoreEvent::Desk`.
    fn resolve_approval(
        &mut self,
        gateway: &str,
        id: &str,
        decision: crate::gateway::approvals::Decision,
    ) {
        // The answer goes only to the approval the operator saw, while it is still open (a
        // confirmation can outlive it: resolved elsewhere, expired, forgotten).
        let Some((kind, command)) = self.approvals.board.open_entry(gateway, id).map(|e| {
            (
                e.approval.kind,
                crate::sanitize::visible(&e.approval.summary()).text,
            )
        }) else {
            self.set_status(format!(
                "{}: no longer open on {gateway}; nothing sent",
                crate::sanitize::visible(id).text
            ));
            return;
        };
        let Some(desk) = self.deck.desk() else {
            self.set_status("no gateway attached: approvals cannot be answered");
            return;
        };
        self.approvals.board.answering(gateway, id, decision);
        desk.resolve_kind(gateway, id, kind, decision);
        self.set_status(format!(
            "{} `{command}`: {} sent to {gateway}",
            crate::sanitize::visible(id).text,
            decision.as_str()
        ));
    }

    /// Runs a tool on a gateway (`tools.invoke`) for the Invoke view, with the context's agent.
    fn invoke_on_gateway(
        &mut self,
        call: u64,
        gateway: &str,
        tool: String,
        params: serde_json::Value,
    ) {
        let Some(desk) = self.deck.desk() else {
            self.invoke.finish(
                call,
                crate::pipeline::CallOutcome::Blocked {
                    tool,
                    reason: "no gateway attached".into(),
                    hooks: Vec::new(),
                },
            );
            return;
        };
        let request = crate::gateway::invoke::InvokeRequest {
            tool: tool.clone(),
            args: params,
            session_key: None,
            agent_id: self.context.agent.clone(),
            idempotency_key: None,
        };
        desk.invoke(gateway, call, request, GATEWAY_INVOKE_TIMEOUT);
        self.set_status(format!(
            "call #{call}: {tool} sent to gateway {gateway} (tools.invoke)"
        ));
    }

    fn handle_desk(&mut self, event: crate::gateway::desk::DeskEvent) -> bool {
        use crate::gateway::desk::DeskEvent;
        match event {
            DeskEvent::Item(item) => {
                let changed = self.approvals.apply(&item);
                let arrived = changed
                    && matches!(
                        item.kind,
                        crate::gateway::watch::WatchKind::ApprovalRequested(_)
                    );
                if arrived
                    && let crate::gateway::watch::WatchKind::ApprovalRequested(approval) =
                        &item.kind
                {
                    self.judge_approval(&item.gateway, approval);
                }
                // A new approval rings the terminal's bell (console.approvalBell), once a frame.
                self.bell_pending |= arrived && self.approval_bell;
                changed
            }
            DeskEvent::RevokeDone {
                ref gateway,
                result: Ok(_),
                ..
            } => {
                // The grant's new state shows once its gateway is asked again.
                if let Some(desk) = self.deck.desk() {
                    self.approvals
                        .ledger
                        .asking_grants(std::slice::from_ref(gateway));
                    desk.grants(gateway);
                }
                if let Some(status) = self.approvals.apply_ledger(event) {
                    self.set_status(status);
                }
                true
            }
            DeskEvent::History { .. } | DeskEvent::Grants { .. } | DeskEvent::RevokeDone { .. } => {
                if let Some(status) = self.approvals.apply_ledger(event) {
                    self.set_status(status);
                }
                true
            }
            DeskEvent::ResolveDone {
                gateway,
                id,
                decision,
                error,
            } => {
                if let Some(error) = error {
                    self.approvals.board.answer_failed(&gateway, &id);
                    self.set_status(format!(
                        "{id}: {} refused by {gateway}: {error}",
                        decision.as_str()
                    ));
                }
                true
            }
            DeskEvent::InvokeDone { call, outcome } => {
                let outcome = match outcome {
                    crate::gateway::invoke_run::GatewayCall::Ran(outcome) => outcome,
                    crate::gateway::invoke_run::GatewayCall::Refused(refusal) => {
                        refusal.to_outcome()
                    }
                };
                self.handle_core(CoreEvent::InvokeDone { call, outcome })
            }
            DeskEvent::Session(news) => {
                if let Some(status) = self.sessions.apply_news(&news) {
                    self.set_status(status);
                }
                true
            }
        }
    }

    /// The Sessions view's message and abort intents.
    fn act_on_session(&mut self, event: AppEvent) -> bool {
        match event {
            AppEvent::ChatSession {
                gateway,
                key,
                message,
                steer,
            } => self.chat_session(&gateway, &key, &message, steer),
            AppEvent::AbortSession { gateway, key } => self.abort_session(&gateway, &key),
            _ => return false,
        }
        true
    }

    /// Whether `gateway`'s roster still lists session `key`; when not, the status says so and
    /// the caller sends nothing (a question can outlive the session it asked about).
    fn session_still_listed(&mut self, gateway: &str, key: &str) -> bool {
        let listed = self
            .sessions
            .roster
            .rows()
            .iter()
            .any(|(g, row)| *g == gateway && row.key == key);
        if !listed {
            self.set_status(format!(
                "{} is no longer listed on {gateway}; nothing sent",
                crate::sanitize::visible(key).text
            ));
        }
        listed
    }

    /// Sends the Sessions view's message through the desk (its approver connection, so the
    /// turn's exec approvals come to the Approvals view).
    fn chat_session(&mut self, gateway: &str, key: &str, message: &str, steer: bool) {
        if !self.session_still_listed(gateway, key) {
            return;
        }
        let Some(desk) = self.deck.desk() else {
            self.set_status("no gateway attached: the message was not sent");
            return;
        };
        self.sessions.turn_started(gateway, key, message, steer);
        desk.chat(gateway, key, message, steer);
        let how = if steer { "steered into" } else { "sent to" };
        self.set_status(format!("message {how} {key} on {gateway} (chat.send)"));
    }

    fn abort_session(&mut self, gateway: &str, key: &str) {
        if !self.session_still_listed(gateway, key) {
            return;
        }
        let Some(desk) = self.deck.desk() else {
            self.set_status("no gateway attached: nothing to abort");
            return;
        };
        desk.abort(gateway, key);
        self.set_status(format!(
            "abort sent to {gateway} for {key} (sessions.abort)"
        ));
    }

    /// Copies a run's own retained record (not the console's view of it, which may have
    /// skipped lines under a flood): complete from the first line, and when the record's cap
    /// stopped it, the file's last line and the status say after which line and how much was
    /// not kept. Without a router service, what the pane holds.
    fn copy_run(&mut self, run_id: u64) {
        self.router.flush_pending();
        let record = self.deck.router().record(run_id);
        let (text, cut) = match record {
            Some(record) => (crate::sanitize::plain(&record.text), record.cut),
            None => match self.router.runs.iter().find(|r| r.run_id == run_id) {
                Some(run) => (run.buffer.plain_text(), None),
                None => {
                    self.set_status(format!("no run #{run_id}"));
                    return;
                }
            },
        };
        self.copy(&format!("router-run-{run_id}"), &text, cut);
    }

    /// Puts text on the clipboard now and writes its file as a job (the status line says how
    /// both went when the file is written).
    fn copy(&mut self, label: &str, text: &str, cut: Option<crate::router::service::RecordCut>) {
        // A cut record's last line is the note saying so, not output.
        let lines = match &cut {
            Some(cut) => cut.kept_lines as usize,
            None => text.lines().count(),
        };
        let clip = self.clipboard.set(text);
        let dir = self.copy_dir.clone();
        let file = dir.join(format!("{label}.txt"));
        let text = text.to_string();
        let tx = self.tx.clone();
        run_job(move || {
            // The state dir: private, and no FIFO or link at the file's place is waited on or
            // written through (a copy may hold what a run printed: tokens, paths).
            let saved = crate::process::private_fs::create_private_dir_all(&dir).and_then(|()| {
                crate::regular_file::write(
                    &file,
                    text.as_bytes(),
                    0o600,
                    crate::regular_file::Links::Refuse,
                )
            });
            let mut message = copy_message(lines, clip, &file, saved);
            if let Some(cut) = cut {
                message.push_str(&format!(
                    " · the record stops at its {} MiB cap after line {}: {} more lines ({} bytes) were not kept (the file's last line says so)",
                    crate::router::service::RAW_LIMIT_BYTES / (1024 * 1024),
                    cut.kept_lines,
                    cut.dropped_lines,
                    cut.dropped_bytes
                ));
            }
            tx.send(AppEvent::Core(CoreEvent::Copied { message }));
        });
    }
}

/// What the status line says about a copy.
fn copy_message(
    lines: usize,
    clip: bool,
    file: &std::path::Path,
    saved: std::io::Result<()>,
) -> String {
    match (clip, saved) {
        (true, Ok(())) => format!(
            "copied {lines} lines to the clipboard (OSC 52) and {}",
            file.display()
        ),
        (false, Ok(())) => format!(
            "saved {lines} lines to {} (too large for OSC 52)",
            file.display()
        ),
        (true, Err(e)) => format!(
            "copied {lines} lines to the clipboard (OSC 52); saving {} failed: {e}",
            file.display()
        ),
        (false, Err(e)) => format!("copy failed: saving {}: {e}", file.display()),
    }
}

impl App {
    /// Kills every live run and waits (bounded) for their ends, so no child outlives the console.
    pub async fn shutdown(&mut self, rx: &mut UnboundedReceiver<AppEvent>) {
        self.deck.pipeline().cancel_all();
        for run in self.router.runs.iter().filter(|r| r.is_live()) {
            self.deck.router().kill(run.run_id);
        }
        let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
        while self.live_work() > 0 {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(AppEvent::Core(CoreEvent::Router(ev, permit)))) => {
                    self.router.apply(ev, permit);
                    self.router.flush_pending();
                }
                Ok(Some(AppEvent::Core(CoreEvent::InvokeDone { call, outcome }))) => {
                    self.invoke.finish(call, outcome);
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
    }

    /// Per-frame time for sanitizing queued router output; the rest waits for the next frame.
    pub(crate) const OUTPUT_BUDGET: Duration = Duration::from_millis(4);

    /// Work due before a frame: sanitize queued output within the budget.
    pub(crate) fn before_draw(&mut self) {
        if std::mem::take(&mut self.bell_pending) {
            self.bell.ring();
        }
        if self.router.has_pending() {
            self.router.process_pending(Self::OUTPUT_BUDGET);
            if self.router.has_pending() {
                self.frames.schedule_frame();
            }
        }
    }

    /// Where the tabs were drawn (mouse clicks switch views).
    #[cfg(test)]
    pub(crate) fn tab_areas(&self) -> &[(Rect, ViewId)] {
        &self.tab_areas
    }
}

/// Runs blocking work (file reads and writes, config loads) off the console's task; its result
/// comes back as an event. Without a runtime (tests drawing views alone) it runs at once.
fn run_job(job: impl FnOnce() + Send + 'static) {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => {
            handle.spawn_blocking(job);
        }
        Err(_) => job(),
    }
}

/// What the status line says once `openclaw --version` settled the pack.
pub(crate) fn openclaw_version_status(pack: &crate::semantics::PackChoice) -> String {
    use crate::semantics::Installed;
    match &pack.installed {
        Installed::Version(version) => format!("OpenClaw {version} detected: pack {}", pack.pack),
        Installed::Unknown(why) => format!(
            "openclaw --version: {why}; pack {} ({})",
            pack.pack, pack.reason
        ),
        Installed::NotAsked | Installed::Detecting => {
            format!("pack {} ({})", pack.pack, pack.reason)
        }
    }
}
