//! Diff view (what-if): the console's context (side a) against a second context the operator
//! edits here (side b: another agent, owner on/off, subagent on/off, sandbox forced, another
//! OpenClaw version pack). Lists the tools that disappear or appear on b with the rule of the
//! side that hides each, and the tools only one version has; the selected change's rule in full
//! below. The App computes the diff as a job (`policy::diff::diff_what_if`); the view renders it.

use crossterm::event::MouseEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget};

use super::ViewCtx;
use crate::context::PolicyContext;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::policy::Removal;
use crate::policy::diff::{DiffSide, ResolutionDiff};
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::list::pick_row;
use crate::widgets::table::{list_table, render_selected};
use crate::widgets::text_pane::TextPane;

/// What side b changes relative to side a (the console's context).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WhatIf {
    /// Another agent; None: a's.
    pub(crate) agent: Option<String>,
    pub(crate) flip_owner: bool,
    pub(crate) flip_subagent: bool,
    pub(crate) flip_sandbox: bool,
    /// Another OpenClaw version pack; None: the config's.
    pub(crate) version: Option<String>,
}

impl WhatIf {
    /// Side b's context: a's with the changes.
    pub(crate) fn context_b(&self, a: &PolicyContext) -> PolicyContext {
        let mut b = a.clone();
        if let Some(agent) = &self.agent {
            b.agent = Some(agent.clone());
        }
        if self.flip_owner {
            b.owner = Some(!a.is_owner());
        }
        if self.flip_subagent {
            let was = a.subagent || a.subagent_depth.is_some();
            b.subagent = !was;
            if was {
                b.subagent_depth = None;
            }
        }
        if self.flip_sandbox {
            b.sandboxed = !a.sandboxed;
        }
        b
    }
}

/// The next value of a cycle through `options` after `current` (None = as side a), skipping
/// `a_has` (side a's own value: picking it would change nothing); after the last, None again.
fn cycle(options: &[String], current: Option<&String>, a_has: Option<&str>) -> Option<String> {
    let start = match current {
        None => 0,
        Some(c) => options.iter().position(|o| o == c).map_or(0, |i| i + 1),
    };
    options
        .iter()
        .skip(start)
        .find(|o| Some(o.as_str()) != a_has)
        .cloned()
}

#[derive(Debug, Default)]
pub(crate) struct DiffView {
    pub(crate) what_if: WhatIf,
    /// Side a: the console's context when the diff was asked for.
    pub(crate) side_a: PolicyContext,
    /// The config's agents and the version packs clawdeck knows (filled by the App).
    pub(crate) agents: Vec<String>,
    pub(crate) packs: Vec<String>,
    pub(crate) result: Option<ResolutionDiff>,
    pub(crate) error: Option<String>,
    /// A diff job is running for the current what-if.
    pub(crate) pending: bool,
    pub(crate) selected: usize,
    offset: usize,
    table_area: Rect,
    /// The selected change's rule in full.
    detail: DetailPane,
    /// Side a's agent and version pack as the last diff resolved them (the cycles skip them).
    pub(crate) a_agent: Option<String>,
    pub(crate) a_pack: Option<String>,
}

/// One row: a change mark, the tool, and what hides it.
struct DiffRow {
    mark: &'static str,
    style: Style,
    tool: String,
    why: String,
    rule: Option<(char, Removal)>,
}

fn rows(d: &ResolutionDiff) -> Vec<DiffRow> {
    let mut out = Vec::new();
    for c in &d.disappear {
        out.push(DiffRow {
            mark: "- gone on b",
            style: theme::error(),
            tool: c.tool.clone(),
            why: format!("hidden on b by {}", c.hidden_by.rule_text()),
            rule: Some(('b', c.hidden_by.clone())),
        });
    }
    for c in &d.appear {
        out.push(DiffRow {
            mark: "+ new on b",
            style: theme::ok(),
            tool: c.tool.clone(),
            why: format!("hidden on a by {}", c.hidden_by.rule_text()),
            rule: Some(('a', c.hidden_by.clone())),
        });
    }
    for (side, list) in [("a", &d.only_in_a), ("b", &d.only_in_b)] {
        for t in list {
            let other = t
                .other_name
                .as_deref()
                .map(|o| format!(" (the other version calls it {o})"))
                .unwrap_or_default();
            out.push(DiffRow {
                mark: if side == "a" {
                    "only a's ver"
                } else {
                    "only b's ver"
                },
                style: theme::warning(),
                tool: t.tool.clone(),
                why: format!(
                    "only {side}'s OpenClaw version has it ({} there){other}",
                    if t.visible { "visible" } else { "hidden" }
                ),
                rule: None,
            });
        }
    }
    out
}

