//! Lint view: `clawdeck lint`'s findings for the config in use (every agent's context), most
//! severe first: severity, the config key to change (with file:line:col), the finding's kind
//! and sentence; the selected finding in full below, with the contexts it applies to. The App
//! runs the lint as a job whenever a config is installed; the view only renders the report.

use crossterm::event::MouseEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget, Wrap};

use super::ViewCtx;
use crate::keymap::Action;
use crate::lint::{Finding, LintReport, Severity};
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::list::pick_row;
use crate::widgets::table::{list_table, render_selected};

#[derive(Debug, Default)]
pub(crate) struct LintView {
    pub(crate) report: Option<LintReport>,
    /// Why the last lint failed (the last report stays).
    pub(crate) error: Option<String>,
    /// A lint job is running for a newer config.
    pub(crate) pending: bool,
    pub(crate) selected: usize,
    offset: usize,
    table_area: Rect,
    /// The selected finding in full.
    detail: DetailPane,
}

/// The severity cell: a symbol and the word.
pub(crate) fn severity_cell(severity: Severity) -> (&'static str, Style) {
    match severity {
        Severity::Error => ("✗ error", theme::error()),
        Severity::Warning => ("⚠ warning", theme::warning()),
        Severity::Info => ("· info", theme::dim()),
    }
}

/// The config key with where it is written: `tools.alsoAllow (openclaw.json5:4:5)`.
pub(crate) fn place(finding: &Finding) -> String {
    match (&finding.config_path, &finding.location) {
        (Some(path), Some(at)) => format!("{path} ({}:{})", at.line, at.column),
        (Some(path), None) => path.clone(),
        (None, _) => "(no config key)".to_string(),
    }
}

impl LintView {
    pub(crate) fn set_report(&mut self, report: LintReport) {
        self.report = Some(report);
        self.error = None;
        self.pending = false;
        let n = self.findings().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    pub(crate) fn findings(&self) -> &[Finding] {
        self.report.as_ref().map_or(&[], |r| r.findings.as_slice())
    }

    pub(crate) fn handle_action(&mut self, action: Action, _ctx: &ViewCtx) -> bool {
        let page = self.table_area.height.saturating_sub(3).max(1) as usize;
        if let Some(to) =
            crate::widgets::list::moved(self.selected, action, self.findings().len(), page)
        {
            self.selected = to;
            return true;
        }
        self.detail.scroll(action)
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.detail.mouse(mouse) {
            return true;
        }
        let len = self.findings().len();
        pick_row(
            &mut self.selected,
            self.table_area,
            mouse,
            self.offset,
            len,
            1,
        )
    }

    fn title(&self) -> String {
        let Some(report) = &self.report else {
            return " Lint ".to_string();
        };
        let pending = if self.pending { " · linting…" } else { "" };
        format!(
            " Lint · {} · {} · {} · OpenClaw {} ({}){pending} ",
            crate::widgets::count(report.count(Severity::Error), "error", "errors"),
            crate::widgets::count(report.count(Severity::Warning), "warning", "warnings"),
            crate::widgets::count(report.count(Severity::Info), "note", "notes"),
            report.openclaw,
            report.openclaw_reason
        )
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let error_height = u16::from(self.error.is_some());
        let (subject, detail) = match self.findings().get(self.selected) {
            Some(f) => (format!("{}{}", self.selected, f.message), detail_lines(f)),
            None => (String::new(), Vec::new()),
        };
        self.detail.set(&subject, detail);
        let detail_height = if subject.is_empty() {
            0
        } else {
            let wanted = self.detail.rows_needed(area.width);
            DetailPane::height_within(area.height, wanted, area.height / 2)
        };
        let [error_area, table_area, detail_area] = Layout::vertical([
            Constraint::Length(error_height),
            Constraint::Fill(1),
            Constraint::Length(detail_height),
        ])
        .areas(area);
        self.table_area = table_area;
        if let Some(err) = &self.error {
            let line = Line::from(vec![
                Span::styled("✗ lint: ", theme::error()),
                Span::raw(err.clone()),
            ]);
            buf.set_line(error_area.x, error_area.y, &line, error_area.width);
        }
        let block = Block::bordered().title(self.title());
        let Some(report) = &self.report else {
            let text = if self.pending {
                "linting the config…"
            } else {
                "no config linted yet"
            };
            Paragraph::new(Line::styled(text, theme::dim()))
                .block(block)
                .render(table_area, buf);
            return;
        };
        let contexts: Vec<&str> = report.contexts.iter().map(|c| c.label.as_str()).collect();
        if report.findings.is_empty() {
            Paragraph::new(vec![
                Line::styled(format!("✓ no findings in {}", report.config), theme::ok()),
                Line::styled(format!("contexts: {}", contexts.join("; ")), theme::dim()),
            ])
            .wrap(Wrap { trim: false })
            .block(block)
            .render(table_area, buf);
            return;
        }
        let rows: Vec<Row> = report
            .findings
            .iter()
            .map(|f| {
                let (sev, style) = severity_cell(f.severity);
                Row::new(vec![
                    Span::styled(sev, style),
                    Span::raw(place(f)),
                    Span::styled(f.kind.as_str(), theme::dim()),
                    Span::raw(f.message.clone()),
                ])
            })
            .collect();
        let table = list_table(
            rows,
            [
                Constraint::Length(9),
                Constraint::Max(44),
                Constraint::Max(22),
                Constraint::Fill(1),
            ],
            Row::new(vec!["severity", "config key", "kind", "finding"]),
            block,
        );
        self.offset = render_selected(table, table_area, buf, self.selected, self.offset);
        self.detail.render(detail_area, buf, "Finding", ctx.keymap);
    }
}

/// The selected finding: severity and kind, the sentence (what to do), the key to change and
/// where it is written, the contexts.
pub(crate) fn detail_lines(f: &Finding) -> Vec<Line<'static>> {
    let (sev, style) = severity_cell(f.severity);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!("{sev} "), style),
            Span::styled(f.kind.as_str(), theme::bold()),
        ]),
        Line::raw(f.message.clone()),
    ];
    let key = match (&f.config_path, &f.location) {
        (Some(path), Some(at)) => format!("change {path} at {at}"),
        (Some(path), None) => format!("change {path}"),
        (None, _) => "no single config key: see the sentence above".to_string(),
    };
    lines.push(Line::from(vec![
        Span::styled("fix: ", theme::bold()),
        Span::styled(key, theme::accent()),
    ]));
    if !f.contexts.is_empty() {
        lines.push(Line::styled(
            format!("in: {}", f.contexts.join("; ")),
            theme::dim(),
        ));
    }
    lines
}
