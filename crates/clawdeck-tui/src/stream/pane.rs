//! The scrollable stream pane: follow mode (pauses when the user scrolls up, resumes at the
//! bottom), search, and drawing of only the visible slice.

use ansi_to_tui::IntoText as _;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::buffer::{StreamBuffer, StreamKind};
use crate::theme;

/// How far right the view may scroll (a line cap keeps lines shorter than this anyway).
const MAX_LEFT_COLUMNS: usize = 1 << 20;

#[derive(Debug, Clone)]
pub(crate) struct StreamPaneState {
    /// Stick to the bottom as lines arrive.
    pub(crate) follow: bool,
    /// First visible line (absolute sequence number) when not following.
    pub(crate) top: u64,
    /// Rows the pane had at the last draw (page size).
    pub(crate) height: usize,
    /// Line of the current search hit.
    pub(crate) hit: Option<u64>,
    pub(crate) query: String,
    /// Display columns hidden on the left (horizontal scroll for long lines).
    pub(crate) left: usize,
}

impl Default for StreamPaneState {
    fn default() -> Self {
        StreamPaneState {
            follow: true,
            top: 0,
            height: 20,
            hit: None,
            query: String::new(),
            left: 0,
        }
    }
}

impl StreamPaneState {
    fn max_top(&self, buf: &StreamBuffer) -> u64 {
        buf.end_seq()
            .saturating_sub(self.height as u64)
            .max(buf.first_seq())
    }

    /// The first visible line for the current mode.
    pub(crate) fn effective_top(&self, buf: &StreamBuffer) -> u64 {
        if self.follow {
            self.max_top(buf)
        } else {
            self.top.clamp(buf.first_seq(), self.max_top(buf))
        }
    }

    pub(crate) fn scroll_up(&mut self, buf: &StreamBuffer, n: usize) {
        let top = self.effective_top(buf);
        self.top = top.saturating_sub(n as u64).max(buf.first_seq());
        if self.top < self.max_top(buf) {
            self.follow = false;
        }
    }

    pub(crate) fn scroll_down(&mut self, buf: &StreamBuffer, n: usize) {
        if self.follow {
            return;
        }
        self.top = self.effective_top(buf) + n as u64;
        if self.top >= self.max_top(buf) {
            self.follow = true;
        }
    }

    pub(crate) fn page_up(&mut self, buf: &StreamBuffer) {
        self.scroll_up(buf, self.height.saturating_sub(1).max(1));
    }

    pub(crate) fn page_down(&mut self, buf: &StreamBuffer) {
        self.scroll_down(buf, self.height.saturating_sub(1).max(1));
    }

    pub(crate) fn home(&mut self, buf: &StreamBuffer) {
        self.top = buf.first_seq();
        self.follow = self.top >= self.max_top(buf);
    }

    pub(crate) fn end(&mut self) {
        self.follow = true;
    }

    /// Shifts the view `n` columns left (towards the start of the lines).
    pub(crate) fn scroll_left(&mut self, n: usize) {
        self.left = self.left.saturating_sub(n);
    }

    /// Shifts the view `n` columns right, to read past the pane's edge.
    pub(crate) fn scroll_right(&mut self, n: usize) {
        self.left = self.left.saturating_add(n).min(MAX_LEFT_COLUMNS);
    }

    /// Jumps to the next (or previous) line containing the query; returns whether one exists.
    pub(crate) fn search(&mut self, buf: &StreamBuffer, forward: bool) -> bool {
        let from = match self.hit {
            Some(h) if forward => h + 1,
            Some(h) => h.saturating_sub(1),
            // A new search starts at the first retained line, not mid-buffer.
            None if forward => buf.first_seq(),
            None => self.effective_top(buf) + self.height as u64,
        };
        match buf.search(&self.query, from, forward) {
            Some(seq) => {
                self.hit = Some(seq);
                let top = self.effective_top(buf);
                if seq < top || seq >= top + self.height as u64 {
                    self.top = seq
                        .saturating_sub(self.height as u64 / 2)
                        .max(buf.first_seq());
                    self.follow = false;
                    if self.top >= self.max_top(buf) {
                        self.top = self.max_top(buf);
                    }
                }
                true
            }
            None => {
                self.hit = None;
                false
            }
        }
    }
}

/// Draws a buffer's visible slice.
pub(crate) struct StreamPane<'a> {
    pub(crate) buffer: &'a StreamBuffer,
}

