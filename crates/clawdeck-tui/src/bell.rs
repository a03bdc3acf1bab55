//! The terminal's bell for an arriving approval: one BEL (0x07) written by the console itself on
//! its one output path (stdout, between frames, from the UI task: never inside a frame and never
//! from gateway text, which is sanitized). `console.approvalBell: false` turns it off.

/// Rings the operator's terminal.
pub(crate) trait Bell: Send {
    fn ring(&mut self);
}

/// BEL on stdout, the stream the frames are drawn on.
pub(crate) struct TerminalBell;

impl Bell for TerminalBell {
    fn ring(&mut self) {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = out.write_all(b"\x07").and_then(|()| out.flush());
    }
}

/// A bell that counts its rings (tests).
#[cfg(test)]
#[derive(Default, Clone)]
pub(crate) struct RecordingBell(pub(crate) std::sync::Arc<std::sync::atomic::AtomicUsize>);

#[cfg(test)]
impl Bell for RecordingBell {
    fn ring(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}
