//! Approvals view: the gateways' exec approvals as they arrive (command, cwd, agent, session,
//! gateway and the rule that asked), answered with allow once / allow always (asks first) /
//! deny; resolved ones stay listed with how and by whom. The model is the core's
//! `ApprovalBoard`, fed through `CoreEvent::Desk`; answers go out as `ResolveApproval` intents
//! that the App hands to the core's gateway desk.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossterm::event::MouseEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget, Wrap};

use super::ViewCtx;
use crate::gateway::approval_board::{ApprovalBoard, ApprovalState, BoardEntry};
use crate::gateway::approvals::Decision;
use crate::gateway::roster::Link;
use crate::gateway::watch::{WatchItem, WatchKind};
use crate::tui::clock::short_duration;
use crate::tui::event::AppEvent;
use crate::tui::keymap::Action;
use crate::tui::theme;
use crate::tui::widgets::detail_pane::DetailPane;
use crate::tui::widgets::table::{list_table, render_selected};

#[derive(Debug, Default)]
pub(crate) struct ApprovalsView {
    pub(crate) board: ApprovalBoard,
    /// Each gateway's approver connection.
    pub(crate) links: BTreeMap<String, Link>,
    pub(crate) selected: usize,
    /// Why no gateway is attached (shown instead of the table).
    pub(crate) unavailable: Option<String>,
    table_area: Rect,
    /// The selected approval in full (or, with none yet, which turns can raise one).
    detail: DetailPane,
}

impl ApprovalsView {
    pub(crate) fn unavailable(reason: &str) -> Self {
        ApprovalsView {
            unavailable: Some(reason.to_string()),
            ..ApprovalsView::default()
        }
    }

    /// Gateways being attached (shown as connecting until they answer).
    pub(crate) fn attaching(gateways: &[String]) -> Self {
        ApprovalsView {
            links: gateways
                .iter()
                .map(|g| (g.clone(), Link::Connecting))
                .collect(),
            ..ApprovalsView::default()
        }
    }

    /// Approvals not yet resolved.
    #[cfg(test)]
    pub(crate) fn pending(&self) -> usize {
        self.board.pending()
    }

    /// Approvals that can still be answered at `now` (the badge on every view).
    pub(crate) fn waiting(&self, now: SystemTime) -> usize {
        self.board.waiting(wall_ms(now))
    }

    /// Applies one desk item; true when the view changed.
    pub(crate) fn apply(&mut self, item: &WatchItem) -> bool {
        let link = match &item.kind {
            WatchKind::Connected { server_version, .. } => Some(Link::Up {
                server_version: server_version.clone(),
            }),
            WatchKind::Disconnected { reason, .. } => Some(Link::Down {
                reason: reason.clone(),
            }),
            WatchKind::Failed { error } => Some(Link::Failed {
                reason: error.clone(),
            }),
            _ => None,
        };
        let changed = match link {
            Some(link) => {
                self.links.insert(item.gateway.clone(), link);
                true
            }
            None => self.board.apply(item),
        };
        self.selected = self.selected.min(self.board.len().saturating_sub(1));
        changed
    }

    fn selected_entry(&self) -> Option<&BoardEntry> {
        self.board.rows().get(self.selected).copied()
    }

