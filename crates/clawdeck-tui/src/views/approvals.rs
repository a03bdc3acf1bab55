//! Approvals view: the gateways' approvals of every kind (exec, plugin, system agent) as they
//! arrive and as they were pending at attach time, each with what it approves in full (wrapped,
//! never cut), who asks, and a live countdown to its expiry; answered with allow once / allow
//! always (asks first) / deny; resolved ones stay listed with how and by whom. `H` shows the
//! gateways' history, `S` the standing grants (`x` revokes one, asking first). The model is the
//! core's `ApprovalBoard`, fed through `CoreEvent::Desk`; answers go out as `ResolveApproval`
//! intents that the App hands to the core's gateway desk.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossterm::event::MouseEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Row};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::ViewCtx;
use super::policy_exec::ExecCheck;
use crate::clock::short_duration;
use crate::event::AppEvent;
use crate::gateway::approval_board::{ApprovalBoard, ApprovalState, BoardEntry};
use crate::gateway::approvals::{ApprovalKind, Decision};
use crate::gateway::roster::Link;
use crate::gateway::watch::{WatchItem, WatchKind};
use crate::keymap::Action;
use crate::sanitize::{HIDDEN_CHARS_WARNING, visible};
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::table::{list_table, render_selected};

use super::approvals_ledger::Ledger;
use crate::event::LedgerAct;

/// Which of the view's lists shows.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    #[default]
    Pending,
    History,
    Grants,
}

#[derive(Debug, Default)]
pub(crate) struct ApprovalsView {
    pub(crate) section: Section,
    /// History and standing grants, as the gateways last answered.
    pub(crate) ledger: Ledger,
    pub(crate) board: ApprovalBoard,
    /// Each gateway's approver connection.
    pub(crate) links: BTreeMap<String, Link>,
    /// Per attached gateway: whether its connection holds operator.admin (every operator's
    /// approvals reach it) or only this device's do.
    all_operators: BTreeMap<String, bool>,
    pub(crate) selected: usize,
    /// The selected approval (gateway, id): rows move as approvals arrive and resolve, the
    /// selection stays on the approval the operator picked.
    picked: Option<(String, String)>,
    /// Why no gateway is attached (shown instead of the table).
    pub(crate) unavailable: Option<String>,
    table_area: Rect,
    /// The selected approval in full (or, with none yet, which turns can raise one).
    detail: DetailPane,
    /// exec approvals' verdicts (why it asks), by (gateway, id), as the raising gateway's config sees
    /// the command; kept only for approvals on the board.
    pub(crate) verdicts: BTreeMap<(String, String), ExecCheck>,
}

