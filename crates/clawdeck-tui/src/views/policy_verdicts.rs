//! The Policy view's comparison with a live gateway session: which session was asked, the
//! verdict of each tool (the core's `verify::compare`, never recomputed here), the line above
//! the table, the verdict column and the verdict lines of the detail pane.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::comparison::compare::NOT_BUILT;
use crate::comparison::{Agreement, ToolVerdict};
use crate::context::PolicyContext;
use crate::deck::session_compare::SessionCheck;
use crate::policy::ToolTrace;
use crate::theme;

/// Width of the verdict column.
pub(crate) const VERDICT_COLUMN: u16 = 15;

/// The session the operator picked and where asking it stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SessionCompare {
    pub(crate) gateway: String,
    pub(crate) session_key: String,
    /// The context clawdeck answers for (the session's: the console switches to it).
    pub(crate) context: PolicyContext,
    pub(crate) state: CompareState,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CompareState {
    Asking,
    Ready(Box<SessionCheck>),
    Failed(String),
}

/// What the verdict column says for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowVerdict {
    /// Both sides show it, or both hide it.
    Agree,
    /// Both show it, with different schemas.
    SchemaDiffers,
    ClawdeckOnly,
    OpenclawOnly,
    /// clawdeck's own tool: OpenClaw never has it.
    NotCompared,
    /// Listed differently by tools.effective than a run sends it, for a reason the pack
    /// records (not a policy disagreement).
    Surface,
}

impl RowVerdict {
    /// The cell: a symbol and a word, so it reads without colour.
    pub(crate) fn cell(self) -> (&'static str, Style) {
        match self {
            RowVerdict::Agree => ("✓ agree", theme::ok()),
            RowVerdict::SchemaDiffers => ("≠ schema", theme::warning()),
            RowVerdict::ClawdeckOnly => (
                "✗ clawdeck-only",
                theme::error().add_modifier(Modifier::BOLD),
            ),
            RowVerdict::OpenclawOnly => (
                "✗ openclaw-only",
                theme::error().add_modifier(Modifier::BOLD),
            ),
            RowVerdict::NotCompared => ("· own tool", theme::dim()),
            RowVerdict::Surface => ("~ surface", theme::dim()),
        }
    }
}

impl SessionCompare {
    pub(crate) fn check(&self) -> Option<&SessionCheck> {
        match &self.state {
            CompareState::Ready(check) => Some(check),
            _ => None,
        }
    }

    fn verdict(&self, tool: &str) -> Option<&ToolVerdict> {
        self.check()?
            .comparison
            .verdicts
            .iter()
            .find(|v| v.tool == tool)
    }

    /// The row's verdict; None until the gateway answered.
    pub(crate) fn row_verdict(&self, tool: &ToolTrace) -> Option<RowVerdict> {
        self.check()?;
        if tool.clawdeck_own {
            return Some(RowVerdict::NotCompared);
        }
        Some(match self.verdict(&tool.name) {
            None => RowVerdict::Agree,
            Some(v) if v.agreement != Agreement::Agree && v.surface_note.is_some() => {
                RowVerdict::Surface
            }
            Some(v) => match v.agreement {
                Agreement::ClawdeckOnly => RowVerdict::ClawdeckOnly,
                Agreement::OpenclawOnly => RowVerdict::OpenclawOnly,
                Agreement::Agree if v.has_schema_difference() => RowVerdict::SchemaDiffers,
                Agreement::Agree => RowVerdict::Agree,
            },
        })
    }

