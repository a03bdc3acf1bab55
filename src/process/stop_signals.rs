//! The signals that end a headless command: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout(1)`) and
//! SIGHUP (the terminal closed). `route` and `invoke` treat each as a cancel that kills the child
//! trees and waits for them, instead of dying and leaving them running.

use tokio::signal::unix::{SignalKind, signal};

/// Which stop signal arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    Interrupt,
    Terminate,
    Hangup,
}

impl StopSignal {
    /// How messages name it (`Ctrl-C` for SIGINT, as the operator pressed it).
    pub fn label(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "Ctrl-C",
            StopSignal::Terminate => "SIGTERM",
            StopSignal::Hangup => "SIGHUP",
        }
    }
}

/// Installs the handlers now (so a signal arriving before the first poll of
/// the returned future is not fatal) and returns a future for the first stop signal.
pub fn stop_signals() -> impl std::future::Future<Output = StopSignal> + Send + 'static {
    let streams = (
        signal(SignalKind::interrupt()).ok(),
        signal(SignalKind::terminate()).ok(),
        signal(SignalKind::hangup()).ok(),
    );
    async move {
        let (mut interrupt, mut terminate, mut hangup) = streams;
        async fn recv(stream: &mut Option<tokio::signal::unix::Signal>) {
            match stream {
                Some(stream) => {
                    stream.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        tokio::select! {
            _ = recv(&mut interrupt) => StopSignal::Interrupt,
            _ = recv(&mut terminate) => StopSignal::Terminate,
            _ = recv(&mut hangup) => StopSignal::Hangup,
        }
    }
}
