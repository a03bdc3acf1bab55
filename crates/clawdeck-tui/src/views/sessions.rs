//! Sessions view: the live session roster of every attached gateway (agent, key, kind, running
//! or queued, last activity), with each gateway's connection state, and the selected session's
//! live transcript beside it: messages by role, tool calls with their arguments, streamed
//! output, outcome and duration. Fed by the core's roster feed through `CoreEvent::Gateway`;
//! selecting a row only tells the feed which session to follow (no socket on the UI task).

use std::collections::{HashMap, VecDeque};

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget};

mod history;

use super::ViewCtx;
use crate::gateway::ClientEvent;
use crate::gateway::feed::{FOLLOW, SessionFollow};
use crate::gateway::history::HISTORY;
use crate::gateway::roster::{Link, Roster};
use crate::gateway::transcript::{SessionTranscript, ToolEntry, ToolOutcome, TranscriptEntry};
use crate::gateway::watch::classify;
use crate::keymap::Action;
use crate::theme;
use crate::widgets::table::{list_table, render_selected};

/// Transcripts kept for sessions selected earlier (going back shows what was seen).
const KEPT_TRANSCRIPTS: usize = 16;
/// Output lines shown per tool call (its newest ones).
const OUTPUT_LINES: usize = 8;

/// Widths of the roster's columns (gateway, agent, key, kind, state, last activity); the key
/// takes what is left.
const ROSTER_WIDTHS: [u16; 6] = [16, 8, 0, 8, 10, 19];

/// (gateway, session key).
type SessionId = (String, String);

// The message box, steer and abort (a child module: it works on the view's fields).
#[path = "session_chat.rs"]
pub(crate) mod session_chat;

#[derive(Debug, Default)]
pub(crate) struct SessionsView {
    pub(crate) roster: Roster,
    pub(crate) selected: usize,
    /// Why no gateway is attached (shown instead of the table).
    pub(crate) unavailable: Option<String>,
    /// Tells the core's feed which session's transcript to follow.
    follow: Option<SessionFollow>,
    /// The session whose transcript the detail pane shows.
    followed: Option<SessionId>,
    transcripts: HashMap<SessionId, SessionTranscript>,
    /// Least recently followed first.
    transcript_order: VecDeque<SessionId>,
    /// Why following the selected session failed, if it did.
    follow_error: Option<String>,
    /// Transcript lines scrolled up from the newest (0: following the newest).
    detail_scroll: usize,
    table_area: Rect,
    detail_area: Rect,
    /// The message box and the turns the console started.
    pub(crate) chat: session_chat::SessionChat,
}

/// What one gateway event changed: the roster (the Queue view's gateway section follows it),
/// and whether anything the view shows did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Applied {
    pub(crate) roster: bool,
    pub(crate) view: bool,
}

impl SessionsView {
    pub(crate) fn unavailable(reason: &str) -> Self {
        SessionsView {
            unavailable: Some(reason.to_string()),
            ..SessionsView::default()
        }
    }

    /// Gateways being attached (shown as connecting until they answer).
    pub(crate) fn attaching(gateways: &[String]) -> Self {
        let mut view = SessionsView::default();
        for g in gateways {
            view.roster.add_gateway(g);
        }
        view
    }

    /// The core's handle for choosing the followed session.
    pub(crate) fn set_follow(&mut self, follow: SessionFollow) {
        self.follow = Some(follow);
        self.follow_selected();
    }

    /// The followed session's transcript.
    pub(crate) fn transcript(&self) -> Option<&SessionTranscript> {
        self.followed
            .as_ref()
            .and_then(|id| self.transcripts.get(id))
    }

