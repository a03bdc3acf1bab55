//! `y` copies a router run's complete record: every line the run printed, in order, up to the
//! record's stated cap, and a last line (and the status) saying after which line it stopped
//! and how much was not kept. Never a silent gap.

use crossterm::event::KeyCode;

use super::harness::{Harness, fixture_config};
use crate::app::RecordingClipboard;
use crate::config::settings::RouterSettings;
use crate::event::{AppEvent, CoreEvent};
use crate::views::ViewId;

/// A router service whose CLI is `bin`, whatever OPENCLAW_BIN says.
fn service(bin: &std::path::Path) -> crate::router::RouterService {
    let env: crate::router::service::EnvLookup = std::sync::Arc::new(|k: &str| {
        if k == "OPENCLAW_BIN" {
            None
        } else {
            std::env::var(k).ok()
        }
    });
    crate::router::RouterService::with_env(
        RouterSettings {
            bin: bin.display().to_string(),
            default_agent: Some("ops".into()),
            ..RouterSettings::default()
        },
        env,
    )
}

const LINES: usize = 200_000;

fn flood_line(n: usize) -> String {
    format!("flood line {n:06} the quick brown fox jumps over the lazy dog")
}

#[tokio::test]
async fn a_copy_after_a_200k_line_flood_has_every_line_up_to_its_stated_cap() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("flood");
    // 200k lines of 62 bytes: 12 MB, past the record's 8 MiB cap, in reads of many sizes.
    std::fs::write(
        &bin,
        format!(
            "#!/bin/sh\nawk 'BEGIN {{ for (i = 1; i <= {LINES}; i++) printf \"flood line %06d the quick brown fox jumps over the lazy dog\\n\", i }}'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    let clip = RecordingClipboard::default();
    h.app.clipboard = Box::new(clip.clone());
    h.app.copy_dir = dir.path().join("copies");
    let router = service(&bin);
    let mut events = router.subscribe();
    let handle = router
        .start(crate::router::RouterRequest::new("flood"))
        .unwrap();
    h.app.attach_deck(crate::deck::Deck::with_router(
        fixture_config(),
        router.clone(),
    ));
    let started = events.recv().await.unwrap();
    h.app.handle_event(AppEvent::Core(CoreEvent::Router(
        started,
        crate::deck::paced::Permit::none(),
    )));
    h.app.handle_event(AppEvent::SwitchView(ViewId::Router));
    handle.wait().await;
    h.app.status = None;
    h.key(KeyCode::Char('y'));
    h.pump_until("the copy's status", |app| {
        app.status
            .as_ref()
            .is_some_and(|(s, _)| s.contains("router-run-"))
    })
    .await;
    let status = h.status();

    let file = dir.path().join("copies/router-run-1.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (marker, output) = lines.split_last().unwrap();
    // Every line from the first, in order, whole: no gap, no cut line.
    for (i, line) in output.iter().enumerate() {
        assert_eq!(*line, flood_line(i + 1), "line {} of the copy", i + 1);
    }
    let kept = output.len();
    assert!(kept > 100_000 && kept < LINES, "{kept} lines kept");
    assert!(
        text.len() <= crate::router::service::RAW_LIMIT_BYTES + marker.len() + 1,
        "the cap is the record's: {} bytes",
        text.len()
    );
    // The last line says where the record stopped and what was not kept.
    let not_kept = LINES - kept;
    let line_bytes = flood_line(1).len() + 1;
    assert_eq!(
        *marker,
        format!(
            "[clawdeck: the record stops here after line {kept}: the record keeps the first {} bytes of output, under its 8 MiB cap; {not_kept} more lines ({} bytes) were not kept]",
            kept * line_bytes,
            not_kept * line_bytes
        )
    );
    // So does the console's note, with the file.
    assert!(
        status.contains(&format!("{kept} lines")) && status.contains(&file.display().to_string()),
        "{status}"
    );
    assert!(
        status.contains(&format!(
            "the record stops at its 8 MiB cap after line {kept}: {not_kept} more lines"
        )),
        "{status}"
    );
    // The clipboard got the same complete text (the terminal's OSC 52 cap is the real
    // clipboard's business: it refuses this size and the file is the copy).
    assert_eq!(
        clip.0.lock().unwrap().as_slice(),
        std::slice::from_ref(&text)
    );
}
