//! Notices a config edit while `clawdeck mcp` runs: the OpenClaw config and clawdeck.json5 are
//! polled for a changed modification time or size and the Deck reloads (which tells the
//! sessions, see `host`). A broken edit keeps the last good config and says where it broke.
//! The console has its own watcher and reloads the same Deck.

use tokio_util::sync::CancellationToken;

use crate::config::watch::{FileStamps, POLL_EVERY, watched_paths};
use crate::deck::Deck;

/// Runs until `cancel` fires. `on_error` gets each failed reload's located message.
pub async fn watch_config(
    deck: Deck,
    cancel: CancellationToken,
    on_error: impl Fn(String) + Send + 'static,
) {
    let mut files = FileStamps::new(watched_paths(&deck.config()));
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(POLL_EVERY) => {}
        }
        if !files.changed() {
            continue;
        }
        // Loading reads plugin manifests and skills: keep it off the async workers.
        let reload_deck = deck.clone();
        match tokio::task::spawn_blocking(move || reload_deck.reload()).await {
            // The new config may name other files (a settings file created beside it).
            Ok(Ok(state)) => files = FileStamps::new(watched_paths(&state.config)),
            Ok(Err(err)) => on_error(format!("config change not applied: {err}")),
            Err(join) => on_error(format!("config reload stopped: {join}")),
        }
    }
}
