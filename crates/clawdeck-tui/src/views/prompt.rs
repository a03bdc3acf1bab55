//! Prompt view (issue 6 §6): the system prompt and the provider's `tools` payload for the
//! current context, exactly as `crate::prompt::build_llm_view` assembles them, so the operator
//! sees what the model sees. `p` cycles the request format, `m` the prompt mode. Long lines wrap
//! (`w` toggles; off, they scroll sideways), `/` searches (`n`/`N` for the next and previous
//! hit, with a count), and `]`/`[` jump between sections (`## ` headings, the tools payload).

use crossterm::event::{KeyEvent, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use super::ViewCtx;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::prompt::PromptMode;
use crate::prompt::view::{LlmView, LlmViewOptions};
use crate::provider::ProviderApi;
use crate::theme;
use crate::widgets::line_input::{InputOutcome, LineInput};
use crate::widgets::text_pane::TextPane;

#[derive(Debug, Default)]
pub(crate) struct PromptView {
    pub(crate) options: LlmViewOptions,
    /// The text (prompt, then payload): wrapped or scrolled, searchable, with sections.
    pub(crate) pane: TextPane,
    pub(crate) error: Option<String>,
    /// The `/` search being typed.
    pub(crate) search_input: Option<LineInput>,
    area: Rect,
}

/// Whether a line starts a section jumps stop at: a Markdown `## ` heading of the prompt.
fn is_section_heading(line: &str) -> bool {
    line.starts_with("## ")
}

/// How many of the largest sections the view lists above the prompt.
const LARGEST_SECTIONS: usize = 6;

/// Where the context window goes: the largest sections with their share, estimated tokens and
/// source (`prompt --sections` lists every one).
fn window_lines(view: &LlmView) -> Vec<Line<'static>> {
    let sizes = crate::prompt::report::section_sizes(view);
    let total = view.prompt.chars().count().max(1);
    let mut lines = vec![Line::styled(
        format!(
            "Where the context window goes · about {} tokens · largest first",
            total.div_ceil(4)
        ),
        theme::dim(),
    )];
    for size in sizes.iter().take(LARGEST_SECTIONS) {
        let share = size.chars as f64 * 100.0 / total as f64;
        // Titles are workspace paths and headings the prompt's sources wrote.
        let title = crate::sanitize::plain(&size.title);
        lines.push(Line::raw(format!(
            "{share:>5.1}%  {:>6} tok  {title} · {}",
            size.tokens, size.source
        )));
    }
    if sizes.len() > LARGEST_SECTIONS {
        lines.push(Line::styled(
            format!(
                "  … {} more sections (clawdeck prompt --sections lists them)",
                sizes.len() - LARGEST_SECTIONS
            ),
            theme::dim(),
        ));
    }
    lines
}

/// The user message of a scheduled job's turn, for a release whose template writes it; `None`
/// for any other turn.
fn user_message(view: &LlmView, now: std::time::SystemTime) -> Option<String> {
    use crate::prompt::job_message::{ScheduledJob, job_user_message_at};
    let ctx = &view.resolution.context;
    ctx.is_scheduled().then_some(())?;
    let job = ScheduledJob::placeholder(ctx.session_key.as_deref());
    job_user_message_at(view, ctx, &job, now).ok()
}

impl PromptView {
    /// Shows `view`; a scheduled job's turn also gets its user message as it would run at
    /// `now` (the job a placeholder: `clawdeck prompt --user-message --job-…` names one).
    pub(crate) fn set_view(&mut self, view: &LlmView, now: std::time::SystemTime) {
        let mut lines = Vec::new();
        lines.push(Line::styled(
            format!(
                "System prompt · mode {} · {} chars · {}{}",
                view.mode.id(),
                view.prompt.chars().count(),
                crate::widgets::count(view.sections.len(), "section", "sections"),
                if view.router_guidance {
                    " · clawbot_router guidance included"
                } else {
                    ""
                }
            ),
            theme::bold(),
        ));
        lines.extend(window_lines(view));
        lines.push(Line::raw(""));
        let mut sections = vec![0];
        // Skill and plugin text can carry control sequences: only visible text is drawn.
        let prompt = crate::sanitize::plain(&view.prompt).replace('\t', "    ");
        for l in prompt.lines() {
            if is_section_heading(l) {
                sections.push(lines.len());
                lines.push(Line::styled(l.to_string(), theme::bold()));
            } else {
                lines.push(Line::raw(l.to_string()));
            }
        }
        lines.push(Line::raw(""));
        if let Some(message) = user_message(view, now) {
            sections.push(lines.len());
            lines.push(Line::styled(
                format!(
                    "user message · the scheduled job's turn · {} chars",
                    message.chars().count()
                ),
                theme::bold(),
            ));
            // The job's message and destination are the operator's text: visible text only.
            let message = crate::sanitize::plain(&message).replace('\t', "    ");
            lines.extend(message.lines().map(|l| Line::raw(l.to_string())));
            lines.push(Line::raw(""));
        }
        sections.push(lines.len());
        lines.push(Line::styled(
            format!(
                "tools payload · {} ({}) · {} tools",
                view.api.id(),
                view.api_source,
                view.export.tools.len()
            ),
            theme::bold(),
        ));
        for w in &view.export.warnings {
            lines.push(Line::styled(format!("⚠ dropped {w}"), theme::warning()));
        }
        let payload = serde_json::to_string_pretty(&view.export.payload).unwrap_or_default();
        lines.push(Line::raw(""));
        let payload = crate::sanitize::plain(&payload);
        lines.extend(payload.lines().map(|l| Line::raw(l.to_string())));
        self.pane.set_lines(lines, sections);
        self.error = None;
    }

