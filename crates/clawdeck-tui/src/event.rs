//! The one event type of the console (codex's app_event.rs): terminal input, frame ticks, intents
//! that widgets emit (the App performs their side effects), and results and core events that
//! come back. Everything flows through one channel.

use crossterm::event::{KeyEvent, MouseEvent};
use serde_json::Value;
use tokio::sync::mpsc;

use super::view_id::ViewId;
use crate::context::PolicyContext;

#[derive(Debug)]
pub(crate) enum AppEvent {
    // --- terminal input ---
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize,
    Paste(String),
    /// The input reader stopped (stdin closed).
    InputClosed,

    // --- frames and time ---
    /// Draw now (sent by the frame scheduler only).
    Draw,
    /// Once a second; views with countdowns or waits ask for a frame on it.
    Tick,

    // --- intents: widgets ask, the App acts ---
    /// Quit without asking (already confirmed or nothing live).
    Quit,
    SwitchView(ViewId),
    /// The context bar changed: recompute policy, prompt and invoke availability.
    SetContext(PolicyContext),
    /// Re-read the config now.
    ReloadConfig,
    /// Rebuild the Prompt view (its format or mode changed).
    RefreshPrompt,
    /// Kill the run's process tree.
    KillRun {
        run_id: String,
    },
    /// Add (`extend = true`) or set the run's timeout, in seconds.
    SetRunTimeout {
        run_id: String,
        seconds: u64,
        extend: bool,
    },
    /// Start a router run.
    StartRun {
        agent: Option<String>,
        message: String,
    },
    SetLaneLimit {
        lane: String,
        limit: usize,
    },
    ClearLane {
        lane: String,
    },
    /// Kill one call of the lane queue (running or waiting) through the core.
    KillCall {
        id: crate::queue::EntryId,
    },
    /// Kill one local background exec session (its process group) through the deck.
    KillExecSession {
        id: String,
    },
    /// Run a tool through the pipeline with the current context; `call` numbers the call in
    /// the Invoke view's history and comes back in `CoreEvent::InvokeDone`.
    Invoke {
        call: u64,
        tool: String,
        params: Value,
    },
    /// Answer a gateway's exec approval (through the core's gateway desk); the answer comes
    /// back as `CoreEvent::Desk`.
    ResolveApproval {
        gateway: String,
        id: String,
        decision: crate::gateway::approvals::Decision,
    },
    /// Send a message into a gateway session (`chat.send`; `steer`: into its running turn)
    /// through the core's gateway desk; the turn's events come back as `CoreEvent::Desk`.
    ChatSession {
        gateway: String,
        key: String,
        message: String,
        steer: bool,
    },
    /// Stop a gateway session's running turn (`sessions.abort`), already confirmed.
    AbortSession {
        gateway: String,
        key: String,
    },
    /// Read the gateways' approval history or standing grants, or revoke a grant (through the
    /// core's gateway desk); the answers come back as `CoreEvent::Desk`.
    ApprovalLedger(LedgerAct),
    /// Run a tool on a gateway (`tools.invoke`, as `clawdeck invoke --via gateway`); `call`
    /// numbers it as in `Invoke` and comes back in `CoreEvent::Desk`.
    InvokeGateway {
        call: u64,
        gateway: String,
        tool: String,
        params: Value,
    },
    /// Copy a router run's retained record (complete up to its cap, gaps marked).
    CopyRun {
        run_id: u64,
    },
    /// Compare the Policy view with this gateway session's `tools.effective` (gateway, session
    /// key); None drops the comparison.
    CompareSession(Option<(String, String)>),
    /// Will this command run? exec's verdict for a command line in the Policy view's context;
    /// None drops it.
    CheckExecCommand(Option<String>),
    /// The Invoke view's exec parameters hold this command line (None: none): judge it.
    JudgeInvokeCommand(Option<String>),
    /// The Diff view's side b changed: recompute the what-if.
    RefreshDiff,
    /// A one-line message for the status bar.
    Status(String),
    /// Ask the operator first; `on_yes` is sent when they answer yes.
    Confirm {
        question: String,
        on_yes: Box<AppEvent>,
    },

    // --- results and core events ---
    Core(CoreEvent),
}

