//! The gateways' own runs in the Queue view, beside clawdeck's lanes: every session a gateway
//! reports as running or queued (gateway, agent, session key, state, elapsed since its run
//! started), rebuilt from the Sessions view's roster whenever a gateway event changes that
//! roster, so it is as live as the roster. `]`/`[` put the cursor here; the kill key aborts
//! the selected run (`sessions.abort`) after asking.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget};

use super::ViewCtx;
use crate::clock::short_duration;
use crate::gateway::roster::{Link, Roster};
use crate::theme;
use crate::widgets::table::{list_table, render_selected};

/// A gateway session's state as the Sessions view and the Queue view's section both show it.
pub(crate) fn state_span(state: &str) -> Span<'static> {
    match state {
        "running" => Span::styled("● running", theme::accent()),
        "queued" => Span::styled("… queued", theme::warning()),
        other => Span::styled(other.to_string(), theme::dim()),
    }
}

/// Below this many rows for the whole Queue view, the section gives its room to the lanes.
const MIN_VIEW_HEIGHT: u16 = 12;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GatewayRun {
    pub(crate) gateway: String,
    pub(crate) agent: String,
    pub(crate) key: String,
    pub(crate) running: bool,
    /// When the run started (ms since the epoch), when the gateway said.
    pub(crate) started_ms: Option<u64>,
    pub(crate) run_ids: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct GatewayRuns {
    /// Gateways attached (none: the section is not drawn).
    pub(crate) gateways: usize,
    /// Gateways whose rows are last known (dropped, reconnecting, or given up).
    pub(crate) stale: Vec<String>,
    pub(crate) runs: Vec<GatewayRun>,
}

impl GatewayRuns {
    /// The running and queued sessions of every gateway, running first, then most recent.
    pub(crate) fn from_roster(roster: &Roster) -> Self {
        let mut runs: Vec<GatewayRun> = roster
            .rows()
            .into_iter()
            .filter(|(_, row)| row.running || row.queued)
            .map(|(gateway, row)| GatewayRun {
                gateway: gateway.to_string(),
                agent: row.agent.clone(),
                key: row.key.clone(),
                running: row.running,
                started_ms: row.started_at_ms,
                run_ids: row.run_ids.clone(),
            })
            .collect();
        // Stable: within each state the roster's most-recent-first order stays.
        runs.sort_by_key(|r| !r.running);
        GatewayRuns {
            gateways: roster.links().count(),
            stale: roster
                .links()
                .filter(|(_, l)| !matches!(l, Link::Up { .. } | Link::Connecting))
                .map(|(g, _)| g.to_string())
                .collect(),
            runs,
        }
    }

    /// Where the run `selected` (gateway, session key) is; the first one when it is gone.
    pub(crate) fn position_of(&self, selected: Option<&(String, String)>) -> usize {
        selected
            .and_then(|(gateway, key)| {
                self.runs
                    .iter()
                    .position(|r| &r.gateway == gateway && &r.key == key)
            })
            .unwrap_or(0)
    }

    /// Elapsed times change every second while something runs.
    pub(crate) fn needs_tick(&self) -> bool {
        self.runs.iter().any(|r| r.running)
    }

    /// Draws the section at the bottom of `area` and returns what is left above it (all of
    /// `area` when no gateway is attached or the view is too short to share).
    /// `cursor`: the selected row while the Queue's cursor is on this section.
    pub(crate) fn render_below(
        &self,
        area: Rect,
        buf: &mut Buffer,
        ctx: &ViewCtx,
        cursor: Option<usize>,
    ) -> Rect {
        if self.gateways == 0 || area.height < MIN_VIEW_HEIGHT {
            return area;
        }
        let wanted = self.runs.len().max(1) as u16 + 3;
        let height = wanted.min(area.height / 2).clamp(4, 12);
        let [rest, section] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(height)]).areas(area);
        let running = self.runs.iter().filter(|r| r.running).count();
        let mut title = format!(
            " Gateway runs · {running} running, {} queued ",
            self.runs.len() - running
        );
        if !self.stale.is_empty() {
            title.push_str(&format!("· last known for {} ", self.stale.join(", ")));
        }
        // More runs than rows: say how many show (the Sessions view lists every session).
        let rows_shown = height.saturating_sub(3) as usize;
        if self.runs.len() > rows_shown {
            title.push_str(&format!(
                "· first {rows_shown} of {} ({} lists all) ",
                self.runs.len(),
                super::ViewId::Sessions.title()
            ));
        }
        let block = Block::bordered().title(title);
        let block = if cursor.is_some() {
            block.border_style(theme::accent())
        } else {
            block
        };
        if self.runs.is_empty() {
            Paragraph::new(Line::styled(
                "no gateway session is running or queued",
                theme::dim(),
            ))
            .block(block)
            .render(section, buf);
            return rest;
        }
        let now_ms = ctx
            .clock
            .wall()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .ok();
        let rows: Vec<Row> = self
            .runs
            .iter()
            .map(|r| {
                let state = state_span(if r.running { "running" } else { "queued" });
                let elapsed = match (r.running, r.started_ms, now_ms) {
                    (true, Some(start), Some(now)) if now >= start => {
                        short_duration(std::time::Duration::from_millis(now - start))
                    }
                    _ => "-".to_string(),
                };
                Row::new(vec![
                    Span::raw(format!("gateway {}", r.gateway)),
                    Span::raw(r.agent.clone()),
                    Span::raw(r.key.clone()),
                    state,
                    Span::raw(elapsed),
                ])
            })
            .collect();
        let table = list_table(
            rows,
            [
                Constraint::Length(18),
                Constraint::Length(10),
                Constraint::Fill(1),
                Constraint::Length(10),
                Constraint::Length(9),
            ],
            Row::new(vec!["source", "agent", "session", "state", "elapsed"]),
            block,
        );
        // The cursor's row stays in sight (rows past the section are the Sessions view's).
        let offset = cursor.map_or(0, |at| at.saturating_sub(rows_shown.saturating_sub(1)));
        render_selected(table, section, buf, cursor, offset);
        rest
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::clock::{Clock, FixedClock};
    use crate::event::AppEventSender;
    use crate::gateway::{ClientEvent, EventFrame, Hello};
    use crate::keymap::Keymap;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use serde_json::json;
    use std::sync::Arc;

    fn roster_with_a_run() -> Roster {
        let mut roster = Roster::default();
        roster.add_gateway("local");
        roster.apply(
            "local",
            &ClientEvent::Connected {
                hello: Arc::new(Hello {
                    protocol: 4,
                    server_version: "2026.9.6".into(),
                    conn_id: "c".into(),
                    methods: vec![],
                    events: vec![],
                    role: "operator".into(),
                    scopes: vec![],
                    tick_interval_ms: None,
                    uptime_ms: None,
                    device_token: None,
                }),
                reconnect: false,
            },
        );
        roster.replace(
            "local",
            &json!({"sessions": [
                {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
                {"key": "agent:ops:lane", "agentId": "ops", "kind": "direct", "queuedCount": 2, "updatedAt": 2},
            ]}),
        );
        roster
    }

    fn draw(runs: &GatewayRuns, w: u16, h: u16) -> (String, Rect) {
        let (tx, _rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        let mut rest = Rect::default();
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal
            .draw(|f| rest = runs.render_below(f.area(), f.buffer_mut(), &ctx, None))
            .unwrap();
        let buf = terminal.backend().buffer().clone();
        let text = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n");
        (text, rest)
    }

    #[test]
    fn a_gateway_run_shows_live_with_its_gateway_agent_session_and_elapsed_time() {
        let mut roster = roster_with_a_run();
        let clock_ms = FixedClock::at_epoch_2026()
            .wall()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        // A run starts 42 s before the fixed clock's now (a recorded `sessions.changed` shape).
        roster.apply(
            "local",
            &ClientEvent::Event(Arc::new(EventFrame {
                event: "sessions.changed".into(),
                payload: json!({"sessionKey": "agent:ops:explicit:g1", "phase": "start",
                    "runId": "b644a7c6", "ts": clock_ms - 42_000,
                    "session": {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "hasActiveRun": true}}),
                seq: None,
            })),
        );
        let runs = GatewayRuns::from_roster(&roster);
        assert!(runs.needs_tick());
        let (screen, rest) = draw(&runs, 100, 14);
        insta::assert_snapshot!("queue_gateway_runs", screen);
        let run = screen
            .lines()
            .find(|l| l.contains("agent:ops:explicit:g1"))
            .unwrap();
        assert!(
            run.contains("gateway local")
                && run.contains("ops")
                && run.contains("● running")
                && run.contains("42.0s"),
            "{run}"
        );
        let queued = screen
            .lines()
            .find(|l| l.contains("agent:ops:lane"))
            .unwrap();
        assert!(queued.contains("… queued"), "{queued}");
        assert!(
            !screen.contains("agent:main:main"),
            "idle sessions are not runs\n{screen}"
        );
        assert!(
            screen.contains("Gateway runs · 1 running, 1 queued"),
            "{screen}"
        );
        assert!(
            rest.height < 14 && rest.y == 0,
            "the lanes keep the rest above: {rest:?}"
        );

        // The run ends: it leaves the section at the next roster event.
        roster.apply(
            "local",
            &ClientEvent::Event(Arc::new(EventFrame {
                event: "sessions.changed".into(),
                payload: json!({"sessionKey": "agent:ops:explicit:g1", "phase": "end",
                    "session": {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "hasActiveRun": false}}),
                seq: None,
            })),
        );
        let runs = GatewayRuns::from_roster(&roster);
        let (screen, _) = draw(&runs, 100, 14);
        assert!(!screen.contains("agent:ops:explicit:g1"), "{screen}");
        assert!(screen.contains("0 running, 1 queued"), "{screen}");
    }

    #[test]
    fn no_gateway_no_section_and_small_views_keep_their_room() {
        let (_, rest) = draw(&GatewayRuns::default(), 80, 20);
        assert_eq!(rest, Rect::new(0, 0, 80, 20));
        let runs = GatewayRuns::from_roster(&roster_with_a_run());
        let (_, rest) = draw(&runs, 80, MIN_VIEW_HEIGHT - 1);
        assert_eq!(rest.height, MIN_VIEW_HEIGHT - 1);
        for w in 1..=40 {
            for h in 1..=30 {
                draw(&runs, w, h);
            }
        }
    }
}
