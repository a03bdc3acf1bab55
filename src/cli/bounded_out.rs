//! Stdout for a stream of lines whose reader may stop reading (`clawdeck gateway watch` into a
//! pipe nobody drains, a terminal on hold).
//!
//! Each line (what is written up to a `flush`) is queued for a writer thread; the command's
//! event loop never blocks on a full pipe. The queue holds at most `MAX_LINES` lines and
//! `MAX_BYTES` bytes: what does not fit is dropped and counted, and when a line fits again a
//! report of the count goes first, in the stream, where the gap is ("N events dropped: stdout
//! was not keeping up"). Memory stays bounded however long the reader is away. Once stdout
//! cannot be written at all (the reader left), `flush` fails, so the command ends as before.
//!
//! The queues in front of the output are bounded the same way (`lossy_channel`, the client's
//! `events_lossy`): they count what they drop in `drop_counter()`, and the next report includes
//! it. Otherwise a command that formats events more slowly than a flooding gateway sends them
//! would grow in front of its formatting instead.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::mpsc;

/// Lines queued at most.
pub const MAX_LINES: usize = 1024;
/// Events waiting in each queue in front of the output at most.
pub const MAX_EVENTS: usize = 1024;
/// Bytes queued at most (a single longer line is still queued when the queue is empty).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;
/// How long the end of the command waits for the reader to take what is queued.
const FINISH_WAIT: Duration = Duration::from_secs(2);

/// Why lines are dropped, as the report says.
pub const DROP_REASON: &str = "stdout was not keeping up";

/// The line reporting `n` dropped lines (with its newline).
pub type DropReport = fn(u64, bool) -> String;

/// The watch commands' report: a JSON line with `--json`, else text.
pub fn watch_drop_report(n: u64, json: bool) -> String {
    if json {
        format!(
            "{}\n",
            serde_json::json!({
                "event": "clawdeck.dropped",
                "kind": "dropped",
                "dropped": n,
                "reason": DROP_REASON,
            })
        )
    } else {
        format!("{n} events dropped: {DROP_REASON}\n")
    }
}

#[derive(Default)]
struct State {
    queue: VecDeque<Vec<u8>>,
    bytes: usize,
    /// Lines dropped since the last report was queued.
    dropped: u64,
    /// No more lines will come.
    closed: bool,
    /// The writer failed (the reader left): why.
    broken: Option<io::ErrorKind>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    report: DropReport,
    json: bool,
    /// Dropped by the queues in front of this output, not yet reported.
    upstream: Arc<AtomicU64>,
}

impl Shared {
    /// The state, with the upstream drops taken in.
    fn lock(&self) -> MutexGuard<'_, State> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.dropped += self.upstream.swap(0, Ordering::Relaxed);
        state
    }
}

/// A bounded queue whose sender never waits: when it is full, the item is dropped and counted
/// in `dropped` (a `BoundedOut::drop_counter()`, so the output reports it).
pub fn lossy_channel<T>(dropped: Arc<AtomicU64>) -> (LossySender<T>, mpsc::Receiver<T>) {
    let (tx, rx) = mpsc::channel(MAX_EVENTS);
    (LossySender { tx, dropped }, rx)
}

/// See `lossy_channel`.
pub struct LossySender<T> {
    tx: mpsc::Sender<T>,
    dropped: Arc<AtomicU64>,
}

impl<T> Clone for LossySender<T> {
    fn clone(&self) -> Self {
        LossySender {
            tx: self.tx.clone(),
            dropped: self.dropped.clone(),
        }
    }
}

/// The receiver is gone.
#[derive(Debug)]
pub struct Closed;

impl<T> LossySender<T> {
    /// Queues `item`, or drops and counts it when the queue is full.
    pub fn send(&self, item: T) -> Result<(), Closed> {
        match self.tx.try_send(item) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(Closed),
        }
    }
}

/// A `Write` whose flushed lines go to a bounded queue (see the module).
pub struct BoundedOut {
    shared: Arc<Shared>,
    /// Written since the last flush: the line being built.
    line: Vec<u8>,
    done: Receiver<()>,
}

impl BoundedOut {
    /// Lines for stdout, with the watch commands' drop report.
    pub fn watch_stdout(json: bool) -> BoundedOut {
        BoundedOut::start(io::stdout(), watch_drop_report, json)
    }

