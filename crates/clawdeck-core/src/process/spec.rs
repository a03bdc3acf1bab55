//! What to run and under which limits: [`ProcessSpec`] and its builder methods.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::output::OutputChunk;

/// Called from the reader tasks for every chunk, in arrival order per stream. Keep it cheap:
/// it runs on the path that drains the pipe.
pub type ChunkCallback = Arc<dyn Fn(&OutputChunk) + Send + Sync>;

/// Bounds on what the supervisor keeps in memory. Output beyond them is counted, not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputLimits {
    /// A line longer than this is split into pieces of at most this many bytes (each piece is
    /// delivered and retained as its own line, flagged as continued). Clamped to
    /// `max_retained_bytes`.
    pub max_line_bytes: usize,
    /// How many lines (both streams together) the retained output keeps; older ones are dropped.
    pub max_retained_lines: usize,
    /// How many bytes of text (both streams together) the retained output keeps.
    pub max_retained_bytes: usize,
}

impl Default for OutputLimits {
    fn default() -> Self {
        OutputLimits {
            max_line_bytes: 64 * 1024,
            max_retained_lines: 10_000,
            max_retained_bytes: 1024 * 1024,
        }
    }
}

/// What the child's stdin is connected to. The default is `/dev/null`: a child that reads
/// stdin then sees end-of-file instead of hanging on a terminal it does not own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StdinMode {
    #[default]
    Null,
    /// A pipe, taken with [`super::RunningProcess::take_stdin`] (used by the `process write` tool).
    Piped,
}

/// A command to run under supervision.
#[derive(Clone)]
pub struct ProcessSpec {
    pub program: String,
    pub args: Vec<String>,
    /// Variables set for the child (after `clear_env`, if set).
    pub env: Vec<(String, String)>,
    /// Start from an empty environment instead of inheriting clawdeck's.
    pub clear_env: bool,
    pub cwd: Option<PathBuf>,
    pub stdin: StdinMode,
    /// Kill the process group once this has elapsed since spawn.
    pub timeout: Option<Duration>,
    /// Time between SIGTERM and SIGKILL to the group (OpenClaw: 3000 ms).
    pub kill_grace: Duration,
    /// After the leader exits, how long to wait for the pipes to close (grandchildren may hold
    /// them) before killing the group and detaching.
    pub drain_grace: Duration,
    pub limits: OutputLimits,
    /// Live observer for output chunks; see also [`super::RunningProcess::subscribe`].
    pub on_chunk: Option<ChunkCallback>,
    /// Capacity of the broadcast channel behind `subscribe()`; a receiver that falls further
    /// behind than this sees `Lagged`.
    pub event_capacity: usize,
    /// Kill the group ([`super::KillReason::Cancelled`]) when this token fires.
    pub cancel: Option<CancellationToken>,
}

pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(3);
pub const DEFAULT_DRAIN_GRACE: Duration = Duration::from_secs(2);

impl ProcessSpec {
    pub fn new(program: impl Into<String>) -> Self {
        ProcessSpec {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            clear_env: false,
            cwd: None,
            stdin: StdinMode::Null,
            timeout: None,
            kill_grace: DEFAULT_KILL_GRACE,
            drain_grace: DEFAULT_DRAIN_GRACE,
            limits: OutputLimits::default(),
            on_chunk: None,
            event_capacity: 1024,
            cancel: None,
        }
    }

    pub(crate) fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    pub fn clear_env(mut self, clear: bool) -> Self {
        self.clear_env = clear;
        self
    }

    pub fn cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    pub fn stdin(mut self, mode: StdinMode) -> Self {
        self.stdin = mode;
        self
    }

    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn kill_grace(mut self, grace: Duration) -> Self {
        self.kill_grace = grace;
        self
    }

    pub fn drain_grace(mut self, grace: Duration) -> Self {
        self.drain_grace = grace;
        self
    }

    pub fn limits(mut self, limits: OutputLimits) -> Self {
        self.limits = limits;
        self
    }

    pub fn on_chunk(mut self, callback: impl Fn(&OutputChunk) + Send + Sync + 'static) -> Self {
        self.on_chunk = Some(Arc::new(callback));
        self
    }

    pub fn cancel(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }

    pub(crate) fn cancel_token(&self) -> Option<CancellationToken> {
        self.cancel.clone()
    }

    /// `program arg1 arg2 ...` for notes and logs.
    pub fn display_command(&self) -> String {
        let mut out = self.program.clone();
        for arg in &self.args {
            out.push(' ');
            out.push_str(arg);
        }
        out
    }
}

impl fmt::Debug for ProcessSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessSpec")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("env", &self.env)
            .field("clear_env", &self.clear_env)
            .field("cwd", &self.cwd)
            .field("stdin", &self.stdin)
            .field("timeout", &self.timeout)
            .field("kill_grace", &self.kill_grace)
            .field("drain_grace", &self.drain_grace)
            .field("limits", &self.limits)
            .field("on_chunk", &self.on_chunk.is_some())
            .field("cancel", &self.cancel.is_some())
            .finish()
    }
}
