//! The console's views. Each holds its own state, draws itself, and turns actions into intents
//! (`AppEvent`s) sent through the context; none of them does I/O.

pub(crate) mod approvals;
pub(crate) mod approvals_ledger;
pub(crate) mod background_execs;
pub(crate) mod decisions;
pub(crate) mod diff;
pub(crate) mod gateway_runs;
pub(crate) mod gateways;
pub(crate) mod invoke;
pub(crate) mod lint;

pub(crate) mod policy;
pub(crate) mod policy_exec;
pub(crate) mod policy_verdicts;
pub(crate) mod prompt;
pub(crate) mod queue;
pub(crate) mod router;
pub(crate) mod sessions;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::clock::Clock;
use crate::event::{AppEvent, AppEventSender};
use crate::keymap::{Action, Keymap};

pub(crate) use crate::view_id::ViewId;

/// What views may use while handling input or drawing.
pub(crate) struct ViewCtx<'a> {
    pub(crate) tx: &'a AppEventSender,
    pub(crate) clock: &'a dyn Clock,
    pub(crate) keymap: &'a Keymap,
}

impl ViewCtx<'_> {
    pub(crate) fn send(&self, event: AppEvent) {
        self.tx.send(event);
    }

    pub fn status(&self, text: impl Into<String>) {
        self.tx.send(AppEvent::Status(text.into()));
    }
}

/// What every view does for the App: draw itself, take keys its text inputs own, run keymap
/// actions, take the mouse and pastes, and name its footer hints. The App routes input to the
/// active view through this trait only.
pub(crate) trait View {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx);
    /// Keys an open text input of the view takes before the keymap; true when consumed.
    fn input_key(&mut self, _key: &KeyEvent, _ctx: &ViewCtx) -> bool {
        false
    }
    /// A keymap action; true when it applied here.
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool;
    fn mouse(&mut self, _mouse: &MouseEvent) -> bool {
        false
    }
    /// Pasted text for an open input; true when taken.
    fn paste(&mut self, _text: &str) -> bool {
        false
    }
    /// A paste with the context (status messages, the clock); by default `paste`.
    fn paste_in(&mut self, text: &str, _ctx: &ViewCtx) -> bool {
        self.paste(text)
    }
    /// Footer hints (key, label): from the keymap table, so hints, help and keys agree.
    fn hints(&self, keymap: &Keymap, id: ViewId) -> Vec<(String, &'static str)> {
        keymap.footer(id)
    }
}

impl View for policy::PolicyView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        policy::PolicyView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        self.handle_input_key(key, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
    fn paste(&mut self, text: &str) -> bool {
        policy::PolicyView::paste(self, text)
    }
}

impl View for queue::QueueView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        queue::QueueView::render(self, area, buf, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for router::RouterView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        router::RouterView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        self.handle_input_key(key, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
    fn paste(&mut self, text: &str) -> bool {
        router::RouterView::paste(self, text)
    }
}

impl View for invoke::InvokeView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        invoke::InvokeView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        self.handle_input_key(key, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
    fn paste_in(&mut self, text: &str, ctx: &ViewCtx) -> bool {
        invoke::InvokeView::paste(self, text, ctx)
    }
}

impl View for prompt::PromptView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        prompt::PromptView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, _ctx: &ViewCtx) -> bool {
        self.handle_input_key(key)
    }
    fn paste(&mut self, text: &str) -> bool {
        prompt::PromptView::paste(self, text)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for decisions::DecisionsView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        decisions::DecisionsView::render(self, area, buf, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for sessions::SessionsView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        sessions::SessionsView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        self.handle_input_key(key, ctx)
    }
    fn paste_in(&mut self, text: &str, _ctx: &ViewCtx) -> bool {
        self.paste_message(text)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for approvals::ApprovalsView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        approvals::ApprovalsView::render(self, area, buf, ctx)
    }
    fn hints(&self, keymap: &Keymap, id: ViewId) -> Vec<(String, &'static str)> {
        keymap.footer_where(id, |action| self.offers(action))
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for lint::LintView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        lint::LintView::render(self, area, buf, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for diff::DiffView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        diff::DiffView::render(self, area, buf, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
    fn mouse(&mut self, mouse: &MouseEvent) -> bool {
        self.handle_mouse(mouse)
    }
}

impl View for gateways::GatewaysView {
    fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        gateways::GatewaysView::render(self, area, buf, ctx)
    }
    fn input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        self.handle_input_key(key, ctx)
    }
    fn action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        self.handle_action(action, ctx)
    }
}
