//! The console's views. Each holds its own state, draws itself, and turns actions into intents
//! (`AppEvent`s) sent through the context; none of them does I/O.

pub mod invoke;
pub mod policy;
pub mod prompt;
pub mod queue;
pub mod router;

use crate::tui::clock::Clock;
use crate::tui::event::{AppEvent, AppEventSender};
use crate::tui::keymap::Keymap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ViewId {
    Policy,
    Queue,
    Router,
    Invoke,
    Prompt,
}

impl ViewId {
    pub const ALL: [ViewId; 5] = [
        ViewId::Policy,
        ViewId::Queue,
        ViewId::Router,
        ViewId::Invoke,
        ViewId::Prompt,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ViewId::Policy => "Policy",
            ViewId::Queue => "Queue",
            ViewId::Router => "Router",
            ViewId::Invoke => "Invoke",
            ViewId::Prompt => "Prompt",
        }
    }

    pub fn index(self) -> usize {
        ViewId::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }

    pub fn next(self) -> ViewId {
        ViewId::ALL[(self.index() + 1) % ViewId::ALL.len()]
    }

    pub fn prev(self) -> ViewId {
        ViewId::ALL[(self.index() + ViewId::ALL.len() - 1) % ViewId::ALL.len()]
    }
}

/// What views may use while handling input or drawing.
pub struct ViewCtx<'a> {
    pub tx: &'a AppEventSender,
    pub clock: &'a dyn Clock,
    pub keymap: &'a Keymap,
}

impl ViewCtx<'_> {
    pub fn send(&self, event: AppEvent) {
        self.tx.send(event);
    }

    pub fn status(&self, text: impl Into<String>) {
        self.tx.send(AppEvent::Status(text.into()));
    }
}
