//! Spawning and supervising one child process group: readers, timeout, kill sequence, drain,
//! reaping, and the outcome.
//!
//! One task per child (the supervisor) owns the `Child`, sends every signal and reaps the
//! leader; [`KillHandle`]s only record a reason and wake it. Because signals and the reap happen
//! in that one task, a kill can never race the reap, a second kill (or a timeout arriving with a
//! kill) finds the sequence already running, and the group is signalled through the pgid saved
//! at spawn, never through pid 0.

use std::fmt;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use nix::sys::signal::Signal;
use serde::Serialize;
use tokio::process::{ChildStdin, Command};
use tokio::sync::{Notify, broadcast, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::bounds;

use super::error::SpawnError;
use super::group::{group_has_live_members, signal_group, signal_name};
use super::output::{OutputChunk, RetainedOutput, StdStream};
use super::reader::{self, PipeReader, ReaderShared};
use super::retained::OutputBuffer;
use super::spec::{ProcessSpec, StdinMode};

/// Why the supervisor killed the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KillReason {
    /// The spec's timeout elapsed.
    Timeout,
    /// Someone called [`KillHandle::kill`] on behalf of a user (the `process kill` tool, the console).
    User,
    /// The spec's cancellation token fired (the tool call was aborted).
    Cancelled,
    /// The owner dropped the [`RunningProcess`] before it finished.
    Dropped,
    /// clawdeck is shutting down.
    Shutdown,
}

impl KillReason {
    pub fn as_str(self) -> &'static str {
        match self {
            KillReason::Timeout => "timeout",
            KillReason::User => "user",
            KillReason::Cancelled => "cancelled",
            KillReason::Dropped => "dropped",
            KillReason::Shutdown => "shutdown",
        }
    }
}

impl fmt::Display for KillReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the leader process ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExitKind {
    Code {
        code: i32,
    },
    Signal {
        number: i32,
        name: String,
    },
    /// Waiting for the process failed or the supervisor stopped before reaping it.
    Unknown,
}

impl ExitKind {
    fn from_status(status: ExitStatus) -> Self {
        use std::os::unix::process::ExitStatusExt;
        if let Some(code) = status.code() {
            ExitKind::Code { code }
        } else if let Some(number) = status.signal() {
            ExitKind::Signal {
                number,
                name: signal_name(number),
            }
        } else {
            ExitKind::Unknown
        }
    }

    pub fn code(&self) -> Option<i32> {
        match self {
            ExitKind::Code { code } => Some(*code),
            _ => None,
        }
    }

    pub fn signal_name(&self) -> Option<&str> {
        match self {
            ExitKind::Signal { name, .. } => Some(name),
            _ => None,
        }
    }
}

impl fmt::Display for ExitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExitKind::Code { code } => write!(f, "exit code {code}"),
            ExitKind::Signal { name, .. } => write!(f, "signal {name}"),
            ExitKind::Unknown => f.write_str("unknown exit"),
        }
    }
}

/// A signal the supervisor sent to the group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentSignal {
    pub signal: String,
    /// Time since spawn.
    pub after: Duration,
}

/// Everything known once the child and its pipes are done.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessOutcome {
    pub command: String,
    pub pid: u32,
    pub pgid: i32,
    pub exit: ExitKind,
    /// The timeout elapsed and the supervisor killed the group for it. A child that then exits
    /// 0 on SIGTERM is still a timeout, not a success.
    pub timed_out: bool,
    pub timeout: Option<Duration>,
    /// Set whenever the supervisor started a kill sequence (the first reason wins).
    pub killed_by: Option<KillReason>,
    pub started_at: SystemTime,
    /// Spawn to leader reaped.
    pub duration: Duration,
    /// Spawn to pipes closed (or detached).
    pub finished_after: Duration,
    pub output: RetainedOutput,
    /// Signals sent to the group, in order.
    pub signals: Vec<SentSignal>,
    /// True when the pipes were still held after the drain grace and reading stopped.
    pub detached: bool,
    /// What the supervisor did beyond a plain run (kill steps, drain, leftovers).
    pub notes: Vec<String>,
}

