//! Reading one output pipe until it closes.
//!
//! Reads land in the free part of a shared buffer and are handed on as slices of it, so the
//! retained output keeps the bytes without copying them; a buffer is reused once nothing
//! retained points into it any more.
//!
//! While output flows, each pipe gets its own thread doing plain reads, woken straight by the
//! kernel when the child writes: going through the async reactor (readiness, wake-up, re-poll)
//! costs a flooding child a third of its throughput. A silent pipe costs no thread and no
//! buffer: it waits on the async reactor until the child writes, and a thread that finds its
//! pipe silent for `PARK_AFTER_IDLE_POLLS` polls hands it back there (an idle background exec
//! session held two threads and a few MiB each, so hundreds of them took gigabytes). When a
//! thread cannot be started, an async task does the reading. Either way the reader can be told
//! to stop (the supervisor detaches from pipes that a process outside the group keeps open).

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

use bytes::{Bytes, BytesMut};
use tokio::io::AsyncReadExt;
use tokio::io::unix::AsyncFd;
use tokio::sync::{broadcast, oneshot};
use tokio_util::sync::CancellationToken;

use super::lines::{LineBatch, LineSplitter};
use super::live::LiveText;
use super::output::{OutputChunk, StdStream};
use super::retained::OutputBuffer;
use super::spec::ChunkCallback;

/// Reads go into buffers this large; each read's bytes are kept as a slice of it (no copy)
/// until the retained output lets go of them.
const READ_BUFFER_BYTES: usize = 256 * 1024;
/// Below this much free space the next read gets a fresh (or reclaimed) buffer.
const MIN_SPARE_BYTES: usize = 32 * 1024;
/// A larger pipe lets a flooding child keep writing while a read is being processed.
const PIPE_BYTES: i32 = 1024 * 1024;
/// How often an idle reader thread looks at its stop flag.
const IDLE_POLL_MS: i32 = 500;
/// Idle polls in a row after which a reader thread hands its silent pipe back to the async
/// reactor and ends (5 s).
const PARK_AFTER_IDLE_POLLS: u32 = 10;

/// What both readers of a process share.
pub(crate) struct ReaderShared {
    pub(crate) buffer: Arc<Mutex<OutputBuffer>>,
    pub(crate) chunks: broadcast::Sender<OutputChunk>,
    pub(crate) on_chunk: Option<ChunkCallback>,
    pub(crate) max_line_bytes: usize,
    pub(crate) start: Instant,
}

impl ReaderShared {
    /// Someone wants live chunks (a callback, or a subscriber right now).
    fn observed(&self) -> bool {
        self.on_chunk.is_some() || self.chunks.receiver_count() > 0
    }
}

/// A running reader: `done` fires when the pipe closed (or the reader stopped).
pub(crate) struct PipeReader {
    pub(crate) done: oneshot::Receiver<()>,
    stop: Arc<AtomicBool>,
    cancel: CancellationToken,
}

impl PipeReader {
    /// A function that makes the reader stop soon (a thread notices within `IDLE_POLL_MS`, an
    /// async wait at once), closing the pipe; usable after `done` was moved away.
    pub(crate) fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let stop = Arc::clone(&self.stop);
        let cancel = self.cancel.clone();
        move || {
            stop.store(true, Ordering::Relaxed);
            cancel.cancel();
        }
    }
}

fn lock(mutex: &Mutex<OutputBuffer>) -> MutexGuard<'_, OutputBuffer> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One pipe being read: its fd, its line state and where to say it is done. Moves between
/// the async wait and a reading thread.
struct PipeState {
    fd: OwnedFd,
    reader: StreamReader,
    done: oneshot::Sender<()>,
    shared: Arc<ReaderShared>,
    stop: Arc<AtomicBool>,
    cancel: CancellationToken,
}

impl PipeState {
    /// Publishes what is left and says the pipe is done.
    fn finish(mut self) {
        self.reader.finish(&self.shared);
        let _ = self.done.send(());
    }
}

