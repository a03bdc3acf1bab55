//! Notices a config edit while `clawdeck mcp` runs: the OpenClaw config and clawdeck.json5 are
//! polled for a changed modification time or size and the Deck reloads (which tells the
//! sessions, see `host`). A broken edit keeps the last good config and says where it broke.
//! The console has its own watcher and reloads the same Deck.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use tokio_util::sync::CancellationToken;

use crate::deck::Deck;

/// How often the files are looked at.
pub const POLL_EVERY: Duration = Duration::from_millis(500);

type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &PathBuf) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

fn watched_files(deck: &Deck) -> Vec<PathBuf> {
    let config = deck.config();
    let mut files: Vec<PathBuf> = config.path.iter().cloned().collect();
    if let Some(settings) = &config.settings_path {
        files.push(settings.clone());
    } else if let Some(dir) = config.path.as_ref().and_then(|p| p.parent()) {
        // A clawdeck.json5 created beside the config later counts too.
        files.push(dir.join(crate::config::SETTINGS_FILE));
    }
    files
}

/// Runs until `cancel` fires. `on_error` gets each failed reload's located message.
pub async fn watch_config(
    deck: Deck,
    cancel: CancellationToken,
    on_error: impl Fn(String) + Send + 'static,
) {
    let mut files = watched_files(&deck);
    let mut stamps: Vec<Stamp> = files.iter().map(stamp).collect();
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(POLL_EVERY) => {}
        }
        let now: Vec<Stamp> = files.iter().map(stamp).collect();
        if now == stamps {
            continue;
        }
        stamps = now;
        // Loading reads plugin manifests and skills: keep it off the async workers.
        let reload_deck = deck.clone();
        match tokio::task::spawn_blocking(move || reload_deck.reload()).await {
            Ok(Ok(_)) => {
                files = watched_files(&deck);
                stamps = files.iter().map(stamp).collect();
            }
            Ok(Err(err)) => on_error(format!("config change not applied: {err}")),
            Err(join) => on_error(format!("config reload stopped: {join}")),
        }
    }
}
