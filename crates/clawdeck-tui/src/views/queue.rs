//! Queue view: each lane (limit, running, queued, oldest wait) and the selected lane's entries
//! (tool, state, waited, running time, outcome). Waits past warnAfterMs are highlighted while
//! they wait. Limits change live (`+`/`-`); clearing a lane asks first. Enter moves the cursor
//! to the lane's entries, where the kill key kills the selected call (after asking) through
//! the core; its end comes back as queue events.

use std::collections::VecDeque;
use std::time::Duration;

use crossterm::event::MouseEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget};

use super::ViewCtx;
use crate::clock::short_duration;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::queue::{EntryId, EntryOutcome, EntrySnapshot, EntryState, QueueEvent, QueueSnapshot};
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::table::{list_table, render_selected};

/// Recent queue events kept for the log pane.
const LOG_LINES: usize = 200;

/// Which table the cursor moves in.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QueueFocus {
    #[default]
    Lanes,
    /// The selected lane's entries (to kill one).
    Entries,
    /// The local background exec sessions (`]`/`[`).
    Execs,
    /// The gateways' running and queued sessions (`]`/`[`; the kill key aborts one).
    GatewayRuns,
}

#[derive(Debug)]
pub(crate) struct QueueView {
    pub(crate) snapshot: Option<QueueSnapshot>,
    pub(crate) warn_after: Duration,
    pub(crate) selected: usize,
    pub(crate) focus: QueueFocus,
    /// The entry under the cursor when the focus is on the entries (by id: entries move from
    /// active to recent as they end).
    pub(crate) selected_entry: Option<EntryId>,
    /// Recent events, newest last (`lane: label started after 2.1s`).
    pub(crate) log: VecDeque<String>,
    /// Commands of background exec sessions whose process still runs: a finished `exec` entry
    /// for one of them moved to the background, it did not end.
    pub(crate) background: Vec<String>,
    /// The gateways' own running and queued sessions (a section of their own).
    pub(crate) gateway_runs: super::gateway_runs::GatewayRuns,
    /// The gateway run under the cursor (gateway, session key), kept across roster updates.
    pub(crate) selected_run: Option<(String, String)>,
    /// The local background exec sessions with their output (a section of their own).
    pub(crate) execs: super::background_execs::BackgroundExecs,
    lanes_area: Rect,
    /// The recent events (newest in sight until scrolled up).
    events: DetailPane,
}

fn outcome_label(outcome: &EntryOutcome) -> (String, Style) {
    match outcome {
        EntryOutcome::Ok => ("✓ ok".to_string(), theme::ok()),
        EntryOutcome::Error { message } => (format!("✗ error: {message}"), theme::error()),
        EntryOutcome::Cancelled => ("∅ cancelled".to_string(), theme::warning()),
        EntryOutcome::Cleared => ("∅ cleared".to_string(), theme::warning()),
        EntryOutcome::Abandoned => ("∅ abandoned".to_string(), theme::warning()),
        EntryOutcome::Panicked => ("✗ panicked".to_string(), theme::error()),
        EntryOutcome::Killed => ("■ killed by the operator".to_string(), theme::error()),
    }
}

/// The confirmation a kill asks for: what is killed and what its caller gets.
fn kill_question(entry: &EntrySnapshot) -> String {
    let what = format!("Kill call #{} ({})?", entry.id, entry.label);
    match entry.state {
        EntryState::Running => format!(
            "{what} Its tool is stopped (an exec's process tree is killed); its caller gets a \"killed by the operator\" result."
        ),
        _ => format!(
            "{what} It is waiting: it leaves the queue without running; its caller gets a \"killed by the operator\" result."
        ),
    }
}

impl Default for QueueView {
    fn default() -> Self {
        QueueView {
            snapshot: None,
            warn_after: Duration::ZERO,
            selected: 0,
            focus: QueueFocus::default(),
            selected_entry: None,
            log: VecDeque::new(),
            background: Vec::new(),
            gateway_runs: super::gateway_runs::GatewayRuns::default(),
            selected_run: None,
            execs: super::background_execs::BackgroundExecs::default(),
            lanes_area: Rect::default(),
            events: DetailPane::following_the_end(),
        }
    }
}

impl QueueView {
    pub(crate) fn selected_lane(&self) -> Option<String> {
        self.snapshot
            .as_ref()
            .and_then(|s| s.lanes.get(self.selected))
            .map(|l| l.lane.to_string())
    }

