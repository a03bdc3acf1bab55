//! A run's raw output: sanitized by `crate::sanitize`, kept in a bounded line buffer (`buffer`), and the
//! scrollable pane that draws only the visible slice (`pane`).

pub(crate) mod buffer;
pub(crate) mod pane;

pub(crate) use buffer::{StreamBuffer, StreamKind};
pub(crate) use pane::{StreamPane, StreamPaneState};
