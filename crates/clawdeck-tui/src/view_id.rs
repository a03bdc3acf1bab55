//! Which view is meant: the tabs in order, with their titles. Kept apart from the views so the
//! event and key tables can name a view without depending on the views themselves.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ViewId {
    Policy,
    Queue,
    Router,
    Invoke,
    Prompt,
    Decisions,
    Sessions,
    Approvals,
    Lint,
    Diff,
    Gateways,
}

impl ViewId {
    pub(crate) const ALL: [ViewId; 11] = [
        ViewId::Policy,
        ViewId::Queue,
        ViewId::Router,
        ViewId::Invoke,
        ViewId::Prompt,
        ViewId::Decisions,
        ViewId::Sessions,
        ViewId::Approvals,
        ViewId::Lint,
        ViewId::Diff,
        ViewId::Gateways,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ViewId::Policy => "Policy",
            ViewId::Queue => "Queue",
            ViewId::Router => "Router",
            ViewId::Invoke => "Invoke",
            ViewId::Prompt => "Prompt",
            ViewId::Decisions => "Decisions",
            ViewId::Sessions => "Sessions",
            ViewId::Approvals => "Approvals",
            ViewId::Lint => "Lint",
            ViewId::Diff => "Diff",
            ViewId::Gateways => "Gateways",
        }
    }

    pub(crate) fn index(self) -> usize {
        ViewId::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }

    pub(crate) fn next(self) -> ViewId {
        ViewId::ALL[(self.index() + 1) % ViewId::ALL.len()]
    }

    pub(crate) fn prev(self) -> ViewId {
        ViewId::ALL[(self.index() + ViewId::ALL.len() - 1) % ViewId::ALL.len()]
    }
}