    /// The selected lane's entries as the table lists them: active first, then recent (newest
    /// first).
    fn lane_entries(&self) -> Vec<&EntrySnapshot> {
        let Some(snapshot) = &self.snapshot else {
            return Vec::new();
        };
        let lane = snapshot.lanes.get(self.selected).map(|l| &l.lane);
        snapshot
            .active
            .iter()
            .chain(snapshot.recent.iter().rev())
            .filter(|e| lane.is_none_or(|l| e.lane == *l))
            .collect()
    }

    /// Where the selected entry is in `lane_entries` (the first one when it is gone).
    fn entry_position(&self, entries: &[&EntrySnapshot]) -> usize {
        self.selected_entry
            .and_then(|id| entries.iter().position(|e| e.id == id))
            .unwrap_or(0)
    }

    /// The entry under the cursor, when the cursor is on the entries.
    pub(crate) fn selected_entry(&self) -> Option<&EntrySnapshot> {
        if self.focus != QueueFocus::Entries {
            return None;
        }
        let entries = self.lane_entries();
        let at = self.entry_position(&entries);
        entries.get(at).copied()
    }

    /// Something is waiting or running: times on screen change every second.
    pub(crate) fn needs_tick(&self) -> bool {
        self.snapshot.as_ref().is_some_and(|s| !s.active.is_empty())
            || !self.background.is_empty()
            || self.execs.running() > 0
            || self.gateway_runs.needs_tick()
    }

    pub(crate) fn set_snapshot(&mut self, snapshot: QueueSnapshot) {
        self.selected = self.selected.min(snapshot.lanes.len().saturating_sub(1));
        self.snapshot = Some(snapshot);
    }

    /// Adds an event to the log.
    pub fn record(&mut self, event: &QueueEvent) {
        let line = match event {
            QueueEvent::Enqueued {
                lane,
                label,
                queue_ahead,
                ..
            } => format!("{lane}: {label} queued ({queue_ahead} ahead)"),
            QueueEvent::Started {
                lane,
                label,
                waited,
                ..
            } => format!("{lane}: {label} started after {}", short_duration(*waited)),
            QueueEvent::WaitedTooLong {
                lane,
                label,
                waited,
                queue_ahead,
                ..
            } => {
                format!(
                    "⚠ {lane}: {label} still waiting after {} ({queue_ahead} ahead)",
                    short_duration(*waited)
                )
            }
            QueueEvent::Finished {
                lane,
                label,
                duration,
                outcome,
                ..
            } => {
                format!(
                    "{lane}: {label} finished {} in {}",
                    outcome.as_str(),
                    short_duration(*duration)
                )
            }
            QueueEvent::KillRequested {
                lane,
                label,
                running,
                ..
            } => {
                let what = if *running { "running" } else { "waiting" };
                format!("{lane}: {label} ({what}) kill requested by the operator")
            }
            QueueEvent::Cleared { lane, rejected } => {
                format!("{lane}: cleared {} waiting", rejected.len())
            }
            QueueEvent::LimitChanged { lane, old, new } => format!("{lane}: limit {old} → {new}"),
            QueueEvent::Rejected { lane, label } => format!("{lane}: {label} rejected (draining)"),
            QueueEvent::DrainingChanged { draining } => {
                if *draining {
                    "queue draining: new work is rejected".to_string()
                } else {
                    "queue accepting work".to_string()
                }
            }
        };
        if self.log.len() >= LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// A keymap action; true when it applied here. Clearing a lane and killing a call ask first.
    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if self.execs_action(action, ctx) {
            return true;
        }
        if self.events.scroll(action) {
            return true;
        }
        if self.focus == QueueFocus::Entries {
            let entries = self.lane_entries();
            let at = self.entry_position(&entries);
            if let Some(to) = crate::widgets::list::moved(at, action, entries.len(), 10) {
                self.selected_entry = entries.get(to).map(|e| e.id);
                return true;
            }
        }
        let lanes = self.snapshot.as_ref().map(|s| s.lanes.len()).unwrap_or(0);
        let lane = self
            .snapshot
            .as_ref()
            .and_then(|s| s.lanes.get(self.selected));
        // The lanes table is short: a page is all of it.
        if self.focus == QueueFocus::Lanes
            && let Some(to) = crate::widgets::list::moved(self.selected, action, lanes, lanes)
        {
            self.selected = to;
            return true;
        }
        match action {
            Action::Open => self.toggle_focus(ctx),
            Action::KillRun => self.ask_to_kill(ctx),
            Action::LaneLimitUp => {
                if let Some(l) = lane {
                    ctx.send(AppEvent::SetLaneLimit {
                        lane: l.lane.to_string(),
                        limit: l.limit + 1,
                    });
                }
            }
            Action::LaneLimitDown => match lane {
                Some(l) if l.limit > 1 => ctx.send(AppEvent::SetLaneLimit {
                    lane: l.lane.to_string(),
                    limit: l.limit - 1,
                }),
                Some(l) => ctx.status(format!("lane {}: the limit cannot go below 1", l.lane)),
                None => {}
            },
            Action::ClearLane => match lane {
                Some(l) if l.queued > 0 => ctx.send(AppEvent::Confirm {
                    question: format!(
                        "Clear lane `{}`? {} will be rejected (running ones continue).",
                        l.lane,
                        crate::widgets::count(l.queued, "waiting entry", "waiting entries")
                    ),
                    on_yes: Box::new(AppEvent::ClearLane {
                        lane: l.lane.to_string(),
                    }),
                }),
                Some(l) => ctx.status(format!("lane {} has nothing waiting", l.lane)),
                None => {}
            },
            _ => return false,
        }
        true
    }

