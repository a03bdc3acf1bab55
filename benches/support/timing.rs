//! What the benchmarks' figures are made of: the median of timed rounds, in milliseconds.

// Each bench takes what it needs of these.
#![allow(dead_code)]

use std::time::Duration;

/// The middle round (the upper one of an even count); rounds are never empty.
pub fn median<T: PartialOrd + Copy>(mut rounds: Vec<T>) -> T {
    rounds.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    rounds[rounds.len() / 2]
}

pub fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
