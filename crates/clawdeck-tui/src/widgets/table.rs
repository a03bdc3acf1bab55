//! The console's one table and one list: a bold header row, the selected row marked the same
//! way everywhere (`›` in a column of its own, reversed video: it shows without colour too), a
//! bordered block. Every list view draws its rows through these.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{
    Block, HighlightSpacing, List, ListItem, Row, StatefulWidget, Table, TableState,
};

use crate::theme;

/// The mark before the selected row of every list and table.
pub(crate) const SELECTED_MARK: &str = "›";

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
        .highlight_symbol(SELECTED_MARK)
        .highlight_spacing(HighlightSpacing::Always)
        .block(block)
}

/// A list of `items` inside `block`, its selected row marked like a table's.
pub(crate) fn selection_list<'a>(items: Vec<ListItem<'a>>, block: Block<'a>) -> List<'a> {
    List::new(items)
        .highlight_style(theme::selected())
        .highlight_symbol(SELECTED_MARK)
        .highlight_spacing(HighlightSpacing::Always)
        .block(block)
}

/// Draws `table` with row `selected` highlighted (None: no row is), scrolled from `offset` as
/// far as the selection needs; returns the offset it drew from.
pub(crate) fn render_selected(
    table: Table<'_>,
    area: Rect,
    buf: &mut Buffer,
    selected: impl Into<Option<usize>>,
    offset: usize,
) -> usize {
    let mut state = TableState::default()
        .with_selected(selected.into())
        .with_offset(offset);
    StatefulWidget::render(table, area, buf, &mut state);
    state.offset()
}