    /// Applies one gateway event and says what it changed.
    pub fn apply(&mut self, gateway: &str, event: &ClientEvent) -> Applied {
        let roster = self.roster.apply(gateway, event);
        let mut changed = roster;
        match event {
            ClientEvent::Event(frame)
                if matches!(frame.event.as_str(), "session.tool" | "session.message") =>
            {
                let item = classify(gateway, &frame.event, &frame.payload);
                if let Some(key) = &item.session_key
                    && let Some(transcript) = self
                        .transcripts
                        .get_mut(&(gateway.to_string(), key.clone()))
                {
                    changed |= transcript.apply(&item);
                }
            }
            ClientEvent::Disconnected { .. } => {
                if let Some(id) = self.followed.clone().filter(|(g, _)| g == gateway)
                    && let Some(t) = self.transcripts.get_mut(&id)
                {
                    t.gap("connection dropped; events until the reconnect are missing");
                }
            }
            ClientEvent::Subscribed { method, payload } if method == HISTORY => {
                changed |= self.apply_history(gateway, payload);
            }
            ClientEvent::SubscribeFailed { method, error } if method.starts_with(FOLLOW) => {
                self.follow_error = Some(error.to_string());
                changed = true;
            }
            _ => {}
        }
        // The selection stays on its session while rows move (most recent first). Only a
        // roster change moves rows: a transcript event (most of a flood) skips this.
        if roster {
            if let Some((g, k)) = &self.followed
                && let Some(at) = self
                    .roster
                    .rows()
                    .iter()
                    .position(|(rg, row)| rg == g && &row.key == k)
            {
                self.selected = at;
            }
            self.selected = self.selected.min(self.roster.len().saturating_sub(1));
            self.follow_selected();
        }
        Applied {
            roster,
            view: changed,
        }
    }

    /// Selects (and follows) a session by gateway and key; false when the roster has no such
    /// row.
    #[cfg(test)]
    pub(crate) fn select_session(&mut self, gateway: &str, key: &str) -> bool {
        let Some(at) = self
            .roster
            .rows()
            .iter()
            .position(|(g, row)| *g == gateway && row.key == key)
        else {
            return false;
        };
        self.selected = at;
        self.follow_selected();
        true
    }

