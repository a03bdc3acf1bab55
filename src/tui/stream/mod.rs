//! A run's raw output: sanitized by `crate::term`, kept in a bounded line buffer (`buffer`), and the
//! scrollable pane that draws only the visible slice (`pane`).

pub mod buffer;
pub mod pane;

pub use buffer::{StreamBuffer, StreamKind, StreamLine};
pub use pane::{StreamPane, StreamPaneState};