    /// Lines for `out`, written by a thread of their own.
    pub fn start(out: impl Write + Send + 'static, report: DropReport, json: bool) -> BoundedOut {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            report,
            json,
            upstream: Arc::default(),
        });
        let (done_tx, done) = sync_channel(1);
        let writer = shared.clone();
        std::thread::spawn(move || {
            write_lines(&writer, out);
            let _ = done_tx.send(());
        });
        BoundedOut {
            shared,
            line: Vec::new(),
            done,
        }
    }

    /// Where the queues in front of this output count what they drop (see the module).
    pub fn drop_counter(&self) -> Arc<AtomicU64> {
        self.shared.upstream.clone()
    }

    /// Queues one line, or drops and counts it when the queue is full.
    fn queue(&self, line: Vec<u8>) -> io::Result<()> {
        let mut state = self.shared.lock();
        if let Some(kind) = state.broken {
            return Err(io::Error::new(kind, "stdout cannot be written"));
        }
        let full = state.queue.len() >= MAX_LINES
            || (!state.queue.is_empty() && state.bytes + line.len() > MAX_BYTES);
        if full {
            state.dropped += 1;
            return Ok(());
        }
        push_report(&self.shared, &mut state);
        state.bytes += line.len();
        state.queue.push_back(line);
        self.shared.wake.notify_one();
        Ok(())
    }
}

/// Queues the report of the lines dropped so far (it may exceed the limits by its one line).
fn push_report(shared: &Shared, state: &mut State) {
    if state.dropped > 0 {
        let report = (shared.report)(state.dropped, shared.json).into_bytes();
        state.dropped = 0;
        state.bytes += report.len();
        state.queue.push_back(report);
    }
}

impl Write for BoundedOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(kind) = self.shared.lock().broken {
            return Err(io::Error::new(kind, "stdout cannot be written"));
        }
        self.line.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.line.is_empty() {
            return match self.shared.lock().broken {
                Some(kind) => Err(io::Error::new(kind, "stdout cannot be written")),
                None => Ok(()),
            };
        }
        let line = std::mem::take(&mut self.line);
        self.queue(line)
    }
}

impl Drop for BoundedOut {
    /// Queues what is left (and the last drop report), then waits a bounded time for the
    /// reader to take it.
    fn drop(&mut self) {
        let _ = self.flush();
        {
            let mut state = self.shared.lock();
            push_report(&self.shared, &mut state);
            state.closed = true;
            self.shared.wake.notify_one();
        }
        let _ = self.done.recv_timeout(FINISH_WAIT);
    }
}

