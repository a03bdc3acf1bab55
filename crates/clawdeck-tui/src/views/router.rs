//! Router view: the runs of `clawbot_router` (agent, message, state, elapsed / timeout
//! countdown, exit) and the selected run's raw stream. Kill, timeout and new-run requests are
//! sent as intents; the App calls the `RouterService`.

use std::collections::VecDeque;
use std::time::{Duration, Instant, SystemTime};

use crossterm::event::{KeyCode, KeyEvent, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Row, Widget};

use super::ViewCtx;
use crate::clock::short_duration;
use crate::deck::paced::Permit;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::router::{RouterEvent, RouterEventKind, RouterRun, RunStatus};
use crate::stream::{StreamBuffer, StreamKind, StreamPane, StreamPaneState};
use crate::theme;
use crate::widgets::line_input::{InputOutcome, LineInput};
use crate::widgets::table::{list_table, render_selected};

/// Seconds added by the extend-timeout key.
/// Columns one Left/Right key moves the stream view.
const HORIZONTAL_STEP: usize = 20;

pub(crate) const EXTEND_BY_SECONDS: u64 = 30;

/// One run as the view shows it.
#[derive(Debug, Clone)]
pub(crate) struct RunEntry {
    pub(crate) run_id: u64,
    pub(crate) agent: Option<String>,
    pub(crate) to: Option<String>,
    pub(crate) message: String,
    pub(crate) started_at: SystemTime,
    pub(crate) deadline: SystemTime,
    pub(crate) timeout_seconds: u64,
    /// None while running.
    pub(crate) status: Option<RunStatus>,
    pub(crate) exit: Option<String>,
    pub(crate) duration: Option<Duration>,
    pub(crate) buffer: StreamBuffer,
}

impl RunEntry {
    pub(crate) fn is_live(&self) -> bool {
        self.status.is_none()
    }

    fn target(&self) -> String {
        match (&self.agent, &self.to) {
            (Some(a), _) => a.clone(),
            (None, Some(to)) => format!("to {to}"),
            (None, None) => "-".to_string(),
        }
    }
}

/// What the prompt line at the bottom of the view is asking for.
#[derive(Debug, Clone)]
pub(crate) enum RouterInput {
    /// The task for the remote clawBot (typed) and the agent (picked from `agents`).
    NewRun {
        message: LineInput,
        agents: Vec<String>,
        agent: usize,
    },
    SetTimeout(LineInput),
    Search(LineInput),
}

#[derive(Debug, Default)]
pub(crate) struct RouterView {
    pub(crate) runs: Vec<RunEntry>,
    pub(crate) selected: usize,
    pub(crate) pane: StreamPaneState,
    pub(crate) input: Option<RouterInput>,
    /// Why runs cannot be started (no router service); shown instead of the stream.
    pub(crate) unavailable: Option<String>,
    /// Output not yet sanitized, oldest first, each chunk with its pacing permit (given back
    /// once sanitized), and the marks of skipped events in their place. Queuing is cheap; the
    /// sanitizing happens before frames within a time budget, so a flood never delays keys.
    pending: VecDeque<Pending>,
    /// Pieces of output sanitized so far (tests count the console's work with it).
    pub(crate) sanitized_pieces: u64,
    runs_area: Rect,
    stream_area: Rect,
    /// The context's agent: the new-run dialog starts with it.
    pub(crate) context_agent: Option<String>,
    /// Agent ids the config knows (the dialog warns about others).
    pub(crate) known_agents: Vec<String>,
    /// The operator started a run here: select it when its start arrives.
    follow_next_start: bool,
}

/// Sanitizing works through a chunk in pieces of about this size, so a frame's budget is
/// overrun by at most one piece, whatever size the reads of a flooding child had.
const SANITIZE_PIECE_BYTES: usize = 16 * 1024;

/// Output waiting to be sanitized, in arrival order.
#[derive(Debug)]
enum Pending {
    /// A chunk of a run's output; `done` bytes of it are sanitized already. Its permit goes
    /// back when the whole chunk is (the entry is dropped).
    Chunk {
        run_id: u64,
        kind: StreamKind,
        bytes: Vec<u8>,
        done: usize,
        _permit: Permit,
    },
    /// The console skipped this many events here (the broadcast moved on without it).
    Skipped(u64),
}