    /// The line above the table: which gateway and session, the context compared, the result.
    pub(crate) fn status_line(&self, known: &dyn Fn(&str) -> bool) -> Line<'static> {
        let who = format!("gateway {} · session {}", self.gateway, self.session_key);
        match &self.state {
            CompareState::Asking => Line::from(vec![
                Span::styled("… ", theme::accent()),
                Span::raw(format!("{who}: asking tools.effective")),
            ]),
            CompareState::Failed(error) => Line::from(vec![
                Span::styled("✗ ", theme::error()),
                Span::raw(format!("{who}: ")),
                Span::styled(error.clone(), theme::error()),
            ]),
            CompareState::Ready(check) => {
                let c = &check.comparison;
                let (mark, style) = if c.policy_disagreements() == 0 {
                    ("✓ ", theme::ok())
                } else {
                    ("✗ ", theme::error())
                };
                // The result first: a narrow terminal cuts the end of the line.
                let mut spans = vec![Span::styled(mark, style), Span::styled(c.summary(), style)];
                // Tools the table has no row for (clawdeck's catalog lacks them).
                let unknown = |explained: bool| -> Vec<&ToolVerdict> {
                    c.verdicts
                        .iter()
                        .filter(|v| v.agreement == Agreement::OpenclawOnly && !known(&v.tool))
                        .filter(|v| v.surface_note.is_some() == explained)
                        .collect()
                };
                // A tool the version has that this config does not bring is no catalog gap.
                let (unbuilt, uncatalogued): (Vec<_>, Vec<_>) =
                    unknown(false).into_iter().partition(|v| v.is_not_built());
                let (unbuilt, uncatalogued, explained) = (
                    tool_names(&unbuilt),
                    tool_names(&uncatalogued),
                    tool_names(&unknown(true)),
                );
                for (tools, what) in [
                    (uncatalogued, "not in clawdeck's catalog"),
                    (unbuilt, NOT_BUILT),
                ] {
                    if !tools.is_empty() {
                        spans.push(Span::styled(
                            format!(" · ✗ openclaw-only, {what}: {}", tools.join(", ")),
                            theme::error(),
                        ));
                    }
                }
                if !explained.is_empty() {
                    spans.push(Span::styled(
                        format!(
                            " · ~ only tools.effective lists (surface): {}",
                            explained.join(", ")
                        ),
                        theme::dim(),
                    ));
                }
                spans.push(Span::raw(format!(
                    " · {who} · compared as {}",
                    check.context_label
                )));
                Line::from(spans)
            }
        }
    }

    /// The detail pane's first lines for the selected tool: the verdict, clawdeck's deciding
    /// rule beside what the gateway says.
    pub(crate) fn detail_lines(&self, tool: &ToolTrace) -> Vec<Line<'static>> {
        let Some(verdict) = self.row_verdict(tool) else {
            return Vec::new();
        };
        let (cell, style) = verdict.cell();
        let compared = self
            .check()
            .map(|c| format!(" · compared as {}", c.context_label))
            .unwrap_or_default();
        let head = Line::from(vec![
            Span::styled(format!("{cell} "), style),
            Span::styled(
                format!(
                    "gateway {} · session {}{compared}",
                    self.gateway, self.session_key
                ),
                theme::dim(),
            ),
        ]);
        let listed = self.verdict(&tool.name).and_then(|v| {
            (v.agreement != Agreement::ClawdeckOnly).then(|| v.openclaw_owner.clone())
        });
        let note = self
            .verdict(&tool.name)
            .and_then(|v| v.surface_note.clone());
        let gateway_says = match (verdict, listed) {
            (RowVerdict::NotCompared, _) => {
                "clawdeck's own tool: OpenClaw never has it".to_string()
            }
            (RowVerdict::Surface, _) => note.unwrap_or_default(),
            (_, Some(owner)) => format!(
                "tools.effective lists it{}",
                owner.map(|o| format!(" ({o})")).unwrap_or_default()
            ),
            (RowVerdict::Agree, None) if !tool.visible => {
                "tools.effective does not list it either".to_string()
            }
            _ => "tools.effective does not list it".to_string(),
        };
        let rule = self
            .verdict(&tool.name)
            .and_then(|v| v.clawdeck_rule.clone())
            .unwrap_or_else(|| crate::comparison::compare::deciding_rule(Some(tool)));
        let mut lines = vec![
            head,
            Line::from(vec![
                Span::styled("  clawdeck: ", theme::bold()),
                Span::raw(rule),
            ]),
            Line::from(vec![
                Span::styled("  gateway:  ", theme::bold()),
                Span::raw(gateway_says),
            ]),
        ];
        if let Some(v) = self.verdict(&tool.name) {
            for diff in &v.schema {
                lines.push(Line::styled(
                    format!("  schema differs at {}", diff.pointer),
                    theme::warning(),
                ));
            }
        }
        lines
    }
}

/// The verdicts' tool names, in order.
fn tool_names<'a>(verdicts: &[&'a ToolVerdict]) -> Vec<&'a str> {
    verdicts.iter().map(|v| v.tool.as_str()).collect()
}
