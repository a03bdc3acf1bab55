//! What the MCP HTTP endpoint is doing, for people: where it listens, how many connections are
//! open against its limit, how many were refused, and the last thing that went wrong. The
//! listener updates it; the Deck holds it so the console can show it; `clawdeck mcp` prints its
//! warnings on stderr (once per streak of refusals or accept errors, not once per connection).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Where a warning goes (stderr for `clawdeck mcp`; the console shows the status instead).
pub(crate) type WarningSink = Arc<dyn Fn(String) + Send + Sync>;

/// The endpoint's shared state. Cheap to clone.
#[derive(Clone)]
pub struct EndpointMonitor {
    state: Arc<State>,
    warn: WarningSink,
}

struct State {
    url: String,
    serving: AtomicBool,
    open: AtomicUsize,
    limit: AtomicUsize,
    refused: AtomicU64,
    /// Set from the first refusal until a connection is admitted again.
    refusing: AtomicBool,
    accept_failures: AtomicU64,
    last_error: Mutex<Option<String>>,
}

/// A snapshot of the endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointStatus {
    /// `http://127.0.0.1:8765/mcp`.
    pub url: String,
    /// False once the listener has stopped.
    pub serving: bool,
    pub open: usize,
    /// The connection cap in force (0 before the first connection).
    pub limit: usize,
    /// Connections closed on arrival because `limit` were open.
    pub refused: u64,
    /// Failed `accept()` calls (out of file descriptors, ...).
    pub accept_failures: u64,
    pub last_error: Option<String>,
}

impl EndpointStatus {
    /// One line: `MCP http://127.0.0.1:8765/mcp: 3 open (limit 128), 12 refused; last error: …`.
    pub fn summary(&self) -> String {
        let mut line = format!("MCP {}: ", self.url);
        if !self.serving {
            line.push_str("stopped");
        } else if self.limit > 0 {
            line.push_str(&format!("{} open (limit {})", self.open, self.limit));
        } else {
            line.push_str(&format!("{} open", self.open));
        }
        if self.refused > 0 {
            line.push_str(&format!(", {} refused", self.refused));
        }
        if self.accept_failures > 0 {
            line.push_str(&format!(", {} failed accepts", self.accept_failures));
        }
        if let Some(error) = &self.last_error {
            line.push_str(&format!("; last error: {error}"));
        }
        line
    }
}

/// One admitted connection; the open count drops when it ends.
pub struct ConnectionSlot {
    state: Arc<State>,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.state.open.fetch_sub(1, Ordering::AcqRel);
    }
}

impl EndpointMonitor {
    pub fn new(url: impl Into<String>, warn: WarningSink) -> EndpointMonitor {
        EndpointMonitor {
            state: Arc::new(State {
                url: url.into(),
                serving: AtomicBool::new(true),
                open: AtomicUsize::new(0),
                limit: AtomicUsize::new(0),
                refused: AtomicU64::new(0),
                refusing: AtomicBool::new(false),
                accept_failures: AtomicU64::new(0),
                last_error: Mutex::new(None),
            }),
            warn,
        }
    }

    /// A monitor whose warnings only go to the diagnostics log (the console shows the status).
    pub fn quiet(url: impl Into<String>) -> EndpointMonitor {
        EndpointMonitor::new(
            url,
            Arc::new(|warning: String| tracing::warn!("MCP endpoint: {warning}")),
        )
    }

    pub fn status(&self) -> EndpointStatus {
        let state = &self.state;
        EndpointStatus {
            url: state.url.clone(),
            serving: state.serving.load(Ordering::Acquire),
            open: state.open.load(Ordering::Acquire),
            limit: state.limit.load(Ordering::Acquire),
            refused: state.refused.load(Ordering::Acquire),
            accept_failures: state.accept_failures.load(Ordering::Acquire),
            last_error: self.last_error(),
        }
    }