/// Start reading a tokio child pipe (`ChildStdout` / `ChildStderr`). Needs a tokio runtime.
pub(crate) fn start<P>(pipe: P, stream: StdStream, shared: Arc<ReaderShared>) -> PipeReader
where
    P: std::os::fd::AsFd + IntoOwnedFd,
{
    // Best effort: the kernel caps it at /proc/sys/fs/pipe-max-size for unprivileged users.
    let _ = nix::fcntl::fcntl(&pipe, nix::fcntl::FcntlArg::F_SETPIPE_SZ(PIPE_BYTES));
    let (done_tx, done) = oneshot::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let cancel = CancellationToken::new();
    match pipe.into_owned_fd() {
        Ok(fd) => {
            // tokio hands the fd back in blocking mode; a reader thread must see EAGAIN to
            // notice its pipe went silent (a blocking read waits for the child, holding the
            // thread), and the async wait needs it non-blocking too. Only this read end
            // changes: the child's write end is another open file.
            if let Err(err) = set_nonblocking(&fd) {
                tracing::debug!(stream = stream.as_str(), error = %err, "pipe left blocking");
            }
            let state = PipeState {
                fd,
                reader: StreamReader::new(stream, &shared),
                done: done_tx,
                shared,
                stop: Arc::clone(&stop),
                cancel: cancel.clone(),
            };
            tokio::spawn(wait_for_output(state));
        }
        Err(err) => {
            tracing::debug!(stream = stream.as_str(), error = %err, "could not take the pipe's fd");
        }
    }
    PipeReader { done, stop, cancel }
}

fn set_nonblocking(fd: &OwnedFd) -> nix::Result<()> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let flags = OFlag::from_bits_truncate(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK)).map(|_| ())
}

/// Waits on the async reactor, without a thread, until the pipe has something (data or its
/// end), publishing a partial line when its delay runs out; then a thread reads.
async fn wait_for_output(mut state: PipeState) {
    let stream = state.reader.stream;
    // SAFETY: an `OwnedFd` is an open descriptor it alone closes, and it gives the same fd for
    // as long as the `AsyncFd` holds it (until `into_inner` hands it back).
    let registered =
        unsafe { AsyncFd::register_with_interest(state.fd, tokio::io::Interest::READABLE) };
    let async_fd = match registered {
        Ok(async_fd) => async_fd,
        Err(err) => {
            // Not pollable: read on a thread right away.
            let (fd, err) = err.into_parts();
            tracing::debug!(stream = stream.as_str(), error = %err, "could not register the pipe");
            state.fd = fd;
            read_on_thread(state);
            return;
        }
    };
    loop {
        let due = state.reader.flush_due(&state.shared);
        tokio::select! {
            _ = state.cancel.cancelled() => {
                state.fd = async_fd.into_inner();
                state.finish();
                return;
            }
            // An error here is the read's to report: the thread reads and sees it.
            _ = async_fd.readable() => break,
            _ = tokio::time::sleep(due.unwrap_or_default()), if due.is_some() => {}
        }
    }
    state.fd = async_fd.into_inner();
    read_on_thread(state);
}

/// Reads on a thread of its own; the thread hands a pipe that went silent back to
/// `wait_for_output`. Without a thread, an async task reads.
fn read_on_thread(state: PipeState) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        // No runtime to park on (not expected: this runs in a task): a thread reads to the end.
        let _ = std::thread::Builder::new().spawn(move || {
            let mut state = state;
            while let Some(parked) = read_blocking(state) {
                state = parked;
            }
        });
        return;
    };
    let stream = state.reader.stream;
    // The closure owns the state; if the thread cannot start, the state comes back here.
    let slot = Arc::new(Mutex::new(Some(state)));
    let thread_slot = Arc::clone(&slot);
    let thread_runtime = runtime.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("clawdeck-{}", stream.as_str()))
        .spawn(move || {
            let taken = thread_slot
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .take();
            if let Some(state) = taken
                && let Some(parked) = read_blocking(state)
            {
                thread_runtime.spawn(wait_for_output(parked));
            }
        });
    if spawned.is_err() {
        let taken = slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(state) = taken {
            runtime.spawn(read_async(state));
        }
    }
}

