//! Gateways view: every attached gateway at a glance (version, uptime, connected clients,
//! health and what degrades it, sessions, active tasks), the selected gateway's usage per
//! session, and its live log (`logs.tail`) with follow, pause, filter and wrap. Fed by the
//! core's pulse feed (`gateway::pulse`: one batch of lines per poll, so a busy log
//! costs a redraw per poll, never per line); log lines were sanitized when read; memory is
//! bounded (each gateway's `LogBuffer`). The keys are the console's own: Up/Down pick the
//! gateway, K/J scroll the log (scrolled up, it is paused: new lines do not move it), `f`
//! follows again, `/` filters, `w` wraps.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget, Wrap};

use super::ViewCtx;
use crate::gateway::health::{GatewayHealth, SessionUsage, uptime_text};
use crate::gateway::logs::{LogBuffer, LogLine};
use crate::gateway::pulse::Pulse;
use crate::keymap::Action;
use crate::theme;
use crate::widgets::table::{list_table, render_selected};

/// Usage rows shown (the most tokens first).
const USAGE_ROWS: usize = 6;

#[derive(Debug, Default)]
pub(crate) struct GatewayState {
    pub(crate) name: String,
    /// None until the first answer; then whether it is attached, and why not.
    pub(crate) down: Option<String>,
    pub(crate) up: bool,
    pub(crate) health: Option<GatewayHealth>,
    pub(crate) usage: Vec<SessionUsage>,
    pub(crate) logs: LogBuffer,
}

#[derive(Debug, Default)]
pub(crate) struct GatewaysView {
    pub(crate) gateways: Vec<GatewayState>,
    pub(crate) selected: usize,
    /// Lines the log pane is scrolled up from the newest (0: following).
    pub(crate) scroll: usize,
    pub(crate) filter: String,
    /// The filter is being typed.
    pub(crate) editing_filter: bool,
    pub(crate) wrap: bool,
    /// Why no gateway is attached (shown instead of the overview).
    pub(crate) unavailable: Option<String>,
    log_area: Rect,
}

impl GatewaysView {
    pub(crate) fn attaching(names: &[String]) -> Self {
        GatewaysView {
            gateways: names
                .iter()
                .map(|name| GatewayState {
                    name: name.clone(),
                    ..GatewayState::default()
                })
                .collect(),
            ..GatewaysView::default()
        }
    }

    pub(crate) fn unavailable(reason: &str) -> Self {
        GatewaysView {
            unavailable: Some(reason.to_string()),
            ..GatewaysView::default()
        }
    }

