//! A list to pick one value from (context fields: agents, providers, channels, ...), with a
//! free-text entry for values the config does not list.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, StatefulWidget, Widget};

use super::centered;
use super::line_input::{InputOutcome, LineInput};
use crate::theme;

/// One choice: the value (None = unset) and how it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) value: Option<String>,
    pub(crate) label: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Picker {
    pub(crate) title: String,
    pub(crate) choices: Vec<Choice>,
    pub(crate) selected: usize,
    /// Typing filters the choices; Enter on no match takes the typed text as the value.
    pub(crate) typed: LineInput,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PickOutcome {
    Picked(Option<String>),
    Cancelled,
    Pending,
}

impl Picker {
    pub fn new(title: impl Into<String>, choices: Vec<Choice>, current: Option<&str>) -> Self {
        let selected = choices
            .iter()
            .position(|c| c.value.as_deref() == current)
            .unwrap_or(0);
        Picker {
            title: title.into(),
            choices,
            selected,
            typed: LineInput::default(),
        }
    }

    fn visible(&self) -> Vec<usize> {
        let needle = self.typed.text.to_lowercase();
        (0..self.choices.len())
            .filter(|&i| {
                needle.is_empty() || self.choices[i].label.to_lowercase().contains(&needle)
            })
            .collect()
    }

    pub(crate) fn handle_key(&mut self, key: &KeyEvent) -> PickOutcome {
        let visible = self.visible();
        let pos = visible.iter().position(|&i| i == self.selected);
        match key.code {
            KeyCode::Up => {
                if let Some(p) = pos.filter(|&p| p > 0) {
                    self.selected = visible[p - 1];
                } else if let Some(&last) = visible.last() {
                    self.selected = last;
                }
                PickOutcome::Pending
            }
            KeyCode::Down => {
                match pos {
                    Some(p) if p + 1 < visible.len() => self.selected = visible[p + 1],
                    _ => {
                        if let Some(&first) = visible.first() {
                            self.selected = first;
                        }
                    }
                }
                PickOutcome::Pending
            }
            KeyCode::Enter => match pos {
                Some(_) => PickOutcome::Picked(self.choices[self.selected].value.clone()),
                None if !self.typed.text.trim().is_empty() => {
                    PickOutcome::Picked(Some(self.typed.text.trim().to_string()))
                }
                None => PickOutcome::Pending,
            },
            KeyCode::Esc => PickOutcome::Cancelled,
            _ => {
                if self.typed.handle_key(key) == InputOutcome::Edited {
                    let visible = self.visible();
                    if !visible.contains(&self.selected)
                        && let Some(&first) = visible.first()
                    {
                        self.selected = first;
                    }
                }
                PickOutcome::Pending
            }
        }
    }

    pub(crate) fn render(&self, area: Rect, buf: &mut Buffer) {
        let visible = self.visible();
        let height = (visible.len() as u16 + 4).clamp(6, 20);
        let rect = centered(area, 50, height);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .title(format!(" {} ", self.title))
            .border_style(theme::accent());
        let inner = block.inner(rect);
        block.render(rect, buf);
        if inner.height < 2 {
            return;
        }
        self.typed
            .render("type: ", Rect { height: 1, ..inner }, buf, true);
        let list_area = Rect {
            y: inner.y + 1,
            height: inner.height - 1,
            ..inner
        };
        let items: Vec<ListItem> = if visible.is_empty() {
            vec![ListItem::new(Line::styled(
                "(no match: Enter uses the typed value)",
                theme::dim(),
            ))]
        } else {
            visible
                .iter()
                .map(|&i| ListItem::new(self.choices[i].label.clone()))
                .collect()
        };
        let mut state =
            ListState::default().with_selected(visible.iter().position(|&i| i == self.selected));
        StatefulWidget::render(
            List::new(items)
                .highlight_style(theme::selected())
                .highlight_symbol("› "),
            list_area,
            buf,
            &mut state,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn choices() -> Vec<Choice> {
        vec![
            Choice {
                value: None,
                label: "(default)".into(),
            },
            Choice {
                value: Some("main".into()),
                label: "main".into(),
            },
            Choice {
                value: Some("ops".into()),
                label: "ops".into(),
            },
        ]
    }

    #[test]
    fn filter_select_and_free_text() {
        let mut p = Picker::new("agent", choices(), Some("main"));
        assert_eq!(p.selected, 1);
        p.handle_key(&k(KeyCode::Down));
        assert_eq!(
            p.handle_key(&k(KeyCode::Enter)),
            PickOutcome::Picked(Some("ops".into()))
        );
        let mut p = Picker::new("agent", choices(), None);
        for c in "op".chars() {
            p.handle_key(&k(KeyCode::Char(c)));
        }
        assert_eq!(
            p.handle_key(&k(KeyCode::Enter)),
            PickOutcome::Picked(Some("ops".into()))
        );
        let mut p = Picker::new("agent", choices(), None);
        for c in "zed".chars() {
            p.handle_key(&k(KeyCode::Char(c)));
        }
        assert_eq!(
            p.handle_key(&k(KeyCode::Enter)),
            PickOutcome::Picked(Some("zed".into()))
        );
        assert_eq!(p.handle_key(&k(KeyCode::Esc)), PickOutcome::Cancelled);
    }
}
