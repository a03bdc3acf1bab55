//! The signals that stop clawdeck: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout(1)`) and SIGHUP
//! (the terminal closed). The stop policy ([`super::stop`]) takes them for the whole process;
//! [`stop_signals`] is how a mode hears of one, to wind down (kill its runs, print what it has)
//! before the policy exits with 128 + the signal's number.

use std::future::Future;
use std::pin::Pin;

use tokio::signal::unix::{SignalKind, signal};

pub use super::stop::StopSignal;

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
    use nix::sys::signal::Signal;

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