    /// Applies one pulse; true when what the view shows changed.
    pub(crate) fn apply(&mut self, gateway: &str, pulse: Pulse) -> bool {
        let Some(at) = self.gateways.iter().position(|g| g.name == gateway) else {
            return false;
        };
        let selected = at == self.selected;
        let state = &mut self.gateways[at];
        match pulse {
            Pulse::Up => {
                state.up = true;
                state.down = None;
            }
            Pulse::Down(reason) => {
                state.up = false;
                state.down = Some(crate::sanitize::plain(&reason));
            }
            Pulse::Health(health) => {
                state.up = true;
                state.down = None;
                state.health = Some(*health);
            }
            Pulse::Usage(mut usage) => {
                usage.sort_by(|a, b| b.total_tokens.cmp(&a.total_tokens).then(a.key.cmp(&b.key)));
                state.usage = usage;
            }
            Pulse::Logs(read) => {
                // Paused (scrolled up): the lines in view stay where they are.
                if selected && self.scroll > 0 {
                    let shown = read
                        .lines
                        .iter()
                        .filter(|l| l.matches(&self.filter))
                        .count();
                    self.scroll = self.scroll.saturating_add(shown);
                }
                state.logs.extend(read);
                return selected;
            }
        }
        true
    }

    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent, _ctx: &ViewCtx) -> bool {
        if !self.editing_filter {
            return false;
        }
        match key.code {
            KeyCode::Enter => self.editing_filter = false,
            KeyCode::Esc => {
                self.editing_filter = false;
                self.filter.clear();
            }
            KeyCode::Backspace => {
                self.filter.pop();
            }
            KeyCode::Char(c) => self.filter.push(c),
            _ => return false,
        }
        self.scroll = 0;
        true
    }

    pub(crate) fn handle_action(&mut self, action: Action, _ctx: &ViewCtx) -> bool {
        let half = (self.log_area.height.saturating_sub(2) / 2).max(1) as usize;
        match action {
            Action::DetailUp => self.scroll = self.scroll.saturating_add(half),
            Action::DetailDown if self.scroll > 0 => self.scroll = self.scroll.saturating_sub(half),
            Action::Follow if self.scroll > 0 => self.scroll = 0,
            Action::Search => self.editing_filter = true,
            Action::ToggleWrap => self.wrap = !self.wrap,
            _ => {
                let moved = crate::widgets::list::moved(
                    self.selected,
                    action,
                    self.gateways.len(),
                    USAGE_ROWS,
                );
                match moved {
                    Some(to) if to != self.selected => {
                        self.selected = to;
                        self.scroll = 0;
                    }
                    _ => return false,
                }
            }
        }
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            crate::widgets::unavailable_pane(area, buf, "Gateways", reason, theme::dim());
            return;
        }
        let table_height = (self.gateways.len() as u16 + 3).min(area.height / 3).max(4);
        let usage_height = self
            .gateways
            .get(self.selected)
            .map_or(3, |g| g.usage.len().clamp(1, USAGE_ROWS) as u16 + 3);
        let [table_area, usage_area, log_area] = Layout::vertical([
            Constraint::Length(table_height),
            Constraint::Length(usage_height),
            Constraint::Fill(1),
        ])
        .areas(area);
        self.log_area = log_area;
        self.render_overview(table_area, buf);
        self.render_usage(usage_area, buf);
        self.render_log(log_area, buf, ctx);
    }

    fn render_overview(&self, area: Rect, buf: &mut Buffer) {
        let rows: Vec<Row> = self.gateways.iter().map(overview_row).collect();
        let widths = [16, 12, 10, 10, 24, 8, 9, 6].map(Constraint::Length);
        let header = Row::new([
            "gateway", "state", "version", "uptime", "health", "clients", "sessions", "tasks",
        ]);
        let title = format!(
            " Gateways · {} ",
            crate::widgets::count(self.gateways.len(), "gateway", "gateways")
        );
        let table = list_table(rows, widths, header, Block::bordered().title(title));
        render_selected(table, area, buf, self.selected, 0);
    }

    fn render_usage(&self, area: Rect, buf: &mut Buffer) {
        let Some(gateway) = self.gateways.get(self.selected) else {
            return;
        };
        let title = format!(" Usage per session · {} ", gateway.name);
        if gateway.usage.is_empty() {
            Paragraph::new(Line::styled(
                "no usage yet (sessions.usage answers every 30 s)",
                theme::dim(),
            ))
            .block(Block::bordered().title(title))
            .render(area, buf);
            return;
        }
        let number = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
        let rows: Vec<Row> = gateway
            .usage
            .iter()
            .take(USAGE_ROWS)
            .map(|u| {
                Row::new([
                    u.key.clone(),
                    u.agent.clone(),
                    u.model.clone(),
                    number(u.total_tokens),
                    u.cost.map_or("-".to_string(), |c| format!("{c:.4}")),
                    number(u.messages),
                ])
            })
            .collect();
        let widths = [
            Constraint::Fill(1),
            Constraint::Length(8),
            Constraint::Length(14),
            Constraint::Length(9),
            Constraint::Length(9),
            Constraint::Length(8),
        ];
        let header = Row::new(["session", "agent", "model", "tokens", "cost", "messages"]);
        let more = gateway.usage.len().saturating_sub(USAGE_ROWS);
        let title = if more > 0 {
            format!("{title}· {more} more ")
        } else {
            title
        };
        list_table(rows, widths, header, Block::bordered().title(title)).render(area, buf);
    }
}

