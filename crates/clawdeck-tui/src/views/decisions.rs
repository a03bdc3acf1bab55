//! Decisions view: the decision log (the same records `clawdeck log` prints), newest first, as
//! calls are recorded by this console, `clawdeck mcp` servers and `clawdeck invoke`; the
//! selected record's context, rule, hooks and arguments hash below. The App reads the log and
//! hands the lines over; the view does no I/O.

use std::collections::VecDeque;

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget, Wrap};

use super::ViewCtx;
use crate::decision_log::{COLUMNS, CallEnd, DecisionKind, DecisionRecord, Entry};
use crate::keymap::Action;
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::table::{list_table, render_selected};

/// Records kept on screen; older ones are in the file (`clawdeck log`).
pub(crate) const KEPT: usize = 500;

#[derive(Debug, Default)]
pub(crate) struct DecisionsView {
    /// Newest first.
    pub(crate) records: VecDeque<DecisionRecord>,
    pub(crate) selected: usize,
    /// Lines that were not records, and the last one's place and problem.
    pub(crate) bad_lines: usize,
    pub(crate) last_bad: Option<String>,
    /// Where the log is read from (the title), or why it is not.
    pub(crate) source: Option<String>,
    pub(crate) unavailable: Option<String>,
    table_area: Rect,
    /// The selected call in full.
    detail: DetailPane,
}

fn decision_style(record: &DecisionRecord) -> Style {
    match (record.decision, record.outcome) {
        (DecisionKind::Shown, Some(CallEnd::Ok)) => theme::ok(),
        (DecisionKind::Shown, Some(CallEnd::Cancelled)) => theme::warning(),
        (DecisionKind::Shown, _) => theme::error(),
        (DecisionKind::Refused | DecisionKind::Blocked, _) => theme::warning(),
        (DecisionKind::InvalidParams | DecisionKind::UnknownTool, _) => theme::error(),
    }
}

/// What the pipeline decided, in the console's words (the log keeps its own: `shown` is a
/// call the policy let through, not something displayed).
pub(crate) fn decision_words(kind: DecisionKind) -> &'static str {
    match kind {
        DecisionKind::Shown => "allowed",
        DecisionKind::Refused => "policy refused",
        DecisionKind::Blocked => "hook blocked",
        DecisionKind::InvalidParams => "bad params",
        DecisionKind::UnknownTool => "unknown tool",
    }
}

impl DecisionsView {
    pub(crate) fn unavailable(reason: &str) -> Self {
        DecisionsView {
            unavailable: Some(reason.to_string()),
            ..DecisionsView::default()
        }
    }

    /// An empty view over the log at `source` (its place, for the title).
    pub(crate) fn reading(source: &str) -> Self {
        DecisionsView {
            source: Some(source.to_string()),
            ..DecisionsView::default()
        }
    }

    /// Adds lines read from the log (oldest first). The selection stays on the record it was
    /// on, or on the newest when it was there. Returns whether anything changed.
    pub(crate) fn push(&mut self, entries: Vec<Entry>) -> bool {
        let mut added = 0;
        let mut changed = false;
        for entry in entries {
            changed = true;
            match entry {
                Ok(record) => {
                    self.records.push_front(record);
                    added += 1;
                }
                Err(bad) => {
                    self.bad_lines += 1;
                    self.last_bad = Some(bad.to_string());
                }
            }
        }
        if self.selected > 0 {
            self.selected += added;
        }
        self.records.truncate(KEPT);
        self.selected = self.selected.min(self.records.len().saturating_sub(1));
        changed
    }

    pub(crate) fn selected_record(&self) -> Option<&DecisionRecord> {
        self.records.get(self.selected)
    }

