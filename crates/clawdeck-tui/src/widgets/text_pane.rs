//! A pane of long text (the Prompt view, the Invoke result) that can always be read whole:
//! lines wrap at the pane's width (or, with wrap off, scroll sideways), the rows scroll with the
//! movement keys, `/` searches with a hit count, and jumps go between section starts.
//!
//! Wrapping is by display column (a wide character never splits), so the number of rows a line
//! takes is exact and scrolling, search and section jumps agree with what is drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

use crate::keymap::Action;

#[derive(Debug, Clone)]
pub(crate) struct TextPane {
    lines: Vec<Line<'static>>,
    /// Lower-cased plain text of each line (search).
    plain: Vec<String>,
    /// Lines where a section starts (jumps).
    sections: Vec<usize>,
    pub(crate) wrap: bool,
    /// Wrapping breaks rows between words where it can (prose), not at the last column.
    pub(crate) word_wrap: bool,
    /// Columns a wrapped line's continuation rows are indented by (under a gutter).
    pub(crate) hang: usize,
    /// First visible row (a wrapped row when wrapping, a line otherwise).
    top: usize,
    /// Display columns hidden on the left when not wrapping.
    pub(crate) left: usize,
    /// Size at the last draw.
    height: usize,
    width: usize,
    /// `starts[i]` = first row of line i at `layout_width`; one more entry for the end.
    starts: Vec<usize>,
    layout_width: usize,
    query: String,
    /// Lines containing the query, in order.
    hits: Vec<usize>,
    /// Index into `hits` of the current hit.
    hit: Option<usize>,
    /// A line to bring to the top at the next draw (its row depends on the width).
    pending_line: Option<usize>,
    /// The last line jumped to and the top row it left: a section near the end cannot reach
    /// the top row, and the next jump must still go past it.
    anchor: Option<(usize, usize)>,
}

impl Default for TextPane {
    fn default() -> Self {
        TextPane {
            lines: Vec::new(),
            plain: Vec::new(),
            sections: Vec::new(),
            wrap: true,
            word_wrap: false,
            hang: 0,
            top: 0,
            left: 0,
            height: 0,
            width: 0,
            starts: vec![0],
            layout_width: 0,
            query: String::new(),
            hits: Vec::new(),
            hit: None,
            pending_line: None,
            anchor: None,
        }
    }
}

fn line_width(line: &Line) -> usize {
    line.spans
        .iter()
        .flat_map(|s| s.content.chars())
        .map(|c| c.width().unwrap_or(0))
        .sum()
}

/// Rows a line of `columns` display columns takes at `width`, continuation rows `hang` in.
fn rows_for(columns: usize, width: usize, hang: usize) -> usize {
    let rest = width.saturating_sub(hang).max(1);
    if columns <= width {
        1
    } else {
        1 + (columns - width).div_ceil(rest)
    }
}

/// The line cut into rows: the first `width` columns, then rows of `width - hang` columns after
/// `hang` spaces (at least one row). A wide character that does not fit moves to the next row.
fn wrap_line(line: &Line<'static>, width: usize, hang: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let hang = if hang < width { hang } else { 0 };
    let mut rows = vec![Line::default().style(line.style)];
    let mut used = 0;
    for span in &line.spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width && used > hang {
                if !piece.is_empty() {
                    let last = rows.len() - 1;
                    rows[last]
                        .spans
                        .push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                let mut row = Line::default().style(line.style);
                if hang > 0 {
                    row.spans.push(Span::raw(" ".repeat(hang)));
                }
                rows.push(row);
                used = hang;
            }
            piece.push(c);
            used += w;
        }
        if !piece.is_empty() {
            let last = rows.len() - 1;
            rows[last].spans.push(Span::styled(piece, span.style));
        }
    }
    rows
}

