//! Frame scheduling (codex's frame_requester + frame_rate_limiter): any number of
//! `schedule_frame()` calls coalesce into one `AppEvent::Draw`, drawn at most every
//! `MIN_FRAME_INTERVAL`. Nothing is drawn unless something asked for it, so an idle console
//! draws no frames and never polls.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::event::{AppEvent, AppEventSender};

/// About 60 frames per second at most.
pub(crate) const MIN_FRAME_INTERVAL: Duration = Duration::from_nanos(16_666_667);

/// A cloneable handle for asking for a redraw.
#[derive(Clone, Debug)]
pub(crate) struct FrameRequester {
    tx: Option<mpsc::UnboundedSender<Instant>>,
    /// Counts requests (tests and benchmarks read it).
    requests: Arc<AtomicU64>,
}

impl FrameRequester {
    /// Starts the scheduler task; draws arrive on `app_tx` as `AppEvent::Draw`.
    pub fn spawn(app_tx: AppEventSender) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run_scheduler(rx, app_tx));
        FrameRequester {
            tx: Some(tx),
            requests: Arc::default(),
        }
    }

    #[cfg(any(test, feature = "bench"))]
    /// A requester that only counts (widget tests).
    pub(crate) fn test_dummy() -> Self {
        FrameRequester {
            tx: None,
            requests: Arc::default(),
        }
    }

    /// Asks for a frame as soon as the rate limit allows.
    pub(crate) fn schedule_frame(&self) {
        self.schedule_frame_in(Duration::ZERO);
    }

    /// Asks for a frame after `delay` (countdowns that need the next second drawn).
    pub(crate) fn schedule_frame_in(&self, delay: Duration) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        if let Some(tx) = &self.tx {
            let _ = tx.send(Instant::now() + delay);
        }
    }

    #[cfg(test)]
    pub(crate) fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

async fn run_scheduler(mut rx: mpsc::UnboundedReceiver<Instant>, app_tx: AppEventSender) {
    let mut next: Option<Instant> = None;
    let mut last_draw: Option<Instant> = None;
    loop {
        let sleep = async {
            match next {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            request = rx.recv() => {
                let Some(mut at) = request else { break };
                if let Some(last) = last_draw {
                    at = at.max(last + MIN_FRAME_INTERVAL);
                }
                next = Some(next.map_or(at, |n| n.min(at)));
            }
            () = sleep => {
                next = None;
                last_draw = Some(Instant::now());
                if !app_tx.send(AppEvent::Draw) {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn many_requests_coalesce_into_one_draw() {
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx);
        for _ in 0..100 {
            frames.schedule_frame();
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
        let mut draws = 0;
        while let Ok(ev) = rx.try_recv() {
            assert!(matches!(ev, AppEvent::Draw));
            draws += 1;
        }
        assert_eq!(draws, 1);
        assert_eq!(frames.requests(), 100);
    }

    #[tokio::test]
    async fn draws_are_capped_at_sixty_per_second() {
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx);
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(500) {
            frames.schedule_frame();
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut draws = 0;
        while rx.try_recv().is_ok() {
            draws += 1;
        }
        assert!(draws <= 32, "{draws} draws in 500 ms");
        assert!(draws >= 10, "{draws} draws in 500 ms");
    }

    #[tokio::test]
    async fn later_requests_draw_promptly() {
        let (tx, mut rx) = AppEventSender::channel();
        let frames = FrameRequester::spawn(tx);
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let t = std::time::Instant::now();
            frames.schedule_frame();
            let ev = tokio::time::timeout(Duration::from_secs(2), rx.recv()).await;
            assert!(matches!(ev, Ok(Some(AppEvent::Draw))));
            assert!(t.elapsed() < Duration::from_millis(50), "{:?}", t.elapsed());
        }
    }

    #[tokio::test]
    async fn no_request_no_draw() {
        let (tx, mut rx) = AppEventSender::channel();
        let _frames = FrameRequester::spawn(tx);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(rx.try_recv().is_err());
    }
}