fn state_label(status: Option<RunStatus>) -> (&'static str, ratatui::style::Style) {
    match status {
        None => ("● running", theme::accent()),
        Some(RunStatus::Completed) => ("✓ completed", theme::ok()),
        Some(RunStatus::Failed) => ("✗ failed", theme::error()),
        Some(RunStatus::TimedOut) => ("⏱ timed out", theme::error()),
        Some(RunStatus::Killed) => ("■ killed", theme::warning()),
        Some(RunStatus::SpawnFailed) => ("✗ spawn failed", theme::error()),
    }
}

impl RouterView {
    /// Fills the view from the service's history (runs started before the console opened).
    pub(crate) fn load_history(&mut self, runs: Vec<RouterRun>) {
        for run in runs {
            if self.runs.iter().any(|r| r.run_id == run.run_id) {
                continue;
            }
            let mut buffer = StreamBuffer::default();
            let (status, exit, duration) = match &run.outcome {
                Some(o) => {
                    buffer.push_chunk(StreamKind::Stdout, o.raw.as_bytes());
                    for note in &o.notes {
                        buffer.push_note(note);
                    }
                    (
                        Some(o.status),
                        exit_label(o.exit_code, o.signal.as_deref()),
                        Some(o.duration),
                    )
                }
                None => (None, None, None),
            };
            self.runs.push(RunEntry {
                run_id: run.run_id,
                agent: run.agent,
                to: run.to,
                message: run.message,
                started_at: run.started_at,
                deadline: run.deadline,
                timeout_seconds: run.timeout_seconds,
                status,
                exit,
                duration,
                buffer,
            });
        }
        self.runs.sort_by_key(|r| r.run_id);
        self.selected = self.runs.len().saturating_sub(1);
    }

    /// Takes ends (and missed starts) from the service's history after events were skipped.
    pub(crate) fn reconcile(&mut self, runs: Vec<RouterRun>) {
        let missing: Vec<RouterRun> = runs
            .iter()
            .filter(|r| !self.runs.iter().any(|v| v.run_id == r.run_id))
            .cloned()
            .collect();
        let ends = runs.iter().any(|r| {
            r.outcome.is_some()
                && self
                    .runs
                    .iter()
                    .any(|e| e.run_id == r.run_id && e.is_live())
        });
        if ends {
            // An end's note goes after the output queued before it.
            self.flush_pending();
        }
        for run in runs {
            let Some(outcome) = run.outcome else { continue };
            if let Some(entry) = self
                .runs
                .iter_mut()
                .find(|e| e.run_id == run.run_id && e.is_live())
            {
                entry.status = Some(outcome.status);
                entry.exit = exit_label(outcome.exit_code, outcome.signal.as_deref());
                entry.duration = Some(outcome.duration);
                entry
                    .buffer
                    .push_note("some output was skipped: the console fell behind the stream");
            }
        }
        if !missing.is_empty() {
            let selected = self.selected;
            self.load_history(missing);
            self.selected = selected;
        }
    }

    /// Events were skipped (the console fell behind): every live run's pane says so where it
    /// happened; the copy (`y`) still has everything, from the run's own record. The mark
    /// waits behind the output queued before it: a flood lags often, and sanitizing the whole
    /// queue at each lag kept keys waiting for it (issue 23).
    pub(crate) fn mark_skipped(&mut self, events: u64) {
        if self.pending.is_empty() {
            note_skipped(&mut self.runs, events);
        } else {
            self.pending.push_back(Pending::Skipped(events));
        }
    }

    /// Whether output is waiting to be sanitized.
    pub(crate) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Sanitizes queued output, a piece at a time, until `budget` is spent; returns whether
    /// the selected run changed.
    pub(crate) fn process_pending(&mut self, budget: Duration) -> bool {
        let start = Instant::now();
        let selected = self.selected_run().map(|r| r.run_id);
        let mut changed = false;
        while let Some(next) = self.pending.front_mut() {
            let finished = match next {
                Pending::Skipped(events) => {
                    note_skipped(&mut self.runs, *events);
                    changed = true;
                    true
                }
                Pending::Chunk {
                    run_id,
                    kind,
                    bytes,
                    done,
                    ..
                } => {
                    let end = piece_end(bytes, *done);
                    if let Some(run) = self.runs.iter_mut().find(|r| r.run_id == *run_id) {
                        run.buffer.push_chunk(*kind, &bytes[*done..end]);
                        changed |= Some(*run_id) == selected;
                    }
                    *done = end;
                    end >= bytes.len()
                }
            };
            if finished {
                // Dropping a chunk's entry gives its permit back.
                self.pending.pop_front();
            }
            self.sanitized_pieces += 1;
            if start.elapsed() >= budget {
                break;
            }
        }
        changed
    }