fn side_line(id: &str, s: &DiffSide) -> Line<'static> {
    let mut spans = vec![
        Span::styled(format!("{id}: "), theme::bold()),
        Span::raw(s.label.clone()),
        Span::styled(
            format!(" · OpenClaw {} · {} visible", s.openclaw, s.visible),
            theme::dim(),
        ),
    ];
    if let Some(refusal) = &s.refusal {
        spans.push(Span::styled(
            format!(" · run refused: {refusal}"),
            theme::error(),
        ));
    }
    Line::from(spans)
}

impl DiffView {
    fn row_count(&self) -> usize {
        self.result.as_ref().map_or(0, |d| rows(d).len())
    }

    /// A key that edits side b: the App recomputes (`RefreshDiff`).
    fn edit(&mut self, action: Action) -> bool {
        let w = &mut self.what_if;
        match action {
            Action::DiffAgent => {
                w.agent = cycle(&self.agents, w.agent.as_ref(), self.a_agent.as_deref())
            }
            Action::DiffOwner => w.flip_owner = !w.flip_owner,
            Action::DiffSubagent => w.flip_subagent = !w.flip_subagent,
            Action::DiffSandbox => w.flip_sandbox = !w.flip_sandbox,
            Action::DiffVersion => {
                w.version = cycle(&self.packs, w.version.as_ref(), self.a_pack.as_deref())
            }
            Action::DiffReset => *w = WhatIf::default(),
            _ => return false,
        }
        true
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if self.detail.scroll(action) {
            return true;
        }
        let page = self.table_area.height.saturating_sub(3).max(1) as usize;
        if let Some(to) = crate::widgets::list::moved(self.selected, action, self.row_count(), page)
        {
            self.selected = to;
            return true;
        }
        if self.edit(action) {
            self.selected = 0;
            ctx.send(AppEvent::RefreshDiff);
            return true;
        }
        false
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.detail.mouse(mouse) {
            return true;
        }
        let len = self.row_count();
        pick_row(
            &mut self.selected,
            self.table_area,
            mouse,
            self.offset,
            len,
            1,
        )
    }