    /// Follows the selected row's session (the feed subscribes to its transcript).
    fn follow_selected(&mut self) {
        let rows = self.roster.rows();
        let Some((gateway, row)) = rows.get(self.selected) else {
            return;
        };
        let id = (gateway.to_string(), row.key.clone());
        if self.followed.as_ref() == Some(&id) {
            return;
        }
        if let Some(old) = self.followed.take()
            && let Some(t) = self.transcripts.get_mut(&old)
        {
            t.gap("not followed while another session was selected");
        }
        if let Some(follow) = &self.follow {
            follow.follow(&id.0, &id.1);
        }
        self.follow_error = None;
        self.detail_scroll = 0;
        self.transcript_order.retain(|o| o != &id);
        self.transcript_order.push_back(id.clone());
        self.transcripts.entry(id.clone()).or_default();
        while self.transcript_order.len() > KEPT_TRANSCRIPTS {
            if let Some(oldest) = self.transcript_order.pop_front() {
                self.transcripts.remove(&oldest);
            }
        }
        self.followed = Some(id);
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if let Some(done) = self.chat_action(action, ctx) {
            return done;
        }
        // The lower-pane keys scroll the transcript by half its height (K older, J newer).
        let half = (self.detail_area.height.saturating_sub(2) / 2).max(1) as usize;
        match action {
            Action::DetailUp => {
                self.detail_scroll = self.detail_scroll.saturating_add(half);
                return true;
            }
            Action::DetailDown => {
                let changed = self.detail_scroll != 0;
                self.detail_scroll = self.detail_scroll.saturating_sub(half);
                return changed;
            }
            _ => {}
        }
        if action == Action::Follow {
            // Back to the newest transcript lines.
            let changed = self.detail_scroll != 0;
            self.detail_scroll = 0;
            return changed;
        }
        let page = self.table_area.height.saturating_sub(3) as usize;
        match crate::widgets::list::moved(self.selected, action, self.roster.len(), page) {
            Some(to) => {
                self.selected = to;
                self.follow_selected();
                true
            }
            None => false,
        }
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        // The wheel over the transcript scrolls it (following pauses until `f` / End).
        if crate::widgets::mouse_in(self.detail_area, mouse) {
            match mouse.kind {
                MouseEventKind::ScrollUp => {
                    self.detail_scroll = self.detail_scroll.saturating_add(3)
                }
                MouseEventKind::ScrollDown => {
                    self.detail_scroll = self.detail_scroll.saturating_sub(3)
                }
                _ => return false,
            }
            return true;
        }
        let len = self.roster.len();
        match crate::widgets::list::table_mouse(self.table_area, mouse, 0, self.selected, len, 1) {
            Some(selected) => self.selected = selected,
            None => return false,
        }
        self.follow_selected();
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        if let Some(reason) = &self.unavailable {
            crate::widgets::unavailable_pane(area, buf, "Gateway sessions", reason, theme::dim());
            return;
        }
        let links: Vec<Line> = self.roster.links().map(|(g, l)| link_line(g, l)).collect();
        let links_height = (links.len() as u16 + 2).min(area.height / 3).max(3);
        let [links_area, body] =
            Layout::vertical([Constraint::Length(links_height), Constraint::Fill(1)]).areas(area);
        // More gateways than rows: the title says how many show (each row says its state).
        let shown = links_area.height.saturating_sub(2) as usize;
        let title = if links.len() > shown {
            format!(" Gateways · first {shown} of {} ", links.len())
        } else {
            " Gateways ".to_string()
        };
        Paragraph::new(links)
            .block(Block::bordered().title(title))
            .render(links_area, buf);
        // The transcript beside the roster when there is room, else below it.
        let [table_area, detail_area] = if body.width >= 180 {
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body)
        } else {
            Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body)
        };
        self.table_area = table_area;
        let detail_area = self.render_chat(detail_area, buf);
        self.detail_area = detail_area;
        self.render_roster(table_area, buf);
        self.render_detail(detail_area, buf, ctx);
    }

    fn render_roster(&self, table_area: Rect, buf: &mut Buffer) {
        let rows = self.roster.rows();
        let title = format!(
            " Sessions · {} ",
            crate::widgets::count(rows.len(), "session", "sessions")
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
        // The key says which session a row is: it keeps its room, and the other columns drop
        // out on a narrow terminal (last activity first, the state last).
        let longest_key = rows
            .iter()
            .map(|(_, r)| r.key.chars().count())
            .max()
            .unwrap_or(3)
            .clamp(3, 40) as u16;
        let mut room = table_area.width.saturating_sub(3 + longest_key);
        let mut shown = [false; 6];
        shown[2] = true;
        for column in [4, 1, 0, 3, 5] {
            let width = ROSTER_WIDTHS[column] + 1;
            if width <= room {
                room -= width;
                shown[column] = true;
            }
        }
        let table_rows: Vec<Row> = rows
            .iter()
            .map(|(gateway, row)| {
                let state = super::gateway_runs::state_span(row.state());
                let cells = [
                    Span::raw(gateway.to_string()),
                    Span::raw(row.agent.clone()),
                    Span::raw(row.key.clone()),
                    Span::raw(row.kind.clone()),
                    state,
                    Span::raw(row.last_activity_text()),
                ];
                Row::new(
                    cells
                        .into_iter()
                        .zip(shown)
                        .filter_map(|(cell, on)| on.then_some(cell)),
                )
            })
            .collect();
        let widths = (0..6).filter(|c| shown[*c]).map(|c| {
            if c == 2 {
                Constraint::Fill(1)
            } else {
                Constraint::Length(ROSTER_WIDTHS[c])
            }
        });
        let header = [
            "gateway",
            "agent",
            "key",
            "kind",
            "state",
            "last activity (UTC)",
        ]
        .into_iter()
        .zip(shown)
        .filter_map(|(name, on)| on.then_some(name));
        let table = list_table(
            table_rows,
            widths,
            Row::new(header),
            Block::bordered().title(title),
        );
        render_selected(table, table_area, buf, self.selected, 0);
    }

    /// The followed session's transcript, newest at the bottom (only what fits is built).
    /// The transcript pane's title: the session, its entries (and what was dropped), and what
    /// decides its exec calls besides the config (explain exec says how).
    fn detail_title(&self, gateway: &str, key: &str, transcript: &SessionTranscript) -> String {
        let mut title = format!(
            " {key} @ {gateway} · {} ",
            crate::widgets::count(transcript.len(), "entry", "entries")
        );
        if transcript.dropped() > 0 {
            title.push_str(&format!(
                "· {} earlier entries dropped ",
                transcript.dropped()
            ));
        }
        if let Some((_, row)) = self
            .roster
            .rows()
            .into_iter()
            .find(|(g, row)| *g == gateway && row.key == key)
        {
            if let Some(mode) = &row.permission_mode {
                title.push_str(&format!("· permission {mode} "));
            }
            if let Some(level) = &row.elevated_level {
                title.push_str(&format!("· elevated {level} "));
            }
        }
        title
    }

    fn render_detail(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let (Some((gateway, key)), Some(transcript)) = (&self.followed, self.transcript()) else {
            Paragraph::new(Line::styled(
                "select a session to follow its transcript and tool calls",
                theme::dim(),
            ))
            .block(Block::bordered().title(" Transcript "))
            .render(area, buf);
            return;
        };
        let mut title = self.detail_title(gateway, key, transcript);
        let height = area.height.saturating_sub(2) as usize;
        let now_ms = ctx
            .clock
            .wall()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .ok();
        // Newest entries first until the pane (plus what is scrolled past) is full, then put
        // back in order; only what can show is built.
        let wanted = height.saturating_add(self.detail_scroll);
        let mut lines: Vec<Line> = Vec::new();
        let mut complete = true;
        for entry in transcript.entries().rev() {
            if lines.len() >= wanted {
                complete = false;
                break;
            }
            let mut block = entry_lines(entry, now_ms);
            block.extend(lines);
            lines = block;
        }
        let mut top: Vec<Line> = Vec::new();
        if let Some(error) = &self.follow_error {
            top.push(Line::styled(
                format!("✗ cannot follow this session: {error}"),
                theme::error(),
            ));
        }
        if transcript.is_empty() && self.follow_error.is_none() {
            top.push(Line::styled(
                "following: its messages and tool calls appear as they happen",
                theme::dim(),
            ));
        }
        if let Some(line) = history::not_loaded_line(transcript).filter(|_| complete) {
            top.push(line);
        }
        if transcript.dropped() > 0 && complete {
            top.push(Line::styled(
                format!(
                    "… {} earlier entries dropped (the newest {} are kept)",
                    transcript.dropped(),
                    transcript.len()
                ),
                theme::warning(),
            ));
        }
        top.extend(lines);
        self.detail_scroll = self.detail_scroll.min(top.len().saturating_sub(height));
        if self.detail_scroll > 0 {
            title.push_str(&format!(
                "· scrolled up {} lines (f follows) ",
                self.detail_scroll
            ));
        }
        // Older lines above what shows: say so, with the keys that reach them.
        let older = !complete || top.len() > height + self.detail_scroll;
        let mark = match (older, self.detail_scroll > 0) {
            (true, true) => Some("↑↓"),
            (true, false) => Some("↑"),
            (false, true) => Some("↓"),
            (false, false) => None,
        };
        let block = Block::bordered().title(title);
        let block = match mark {
            Some(arrows) => block.title_bottom(Line::styled(
                format!(
                    " {arrows} more · {} older / {} newer ",
                    ctx.keymap.key_label(Action::DetailUp),
                    ctx.keymap.key_label(Action::DetailDown)
                ),
                theme::accent(),
            )),
            None => block,
        };
        let end = top.len() - self.detail_scroll;
        let shown: Vec<Line> = top.drain(end.saturating_sub(height)..end).collect();
        Paragraph::new(shown).block(block).render(area, buf);
    }
}

