//! What one router run is asked to do.

use serde::{Deserialize, Serialize};

/// What the remote agent may do (seed 000 §5 `mode`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Look and analyse only (default).
    #[default]
    #[serde(rename = "read-only")]
    ReadOnly,
    /// Also act on the remote world (send an alert message, ...).
    #[serde(rename = "write")]
    Write,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::ReadOnly => "read-only",
            Mode::Write => "write",
        }
    }

    /// Parses `read-only` / `readonly` / `read_only` / `write` (case-insensitive).
    pub fn parse(text: &str) -> Option<Mode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "read-only" | "readonly" | "read_only" => Some(Mode::ReadOnly),
            "write" => Some(Mode::Write),
            _ => None,
        }
    }

    /// The first line of the message the remote agent receives, so that it knows the mode.
    /// The remote side has no `mode` flag, so the message itself carries it.
    pub(crate) fn message_prefix(self) -> &'static str {
        match self {
            Mode::ReadOnly => {
                "[clawbot_router mode=read-only] 只读模式：只做查询和分析，不要对远端环境执行任何写操作（不发送消息、不修改数据）。"
            }
            Mode::Write => {
                "[clawbot_router mode=write] 允许对远端环境执行写操作（如发送告警消息），请只做任务需要的操作。"
            }
        }
    }
}

/// How the run reaches OpenClaw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TransportKind {
    /// `openclaw agent ...` as a child process (V0).
    #[default]
    Cli,
    /// The gateway's OpenAI-compatible `POST /v1/chat/completions` with SSE (V1).
    Http,
    /// The gateway's WebSocket `agent` method, with the remote agent's live tool events.
    Gateway,
}

impl TransportKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TransportKind::Cli => "cli",
            TransportKind::Http => "http",
            TransportKind::Gateway => "gateway",
        }
    }

    pub fn parse(text: &str) -> Option<TransportKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "cli" => Some(TransportKind::Cli),
            "http" => Some(TransportKind::Http),
            "gateway" => Some(TransportKind::Gateway),
            _ => None,
        }
    }
}

/// Whether details carry the cleaned view of the output (seed 000 §5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputMode {
    #[default]
    Raw,
    Clean,
}

impl OutputMode {
    pub fn parse(text: &str) -> Option<OutputMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "raw" => Some(OutputMode::Raw),
            "clean" => Some(OutputMode::Clean),
            _ => None,
        }
    }
}

/// One task for the remote clawBot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouterRequest {
    /// The task in natural language (required, non-blank).
    pub message: String,
    /// Remote agent id; none → the default phone (`--to`) or the default agent.
    pub agent: Option<String>,
    /// Requested timeout; bounded by the configured minimum and maximum.
    pub timeout_seconds: Option<u64>,
    /// The mode the caller gave; none → the message goes to OpenClaw verbatim (seed 000 §3.3)
    /// and the run is reported as read-only.
    pub mode: Option<Mode>,
    /// Overrides `router.transport` for this run.
    pub transport: Option<TransportKind>,
    /// `timeout_seconds` comes from the operator (`route --timeout`), not the LLM: the
    /// configured bounds do not apply, only the operator ceiling.
    #[serde(skip)]
    pub operator_timeout: bool,
}

impl RouterRequest {
    pub fn new(message: impl Into<String>) -> Self {
        RouterRequest {
            message: message.into(),
            ..RouterRequest::default()
        }
    }

    pub fn with_agent(mut self, agent: impl Into<String>) -> Self {
        self.agent = Some(agent.into());
        self
    }

    /// The agent, trimmed, when one is named.
    pub(crate) fn agent_name(&self) -> Option<&str> {
        self.agent
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
    }

    /// The text the remote agent receives: the task verbatim, after a mode line only when the
    /// caller gave a mode.
    pub(crate) fn remote_message(&self) -> String {
        match self.mode {
            Some(mode) => format!("{}\n\n{}", mode.message_prefix(), self.message),
            None => self.message.clone(),
        }
    }

    /// The mode the run is reported with (read-only when none was given).
    pub(crate) fn reported_mode(&self) -> Mode {
        self.mode.unwrap_or_default()
    }
}
