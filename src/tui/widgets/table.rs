//! The console's one table: a bold header row, the selected row highlighted, a bordered block.
//! Every list view draws its rows through it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Block, Row, StatefulWidget, Table, TableState};

use crate::tui::theme;

/// A table of `rows` under `header`, inside `block`.
pub(crate) fn list_table<'a>(
    rows: Vec<Row<'a>>,
    widths: impl IntoIterator<Item = Constraint>,
    header: Row<'a>,
    block: Block<'a>,
) -> Table<'a> {
    Table::new(rows, widths)
        .header(header.style(theme::bold()))
        .row_highlight_style(theme::selected())
        .block(block)
}

/// Draws `table` with row `selected` highlighted, scrolled from `offset` as far as the selection
/// needs; returns the offset it drew from.
pub(crate) fn render_selected(
    table: Table<'_>,
    area: Rect,
    buf: &mut Buffer,
    selected: usize,
    offset: usize,
) -> usize {
    let mut state = TableState::default()
        .with_selected(Some(selected))
        .with_offset(offset);
    StatefulWidget::render(table, area, buf, &mut state);
    state.offset()
}