/// What the core reports back; each variant echoes the request it answers where there is one.
#[derive(Debug)]
pub(crate) enum CoreEvent {
    /// The watched config file changed on disk (or a reload was asked for).
    ConfigFileChanged,
    /// One event of a router run (start, chunk, deadline, note, finish).
    /// A router event with its pacing permit (given back when the console is done with it).
    Router(crate::router::RouterEvent, crate::deck::paced::Permit),
    /// The console fell behind the router's event stream and skipped this many events.
    RouterLagged(u64),
    /// A lane queue change (enqueued, started, waited too long, finished, limit, clear).
    Queue(crate::queue::QueueEvent),
    /// The console fell behind the queue's event stream.
    QueueLagged(u64),
    /// One poll of a gateway's health, usage or log (the Gateways view).
    Pulse {
        gateway: String,
        pulse: crate::gateway::pulse::Pulse,
    },
    /// A config reload job ended (`generation` numbers the request: only the newest counts).
    Reloaded {
        generation: u64,
        result: Result<std::sync::Arc<crate::deck::DeckState>, String>,
    },
    /// The installed `openclaw --version` answered (or gave up) after the first frame; the
    /// deck installed the config again with the pack it decides.
    OpenClawVersion(std::sync::Arc<crate::deck::DeckState>),
    /// A policy resolution job ended for the snapshot `state` (`generation`: only the newest
    /// counts).
    Resolved {
        generation: u64,
        state: std::sync::Arc<crate::deck::DeckState>,
        result: crate::deck::resolutions::Resolved,
    },
    /// A prompt build job ended (`generation` numbers the request: only the newest counts).
    PromptBuilt {
        generation: u64,
        result: Result<Box<crate::prompt::view::LlmView>, String>,
    },
    /// A copy's file was written (or not): the status line says which.
    Copied { message: String },
    /// A gateway roster event (connection change, session snapshot, `sessions.changed`).
    Gateway {
        gateway: String,
        event: crate::gateway::ClientEvent,
        /// Its pacing permit, given back when the event has been handled.
        permit: crate::deck::paced::Permit,
    },
    /// The gateway desk: approvals as they are requested and resolved, its connections' news,
    /// and the answers to `ResolveApproval` / `InvokeGateway`.
    Desk(crate::gateway::desk::DeskEvent),
    /// A gateway session comparison job ended (`generation`: only the newest counts).
    SessionChecked {
        generation: u64,
        result: Result<Box<crate::deck::session_compare::SessionCheck>, String>,
    },
    /// An exec verdict job ended (`generation`: only the newest counts).
    ExecChecked {
        generation: u64,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    },
    /// The verdict of the Invoke view's exec command (`generation`: only the newest counts).
    InvokeJudged {
        generation: u64,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    },
    /// The verdict of an exec approval's command, as the raising gateway's config sees it
    /// (this machine's without a core).
    ApprovalJudged {
        gateway: String,
        id: String,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    },
    /// A lint job for the installed config ended (`generation`: only the newest counts).
    Linted {
        generation: u64,
        result: Result<Box<crate::lint::LintReport>, String>,
    },
    /// A what-if diff job ended, with the version packs known (`generation`: only the newest
    /// counts).
    Diffed {
        generation: u64,
        result: Result<Box<crate::policy::diff::ResolutionDiff>, String>,
        packs: Vec<String>,
    },
    /// A call started from the Invoke view ended (echoes the call number).
    InvokeDone {
        call: u64,
        outcome: crate::pipeline::CallOutcome,
    },
}

/// The sending half of the one channel; cloned into every task and widget that emits events.
#[derive(Clone, Debug)]
pub(crate) struct AppEventSender {
    tx: mpsc::UnboundedSender<AppEvent>,
}

impl AppEventSender {
    pub(crate) fn channel() -> (AppEventSender, mpsc::UnboundedReceiver<AppEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (AppEventSender { tx }, rx)
    }

    /// Sends; returns false when the App is gone (senders then stop).
    pub(crate) fn send(&self, event: AppEvent) -> bool {
        self.tx.send(event).is_ok()
    }
}

/// History rows asked of each gateway.
pub(crate) const HISTORY_LIMIT: u64 = 100;

/// What the Approvals view asks the desk for (its history and grants sections).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LedgerAct {
    History { gateways: Vec<String> },
    Grants { gateways: Vec<String> },
    Revoke { gateway: String, grant_id: String },
}

impl LedgerAct {
    pub(crate) fn send_to(self, desk: &crate::gateway::desk::GatewayDesk) {
        match self {
            LedgerAct::History { gateways } => {
                for g in gateways {
                    desk.history(&g, HISTORY_LIMIT);
                }
            }
            LedgerAct::Grants { gateways } => {
                for g in gateways {
                    desk.grants(&g);
                }
            }
            LedgerAct::Revoke { gateway, grant_id } => desk.revoke_grant(&gateway, &grant_id),
        }
    }
}