impl ProcessOutcome {
    /// Exit code 0 and not killed by the supervisor.
    pub fn success(&self) -> bool {
        self.killed_by.is_none() && self.exit == ExitKind::Code { code: 0 }
    }

    /// One line for logs and tool results: `exited with code 2`, `terminated by timeout after
    /// 5s (exit code 0)`, `killed (user) (signal SIGKILL)`, `killed by signal SIGSEGV`.
    pub fn summary(&self) -> String {
        match (self.killed_by, &self.exit) {
            (Some(KillReason::Timeout), exit) => match self.timeout {
                Some(timeout) => format!(
                    "terminated by timeout after {} ({exit})",
                    format_duration(timeout)
                ),
                None => format!("terminated by timeout ({exit})"),
            },
            (Some(reason), exit) => format!("killed ({reason}) ({exit})"),
            (None, ExitKind::Code { code }) => format!("exited with code {code}"),
            (None, ExitKind::Signal { name, .. }) => format!("killed by signal {name}"),
            (None, ExitKind::Unknown) => "ended (exit status unknown)".to_string(),
        }
    }
}

/// `250ms`, `3s`, `1.5s`.
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis < 1000 {
        format!("{millis}ms")
    } else if millis.is_multiple_of(1000) {
        format!("{}s", millis / 1000)
    } else {
        format!("{:.1}s", duration.as_secs_f64())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Shared between the supervisor task and every kill handle.
#[derive(Debug)]
struct Control {
    pid: u32,
    pgid: i32,
    /// The first kill reason; `finished` once the supervisor is done (no kill can start then).
    reason: Mutex<KillState>,
    wake: Notify,
}

#[derive(Debug, Default)]
struct KillState {
    reason: Option<KillReason>,
    finished: bool,
}

impl Control {
    /// Record the reason if none is recorded yet and the run is not over; true if this call did.
    fn request(&self, reason: KillReason) -> bool {
        let mut slot = lock(&self.reason);
        if slot.reason.is_some() || slot.finished {
            return false;
        }
        slot.reason = Some(reason);
        drop(slot);
        self.wake.notify_one();
        true
    }

    fn reason(&self) -> Option<KillReason> {
        lock(&self.reason).reason
    }

    fn finish(&self) {
        lock(&self.reason).finished = true;
    }
}

/// A cheap, cloneable way to kill a supervised process group from anywhere.
#[derive(Debug, Clone)]
pub struct KillHandle {
    control: Arc<Control>,
}

impl KillHandle {
    /// Start the kill sequence (SIGTERM to the group, kill grace, SIGKILL to the group).
    /// Idempotent: returns true only for the call that started it; later calls (and a timeout
    /// arriving after it) change nothing. After the process finished it does nothing.
    pub fn kill(&self, reason: KillReason) -> bool {
        self.control.request(reason)
    }

    /// The reason of the kill in progress, if any.
    pub fn requested(&self) -> Option<KillReason> {
        self.control.reason()
    }

    pub fn pid(&self) -> u32 {
        self.control.pid
    }

    pub fn pgid(&self) -> i32 {
        self.control.pgid
    }
}

/// A child under supervision. Dropping it before the child finished kills the group
/// ([`KillReason::Dropped`]); the supervisor task still reaps everything.
#[derive(Debug)]
pub struct RunningProcess {
    command: String,
    pid: u32,
    pgid: i32,
    started_at: SystemTime,
    control: Arc<Control>,
    buffer: Arc<Mutex<OutputBuffer>>,
    chunks: broadcast::WeakSender<OutputChunk>,
    outcome: watch::Receiver<Option<Arc<ProcessOutcome>>>,
    stdin: Option<ChildStdin>,
}

impl RunningProcess {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The process group id (= the leader's pid), saved at spawn.
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    pub(crate) fn started_at(&self) -> SystemTime {
        self.started_at
    }

    pub fn kill_handle(&self) -> KillHandle {
        KillHandle {
            control: Arc::clone(&self.control),
        }
    }

    /// Same as `kill_handle().kill(reason)`.
    pub fn kill(&self, reason: KillReason) -> bool {
        self.control.request(reason)
    }

    /// Output chunks from now on, in arrival order. The channel closes after the last chunk
    /// (when both pipes are closed); a receiver that falls behind gets `Lagged`. Lines completed
    /// before the call are in [`Self::output_snapshot`]; a line still open at the call goes on
    /// in a chunk marked `continues_line` (its beginning is in the snapshot once the line
    /// ends). Use the spec's `on_chunk` to see every chunk.
    pub fn subscribe(&self) -> broadcast::Receiver<OutputChunk> {
        match self.chunks.upgrade() {
            Some(sender) => sender.subscribe(),
            None => broadcast::channel(1).1,
        }
    }

    /// The retained output so far.
    pub fn output_snapshot(&self) -> RetainedOutput {
        lock(&self.buffer).snapshot_from(0)
    }

    /// Retained lines numbered `line` and later (for polling: pass the number after the last
    /// line seen, or [`Self::next_line_number`] to start from now).
    pub fn output_since(&self, line: u64) -> RetainedOutput {
        lock(&self.buffer).snapshot_from(line)
    }

    pub fn next_line_number(&self) -> u64 {
        lock(&self.buffer).next_line_number()
    }

    /// The write end of the child's stdin when the spec asked for [`StdinMode::Piped`].
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    pub fn is_finished(&self) -> bool {
        self.outcome.borrow().is_some()
    }

    pub(crate) fn try_outcome(&self) -> Option<ProcessOutcome> {
        self.outcome.borrow().as_deref().cloned()
    }

    /// Wait until the child exited, its pipes closed (or were detached) and nothing of its group
    /// is left. Can be called from several places and again after it returned.
    pub async fn wait(&self) -> ProcessOutcome {
        let mut outcome = self.outcome.clone();
        loop {
            if let Some(done) = outcome.borrow_and_update().as_deref() {
                return done.clone();
            }
            if outcome.changed().await.is_err() {
                // The supervisor task was dropped (runtime shutting down); its guard killed the group.
                return self.lost_outcome();
            }
        }
    }

    fn lost_outcome(&self) -> ProcessOutcome {
        let elapsed = self.started_at.elapsed().unwrap_or_default();
        ProcessOutcome {
            command: self.command.clone(),
            pid: self.pid,
            pgid: self.pgid,
            exit: ExitKind::Unknown,
            timed_out: false,
            timeout: None,
            killed_by: Some(KillReason::Shutdown),
            started_at: self.started_at,
            duration: elapsed,
            finished_after: elapsed,
            output: self.output_snapshot(),
            signals: Vec::new(),
            detached: true,
            notes: vec!["supervisor stopped before the process finished (runtime shutting down); its process group was killed".to_string()],
        }
    }
}

impl Drop for RunningProcess {
    fn drop(&mut self) {
        if !self.is_finished() {
            self.control.request(KillReason::Dropped);
        }
    }
}

/// Start `spec` under supervision. Must be called inside a tokio runtime.
///
/// The child gets stdin from /dev/null (unless `StdinMode::Piped`), its own process group, and
/// both output pipes are read concurrently until they close.
/// Puts the child in its own process group (the whole tree can be signalled at once, and
/// terminal signals aimed at clawdeck's group, Ctrl-C in the console, do not reach it) and has
/// the kernel kill it if clawdeck dies without cleaning up (SIGKILL). The signal is tied to the
/// spawning thread, which is a runtime thread that lives as long as the runtime.
pub fn in_own_group_dying_with_parent(command: &mut Command) {
    command.process_group(0);
    super::descendants::mark(command);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: only async-signal-safe calls (sigemptyset, sigprocmask, prctl, getppid, kill)
    // between fork and exec.
    unsafe {
        command.pre_exec(move || {
            // clawdeck blocks its stop signals (the stop policy takes them); the child must
            // not inherit that.
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            if libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died between fork and prctl.
            if libc::getppid() != parent {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            Ok(())
        });
    }
}

pub fn spawn(spec: ProcessSpec) -> Result<RunningProcess, SpawnError> {
    check_spawnable(&spec)?;
    let mut child = start_child(&spec)?;
    let start = Instant::now();
    let started_at = SystemTime::now();
    let Some(pid) = child.id() else {
        return Err(SpawnError::Other {
            program: spec.program.clone(),
            source: std::io::Error::other("child exited before its pid could be read"),
        });
    };
    let pgid = pid as i32;
    // From here a stop of clawdeck kills the group too; the guard in `supervise` forgets it.
    let ticket = super::stop::track_group(pgid, spec.kill_grace.min(bounds::MAX_GRACE));

    let limits = {
        let mut limits = spec.limits;
        limits.max_retained_bytes = limits.max_retained_bytes.max(1);
        limits.max_line_bytes = limits
            .max_line_bytes
            .clamp(4, limits.max_retained_bytes.max(4));
        limits
    };
    let buffer = Arc::new(Mutex::new(OutputBuffer::new(limits)));
    let (chunks, _) = broadcast::channel(spec.event_capacity.max(1));
    let weak_chunks = chunks.downgrade();
    let shared = Arc::new(ReaderShared {
        buffer: Arc::clone(&buffer),
        chunks,
        on_chunk: spec.on_chunk.clone(),
        max_line_bytes: limits.max_line_bytes,
        start: std::time::Instant::now(),
    });
    let readers = start_readers(&mut child, shared);
    let stdin = child.stdin.take();

    let control = Arc::new(Control {
        pid,
        pgid,
        reason: Mutex::new(KillState::default()),
        wake: Notify::new(),
    });
    let (outcome_tx, outcome_rx) = watch::channel(None);
    let command_text = spec.display_command();
    let supervision = Supervision {
        child,
        control: Arc::clone(&control),
        command: command_text.clone(),
        // Bounded whatever the caller passed: a deadline never overflows or recedes out of reach.
        timeout: spec.timeout.map(|t| t.min(bounds::MAX_TIMEOUT)),
        kill_grace: spec.kill_grace.min(bounds::MAX_GRACE),
        drain_grace: spec.drain_grace.min(bounds::MAX_GRACE),
        cancel: spec.cancel_token(),
        readers,
        start,
        started_at,
        pid,
        pgid,
        buffer: Arc::clone(&buffer),
    };
    tokio::spawn(async move {
        let outcome = supervise(supervision, ticket).await;
        outcome_tx.send_replace(Some(Arc::new(outcome)));
    });

    Ok(RunningProcess {
        command: command_text,
        pid,
        pgid,
        started_at,
        control,
        buffer,
        chunks: weak_chunks,
        outcome: outcome_rx,
        stdin,
    })
}

/// Starts the child. "Text file busy" is retried a few times: the program was just written
/// (an install, an update) and another process forked while the writer's descriptor was open
/// holds it until that process's exec, which is a moment.
fn start_child(spec: &ProcessSpec) -> Result<tokio::process::Child, SpawnError> {
    const TRIES: u32 = 20;
    let mut tries = 1;
    loop {
        match command_for(spec).spawn() {
            Err(err) if err.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < TRIES => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            started => return started.map_err(|err| SpawnError::from_io(&spec.program, err)),
        }
    }
}

/// Refuses what cannot start: no program, a cwd that is not a directory, no tokio runtime,
/// clawdeck stopping.
fn check_spawnable(spec: &ProcessSpec) -> Result<(), SpawnError> {
    if spec.program.trim().is_empty() {
        return Err(SpawnError::EmptyProgram);
    }
    if let Some(cwd) = &spec.cwd
        && !cwd.is_dir()
    {
        return Err(SpawnError::BadCwd {
            program: spec.program.clone(),
            cwd: cwd.clone(),
        });
    }
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(SpawnError::Other {
            program: spec.program.clone(),
            source: std::io::Error::other("process::spawn needs a tokio runtime"),
        });
    }
    if let Some(signal) = super::stop::stopping() {
        return Err(SpawnError::Stopping {
            program: spec.program.clone(),
            signal: signal.label(),
        });
    }
    Ok(())
}

/// The command for `spec`: its args, environment and cwd, piped output, in its own group.
fn command_for(spec: &ProcessSpec) -> Command {
    let mut command = Command::new(&spec.program);
    command.args(&spec.args);
    if spec.clear_env {
        command.env_clear();
    }
    command.envs(spec.env.iter().map(|(key, value)| (key, value)));
    if let Some(cwd) = &spec.cwd {
        command.current_dir(cwd);
    }
    command.stdin(match spec.stdin {
        StdinMode::Null => Stdio::null(),
        StdinMode::Piped => Stdio::piped(),
    });
    command.stdout(Stdio::piped());
    command.stderr(Stdio::piped());
    in_own_group_dying_with_parent(&mut command);
    command.kill_on_drop(false);
    command
}

/// One reader per output pipe; they share the buffer and the chunk channel.
fn start_readers(child: &mut tokio::process::Child, shared: Arc<ReaderShared>) -> Vec<PipeReader> {
    let mut readers = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        readers.push(reader::start(
            stdout,
            StdStream::Stdout,
            Arc::clone(&shared),
        ));
    }
    if let Some(stderr) = child.stderr.take() {
        readers.push(reader::start(
            stderr,
            StdStream::Stderr,
            Arc::clone(&shared),
        ));
    }
    readers
}

struct Supervision {
    child: tokio::process::Child,
    control: Arc<Control>,
    command: String,
    timeout: Option<Duration>,
    kill_grace: Duration,
    drain_grace: Duration,
    cancel: Option<CancellationToken>,
    readers: Vec<PipeReader>,
    start: Instant,
    started_at: SystemTime,
    pid: u32,
    pgid: i32,
    buffer: Arc<Mutex<OutputBuffer>>,
}

/// Kills the group if the supervisor task is dropped before it finished (runtime shutdown).
/// Holds the group's registration with the stop policy until then.
struct GroupGuard {
    pgid: i32,
    leader_reaped: bool,
    done: bool,
    _ticket: super::stop::GroupTicket,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Before the reap the pgid is still ours (the leader is alive or a zombie we own);
        // after it, only signal a group that still has live members.
        if !self.leader_reaped || group_has_live_members(self.pgid) {
            let _ = signal_group(self.pgid, Signal::SIGKILL);
        }
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

async fn cancelled_opt(token: Option<&CancellationToken>) {
    match token {
        Some(token) => token.cancelled().await,
        None => std::future::pending().await,
    }
}

/// The kill of one run: why it started, when SIGKILL follows SIGTERM, and the signals and
/// notes it left.
struct KillLog {
    pgid: i32,
    start: Instant,
    reason: Option<KillReason>,
    sigkill_at: Option<Instant>,
    signals: Vec<SentSignal>,
    notes: Vec<String>,
}

impl KillLog {
    /// SIGTERM to the group, then SIGKILL after `grace` (at once for no grace).
    fn begin_kill(&mut self, reason: KillReason, timeout: Option<Duration>, grace: Duration) {
        self.reason = Some(reason);
        self.notes.push(kill_note(reason, timeout, self.pgid));
        self.send(Signal::SIGTERM);
        if grace.is_zero() {
            self.send(Signal::SIGKILL);
        } else {
            self.sigkill_at = Some(Instant::now() + grace);
        }
    }

    fn send(&mut self, signal: Signal) -> bool {
        match signal_group(self.pgid, signal) {
            Ok(()) => {
                self.signals.push(SentSignal {
                    signal: signal.as_str().to_string(),
                    after: self.start.elapsed(),
                });
                true
            }
            Err(err) => {
                self.notes.push(format!(
                    "could not send {} to process group {}: {err}",
                    signal.as_str(),
                    self.pgid
                ));
                false
            }
        }
    }
}

fn kill_note(reason: KillReason, timeout: Option<Duration>, pgid: i32) -> String {
    format!(
        "{}: sent SIGTERM to process group {pgid}",
        kill_why(reason, timeout)
    )
}

fn kill_why(reason: KillReason, timeout: Option<Duration>) -> String {
    match (reason, timeout) {
        (KillReason::Timeout, Some(timeout)) => {
            format!("timed out after {}", format_duration(timeout))
        }
        (KillReason::Timeout, None) => "timed out".to_string(),
        (KillReason::User, _) => "killed on request".to_string(),
        (KillReason::Cancelled, _) => "cancelled".to_string(),
        (KillReason::Dropped, _) => "owner dropped the process handle".to_string(),
        (KillReason::Shutdown, _) => "shutting down".to_string(),
    }
}

async fn supervise(mut run: Supervision, ticket: super::stop::GroupTicket) -> ProcessOutcome {
    let pgid = run.pgid;
    let mut guard = GroupGuard {
        pgid,
        leader_reaped: false,
        done: false,
        _ticket: ticket,
    };
    let mut log = KillLog {
        pgid,
        start: run.start,
        reason: None,
        sigkill_at: None,
        signals: Vec::new(),
        notes: Vec::new(),
    };
    let status = wait_for_leader(&mut run, &mut log).await;
    let reaped = Instant::now();
    guard.leader_reaped = true;
    let exit = match status {
        Ok(status) => ExitKind::from_status(status),
        Err(err) => {
            log.notes
                .push(format!("waiting for pid {} failed: {err}", run.pid));
            ExitKind::Unknown
        }
    };
    let detached = drain_pipes(&mut run, reaped, &mut log).await;
    run.control.finish();
    kill_leftovers(&mut log).await;
    guard.done = true;

    let output = lock(&run.buffer).snapshot_from(0);
    ProcessOutcome {
        command: run.command,
        pid: run.pid,
        pgid,
        exit,
        timed_out: log.reason == Some(KillReason::Timeout),
        timeout: run.timeout,
        killed_by: log.reason,
        started_at: run.started_at,
        duration: reaped.duration_since(run.start),
        finished_after: run.start.elapsed(),
        output,
        signals: log.signals,
        detached,
        notes: log.notes,
    }
}

/// Phase 1: until the leader is reaped, starting the kill on the deadline, a kill request or
/// the caller's cancellation, and following SIGTERM with SIGKILL after the grace.
async fn wait_for_leader(
    run: &mut Supervision,
    log: &mut KillLog,
) -> std::io::Result<std::process::ExitStatus> {
    let pgid = run.pgid;
    let deadline = run.timeout.map(|timeout| run.start + timeout);
    let cancel = run.cancel.clone();
    loop {
        let mut start_kill = None;
        let idle = log.reason.is_none();
        tokio::select! {
            biased;
            status = run.child.wait() => return status,
            _ = sleep_until_opt(log.sigkill_at), if log.sigkill_at.is_some() => {
                log.sigkill_at = None;
                log.notes.push(format!(
                    "process group {pgid} still running {} after SIGTERM: sent SIGKILL",
                    format_duration(run.kill_grace)
                ));
                log.send(Signal::SIGKILL);
            }
            _ = run.control.wake.notified(), if idle => {
                start_kill = run.control.reason();
            }
            _ = sleep_until_opt(deadline), if idle && deadline.is_some() => {
                run.control.request(KillReason::Timeout);
                start_kill = run.control.reason();
            }
            _ = cancelled_opt(cancel.as_ref()), if idle && cancel.is_some() => {
                run.control.request(KillReason::Cancelled);
                start_kill = run.control.reason();
            }
        }
        if let Some(reason) = start_kill
            && log.reason.is_none()
        {
            log.begin_kill(reason, run.timeout, run.kill_grace);
        }
    }
}

/// Phase 2: drain the pipes; grandchildren may still hold them. True when the readers were
/// stopped before the pipes closed (detached).
async fn drain_pipes(run: &mut Supervision, reaped: Instant, log: &mut KillLog) -> bool {
    let pgid = run.pgid;
    let readers = std::mem::take(&mut run.readers);
    let stops: Vec<_> = readers.iter().map(|reader| reader.stopper()).collect();
    let mut drained = Box::pin(async move {
        for reader in readers {
            let _ = reader.done.await;
        }
    });
    let drain_until = reaped + run.drain_grace;
    let mut detach_at: Option<Instant> = None;
    loop {
        let idle = log.reason.is_none();
        tokio::select! {
            biased;
            _ = &mut drained => return false,
            _ = sleep_until_opt(log.sigkill_at), if log.sigkill_at.is_some() => {
                log.sigkill_at = None;
                if group_has_live_members(pgid) {
                    log.notes.push(format!(
                        "process group {pgid} still running {} after SIGTERM: sent SIGKILL",
                        format_duration(run.kill_grace)
                    ));
                    log.send(Signal::SIGKILL);
                }
            }
            _ = run.control.wake.notified(), if idle && detach_at.is_none() => {
                // A kill while only the drain is left: stop waiting for the pipes.
                if let Some(reason) = run.control.reason() {
                    log.reason = Some(reason);
                    let killed = group_has_live_members(pgid) && log.send(Signal::SIGKILL);
                    log.notes.push(format!(
                        "{} while waiting for the output pipes after the process exited{}",
                        kill_why(reason, run.timeout),
                        if killed { format!(": sent SIGKILL to process group {pgid}") } else { String::new() },
                    ));
                    detach_at = Some(Instant::now() + DETACH_WAIT);
                }
            }
            _ = tokio::time::sleep_until(drain_until), if detach_at.is_none() => {
                let killed = group_has_live_members(pgid) && log.send(Signal::SIGKILL);
                log.notes.push(format!(
                    "output pipes still open {} after the process exited{}; detached",
                    format_duration(run.drain_grace),
                    if killed { format!(": killed process group {pgid}") } else { String::new() },
                ));
                log.sigkill_at = None;
                detach_at = Some(Instant::now() + DETACH_WAIT);
            }
            _ = sleep_until_opt(detach_at), if detach_at.is_some() => {
                for stop in &stops {
                    stop();
                }
                log.notes.push("stopped reading: the output pipes are held by a process outside the group".to_string());
                return true;
            }
        }
    }
}

/// Phase 3: nothing of the group may outlive the run.
async fn kill_leftovers(log: &mut KillLog) {
    let pgid = log.pgid;
    if !group_has_live_members(pgid) {
        return;
    }
    if let Some(at) = log.sigkill_at {
        // A kill is in progress: the rest of the group still gets its grace.
        while Instant::now() < at && group_has_live_members(pgid) {
            let step = at
                .saturating_duration_since(Instant::now())
                .min(Duration::from_millis(20));
            tokio::time::sleep(step).await;
        }
    }
    if group_has_live_members(pgid) {
        log.notes.push(format!(
            "killed leftover processes in process group {pgid} after the process exited"
        ));
        log.send(Signal::SIGKILL);
    }
}

/// After killing the group at the end of the drain grace, how long to wait for the readers to
/// see end-of-file before giving up on the pipes.
const DETACH_WAIT: Duration = Duration::from_millis(250);

/// Runs `spec` to its end for code that cannot await (loading a config): the supervisor runs
/// on a thread of its own with a runtime of its own, and that thread stays until the child is
/// gone (the child's parent-death signal is tied to the thread that spawned it).
pub fn run_blocking(spec: ProcessSpec) -> Result<ProcessOutcome, SpawnError> {
    let program = spec.program.clone();
    let failed = |program: String, message: &str| SpawnError::Other {
        program,
        source: std::io::Error::other(message.to_string()),
    };
    let runner = std::thread::Builder::new()
        .name("clawdeck-run".to_string())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|err| SpawnError::Other {
                    program: spec.program.clone(),
                    source: err,
                })?;
            runtime.block_on(async move {
                let running = spawn(spec)?;
                Ok(running.wait().await)
            })
        })
        .map_err(|err| SpawnError::Other {
            program: program.clone(),
            source: err,
        })?;
    runner
        .join()
        .unwrap_or_else(|_| Err(failed(program, "the supervising thread panicked")))
}