/// The list's fixed columns (state, kind); then gateway, agent and session as wide as their
/// longest entry (at most `CONTEXT_MAX` each), and what it approves takes the rest.
const FIXED_COLUMNS: [u16; 2] = [24, 6];
const CONTEXT_MAX: u16 = 32;
/// A context column is cut no narrower than this to give the command its room.
const CONTEXT_MIN: u16 = 8;
/// The room the command is given first (or its whole length when shorter).
const COMMAND_FIRST: u16 = 40;
/// The field names' column in the detail pane.
const LABEL_WIDTH: usize = 9;

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
    pub fn pending(&self) -> usize {
        self.board.pending()
    }

    /// Approvals that can still be answered at `now` (the badge on every view).
    pub fn waiting(&self, now: SystemTime) -> usize {
        self.board.waiting(wall_ms(now))
    }

    /// Applies one desk item; true when the view changed.
    pub fn apply(&mut self, item: &WatchItem) -> bool {
        if let WatchKind::Connected { all_operators, .. } = &item.kind {
            self.all_operators
                .insert(item.gateway.clone(), *all_operators);
        }
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
        self.follow_pick();
        changed
    }

    /// Puts the highlight back on the picked approval after rows moved (it resolved and went
    /// below the open ones, an earlier one left); only when it is gone does the row number
    /// stand, and the pick moves to what is there now.
    fn follow_pick(&mut self) {
        let ids: Vec<(String, String)> = self
            .board
            .rows()
            .iter()
            .map(|e| (e.gateway.clone(), e.approval.id.clone()))
            .collect();
        (self.selected, self.picked) =
            crate::widgets::list::keep_pick(&ids, self.picked.as_ref(), self.selected);
    }

    /// Whether `action` does something here now: answers only in the pending list, allow-always
    /// only where the selected approval's kind takes it, revoking only among the grants.
    pub(crate) fn offers(&self, action: Action) -> bool {
        let open = self
            .selected_entry()
            .filter(|e| self.section == Section::Pending && e.is_open());
        match action {
            Action::AllowOnce => open.is_some_and(|e| e.approval.allows(Decision::AllowOnce)),
            Action::DenyApproval => open.is_some_and(|e| e.approval.allows(Decision::Deny)),
            Action::AllowAlways => open.is_some_and(|e| e.approval.allows(Decision::AllowAlways)),
            Action::KillRun => self.section == Section::Grants,
            _ => true,
        }
    }

    /// Keeps the verdict of a new exec approval, dropping those of approvals no longer on the
    /// board (it is bounded, so this is too).
    pub(crate) fn judging(&mut self, gateway: &str, id: &str, command: &str) {
        let listed: std::collections::BTreeSet<(String, String)> = self
            .board
            .rows()
            .into_iter()
            .map(|e| (e.gateway.clone(), e.approval.id.clone()))
            .collect();
        self.verdicts.retain(|key, _| listed.contains(key));
        self.verdicts.insert(
            (gateway.to_string(), id.to_string()),
            ExecCheck::asking(command.to_string()),
        );
    }

    fn selected_entry(&self) -> Option<&BoardEntry> {
        self.board.rows().get(self.selected).copied()
    }

    fn answer(&mut self, decision: Decision, ctx: &ViewCtx) {
        if self.section != Section::Pending {
            ctx.status("answers are given in the pending list (H or S returns to it)");
            return;
        }
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
        if !entry.approval.allows(decision) {
            let kind = entry.approval.kind.as_str();
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            ctx.status(format!(
                "{id}: {article} {kind} approval takes only {}",
                entry.approval.allowed_decisions.join(", ")
            ));
            return;
        }
        let event = AppEvent::ResolveApproval {
            gateway: gateway.clone(),
            id: id.clone(),
            decision,
        };
        if decision == Decision::AllowAlways {
            let command = visible(&entry.approval.summary()).text;
            ctx.send(AppEvent::Confirm {
                question: format!(
                    "Allow always on {gateway}: `{command}` (agent {}) will run without asking from now on (for an automation's run: a standing grant until revoked).{} Allow always?",
                    visible(&entry.approval.agent).text,
                    if entry.approval.has_hidden_chars() {
                        format!(" ⚠ It {HIDDEN_CHARS_WARNING}.")
                    } else {
                        String::new()
                    }
                ),
                on_yes: Box::new(event),
            });
        } else {
            ctx.send(event);
        }
    }

    /// Shows `section` (back to the pending list when it shows already); history and grants
    /// are read again each time they are opened.
    fn toggle(&mut self, section: Section, ctx: &ViewCtx) {
        if self.section == section {
            self.section = Section::Pending;
            return;
        }
        self.section = section;
        self.ledger.select(section == Section::Grants, None);
        let gateways: Vec<String> = self.links.keys().cloned().collect();
        let act = match section {
            Section::History => {
                self.ledger.asking_history(&gateways);
                LedgerAct::History { gateways }
            }
            Section::Grants => {
                self.ledger.asking_grants(&gateways);
                LedgerAct::Grants { gateways }
            }
            Section::Pending => return,
        };
        ctx.send(AppEvent::ApprovalLedger(act));
    }

    /// Asks before revoking the selected standing grant.
    fn revoke(&mut self, ctx: &ViewCtx) {
        if self.section != Section::Grants {
            ctx.status("standing grants are revoked in their list (S shows it)");
            return;
        }
        let Some(grant) = self.ledger.grant_rows().get(self.ledger.selected).cloned() else {
            ctx.status("no standing grant selected");
            return;
        };
        ctx.send(AppEvent::Confirm {
            question: format!(
                "Revoke standing grant {} on {}: `{}` of automation {} will ask again at its next run. Revoke?",
                visible(&grant.grant_id).text,
                grant.gateway,
                visible(&grant.command).text,
                visible(&grant.automation).text
            ),
            on_yes: Box::new(AppEvent::ApprovalLedger(LedgerAct::Revoke {
                gateway: grant.gateway.clone(),
                grant_id: grant.grant_id.clone(),
            })),
        });
    }

    /// A history / grants answer or a revocation's outcome (for the status line).
    pub(crate) fn apply_ledger(
        &mut self,
        event: crate::gateway::desk::DeskEvent,
    ) -> Option<String> {
        self.ledger.apply(event)
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        match action {
            Action::AllowOnce => self.answer(Decision::AllowOnce, ctx),
            Action::AllowAlways => self.answer(Decision::AllowAlways, ctx),
            Action::DenyApproval => self.answer(Decision::Deny, ctx),
            Action::History => self.toggle(Section::History, ctx),
            Action::StandingGrants => self.toggle(Section::Grants, ctx),
            Action::KillRun => self.revoke(ctx),
            Action::DetailUp | Action::DetailDown => {
                self.detail.scroll(action);
            }
            _ => {
                let page = self.table_area.height.saturating_sub(3) as usize;
                let (selected, len) = match self.section {
                    Section::Pending => (self.selected, self.board.len()),
                    Section::History => (self.ledger.selected, self.ledger.history_rows().len()),
                    Section::Grants => (self.ledger.selected, self.ledger.grant_rows().len()),
                };
                match crate::widgets::list::moved(selected, action, len, page) {
                    Some(to) if self.section == Section::Pending => self.select(to),
                    Some(to) => self
                        .ledger
                        .select(self.section == Section::Grants, Some(to)),
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
        match crate::widgets::list::table_mouse(self.table_area, mouse, 0, self.selected, len, 1) {
            Some(selected) => self.select(selected),
            None => return false,
        }
        true
    }

    fn select(&mut self, to: usize) {
        self.selected = to;
        self.picked = None;
        self.follow_pick();
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            crate::widgets::unavailable_pane(area, buf, "Approvals", reason, theme::dim());
            return;
        }
        let now_ms = wall_ms(ctx.clock.wall());
        let links = self.links_text();
        self.table_area = area;
        match self.section {
            Section::Pending => self.render_pending(area, buf, ctx, now_ms),
            Section::History => {
                let title = format!("Approval history (H: back to pending) · {links}");
                self.render_history(area, buf, ctx, &title);
            }
            Section::Grants => {
                let title = format!("Standing grants (x: revoke, S: back to pending) · {links}");
                self.ledger.render_grants(area, buf, &title, now_ms);
            }
        }
    }

    /// The history list and, below, the selected entry whole.
    fn render_history(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx, title: &str) {
        let rows = self.ledger.history_rows();
        let selected = rows.get(self.ledger.selected.min(rows.len().saturating_sub(1)));
        let (subject, lines) = match selected {
            Some(e) => (
                format!("history/{}/{}", e.gateway, e.id),
                history_detail(e, area.width.saturating_sub(2) as usize),
            ),
            None => ("history".to_string(), Vec::new()),
        };
        self.detail.set(&subject, lines);
        let wanted = self.detail.rows_needed(area.width);
        let [table_area, detail_area] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(DetailPane::height_within(area.height, wanted, area.height)),
        ])
        .areas(area);
        self.ledger.render_history(table_area, buf, title);
        self.detail
            .render(detail_area, buf, "Selected entry", ctx.keymap);
    }

    fn render_pending(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx, now_ms: u64) {
        let title = format!(
            "Approvals · {} pending · {}",
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
        // Borders, the selection mark's column, the fixed columns and every column's gap.
        let mark = crate::widgets::table::SELECTED_MARK.chars().count() as u16;
        let fixed: u16 = FIXED_COLUMNS.iter().sum::<u16>() + FIXED_COLUMNS.len() as u16 + 3;
        let room = area.width.saturating_sub(2 + mark + fixed);
        let (context, command_width) = column_widths(&rows, room);
        let table_rows: Vec<Row> = rows
            .iter()
            .map(|e| pending_row(e, now_ms, context, command_width as usize))
            .collect();
        let (subject, detail) = match self.selected_entry() {
            Some(e) => (format!("{}/{}", e.gateway, e.approval.id), {
                let mut lines = detail_lines(e, now_ms, area.width.saturating_sub(2) as usize);
                let key = (e.gateway.clone(), e.approval.id.clone());
                if let Some(check) = self.verdicts.get(&key) {
                    lines.extend(check.detail_lines());
                    lines.push(Line::styled(check.judged_by(), theme::dim()));
                }
                lines
            }),
            None => (String::new(), Vec::new()),
        };
        self.detail.set(&subject, detail);
        let wanted = self.detail.rows_needed(area.width);
        // What is approved must be seen whole: the details may take all but the list's least rows.
        let [table_area, detail_area] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(DetailPane::height_within(area.height, wanted, area.height)),
        ])
        .areas(area);
        self.table_area = table_area;
        let table = list_table(
            table_rows,
            FIXED_COLUMNS
                .into_iter()
                .chain(context)
                .map(Constraint::Length)
                .chain([Constraint::Fill(1)]),
            Row::new(vec![
                "state",
                "kind",
                "gateway",
                "agent",
                "session",
                "what it approves",
            ]),
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
        let links = self
            .links
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
            .join(", ");
        if self.all_operators.values().any(|all| !all) {
            format!("{links} · {MINE_ONLY}")
        } else {
            links
        }
    }
}

