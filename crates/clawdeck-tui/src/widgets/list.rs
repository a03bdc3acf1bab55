//! The one movement rule of every list, table and scrolled text in the console: Up / Down by
//! one, PageUp / PageDown by a page, Top / Bottom, always inside `0..len`.

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::keymap::Action;

/// The one mouse rule of every table drawn in `area` (a border row and a header row above its
/// first row, `offset` rows scrolled away): a click on a row selects it, the wheel moves the
/// selection by `wheel_step`. Returns the new selection (unchanged for a click below the last
/// row), or None when the event is outside `area` or means nothing to a table.
pub(crate) fn table_mouse(
    area: Rect,
    mouse: &MouseEvent,
    offset: usize,
    selected: usize,
    len: usize,
    wheel_step: usize,
) -> Option<usize> {
    if !crate::widgets::mouse_in(area, mouse) {
        return None;
    }
    match mouse.kind {
        MouseEventKind::Down(_) if mouse.row >= area.y + 2 => {
            let row = offset + (mouse.row - area.y - 2) as usize;
            Some(if row < len { row } else { selected })
        }
        MouseEventKind::ScrollUp => Some(selected.saturating_sub(wheel_step)),
        MouseEventKind::ScrollDown => Some(
            selected
                .saturating_add(wheel_step)
                .min(len.saturating_sub(1)),
        ),
        _ => None,
    }
}

/// [`table_mouse`] applied to `selected`: true when the event moved or kept the selection (it
/// was the table's), false when it was not the table's.
pub(crate) fn pick_row(
    selected: &mut usize,
    area: Rect,
    mouse: &MouseEvent,
    offset: usize,
    len: usize,
    wheel_step: usize,
) -> bool {
    match table_mouse(area, mouse, offset, *selected, len, wheel_step) {
        Some(row) => {
            *selected = row;
            true
        }
        None => false,
    }
}

/// Where a movement action takes a position in a list of `len` rows with `page` rows on
/// screen; None for actions that are not movements.
pub(crate) fn moved(position: usize, action: Action, len: usize, page: usize) -> Option<usize> {
    let last = len.saturating_sub(1);
    let page = page.max(1);
    let to = match action {
        Action::Up => position.saturating_sub(1),
        Action::Down => position.saturating_add(1),
        Action::PageUp => position.saturating_sub(page),
        Action::PageDown => position.saturating_add(page),
        Action::Top => 0,
        Action::Bottom => last,
        _ => return None,
    };
    Some(to.min(last))
}

/// The selection after a list's rows changed, by identity: the row of the picked item (`ids`
/// are the rows' identities, in order), or where it is gone the same row number (clamped);
/// returns the row and the identity now picked.
pub(crate) fn keep_pick<K: PartialEq + Clone>(
    ids: &[K],
    picked: Option<&K>,
    selected: usize,
) -> (usize, Option<K>) {
    let at = picked.and_then(|p| ids.iter().position(|id| id == p));
    let row = at.unwrap_or(selected.min(ids.len().saturating_sub(1)));
    (row, ids.get(row).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movements_stay_inside_the_list() {
        assert_eq!(moved(0, Action::Up, 5, 2), Some(0));
        assert_eq!(moved(4, Action::Down, 5, 2), Some(4));
        assert_eq!(moved(1, Action::PageDown, 5, 2), Some(3));
        assert_eq!(moved(3, Action::PageDown, 5, 2), Some(4));
        assert_eq!(moved(3, Action::PageUp, 5, 2), Some(1));
        assert_eq!(moved(2, Action::Bottom, 5, 2), Some(4));
        assert_eq!(moved(2, Action::Top, 5, 2), Some(0));
        assert_eq!(
            moved(0, Action::Down, 0, 2),
            Some(0),
            "an empty list stays at 0"
        );
        assert_eq!(moved(usize::MAX, Action::Down, 3, 0), Some(2));
        assert_eq!(moved(1, Action::Search, 5, 2), None);
    }
}
