//! Time as a dependency: views show elapsed times, countdowns and waits, and snapshot tests need
//! them stable, so every "now" comes from an injected clock.

use std::sync::Arc;
#[cfg(any(test, feature = "bench"))]
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

pub(crate) trait Clock: Send + Sync {
    /// Monotonic now (waits, elapsed times measured from `Instant`s).
    fn now(&self) -> Instant;
    /// Wall-clock now (countdowns to `SystemTime` deadlines the core reports).
    fn wall(&self) -> SystemTime;
}

/// The real monotonic clock.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn wall(&self) -> SystemTime {
        SystemTime::now()
    }
}

#[cfg(any(test, feature = "bench"))]
/// A clock that only moves when told to (tests).
#[derive(Debug, Clone)]
pub(crate) struct FixedClock {
    now: Arc<Mutex<(Instant, SystemTime)>>,
}

#[cfg(any(test, feature = "bench"))]
impl FixedClock {
    /// A clock at `now` whose wall time is `wall`.
    pub fn new(now: Instant, wall: SystemTime) -> Self {
        FixedClock {
            now: Arc::new(Mutex::new((now, wall))),
        }
    }

    /// A clock whose wall time is 2026-01-01T00:00:00Z.
    pub(crate) fn at_epoch_2026() -> Self {
        Self::new(
            Instant::now(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600),
        )
    }

    #[cfg(test)]
    pub(crate) fn advance(&self, by: Duration) {
        if let Ok(mut now) = self.now.lock() {
            now.0 += by;
            now.1 += by;
        }
    }

    fn get(&self) -> (Instant, SystemTime) {
        self.now
            .lock()
            .map(|n| *n)
            .unwrap_or_else(|e| *e.into_inner())
    }
}

#[cfg(any(test, feature = "bench"))]
impl Clock for FixedClock {
    fn now(&self) -> Instant {
        self.get().0
    }
    fn wall(&self) -> SystemTime {
        self.get().1
    }
}

pub(crate) type SharedClock = Arc<dyn Clock>;

/// `1h02m`, `3m04s`, `12.3s`, `850ms`: short durations for tables.
pub(crate) fn short_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.1}s", d.as_secs_f64())
    } else if ms < 3_600_000 {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    } else {
        format!("{}h{:02}m", ms / 3_600_000, (ms / 60_000) % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_moves_only_when_told() {
        let c = FixedClock::at_epoch_2026();
        let (a, w) = (c.now(), c.wall());
        c.advance(Duration::from_secs(3));
        assert_eq!(c.now() - a, Duration::from_secs(3));
        assert_eq!(
            c.wall().duration_since(w).ok(),
            Some(Duration::from_secs(3))
        );
    }

    #[test]
    fn durations_are_short() {
        assert_eq!(short_duration(Duration::from_millis(850)), "850ms");
        assert_eq!(short_duration(Duration::from_millis(12_340)), "12.3s");
        assert_eq!(short_duration(Duration::from_secs(184)), "3m04s");
        assert_eq!(short_duration(Duration::from_secs(3720)), "1h02m");
    }
}
