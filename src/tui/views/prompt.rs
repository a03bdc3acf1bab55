//! Prompt view (issue 6 §6): the system prompt and the provider's `tools` payload for the
//! current context, exactly as `crate::prompt::build_llm_view` assembles them, so the operator
//! sees what the model sees. `p` cycles the request format, `m` the prompt mode.

use crossterm::event::{MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::ViewCtx;
use crate::prompt::PromptMode;
use crate::prompt::view::{LlmView, LlmViewOptions};
use crate::provider::ProviderApi;
use crate::tui::event::AppEvent;
use crate::tui::keymap::Action;
use crate::tui::theme;

#[derive(Debug, Default)]
pub struct PromptView {
    pub options: LlmViewOptions,
    /// The rendered text (prompt, then payload), one entry per line.
    pub lines: Vec<Line<'static>>,
    pub error: Option<String>,
    pub scroll: usize,
    height: usize,
    area: Rect,
}

impl PromptView {
    pub fn set_view(&mut self, view: &LlmView) {
        let mut lines = Vec::new();
        lines.push(Line::styled(
            format!(
                "System prompt · mode {} · {} chars · {}{}",
                view.mode.id(),
                view.prompt.chars().count(),
                crate::tui::widgets::count(view.sections.len(), "section", "sections"),
                if view.router_guidance {
                    " · clawbot_router guidance included"
                } else {
                    ""
                }
            ),
            theme::bold(),
        ));
        lines.push(Line::raw(""));
        lines.extend(view.prompt.lines().map(|l| Line::raw(l.to_string())));
        lines.push(Line::raw(""));
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
        lines.extend(payload.lines().map(|l| Line::raw(l.to_string())));
        self.lines = lines;
        self.error = None;
        self.scroll = self.scroll.min(self.lines.len().saturating_sub(1));
    }

    fn max_scroll(&self) -> usize {
        self.lines.len().saturating_sub(self.height.max(1))
    }

    pub fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        let page = self.height.saturating_sub(1).max(1);
        if let Some(to) = super::list::moved(self.scroll, action, self.max_scroll() + 1, page) {
            self.scroll = to;
            return true;
        }
        match action {
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

    pub fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        match mouse.kind {
            MouseEventKind::ScrollUp => self.scroll = self.scroll.saturating_sub(3),
            MouseEventKind::ScrollDown => self.scroll = (self.scroll + 3).min(self.max_scroll()),
            _ => return false,
        }
        true
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
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
        let block = Block::bordered().title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        self.height = inner.height as usize;
        if let Some(err) = &self.error {
            buf.set_string(inner.x, inner.y, format!("✗ {err}"), theme::error());
            return;
        }
        self.scroll = self.scroll.min(self.max_scroll());
        let visible: Vec<Line> = self
            .lines
            .iter()
            .skip(self.scroll)
            .take(inner.height as usize)
            .cloned()
            .collect();
        Paragraph::new(visible).render(inner, buf);
    }
}