/// The line cut into rows between words: a row ends after the last space that lets it fit,
/// the spaces at a break are dropped, a word longer than a row is cut like `wrap_line`.
fn wrap_words(line: &Line<'static>, width: usize, hang: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let hang = if hang < width { hang } else { 0 };
    let cells: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|span| span.content.chars().map(move |c| (c, span.style)))
        .collect();
    let mut rows = Vec::new();
    let mut start = 0;
    loop {
        let first = rows.is_empty();
        let room = if first { width } else { width - hang };
        // The longest prefix that fits, and the last break chance inside it.
        let (mut used, mut end, mut last_space, mut word_seen) = (0, start, None, false);
        while end < cells.len() {
            let w = cells[end].0.width().unwrap_or(0);
            if used + w > room && end > start {
                break;
            }
            // A break chance is a space after a word (not the indentation before one).
            if cells[end].0 == ' ' {
                if word_seen {
                    last_space = Some(end);
                }
            } else {
                word_seen = true;
            }
            used += w;
            end += 1;
        }
        let cut = match last_space {
            Some(space) if end < cells.len() && cells[end].0 != ' ' && space > start => space,
            _ => end,
        };
        let mut row = Line::default().style(line.style);
        if !first && hang > 0 {
            row.spans.push(Span::raw(" ".repeat(hang)));
        }
        let mut text = String::new();
        let mut style = None;
        for &(c, s) in &cells[start..cut] {
            if style.is_some_and(|st| st != s) {
                row.spans.push(Span::styled(
                    std::mem::take(&mut text),
                    style.unwrap_or_default(),
                ));
            }
            style = Some(s);
            text.push(c);
        }
        if !text.is_empty() {
            row.spans
                .push(Span::styled(text, style.unwrap_or_default()));
        }
        rows.push(row);
        start = cut;
        // The spaces a row breaks at belong to neither row.
        while start < cells.len() && cells[start].0 == ' ' {
            start += 1;
        }
        if start >= cells.len() {
            return rows;
        }
    }
}

