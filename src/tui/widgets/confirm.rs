//! A yes/no question that carries the event to send on "yes".

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::centered;
use crate::tui::event::AppEvent;
use crate::tui::theme;

#[derive(Debug)]
pub(crate) struct Confirm {
    pub(crate) question: String,
    /// Sent when the operator answers yes.
    pub(crate) on_yes: AppEvent,
}

/// What a key did to the dialog.
#[derive(Debug)]
pub(crate) enum ConfirmOutcome {
    Yes(Box<AppEvent>),
    No,
    Pending,
}

impl Confirm {
    pub(crate) fn new(question: impl Into<String>, on_yes: AppEvent) -> Self {
        Confirm {
            question: question.into(),
            on_yes,
        }
    }

    pub(crate) fn handle_key(self, key: &KeyEvent) -> (Option<Confirm>, ConfirmOutcome) {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                (None, ConfirmOutcome::Yes(Box::new(self.on_yes)))
            }
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => (None, ConfirmOutcome::No),
            _ => (Some(self), ConfirmOutcome::Pending),
        }
    }

    pub(crate) fn render(&self, area: Rect, buf: &mut Buffer) {
        let width = (self.question.chars().count() as u16 + 6).clamp(30, 70);
        let rect = centered(area, width, 5);
        Clear.render(rect, buf);
        let text = vec![
            Line::raw(self.question.clone()),
            Line::raw(""),
            Line::styled("y / Enter: yes    n / Esc: no", theme::dim()),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(
                Block::bordered()
                    .title(" Confirm ")
                    .border_style(theme::warning()),
            )
            .render(rect, buf);
    }
}
