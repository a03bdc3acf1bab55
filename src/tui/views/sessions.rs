//! Sessions view: the live session roster of every attached gateway (agent, key, kind, running
//! or queued, last activity), with each gateway's connection state. Fed by the core's roster
//! feed through `CoreEvent::Gateway`; it never touches a socket.

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, StatefulWidget, Table, TableState, Widget};

use super::ViewCtx;
use crate::gateway::ClientEvent;
use crate::gateway::roster::{Link, Roster};
use crate::tui::keymap::Action;
use crate::tui::theme;

#[derive(Debug, Default)]
pub struct SessionsView {
    pub roster: Roster,
    pub selected: usize,
    /// Why no gateway is attached (shown instead of the table).
    pub unavailable: Option<String>,
    table_area: Rect,
}

impl SessionsView {
    pub fn unavailable(reason: &str) -> Self {
        SessionsView {
            unavailable: Some(reason.to_string()),
            ..SessionsView::default()
        }
    }

    /// Gateways being attached (shown as connecting until they answer).
    pub fn attaching(gateways: &[String]) -> Self {
        let mut view = SessionsView::default();
        for g in gateways {
            view.roster.add_gateway(g);
        }
        view
    }

    /// Applies one gateway event; true when the view changed.
    pub fn apply(&mut self, gateway: &str, event: &ClientEvent) -> bool {
        let changed = self.roster.apply(gateway, event);
        self.selected = self.selected.min(self.roster.len().saturating_sub(1));
        changed
    }

    pub fn handle_action(&mut self, action: Action, _ctx: &ViewCtx) -> bool {
        let page = self.table_area.height.saturating_sub(3) as usize;
        match super::list::moved(self.selected, action, self.roster.len(), page) {
            Some(to) => {
                self.selected = to;
                true
            }
            None => false,
        }
    }

    pub fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        let r = self.table_area;
        if !crate::tui::widgets::mouse_in(r, mouse) {
            return false;
        }
        let len = self.roster.len();
        match mouse.kind {
            MouseEventKind::Down(_) if mouse.row >= r.y + 2 => {
                let row = (mouse.row - r.y - 2) as usize;
                if row < len {
                    self.selected = row;
                }
            }
            MouseEventKind::ScrollUp => self.selected = self.selected.saturating_sub(1),
            MouseEventKind::ScrollDown => {
                self.selected = (self.selected + 1).min(len.saturating_sub(1))
            }
            _ => return false,
        }
        true
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, _ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            Paragraph::new(Line::styled(reason.clone(), theme::dim()))
                .block(Block::bordered().title(" Gateway sessions "))
                .render(area, buf);
            return;
        }
        let links: Vec<Line> = self.roster.links().map(|(g, l)| link_line(g, l)).collect();
        let links_height = (links.len() as u16 + 2).min(area.height / 3).max(3);
        let [links_area, table_area] =
            Layout::vertical([Constraint::Length(links_height), Constraint::Fill(1)]).areas(area);
        self.table_area = table_area;
        Paragraph::new(links)
            .block(Block::bordered().title(" Gateways "))
            .render(links_area, buf);

        let rows = self.roster.rows();
        let title = format!(
            " Sessions · {} ",
            crate::tui::widgets::count(rows.len(), "session", "sessions")
        );
        if rows.is_empty() {
            Paragraph::new(Line::styled(
                "no sessions yet (they appear as the gateways report them)",
                theme::dim(),
            ))
            .block(Block::bordered().title(title))
            .render(table_area, buf);
            return;
        }
        let table_rows: Vec<Row> = rows
            .iter()
            .map(|(gateway, row)| {
                let state = match row.state() {
                    "running" => Span::styled("● running", theme::accent()),
                    "queued" => Span::styled("… queued", theme::warning()),
                    other => Span::styled(other.to_string(), theme::dim()),
                };
                Row::new(vec![
                    Span::raw(gateway.to_string()),
                    Span::raw(row.agent.clone()),
                    Span::raw(row.key.clone()),
                    Span::raw(row.kind.clone()),
                    state,
                    Span::raw(row.last_activity_text()),
                ])
            })
            .collect();
        let mut state = TableState::default().with_selected(Some(self.selected));
        StatefulWidget::render(
            Table::new(
                table_rows,
                [
                    Constraint::Length(16),
                    Constraint::Length(8),
                    Constraint::Fill(1),
                    Constraint::Length(8),
                    Constraint::Length(10),
                    Constraint::Length(19),
                ],
            )
            .header(
                Row::new(vec![
                    "gateway",
                    "agent",
                    "key",
                    "kind",
                    "state",
                    "last activity (UTC)",
                ])
                .style(theme::bold()),
            )
            .row_highlight_style(theme::selected())
            .block(Block::bordered().title(title)),
            table_area,
            buf,
            &mut state,
        );
    }
}

