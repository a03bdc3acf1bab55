//! The App's side of the Decisions view: it reads the decision log (the view does no I/O),
//! the last records when it starts following, then what was appended at each refresh.

use std::path::Path;

use super::app::App;
use super::views::decisions::{DecisionsView, KEPT};
use crate::decision_log::LogFollower;

impl App {
    /// Shows the decision log in `dir` in the Decisions view and follows it.
    pub(crate) fn follow_decisions(&mut self, dir: &Path) {
        let (backlog, follower) = LogFollower::last(dir, KEPT);
        self.decisions = DecisionsView::reading(&dir.display().to_string());
        self.decisions.push(backlog);
        self.decision_feed = Some(follower);
    }

    /// Reads what was appended since the last refresh; true when the view changed.
    pub(crate) fn refresh_decisions(&mut self) -> bool {
        match self.decision_feed.as_mut() {
            Some(feed) => {
                let entries = feed.poll();
                self.decisions.push(entries)
            }
            None => false,
        }
    }
}