/// What a gateway connection without operator.admin leaves out, and what shows it.
pub(crate) const MINE_ONLY: &str = "this device's approvals only (--all-operators or approvals.allOperators shows every operator's)";

/// Where OpenClaw 2026.9.6 sends an approval (dist `canDeliverApprovals`,
/// `isApprovalRecordVisibleToClient`): a connection with `operator.approvals` (or admin) and
/// the `approvals` / `exec-approvals` capability, and of those only the ones on the device that
/// started the turn (its `chat.send` client, bound as the approval's reviewer) or holding
/// `operator.admin`.
pub(crate) const ROUTING_NOTE: &str = "OpenClaw 2026.9.6 sends an exec or plugin approval only to approver connections on the device that started its turn (the chat.send client's device, bound as the reviewer) and to operator.admin connections: this console sees the approvals of turns sent from clawdeck's own device (`clawdeck chat`), not those of turns started from the Control UI (`openclaw dashboard`), `openclaw tui` or any other device, unless it holds operator.admin (--all-operators, or approvals.allOperators in clawdeck.json5).";

/// What the view says before any approval came: which turns can reach it at all. OpenClaw
/// 2026.9.6 raises `exec.approval.requested` only for turns started with the gateway's
/// `chat.send`; a headless turn's exec is denied at once ("Headless runs cannot wait for
/// interactive exec approval"), and nothing asks while `tools.exec.ask` is "off".
pub(crate) fn empty_lines() -> Vec<Line<'static>> {
    let dim = |text: &str| Line::styled(text.to_string(), theme::dim());
    vec![
        Line::raw("no pending approvals (exec, plugin or system agent)"),
        dim(ROUTING_NOTE),
        dim(
            "Turns from `openclaw agent`, the gateway's `agent` method and this console's Router view never reach it: OpenClaw denies their exec at once (\"exec denied: Headless runs cannot wait for interactive exec approval.\").",
        ),
        dim(
            "And the gateway asks only when tools.exec.ask is \"on-miss\" or \"always\" (the default \"off\" never asks).",
        ),
        dim("H: the gateways' approval history · S: standing grants"),
    ]
}

