//! The Sessions view's acts on the selected session: the message box (`i` message, `I` steer
//! the running turn; Enter sends, Alt-Enter breaks the line, Esc cancels), the abort key (`x`,
//! asks first), and the strip under the transcript that shows the turn the console started
//! (its state, tool calls, approvals and the reply as it streams). The sending happens in the
//! core's gateway desk; its news comes back through `apply_news`.

use std::collections::HashMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use ratatui_textarea::TextArea;

use super::{SessionId, SessionsView};
use crate::event::AppEvent;
use crate::gateway::chat::ChatEvent;
use crate::gateway::desk_session::{SessionAct, SessionNews};
use crate::keymap::Action;
use crate::theme;
use crate::views::ViewCtx;

/// Tool and approval lines kept per turn (the newest).
const TURN_LINES: usize = 3;
/// Rows of the message box and of the turn strip (borders included).
const BOX_HEIGHT: u16 = 5;
const STRIP_HEIGHT: u16 = 7;
/// The transcript keeps at least this many rows (borders included) beside the strip; a
/// finished turn's strip shrinks first, and closes when even one line of it would not fit.
const TRANSCRIPT_MIN: u16 = 6;

/// The message being written, for which session.
pub(crate) struct MessageBox {
    pub(crate) session: SessionId,
    pub(crate) steer: bool,
    pub(crate) editor: TextArea<'static>,
}

impl std::fmt::Debug for MessageBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageBox")
            .field("session", &self.session)
            .field("steer", &self.steer)
            .finish()
    }
}

/// The console's latest turn in one session.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Turn {
    pub(crate) steer: bool,
    /// `sending`, a status phase, `running`, `done`, `aborted: …`, `failed: …`.
    pub(crate) state: String,
    pub(crate) reply: String,
    pub(crate) lines: Vec<String>,
}

impl Turn {
    /// The turn ended (done, aborted or failed).
    pub(crate) fn is_finished(&self) -> bool {
        self.state == "done"
            || self.state.starts_with("aborted")
            || self.state.starts_with("failed")
    }

    fn note(&mut self, line: String) {
        self.lines.push(line);
        let over = self.lines.len().saturating_sub(TURN_LINES);
        self.lines.drain(..over);
    }

    fn apply(&mut self, event: &ChatEvent) {
        match event {
            ChatEvent::Started { .. } => self.state = "started".into(),
            ChatEvent::Status { phase } => self.state = phase.clone(),
            ChatEvent::Delta { text, replace } => {
                if *replace {
                    self.reply.clear();
                }
                self.reply.push_str(text);
                self.state = "replying".into();
            }
            ChatEvent::Tool(call) => match call.phase.as_str() {
                "start" => self.note(format!("⚙ {} {}", call.name, call.args)),
                "result" => self.note(format!(
                    "⚙ {} {}: {}",
                    call.name,
                    if call.is_error { "✗" } else { "✓" },
                    call.output.as_deref().unwrap_or("").trim_end()
                )),
                _ => {}
            },
            ChatEvent::Approval(a) => self.note(format!(
                "approval {} asked: {} (Approvals view)",
                a.id, a.command
            )),
            ChatEvent::ApprovalResolved { id, decision } => {
                self.note(format!("approval {id}: {decision}"))
            }
            ChatEvent::Final { text, .. } => {
                self.reply = text.clone();
                self.state = "done".into();
            }
            ChatEvent::Aborted { reason } => self.state = format!("aborted ({reason})"),
            ChatEvent::Error { message } => self.state = format!("failed: {message}"),
            ChatEvent::Gap { dropped } => self.note(format!(
                "{dropped} gateway events left out (fell behind); the reply may miss text"
            )),
        }
    }
}

/// The message box and the turns, per session.
#[derive(Debug, Default)]
pub(crate) struct SessionChat {
    pub(crate) input: Option<MessageBox>,
    pub(crate) turns: HashMap<SessionId, Turn>,
}

/// The question the abort key asks.
pub(crate) fn abort_question(gateway: &str, key: &str) -> String {
    format!(
        "Abort the running turn of {key} on {gateway} (sessions.abort)? Its tool calls stop; what it wrote so far stays in the transcript."
    )
}

impl SessionsView {
    /// The selected row's session and its state (`running`, `queued`, `idle`).
    fn selected_session(&self) -> Option<(SessionId, &'static str)> {
        let rows = self.roster.rows();
        let (gateway, row) = rows.get(self.selected)?;
        Some(((gateway.to_string(), row.key.clone()), row.state()))
    }

    /// The message, steer and abort keys; None when `action` is none of them.
    pub(super) fn chat_action(&mut self, action: Action, ctx: &ViewCtx) -> Option<bool> {
        let steer = match action {
            Action::MessageSession => false,
            Action::SteerSession => true,
            Action::KillRun => return Some(self.ask_to_abort(ctx)),
            _ => return None,
        };
        let Some((session, state)) = self.selected_session() else {
            ctx.status("no session selected");
            return Some(true);
        };
        if steer && state != "running" {
            ctx.status(format!(
                "{} has no running turn to steer ({state}); i sends a message instead",
                session.1
            ));
            return Some(true);
        }
        let mut editor = TextArea::default();
        editor.set_placeholder_text("type the message");
        self.chat.input = Some(MessageBox {
            session,
            steer,
            editor,
        });
        Some(true)
    }

