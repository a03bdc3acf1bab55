//! The Policy view's "will this command run?": the command line the operator typed (`!`) and
//! exec's verdict for it (the core's `exec_verdict::explain_locally`, never recomputed here),
//! shown under exec's layers in the detail pane, for an interactive and a headless turn.

use ratatui::text::{Line, Span};

use crate::exec_verdict::{ExecVerdict, LocalVerdicts, Verdict};
use crate::sanitize::visible;
use crate::theme;

/// The command being judged and where the answer stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExecCheck {
    pub(crate) command: String,
    pub(crate) state: ExecCheckState,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExecCheckState {
    Asking,
    Ready(Box<LocalVerdicts>),
    Failed(String),
}

impl ExecCheck {
    pub(crate) fn asking(command: String) -> ExecCheck {
        ExecCheck {
            command,
            state: ExecCheckState::Asking,
        }
    }

    /// The job's answer.
    pub(crate) fn settle(&mut self, result: Result<Box<LocalVerdicts>, String>) {
        self.state = match result {
            Ok(verdicts) => ExecCheckState::Ready(verdicts),
            Err(e) => ExecCheckState::Failed(e),
        };
    }

    /// One line: what OpenClaw's exec would do with the command on an interactive and a
    /// headless turn (the Invoke view's editor shows it before an exec runs).
    pub(crate) fn summary_line(&self) -> Line<'static> {
        let mut spans = vec![Span::styled(" OpenClaw's exec: ", theme::dim())];
        match &self.state {
            ExecCheckState::Asking => spans.push(Span::styled("judging… ", theme::dim())),
            ExecCheckState::Failed(e) => spans.push(Span::styled(
                format!("✗ {} ", visible(e).text),
                theme::error(),
            )),
            ExecCheckState::Ready(v) => {
                for (label, verdict) in [("", &v.interactive), ("headless ", &v.headless)] {
                    let (word, style) = verdict_cell(verdict.verdict);
                    spans.push(Span::raw(label));
                    spans.push(Span::styled(word, style));
                    spans.push(Span::styled(format!(" at {} ", verdict.step), theme::dim()));
                }
            }
        }
        Line::from(spans)
    }

    /// Whose config and approvals document the verdict is from.
    pub(crate) fn judged_by(&self) -> String {
        match &self.state {
            ExecCheckState::Ready(v) => match &v.config_from {
                Some(url) => format!(
                    "  (as gateway {}'s own config and approvals document see it)",
                    visible(url).text
                ),
                None => "  (as this machine's config and OpenClaw state see it)".to_string(),
            },
            _ => String::new(),
        }
    }

    /// The lines under exec's layers.
    pub(crate) fn detail_lines(&self) -> Vec<Line<'static>> {
        let shown = visible(&self.command);
        let mut head = vec![
            Span::styled("Will ", theme::bold()),
            Span::raw(format!("`{}`", shown.text)),
            Span::styled(" run?", theme::bold()),
        ];
        if shown.hidden_chars {
            head.push(Span::styled(" (hidden characters shown)", theme::warning()));
        }
        let mut lines = vec![Line::raw(""), Line::from(head)];
        match &self.state {
            ExecCheckState::Asking => lines.push(Line::styled("  judging…", theme::dim())),
            ExecCheckState::Failed(e) => lines.push(Line::styled(
                format!("  ✗ {}", visible(e).text),
                theme::error(),
            )),
            ExecCheckState::Ready(v) => lines.extend(verdict_lines(v)),
        }
        lines
    }
}

/// The word and style of a verdict; the word carries the meaning without colour.
fn verdict_cell(verdict: Verdict) -> (&'static str, ratatui::style::Style) {
    match verdict {
        Verdict::Runs => ("✓ runs", theme::ok()),
        Verdict::Asks => ("? asks", theme::warning()),
        Verdict::Denied => ("✗ DENIED", theme::error()),
        Verdict::Hidden => ("✗ hidden", theme::error()),
    }
}

fn surface_line(label: &str, v: &ExecVerdict) -> Line<'static> {
    let (word, style) = verdict_cell(v.verdict);
    let key = v
        .key
        .as_deref()
        .map(|k| format!(" ({})", visible(k).text))
        .unwrap_or_default();
    Line::from(vec![
        Span::raw(format!("  {label:<12}")),
        Span::styled(word, style),
        Span::styled(format!(" at {}{key}", v.step), theme::dim()),
    ])
}

fn verdict_lines(v: &LocalVerdicts) -> Vec<Line<'static>> {
    let turn = &v.interactive;
    let mut lines = vec![
        surface_line("interactive", turn),
        surface_line("headless", &v.headless),
        Line::from(vec![
            Span::styled("  why: ", theme::dim()),
            Span::raw(visible(&turn.reason).text),
        ]),
    ];
    for fix in [&turn.fix, &v.headless.fix].into_iter().flatten() {
        lines.push(Line::from(vec![
            Span::styled("  fix: ", theme::dim()),
            Span::raw(visible(fix).text),
        ]));
        if turn.fix == v.headless.fix {
            break;
        }
    }
    if let Some(offer) = &turn.allow_always {
        let allow_always = match (&offer.why_not, offer.stores.is_empty()) {
            (Some(why), _) => format!("no allow-always: {why}"),
            (None, false) => format!("allow-always stores {}", offer.stores.join(", ")),
            (None, true) => String::new(),
        };
        lines.push(Line::from(vec![
            Span::styled("  offers: ", theme::dim()),
            Span::raw(format!(
                "{} · {}",
                offer.decisions.join(", "),
                visible(&allow_always).text
            )),
        ]));
    }
    lines.push(Line::styled(
        format!(
            "  host {} · security {} · ask {} · askFallback {} · elevated {} · approvals: {}",
            turn.host,
            turn.security.as_str(),
            turn.ask.as_str(),
            turn.ask_fallback.as_str(),
            turn.elevated.level.as_str(),
            v.approvals
                .as_deref()
                .map(|a| visible(a).text)
                .unwrap_or_else(|| "none stored".to_string())
        ),
        theme::dim(),
    ));
    for segment in &turn.segments {
        let (word, style) = verdict_cell(segment.verdict);
        lines.push(Line::from(vec![
            Span::raw(format!("  segment `{}` ", visible(&segment.text).text)),
            Span::styled(word, style),
            Span::styled(format!(" ({})", segment.step), theme::dim()),
        ]));
    }
    lines
}
