//! The Approvals view's other two sections: the gateways' approval history (`approval.history`:
//! allowed, denied, expired and cancelled approvals of every kind, newest first) and the
//! standing grants allow-always minted on automation approvals (`exec.approval.grants.list`),
//! each grant revocable (asks first). Read through the core's gateway desk on request; the
//! answers come back as `DeskEvent::History` / `Grants` / `RevokeDone`.

use std::collections::BTreeMap;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Row};

use crate::gateway::approval_ledger::{Grant, HistoryEntry};
use crate::gateway::desk::DeskEvent;
use crate::sanitize::visible;
use crate::theme;
use crate::widgets::table::{list_table, render_selected};

/// Per gateway: not asked yet (absent), asked (None), or its answer.
type PerGateway<T> = BTreeMap<String, Option<Result<Vec<T>, String>>>;

#[derive(Debug, Default)]
pub(crate) struct Ledger {
    pub(crate) history: PerGateway<HistoryEntry>,
    pub(crate) grants: PerGateway<Grant>,
    pub(crate) selected: usize,
    /// The selected row's (gateway, id) in the list shown: a fresh answer re-orders rows, the
    /// selection stays on the entry (a grant to revoke above all).
    picked: Option<(String, String)>,
    /// Whether the list shown (and picked in) is the grants one.
    showing_grants: bool,
}

fn rows_of<T: Clone>(per: &PerGateway<T>) -> Vec<T> {
    per.values()
        .flatten()
        .filter_map(|r| r.as_ref().ok())
        .flatten()
        .cloned()
        .collect()
}

/// "asking local…" / "local: error" lines for the gateways that have not answered well.
fn notes<T>(per: &PerGateway<T>) -> Vec<Line<'static>> {
    per.iter()
        .filter_map(|(g, state)| match state {
            None => Some(Line::styled(format!("{g}: asking…"), theme::dim())),
            Some(Err(e)) => Some(Line::styled(
                format!("{g}: {}", visible(e).text),
                theme::error(),
            )),
            Some(Ok(_)) => None,
        })
        .collect()
}

impl Ledger {
    /// Marks `gateways` as asked for history (their old answers stay until the new come).
    pub(crate) fn asking_history(&mut self, gateways: &[String]) {
        for g in gateways {
            self.history.entry(g.clone()).or_insert(None);
        }
    }

    pub(crate) fn asking_grants(&mut self, gateways: &[String]) {
        for g in gateways {
            self.grants.entry(g.clone()).or_insert(None);
        }
    }

    /// History, newest first across gateways.
    pub(crate) fn history_rows(&self) -> Vec<HistoryEntry> {
        let mut rows = rows_of(&self.history);
        rows.sort_by_key(|e| std::cmp::Reverse(e.resolved_at_ms.unwrap_or(0)));
        rows
    }

    pub(crate) fn grant_rows(&self) -> Vec<Grant> {
        rows_of(&self.grants)
    }

    /// The (gateway, id) of each row of the history (`grants` false) or the grants list.
    fn row_ids(&self, grants: bool) -> Vec<(String, String)> {
        if grants {
            let rows = self.grant_rows().into_iter();
            rows.map(|g| (g.gateway, g.grant_id)).collect()
        } else {
            let rows = self.history_rows().into_iter();
            rows.map(|e| (e.gateway, e.id)).collect()
        }
    }

    /// Selects row `to` of the history or grants list (`None`: the first, for a list just opened).
    pub(crate) fn select(&mut self, grants: bool, to: Option<usize>) {
        self.selected = to.unwrap_or(0);
        self.showing_grants = grants;
        self.picked = self.row_ids(grants).get(self.selected).cloned();
    }

    /// Back on the picked entry after its list changed; where it is gone, the row number
    /// stands and the pick moves to what is there.
    fn follow_pick(&mut self, grants: bool) {
        if grants != self.showing_grants {
            return;
        }
        let ids = self.row_ids(grants);
        (self.selected, self.picked) =
            crate::widgets::list::keep_pick(&ids, self.picked.as_ref(), self.selected);
    }

