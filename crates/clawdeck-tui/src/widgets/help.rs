//! The `?` overlay: the keymap table, searchable. Typing filters by key, action or description.
//! Each key's text wraps under its description (never cut), the list scrolls (↑ ↓ PgUp PgDn),
//! and the bottom border says which lines show. Keys that do nothing in the current view are
//! dimmed.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use super::centered;
use super::line_input::{InputOutcome, LineInput};
use super::text_pane::TextPane;
use crate::keymap::{Action, Keymap};
use crate::theme;
use crate::view_id::ViewId;

/// Columns of the keys before each description (continuation rows hang under it); a third of
/// a narrow overlay at most.
const KEYS_COLUMN: usize = 18;

#[derive(Debug, Clone)]
pub(crate) struct HelpOverlay {
    pub(crate) query: LineInput,
    pane: TextPane,
}

impl Default for HelpOverlay {
    fn default() -> Self {
        let mut pane = TextPane::with_hang(KEYS_COLUMN);
        pane.word_wrap = true;
        HelpOverlay {
            query: LineInput::default(),
            pane,
        }
    }
}

/// How the keys are chosen, said once above the table.
const CONVENTION: &str = "A key means the same thing in every view where it works. Shift is the related, stronger form (A allow always, T set the timeout, X clear the lane, G bottom, N previous hit, J/K the lower pane). x, X, A, and q while work is live ask first.";

impl HelpOverlay {
    /// Returns false when the overlay should close.
    pub(crate) fn handle_key(&mut self, key: &KeyEvent) -> bool {
        match key.code {
            KeyCode::Esc => return false,
            KeyCode::Char('?') if self.query.text.is_empty() => return false,
            KeyCode::Down => self.pane.scroll_rows(false, 1),
            KeyCode::Up => self.pane.scroll_rows(true, 1),
            KeyCode::PageDown => {
                self.pane.scroll(Action::PageDown);
            }
            KeyCode::PageUp => {
                self.pane.scroll(Action::PageUp);
            }
            _ => {
                if self.query.handle_key(key) == InputOutcome::Edited {
                    self.pane.scroll(Action::Top);
                }
            }
        }
        true
    }

    /// The key table's lines for `query` (all of it when empty), keys in a column `keys`
    /// wide.
    fn lines(&self, keymap: &Keymap, view: ViewId, keys: usize) -> Vec<Line<'static>> {
        let needle = self.query.text.to_lowercase();
        let mut lines = Vec::new();
        if needle.is_empty() {
            lines.push(Line::from(vec![
                Span::styled(format!("{:<keys$}", "Convention"), theme::bold()),
                Span::styled(CONVENTION, theme::dim()),
            ]));
            lines.push(Line::raw(""));
        }
        for b in keymap.bindings.iter().filter(|b| {
            needle.is_empty()
                || b.keys_label().to_lowercase().contains(&needle)
                || b.name.contains(&needle)
                || b.description.to_lowercase().contains(&needle)
                || b.views_label().to_lowercase().contains(&needle)
        }) {
            let here = b.applies_in(view);
            let style = if here {
                ratatui::style::Style::default()
            } else {
                theme::dim()
            };
            let label = format!("{:<width$}", b.keys_label(), width = keys - 1);
            lines.push(Line::from(vec![
                Span::styled(label, theme::accent().patch(theme::bold())),
                Span::raw(" "),
                Span::styled(b.description.to_string(), style),
                Span::styled(format!(" · {} · {}", b.views_label(), b.name), theme::dim()),
            ]));
        }
        if lines.is_empty() {
            lines.push(Line::styled("no key matches", theme::dim()));
        }
        lines
    }

    pub(crate) fn render(&mut self, keymap: &Keymap, view: ViewId, area: Rect, buf: &mut Buffer) {
        let rect = centered(area, 100, area.height.saturating_sub(2).max(6));
        let keys = KEYS_COLUMN.min(rect.width as usize / 3).max(6);
        self.pane.hang = keys;
        let lines = self.lines(keymap, view, keys);
        self.pane.set_lines(lines, Vec::new());
        Clear.render(rect, buf);
        let block = Block::bordered()
            .title(" Keys (type to search, Esc closes) ")
            .border_style(theme::accent());
        let inner = block.inner(rect);
        if inner.height < 3 {
            block.render(rect, buf);
            return;
        }
        let table_area = Rect {
            y: inner.y + 2,
            height: inner.height - 2,
            ..inner
        };
        self.pane.layout(table_area);
        let (above, below) = self.pane.rows_outside();
        let bottom = if above + below > 0 {
            format!(
                " {} · ↑ ↓ PgUp PgDn scroll ",
                self.pane.position_label().unwrap_or_default()
            )
        } else {
            " override in clawdeck.json5: \"keys\": {\"kill_run\": [\"ctrl-k\"]} ".to_string()
        };
        block
            .title_bottom(Line::styled(bottom, theme::dim()))
            .render(rect, buf);
        self.query
            .render("search: ", Rect { height: 1, ..inner }, buf, true);
        self.pane.render(table_area, buf);
    }
}
