//! Cancellation combined from the caller and the run (seed 001 §4.3: `AbortSignal.any`).
//!
//! A tool watches one token; it fires when either the caller gives up (Ctrl-C, the console's
//! cancel key, a dropped request) or the run itself is stopped (queue clear, shutdown).

use tokio_util::sync::CancellationToken;

/// A token that fires when any of `sources` fires (or at once if one already has). Its
/// forwarding tasks end when it is cancelled, so callers cancel it once the call is over
/// (`CombinedGuard` does that on drop).
pub(crate) fn combine(sources: &[&CancellationToken]) -> CancellationToken {
    let combined = CancellationToken::new();
    for source in sources {
        if source.is_cancelled() {
            combined.cancel();
            return combined;
        }
    }
    for source in sources {
        let source = (*source).clone();
        let target = combined.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = source.cancelled() => target.cancel(),
                _ = target.cancelled() => {}
            }
        });
    }
    combined
}

/// Cancels the combined token when dropped, which also ends its forwarding tasks.
pub(crate) struct CombinedGuard(pub CancellationToken);

impl Drop for CombinedGuard {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn either_source_cancels_the_combination() {
        let caller = CancellationToken::new();
        let run = CancellationToken::new();
        let combined = combine(&[&caller, &run]);
        assert!(!combined.is_cancelled());
        run.cancel();
        tokio::time::timeout(std::time::Duration::from_secs(1), combined.cancelled())
            .await
            .unwrap();
        assert!(!caller.is_cancelled(), "the sources are not affected");
    }

    #[tokio::test]
    async fn already_cancelled_source_cancels_at_once() {
        let caller = CancellationToken::new();
        caller.cancel();
        assert!(combine(&[&caller, &CancellationToken::new()]).is_cancelled());
    }
}
