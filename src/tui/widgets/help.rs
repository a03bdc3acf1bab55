//! The `?` overlay: the keymap table, searchable. Typing filters by key, action or description.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Row, Table, Widget};

use super::centered;
use super::line_input::{InputOutcome, LineInput};
use crate::tui::keymap::Keymap;
use crate::tui::theme;
use crate::tui::views::ViewId;

#[derive(Debug, Clone, Default)]
pub(crate) struct HelpOverlay {
    pub(crate) query: LineInput,
    pub(crate) scroll: usize,
}

impl HelpOverlay {
    /// Returns false when the overlay should close.
    pub(crate) fn handle_key(&mut self, key: &KeyEvent) -> bool {
        match key.code {
            KeyCode::Esc => return false,
            KeyCode::Char('?') if self.query.text.is_empty() => return false,
            KeyCode::Down | KeyCode::PageDown => {
                self.scroll += if key.code == KeyCode::Down { 1 } else { 10 }
            }
            KeyCode::Up | KeyCode::PageUp => {
                self.scroll =
                    self.scroll
                        .saturating_sub(if key.code == KeyCode::Up { 1 } else { 10 })
            }
            _ => {
                if self.query.handle_key(key) == InputOutcome::Edited {
                    self.scroll = 0;
                }
            }
        }
        true
    }

    pub(crate) fn render(&self, keymap: &Keymap, view: ViewId, area: Rect, buf: &mut Buffer) {
        let needle = self.query.text.to_lowercase();
        let rows: Vec<Row> = keymap
            .bindings
            .iter()
            .filter(|b| {
                needle.is_empty()
                    || b.keys_label().to_lowercase().contains(&needle)
                    || b.name.contains(&needle)
                    || b.description.to_lowercase().contains(&needle)
                    || b.views_label().to_lowercase().contains(&needle)
            })
            .skip(self.scroll)
            .map(|b| {
                let style = if b.applies_in(view) {
                    ratatui::style::Style::default()
                } else {
                    theme::dim()
                };
                Row::new(vec![
                    b.keys_label(),
                    b.description.to_string(),
                    b.views_label(),
                ])
                .style(style)
            })
            .collect();
        let rect = centered(area, 96, area.height.saturating_sub(4).max(8));
        Clear.render(rect, buf);
        let block = Block::bordered()
            .title(" Keys (type to search, Esc closes) ")
            .title_bottom(Line::styled(
                " override in clawdeck.json5: \"keys\": {\"kill_run\": [\"ctrl-k\"]} ",
                theme::dim(),
            ))
            .border_style(theme::accent());
        let inner = block.inner(rect);
        block.render(rect, buf);
        if inner.height < 3 {
            return;
        }
        self.query
            .render("search: ", Rect { height: 1, ..inner }, buf, true);
        let table_area = Rect {
            y: inner.y + 2,
            height: inner.height - 2,
            ..inner
        };
        let empty = rows.is_empty();
        Table::new(
            rows,
            [
                Constraint::Length(20),
                Constraint::Fill(1),
                Constraint::Length(16),
            ],
        )
        .header(Row::new(vec!["Keys", "What it does", "Where"]).style(theme::bold()))
        .render(table_area, buf);
        if empty {
            buf.set_string(
                table_area.x,
                table_area.y + 1,
                "no key matches",
                theme::dim(),
            );
        }
    }
}
