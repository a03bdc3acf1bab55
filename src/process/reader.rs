//! Reading one output pipe until it closes.
//!
//! Reads land in the free part of a shared buffer and are handed on as slices of it, so the
//! retained output keeps the bytes without copying them; a buffer is reused once nothing
//! retained points into it any more.
//!
//! Each pipe gets its own thread doing plain reads, woken straight by the kernel when the child
//! writes: going through the async reactor (readiness, wake-up, re-poll) costs a flooding child
//! a third of its throughput. When a thread cannot be started, an async task does the same work.
//! Either way the reader can be told to stop (the supervisor detaches from pipes that a process
//! outside the group keeps open).

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

use bytes::{Bytes, BytesMut};
use tokio::io::AsyncReadExt;
use tokio::sync::{broadcast, oneshot};

use super::lines::{LineBatch, LineSplitter};
use super::live::LiveText;
use super::output::{OutputChunk, StreamKind};
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
    task: Option<tokio::task::AbortHandle>,
}

impl PipeReader {
    /// A function that makes the reader stop soon (a thread notices within `IDLE_POLL_MS`),
    /// closing the pipe; usable after `done` was moved away.
    pub(crate) fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let stop = Arc::clone(&self.stop);
        let task = self.task.clone();
        move || {
            stop.store(true, Ordering::Relaxed);
            if let Some(task) = &task {
                task.abort();
            }
        }
    }
}

fn lock(mutex: &Mutex<OutputBuffer>) -> MutexGuard<'_, OutputBuffer> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Start reading a tokio child pipe (`ChildStdout` / `ChildStderr`).
pub(crate) fn start<P>(pipe: P, stream: StreamKind, shared: Arc<ReaderShared>) -> PipeReader
where
    P: std::os::fd::AsFd + IntoOwnedFd,
{
    // Best effort: the kernel caps it at /proc/sys/fs/pipe-max-size for unprivileged users.
    let _ = nix::fcntl::fcntl(&pipe, nix::fcntl::FcntlArg::F_SETPIPE_SZ(PIPE_BYTES));
    let (done_tx, done) = oneshot::channel();
    let stop = Arc::new(AtomicBool::new(false));
    match pipe.into_owned_fd() {
        Ok(fd) => {
            let thread_stop = Arc::clone(&stop);
            let thread_shared = Arc::clone(&shared);
            // The closure owns the fd; if the thread cannot start, it comes back through the
            // error-less path below by reopening nothing: build the closure lazily.
            let slot = Arc::new(Mutex::new(Some((fd, done_tx))));
            let thread_slot = Arc::clone(&slot);
            let spawned = std::thread::Builder::new()
                .name(format!("clawdeck-{}", stream.as_str()))
                .spawn(move || {
                    let taken = thread_slot
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .take();
                    if let Some((fd, done_tx)) = taken {
                        read_blocking(fd, stream, &thread_shared, &thread_stop);
                        let _ = done_tx.send(());
                    }
                });
            if spawned.is_err() {
                let taken = slot
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .take();
                if let Some((fd, done_tx)) = taken {
                    return start_task_from_fd(fd, stream, shared, stop, done_tx, done);
                }
            }
            PipeReader {
                done,
                stop,
                task: None,
            }
        }
        Err(err) => {
            tracing::debug!(stream = stream.as_str(), error = %err, "could not take the pipe's fd");
            PipeReader {
                done,
                stop,
                task: None,
            }
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

/// The fallback: read the fd on the async reactor.
fn start_task_from_fd(
    fd: OwnedFd,
    stream: StreamKind,
    shared: Arc<ReaderShared>,
    stop: Arc<AtomicBool>,
    done_tx: oneshot::Sender<()>,
    done: oneshot::Receiver<()>,
) -> PipeReader {
    let task = tokio::spawn(async move {
        match tokio::net::unix::pipe::Receiver::from_owned_fd(fd) {
            Ok(mut pipe) => {
                let mut buf = BytesMut::with_capacity(READ_BUFFER_BYTES);
                let mut reader = StreamReader::new(stream, &shared);
                loop {
                    if buf.capacity() - buf.len() < MIN_SPARE_BYTES {
                        buf.reserve(READ_BUFFER_BYTES);
                    }
                    let read = match reader.flush_due(&shared) {
                        // read_buf is cancel safe: a timed-out read took nothing.
                        Some(wait) => {
                            match tokio::time::timeout(wait, pipe.read_buf(&mut buf)).await {
                                Ok(read) => read,
                                Err(_) => continue,
                            }
                        }
                        None => pipe.read_buf(&mut buf).await,
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
                reader.finish(&shared);
            }
            Err(err) => {
                tracing::debug!(stream = stream.as_str(), error = %err, "could not register the pipe")
            }
        }
        let _ = done_tx.send(());
    });
    PipeReader {
        done,
        stop,
        task: Some(task.abort_handle()),
    }
}

fn read_blocking(fd: OwnedFd, stream: StreamKind, shared: &ReaderShared, stop: &AtomicBool) {
    let raw = fd.as_raw_fd();
    let mut buf = BytesMut::with_capacity(READ_BUFFER_BYTES);
    let mut reader = StreamReader::new(stream, shared);
    while !stop.load(Ordering::Relaxed) {
        // The fd is in blocking mode: wait for data only as long as a partial line may wait.
        if let Some(wait) = reader.flush_due(shared)
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
            Ok(_) => reader.consume(buf.split().freeze(), shared),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                wait_readable(raw, None);
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => {
                tracing::debug!(stream = stream.as_str(), error = %err, "process pipe read failed");
                break;
            }
        }
    }
    reader.finish(shared);
    drop(fd);
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
    stream: StreamKind,
    splitter: LineSplitter,
    batch: LineBatch,
    live: LiveText,
}

impl StreamReader {
    fn new(stream: StreamKind, shared: &ReaderShared) -> Self {
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
            text: piece.text,
            continues_line: piece.continues_line,
        };
        if let Some(callback) = &shared.on_chunk {
            callback(&chunk);
        }
        let _ = shared.chunks.send(chunk);
    }
}