    /// `]`/`[` move the cursor between the lanes, the background execs and the gateway runs;
    /// while it is on the execs or the runs, they take movement and the kill key.
    fn execs_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if matches!(action, Action::NextSection | Action::PrevSection) {
            self.move_section(action == Action::NextSection, ctx);
            return true;
        }
        match self.focus {
            QueueFocus::Execs => self.execs.handle_action(action, ctx),
            QueueFocus::GatewayRuns => self.runs_action(action, ctx),
            _ => false,
        }
    }

    /// The sections the cursor can be on, in `]` order (an empty one is left out).
    fn sections(&self) -> Vec<QueueFocus> {
        let mut order = vec![QueueFocus::Lanes];
        if !self.execs.is_empty() {
            order.push(QueueFocus::Execs);
        }
        if !self.gateway_runs.runs.is_empty() {
            order.push(QueueFocus::GatewayRuns);
        }
        order
    }

    fn move_section(&mut self, forward: bool, ctx: &ViewCtx) {
        let order = self.sections();
        if order.len() == 1 {
            ctx.status("no background exec session and no gateway run");
            return;
        }
        let here = match self.focus {
            QueueFocus::Entries => QueueFocus::Lanes,
            other => other,
        };
        let at = order.iter().position(|f| *f == here).unwrap_or(0);
        let to = if forward {
            (at + 1) % order.len()
        } else {
            (at + order.len() - 1) % order.len()
        };
        self.focus = order[to];
        match self.focus {
            QueueFocus::Execs => self.execs.focus(),
            QueueFocus::GatewayRuns => self.select_run(self.run_position()),
            _ => {}
        }
    }

    /// Where the selected gateway run is (the first one when it is gone).
    fn run_position(&self) -> usize {
        self.gateway_runs.position_of(self.selected_run.as_ref())
    }

    fn select_run(&mut self, at: usize) {
        self.selected_run = self
            .gateway_runs
            .runs
            .get(at)
            .map(|r| (r.gateway.clone(), r.key.clone()));
    }

    /// Movement over the gateway runs, and the kill key: abort the selected run after asking.
    fn runs_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        let runs = self.gateway_runs.runs.len();
        if let Some(to) = crate::widgets::list::moved(self.run_position(), action, runs, 10) {
            self.select_run(to);
            return true;
        }
        if action != Action::KillRun {
            return false;
        }
        match self.gateway_runs.runs.get(self.run_position()) {
            Some(run) if run.running => ctx.send(AppEvent::Confirm {
                question: super::sessions::session_chat::abort_question(&run.gateway, &run.key),
                on_yes: Box::new(AppEvent::AbortSession {
                    gateway: run.gateway.clone(),
                    key: run.key.clone(),
                }),
            }),
            Some(run) => ctx.status(format!(
                "{} on {} is queued, not running: nothing to abort yet",
                run.key, run.gateway
            )),
            None => ctx.status("no gateway run"),
        }
        true
    }

    /// Enter: the cursor goes to the lane's entries (its first one) or back to the lanes.
    fn toggle_focus(&mut self, ctx: &ViewCtx) {
        match self.focus {
            QueueFocus::Entries | QueueFocus::Execs | QueueFocus::GatewayRuns => {
                self.focus = QueueFocus::Lanes
            }
            QueueFocus::Lanes => {
                let first = self.lane_entries().first().map(|e| e.id);
                match (first, self.selected_lane()) {
                    (Some(id), _) => {
                        self.focus = QueueFocus::Entries;
                        self.selected_entry = Some(id);
                    }
                    (None, Some(lane)) => ctx.status(format!("lane {lane} has no entries")),
                    (None, None) => {}
                }
            }
        }
    }

    /// The kill key: asks about the selected call; a finished one or none says why not.
    fn ask_to_kill(&self, ctx: &ViewCtx) {
        if self.focus == QueueFocus::Lanes {
            let enter = ctx.keymap.key_label(Action::Open);
            ctx.status(format!(
                "select a call to kill first: {enter} moves the cursor to the lane's entries"
            ));
            return;
        }
        match self.selected_entry() {
            Some(entry) if entry.state != EntryState::Finished => ctx.send(AppEvent::Confirm {
                question: kill_question(entry),
                on_yes: Box::new(AppEvent::KillCall { id: entry.id }),
            }),
            Some(entry) if self.is_backgrounded(entry) => ctx.status(format!(
                "call #{} is over: its command went on as a background exec session (the process tool's kill ends it)",
                entry.id
            )),
            Some(entry) => ctx.status(format!("call #{} is not running", entry.id)),
            None => ctx.status("no call selected"),
        }
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.events.mouse(mouse) {
            return true;
        }
        let len = self.snapshot.as_ref().map(|s| s.lanes.len()).unwrap_or(0);
        crate::widgets::list::pick_row(&mut self.selected, self.lanes_area, mouse, 0, len, 1)
    }

    /// A finished `exec` entry whose command still runs as a background exec session.
    fn is_backgrounded(&self, e: &EntrySnapshot) -> bool {
        e.state == EntryState::Finished
            && matches!(e.outcome, Some(EntryOutcome::Ok))
            && e.label
                .strip_prefix("exec: ")
                .is_some_and(|cmd| self.background.iter().any(|b| b == cmd))
    }

    fn is_late(&self, e: &EntrySnapshot) -> bool {
        e.state == EntryState::Queued
            && (e.warned || (!self.warn_after.is_zero() && e.waited >= self.warn_after))
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let run_cursor = (self.focus == QueueFocus::GatewayRuns).then(|| self.run_position());
        let area = self.gateway_runs.render_below(area, buf, ctx, run_cursor);
        let execs_focused = self.focus == QueueFocus::Execs;
        let area = self.execs.render_below(area, buf, ctx, execs_focused);
        let Some(snapshot) = &self.snapshot else {
            Paragraph::new(Line::styled("no queue yet", theme::dim()))
                .block(Block::bordered().title(" Lanes "))
                .render(area, buf);
            return;
        };
        // At most a third of the height (but room for one lane), never more than the area.
        let cap = (area.height / 3 + 1).max(4).min(area.height);
        let lanes_height = (snapshot.lanes.len() as u16 + 3).clamp(cap.min(4), cap);
        let [lanes_area, entries_area, log_area] = Layout::vertical([
            Constraint::Length(lanes_height),
            Constraint::Fill(2),
            Constraint::Fill(1),
        ])
        .areas(area);
        self.lanes_area = lanes_area;
        self.render_lanes(snapshot, lanes_area, buf);
        let lane = snapshot.lanes.get(self.selected).map(|l| l.lane.clone());
        self.render_entries(lane.as_deref(), entries_area, buf);
        let lines: Vec<Line> = self.log.iter().map(|l| Line::raw(l.clone())).collect();
        self.events.set("events", lines);
        self.events
            .render(log_area, buf, "Queue events", ctx.keymap);
    }

    /// Each lane's limit, load and oldest wait (flagged once past the warning time).
    fn render_lanes(&self, snapshot: &QueueSnapshot, lanes_area: Rect, buf: &mut Buffer) {
        let warn_ms = self.warn_after.as_millis();
        let lane_rows: Vec<Row> = snapshot
            .lanes
            .iter()
            .map(|l| {
                let late = l
                    .oldest_wait
                    .is_some_and(|w| !self.warn_after.is_zero() && w >= self.warn_after);
                let wait = match l.oldest_wait {
                    Some(w) if late => {
                        Span::styled(format!("⚠ {}", short_duration(w)), theme::warning())
                    }
                    Some(w) => Span::raw(short_duration(w)),
                    None => Span::styled("-", theme::dim()),
                };
                Row::new(vec![
                    Span::raw(l.lane.to_string()),
                    Span::raw(l.limit.to_string()),
                    Span::raw(l.running.to_string()),
                    Span::raw(l.queued.to_string()),
                    wait,
                ])
            })
            .collect();
        let draining = if snapshot.draining {
            " · DRAINING (new work rejected)"
        } else {
            ""
        };
        let title = format!(" Lanes · warn after {warn_ms} ms{draining} ");
        let table = list_table(
            lane_rows,
            [
                Constraint::Length(16),
                Constraint::Length(6),
                Constraint::Length(8),
                Constraint::Length(7),
                Constraint::Fill(1),
            ],
            Row::new(vec!["lane", "limit", "running", "queued", "oldest wait"]),
            Block::bordered().title(title),
        );
        render_selected(table, lanes_area, buf, self.selected, 0);
    }

    /// The selected lane's entries: active, then recently finished.
    fn render_entries(&self, lane: Option<&str>, entries_area: Rect, buf: &mut Buffer) {
        let entries = self.lane_entries();
        let entry_cursor =
            (self.focus == QueueFocus::Entries).then(|| self.entry_position(&entries));
        let entry_rows: Vec<Row> = entries.iter().map(|e| self.entry_row(e)).collect();
        let lane_name = lane.unwrap_or("-").to_string();
        let block = Block::bordered().title(format!(
            " Entries of lane {lane_name} (active, then recent) · {} ",
            crate::widgets::count(entries.len(), "call", "calls")
        ));
        let block = if entry_cursor.is_some() {
            block.border_style(theme::accent())
        } else {
            block
        };
        if entry_rows.is_empty() {
            Paragraph::new(Line::styled(
                "nothing queued, running or recently finished in this lane",
                theme::dim(),
            ))
            .block(block)
            .render(entries_area, buf);
        } else {
            let table = list_table(
                entry_rows,
                [
                    Constraint::Length(6),
                    Constraint::Fill(2),
                    Constraint::Length(11),
                    Constraint::Length(8),
                    Constraint::Length(8),
                    Constraint::Fill(1),
                ],
                Row::new(vec![
                    "id",
                    "tool / label",
                    "state",
                    "waited",
                    "running",
                    "outcome",
                ]),
                block,
            );
            render_selected(table, entries_area, buf, entry_cursor, 0);
        }
    }

    /// One entry: id, label, state (a late wait is flagged), wait and run times, outcome.
    fn entry_row(&self, e: &EntrySnapshot) -> Row<'static> {
        let late = self.is_late(e);
        let (state, style) = match e.state {
            EntryState::Queued if late => ("⚠ waiting".to_string(), theme::warning()),
            EntryState::Queued => ("… waiting".to_string(), Style::default()),
            EntryState::Running => ("● running".to_string(), theme::accent()),
            EntryState::Finished => ("finished".to_string(), theme::dim()),
        };
        let backgrounded = self.is_backgrounded(e);
        let (state, style) = if backgrounded {
            ("↪ running".to_string(), theme::accent())
        } else {
            (state, style)
        };
        let outcome = match &e.outcome {
            _ if backgrounded => ("in the background".to_string(), theme::accent()),
            Some(o) => outcome_label(o),
            None => ("-".to_string(), theme::dim()),
        };
        let row = Row::new(vec![
            Span::raw(format!("#{}", e.id)),
            Span::raw(e.label.to_string()),
            Span::styled(state, style),
            Span::raw(short_duration(e.waited)),
            Span::raw(
                e.running_for
                    .map(short_duration)
                    .unwrap_or_else(|| "-".to_string()),
            ),
            Span::styled(outcome.0, outcome.1),
        ]);
        if late {
            row.style(theme::warning())
        } else {
            row
        }
    }
}
