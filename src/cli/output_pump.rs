//! Live output for a reader that may not read (`clawdeck route ... | slow-or-stuck`).
//!
//! Writes go through a thread with a bounded queue: the run's event loop never blocks on a full
//! pipe, memory stays bounded (what does not fit is dropped and counted), and at the end the
//! command waits only a bounded time for the reader before it exits anyway.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::Duration;

use crate::sanitize::StdStream;

/// Chunks queued for the writer thread at most.
const QUEUE_CHUNKS: usize = 256;

pub struct OutputPump {
    queue: Option<SyncSender<Vec<u8>>>,
    dropped: Arc<AtomicU64>,
    done: Receiver<()>,
}

impl OutputPump {
    pub fn start(stream: StdStream) -> OutputPump {
        let (queue, chunks) = sync_channel::<Vec<u8>>(QUEUE_CHUNKS);
        let (done_tx, done) = sync_channel(1);
        let dropped = Arc::new(AtomicU64::new(0));
        std::thread::spawn(move || {
            for chunk in chunks {
                // A closed or failing stream: keep draining so senders never block.
                let _ = match stream {
                    StdStream::Stdout => {
                        super::quiet_out::write_stdout(&chunk);
                        Ok(())
                    }
                    StdStream::Stderr => {
                        let mut out = std::io::stderr();
                        out.write_all(&chunk).and_then(|()| out.flush())
                    }
                };
            }
            let _ = done_tx.send(());
        });
        OutputPump {
            queue: Some(queue),
            dropped,
            done,
        }
    }

    /// Queues `bytes`; when the reader is too far behind they are dropped and counted.
    pub fn send(&self, bytes: Vec<u8>) {
        let Some(queue) = &self.queue else { return };
        match queue.try_send(bytes) {
            Ok(()) => {}
            Err(TrySendError::Full(bytes) | TrySendError::Disconnected(bytes)) => {
                self.dropped
                    .fetch_add(bytes.len() as u64, Ordering::Relaxed);
            }
        }
    }

    /// Bytes dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Ends the queue and waits up to `wait` for the reader to take what is queued; false when
    /// it did not (the rest is abandoned when the process exits).
    pub fn finish(mut self, wait: Duration) -> bool {
        self.queue = None;
        self.done.recv_timeout(wait).is_ok()
    }
}
