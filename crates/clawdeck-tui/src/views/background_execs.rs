//! The Queue view's local background exec sessions (what `exec` with `background`/`yieldMs`
//! left running in this process): each with its command, age and last output line, and the
//! selected one's output tail (live, the deck keeps its last lines). `]`/`[` move the cursor
//! here; the kill key asks, then ends the session's process group through the deck.

use std::time::SystemTime;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Row};

use super::ViewCtx;
use crate::clock::short_duration;
use crate::deck::exec_sessions::ExecSessionView;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::table::{list_table, render_selected};

/// Below this height the Queue view has no room to share.
const MIN_VIEW_HEIGHT: u16 = 12;

#[derive(Debug)]
pub(crate) struct BackgroundExecs {
    pub(crate) sessions: Vec<ExecSessionView>,
    /// The session under the cursor (by id: sessions come and go).
    pub(crate) selected: Option<String>,
    tail: DetailPane,
}

impl Default for BackgroundExecs {
    fn default() -> Self {
        BackgroundExecs {
            sessions: Vec::new(),
            selected: None,
            tail: DetailPane::following_the_end(),
        }
    }
}

impl BackgroundExecs {
    pub(crate) fn set(&mut self, sessions: Vec<ExecSessionView>) {
        self.sessions = sessions;
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    pub(crate) fn running(&self) -> usize {
        self.sessions.iter().filter(|s| s.running()).count()
    }

    fn position(&self) -> usize {
        self.selected
            .as_ref()
            .and_then(|id| self.sessions.iter().position(|s| &s.id == id))
            .unwrap_or(0)
    }

    pub(crate) fn selected_session(&self) -> Option<&ExecSessionView> {
        self.sessions.get(self.position())
    }

    /// Puts the cursor on the first session when it is on none.
    pub(crate) fn focus(&mut self) {
        if self.selected_session().is_some() {
            self.selected = self.selected_session().map(|s| s.id.clone());
        }
    }

    /// Movement and the tail's scrolling while the cursor is here; true when it applied.
    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if self.tail.scroll(action) {
            return true;
        }
        if let Some(to) =
            crate::widgets::list::moved(self.position(), action, self.sessions.len(), 10)
        {
            self.selected = self.sessions.get(to).map(|s| s.id.clone());
            return true;
        }
        if action == Action::KillRun {
            self.ask_to_kill(ctx);
            return true;
        }
        false
    }

    /// The kill key: asks about the selected session (a finished one says so).
    fn ask_to_kill(&self, ctx: &ViewCtx) {
        match self.selected_session() {
            Some(s) if s.running() => ctx.send(AppEvent::Confirm {
                question: format!(
                    "Kill background exec {} ({})? Its process group (pid {}) is killed; the process tool then reports it killed.",
                    s.id, s.command, s.pid
                ),
                on_yes: Box::new(AppEvent::KillExecSession { id: s.id.clone() }),
            }),
            Some(s) => ctx.status(format!("background exec {} is not running", s.id)),
            None => ctx.status("no background exec session"),
        }
    }

    /// Draws the section at the bottom of `area` (the list beside the selected session's
    /// tail) and returns what is left above it; all of `area` when there is no session.
    pub(crate) fn render_below(
        &mut self,
        area: Rect,
        buf: &mut Buffer,
        ctx: &ViewCtx,
        focused: bool,
    ) -> Rect {
        if self.sessions.is_empty() || area.height < MIN_VIEW_HEIGHT {
            return area;
        }
        let wanted = self.sessions.len() as u16 + 3;
        let height = wanted.max(8).min(area.height / 2).max(5);
        let [rest, section] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(height)]).areas(area);
        let [list_area, tail_area] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(section);
        self.render_list(list_area, buf, ctx.clock.wall(), focused);
        self.render_tail(tail_area, buf, ctx);
        rest
    }

    fn render_list(&self, area: Rect, buf: &mut Buffer, now: SystemTime, focused: bool) {
        let rows: Vec<Row> = self.sessions.iter().map(|s| session_row(s, now)).collect();
        let title = format!(
            " Background execs · {} running, {} kept ",
            self.running(),
            self.sessions.len() - self.running()
        );
        let block = Block::bordered().title(title);
        let block = if focused {
            block.border_style(theme::accent())
        } else {
            block
        };
        let table = list_table(
            rows,
            [
                Constraint::Length(9),
                Constraint::Fill(3),
                Constraint::Length(6),
                Constraint::Length(12),
                Constraint::Fill(2),
            ],
            Row::new(vec!["id", "command", "age", "state", "last output"]),
            block,
        );
        render_selected(table, area, buf, focused.then(|| self.position()), 0);
    }

    fn render_tail(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let (subject, lines) = match self.selected_session() {
            Some(s) => {
                let mut lines: Vec<Line<'static>> = Vec::new();
                if s.earlier_lines > 0 {
                    lines.push(Line::styled(
                        format!("… {} earlier lines", s.earlier_lines),
                        theme::dim(),
                    ));
                }
                lines.extend(s.tail.iter().map(|l| Line::raw(l.clone())));
                if let Some(ended) = &s.ended {
                    lines.push(Line::styled(format!("[{ended}]"), theme::dim()));
                }
                (format!("output of {}", s.id), lines)
            }
            None => ("output".to_string(), Vec::new()),
        };
        self.tail.set(&subject, lines);
        self.tail.render(area, buf, &subject, ctx.keymap);
    }
}

/// One session: id, command, age (the console's clock), state, last output line.
fn session_row(s: &ExecSessionView, now: SystemTime) -> Row<'static> {
    let age = now
        .duration_since(s.started_at)
        .map(short_duration)
        .unwrap_or_else(|_| "-".to_string());
    let state = match &s.ended {
        None => Span::styled("● running", theme::accent()),
        // How it ended is in full at the end of its tail.
        Some(_) => Span::styled("■ ended", theme::dim()),
    };
    Row::new(vec![
        Span::raw(s.id.clone()),
        Span::raw(s.command.clone()),
        Span::raw(age),
        state,
        Span::styled(s.last_line().to_string(), theme::dim()),
    ])
}