    /// Sanitizes everything queued (before notes, ends, copy and search).
    pub(crate) fn flush_pending(&mut self) {
        self.process_pending(Duration::MAX);
    }

    pub(crate) fn selected_run(&self) -> Option<&RunEntry> {
        self.runs.get(self.selected)
    }

    pub(crate) fn live_runs(&self) -> usize {
        self.runs.iter().filter(|r| r.is_live()).count()
    }

    /// Applies one router event; returns true when the visible state changed. A chunk is
    /// only queued (its bytes moved, not copied): it is sanitized before a frame.
    pub fn apply(&mut self, event: RouterEvent, permit: Permit) -> bool {
        if let RouterEventKind::Chunk { stream, bytes, .. } = event.kind {
            if self.runs.iter().any(|r| r.run_id == event.run_id) {
                self.pending.push_back(Pending::Chunk {
                    run_id: event.run_id,
                    kind: StreamKind::from(stream),
                    bytes,
                    done: 0,
                    _permit: permit,
                });
            }
            return false;
        }
        let event = &event;
        if let RouterEventKind::Started {
            agent,
            to,
            message,
            timeout_seconds,
            started_at,
            deadline,
            ..
        } = &event.kind
        {
            if self.runs.iter().any(|r| r.run_id == event.run_id) {
                return false;
            }
            let follow_new = std::mem::take(&mut self.follow_next_start)
                || self.selected_run().is_none_or(|r| !r.is_live());
            self.runs.push(RunEntry {
                run_id: event.run_id,
                agent: agent.clone(),
                to: to.clone(),
                message: message.clone(),
                started_at: *started_at,
                deadline: *deadline,
                timeout_seconds: *timeout_seconds,
                status: None,
                exit: None,
                duration: None,
                buffer: StreamBuffer::default(),
            });
            if follow_new {
                self.selected = self.runs.len() - 1;
                self.pane = StreamPaneState {
                    height: self.pane.height,
                    ..Default::default()
                };
            }
            return true;
        }
        // Notes and ends go after the output that came before them.
        self.flush_pending();
        let selected_id = self.selected_run().map(|r| r.run_id);
        let Some(run) = self.runs.iter_mut().find(|r| r.run_id == event.run_id) else {
            return false;
        };
        match &event.kind {
            RouterEventKind::Started { .. } | RouterEventKind::Chunk { .. } => {}
            RouterEventKind::DeadlineChanged {
                timeout_seconds,
                deadline,
            } => {
                run.timeout_seconds = *timeout_seconds;
                run.deadline = *deadline;
                run.buffer
                    .push_note(&format!("timeout set to {timeout_seconds} s"));
            }
            RouterEventKind::Note { text } => run.buffer.push_note(text),
            RouterEventKind::Finished { outcome } => {
                run.status = Some(outcome.status);
                run.exit = exit_label(outcome.exit_code, outcome.signal.as_deref());
                run.duration = Some(outcome.duration);
                run.buffer.flush_partials();
                // The tool's own closing text (timeout note, spawn failure and install hint).
                for line in outcome
                    .appended_text()
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                {
                    run.buffer.push_note(line);
                }
                // The same in English for the operator.
                if let Some(note) = &outcome.operator_note {
                    run.buffer.push_note(note);
                }
                run.buffer.push_note(&end_note(
                    outcome.status,
                    outcome.exit_code,
                    outcome.signal.as_deref(),
                    outcome.duration,
                    run.buffer.output_lines(),
                ));
            }
        }
        // Output of a run nobody is looking at needs no frame.
        selected_id == Some(event.run_id)
    }