    /// What b changes, with the key for each (from the keymap).
    fn edit_line(&self, ctx: &ViewCtx) -> Line<'static> {
        let key = |a: Action| ctx.keymap.key_label(a);
        let w = &self.what_if;
        let b = w.context_b(&self.side_a);
        let yes_no = |on: bool| if on { "yes" } else { "no" };
        let part = |k: String, text: String, changed: bool| {
            let style = if changed {
                theme::accent()
            } else {
                theme::dim()
            };
            vec![
                Span::styled(k, theme::accent().patch(theme::bold())),
                Span::styled(format!(" {text}  "), style),
            ]
        };
        let mut spans = vec![Span::styled("b = a with: ", theme::bold())];
        spans.extend(part(
            key(Action::DiffAgent),
            format!("agent {}", w.agent.as_deref().unwrap_or("as a")),
            w.agent.is_some(),
        ));
        spans.extend(part(
            key(Action::DiffOwner),
            format!("owner {}", yes_no(b.is_owner())),
            w.flip_owner,
        ));
        spans.extend(part(
            key(Action::DiffSubagent),
            format!(
                "subagent {}",
                yes_no(b.subagent || b.subagent_depth.is_some())
            ),
            w.flip_subagent,
        ));
        spans.extend(part(
            key(Action::DiffSandbox),
            format!(
                "sandbox {}",
                if b.sandboxed {
                    "forced"
                } else {
                    "as configured"
                }
            ),
            w.flip_sandbox,
        ));
        spans.extend(part(
            key(Action::DiffVersion),
            format!("OpenClaw {}", w.version.as_deref().unwrap_or("as a")),
            w.version.is_some(),
        ));
        spans.extend(part(key(Action::DiffReset), "reset".to_string(), false));
        Line::from(spans)
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let head = self.head_lines(ctx);
        // The head wraps and grows (up to a third of the room) so that every key shows.
        let mut head_pane = TextPane::word_wrapped();
        head_pane.set_lines(head, Vec::new());
        let head_rows = head_pane.rows_at(area.width.saturating_sub(2) as usize) as u16 + 2;
        let (subject, detail) = match self
            .result
            .as_ref()
            .and_then(|d| rows(d).into_iter().nth(self.selected))
        {
            Some(row) => (format!("{} {}", row.mark, row.tool), detail_lines(&row)),
            None => (String::new(), Vec::new()),
        };
        self.detail.set(&subject, detail);
        let detail_height = if subject.is_empty() {
            0
        } else {
            let wanted = self.detail.rows_needed(area.width);
            DetailPane::height_within(area.height, wanted, area.height / 3)
        };
        let [head_area, table_area, detail_area] = Layout::vertical([
            Constraint::Length(head_rows.min(area.height / 3).max(3.min(area.height))),
            Constraint::Fill(1),
            Constraint::Length(detail_height),
        ])
        .areas(area);
        self.table_area = table_area;
        let title = if self.pending {
            " What-if · computing… "
        } else {
            " What-if: the console's context (a) against b "
        };
        let block = Block::bordered().title(title);
        head_pane.render(block.inner(head_area), buf);
        block.render(head_area, buf);
        if self.result.is_none() {
            Block::bordered().title(" Changes ").render(table_area, buf);
            return;
        }
        self.render_changes(table_area, buf);
        self.detail
            .render(detail_area, buf, "The rule responsible", ctx.keymap);
    }

    /// The edited context b, then each side's summary (or the diff's error).
    fn head_lines(&self, ctx: &ViewCtx) -> Vec<Line<'static>> {
        let mut head = vec![self.edit_line(ctx)];
        match (&self.result, &self.error) {
            (_, Some(err)) => head.push(Line::from(vec![
                Span::styled("✗ diff: ", theme::error()),
                Span::raw(err.clone()),
            ])),
            (Some(d), None) => {
                head.push(side_line("a", &d.a));
                head.push(side_line("b", &d.b));
            }
            (None, None) => head.push(Line::styled("no diff computed yet", theme::dim())),
        }
        head
    }

    /// The tools whose visibility differs between a and b, with why.
    fn render_changes(&mut self, table_area: Rect, buf: &mut Buffer) {
        let Some(d) = &self.result else {
            return;
        };
        let rows = rows(d);
        let title = format!(
            " Changes · {} gone on b, {} new on b, {} in one version only · {} visible on both ",
            d.disappear.len(),
            d.appear.len(),
            d.only_in_a.len() + d.only_in_b.len(),
            d.visible_in_both
        );
        if rows.is_empty() {
            let same = if d.is_same() {
                format!(
                    "no difference: the same {} tools are visible on both sides",
                    d.visible_in_both
                )
            } else {
                "the sides differ only in whether the run is refused".to_string()
            };
            Paragraph::new(Line::styled(same, theme::ok()))
                .block(Block::bordered().title(title))
                .render(table_area, buf);
        } else {
            let longest = rows
                .iter()
                .map(|r| r.tool.chars().count())
                .max()
                .unwrap_or(4)
                .clamp(4, 28) as u16;
            let table_rows: Vec<Row> = rows
                .iter()
                .map(|r| {
                    Row::new(vec![
                        Span::styled(r.mark, r.style),
                        Span::raw(r.tool.clone()),
                        Span::raw(r.why.clone()),
                    ])
                })
                .collect();
            let table = list_table(
                table_rows,
                [
                    Constraint::Length(12),
                    Constraint::Length(longest),
                    Constraint::Fill(1),
                ],
                Row::new(vec!["change", "tool", "why"]),
                Block::bordered().title(title),
            );
            self.offset = render_selected(table, table_area, buf, self.selected, self.offset);
        }
    }
}

fn detail_lines(row: &DiffRow) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{} ", row.mark), row.style),
        Span::styled(row.tool.clone(), theme::bold()),
    ])];
    match &row.rule {
        Some((side, r)) => {
            lines.push(Line::raw(format!(
                "hidden on {side} by the {} layer: {}",
                r.layer.title(),
                r.reason
            )));
            let mut parts = Vec::new();
            if let Some(p) = &r.pattern {
                parts.push(format!("pattern \"{p}\""));
            }
            if let Some(e) = &r.expanded_from {
                parts.push(format!("from {e}"));
            }
            if let Some(b) = &r.builtin {
                parts.push(format!("built-in: {b}"));
            }
            if !parts.is_empty() {
                lines.push(Line::styled(parts.join(" · "), theme::warning()));
            }
            if let Some(path) = &r.config_path {
                lines.push(Line::from(vec![
                    Span::styled("config key: ", theme::bold()),
                    Span::styled(path.clone(), theme::accent()),
                ]));
            }
        }
        None => lines.push(Line::raw(row.why.clone())),
    }
    lines
}