/// One transcript entry as lines.
fn entry_lines(entry: &TranscriptEntry, now_ms: Option<u64>) -> Vec<Line<'static>> {
    match entry {
        TranscriptEntry::Message { role, text, .. } => {
            let style = role_style(role);
            let mut lines: Vec<Line> = Vec::new();
            for (n, part) in text.lines().enumerate() {
                let label = if n == 0 {
                    format!("{role:>9} │ ")
                } else {
                    format!("{:>9} │ ", "")
                };
                lines.push(Line::from(vec![
                    Span::styled(label, style),
                    Span::raw(part.to_string()),
                ]));
            }
            if lines.is_empty() {
                lines.push(Line::styled(format!("{role:>9} │ "), style));
            }
            lines
        }
        TranscriptEntry::Tool(call) => tool_lines(call, now_ms),
        TranscriptEntry::Gap { reason } => {
            vec![Line::styled(format!("── {reason} ──"), theme::dim())]
        }
    }
}

fn role_style(role: &str) -> Style {
    match role {
        "user" => theme::accent(),
        "assistant" => theme::ok(),
        _ => theme::dim(),
    }
}

fn tool_lines(call: &ToolEntry, now_ms: Option<u64>) -> Vec<Line<'static>> {
    let (mark, outcome, style) = match call.outcome {
        ToolOutcome::Running => ("●", "running".to_string(), theme::accent()),
        ToolOutcome::Ok => ("✓", "ok".to_string(), theme::ok()),
        ToolOutcome::Error => ("✗", "error".to_string(), theme::error()),
    };
    let timing = match (call.outcome == ToolOutcome::Running, call.duration_ms) {
        (false, Some(ms)) => format!(" · {}", duration_text(ms)),
        (true, _) => match (call.started_ms, now_ms) {
            (Some(start), Some(now)) if now >= start => {
                format!(" · {}", duration_text(now - start))
            }
            _ => String::new(),
        },
        _ => String::new(),
    };
    let args = if call.args.is_null() {
        String::new()
    } else {
        call.args.to_string()
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("     tool │ ", theme::dim()),
        Span::styled(format!("⚙ {} ", call.name), theme::bold()),
        Span::styled(format!("{mark} {outcome}{timing} "), style),
        Span::raw(args),
    ])];
    let output: Vec<&str> = call.output.lines().collect();
    let hidden = output.len().saturating_sub(OUTPUT_LINES);
    if hidden > 0 || call.output_cut > 0 {
        let what = if call.output_cut > 0 {
            format!("… earlier output not kept ({} bytes)", call.output_cut)
        } else {
            format!("… {hidden} earlier lines")
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:>9} │   ", ""), theme::dim()),
            Span::styled(what, theme::dim()),
        ]));
    }
    let out_style = if call.outcome == ToolOutcome::Error {
        theme::error()
    } else {
        Style::default()
    };
    for line in &output[hidden..] {
        lines.push(Line::from(vec![
            Span::styled(format!("{:>9} │ ▏ ", ""), theme::dim()),
            Span::styled(line.to_string(), out_style),
        ]));
    }
    lines
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

