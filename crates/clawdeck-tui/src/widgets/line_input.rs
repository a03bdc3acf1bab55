//! A one-line text input (filters, search, prompts).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// What a key did to the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputOutcome {
    /// Text or cursor changed.
    Edited,
    Submitted,
    Cancelled,
    /// Not a key the input uses.
    Ignored,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LineInput {
    pub(crate) text: String,
    /// Cursor as a char index.
    cursor: usize,
}

impl LineInput {
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let cursor = text.chars().count();
        LineInput { text, cursor }
    }

    fn byte_at(&self, char_idx: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_idx)
            .map(|(i, _)| i)
            .unwrap_or(self.text.len())
    }

    pub(crate) fn insert_str(&mut self, s: &str) {
        let clean: String = s.chars().filter(|c| !c.is_control()).collect();
        let at = self.byte_at(self.cursor);
        self.text.insert_str(at, &clean);
        self.cursor += clean.chars().count();
    }

    pub(crate) fn handle_key(&mut self, key: &KeyEvent) -> InputOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Enter => InputOutcome::Submitted,
            KeyCode::Esc => InputOutcome::Cancelled,
            KeyCode::Char('u') if ctrl => {
                let at = self.byte_at(self.cursor);
                self.text.drain(..at);
                self.cursor = 0;
                InputOutcome::Edited
            }
            KeyCode::Char('a') if ctrl => {
                self.cursor = 0;
                InputOutcome::Edited
            }
            KeyCode::Char('e') if ctrl => {
                self.cursor = self.text.chars().count();
                InputOutcome::Edited
            }
            KeyCode::Char(_) if ctrl || key.modifiers.contains(KeyModifiers::ALT) => {
                InputOutcome::Ignored
            }
            KeyCode::Char(c) => {
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
                InputOutcome::Edited
            }
            KeyCode::Backspace => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    let at = self.byte_at(self.cursor);
                    self.text.remove(at);
                }
                InputOutcome::Edited
            }
            KeyCode::Delete => {
                if self.cursor < self.text.chars().count() {
                    let at = self.byte_at(self.cursor);
                    self.text.remove(at);
                }
                InputOutcome::Edited
            }
            KeyCode::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                InputOutcome::Edited
            }
            KeyCode::Right => {
                self.cursor = (self.cursor + 1).min(self.text.chars().count());
                InputOutcome::Edited
            }
            KeyCode::Home => {
                self.cursor = 0;
                InputOutcome::Edited
            }
            KeyCode::End => {
                self.cursor = self.text.chars().count();
                InputOutcome::Edited
            }
            _ => InputOutcome::Ignored,
        }
    }

    /// Draws `label` then the text with a block cursor.
    pub(crate) fn render(&self, label: &str, area: Rect, buf: &mut Buffer, focused: bool) {
        let at = self.byte_at(self.cursor);
        let (before, after) = self.text.split_at(at);
        let mut after_chars = after.chars();
        let under = after_chars
            .next()
            .map(|c| c.to_string())
            .unwrap_or_else(|| " ".to_string());
        let cursor_style = if focused {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let line = Line::from(vec![
            Span::styled(
                label.to_string(),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(before.to_string()),
            Span::styled(under, cursor_style),
            Span::raw(after_chars.as_str().to_string()),
        ]);
        buf.set_line(area.x, area.y, &line, area.width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn edits_in_the_middle_and_submits() {
        let mut i = LineInput::new("héllo");
        i.handle_key(&k(KeyCode::Left));
        i.handle_key(&k(KeyCode::Backspace));
        i.handle_key(&k(KeyCode::Char('L')));
        assert_eq!(i.text, "hélLo");
        i.handle_key(&k(KeyCode::Home));
        i.insert_str("¡\n");
        assert_eq!(i.text, "¡hélLo");
        assert_eq!(i.handle_key(&k(KeyCode::Enter)), InputOutcome::Submitted);
        assert_eq!(i.handle_key(&k(KeyCode::Esc)), InputOutcome::Cancelled);
        assert_eq!(i.handle_key(&k(KeyCode::F(2))), InputOutcome::Ignored);
    }
}