/// `⚠ pending · 4m59s` while it can be answered: the time left, moving with the clock.
fn countdown(entry: &BoardEntry, now_ms: u64) -> Span<'static> {
    if entry.is_expired(now_ms) {
        return Span::styled("⌛ expired", theme::dim());
    }
    match (&entry.state, entry.approval.expires_at_ms) {
        (ApprovalState::Pending, Some(at)) => Span::styled(
            format!(
                "⚠ pending · {}",
                short_duration(Duration::from_millis(at - now_ms))
            ),
            theme::warning(),
        ),
        (state, _) => state_span(state),
    }
}

fn kind_label(kind: ApprovalKind) -> &'static str {
    match kind {
        ApprovalKind::Exec => "exec",
        ApprovalKind::Plugin => "plugin",
        ApprovalKind::SystemAgent => "system",
    }
}

/// The widths of the gateway, agent and session columns and of the command's, within `room`:
/// each context column as wide as its longest entry (or header), the command its first
/// `COMMAND_FIRST` columns before any context column is cut (never below `CONTEXT_MIN`).
fn column_widths(rows: &[&BoardEntry], room: u16) -> ([u16; 3], u16) {
    let widest = |header: &str, field: &dyn Fn(&BoardEntry) -> &str| {
        rows.iter()
            .map(|e| visible(field(e)).text.chars().count())
            .chain([header.len()])
            .max()
            .unwrap_or(0)
            .min(CONTEXT_MAX as usize) as u16
    };
    let mut context = [
        widest("gateway", &|e| &e.gateway),
        widest("agent", &|e| &e.approval.agent),
        widest("session", &|e| &e.approval.session_key),
    ];
    let command_need = rows
        .iter()
        .map(|e| visible(&e.approval.summary()).text.chars().count() + 2)
        .max()
        .unwrap_or(0)
        .min(COMMAND_FIRST as usize) as u16;
    // Cut the widest context column one at a time until the command has its first room.
    while room.saturating_sub(context.iter().sum()) < command_need {
        let Some(widest) = (0..3)
            .filter(|&i| context[i] > CONTEXT_MIN)
            .max_by_key(|&i| context[i])
        else {
            break;
        };
        context[widest] -= 1;
    }
    (context, room.saturating_sub(context.iter().sum()))
}

