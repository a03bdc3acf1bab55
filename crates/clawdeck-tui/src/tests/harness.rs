//! The one test harness of the console tests: an `App` on a fixed clock with its event
//! channel, keys fed in as the terminal would, emitted intents pumped back as the event loop
//! does, and frames drawn on a `TestBackend`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::app::{App, RecordingClipboard};
use crate::clock::{Clock, FixedClock};
use crate::config::LoadedConfig;
use crate::event::{AppEvent, AppEventSender};
use crate::frame::FrameRequester;

/// A file of the console fixtures (tests/fixtures/tui).
pub(super) fn fixture(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/tui")
        .join(name)
}

/// The console fixture config under the seed pack.
pub(super) fn fixture_config() -> LoadedConfig {
    let text = std::fs::read_to_string(fixture("openclaw.json5")).expect("fixture config");
    crate::config::load_from_str(&text, "tests/fixtures/tui/openclaw.json5")
        .expect("fixture parses")
        .with_pack("seed")
        .expect("seed pack")
}

/// Draws one frame of `app` at `width`×`height`; every row ends with a newline.
pub(super) fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    crate::event_loop::draw(app, &mut terminal, false).expect("draw");
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

pub(super) struct Harness {
    pub(super) app: App,
    pub(super) rx: UnboundedReceiver<AppEvent>,
    pub(super) clock: FixedClock,
}

impl Harness {
    /// An App on the 2026-01-01 fixed clock over a deck of the fixture config, not shown yet; copies go to a recording
    /// clipboard and a per-process temp dir, never to the operator's.
    pub(super) fn new() -> Harness {
        let (tx, rx) = AppEventSender::channel();
        let clock = FixedClock::at_epoch_2026();
        let deck = crate::app::in_memory_deck(fixture_config());
        let mut app = App::new(
            deck,
            tx,
            FrameRequester::test_dummy(),
            Arc::new(clock.clone()),
        );
        app.clipboard = Box::new(RecordingClipboard::default());
        app.bell = Box::new(crate::bell::RecordingBell::default());
        app.copy_dir =
            std::env::temp_dir().join(format!("clawdeck-tui-test-{}", std::process::id()));
        // Never the operator's OpenClaw state (its approvals document).
        app.openclaw_state = None;
        // Verdicts must not depend on who runs the tests (root can change every file).
        app.exec_resolver =
            crate::exec_allowlist::PathResolver::new("/usr/bin:/bin", "/tmp").ignoring_ownership();
        Harness { app, rx, clock }
    }

    pub(super) fn key(&mut self, code: KeyCode) {
        self.key_mod(code, KeyModifiers::NONE);
    }

    pub(super) fn key_mod(&mut self, code: KeyCode, mods: KeyModifiers) {
        self.app
            .handle_event(AppEvent::Key(KeyEvent::new(code, mods)));
    }

    pub(super) fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    /// Events the app emitted since the last call.
    pub(super) fn emitted(&mut self) -> Vec<AppEvent> {
        let mut out = Vec::new();
        while let Ok(ev) = self.rx.try_recv() {
            out.push(ev);
        }
        out
    }

    /// Feeds the emitted intents back (what the event loop does), and what handling them emits
    /// (job results), until nothing is left; returns them.
    pub(super) fn pump(&mut self) -> Vec<String> {
        let mut names = Vec::new();
        for _ in 0..10 {
            let events = self.emitted();
            if events.is_empty() {
                break;
            }
            names.extend(events.iter().map(|e| format!("{e:?}")));
            for ev in events {
                self.app.handle_event(ev);
            }
        }
        names
    }

