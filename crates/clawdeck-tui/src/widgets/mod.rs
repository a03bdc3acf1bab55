//! Small reusable widgets: a one-line text input, a confirmation dialog, a list picker, the list
//! table, the help overlay. They hold state and draw; they never do I/O.

pub(crate) mod confirm;
pub(crate) mod detail_pane;
pub(crate) mod help;
pub(crate) mod line_input;
pub(crate) mod list;
pub(crate) mod picker;
pub(crate) mod table;
pub(crate) mod text_pane;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

/// A view that cannot show its data: why, wrapped (never cut, at any width), in a bordered pane
/// titled `title`.
pub(crate) fn unavailable_pane(
    area: Rect,
    buf: &mut Buffer,
    title: &str,
    reason: &str,
    style: Style,
) {
    Paragraph::new(Line::styled(reason.to_string(), style))
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(format!(" {title} ")))
        .render(area, buf);
}

/// A rectangle of at most `width` × `height` centred in `area`.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [h] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(area);
    let [v] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(h);
    v
}

/// Cuts `text` to `width` display columns, with `…` when cut.
pub(crate) fn ellipsize(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Whether a mouse event falls inside `area`.
pub(crate) fn mouse_in(area: ratatui::layout::Rect, mouse: &crossterm::event::MouseEvent) -> bool {
    area.contains(ratatui::layout::Position::new(mouse.column, mouse.row))
}

/// `1 section`, `3 sections`.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