fn pending_row(
    e: &BoardEntry,
    now_ms: u64,
    context: [u16; 3],
    command_width: usize,
) -> Row<'static> {
    let a = &e.approval;
    let shown = |text: &str, width: u16| cut(&visible(text).text, width as usize);
    let mut command = Vec::new();
    let mut room = command_width;
    if a.has_hidden_chars() {
        command.push(Span::styled("⚠ ", theme::error()));
        room = room.saturating_sub(2);
    }
    command.push(Span::raw(cut(&visible(&a.summary()).text, room)));
    Row::new(vec![
        Line::from(countdown(e, now_ms)),
        Line::raw(kind_label(a.kind)),
        Line::raw(shown(&e.gateway, context[0])),
        Line::raw(shown(&a.agent, context[1])),
        Line::raw(shown(&a.session_key, context[2])),
        Line::from(command),
    ])
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

/// `text` within `width` columns: when it is longer, its start and a mark saying how many
/// characters are not shown (`⋯+2971`).
fn cut(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let total = text.chars().count();
    let room = width.saturating_sub(format!("⋯+{total}").width());
    let mut used = 0;
    let mut kept = String::new();
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        kept.push(c);
    }
    let hidden = total - kept.chars().count();
    format!("{kept}⋯+{hidden}")
}

/// `text` in pieces of at most `width` columns (cut anywhere, not at words, so every character
/// is on screen exactly once).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![String::new()];
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width && used > 0 {
            lines.push(String::new());
            used = 0;
        }
        used += w;
        if let Some(line) = lines.last_mut() {
            line.push(c);
        }
    }
    lines
}

/// `name value` lines, the value wrapped to `width` columns under its label.
fn field_lines(fields: &[(&str, String)], width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (name, value) in fields {
        let pieces = wrap(value, width.saturating_sub(LABEL_WIDTH));
        for (i, piece) in pieces.into_iter().enumerate() {
            let label = if i == 0 { *name } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<LABEL_WIDTH$}"), theme::dim()),
                Span::raw(piece),
            ]));
        }
    }
    lines
}

/// The selected approval, every field whole (wrapped to `width` columns) and shown visibly;
/// a warning first when a field hides or reorders characters.
fn detail_lines(entry: &BoardEntry, now_ms: u64, width: usize) -> Vec<Line<'static>> {
    let a = &entry.approval;
    let when = match &entry.state {
        ApprovalState::Resolved { decision, by } => {
            let by = if by.is_empty() { "-" } else { by.as_str() };
            format!("resolved: {decision} by {by}")
        }
        ApprovalState::Answering(d) => format!("{} sent, waiting for the gateway", d.as_str()),
        ApprovalState::Pending => match a.expires_at_ms {
            Some(ms) if ms > now_ms => format!(
                "pending, expires in {}",
                short_duration(Duration::from_millis(ms - now_ms))
            ),
            Some(_) => "pending, past its expiry".to_string(),
            None => "pending".to_string(),
        },
    };
    let mut lines = Vec::new();
    if a.has_hidden_chars() {
        lines.push(Line::styled(
            format!("⚠ {HIDDEN_CHARS_WARNING} (shown as \\x.. and <U+....>)"),
            theme::error(),
        ));
    }
    let mut fields: Vec<(&str, String)> = vec![("kind", a.kind.as_str().to_string())];
    fields.extend(a.approves().into_iter().map(|(n, v)| (n, visible(v).text)));
    for (name, value) in [
        ("agent", &a.agent),
        ("session", &a.session_key),
        ("gateway", &entry.gateway),
        ("rule", &a.reason),
        ("severity", &a.severity),
    ] {
        if !value.is_empty() || matches!(name, "agent" | "session" | "gateway") {
            fields.push((name, visible(value).text));
        }
    }
    if !a.allowed_decisions.is_empty() {
        fields.push(("answers", a.allowed_decisions.join(", ")));
    }
    fields.push(("id", format!("{} · {when}", visible(&a.id).text)));
    lines.extend(field_lines(&fields, width));
    lines
}

/// A history entry whole: what it approved, how it ended, by whom, when.
fn history_detail(
    e: &crate::gateway::approval_ledger::HistoryEntry,
    width: usize,
) -> Vec<Line<'static>> {
    let fields: Vec<(&str, String)> = vec![
        ("kind", visible(&e.kind).text),
        ("approved", visible(&e.summary).text),
        ("outcome", visible(&e.outcome()).text),
        ("by", visible(&e.resolver).text),
        ("agent", visible(&e.agent).text),
        ("session", visible(&e.session_key).text),
        ("gateway", visible(&e.gateway).text),
        ("id", visible(&e.id).text),
    ];
    field_lines(&fields, width)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::clock::FixedClock;
    use crate::event::AppEventSender;
    use crate::gateway::watch::classify;
    use crate::keymap::Keymap;
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