    /// Handles events as they arrive (from the core's tasks) until `done` holds.
    pub(super) async fn pump_until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(&self.app) {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.rx.recv()).await {
                Ok(Some(ev)) => self.app.handle_event(ev),
                _ => panic!("{what}: not within 10 s"),
            }
        }
    }

    /// Makes `ctx` the console's context and shows its policy resolution, which the console
    /// asks for off its task (what the event loop does with the result).
    pub(super) fn set_context(&mut self, ctx: crate::context::PolicyContext) {
        self.app.handle_event(AppEvent::SetContext(ctx));
        self.pump();
    }

    /// Asks the deck to read its config file again and handles what comes back (the reload
    /// runs as a job off the UI task, as in the console).
    pub(super) fn reload_config(&mut self) {
        self.app
            .handle_event(AppEvent::Core(crate::event::CoreEvent::ConfigFileChanged));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.rx.try_recv() {
                Ok(ev) => {
                    let reloaded =
                        matches!(ev, AppEvent::Core(crate::event::CoreEvent::Reloaded { .. }));
                    self.app.handle_event(ev);
                    if reloaded {
                        return;
                    }
                }
                Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => panic!("the reload did not come back within 10 s: {e}"),
            }
        }
    }

    /// The console over a deck that reads its config from `path` (reloads read it again).
    pub(super) fn on_config_file(&mut self, path: &std::path::Path) {
        let deck = crate::deck::Deck::load(Some(path), &crate::mcp_servers::ServerListing::Off)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        self.app.attach_deck(deck);
    }

    /// The context bar (the screen's second row: both its lines fit 160 columns).
    pub(super) fn context_bar(&mut self) -> String {
        let terminal = self.draw(160, 30);
        trimmed_rows(terminal.backend().buffer())
            .lines()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    }

    pub(super) fn draw(&mut self, width: u16, height: u16) -> Terminal<TestBackend> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        crate::event_loop::draw(&mut self.app, &mut terminal, false).expect("draw");
        terminal
    }

    /// The frame as text, every row ending with a newline.
    pub(super) fn screen(&mut self, width: u16, height: u16) -> String {
        screen(&mut self.app, width, height)
    }

    /// The frame as text with trailing blanks cut and rows joined by newlines.
    pub(super) fn screen_trimmed(&mut self, width: u16, height: u16) -> String {
        let terminal = self.draw(width, height);
        trimmed_rows(terminal.backend().buffer())
    }

    pub(super) fn wall(&self) -> SystemTime {
        self.clock.wall()
    }

    /// The status line's text, empty when there is none.
    pub(super) fn status(&self) -> String {
        self.app
            .status
            .as_ref()
            .map(|(s, _)| s.clone())
            .unwrap_or_default()
    }
}

/// A buffer as text: trailing blanks cut, rows joined by newlines.
pub(crate) fn trimmed_rows(buf: &ratatui::buffer::Buffer) -> String {
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `f` with the context a view gets: a channel nobody reads, the fixed 2026 clock and
/// the default keys.
pub(crate) fn with_view_ctx<R>(f: impl FnOnce(&crate::views::ViewCtx) -> R) -> R {
    let (tx, _rx) = AppEventSender::channel();
    let clock = FixedClock::at_epoch_2026();
    let keymap = crate::keymap::Keymap::default();
    f(&crate::views::ViewCtx {
        tx: &tx,
        clock: &clock,
        keymap: &keymap,
    })
}

/// A view drawn alone at `w`x`h` by `render`, as the console draws it.
pub(crate) fn draw_view(
    w: u16,
    h: u16,
    render: impl FnOnce(ratatui::layout::Rect, &mut ratatui::buffer::Buffer, &crate::views::ViewCtx),
) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    with_view_ctx(|ctx| {
        terminal
            .draw(|f| render(f.area(), f.buffer_mut(), ctx))
            .unwrap()
    });
    trimmed_rows(terminal.backend().buffer())
}

/// The Sessions view drawn alone at `w`x`h`, as the console draws it.
pub(crate) fn draw_sessions_view(
    view: &mut crate::views::sessions::SessionsView,
    w: u16,
    h: u16,
) -> String {
    draw_view(w, h, |area, buf, ctx| view.render(area, buf, ctx))
}
