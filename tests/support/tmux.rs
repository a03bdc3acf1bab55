//! A tmux server of the test's own with one session: the real terminal the end-to-end tests
//! drive the console in.

#![allow(clippy::expect_used)]

use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux session on a server of its own.
pub struct Tmux {
    pub session: String,
    /// A server of its own (`tmux -L`), so options such as set-clipboard touch nobody else.
    pub socket: String,
}

impl Tmux {
    /// A detached session of `width`×`height` running a clean interactive shell.
    pub fn start(name: &str, width: u16, height: u16) -> Tmux {
        let tmux = Tmux {
            session: format!("clawdeck-{name}-{}", std::process::id()),
            socket: format!("clawdeck-{name}-{}", std::process::id()),
        };
        let shell = "env -i PATH=/usr/bin:/bin HOME=/tmp TERM=xterm-256color PS1='E2E-SHELL$ ' bash --norc --noprofile -i";
        let (w, h) = (width.to_string(), height.to_string());
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            &tmux.session,
            "-x",
            &w,
            "-y",
            &h,
            shell,
        ]);
        tmux.wait_for("E2E-SHELL$", Duration::from_secs(5));
        tmux
    }

    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs (these tests are #[ignore]d where it is missing)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types a shell command and Enter.
    pub fn command(&self, line: &str) {
        self.text(line);
        self.keys(&["Enter"]);
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.session];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub fn text(&self, text: &str) {
        self.run(&["send-keys", "-t", &self.session, "-l", text]);
    }

    pub fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", &self.session])
    }

    pub fn display(&self, format: &str) -> String {
        self.run(&["display-message", "-p", "-t", &self.session, format])
            .trim()
            .to_string()
    }

    /// Waits until the screen contains `needle`; panics with the screen after `timeout`.
    pub fn wait_for(&self, needle: &str, timeout: Duration) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!("`{needle}` did not appear within {timeout:?}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Presses `key` until the screen contains `needle`, for lists that may still reorder
    /// under the selection (the console keeps the selected item, not the row, when they do);
    /// panics with the screen after `timeout`.
    pub fn press_until(&self, key: &str, needle: &str, timeout: Duration) -> String {
        let start = Instant::now();
        loop {
            self.keys(&[key]);
            std::thread::sleep(Duration::from_millis(200));
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!(
                    "`{needle}` did not appear within {timeout:?} of `{key}`; screen:\n{screen}"
                );
            }
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}