    pub(crate) fn handle_action(&mut self, action: Action, _ctx: &ViewCtx) -> bool {
        if self.detail.scroll(action) {
            return true;
        }
        let page = self.table_area.height.saturating_sub(3) as usize;
        match crate::widgets::list::moved(self.selected, action, self.records.len(), page) {
            Some(to) => {
                self.selected = to;
                true
            }
            None => false,
        }
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.detail.mouse(mouse) {
            return true;
        }
        if !crate::widgets::mouse_in(self.table_area, mouse) {
            return false;
        }
        let last = self.records.len().saturating_sub(1);
        match mouse.kind {
            MouseEventKind::ScrollUp => self.selected = self.selected.saturating_sub(1),
            MouseEventKind::ScrollDown => self.selected = (self.selected + 1).min(last),
            _ => return false,
        }
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            crate::widgets::unavailable_pane(area, buf, "Decisions", reason, theme::error());
            return;
        }
        // The detail pane grows to its text, but the calls keep at least half the room.
        let (subject, lines) = self.detail_lines();
        self.detail.set(&subject, lines);
        let wanted = self.detail.rows_needed(area.width);
        let detail_height = if self.records.is_empty() && self.last_bad.is_none() {
            0
        } else {
            DetailPane::height_within(area.height, wanted, area.height / 2)
        };
        let [table_area, detail_area] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(detail_height)]).areas(area);
        self.table_area = table_area;
        let bad = if self.bad_lines > 0 {
            format!(
                " · {} skipped",
                crate::widgets::count(self.bad_lines, "bad line", "bad lines")
            )
        } else {
            String::new()
        };
        let title = format!(
            " Decisions · {}{bad} · {} ",
            crate::widgets::count(self.records.len(), "call", "calls"),
            self.source.as_deref().unwrap_or("decision log")
        );
        let block = Block::bordered().title(title);
        if self.records.is_empty() {
            Paragraph::new(Line::styled(
                "no calls recorded yet: calls from this console, clawdeck invoke and MCP clients appear here",
                theme::dim(),
            ))
            .wrap(Wrap { trim: true })
            .block(block)
            .render(table_area, buf);
        } else {
            let rows: Vec<Row> = self
                .records
                .iter()
                .map(|r| {
                    let style = decision_style(r);
                    let [time, client, tool, _, end, ms, why] = r.columns();
                    Row::new(vec![
                        Span::raw(time.get(11..).unwrap_or(&time).to_string()),
                        Span::raw(client),
                        Span::raw(tool),
                        Span::styled(decision_words(r.decision), style),
                        Span::styled(end.replace('_', " "), style),
                        Span::raw(ms),
                        Span::styled(why, theme::dim()),
                    ])
                })
                .collect();
            let [t, c, tool, d, o, ms, why] = COLUMNS.map(str::to_lowercase);
            let table = list_table(
                rows,
                [
                    Constraint::Length(8),
                    Constraint::Length(12),
                    Constraint::Length(16),
                    Constraint::Length(14),
                    Constraint::Length(9),
                    Constraint::Length(6),
                    Constraint::Fill(1),
                ],
                Row::new(vec![t, c, tool, d, o, ms, why]),
                block,
            );
            render_selected(table, table_area, buf, self.selected, 0);
        }
        self.detail
            .render(detail_area, buf, "Selected call", ctx.keymap);
    }

    /// The selected call's context, rule, hooks and arguments hash (or the last bad line).
    fn detail_lines(&self) -> (String, Vec<Line<'static>>) {
        let Some(r) = self.selected_record() else {
            // Nothing to detail; a bad line, if there was one, says what was wrong with it.
            let lines = self
                .last_bad
                .iter()
                .map(|bad| Line::styled(bad.clone(), theme::error()))
                .collect();
            return (String::new(), lines);
        };
        let label = |s: &'static str| Span::styled(s, theme::dim());
        let plain = |s: &str| crate::sanitize::plain(s).replace('\n', " ");
        let rule = match &r.rule {
            Some(rule) => plain(&format!(
                "{} {} {} — {}",
                rule.layer,
                rule.kind,
                rule.config_path
                    .as_deref()
                    .or(rule.builtin.as_deref())
                    .unwrap_or("-"),
                rule.reason
            )),
            None => plain(r.reason.as_deref().unwrap_or("-")),
        };
        let hooks: Vec<String> = r
            .hooks
            .iter()
            .map(|h| {
                format!(
                    "{} {}",
                    h["hook"].as_str().unwrap_or("?"),
                    h["outcome"].as_str().unwrap_or("?")
                )
            })
            .collect();
        let lines = vec![
            Line::from(vec![
                label("id "),
                Span::raw(r.id.clone()),
                label("  at "),
                Span::raw(r.time.clone()),
                label("  lane "),
                Span::raw(r.lane.clone().unwrap_or_else(|| "-".to_string())),
            ]),
            Line::from(vec![label("context "), Span::raw(context_text(&r.context))]),
            Line::from(vec![
                label(if r.rule.is_some() { "rule " } else { "why " }),
                Span::raw(rule),
            ]),
            Line::from(vec![
                label("hooks "),
                Span::raw(if hooks.is_empty() {
                    "-".to_string()
                } else {
                    plain(&hooks.join(", "))
                }),
            ]),
            Line::from(vec![
                label("arguments sha256 "),
                Span::raw(r.args_sha256.clone()),
            ]),
        ];
        (r.id.clone(), lines)
    }
}
/// The context a call ran in, as the context bar words it (`agent ops · channel telegram ·
/// sender id:42`); a call that named none ran in the default one, which is said.
fn context_text(context: &serde_json::Value) -> String {
    let fields: Vec<String> = context
        .as_object()
        .into_iter()
        .flatten()
        .map(|(key, value)| {
            let value = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            format!(
                "{key} {}",
                crate::sanitize::plain(&value).replace('\n', " ")
            )
        })
        .collect();
    if fields.is_empty() {
        "the default (the config's default agent; no channel, group or sender)".to_string()
    } else {
        fields.join(" · ")
    }
}
