//! Who started an exec call's turn, which decides whether a question can be answered.

use serde::Serialize;

/// Who started the turn: an operator's client that can answer approvals (a `chat.send` turn
/// with the Control UI, an app or a clawdeck approver attached), nobody who can (a headless
/// `openclaw agent` run through the gateway, cron, the HTTP API), or an embedded `openclaw
/// agent --local` run, which has no gateway to register a question with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Surface {
    Interactive,
    Headless,
    /// An automation's (cron job's) agent turn: headless, but a question never goes to a chat
    /// channel, and allow-always mints a standing grant for the job.
    Cron,
    Local,
}

impl Surface {
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Interactive => "interactive",
            Surface::Headless => "headless",
            Surface::Cron => "cron",
            Surface::Local => "local",
        }
    }
}