fn link_line(gateway: &str, link: &Link) -> Line<'static> {
    let (mark, text, style) = match link {
        Link::Connecting => ("…", "connecting".to_string(), theme::dim()),
        Link::Up { server_version } => ("●", format!("OpenClaw {server_version}"), theme::ok()),
        Link::Down { reason } => (
            "○",
            format!("reconnecting ({reason}); rows are last known"),
            theme::warning(),
        ),
        Link::Failed { reason } => ("✗", reason.clone(), theme::error()),
    };
    Line::from(vec![
        Span::styled(format!("{mark} "), style),
        Span::raw(format!("{gateway}: ")),
        Span::styled(text, style),
    ])
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::gateway::{EventFrame, Hello};
    use crate::tui::clock::FixedClock;
    use crate::tui::event::AppEventSender;
    use crate::tui::keymap::Keymap;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use serde_json::json;
    use std::sync::Arc;

    fn draw(view: &mut SessionsView, w: u16, h: u16) -> String {
        let (tx, _rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal
            .draw(|f| view.render(f.area(), f.buffer_mut(), &ctx))
            .unwrap();
        let buf = terminal.backend().buffer().clone();
        (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn hello(version: &str) -> Arc<Hello> {
        Arc::new(Hello {
            protocol: 4,
            server_version: version.into(),
            conn_id: "c".into(),
            methods: vec![],
            events: vec![],
            role: "operator".into(),
            scopes: vec![],
            tick_interval_ms: None,
            device_token: None,
        })
    }

    fn changed(payload: serde_json::Value) -> ClientEvent {
        ClientEvent::Event(Arc::new(EventFrame {
            event: "sessions.changed".into(),
            payload,
            seq: None,
        }))
    }

    #[test]
    fn roster_is_live_and_survives_a_drop() {
        let mut view = SessionsView::attaching(&["local".into(), "lab".into()]);
        view.apply(
            "local",
            &ClientEvent::Connected {
                hello: hello("2026.9.6"),
                reconnect: false,
            },
        );
        view.apply(
            "local",
            &ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: json!({"sessions": [
                    {"key": "agent:ops:main", "agentId": "ops", "kind": "main", "updatedAt": 1_795_380_000_000u64},
                    {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1_795_370_000_000u64},
                ]}),
            },
        );
        // A run starts in a new session: it appears at once, running, on top.
        assert!(view.apply(
            "local",
            &changed(json!({
                "sessionKey": "agent:ops:explicit:g1", "phase": "start", "ts": 1_795_380_960_128u64,
                "session": {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "hasActiveRun": true}
            }))
        ));
        view.apply(
            "lab",
            &ClientEvent::Disconnected {
                reason: "connection refused".into(),
                retry_in: std::time::Duration::from_secs(2),
            },
        );
        let screen = draw(&mut view, 100, 12);
        insta::assert_snapshot!("sessions_view_live", screen);
        let lines: Vec<&str> = screen.lines().collect();
        assert!(lines[1].contains("lab: reconnecting"), "{screen}");
        assert!(lines[2].contains("local: OpenClaw 2026.9.6"), "{screen}");
        let first = lines
            .iter()
            .position(|l| l.contains("agent:ops:explicit:g1"));
        let second = lines.iter().position(|l| l.contains("agent:ops:main"));
        assert!(first < second, "most recent first\n{screen}");
        assert!(
            lines[first.unwrap()].contains("● running"),
            "{}",
            lines[first.unwrap()]
        );

        // The run ends: the same row, no longer running.
        view.apply(
            "local",
            &changed(json!({
                "sessionKey": "agent:ops:explicit:g1", "phase": "end", "ts": 1_795_380_961_603u64,
                "session": {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "hasActiveRun": false}
            })),
        );
        let screen = draw(&mut view, 100, 12);
        let row = screen
            .lines()
            .find(|l| l.contains("agent:ops:explicit:g1"))
            .unwrap();
        assert!(row.contains("idle") && !row.contains("running"), "{row}");
        assert!(screen.contains("3 sessions"), "{screen}");
    }

    #[test]
    fn empty_and_unavailable() {
        let mut view = SessionsView::attaching(&["local".into()]);
        let screen = draw(&mut view, 80, 8);
        assert!(screen.contains("local: connecting"), "{screen}");
        assert!(screen.contains("no sessions yet"), "{screen}");
        let mut view = SessionsView::unavailable("no gateway configured");
        insta::assert_snapshot!("sessions_view_unavailable", draw(&mut view, 60, 4));
    }
}