/// The line without its first `n` display columns.
fn skip_columns(line: &Line<'static>, n: usize) -> Line<'static> {
    let mut skipped = 0;
    let mut spans = Vec::new();
    for span in &line.spans {
        if skipped >= n {
            spans.push(span.clone());
            continue;
        }
        let mut rest = String::new();
        for c in span.content.chars() {
            if skipped >= n {
                rest.push(c);
            } else {
                skipped += c.width().unwrap_or(0);
            }
        }
        if !rest.is_empty() {
            spans.push(Span::styled(rest, span.style));
        }
    }
    Line::from(spans).style(line.style)
}

impl TextPane {
    /// A pane of prose: rows break between words.
    pub(crate) fn word_wrapped() -> TextPane {
        TextPane {
            word_wrap: true,
            ..TextPane::default()
        }
    }

    /// A pane whose wrapped rows continue `hang` columns in (under a gutter of that width).
    pub(crate) fn with_hang(hang: usize) -> TextPane {
        TextPane {
            hang,
            ..TextPane::default()
        }
    }

    /// Replaces the text; `sections` are the lines jumps stop at. The scroll position and the
    /// search stay (clamped), so a rebuilt prompt does not jump back to the top.
    pub(crate) fn set_lines(&mut self, lines: Vec<Line<'static>>, sections: Vec<usize>) {
        self.plain = lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
                    .to_lowercase()
            })
            .collect();
        self.lines = lines;
        self.sections = sections;
        self.layout_width = 0;
        self.relayout();
        let query = std::mem::take(&mut self.query);
        self.find_all(&query);
        self.clamp();
    }

    #[cfg(test)]
    pub fn lines(&self) -> &[Line<'static>] {
        &self.lines
    }

    /// Rows every line takes at the current width (recomputed only when it changes).
    fn relayout(&mut self) {
        let width = if self.wrap { self.width.max(1) } else { 0 };
        if width == self.layout_width && self.starts.len() == self.lines.len() + 1 {
            return;
        }
        self.layout_width = width;
        self.starts.clear();
        let mut row = 0;
        for line in &self.lines {
            self.starts.push(row);
            row += if width == 0 {
                1
            } else {
                self.rows_of(line, width)
            };
        }
        self.starts.push(row);
    }

    /// The rows of one line at `width` columns, as drawn.
    fn wrapped(&self, line: &Line<'static>, width: usize) -> Vec<Line<'static>> {
        if self.word_wrap {
            wrap_words(line, width, self.hang)
        } else {
            wrap_line(line, width, self.hang)
        }
    }

    /// How many rows one line takes at `width` columns.
    fn rows_of(&self, line: &Line<'static>, width: usize) -> usize {
        let columns = line_width(line);
        if self.word_wrap && columns > width {
            wrap_words(line, width, self.hang).len()
        } else {
            rows_for(columns, width, self.hang)
        }
    }

    /// Rows the text takes when wrapped at `width` columns (a pane sizes itself by it).
    pub(crate) fn rows_at(&self, width: usize) -> usize {
        self.lines
            .iter()
            .map(|line| self.rows_of(line, width.max(1)))
            .sum()
    }

    /// Rows scrolled past above the pane and left below it (at the last layout).
    pub(crate) fn rows_outside(&self) -> (usize, usize) {
        let below = self
            .total_rows()
            .saturating_sub(self.top + self.height.max(1));
        (self.top, below)
    }

    /// The pane's rows at the last layout.
    pub(crate) fn height(&self) -> usize {
        self.height
    }

    fn total_rows(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    fn max_top(&self) -> usize {
        self.total_rows().saturating_sub(self.height.max(1))
    }

    fn clamp(&mut self) {
        self.top = self.top.min(self.max_top());
    }

    /// The line shown in the first row.
    pub(crate) fn top_line(&self) -> usize {
        self.starts
            .partition_point(|&s| s <= self.top)
            .saturating_sub(1)
            .min(self.lines.len().saturating_sub(1))
    }

    /// Movement keys scroll by rows; None for other actions.
    pub(crate) fn scroll(&mut self, action: Action) -> Option<()> {
        let page = self.height.saturating_sub(1).max(1);
        let to = super::list::moved(self.top, action, self.max_top() + 1, page)?;
        self.top = to;
        self.pending_line = None;
        Some(())
    }

    pub(crate) fn scroll_rows(&mut self, up: bool, n: usize) {
        self.top = if up {
            self.top.saturating_sub(n)
        } else {
            self.top.saturating_add(n).min(self.max_top())
        };
    }

    pub(crate) fn scroll_sideways(&mut self, right: bool, n: usize) {
        if self.wrap {
            return;
        }
        self.left = if right {
            self.left.saturating_add(n).min(1 << 20)
        } else {
            self.left.saturating_sub(n)
        };
    }

    /// Wrap on or off; the line at the top stays at the top.
    pub(crate) fn toggle_wrap(&mut self) -> bool {
        let line = self.top_line();
        self.wrap = !self.wrap;
        self.left = 0;
        self.pending_line = Some(line);
        self.layout_width = usize::MAX;
        self.relayout();
        self.bring_to_top(line);
        self.wrap
    }

    fn bring_to_top(&mut self, line: usize) {
        self.top = self.starts.get(line).copied().unwrap_or(0);
        self.clamp();
    }

    fn jump_to_line(&mut self, line: usize) {
        self.pending_line = Some(line);
        self.bring_to_top(line);
        self.anchor = Some((line, self.top));
    }

    /// The line the operator is at: the last jump's target while the view has not moved, else
    /// the top line.
    fn current_line(&self) -> usize {
        match (self.pending_line, self.anchor) {
            (Some(line), _) => line,
            (None, Some((line, top))) if top == self.top => line,
            _ => self.top_line(),
        }
    }

    /// Jumps to the next (or previous) section start; false when there is none that way.
    pub(crate) fn jump_section(&mut self, forward: bool) -> bool {
        let current = self.current_line();
        let target = if forward {
            self.sections.iter().copied().find(|&s| s > current)
        } else {
            self.sections.iter().rev().copied().find(|&s| s < current)
        };
        match target {
            Some(line) => {
                self.jump_to_line(line);
                true
            }
            None => false,
        }
    }

    fn find_all(&mut self, query: &str) {
        self.query = query.to_lowercase();
        self.hits = if self.query.is_empty() {
            Vec::new()
        } else {
            (0..self.plain.len())
                .filter(|&i| self.plain[i].contains(&self.query))
                .collect()
        };
        self.hit = self.hit.filter(|&h| h < self.hits.len());
    }

    /// A new search: the first hit at or after the top line (wrapping to the first).
    pub(crate) fn search(&mut self, query: &str) {
        self.find_all(query);
        let from = self.current_line();
        self.hit = if self.hits.is_empty() {
            None
        } else {
            Some(self.hits.iter().position(|&l| l >= from).unwrap_or(0))
        };
        if let Some(h) = self.hit {
            self.jump_to_line(self.hits[h]);
        }
    }

    /// The next (or previous) hit, wrapping around; false when the query matches nothing.
    pub(crate) fn next_hit(&mut self, forward: bool) -> bool {
        let n = self.hits.len();
        if n == 0 {
            return false;
        }
        let h = match self.hit {
            None => 0,
            Some(h) if forward => (h + 1) % n,
            Some(h) => (h + n - 1) % n,
        };
        self.hit = Some(h);
        self.jump_to_line(self.hits[h]);
        true
    }

    /// `match 2 of 5`, `no match for "x"`, or None without a query.
    pub(crate) fn search_label(&self) -> Option<String> {
        if self.query.is_empty() {
            return None;
        }
        Some(match self.hit {
            Some(h) => format!(
                "match {} of {} for \"{}\"",
                h + 1,
                self.hits.len(),
                self.query
            ),
            None => format!("no match for \"{}\"", self.query),
        })
    }

    /// `lines 12–40 of 300`; None without text.
    pub(crate) fn position_label(&self) -> Option<String> {
        if self.lines.is_empty() {
            return None;
        }
        let first = self.top_line() + 1;
        let last_row = (self.top + self.height).min(self.total_rows());
        let last = self
            .starts
            .partition_point(|&s| s < last_row)
            .min(self.lines.len());
        Some(format!(
            "lines {first}–{} of {}",
            last.max(first),
            self.lines.len()
        ))
    }

    /// Fits the pane to `area` (rows per line, a pending jump) so that labels drawn before the
    /// text (a title) describe this frame; `render` does it too.
    pub(crate) fn layout(&mut self, area: Rect) {
        self.height = area.height as usize;
        self.width = area.width as usize;
        self.relayout();
        if let Some(line) = self.pending_line.take() {
            self.bring_to_top(line);
            self.anchor = Some((line, self.top));
        }
        self.clamp();
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer) {
        self.layout(area);
        if area.is_empty() || self.lines.is_empty() {
            return;
        }
        let hit_line = self.hit.and_then(|h| self.hits.get(h).copied());
        let mut line = self.top_line();
        let mut skip = self.top - self.starts[line];
        let mut y = area.y;
        while y < area.bottom() && line < self.lines.len() {
            let rows = if self.wrap {
                self.wrapped(&self.lines[line], self.width)
            } else {
                vec![skip_columns(&self.lines[line], self.left)]
            };
            for row in rows.iter().skip(skip) {
                if y >= area.bottom() {
                    break;
                }
                buf.set_line(area.x, y, row, area.width);
                if hit_line == Some(line) {
                    buf.set_style(
                        Rect::new(area.x, y, area.width, 1),
                        Style::default().add_modifier(Modifier::REVERSED),
                    );
                }
                y += 1;
            }
            skip = 0;
            line += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(lines: &[&str], width: u16, height: u16) -> (TextPane, Buffer) {
        let mut p = TextPane::default();
        p.set_lines(
            lines.iter().map(|l| Line::raw(l.to_string())).collect(),
            vec![],
        );
        let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
        p.render(buf.area, &mut buf);
        (p, buf)
    }

    fn rows(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                let mut row = String::new();
                let mut x = 0;
                while x < buf.area.width {
                    let symbol = buf[(x, y)].symbol();
                    row.push_str(symbol);
                    // A wide character covers the next cell too.
                    x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
                }
                row.trim_end().to_string()
            })
            .collect()
    }

    #[test]
    fn long_lines_wrap_at_the_width_and_wide_characters_stay_whole() {
        let (_, buf) = pane(&["abcdefghij", "日本語です"], 4, 6);
        assert_eq!(rows(&buf), ["abcd", "efgh", "ij", "日本", "語で", "す"]);
    }

    #[test]
    fn continuation_rows_hang_under_a_gutter_and_the_row_count_agrees() {
        let mut p = TextPane::with_hang(2);
        p.set_lines(vec![Line::raw(" │abcdefghij"), Line::raw("x")], vec![]);
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 5));
        p.render(buf.area, &mut buf);
        assert_eq!(rows(&buf), [" │abcd", "  efgh", "  ij", "x", ""]);
        assert_eq!(p.total_rows(), 4);
        assert_eq!(rows_for(12, 6, 2), 3);
        assert_eq!(rows_for(6, 6, 2), 1);
        assert_eq!(rows_for(7, 6, 2), 2);
    }

    #[test]
    fn word_wrap_breaks_between_words_and_cuts_only_words_longer_than_a_row() {
        let mut p = TextPane::word_wrapped();
        p.set_lines(
            vec![
                Line::raw("the quick brown fox"),
                Line::raw("abcdefghij end"),
                Line::raw("  indented"),
            ],
            vec![],
        );
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 8));
        p.render(buf.area, &mut buf);
        assert_eq!(
            rows(&buf),
            [
                "the", "quick", "brown", "fox", "abcdefgh", "ij end", "  indent", "ed"
            ]
        );
        assert_eq!(p.rows_at(8), 8);
    }

    #[test]
    fn without_wrap_long_lines_scroll_sideways() {
        let (mut p, _) = pane(&["abcdefghij"], 4, 1);
        p.toggle_wrap();
        p.scroll_sideways(true, 6);
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        p.render(buf.area, &mut buf);
        assert_eq!(rows(&buf), ["ghij"]);
    }

    #[test]
    fn scrolling_reaches_the_last_wrapped_row_and_no_further() {
        let (mut p, _) = pane(&["aaaaaaaa", "b", "c"], 4, 2);
        p.scroll(Action::Bottom);
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
        p.render(buf.area, &mut buf);
        assert_eq!(rows(&buf), ["b", "c"]);
        p.scroll(Action::Down);
        assert_eq!(p.top, 2, "4 rows, 2 on screen");
    }

    #[test]
    fn search_counts_hits_and_wraps_around() {
        let (mut p, _) = pane(&["x", "Foo 1", "y", "foo 2", "z"], 10, 2);
        p.search("FOO");
        assert_eq!(p.search_label().unwrap(), "match 1 of 2 for \"foo\"");
        assert_eq!(p.top_line(), 1);
        assert!(p.next_hit(true));
        assert_eq!(p.search_label().unwrap(), "match 2 of 2 for \"foo\"");
        assert!(p.next_hit(true));
        assert_eq!(p.search_label().unwrap(), "match 1 of 2 for \"foo\"");
        assert!(p.next_hit(false));
        assert_eq!(p.search_label().unwrap(), "match 2 of 2 for \"foo\"");
        p.search("nothing");
        assert_eq!(p.search_label().unwrap(), "no match for \"nothing\"");
        assert!(!p.next_hit(true));
    }

    #[test]
    fn section_jumps_stop_at_section_starts() {
        let mut p = TextPane::default();
        p.set_lines(
            (0..20).map(|i| Line::raw(format!("l{i}"))).collect(),
            vec![0, 5, 12],
        );
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 3));
        p.render(buf.area, &mut buf);
        assert!(p.jump_section(true));
        assert_eq!(p.top_line(), 5);
        assert!(p.jump_section(true));
        assert_eq!(p.top_line(), 12);
        assert!(!p.jump_section(true), "no section after the last");
        assert!(p.jump_section(false));
        assert_eq!(p.top_line(), 5);
        // A section too near the end to reach the top row is still passed by the next jump.
        p.set_lines(
            (0..20).map(|i| Line::raw(format!("l{i}"))).collect(),
            vec![0, 18, 19],
        );
        assert!(p.jump_section(true));
        p.render(buf.area, &mut buf);
        assert_eq!(p.top_line(), 17, "clamped: the last 3 lines fill the pane");
        assert!(p.jump_section(true), "19 is after 18, the line jumped to");
        assert!(!p.jump_section(true));
    }
}