    fn ask_to_abort(&self, ctx: &ViewCtx) -> bool {
        match self.selected_session() {
            Some(((gateway, key), "running")) => ctx.send(AppEvent::Confirm {
                question: abort_question(&gateway, &key),
                on_yes: Box::new(AppEvent::AbortSession { gateway, key }),
            }),
            Some(((_, key), state)) => ctx.status(format!("{key} has no running turn ({state})")),
            None => ctx.status("no session selected"),
        }
        true
    }

    /// Keys for the open message box; true when consumed.
    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        let Some(input) = self.chat.input.as_mut() else {
            return false;
        };
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Esc => self.chat.input = None,
            KeyCode::Enter if alt => input.editor.insert_newline(),
            KeyCode::Enter => {
                let message = input.editor.lines().join("\n");
                if message.trim().is_empty() {
                    ctx.status("the message is empty");
                    return true;
                }
                let ((gateway, key), steer) = (input.session.clone(), input.steer);
                ctx.send(AppEvent::ChatSession {
                    gateway,
                    key,
                    message,
                    steer,
                });
                self.chat.input = None;
            }
            _ => {
                input.editor.input(*key);
            }
        }
        true
    }

    /// A paste goes into the open message box.
    pub(crate) fn paste_message(&mut self, text: &str) -> bool {
        match self.chat.input.as_mut() {
            Some(input) => input.editor.insert_str(text),
            None => false,
        }
    }

    /// The console sent a message: its turn starts over.
    pub(crate) fn turn_started(&mut self, gateway: &str, key: &str, _message: &str, steer: bool) {
        let turn = Turn {
            steer,
            state: "sending".into(),
            ..Turn::default()
        };
        self.chat
            .turns
            .insert((gateway.to_string(), key.to_string()), turn);
    }

    /// The desk's news about a session act; a status line for what the operator must know.
    pub(crate) fn apply_news(&mut self, news: &SessionNews) -> Option<String> {
        let id = (news.gateway.clone(), news.session_key.clone());
        match &news.news {
            SessionAct::Turn(event) => {
                self.chat.turns.entry(id).or_default().apply(event);
                match &**event {
                    ChatEvent::Approval(a) => Some(format!(
                        "{}: exec approval {} asked (Approvals view)",
                        news.session_key, a.id
                    )),
                    _ => None,
                }
            }
            SessionAct::Failed { action, error } => {
                if *action == "chat.send"
                    && let Some(turn) = self.chat.turns.get_mut(&id)
                {
                    turn.state = format!("failed: {error}");
                }
                Some(format!("{}: {action}: {error}", news.session_key))
            }
            SessionAct::Aborted { summary } => Some(format!("{}: {summary}", news.session_key)),
        }
    }

    /// Draws the message box or the followed session's turn at the bottom of `area`; returns
    /// what is left for the transcript.
    pub(super) fn render_chat(&self, area: Rect, buf: &mut Buffer) -> Rect {
        if let Some(input) = &self.chat.input {
            let [rest, bottom] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(BOX_HEIGHT)]).areas(area);
            render_box(input, bottom, buf);
            return rest;
        }
        let Some(turn) = self
            .followed
            .as_ref()
            .and_then(|id| self.chat.turns.get(id))
        else {
            return area;
        };
        let height = STRIP_HEIGHT.min(area.height.saturating_sub(TRANSCRIPT_MIN));
        // A running turn keeps a line of its own however small the pane (its state matters);
        // a finished one gives its rows back to the transcript.
        let height = if turn.is_finished() {
            height
        } else {
            height.max(3)
        };
        if height < 3 || height >= area.height {
            return area;
        }
        let [rest, bottom] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(height)]).areas(area);
        render_turn(turn, bottom, buf);
        rest
    }
}

fn render_box(input: &MessageBox, area: Rect, buf: &mut Buffer) {
    let verb = if input.steer { "Steer" } else { "Message" };
    let title = format!(
        " {verb} {} @ {} · Enter sends · Alt-Enter new line · Esc cancels ",
        crate::sanitize::plain(&input.session.1),
        crate::sanitize::plain(&input.session.0),
    );
    let block = Block::bordered().title(title).border_style(theme::accent());
    let inner = block.inner(area);
    block.render(area, buf);
    input.editor.render(inner, buf);
}

fn render_turn(turn: &Turn, area: Rect, buf: &mut Buffer) {
    let what = if turn.steer { "Steer" } else { "Your turn" };
    let title = format!(" {what} · {} ", one_line(&turn.state));
    let mut lines: Vec<Line> = turn
        .lines
        .iter()
        .map(|l| Line::styled(one_line(l), theme::dim()))
        .collect();
    // The reply's newest part: what fits under the tool lines.
    let room = area.height.saturating_sub(2) as usize;
    let reply = crate::sanitize::plain(&turn.reply);
    let reply_lines: Vec<&str> = reply.lines().collect();
    let keep = room.saturating_sub(lines.len()).max(1);
    for line in &reply_lines[reply_lines.len().saturating_sub(keep)..] {
        lines.push(Line::raw(line.to_string()));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(title))
        .render(area, buf);
}

/// Gateway text on one line, without control characters.
fn one_line(text: &str) -> String {
    crate::gateway::watch::one_line(&crate::sanitize::plain(text))
}