/// Lets `start` take both tokio pipe types.
pub(crate) trait IntoOwnedFd {
    fn into_owned_fd(self) -> std::io::Result<OwnedFd>;
}

impl IntoOwnedFd for tokio::process::ChildStdout {
    fn into_owned_fd(self) -> std::io::Result<OwnedFd> {
        tokio::process::ChildStdout::into_owned_fd(self)
    }
}

impl IntoOwnedFd for tokio::process::ChildStderr {
    fn into_owned_fd(self) -> std::io::Result<OwnedFd> {
        tokio::process::ChildStderr::into_owned_fd(self)
    }
}

/// The fallback: read the fd on the async reactor until it closes (or the reader stops).
async fn read_async(state: PipeState) {
    let PipeState {
        fd,
        mut reader,
        done,
        shared,
        cancel,
        ..
    } = state;
    let stream = reader.stream;
    match tokio::net::unix::pipe::Receiver::from_owned_fd(fd) {
        Ok(mut pipe) => {
            let mut buf = BytesMut::with_capacity(READ_BUFFER_BYTES);
            loop {
                if buf.capacity() - buf.len() < MIN_SPARE_BYTES {
                    buf.reserve(READ_BUFFER_BYTES);
                }
                let due = reader.flush_due(&shared);
                let read = tokio::select! {
                    _ = cancel.cancelled() => break,
                    // read_buf is cancel safe: a timed-out read took nothing.
                    read = pipe.read_buf(&mut buf) => read,
                    _ = tokio::time::sleep(due.unwrap_or_default()), if due.is_some() => continue,
                };
                match read {
                    Ok(0) => break,
                    Ok(_) => reader.consume(buf.split().freeze(), &shared),
                    Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(err) => {
                        tracing::debug!(stream = stream.as_str(), error = %err, "process pipe read failed");
                        break;
                    }
                }
            }
        }
        Err(err) => {
            tracing::debug!(stream = stream.as_str(), error = %err, "could not register the pipe")
        }
    }
    reader.finish(&shared);
    let _ = done.send(());
}

/// Reads until the pipe closes or the reader stops (then `None`: done), or until the pipe was
/// silent for `PARK_AFTER_IDLE_POLLS` polls with no partial line waiting (then the state, to
/// wait without a thread; the read buffer is let go).
fn read_blocking(mut state: PipeState) -> Option<PipeState> {
    let raw = state.fd.as_raw_fd();
    let stream = state.reader.stream;
    let mut buf = BytesMut::new();
    let mut idle_polls = 0u32;
    while !state.stop.load(Ordering::Relaxed) {
        // A partial line waits only so long: until it is due, poll for more instead of reading.
        if let Some(wait) = state.reader.flush_due(&state.shared)
            && !wait_readable(raw, Some(wait))
        {
            continue;
        }
        if buf.capacity() - buf.len() < MIN_SPARE_BYTES {
            // Reclaims the buffer when the retained output no longer uses any of it.
            buf.reserve(READ_BUFFER_BYTES);
        }
        match read_into_spare(raw, &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                idle_polls = 0;
                state.reader.consume(buf.split().freeze(), &state.shared);
            }
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                if wait_readable(raw, None) {
                    continue;
                }
                idle_polls += 1;
                if idle_polls >= PARK_AFTER_IDLE_POLLS && state.reader.live.due().is_none() {
                    return Some(state);
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => {
                tracing::debug!(stream = stream.as_str(), error = %err, "process pipe read failed");
                break;
            }
        }
    }
    state.finish();
    None
}

/// read(2) into the free capacity of `buf`, without zeroing it first.
fn read_into_spare(fd: RawFd, buf: &mut BytesMut) -> std::io::Result<usize> {
    let spare = buf.spare_capacity_mut();
    // SAFETY: `spare` is writable memory owned by `buf`, `spare.len()` bytes long; read(2)
    // writes at most that many bytes and returns how many it wrote.
    let read = unsafe { libc::read(fd, spare.as_mut_ptr().cast(), spare.len()) };
    if read < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let read = read as usize;
    // SAFETY: the first `read` bytes after the current length were just written by read(2).
    unsafe { buf.set_len(buf.len() + read) };
    Ok(read)
}