    /// Keys while the prompt line is open; returns true when consumed.
    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        let Some(input) = self.input.as_mut() else {
            return false;
        };
        match input {
            RouterInput::NewRun {
                message,
                agents,
                agent,
            } => {
                // The arrows and Tab pick the agent; everything typed is the message.
                let n = agents.len().max(1);
                match key.code {
                    KeyCode::Down | KeyCode::Tab => {
                        *agent = (*agent + 1) % n;
                        return true;
                    }
                    KeyCode::Up | KeyCode::BackTab => {
                        *agent = (*agent + n - 1) % n;
                        return true;
                    }
                    _ => {}
                }
                match message.handle_key(key) {
                    InputOutcome::Submitted => {
                        if message.text.trim().is_empty() {
                            ctx.status(
                                "the message is empty; type the task for the remote clawBot",
                            );
                            return true;
                        }
                        ctx.send(AppEvent::StartRun {
                            agent: agents.get(*agent).cloned(),
                            message: message.text.clone(),
                        });
                        self.input = None;
                        // The pane shows the new run when it starts.
                        self.follow_next_start = true;
                    }
                    InputOutcome::Cancelled => self.input = None,
                    _ => {}
                }
            }
            RouterInput::SetTimeout(field) => match field.handle_key(key) {
                InputOutcome::Submitted => {
                    match (
                        field.text.trim().parse::<u64>(),
                        self.runs.get(self.selected),
                    ) {
                        (Ok(seconds), Some(run)) if seconds > 0 => {
                            let set = AppEvent::SetRunTimeout {
                                run_id: run.run_id.to_string(),
                                seconds,
                                extend: false,
                            };
                            let elapsed = ctx
                                .clock
                                .wall()
                                .duration_since(run.started_at)
                                .unwrap_or_default()
                                .as_secs();
                            if run.is_live() && seconds <= elapsed {
                                ctx.send(AppEvent::Confirm {
                                    question: format!(
                                        "Run #{} has run for {elapsed} s: a timeout of {seconds} s ends it now. Set it?",
                                        run.run_id
                                    ),
                                    on_yes: Box::new(set),
                                });
                            } else {
                                ctx.send(set);
                            }
                        }
                        _ => ctx.status(format!(
                            "timeout: `{}` is not a number of seconds",
                            field.text.trim()
                        )),
                    }
                    self.input = None;
                }
                InputOutcome::Cancelled => self.input = None,
                _ => {}
            },
            RouterInput::Search(field) => {
                let outcome = field.handle_key(key);
                self.pane.query = field.text.clone();
                match outcome {
                    InputOutcome::Submitted => {
                        self.input = None;
                        self.search(true, ctx);
                    }
                    InputOutcome::Cancelled => self.input = None,
                    _ => {}
                }
            }
        }
        true
    }

    pub(crate) fn paste(&mut self, text: &str) -> bool {
        match self.input.as_mut() {
            Some(RouterInput::NewRun { message, .. }) => message.insert_str(text),
            Some(RouterInput::SetTimeout(f)) | Some(RouterInput::Search(f)) => f.insert_str(text),
            None => return false,
        }
        true
    }

    fn search(&mut self, forward: bool, ctx: &ViewCtx) {
        let Some(run) = self.runs.get(self.selected) else {
            return;
        };
        if self.pane.query.is_empty() {
            return;
        }
        if !self.pane.search(&run.buffer, forward) {
            ctx.status(format!(
                "`{}` not found in run #{}",
                self.pane.query, run.run_id
            ));
        } else if let Some(hit) = self.pane.hit {
            let (rank, total) = run.buffer.match_rank(&self.pane.query, hit);
            ctx.status(format!(
                "`{}`: match {rank} of {total} in run #{} (n / N for the next / previous)",
                self.pane.query, run.run_id
            ));
        }
    }

    fn select(&mut self, index: usize) {
        if index < self.runs.len() && index != self.selected {
            self.selected = index;
            self.pane = StreamPaneState {
                height: self.pane.height,
                ..Default::default()
            };
        }
    }

    /// Handles a keymap action; returns true when it applied here.
    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if matches!(
            action,
            Action::CopyOutput | Action::Search | Action::SearchNext | Action::SearchPrev
        ) {
            self.flush_pending();
        }
        let run = self.runs.get(self.selected);
        match action {
            Action::Up | Action::Down => {
                if let Some(to) =
                    crate::widgets::list::moved(self.selected, action, self.runs.len(), 1)
                {
                    self.select(to);
                }
            }
            Action::PageUp => {
                if let Some(run) = run {
                    self.pane.page_up(&run.buffer);
                }
            }
            Action::PageDown => {
                if let Some(run) = run {
                    self.pane.page_down(&run.buffer);
                }
            }
            Action::Top => {
                if let Some(run) = run {
                    self.pane.home(&run.buffer);
                }
            }
            Action::Bottom | Action::Follow => self.pane.end(),
            // The stream is the view's lower pane.
            Action::DetailUp | Action::DetailDown => {
                if let Some(run) = run {
                    let half = (self.pane.height / 2).max(1);
                    if action == Action::DetailUp {
                        self.pane.scroll_up(&run.buffer, half);
                    } else {
                        self.pane.scroll_down(&run.buffer, half);
                    }
                }
            }
            Action::ScrollLeft => self.pane.scroll_left(HORIZONTAL_STEP),
            Action::ScrollRight => self.pane.scroll_right(HORIZONTAL_STEP),
            Action::KillRun => match run {
                Some(run) if run.is_live() => ctx.send(AppEvent::Confirm {
                    question: format!(
                        "Kill run #{} ({})? Its process group gets SIGTERM, then SIGKILL.",
                        run.run_id,
                        run.target()
                    ),
                    on_yes: Box::new(AppEvent::KillRun {
                        run_id: run.run_id.to_string(),
                    }),
                }),
                Some(run) => ctx.status(format!("run #{} is not running", run.run_id)),
                None => ctx.status("no run selected"),
            },
            Action::ExtendTimeout => match run {
                Some(run) if run.is_live() => ctx.send(AppEvent::SetRunTimeout {
                    run_id: run.run_id.to_string(),
                    seconds: EXTEND_BY_SECONDS,
                    extend: true,
                }),
                _ => ctx.status("no running run selected"),
            },
            Action::SetTimeout => match run {
                Some(run) if run.is_live() => {
                    self.input = Some(RouterInput::SetTimeout(LineInput::new(
                        run.timeout_seconds.to_string(),
                    )))
                }
                _ => ctx.status("no running run selected"),
            },
            Action::NewRun => self.open_new_run(ctx),
            Action::Search => {
                self.input = Some(RouterInput::Search(LineInput::new(self.pane.query.clone())))
            }
            Action::SearchNext => self.search(true, ctx),
            Action::SearchPrev => self.search(false, ctx),
            Action::CopyOutput => match run {
                Some(run) => ctx.send(AppEvent::CopyRun { run_id: run.run_id }),
                None => ctx.status("no run selected"),
            },
            _ => return false,
        }
        true
    }

    /// Opens the new-run input: the config's agents, starting at the context's; the message
    /// has the focus.
    fn open_new_run(&mut self, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            ctx.status(format!("cannot start runs: {reason}"));
            return;
        }
        let mut agents = self.known_agents.clone();
        let context = self.context_agent.clone();
        if let Some(c) = context.as_ref().filter(|c| !agents.contains(c)) {
            agents.insert(0, c.clone());
        }
        if agents.is_empty() {
            agents.push("main".to_string());
        }
        let agent = context
            .and_then(|c| agents.iter().position(|a| *a == c))
            .unwrap_or(0);
        self.input = Some(RouterInput::NewRun {
            message: LineInput::default(),
            agents,
            agent,
        });
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        let inside = |r: Rect| crate::widgets::mouse_in(r, mouse);
        match mouse.kind {
            MouseEventKind::Down(_) if inside(self.runs_area) => {
                // Row 0 is the border, row 1 the header.
                let row = mouse.row.saturating_sub(self.runs_area.y + 2) as usize;
                if mouse.row >= self.runs_area.y + 2 {
                    let offset = self.runs_offset();
                    self.select(offset + row);
                }
                true
            }
            MouseEventKind::ScrollUp if inside(self.stream_area) => {
                if let Some(run) = self.runs.get(self.selected) {
                    self.pane.scroll_up(&run.buffer, 3);
                }
                true
            }
            MouseEventKind::ScrollDown if inside(self.stream_area) => {
                if let Some(run) = self.runs.get(self.selected) {
                    self.pane.scroll_down(&run.buffer, 3);
                }
                true
            }
            MouseEventKind::ScrollUp if inside(self.runs_area) => {
                self.select(self.selected.saturating_sub(1));
                true
            }
            MouseEventKind::ScrollDown if inside(self.runs_area) => {
                self.select((self.selected + 1).min(self.runs.len().saturating_sub(1)));
                true
            }
            _ => false,
        }
    }

    fn runs_rows(&self) -> usize {
        self.runs_area.height.saturating_sub(3) as usize
    }

    fn runs_offset(&self) -> usize {
        let rows = self.runs_rows().max(1);
        (self.selected + 1).saturating_sub(rows)
    }

    /// Whether a frame is needed every second (a countdown is on screen).
    pub(crate) fn needs_tick(&self) -> bool {
        self.runs.iter().any(RunEntry::is_live)
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let input_height = match self.input {
            Some(RouterInput::NewRun { .. }) => 4,
            Some(_) => 3,
            None => 0,
        };
        let runs_height = (self.runs.len() as u16 + 3).clamp(4, (area.height / 3).max(4));
        let [runs_area, stream_area, input_area] = Layout::vertical([
            Constraint::Length(runs_height),
            Constraint::Fill(1),
            Constraint::Length(input_height),
        ])
        .areas(area);
        self.runs_area = runs_area;
        self.render_runs(runs_area, buf, ctx);
        self.render_stream(stream_area, buf, ctx);
        if self.input.is_some() {
            self.render_input(input_area, buf);
        }
    }

    fn render_runs(&self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let now = ctx.clock.wall();
        let rows: Vec<Row> = self
            .runs
            .iter()
            .map(|r| {
                let (state, style) = state_label(r.status);
                let elapsed = match r.duration {
                    Some(d) => short_duration(d),
                    None => short_duration(now.duration_since(r.started_at).unwrap_or_default()),
                };
                let timeout = if r.is_live() {
                    let left = r.deadline.duration_since(now).unwrap_or_default();
                    format!("{}s left of {}s", left.as_secs(), r.timeout_seconds)
                } else {
                    format!("{}s", r.timeout_seconds)
                };
                Row::new(vec![
                    Span::raw(format!("#{}", r.run_id)),
                    Span::raw(r.target()),
                    Span::raw(r.message.replace(['\n', '\r', '\t'], " ")),
                    Span::styled(state, style),
                    Span::raw(elapsed),
                    Span::raw(timeout),
                    Span::raw(r.exit.clone().unwrap_or_else(|| "-".to_string())),
                ])
            })
            .collect();
        let live = self.live_runs();
        let title = format!(" Runs ({} total, {live} running) ", self.runs.len());
        let block = Block::bordered().title(title);
        if self.runs.is_empty() {
            let hint = match &self.unavailable {
                Some(reason) => {
                    Line::styled(format!("router unavailable: {reason}"), theme::error())
                }
                None => Line::styled(
                    format!(
                        "no router runs yet; press {} to start one (type the task, pick the agent)",
                        ctx.keymap.key_label(Action::NewRun)
                    ),
                    theme::dim(),
                ),
            };
            Paragraph::new(hint).block(block).render(area, buf);
            return;
        }
        let table = list_table(
            rows,
            [
                Constraint::Length(5),
                Constraint::Length(14),
                Constraint::Fill(1),
                Constraint::Length(15),
                Constraint::Length(8),
                Constraint::Length(16),
                Constraint::Length(10),
            ],
            Row::new(vec![
                "run", "agent", "message", "state", "elapsed", "timeout", "exit",
            ]),
            block,
        );
        render_selected(table, area, buf, self.selected, self.runs_offset());
    }

    fn render_stream(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let Some(run) = self.runs.get(self.selected) else {
            Block::bordered().title(" Output ").render(area, buf);
            self.stream_area = area;
            return;
        };
        let mode = if self.pane.follow {
            "following"
        } else {
            "paused (End or f follows)"
        };
        let mut title = format!(
            " Output of run #{} · {mode} · {} lines",
            run.run_id,
            run.buffer.display_len()
        );
        if run.buffer.dropped() > 0 {
            title.push_str(&format!(
                " · {} earlier ones not kept here ({} copies the record)",
                run.buffer.dropped(),
                ctx.keymap.key_label(Action::CopyOutput)
            ));
        }
        if self.pane.left > 0 {
            title.push_str(&format!(" · columns from {} (← →)", self.pane.left + 1));
        }
        if run.buffer.neutralised() > 0 {
            title.push_str(&format!(
                " · {}",
                crate::widgets::count(
                    run.buffer.neutralised() as usize,
                    "control sequence",
                    "control sequences"
                )
            ));
            title.push_str(" neutralised");
        }
        if !self.pane.query.is_empty() {
            title.push_str(&format!(" · search `{}`", self.pane.query));
        }
        title.push(' ');
        let block = Block::bordered().title(title).title_bottom(Line::styled(
            " │ stdout   E│ stderr   »│ clawdeck ",
            theme::dim(),
        ));
        let inner = block.inner(area);
        block.render(area, buf);
        self.stream_area = inner;
        if run.buffer.display_len() == 0 {
            let text = if run.is_live() {
                "waiting for output…"
            } else {
                "(no output)"
            };
            buf.set_string(inner.x + 1, inner.y, text, theme::dim());
            return;
        }
        let _ = ctx;
        StreamPane {
            buffer: &run.buffer,
        }
        .render(inner, buf, &mut self.pane);
    }

    fn render_input(&self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let Some(input) = &self.input else { return };
        let (title, hint) = match input {
            RouterInput::NewRun { .. } => (
                " New router run ",
                " type the task · ↑ ↓ or Tab: agent · Enter starts · Esc cancels ",
            ),
            RouterInput::SetTimeout(_) => (
                " Set timeout ",
                " seconds from the run's start · Enter sets · Esc cancels ",
            ),
            RouterInput::Search(_) => (
                " Search the stream ",
                " Enter searches · n / N next / previous · Esc cancels ",
            ),
        };
        let block = Block::bordered()
            .title(title)
            .title_bottom(Line::styled(hint, theme::dim()))
            .border_style(theme::accent());
        let inner = block.inner(area);
        block.render(area, buf);
        match input {
            RouterInput::NewRun {
                message,
                agents,
                agent,
            } => {
                let [m, a] =
                    Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).areas(inner);
                message.render("message: ", m, buf, true);
                let name = agents.get(*agent).cloned().unwrap_or_default();
                let others = if agents.len() > 1 {
                    format!(
                        "  ({} of {}: {})",
                        agent + 1,
                        agents.len(),
                        agents.join(", ")
                    )
                } else {
                    "  (the config's only agent)".to_string()
                };
                Line::from(vec![
                    Span::styled("agent: ", theme::dim()),
                    Span::styled(format!("‹ {name} ›"), theme::accent().patch(theme::bold())),
                    Span::styled(others, theme::dim()),
                ])
                .render(a, buf);
            }
            RouterInput::SetTimeout(f) => f.render("timeout (s): ", inner, buf, true),
            RouterInput::Search(f) => f.render("/", inner, buf, true),
        }
    }
}

