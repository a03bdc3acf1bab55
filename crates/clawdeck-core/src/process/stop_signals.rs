//! The signals that stop clawdeck: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout(1)`) and SIGHUP
//! (the terminal closed). The stop policy ([`super::stop`]) takes them for the whole process;
//! [`stop_signals`] is how a mode hears of one, to wind down (kill its runs, print what it has)
//! before the policy exits with 128 + the signal's number.

use std::future::Future;
use std::pin::Pin;

use nix::sys::signal::Signal;
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

    pub(crate) fn signal(self) -> Signal {
        match self {
            StopSignal::Interrupt => Signal::SIGINT,
            StopSignal::Terminate => Signal::SIGTERM,
            StopSignal::Hangup => Signal::SIGHUP,
        }
    }

    pub(crate) fn from_signal(signal: Signal) -> Option<StopSignal> {
        match signal {
            Signal::SIGINT => Some(StopSignal::Interrupt),
            Signal::SIGTERM => Some(StopSignal::Terminate),
            Signal::SIGHUP => Some(StopSignal::Hangup),
            _ => None,
        }
    }

    /// 128 + the signal's number (130, 143, 129), as a shell reports a command it ended.
    pub(crate) fn exit_code(self) -> i32 {
        128 + self.signal() as i32
    }
}

/// A future for the first stop signal. Under the stop policy it resolves when the policy took
/// one (at once if one already arrived); without it (the library in tests) it installs tokio's
/// handlers now, so a signal arriving before the first poll is not fatal.
pub fn stop_signals() -> Pin<Box<dyn Future<Output = StopSignal> + Send + 'static>> {
    if let Some(mut notice) = super::stop::listen() {
        return Box::pin(async move {
            loop {
                if let Some(signal) = *notice.borrow_and_update() {
                    return signal;
                }
                if notice.changed().await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        });
    }
    let streams = (
        signal(SignalKind::interrupt()).ok(),
        signal(SignalKind::terminate()).ok(),
        signal(SignalKind::hangup()).ok(),
    );
    Box::pin(async move {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_number() {
        assert_eq!(StopSignal::Interrupt.exit_code(), 130);
        assert_eq!(StopSignal::Terminate.exit_code(), 143);
        assert_eq!(StopSignal::Hangup.exit_code(), 129);
        assert_eq!(
            StopSignal::from_signal(Signal::SIGHUP),
            Some(StopSignal::Hangup)
        );
        assert_eq!(StopSignal::from_signal(Signal::SIGUSR1), None);
    }
}