/// Sleep until the pipe has data or hangs up (true), or `IDLE_POLL_MS` passed, or (when a
/// partial line waits) `partial_due` passed (false).
fn wait_readable(fd: i32, partial_due: Option<std::time::Duration>) -> bool {
    let timeout_ms = partial_due.map_or(IDLE_POLL_MS, |due| {
        // Rounded up, so the wake-up is never early (no busy loop on a sub-millisecond wait).
        let ms = due.as_micros().div_ceil(1000).max(1);
        i32::try_from(ms).unwrap_or(IDLE_POLL_MS).min(IDLE_POLL_MS)
    });
    let mut poll_fd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call; fd stays open (owned by the caller).
    let ready = unsafe { libc::poll(&mut poll_fd, 1, timeout_ms) };
    ready > 0
}

/// Splits one stream's bytes into lines for the retained buffer, and hands the bytes as they
/// arrive (partial lines included) to the observers.
struct StreamReader {
    stream: StdStream,
    splitter: LineSplitter,
    batch: LineBatch,
    live: LiveText,
}

impl StreamReader {
    fn new(stream: StdStream, shared: &ReaderShared) -> Self {
        StreamReader {
            stream,
            splitter: LineSplitter::new(shared.max_line_bytes),
            batch: LineBatch::default(),
            live: LiveText::default(),
        }
    }

    fn consume(&mut self, data: Bytes, shared: &ReaderShared) {
        let at = SystemTime::now();
        let now = Instant::now();
        self.splitter.feed_into(&data, &mut self.batch);
        let observed = shared.observed();
        if observed && self.live.publish_before(data.len()) {
            // Held text holds no complete line, so it may go out before the batch is stored.
            self.publish(shared);
        }
        self.live.push(&data, at, now, observed);
        let completed_line = !self.batch.is_empty();
        self.store(shared, at, data.len(), &data);
        if observed && self.live.publish_now(completed_line, now) {
            self.publish(shared);
        }
    }

    /// Publishes a waiting partial line whose delay ran out; returns how long until the one
    /// still waiting is due (None: nothing waits).
    fn flush_due(&mut self, shared: &ReaderShared) -> Option<std::time::Duration> {
        let due = self.live.due()?;
        let now = Instant::now();
        if now >= due {
            self.publish(shared);
            None
        } else {
            Some(due - now)
        }
    }

    fn finish(&mut self, shared: &ReaderShared) {
        let batch = &mut self.batch;
        self.splitter
            .finish(&mut |bytes, end| batch.push_line(bytes, end));
        self.store(shared, SystemTime::now(), 0, &Bytes::new());
        self.live.finish();
        self.publish(shared);
    }

    /// Moves the batch's lines into the retained buffer (before any chunk about them goes out,
    /// so an observer woken by a chunk finds its lines in the snapshot).
    fn store(&mut self, shared: &ReaderShared, at: SystemTime, read: usize, input: &Bytes) {
        let mut buffer = lock(&shared.buffer);
        buffer.count_read(self.stream, read);
        if !self.batch.is_empty() {
            buffer.append(self.stream, at, &self.batch, input);
        }
        drop(buffer);
        self.batch.clear();
    }

    /// Sends the waiting live text, if any, to the observers.
    fn publish(&mut self, shared: &ReaderShared) {
        let Some(piece) = self.live.take() else {
            return;
        };
        let chunk = OutputChunk {
            stream: self.stream,
            at: piece.at,
            elapsed: piece.arrived.saturating_duration_since(shared.start),
            bytes: Bytes::from(piece.bytes),
            continues_line: piece.continues_line,
        };
        if let Some(callback) = &shared.on_chunk {
            callback(&chunk);
        }
        let _ = shared.chunks.send(chunk);
    }
}