    fn last_error(&self) -> Option<String> {
        self.state
            .last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn record_error(&self, error: String) {
        *self
            .state
            .last_error
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(error);
    }

    /// A slot for a new connection, or None (counted, and said once per streak) when `limit`
    /// are open already.
    pub fn admit(&self, limit: usize) -> Option<ConnectionSlot> {
        let state = &self.state;
        state.limit.store(limit, Ordering::Release);
        let open = state.open.fetch_add(1, Ordering::AcqRel);
        if open < limit {
            if state.refusing.swap(false, Ordering::AcqRel) {
                (self.warn)(format!(
                    "accepting connections again ({} refused so far)",
                    state.refused.load(Ordering::Acquire)
                ));
            }
            return Some(ConnectionSlot {
                state: Arc::clone(state),
            });
        }
        state.open.fetch_sub(1, Ordering::AcqRel);
        let refused = state.refused.fetch_add(1, Ordering::AcqRel) + 1;
        let error = format!(
            "connection refused: {open} connections open, the limit (clawdeck.json5 mcp.http.maxConnections); {refused} refused so far"
        );
        self.record_error(error.clone());
        if !state.refusing.swap(true, Ordering::AcqRel) {
            (self.warn)(error);
        }
        None
    }

    /// An `accept()` failed; the `failures`th in a row (the first is said).
    pub fn accept_failed(&self, error: &std::io::Error, failures: u64) {
        self.state.accept_failures.fetch_add(1, Ordering::AcqRel);
        let error = format!("accepting a connection failed: {error}");
        self.record_error(error.clone());
        if failures == 1 {
            (self.warn)(format!("{error}; retrying with a pause, still serving"));
        }
    }

    /// `accept()` works again after `failures` failed calls.
    pub fn accepting_again(&self, failures: u64) {
        (self.warn)(format!(
            "accepting connections again after {failures} failed attempts"
        ));
    }

    /// The listener has ended.
    pub fn stopped(&self) {
        self.state.serving.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording() -> (EndpointMonitor, Arc<Mutex<Vec<String>>>) {
        let said = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&said);
        let monitor = EndpointMonitor::new(
            "http://127.0.0.1:1/mcp",
            Arc::new(move |w: String| sink.lock().unwrap_or_else(|p| p.into_inner()).push(w)),
        );
        (monitor, said)
    }

    #[test]
    fn connections_over_the_limit_are_refused_counted_and_said_once_per_streak() {
        let (monitor, said) = recording();
        let first = monitor.admit(2);
        let second = monitor.admit(2);
        assert!(first.is_some() && second.is_some());
        assert!(monitor.admit(2).is_none());
        assert!(monitor.admit(2).is_none());
        let status = monitor.status();
        assert_eq!((status.open, status.limit, status.refused), (2, 2, 2));
        assert!(
            status
                .summary()
                .starts_with("MCP http://127.0.0.1:1/mcp: 2 open (limit 2), 2 refused; last error: connection refused"),
            "{}",
            status.summary()
        );
        drop(first);
        assert_eq!(monitor.status().open, 1);
        let third = monitor.admit(2);
        assert!(third.is_some());
        let said = said.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("2 connections open"), "{said:?}");
        assert!(said[1].contains("accepting connections again"), "{said:?}");
    }

    #[test]
    fn accept_errors_are_kept_and_said_once_per_streak() {
        let (monitor, said) = recording();
        let emfile = std::io::Error::from_raw_os_error(libc::EMFILE);
        for failures in 1..=3 {
            monitor.accept_failed(&emfile, failures);
        }
        monitor.accepting_again(3);
        let status = monitor.status();
        assert_eq!(status.accept_failures, 3);
        assert!(
            status
                .last_error
                .as_deref()
                .is_some_and(|e| e.contains("Too many open files")),
            "{status:?}"
        );
        monitor.stopped();
        assert!(monitor.status().summary().contains(": stopped"));
        let said = said.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert_eq!(said.len(), 2, "{said:?}");
    }
}