/// One gateway's overview row.
fn overview_row(g: &GatewayState) -> Row<'static> {
    let (state, style) = match (&g.down, g.up) {
        (Some(_), _) => ("○ down", theme::error()),
        (None, true) => ("● up", theme::ok()),
        (None, false) => ("… connecting", theme::dim()),
    };
    let h = g.health.as_ref();
    let health = match h {
        None => Span::styled("-", theme::dim()),
        Some(h) if h.ok == Some(true) && h.degraded.is_empty() => Span::styled("ok", theme::ok()),
        Some(h) if h.ok == Some(true) => Span::styled(
            format!("degraded: {}", h.degraded.join("; ")),
            theme::warning(),
        ),
        Some(_) => Span::styled("NOT ok", theme::error()),
    };
    let number = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    Row::new(vec![
        Span::raw(g.name.clone()),
        Span::styled(state, style),
        Span::raw(h.map_or("-".to_string(), |h| h.version.clone())),
        Span::raw(
            h.and_then(|h| h.uptime_ms)
                .map_or("-".to_string(), uptime_text),
        ),
        health,
        Span::raw(h.map_or("-".to_string(), |h| h.clients.len().to_string())),
        Span::raw(number(h.and_then(|h| h.sessions))),
        Span::raw(number(h.and_then(|h| h.active_tasks))),
    ])
}

impl GatewaysView {
    /// The selected gateway's log, newest at the bottom, filtered; paused while scrolled up.
    fn render_log(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let Some(gateway) = self.gateways.get(self.selected) else {
            return;
        };
        let lines: Vec<&LogLine> = gateway
            .logs
            .lines()
            .filter(|l| l.matches(&self.filter))
            .collect();
        self.scroll = self.scroll.min(lines.len().saturating_sub(1));
        let height = area.height.saturating_sub(2) as usize;
        let width = area.width.saturating_sub(2).max(1) as usize;
        // Only what can show is built: from the newest line in view back until it is full.
        let end = lines.len() - self.scroll.min(lines.len());
        let mut rows = 0;
        let mut start = end;
        while start > 0 && rows < height {
            let text_width =
                unicode_width::UnicodeWidthStr::width(lines[start - 1].text().as_str());
            rows += if self.wrap {
                text_width.div_ceil(width).max(1)
            } else {
                1
            };
            start -= 1;
        }
        let shown: Vec<Line> = lines[start..end].iter().map(|l| log_line(l)).collect();
        let block = Block::bordered()
            .title(self.log_title(gateway, lines.len()))
            .title_bottom(Line::styled(self.log_keys(ctx), theme::accent()));
        let mut paragraph = Paragraph::new(shown).block(block);
        if self.wrap {
            paragraph = paragraph.wrap(Wrap { trim: false });
            // Wrapped lines may take more rows than there are: the newest stay in view.
            let overflow = rows.saturating_sub(height) as u16;
            paragraph = paragraph.scroll((overflow, 0));
        }
        paragraph.render(area, buf);
    }

    fn log_title(&self, gateway: &GatewayState, shown: usize) -> String {
        let mut title = format!(
            " Log · {} · {} ",
            gateway.name,
            crate::widgets::count(shown, "line", "lines")
        );
        if !self.filter.is_empty() || self.editing_filter {
            let cursor = if self.editing_filter { "▏" } else { "" };
            title.push_str(&format!("· filter \"{}{cursor}\" ", self.filter));
        }
        title.push_str(if self.scroll > 0 {
            "· PAUSED "
        } else {
            "· following "
        });
        if self.wrap {
            title.push_str("· wrapped ");
        }
        if gateway.logs.dropped() > 0 {
            title.push_str(&format!(
                "· {} earlier lines dropped ",
                gateway.logs.dropped()
            ));
        }
        if gateway.logs.skipped_bytes() > 0 {
            title.push_str(&format!(
                "· {} bytes skipped by the gateway ",
                gateway.logs.skipped_bytes()
            ));
        }
        title
    }

