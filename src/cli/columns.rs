//! The one column layout of the headless tables (`gateway sessions`, `gateway effective`,
//! `log`): widths measured in terminal cells (a CJK character takes two), cells made one plain
//! line (untrusted text through the sanitizer), two spaces between columns, the last column never
//! padded.

use unicode_width::UnicodeWidthStr;

/// Column widths for a table.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnLayout {
    widths: Vec<usize>,
    /// No column grows wider than this (a longer cell overflows its column).
    cap: usize,
}

/// A cell as one plain line: control sequences dropped, runs of whitespace (newlines, tabs)
/// made one space.
pub fn cell(text: &str) -> String {
    crate::sanitize::plain(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl ColumnLayout {
    /// Widths that fit `header` and `rows` (cells as [`cell`] makes them), each at most `cap`.
    pub fn fit<R: AsRef<[String]>>(header: &[&str], rows: &[R], cap: usize) -> ColumnLayout {
        let mut layout = ColumnLayout {
            widths: header.iter().map(|h| h.width()).collect(),
            cap,
        };
        for row in rows {
            layout.widen(row.as_ref());
        }
        layout
    }

    /// Makes room for `cells` (up to the cap).
    pub fn widen(&mut self, cells: &[String]) {
        for (width, text) in self.widths.iter_mut().zip(cells) {
            *width = (*width).max(text.width().min(self.cap));
        }
    }

    /// One line: every cell but the last padded to its column.
    pub fn line<S: AsRef<str>>(&self, cells: &[S]) -> String {
        let last = cells.len().saturating_sub(1);
        let mut out = String::new();
        for (i, text) in cells.iter().enumerate() {
            let text = text.as_ref();
            if i > 0 {
                out.push_str("  ");
            }
            out.push_str(text);
            if i < last {
                let width = self.widths.get(i).copied().unwrap_or(0);
                out.push_str(&" ".repeat(width.saturating_sub(text.width())));
            }
        }
        out.trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_by_display_width_with_long_and_wide_cells() {
        let rows = vec![
            vec!["gw".to_string(), "agent:ops:main".into(), "idle".into()],
            vec![
                "gw".to_string(),
                "agent:ops:telegram:group:-1001234567890:topic:42".into(),
                "running".into(),
            ],
            vec!["网关".to_string(), "agent:main:会话".into(), "idle".into()],
        ];
        let layout = ColumnLayout::fit(&["GATEWAY", "KEY", "STATE"], &rows, usize::MAX);
        let lines: Vec<String> = std::iter::once(layout.line(&["GATEWAY", "KEY", "STATE"]))
            .chain(rows.iter().map(|r| layout.line(r)))
            .collect();
        // The third column starts at the same display column on every line.
        let starts: Vec<usize> = lines
            .iter()
            .map(|l| {
                let at = l.rfind("  ").map(|i| i + 2).unwrap_or(0);
                l[..at].width()
            })
            .collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{lines:#?}");
        assert!(lines.iter().all(|l| !l.ends_with(' ')));
    }

    #[test]
    fn cells_are_one_plain_line_and_a_cap_bounds_a_column() {
        assert_eq!(cell("a\x1b]0;title\x07b\nc\td"), "ab c d");
        let rows = vec![vec!["x".repeat(100), "y".to_string()]];
        let layout = ColumnLayout::fit(&["A", "B"], &rows, 40);
        assert_eq!(layout.line(&["a", "b"]), format!("a{}  b", " ".repeat(39)));
    }
}