/// The writer thread: writes queued lines in order until closed and drained, or until `out`
/// fails (then everything queued is dropped and producers learn of it).
fn write_lines(shared: &Shared, mut out: impl Write) {
    loop {
        let line = {
            let mut state = shared.lock();
            loop {
                if let Some(line) = state.queue.pop_front() {
                    state.bytes -= line.len();
                    break line;
                }
                if state.closed {
                    return;
                }
                state = shared.wake.wait(state).unwrap_or_else(|p| p.into_inner());
            }
        };
        if let Err(err) = out.write_all(&line).and_then(|()| out.flush()) {
            let mut state = shared.lock();
            state.broken = Some(err.kind());
            state.queue.clear();
            state.bytes = 0;
            return;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, SyncSender};

    /// A writer that writes only when the test lets it: each permit writes one chunk.
    struct Gated {
        permits: Receiver<()>,
        written: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gated {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.permits
                .recv()
                .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
            self.written.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn gated(json: bool) -> (BoundedOut, SyncSender<()>, Arc<Mutex<Vec<u8>>>) {
        let (permit, permits) = sync_channel(0);
        let written = Arc::new(Mutex::new(Vec::new()));
        let out = BoundedOut::start(
            Gated {
                permits,
                written: written.clone(),
            },
            watch_drop_report,
            json,
        );
        (out, permit, written)
    }

    fn text(written: &Mutex<Vec<u8>>) -> String {
        String::from_utf8(written.lock().unwrap().clone()).unwrap()
    }

    /// Lets the writer write until it has written `lines` lines (one permit per line, each
    /// given once the previous line landed).
    fn let_write(permit: &SyncSender<()>, written: &Mutex<Vec<u8>>, lines: usize) {
        loop {
            let now = text(written).lines().count();
            if now >= lines {
                return;
            }
            permit.send(()).unwrap();
            while text(written).lines().count() == now {
                std::thread::yield_now();
            }
        }
    }

    #[test]
    fn a_stuck_reader_costs_at_most_the_queue_and_the_gap_is_reported_in_place() {
        let (mut out, permit, written) = gated(false);
        // The first line is taken by the writer, which then waits for a permit.
        writeln!(out, "line 0").unwrap();
        out.flush().unwrap();
        while out.shared.lock().queue.len() == 1 {
            std::thread::yield_now();
        }
        let total = MAX_LINES + 500;
        for n in 1..=total {
            writeln!(out, "line {n}").unwrap();
            out.flush().unwrap();
        }
        {
            let state = out.shared.lock();
            assert_eq!(state.queue.len(), MAX_LINES);
            assert_eq!(state.dropped, 500);
        }
        let_write(&permit, &written, 1 + MAX_LINES);
        writeln!(out, "after").unwrap();
        out.flush().unwrap();
        let_write(&permit, &written, MAX_LINES + 3);
        let shown = text(&written);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[MAX_LINES], format!("line {MAX_LINES}"));
        assert_eq!(
            lines[MAX_LINES + 1],
            "500 events dropped: stdout was not keeping up"
        );
        assert_eq!(lines[MAX_LINES + 2], "after");
        drop(permit);
    }

    #[test]
    fn bytes_are_bounded_too_and_the_json_report_is_a_json_line() {
        let (mut out, permit, written) = gated(true);
        let big = "y".repeat(MAX_BYTES / 4);
        // The first line is taken by the writer, which then waits for a permit: nothing is
        // taken while the rest is queued (a writer taking lines meanwhile would let a report
        // through and reset the count).
        writeln!(out, "{big}").unwrap();
        out.flush().unwrap();
        while !out.shared.lock().queue.is_empty() {
            std::thread::yield_now();
        }
        for _ in 0..9 {
            writeln!(out, "{big}").unwrap();
            out.flush().unwrap();
        }
        {
            // Three lines of a quarter of the budget (and a newline each) fit, a fourth does not.
            let state = out.shared.lock();
            assert!(state.bytes <= MAX_BYTES);
            assert_eq!(state.queue.len(), 3);
            assert_eq!(state.dropped, 6);
        }
        drop(permit);
        // The writer is gone: the command learns the reader left.
        let started = std::time::Instant::now();
        loop {
            writeln!(out, "x").unwrap_or(());
            if out.flush().is_err() {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(10));
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = text(&written);
        let report = watch_drop_report(7, true);
        let v: serde_json::Value = serde_json::from_str(report.trim_end()).unwrap();
        assert_eq!(v["dropped"], 7);
        assert_eq!(v["kind"], "dropped");
        assert_eq!(v["reason"], DROP_REASON);
    }

    #[test]
    fn drops_before_the_output_are_reported_with_the_next_line() {
        let (mut out, permit, written) = gated(false);
        let (tx, mut rx) = lossy_channel::<u32>(out.drop_counter());
        for n in 0..MAX_EVENTS as u32 + 7 {
            tx.send(n).unwrap();
        }
        let first = rx.try_recv().unwrap();
        writeln!(out, "event {first}").unwrap();
        out.flush().unwrap();
        let_write(&permit, &written, 2);
        assert_eq!(
            text(&written),
            "7 events dropped: stdout was not keeping up\nevent 0\n"
        );
        drop(rx);
        assert!(tx.send(1).is_err(), "a closed queue says so");
        drop(permit);
    }

    #[test]
    fn what_is_queued_and_the_last_report_are_written_at_the_end() {
        let (tx, rx) = sync_channel::<()>(0);
        let written = Arc::new(Mutex::new(Vec::new()));
        let mut out = BoundedOut::start(
            Gated {
                permits: rx,
                written: written.clone(),
            },
            watch_drop_report,
            false,
        );
        writeln!(out, "line 0").unwrap();
        out.flush().unwrap();
        while !out.shared.lock().queue.is_empty() {
            std::thread::yield_now();
        }
        for n in 1..MAX_LINES + 10 {
            writeln!(out, "line {n}").unwrap();
            out.flush().unwrap();
        }
        let releaser = std::thread::spawn(move || while tx.send(()).is_ok() {});
        drop(out);
        releaser.join().unwrap();
        let shown = text(&written);
        let last = shown.lines().last().unwrap();
        assert!(
            last.ends_with("events dropped: stdout was not keeping up"),
            "{last}"
        );
    }
}
