//! The console's event loop: one channel in, the App's handling, and frames drawn only when
//! asked for (apart from `app` and `ui`, so the chrome can read the App without the App
//! reaching back for the chrome).

use std::sync::atomic::Ordering;

use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc::UnboundedReceiver;

use super::app::App;
use super::event::{AppEvent, CoreEvent};

/// Runs the event loop until quit: one channel in, frames out only when asked for.
///
/// Each turn takes everything queued and handles the operator's input and the App's intents
/// first, in their order, then the output (router, gateway and queue events) and at most one
/// frame: a key never waits behind a backlog of output or a frame. Input that changed the
/// screen is drawn at the end of its turn, without waiting for the frame scheduler's next slot
/// (the scheduler's 60 fps cap is for output, which comes much faster than keys).
pub(crate) async fn run_loop<B: Backend>(
    app: &mut App,
    terminal: &mut Terminal<B>,
    rx: &mut UnboundedReceiver<AppEvent>,
    synchronized: bool,
) -> Result<(), B::Error> {
    app.frames.schedule_frame();
    let mut later = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut draw_due = false;
        // This turn takes what was queued when it began; what comes meanwhile waits for the next.
        let mut left = rx.len();
        let mut next = Some(first);
        while let Some(event) = next.take().or_else(|| {
            left = left.checked_sub(1)?;
            rx.try_recv().ok()
        }) {
            match event {
                AppEvent::Draw => draw_due = true,
                output if is_output(&output) => later.push(output),
                input if is_input(&input) => draw_due |= app.handle_and_ask_for_frame(input),
                other => app.handle_event(other),
            }
            if app.quit {
                break;
            }
        }
        for output in later.drain(..) {
            app.handle_event(output);
        }
        if app.quit {
            break;
        }
        if draw_due {
            draw(app, terminal, synchronized)?;
        }
    }
    Ok(())
}

/// The operator's input.
fn is_input(event: &AppEvent) -> bool {
    matches!(
        event,
        AppEvent::Key(_) | AppEvent::Mouse(_) | AppEvent::Paste(_) | AppEvent::Resize
    )
}

/// Events that report output or progress of work (they may wait behind the operator's keys).
fn is_output(event: &AppEvent) -> bool {
    matches!(
        event,
        AppEvent::Core(
            CoreEvent::Router(..)
                | CoreEvent::RouterLagged(_)
                | CoreEvent::Gateway { .. }
                | CoreEvent::Pulse { .. }
                | CoreEvent::Queue(_)
                | CoreEvent::QueueLagged(_)
        )
    )
}

/// Draws one frame (inside a synchronized update on real terminals, so it appears at once).
pub(crate) fn draw<B: Backend>(
    app: &mut App,
    terminal: &mut Terminal<B>,
    synchronized: bool,
) -> Result<(), B::Error> {
    if synchronized {
        let _ = crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::BeginSynchronizedUpdate
        );
    }
    app.before_draw();
    let result = terminal.draw(|frame| super::ui::render(app, frame));
    if synchronized {
        let _ = crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::EndSynchronizedUpdate
        );
    }
    result?;
    app.stats.frames_drawn.fetch_add(1, Ordering::Relaxed);
    Ok(())
}