    /// The text's lines (tests read them).
    #[cfg(test)]
    pub fn lines(&self) -> &[Line<'static>] {
        self.pane.lines()
    }

    /// Keys for the `/` search input while it is open; true when consumed.
    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent) -> bool {
        let Some(input) = self.search_input.as_mut() else {
            return false;
        };
        match input.handle_key(key) {
            InputOutcome::Submitted => {
                let query = input.text.clone();
                self.search_input = None;
                self.pane.search(&query);
            }
            InputOutcome::Cancelled => self.search_input = None,
            InputOutcome::Edited | InputOutcome::Ignored => {}
        }
        true
    }

    pub(crate) fn paste(&mut self, text: &str) -> bool {
        match self.search_input.as_mut() {
            Some(input) => {
                input.insert_str(text);
                true
            }
            None => false,
        }
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        if self.pane.scroll(action).is_some() {
            return true;
        }
        match action {
            // The prompt is the view's one pane: the lower-pane keys scroll it too.
            Action::DetailUp | Action::DetailDown => {
                let half = (self.pane.height() / 2).max(1);
                self.pane.scroll_rows(action == Action::DetailUp, half);
            }
            Action::Search => self.search_input = Some(LineInput::default()),
            Action::SearchNext | Action::SearchPrev => {
                if !self.pane.next_hit(action == Action::SearchNext) {
                    ctx.status(match self.pane.search_label() {
                        Some(label) => label,
                        None => format!(
                            "no search yet: {} searches the prompt",
                            ctx.keymap.key_label(Action::Search)
                        ),
                    });
                }
            }
            Action::NextSection | Action::PrevSection => {
                if !self.pane.jump_section(action == Action::NextSection) {
                    ctx.status(if action == Action::NextSection {
                        "no section after this one"
                    } else {
                        "no section before this one"
                    });
                }
            }
            Action::ToggleWrap => {
                let on = self.pane.toggle_wrap();
                ctx.status(if on {
                    "long lines wrap".to_string()
                } else {
                    format!(
                        "long lines scroll sideways ({} / {})",
                        ctx.keymap.key_label(Action::ScrollLeft),
                        ctx.keymap.key_label(Action::ScrollRight)
                    )
                });
            }
            Action::ScrollLeft | Action::ScrollRight => {
                self.pane.scroll_sideways(action == Action::ScrollRight, 8);
            }
            Action::CycleProvider => {
                // auto (the context's provider) → each API → auto
                self.options.api = match self.options.api {
                    None => Some(ProviderApi::ALL[0]),
                    Some(api) => {
                        let i = ProviderApi::ALL.iter().position(|a| *a == api).unwrap_or(0);
                        ProviderApi::ALL.get(i + 1).copied()
                    }
                };
                ctx.send(AppEvent::RefreshPrompt);
            }
            Action::CyclePromptMode => {
                self.options.mode = match self.options.mode {
                    PromptMode::Full => PromptMode::Minimal,
                    PromptMode::Minimal => PromptMode::None,
                    PromptMode::None => PromptMode::Full,
                };
                ctx.send(AppEvent::RefreshPrompt);
            }
            _ => return false,
        }
        true
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        match mouse.kind {
            MouseEventKind::ScrollUp => self.pane.scroll_rows(true, 3),
            MouseEventKind::ScrollDown => self.pane.scroll_rows(false, 3),
            _ => return false,
        }
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        self.area = area;
        let api = self
            .options
            .api
            .map(|a| a.id())
            .unwrap_or("auto (the context's provider)");
        let title = Line::from(vec![
            Span::raw(" What the model sees · format "),
            Span::styled(api, theme::accent()),
            Span::raw(format!(
                " ({}) · mode ",
                ctx.keymap.key_label(Action::CycleProvider)
            )),
            Span::styled(self.options.mode.id(), theme::accent()),
            Span::raw(format!(
                " ({}) ",
                ctx.keymap.key_label(Action::CyclePromptMode)
            )),
        ]);
        let text_area = Block::bordered().inner(area);
        let text_area = match &self.search_input {
            Some(_) if text_area.height > 1 => Rect {
                height: text_area.height - 1,
                ..text_area
            },
            _ => text_area,
        };
        self.pane.layout(text_area);
        let mut bottom = Vec::new();
        if let Some(position) = self.pane.position_label().filter(|_| self.error.is_none()) {
            bottom.push(Span::raw(format!(" {position} ")));
        }
        if !self.pane.wrap {
            bottom.push(Span::styled("· wrap off ", theme::dim()));
        }
        if let Some(label) = self.pane.search_label() {
            bottom.push(Span::styled(format!("· {label} "), theme::accent()));
        }
        let block = Block::bordered()
            .title(title)
            .title_bottom(Line::from(bottom));
        let inner = block.inner(area);
        block.render(area, buf);
        if let Some(err) = &self.error {
            buf.set_string(inner.x, inner.y, format!("✗ {err}"), theme::error());
            return;
        }
        let (text_area, input_area) = match &self.search_input {
            Some(_) if inner.height > 1 => (
                Rect {
                    height: inner.height - 1,
                    ..inner
                },
                Some(Rect {
                    y: inner.bottom() - 1,
                    height: 1,
                    ..inner
                }),
            ),
            _ => (inner, None),
        };
        self.pane.render(text_area, buf);
        if let (Some(input), Some(at)) = (&self.search_input, input_area) {
            input.render("search: ", at, buf, true);
        }
    }
}