impl StreamPane<'_> {
    pub(crate) fn render(&self, area: Rect, out: &mut Buffer, state: &mut StreamPaneState) {
        state.height = area.height as usize;
        if area.is_empty() {
            return;
        }
        let top = state.effective_top(self.buffer);
        if !state.follow {
            state.top = top;
        }
        let lines = self.buffer.slice(top, area.height as usize);
        for (row, line) in lines.iter().enumerate() {
            let y = area.y + row as u16;
            let (gutter, gutter_style) = match line.kind {
                StreamKind::Stdout => (" │", theme::dim()),
                StreamKind::Stderr => ("E│", theme::error()),
                StreamKind::Note => ("»│", theme::warning()),
            };
            out.set_string(area.x, y, gutter, gutter_style);
            let text_x = area.x + 2;
            let width = area.width.saturating_sub(2);
            let rendered: Line = if line.styled {
                match line.text.as_bytes().into_text() {
                    Ok(text) => text.lines.into_iter().next().unwrap_or_default(),
                    Err(_) => Line::raw(line.plain().into_owned()),
                }
            } else {
                Line::from(Span::raw(line.text.as_ref()))
            };
            let rendered = match line.kind {
                StreamKind::Note => rendered.style(theme::warning().add_modifier(Modifier::ITALIC)),
                _ => rendered,
            };
            let rendered = skip_columns(rendered, state.left);
            out.set_line(text_x, y, &rendered, width);
            let seq = top + row as u64;
            if state.hit == Some(seq) {
                out.set_style(
                    Rect::new(text_x, y, width, 1),
                    Style::default().add_modifier(Modifier::REVERSED),
                );
            }
        }
    }
}

/// The line without its first `n` display columns (a wide character cut in half is dropped).
fn skip_columns(line: Line<'_>, n: usize) -> Line<'_> {
    if n == 0 {
        return line;
    }
    let Line {
        spans,
        style,
        alignment,
    } = line;
    let mut skipped = 0;
    let mut kept = Vec::with_capacity(spans.len());
    for span in spans {
        if skipped >= n {
            kept.push(span);
            continue;
        }
        let mut cut = span.content.len();
        for (at, ch) in span.content.char_indices() {
            if skipped >= n {
                cut = at;
                break;
            }
            skipped += unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        }
        if cut < span.content.len() {
            let rest = span.content[cut..].to_string();
            kept.push(Span::styled(rest, span.style));
        }
    }
    Line {
        spans: kept,
        style,
        alignment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(n: usize) -> StreamBuffer {
        let mut b = StreamBuffer::new(1000);
        for i in 0..n {
            b.push_clean(StreamKind::Stdout, &format!("line {i}"));
        }
        b
    }

    #[test]
    fn skip_columns_drops_the_first_columns_across_spans() {
        let line = Line::from(vec![Span::raw("abc"), Span::raw("def")]);
        let text = |l: Line| {
            l.spans
                .iter()
                .map(|s| s.content.to_string())
                .collect::<String>()
        };
        assert_eq!(text(skip_columns(line.clone(), 0)), "abcdef");
        assert_eq!(text(skip_columns(line.clone(), 4)), "ef");
        assert_eq!(text(skip_columns(line, 10)), "");
        // A double-width character counts as two columns.
        assert_eq!(text(skip_columns(Line::raw("日本語"), 2)), "本語");
    }

    #[test]
    fn follow_pauses_on_scroll_up_and_resumes_at_bottom() {
        let mut b = filled(100);
        let mut s = StreamPaneState {
            height: 10,
            ..Default::default()
        };
        assert_eq!(s.effective_top(&b), 90);
        s.scroll_up(&b, 3);
        assert!(!s.follow);
        assert_eq!(s.effective_top(&b), 87);
        b.push_clean(StreamKind::Stdout, "new");
        assert_eq!(s.effective_top(&b), 87, "paused view keeps its place");
        s.scroll_down(&b, 2);
        assert!(!s.follow);
        s.scroll_down(&b, 5);
        assert!(s.follow);
        assert_eq!(s.effective_top(&b), 91);
    }

    #[test]
    fn home_end_and_pages() {
        let b = filled(100);
        let mut s = StreamPaneState {
            height: 10,
            ..Default::default()
        };
        s.home(&b);
        assert_eq!(s.effective_top(&b), 0);
        s.page_down(&b);
        assert_eq!(s.effective_top(&b), 9);
        s.end();
        assert_eq!(s.effective_top(&b), 90);
        s.page_up(&b);
        assert_eq!(s.effective_top(&b), 81);
    }

    #[test]
    fn search_moves_view_to_hit() {
        let b = filled(100);
        let mut s = StreamPaneState {
            height: 10,
            query: "line 42".into(),
            ..Default::default()
        };
        assert!(s.search(&b, true));
        assert_eq!(s.hit, Some(42));
        assert!(!s.follow);
        let top = s.effective_top(&b);
        assert!(top <= 42 && 42 < top + 10);
        s.query = "nothing".into();
        assert!(!s.search(&b, true));
    }

    #[test]
    fn renders_only_visible_slice_with_gutters() {
        let mut b = StreamBuffer::new(100);
        b.push_chunk(StreamKind::Stdout, b"\x1b[31mred\x1b[0m out\n");
        b.push_chunk(StreamKind::Stderr, b"bad\n");
        b.push_note("killed by operator");
        let mut out = Buffer::empty(Rect::new(0, 0, 24, 3));
        let mut s = StreamPaneState::default();
        StreamPane { buffer: &b }.render(out.area, &mut out, &mut s);
        let rows: Vec<String> = (0..3)
            .map(|y| {
                (0..24)
                    .map(|x| out[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        assert_eq!(rows, vec![" │red out", "E│bad", "»│killed by operator"]);
        assert_eq!(out[(2, 0)].fg, ratatui::style::Color::Red);
    }
}
