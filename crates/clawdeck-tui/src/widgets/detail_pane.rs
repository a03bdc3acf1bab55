//! The pane under (or beside) a list that shows the selected row in full: the Policy view's
//! path through the layers, an approval, a finding, a logged call, the rule behind a what-if
//! change, the Queue view's events. Its text wraps; the view sizes the pane to the rows the
//! text needs (`rows_needed`) within what the list leaves; when the text is still longer the
//! pane scrolls with the lower-pane keys (`K` / `J`, Shift-↑ / Shift-↓) and the wheel, and its
//! bottom border says which lines show and that more is above or below.

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Widget};

use super::text_pane::TextPane;
use crate::keymap::{Action, Keymap};
use crate::theme;

/// Rows a list above a detail pane keeps at least: its borders, header and one row.
const LIST_MIN_ROWS: u16 = 4;

#[derive(Debug, Clone)]
pub(crate) struct DetailPane {
    text: TextPane,
    /// What the text is about (the selected row): another subject starts at the top.
    subject: Option<String>,
    /// Keeps the newest (last) lines in sight as lines arrive, until scrolled up.
    pub(crate) tail: bool,
    /// Where the pane was drawn (the wheel scrolls it).
    area: Rect,
}

impl Default for DetailPane {
    fn default() -> Self {
        DetailPane {
            text: TextPane::word_wrapped(),
            subject: None,
            tail: false,
            area: Rect::default(),
        }
    }
}

impl DetailPane {
    /// A pane that keeps its last lines in sight (a log).
    pub(crate) fn following_the_end() -> DetailPane {
        DetailPane {
            tail: true,
            ..DetailPane::default()
        }
    }

    /// Sets the text about `subject`; the scroll position stays while the subject does.
    pub(crate) fn set(&mut self, subject: &str, lines: Vec<Line<'static>>) {
        if self.subject.as_deref() != Some(subject) {
            self.subject = Some(subject.to_string());
            self.text.scroll(Action::Top);
            if self.tail {
                self.text.scroll(Action::Bottom);
            }
        }
        let at_bottom = self.text.rows_outside().1 == 0;
        self.text.set_lines(lines, Vec::new());
        if self.tail && at_bottom {
            self.text.scroll(Action::Bottom);
        }
    }

    /// Rows a bordered pane needs for the whole text at `width` columns (borders included).
    pub(crate) fn rows_needed(&self, width: u16) -> u16 {
        let rows = self.text.rows_at(width.saturating_sub(2) as usize);
        (rows as u16).saturating_add(2)
    }

    /// Rows for a pane that wants `wanted` rows below a list in `total` rows: at most `cap`,
    /// never so many that the list keeps fewer than one row (border, header, row, border),
    /// and none at all when fewer than three (a border pair and a line) are left.
    pub(crate) fn height_within(total: u16, wanted: u16, cap: u16) -> u16 {
        let rows = wanted.min(cap).min(total.saturating_sub(LIST_MIN_ROWS));
        if rows < 3 { 0 } else { rows }
    }

    /// The lower-pane keys scroll by half the pane; false for any other action.
    pub(crate) fn scroll(&mut self, action: Action) -> bool {
        let step = (self.text.height() / 2).max(1);
        match action {
            Action::DetailUp => self.text.scroll_rows(true, step),
            Action::DetailDown => self.text.scroll_rows(false, step),
            _ => return false,
        }
        true
    }

    /// The wheel over the pane scrolls it; false when the event is elsewhere.
    pub(crate) fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        if !crate::widgets::mouse_in(self.area, mouse) {
            return false;
        }
        match mouse.kind {
            MouseEventKind::ScrollUp => self.text.scroll_rows(true, 3),
            MouseEventKind::ScrollDown => self.text.scroll_rows(false, 3),
            _ => return false,
        }
        true
    }

    /// Draws the text in a bordered block titled `title`; when it does not fit, the bottom
    /// border says which lines show, which way more is, and the keys.
    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, title: &str, keymap: &Keymap) {
        self.area = area;
        let block = Block::bordered().title(format!(" {title} "));
        let inner = block.inner(area);
        self.text.layout(inner);
        let (above, below) = self.text.rows_outside();
        let block = if above + below > 0 {
            let arrows = match (above > 0, below > 0) {
                (true, true) => "↑↓",
                (true, false) => "↑",
                _ => "↓",
            };
            let mark = format!(
                " {arrows} {} · {}/{} scroll ",
                self.text.position_label().unwrap_or_default(),
                keymap.key_label(Action::DetailUp),
                keymap.key_label(Action::DetailDown),
            );
            block.title_bottom(Line::styled(mark, theme::accent()))
        } else {
            block
        };
        block.render(area, buf);
        self.text.render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Vec<Line<'static>> {
        (0..n).map(|i| Line::raw(format!("line {i}"))).collect()
    }

    fn rows(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn a_long_text_scrolls_and_says_where_it_is() {
        let keymap = Keymap::default();
        let mut pane = DetailPane::default();
        pane.set("a", lines(10));
        assert_eq!(pane.rows_needed(20), 12, "ten lines and the borders");
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 6));
        pane.render(buf.area, &mut buf, "Detail", &keymap);
        let shown = rows(&buf);
        assert!(shown[1].contains("line 0") && shown[4].contains("line 3"));
        assert!(
            shown[5].contains("↓ lines 1–4 of 10 · K/J scroll"),
            "{shown:?}"
        );
        assert!(pane.scroll(Action::DetailDown));
        pane.render(buf.area, &mut buf, "Detail", &keymap);
        let shown = rows(&buf);
        assert!(shown[1].contains("line 2"), "{shown:?}");
        assert!(shown[5].contains("↑↓ lines 3–6 of 10"), "{shown:?}");
        // The same subject keeps its place; another starts at the top.
        pane.set("a", lines(10));
        pane.render(buf.area, &mut buf, "Detail", &keymap);
        assert!(rows(&buf)[1].contains("line 2"));
        pane.set("b", lines(10));
        pane.render(buf.area, &mut buf, "Detail", &keymap);
        assert!(rows(&buf)[1].contains("line 0"));
        // A text that fits has no mark.
        pane.set("c", lines(2));
        pane.render(buf.area, &mut buf, "Detail", &keymap);
        assert!(!rows(&buf)[5].contains("scroll"));
    }

    #[test]
    fn a_log_keeps_its_newest_lines_in_sight_until_scrolled_up() {
        let keymap = Keymap::default();
        let mut pane = DetailPane::following_the_end();
        let mut buf = Buffer::empty(Rect::new(0, 0, 30, 5));
        pane.set("log", lines(10));
        pane.render(buf.area, &mut buf, "Events", &keymap);
        assert!(rows(&buf)[3].contains("line 9"), "{:?}", rows(&buf));
        pane.set("log", lines(11));
        pane.render(buf.area, &mut buf, "Events", &keymap);
        assert!(rows(&buf)[3].contains("line 10"));
        pane.scroll(Action::DetailUp);
        pane.set("log", lines(12));
        pane.render(buf.area, &mut buf, "Events", &keymap);
        assert!(!rows(&buf)[3].contains("line 11"), "scrolled up: stays");
        assert!(rows(&buf)[4].contains("↑↓"));
    }
}