    /// The log pane's keys, from the keymap (so they are the keys that work).
    fn log_keys(&self, ctx: &ViewCtx) -> String {
        let key = |action| ctx.keymap.key_label(action);
        if self.scroll > 0 {
            format!(
                " paused {} lines up · {} follows · {} newer ",
                self.scroll,
                key(Action::Follow),
                key(Action::DetailDown)
            )
        } else {
            format!(
                " {} older (pauses) · {} filter · {} wrap ",
                key(Action::DetailUp),
                key(Action::Search),
                key(Action::ToggleWrap)
            )
        }
    }
}

/// One log line: time dim, level coloured, subsystem accented.
fn log_line(line: &LogLine) -> Line<'static> {
    let level_style = match line.level.as_str() {
        "error" | "fatal" => theme::error(),
        "warn" => theme::warning(),
        _ => theme::dim(),
    };
    let mut spans = Vec::new();
    if !line.time.is_empty() {
        spans.push(Span::styled(format!("{} ", line.time), theme::dim()));
    }
    if !line.level.is_empty() {
        spans.push(Span::styled(
            format!("{:<5} ", line.level.to_uppercase()),
            level_style,
        ));
    }
    if !line.subsystem.is_empty() {
        spans.push(Span::styled(
            format!("[{}] ", line.subsystem),
            theme::accent(),
        ));
    }
    spans.push(Span::raw(line.message.clone()));
    Line::from(spans)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::gateway::logs::TailRead;
    use crate::tests::harness::{draw_view, with_view_ctx};

    fn draw(view: &mut GatewaysView, w: u16, h: u16) -> String {
        draw_view(w, h, |area, buf, ctx| view.render(area, buf, ctx))
    }

    fn act(view: &mut GatewaysView, action: Action) -> bool {
        with_view_ctx(|ctx| view.handle_action(action, ctx))
    }

    fn type_filter(view: &mut GatewaysView, text: &str) {
        with_view_ctx(|ctx| {
            for c in text.chars() {
                assert!(view.handle_input_key(&KeyEvent::from(KeyCode::Char(c)), ctx));
            }
            assert!(view.handle_input_key(&KeyEvent::from(KeyCode::Enter), ctx));
        });
    }

    /// `n` lines from `from`, alternating info and warn, as a real log's lines read.
    fn log_lines(from: usize, n: usize) -> Pulse {
        let lines = (from..from + n)
            .map(|i| {
                LogLine::parse(&serde_json::json!({"time": format!("2026-11-25T03:{:02}:{:02}.000+00:00", i / 60 % 60, i % 60),
                    "message": format!("⇄ res ✓ sessions.list {i}ms conn=abc"),
                    "_meta": {"logLevelName": if i % 2 == 0 { "INFO" } else { "WARN" }, "name": "{\"subsystem\":\"gateway/ws\"}"}}).to_string())
            })
            .collect();
        Pulse::Logs(TailRead {
            lines,
            ..TailRead::default()
        })
    }

    /// Two gateways: `local` answering (health, usage, 40 log lines), `lab` down.
    fn overview() -> GatewaysView {
        let mut view = GatewaysView::attaching(&["local".into(), "lab".into()]);
        view.apply("local", Pulse::Up);
        view.apply(
            "local",
            Pulse::Health(Box::new(GatewayHealth {
                version: "2026.9.6".into(),
                uptime_ms: Some(3_725_000),
                clients: vec!["ops-laptop (cli)".into(), "vm (webchat)".into()],
                ok: Some(true),
                sessions: Some(12),
                active_tasks: Some(1),
                ..GatewayHealth::default()
            })),
        );
        view.apply(
            "local",
            Pulse::Usage(vec![
                SessionUsage {
                    key: "agent:main:main".into(),
                    agent: "main".into(),
                    model: "mock-1".into(),
                    total_tokens: Some(30),
                    cost: Some(0.0),
                    messages: Some(2),
                    ..SessionUsage::default()
                },
                SessionUsage {
                    key: "agent:ops:explicit:g1".into(),
                    agent: "ops".into(),
                    model: "mock-1".into(),
                    total_tokens: Some(1_250),
                    cost: Some(0.0125),
                    messages: Some(9),
                    ..SessionUsage::default()
                },
            ]),
        );
        view.apply("lab", Pulse::Down("connection refused".into()));
        view.apply("local", log_lines(0, 40));
        view
    }

    #[test]
    fn the_overview_shows_each_gateway_its_usage_and_the_followed_log() {
        let mut view = overview();
        let screen = draw(&mut view, 110, 32);
        insta::assert_snapshot!("gateways_overview_following", screen);
        let local = screen.lines().find(|l| l.contains("local")).unwrap();
        for part in ["● up", "2026.9.6", "1h 2m", "ok", " 2 ", "12"] {
            assert!(local.contains(part), "{part}: {local}");
        }
        assert!(
            screen
                .lines()
                .any(|l| l.contains("lab") && l.contains("○ down")),
            "{screen}"
        );
        // The most tokens first; the newest log line at the bottom, following.
        let busy = screen.find("agent:ops:explicit:g1").unwrap();
        assert!(busy < screen.find("agent:main:main").unwrap(), "{screen}");
        assert!(
            screen.contains("sessions.list 39ms") && screen.contains("following"),
            "{screen}"
        );
    }

    #[test]
    fn scrolled_up_the_log_is_paused_and_new_lines_do_not_move_it() {
        let mut view = overview();
        draw(&mut view, 110, 32);
        assert!(act(&mut view, Action::DetailUp));
        let paused = draw(&mut view, 110, 32);
        // A poll brings 10 lines: a redraw shows the same lines, the count says there are more.
        assert!(view.apply("local", log_lines(40, 10)));
        let after = draw(&mut view, 110, 32);
        insta::assert_snapshot!("gateways_log_paused", after);
        assert!(
            after.contains("PAUSED") && !after.contains("sessions.list 49ms"),
            "{after}"
        );
        let body = |s: &str| {
            s.lines()
                .skip(12)
                .filter(|l| l.contains("res ✓"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(body(&paused), body(&after), "the paused lines stay put");
        assert!(act(&mut view, Action::Follow));
        assert!(draw(&mut view, 110, 32).contains("sessions.list 49ms"));
        // Another gateway's lines never move the selected gateway's pane.
        assert!(!view.apply("lab", log_lines(0, 3)));
    }

    #[test]
    fn the_filter_keeps_matching_lines_and_wrap_folds_long_ones() {
        let mut view = overview();
        assert!(act(&mut view, Action::Search));
        type_filter(&mut view, "warn");
        let filtered = draw(&mut view, 110, 32);
        insta::assert_snapshot!("gateways_log_filtered", filtered);
        assert!(
            filtered.contains("filter \"warn\"") && filtered.contains("20 lines"),
            "{filtered}"
        );
        assert!(!filtered.contains("INFO"), "{filtered}");
        let long = LogLine::parse(&format!("{}END", "x".repeat(150)));
        view.apply(
            "local",
            Pulse::Logs(TailRead {
                lines: vec![long],
                ..TailRead::default()
            }),
        );
        type_filter_clear(&mut view);
        assert!(
            !draw(&mut view, 110, 32).contains("END"),
            "cut without wrap"
        );
        assert!(act(&mut view, Action::ToggleWrap));
        let wrapped = draw(&mut view, 110, 32);
        insta::assert_snapshot!("gateways_log_wrapped", wrapped);
        assert!(
            wrapped.contains("END") && wrapped.contains("wrapped"),
            "{wrapped}"
        );
    }

    #[test]
    fn without_a_gateway_it_says_why() {
        let mut view =
            GatewaysView::unavailable("no gateway configured: add `gateways` to clawdeck.json5");
        let screen = draw(&mut view, 80, 6);
        assert!(screen.contains("no gateway configured"), "{screen}");
        // On a narrow terminal the reason wraps: its last word is still on screen.
        let narrow = draw(&mut view, 39, 8);
        assert!(narrow.contains("clawdeck.json5"), "{narrow}");
        assert!(!view.apply("local", Pulse::Up), "no such gateway");
    }

    fn type_filter_clear(view: &mut GatewaysView) {
        assert!(act(view, Action::Search));
        assert!(with_view_ctx(
            |ctx| view.handle_input_key(&KeyEvent::from(KeyCode::Esc), ctx)
        ));
        assert!(view.filter.is_empty());
    }
}
