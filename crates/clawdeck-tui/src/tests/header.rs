//! The header while the installed `openclaw --version` has not answered (the first frame never
//! waits for it), and after the answer switched the pack.

use super::harness::{Harness, fixture_config, trimmed_rows};
use crate::context_bar::DETECTING_OPENCLAW;
use crate::event::{AppEvent, CoreEvent};
use crate::semantics::Installed;

/// The context bar's rows of a full frame (row 0, the tab bar, is not the bar's).
fn context_rows(h: &mut Harness, width: u16, height: u16) -> String {
    let terminal = h.draw(width, height);
    let rows = trimmed_rows(terminal.backend().buffer());
    let openclaw = h.app.config().map(|c| &c.pack.installed);
    let bar = crate::context_bar::bar_height(
        &h.app.context,
        h.app.policy.resolution.as_ref().map(|r| &r.resolved),
        openclaw,
        width,
    );
    rows.lines()
        .skip(1)
        .take(usize::from(bar))
        .collect::<Vec<_>>()
        .join("\n")
}

fn detecting_config() -> crate::config::LoadedConfig {
    let mut config = fixture_config();
    config.pack.installed = Installed::Detecting;
    config
}

#[test]
fn the_header_says_the_openclaw_version_is_being_detected() {
    let mut h = Harness::new();
    h.app.set_config(detecting_config());
    let bar = context_rows(&mut h, 120, 30);
    assert!(bar.contains(DETECTING_OPENCLAW), "{bar}");
    assert!(bar.contains("sandbox"), "the context is still shown: {bar}");
    insta::assert_snapshot!("header_detecting_openclaw_version", bar);
}

#[test]
fn a_config_that_named_its_version_says_nothing_about_detection() {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    let bar = context_rows(&mut h, 120, 30);
    assert!(!bar.contains("OpenClaw"), "{bar}");
}

#[test]
fn the_answer_switches_the_pack_and_the_header_shows_the_version() {
    let mut h = Harness::new();
    let deck = crate::deck::Deck::new(detecting_config(), None, &Default::default());
    h.app.attach_deck(deck.clone());
    assert!(context_rows(&mut h, 160, 30).contains(DETECTING_OPENCLAW));
    // What `Deck::settle_openclaw_version` installs once `openclaw --version` answered.
    let mut answered = (*deck.config())
        .clone()
        .with_pack("2026.9")
        .expect("pack 2026.9");
    answered.pack.installed = Installed::Version("2026.9.6".to_string());
    let state = deck.apply(answered);
    h.app
        .handle_event(AppEvent::Core(CoreEvent::OpenClawVersion(state)));
    let bar = context_rows(&mut h, 160, 30);
    assert!(bar.contains("OpenClaw 2026.9.6"), "{bar}");
    assert!(!bar.contains(DETECTING_OPENCLAW), "{bar}");
    assert_eq!(h.status(), "OpenClaw 2026.9.6 detected: pack 2026.9");
    let config = h.app.config().expect("a config");
    assert_eq!(
        config.pack.pack, "2026.9",
        "the console answers with the new pack"
    );
}

#[test]
fn a_probe_that_gave_no_version_is_said_once_and_shown_as_unknown() {
    let mut h = Harness::new();
    let deck = crate::deck::Deck::new(detecting_config(), None, &Default::default());
    h.app.attach_deck(deck.clone());
    let mut unanswered = (*deck.config()).clone();
    unanswered.pack.installed = Installed::Unknown("no answer within 5 s".to_string());
    let state = deck.apply(unanswered);
    h.app
        .handle_event(AppEvent::Core(CoreEvent::OpenClawVersion(state)));
    let bar = context_rows(&mut h, 160, 30);
    assert!(bar.contains("OpenClaw version unknown"), "{bar}");
    assert!(
        h.status()
            .starts_with("openclaw --version: no answer within 5 s; pack seed"),
        "{}",
        h.status()
    );
}

#[test]
fn at_80_columns_the_context_bar_leaves_out_source_notes_rather_than_cut_an_item() {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    let narrow = context_rows(&mut h, 80, 24);
    // Every item whole: the engine-filled values keep their value, not their note.
    assert!(
        narrow.contains("agent main · model anthropic/claude-opus-4 · channel - · group -"),
        "{narrow}"
    );
    assert!(!narrow.contains("(agents.list[0]"), "{narrow}");
    assert!(narrow.contains("sandbox no"), "{narrow}");
    for row in narrow.lines() {
        assert!(row.chars().count() <= 80, "{row}");
    }
    // With room, the notes say where those values came from.
    let wide = context_rows(&mut h, 200, 24);
    assert!(wide.contains("main (default)"), "{wide}");
    assert!(wide.contains("(agents.list[0].model)"), "{wide}");
}

#[test]
fn at_80_columns_a_scheduled_jobs_cap_shows_whole_in_place_of_the_sender_it_cannot_have() {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.set_context(crate::context::PolicyContext {
        scheduled_tools: Some(vec!["read".into(), "exec".into()]),
        ..Default::default()
    });
    h.pump();
    let narrow = context_rows(&mut h, 80, 24);
    assert!(
        narrow.contains("gateway scheduled · cap read,exec"),
        "{narrow}"
    );
    assert!(!narrow.contains("sender"), "{narrow}");
    for row in narrow.lines() {
        assert!(row.chars().count() <= 80, "{row}");
    }
}