/// `251 ms`, `3.4 s`, `2 min 5 s`.
fn duration_text(ms: u64) -> String {
    match ms {
        0..=999 => format!("{ms} ms"),
        1_000..=59_999 => format!("{:.1} s", ms as f64 / 1000.0),
        _ => format!("{} min {} s", ms / 60_000, ms % 60_000 / 1000),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::clock::FixedClock;
    use crate::event::AppEventSender;
    use crate::gateway::{EventFrame, Hello};
    use crate::keymap::Keymap;

    use serde_json::json;
    use std::sync::Arc;

    fn draw(view: &mut SessionsView, w: u16, h: u16) -> String {
        crate::tests::harness::draw_sessions_view(view, w, h)
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
            uptime_ms: None,
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
        )
        .view);
        view.apply(
            "lab",
            &ClientEvent::Disconnected {
                reason: "connection refused".into(),
                retry_in: std::time::Duration::from_secs(2),
            },
        );
        let screen = draw(&mut view, 100, 24);
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
        let screen = draw(&mut view, 100, 24);
        let row = screen
            .lines()
            .find(|l| l.contains("agent:ops:explicit:g1"))
            .unwrap();
        assert!(row.contains("idle") && !row.contains("running"), "{row}");
        assert!(screen.contains("3 sessions"), "{screen}");
    }

    /// The key says which session a row is: on a narrow terminal it stays whole while the
    /// other columns (last activity, kind, gateway) give way.
    #[test]
    fn a_narrow_roster_keeps_the_session_key_whole() {
        let mut view = SessionsView::attaching(&["local".into()]);
        view.apply(
            "local",
            &ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: json!({"sessions": [
                    {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "updatedAt": 1_795_380_000_000u64},
                    {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1_795_370_000_000u64},
                ]}),
            },
        );
        for width in [60, 45, 39] {
            let screen = draw(&mut view, width, 20);
            assert!(
                screen.contains("agent:ops:explicit:g1") && screen.contains("agent:main:main"),
                "{width} columns:\n{screen}"
            );
            assert!(screen.contains("key"), "{screen}");
        }
        let screen = draw(&mut view, 60, 20);
        assert!(
            screen.contains("state") && !screen.contains("last activity"),
            "{screen}"
        );
        insta::assert_snapshot!("sessions_view_narrow_keeps_the_key", screen);
    }

    #[test]
    fn empty_and_unavailable() {
        let mut view = SessionsView::attaching(&["local".into()]);
        let screen = draw(&mut view, 80, 16);
        assert!(screen.contains("local: connecting"), "{screen}");
        assert!(screen.contains("no sessions yet"), "{screen}");
        let mut view = SessionsView::unavailable("no gateway configured");
        insta::assert_snapshot!("sessions_view_unavailable", draw(&mut view, 60, 4));
    }

    /// The recorded exec run (OpenClaw 2026.9.6) as the feed passes it on: the session
    /// snapshot, then every `sessions.changed`, `session.tool` and `session.message` frame.
    fn recorded_run() -> Vec<ClientEvent> {
        include_str!("../../../../tests/fixtures/gateway/exec-run.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["frame"]["type"] == "event")
            .filter(|v| {
                matches!(
                    v["frame"]["event"].as_str(),
                    Some("sessions.changed" | "session.tool" | "session.message")
                )
            })
            .map(|v| {
                ClientEvent::Event(Arc::new(EventFrame {
                    event: v["frame"]["event"].as_str().unwrap().to_string(),
                    payload: v["frame"]["payload"].clone(),
                    seq: None,
                }))
            })
            .collect()
    }

    fn attached(follow: &SessionFollow) -> SessionsView {
        let mut view = SessionsView::attaching(&["local".into()]);
        view.set_follow(follow.clone());
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
                    {"key": "agent:ops:explicit:g1", "agentId": "ops", "kind": "direct", "updatedAt": 1_795_380_958_000u64},
                    {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1_795_370_000_000u64},
                ]}),
            },
        );
        view
    }

    #[test]
    fn the_selected_session_shows_its_recorded_exec_run() {
        let follow = SessionFollow::default();
        let mut view = attached(&follow);
        // The top row is selected and followed: the feed is asked for its transcript.
        assert_eq!(
            follow.followed(),
            Some(("local".to_string(), "agent:ops:explicit:g1".to_string()))
        );
        let events = recorded_run();
        // Mid-run: the exec call is running with its streamed output.
        let result_at = events
            .iter()
            .position(|e| matches!(e, ClientEvent::Event(f) if f.event == "session.tool" && f.payload["data"]["phase"] == "result"))
            .unwrap();
        for event in &events[..result_at] {
            view.apply("local", event);
        }
        let running = draw(&mut view, 120, 24);
        insta::assert_snapshot!("sessions_view_transcript_running", running);
        let call = running.lines().find(|l| l.contains("⚙ exec")).unwrap();
        assert!(call.contains("● running"), "{call}");
        assert!(call.contains(r#"{"command":"echo x"}"#), "{call}");
        assert!(running.contains("▏ x"), "streamed output shows\n{running}");

        for event in &events[result_at..] {
            view.apply("local", event);
        }
        let done = draw(&mut view, 120, 24);
        insta::assert_snapshot!("sessions_view_transcript_done", done);
        let lines: Vec<&str> = done.lines().collect();
        let at = |needle: &str| {
            lines
                .iter()
                .position(|l| l.contains(needle))
                .unwrap_or_else(|| panic!("{needle} missing\n{done}"))
        };
        // In order: the user's message, the call, its output, the assistant's answer.
        let user = at(r#"user │ CALL exec {"command":"echo x"}"#);
        let call = at("⚙ exec");
        let output = at("▏ x");
        let answer = at("assistant │ tool exec returned: x");
        assert!(user < call && call < output && output < answer, "{done}");
        assert!(
            lines[call].contains("✓ ok · 248 ms"),
            "outcome and duration: {}",
            lines[call]
        );
        assert!(
            done.contains("agent:ops:explicit:g1 @ local · 4 entries"),
            "{done}"
        );
        // Wide enough: the roster and the transcript side by side.
        let wide = draw(&mut view, 200, 20);
        assert!(
            wide.lines().any(
                |l| l.contains("agent:ops:explicit:g1") && l.contains("⚙ exec")
                    || l.contains("agent:ops:explicit:g1") && l.contains("assistant │")
            ),
            "{wide}"
        );
    }

    #[test]
    fn moving_the_selection_follows_another_session_and_marks_the_gap() {
        let follow = SessionFollow::default();
        let mut view = attached(&follow);
        for event in recorded_run() {
            view.apply("local", &event);
        }
        view.handle_mouse(&MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 0,
            row: 0,
            modifiers: crossterm::event::KeyModifiers::NONE,
        });
        // The table area is known only after a draw.
        let _ = draw(&mut view, 100, 24);
        let (tx, _rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        assert!(view.handle_action(Action::Down, &ctx));
        assert_eq!(
            follow.followed(),
            Some(("local".to_string(), "agent:main:main".to_string()))
        );
        let screen = draw(&mut view, 100, 24);
        assert!(
            screen.contains("agent:main:main @ local · 0 entries"),
            "{screen}"
        );
        assert!(screen.contains("following: its messages"), "{screen}");
        // Back up: what was seen is still there, with the gap marked.
        assert!(view.handle_action(Action::Up, &ctx));
        let screen = draw(&mut view, 100, 40);
        assert!(screen.contains("⚙ exec"), "{screen}");
        assert!(
            screen.contains("not followed while another session was selected"),
            "{screen}"
        );
    }

    #[test]
    fn a_long_transcript_says_how_many_earlier_entries_it_dropped() {
        let follow = SessionFollow::default();
        let mut view = attached(&follow);
        let total = crate::gateway::transcript::KEPT_ENTRIES + 20;
        for n in 0..total {
            view.apply(
                "local",
                &ClientEvent::Event(Arc::new(EventFrame {
                    event: "session.message".into(),
                    payload: json!({"sessionKey": "agent:ops:explicit:g1",
                        "message": {"role": "assistant", "content": format!("line {n}")}}),
                    seq: None,
                })),
            );
        }
        let screen = draw(&mut view, 100, 30);
        insta::assert_snapshot!("sessions_view_transcript_dropped", screen);
        assert!(
            screen.contains("500 entries · 20 earlier entries dropped"),
            "{screen}"
        );
        assert!(
            screen.contains(&format!("line {}", total - 1)),
            "the newest shows\n{screen}"
        );
        assert!(!screen.contains("line 19 "), "{screen}");
        // The wheel over the transcript scrolls back to the oldest kept entry and the marker.
        let wheel = |kind| MouseEvent {
            kind,
            column: 10,
            row: 25,
            modifiers: crossterm::event::KeyModifiers::NONE,
        };
        for _ in 0..400 {
            view.handle_mouse(&wheel(MouseEventKind::ScrollUp));
        }
        let top = draw(&mut view, 100, 30);
        assert!(top.contains("… 20 earlier entries dropped"), "{top}");
        assert!(top.contains("line 20"), "the oldest kept entry\n{top}");
        assert!(top.contains("scrolled up"), "{top}");
        assert_eq!(
            view.selected, 0,
            "the wheel over the transcript leaves the roster alone"
        );
        let (tx, _rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        assert!(view.handle_action(Action::Follow, &ctx));
        let following = draw(&mut view, 100, 30);
        assert_eq!(following, screen, "f follows the newest again");
        // Another session's events do not land in this transcript.
        let before = view.transcript().unwrap().len();
        view.apply(
            "local",
            &ClientEvent::Event(Arc::new(EventFrame {
                event: "session.message".into(),
                payload: json!({"sessionKey": "agent:main:main",
                    "message": {"role": "user", "content": "elsewhere"}}),
                seq: None,
            })),
        );
        assert_eq!(view.transcript().unwrap().dropped(), 20);
        assert_eq!(view.transcript().unwrap().len(), before);
    }

    /// The transcript scrolls from the keyboard too (the lower-pane keys), and its bottom
    /// border says which way more is.
    #[test]
    fn the_transcript_scrolls_with_the_lower_pane_keys() {
        let follow = SessionFollow::default();
        let mut view = attached(&follow);
        for n in 0..100 {
            view.apply(
                "local",
                &ClientEvent::Event(Arc::new(EventFrame {
                    event: "session.message".into(),
                    payload: json!({"sessionKey": "agent:ops:explicit:g1",
                        "message": {"role": "assistant", "content": format!("line {n}")}}),
                    seq: None,
                })),
            );
        }
        let (tx, _rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let keymap = Keymap::default();
        let ctx = ViewCtx {
            tx: &tx,
            clock: &clock,
            keymap: &keymap,
        };
        let newest = draw(&mut view, 100, 30);
        assert!(newest.contains("line 99") && newest.contains("↑ more · K older / J newer"));
        for _ in 0..30 {
            assert!(view.handle_action(Action::DetailUp, &ctx));
        }
        let oldest = draw(&mut view, 100, 30);
        assert!(
            oldest.contains("line 0") && !oldest.contains("line 99"),
            "{oldest}"
        );
        assert!(oldest.contains("↓ more"), "{oldest}");
        while view.handle_action(Action::DetailDown, &ctx) {}
        assert_eq!(draw(&mut view, 100, 30), newest, "J back to the newest");
    }

    #[test]
    fn the_detail_pane_draws_at_every_small_size() {
        let follow = SessionFollow::default();
        let mut view = attached(&follow);
        for event in recorded_run() {
            view.apply("local", &event);
        }
        for w in 1..=60 {
            for h in 1..=20 {
                draw(&mut view, w, h);
            }
        }
        draw(&mut view, 300, 100);
    }
}