    /// Applies a desk answer; the status line's text when it has one to say.
    pub(crate) fn apply(&mut self, event: DeskEvent) -> Option<String> {
        match event {
            DeskEvent::History { gateway, result } => {
                self.history.insert(gateway, Some(result));
                self.follow_pick(false);
                None
            }
            DeskEvent::Grants { gateway, result } => {
                self.grants.insert(gateway, Some(result));
                self.follow_pick(true);
                None
            }
            DeskEvent::RevokeDone {
                gateway,
                grant_id,
                result,
            } => {
                let id = visible(&grant_id).text;
                Some(match result {
                    Ok(outcome) => format!("grant {id} on {gateway}: {outcome}"),
                    Err(e) => format!("grant {id} on {gateway}: not revoked: {e}"),
                })
            }
            _ => None,
        }
    }

    pub(crate) fn render_history(&mut self, area: Rect, buf: &mut Buffer, title: &str) {
        let rows = self.history_rows();
        self.selected = self.selected.min(rows.len().saturating_sub(1));
        let mut table_rows: Vec<Row> = rows
            .iter()
            .map(|e| {
                let style = match e.status.as_str() {
                    "allowed" => theme::ok(),
                    "denied" => theme::error(),
                    _ => theme::dim(),
                };
                let by = if e.resolver.is_empty() {
                    String::new()
                } else {
                    format!(" by {}", visible(&e.resolver).text)
                };
                Row::new(vec![
                    Line::styled(format!("{}{by}", visible(&e.outcome()).text), style),
                    Line::raw(visible(&e.kind).text),
                    Line::raw(visible(&e.gateway).text),
                    Line::raw(visible(&e.agent).text),
                    Line::raw(visible(&e.summary).text),
                ])
            })
            .collect();
        table_rows.extend(notes(&self.history).into_iter().map(|l| Row::new(vec![l])));
        if table_rows.is_empty() {
            table_rows.push(Row::new(vec![Line::styled(
                "no resolved approvals (the gateway keeps them 30 days)",
                theme::dim(),
            )]));
        }
        let table = list_table(
            table_rows,
            [28, 12, 12, 8]
                .map(Constraint::Length)
                .into_iter()
                .chain([Constraint::Fill(1)]),
            Row::new(vec![
                "outcome",
                "kind",
                "gateway",
                "agent",
                "what it approved",
            ]),
            Block::bordered().title(format!(" {title} ")),
        );
        render_selected(table, area, buf, self.selected, 0);
    }

    pub(crate) fn render_grants(&mut self, area: Rect, buf: &mut Buffer, title: &str, now: u64) {
        let rows = self.grant_rows();
        self.selected = self.selected.min(rows.len().saturating_sub(1));
        let mut table_rows: Vec<Row> = rows
            .iter()
            .map(|g| {
                let state = g.state(now);
                let style = if g.is_active(now) {
                    theme::warning()
                } else {
                    theme::dim()
                };
                let mut command = visible(&g.command).text;
                if !g.cwd.is_empty() {
                    command.push_str(&format!(" (in {})", visible(&g.cwd).text));
                }
                Row::new(vec![
                    Line::styled(state, style),
                    Line::raw(visible(&g.gateway).text),
                    Line::raw(visible(&g.automation).text),
                    Line::raw(g.use_count.to_string()),
                    Line::from(vec![Span::raw(command)]),
                ])
            })
            .collect();
        table_rows.extend(notes(&self.grants).into_iter().map(|l| Row::new(vec![l])));
        if table_rows.is_empty() {
            table_rows.push(Row::new(vec![Line::styled(
                "no standing grants (allow-always on an automation's exec approval mints one)",
                theme::dim(),
            )]));
        }
        let table = list_table(
            table_rows,
            [16, 12, 16, 5]
                .map(Constraint::Length)
                .into_iter()
                .chain([Constraint::Fill(1)]),
            Row::new(vec!["state", "gateway", "automation", "uses", "command"]),
            Block::bordered().title(format!(" {title} ")),
        );
        render_selected(table, area, buf, self.selected, 0);
    }
}