/// The note that ends a run's stream, every number named: `run ✓ completed in 8.7s · exit
/// code 0 · 3 lines of output`.
pub(crate) fn end_note(
    status: RunStatus,
    code: Option<i32>,
    signal: Option<&str>,
    duration: Duration,
    lines: u64,
) -> String {
    let (label, _) = state_label(Some(status));
    let exit = match (code, signal) {
        (_, Some(sig)) => format!(" · ended by {sig}"),
        (Some(c), None) => format!(" · exit code {c}"),
        (None, None) => String::new(),
    };
    let lines = crate::widgets::count(lines as usize, "line", "lines");
    format!(
        "run {label} in {}{exit} · {lines} of output",
        short_duration(duration)
    )
}

/// Where a piece of `bytes` starting at `done` ends: after its last newline when it has one,
/// so pieces are whole lines; the rest of the chunk when that is short.
fn piece_end(bytes: &[u8], done: usize) -> usize {
    let end = done.saturating_add(SANITIZE_PIECE_BYTES);
    if end >= bytes.len() {
        return bytes.len();
    }
    match memchr::memrchr(b'\n', &bytes[done..end]) {
        Some(i) => done + i + 1,
        None => end,
    }
}

/// Marks skipped events in every live run's pane.
fn note_skipped(runs: &mut [RunEntry], events: u64) {
    for run in runs.iter_mut().filter(|r| r.is_live()) {
        run.buffer.push_note(&format!(
            "⋯ {events} events skipped here: the console fell behind the stream (y copies the complete record)"
        ));
    }
}

/// `0`, `1`, `SIGKILL` (exit code or signal name).
fn exit_label(code: Option<i32>, signal: Option<&str>) -> Option<String> {
    match (code, signal) {
        (_, Some(sig)) => Some(sig.to_string()),
        (Some(c), None) => Some(c.to_string()),
        (None, None) => None,
    }
}
