//! A yes/no question that carries the event to send on "yes".

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Widget};

use super::centered;
use super::text_pane::TextPane;
use crate::event::AppEvent;
use crate::theme;

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
    pub fn new(question: impl Into<String>, on_yes: AppEvent) -> Self {
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

    /// The question wraps at word boundaries and the dialog grows to hold all of it (a long
    /// command in an allow-always question is never cut).
    pub(crate) fn render(&self, area: Rect, buf: &mut Buffer) {
        let width = (self.question.chars().count() as u16 + 6).clamp(30, 70);
        let mut text = TextPane::word_wrapped();
        text.set_lines(
            vec![
                Line::raw(self.question.clone()),
                Line::raw(""),
                Line::styled("y / Enter: yes    n / Esc: no", theme::dim()),
            ],
            Vec::new(),
        );
        let inner_width = width.min(area.width).saturating_sub(2);
        let height = text.rows_at(inner_width as usize) as u16 + 2;
        let rect = centered(area, width, height);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .title(" Confirm ")
            .border_style(theme::warning());
        let inner = block.inner(rect);
        block.render(rect, buf);
        text.render(inner, buf);
    }
}