    fn answer(&mut self, decision: Decision, ctx: &ViewCtx) {
        let Some(entry) = self.selected_entry() else {
            ctx.status("no approval selected");
            return;
        };
        let (gateway, id) = (entry.gateway.clone(), entry.approval.id.clone());
        if entry.is_expired(wall_ms(ctx.clock.wall())) {
            ctx.status(format!(
                "{id} has expired on {gateway}: it takes no answer any more"
            ));
            return;
        }
        match &entry.state {
            ApprovalState::Resolved { decision, .. } => {
                ctx.status(format!("{id} is already resolved ({decision})"));
                return;
            }
            ApprovalState::Answering(sent) => {
                ctx.status(format!(
                    "{id}: {} already sent, waiting for the gateway",
                    sent.as_str()
                ));
                return;
            }
            ApprovalState::Pending => {}
        }
        let event = AppEvent::ResolveApproval {
            gateway: gateway.clone(),
            id: id.clone(),
            decision,
        };
        if decision == Decision::AllowAlways {
            let command = entry.approval.command.clone();
            ctx.send(AppEvent::Confirm {
                question: format!(
                    "Allow always on {gateway}: `{command}` (agent {}) will run without asking from now on. Allow always?",
                    entry.approval.agent
                ),
                on_yes: Box::new(event),
            });
        } else {
            ctx.send(event);
        }
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        match action {
            Action::AllowOnce => self.answer(Decision::AllowOnce, ctx),
            Action::AllowAlways => self.answer(Decision::AllowAlways, ctx),
            Action::DenyApproval => self.answer(Decision::Deny, ctx),
            Action::DetailUp | Action::DetailDown => {
                self.detail.scroll(action);
            }
            _ => {
                let page = self.table_area.height.saturating_sub(3) as usize;
                match super::list::moved(self.selected, action, self.board.len(), page) {
                    Some(to) => self.selected = to,
                    None => return false,
                }
            }
        }
        true
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.detail.mouse(mouse) {
            return true;
        }
        let len = self.board.len();
        match super::list::table_mouse(self.table_area, mouse, 0, self.selected, len, 1) {
            Some(selected) => self.selected = selected,
            None => return false,
        }
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            Paragraph::new(Line::styled(reason.clone(), theme::dim()))
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" Exec approvals "))
                .render(area, buf);
            return;
        }
        let now_ms = wall_ms(ctx.clock.wall());
        let title = format!(
            "Exec approvals · {} pending · {}",
            self.board.waiting(now_ms),
            self.links_text()
        );
        let rows = self.board.rows();
        if rows.is_empty() {
            self.table_area = Rect::default();
            self.detail.set("empty", empty_lines());
            self.detail.render(area, buf, &title, ctx.keymap);
            return;
        }
        let table_rows: Vec<Row> = rows
            .iter()
            .map(|e| {
                let state = if e.is_expired(now_ms) {
                    Span::styled("⌛ expired", theme::dim())
                } else {
                    state_span(&e.state)
                };
                Row::new(vec![
                    state,
                    Span::raw(e.gateway.clone()),
                    Span::raw(e.approval.agent.clone()),
                    Span::raw(e.approval.session_key.clone()),
                    Span::raw(e.approval.command.replace('\n', "⏎")),
                ])
            })
            .collect();
        let (subject, detail) = match self.selected_entry() {
            Some(e) => (
                format!("{}/{}", e.gateway, e.approval.id),
                detail_lines(e, ctx),
            ),
            None => (String::new(), Vec::new()),
        };
        self.detail.set(&subject, detail);
        let wanted = self.detail.rows_needed(area.width);
        let [table_area, detail_area] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(DetailPane::height_within(
                area.height,
                wanted,
                area.height / 2,
            )),
        ])
        .areas(area);
        self.table_area = table_area;
        let table = list_table(
            table_rows,
            [
                Constraint::Length(24),
                Constraint::Length(14),
                Constraint::Length(8),
                Constraint::Length(24),
                Constraint::Fill(1),
            ],
            Row::new(vec!["state", "gateway", "agent", "session", "command"]),
            Block::bordered().title(format!(" {title} ")),
        );
        render_selected(table, table_area, buf, self.selected, 0);
        self.detail
            .render(detail_area, buf, "Selected approval", ctx.keymap);
    }

    fn links_text(&self) -> String {
        if self.links.is_empty() {
            return "no gateway".to_string();
        }
        self.links
            .iter()
            .map(|(g, l)| {
                let state = match l {
                    Link::Connecting => "connecting",
                    Link::Up { .. } => "●",
                    Link::Down { .. } => "reconnecting",
                    Link::Failed { .. } => "✗ gave up",
                };
                format!("{g} {state}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What the view says before any approval came: which turns can reach it at all. OpenClaw
/// 2026.9.6 raises `exec.approval.requested` only for turns started with the gateway's
/// `chat.send`; a headless turn's exec is denied at once ("Headless runs cannot wait for
/// interactive exec approval"), and nothing asks while `tools.exec.ask` is "off".
pub(crate) fn empty_lines() -> Vec<Line<'static>> {
    let dim = |text: &str| Line::styled(text.to_string(), theme::dim());
    vec![
        Line::raw("no exec approvals yet"),
        dim(
            "Only chat turns can wait for an approval: turns sent with the gateway's chat.send (the Control UI chat from `openclaw dashboard`, `openclaw tui` on the gateway).",
        ),
        dim(
            "Turns from `openclaw agent`, the gateway's `agent` method and this console's Router view never reach it: OpenClaw denies their exec at once (\"Headless runs cannot wait for interactive exec approval\").",
        ),
        dim(
            "And the gateway asks only when tools.exec.ask is \"on-miss\" or \"always\" (the default \"off\" never asks).",
        ),
    ]
}

/// Milliseconds since the epoch (the gateway's `expiresAtMs` unit).
fn wall_ms(now: SystemTime) -> u64 {
    now.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn state_span(state: &ApprovalState) -> Span<'static> {
    match state {
        ApprovalState::Pending => Span::styled("⚠ pending", theme::warning()),
        ApprovalState::Answering(d) => {
            Span::styled(format!("… {} sent", d.as_str()), theme::accent())
        }
        ApprovalState::Resolved { decision, by } => {
            let style = if decision == "deny" {
                theme::error()
            } else {
                theme::ok()
            };
            let mark = if decision == "deny" { "✗" } else { "✓" };
            let by = if by.is_empty() {
                String::new()
            } else {
                format!(" by {by}")
            };
            Span::styled(format!("{mark} {decision}{by}"), style)
        }
    }
}

fn detail_lines(entry: &BoardEntry, ctx: &ViewCtx) -> Vec<Line<'static>> {
    let a = &entry.approval;
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<9}"), theme::dim()),
            Span::raw(value),
        ])
    };
    let when = match &entry.state {
        ApprovalState::Resolved { decision, by } => {
            let by = if by.is_empty() { "-" } else { by.as_str() };
            format!("resolved: {decision} by {by}")
        }
        ApprovalState::Answering(d) => format!("{} sent, waiting for the gateway", d.as_str()),
        ApprovalState::Pending => match a.expires_at_ms {
            Some(ms) => {
                let at = UNIX_EPOCH + Duration::from_millis(ms);
                match at.duration_since(ctx.clock.wall()) {
                    Ok(left) => format!("pending, expires in {}", short_duration(left)),
                    Err(_) => "pending, past its expiry".to_string(),
                }
            }
            None => "pending".to_string(),
        },
    };
    vec![
        field("command", a.command.clone()),
        field("cwd", a.cwd.clone()),
        field("agent", a.agent.clone()),
        field("session", a.session_key.clone()),
        field("gateway", entry.gateway.clone()),
        field("rule", a.reason.clone()),
        field("id", format!("{} · {when}", a.id)),
    ]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::gateway::watch::classify;
    use crate::tui::clock::FixedClock;
    use crate::tui::event::AppEventSender;
    use crate::tui::keymap::Keymap;
    use serde_json::json;

    fn requested(id: &str, command: &str) -> WatchItem {
        classify(
            "local",
            "exec.approval.requested",
            &json!({"id": id, "request": {"command": command, "cwd": "/w", "agentId": "ops",
                    "sessionKey": "agent:ops:main", "ask": "always", "security": "allowlist",
                    "host": "gateway"}}),
        )
    }

    #[test]
    fn keys_send_answers_and_always_asks_first() {
        let (tx, mut rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        let mut view = ApprovalsView::attaching(&["local".to_string()]);
        assert!(view.apply(&requested("a1", "echo one")));
        assert_eq!(view.pending(), 1);
        view.handle_action(Action::DenyApproval, &ctx);
        assert!(matches!(
            rx.try_recv(),
            Ok(AppEvent::ResolveApproval { ref id, decision: Decision::Deny, .. }) if id == "a1"
        ));
        view.handle_action(Action::AllowAlways, &ctx);
        match rx.try_recv() {
            Ok(AppEvent::Confirm { question, on_yes }) => {
                assert!(question.contains("echo one"), "{question}");
                assert!(matches!(
                    *on_yes,
                    AppEvent::ResolveApproval {
                        decision: Decision::AllowAlways,
                        ..
                    }
                ));
            }
            other => panic!("{other:?}"),
        }
        view.board.answering("local", "a1", Decision::AllowOnce);
        view.handle_action(Action::AllowOnce, &ctx);
        assert!(
            matches!(rx.try_recv(), Ok(AppEvent::Status(ref s)) if s.contains("already sent")),
            "a second answer is not sent"
        );
    }
}
