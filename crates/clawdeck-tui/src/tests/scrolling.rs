//! Panes that can hold more than they show scroll (with a mark saying where they are and that
//! more is there) or grow: the Policy view's path through the layers, the detail panes of the
//! list views, the Sessions transcript, the Queue view's events, the help overlay.

use crossterm::event::{KeyCode, KeyModifiers};

use super::harness::{Harness, fixture_config};
use crate::views::ViewId;

fn with_config() -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h
}

/// The layer ids of the fixture's chain, as the path pane lists them.
fn layer_ids(h: &Harness) -> Vec<&'static str> {
    h.app
        .policy
        .resolution
        .as_ref()
        .map(|r| r.layers.iter().map(|l| l.id.id()).collect())
        .unwrap_or_default()
}

/// Whether the path pane shows the line of layer `id` (`│ · subagent         skipped ...`).
fn path_shows(screen: &str, id: &str) -> bool {
    let cell = format!(" {id:<17}");
    screen
        .lines()
        .any(|l| l.contains(&cell) && l.trim_start_matches('│').starts_with(' '))
}

/// The embedded demo config (what a fresh HOME shows).
fn with_demo() -> Harness {
    let mut h = Harness::new();
    h.app
        .set_config(crate::config::load_demo().expect("demo loads"));
    h.app.status = None;
    h
}

#[test]
fn the_path_pane_grows_to_show_every_layer_when_there_is_room() {
    let mut h = with_demo();
    let ids = layer_ids(&h);
    assert!(ids.contains(&"subagent") && ids.contains(&"sandbox"));
    let screen = h.screen_trimmed(160, 48);
    for id in &ids {
        assert!(path_shows(&screen, id), "layer {id} hidden:\n{screen}");
    }
    assert!(
        !screen.contains("J scroll"),
        "no mark when all fits:\n{screen}"
    );
    insta::assert_snapshot!("policy_path_grown_160x48", screen);
}

#[test]
fn the_path_pane_scrolls_with_the_lower_pane_keys_and_says_where_it_is() {
    let mut h = with_config();
    let screen = h.screen_trimmed(80, 24);
    assert!(!path_shows(&screen, "subagent"), "{screen}");
    assert!(
        screen.contains("↓ lines 1–") && screen.contains("K/J scroll"),
        "the pane says more is below:\n{screen}"
    );
    // J (or Shift-↓) scrolls the path; the tools table keeps its selection.
    let selected = h.app.policy.selected;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let screen = h.screen_trimmed(80, 24);
        for id in layer_ids(&h) {
            if path_shows(&screen, id) {
                seen.insert(id);
            }
        }
        h.key(KeyCode::Char('J'));
    }
    assert_eq!(h.app.policy.selected, selected);
    let ids: std::collections::BTreeSet<_> = layer_ids(&h).into_iter().collect();
    assert_eq!(seen, ids, "every layer can be scrolled into sight");
    let screen = h.screen_trimmed(80, 24);
    assert!(
        screen.contains("↑ lines"),
        "at the end, more is above:\n{screen}"
    );
    insta::assert_snapshot!("policy_path_scrolled_to_the_end_80x24", screen);
    h.key_mod(KeyCode::Up, KeyModifiers::SHIFT);
    assert!(h.screen_trimmed(80, 24).contains("↑↓ lines"));
}

#[test]
fn another_tool_shows_its_path_from_the_top() {
    let mut h = with_config();
    h.screen(80, 24);
    for _ in 0..5 {
        h.key(KeyCode::Char('J'));
    }
    h.key(KeyCode::Down);
    let screen = h.screen_trimmed(80, 24);
    assert!(path_shows(&screen, "owner"), "{screen}");
    assert!(screen.contains("↓ lines 1–"), "{screen}");
}

#[test]
fn views_without_a_config_draw_at_every_size_after_scrolling() {
    let mut h = with_config();
    for view in ViewId::ALL {
        h.app.view = view;
        for _ in 0..3 {
            h.key(KeyCode::Char('J'));
        }
        for (w, hgt) in [(160, 48), (80, 24), (39, 10)] {
            h.screen(w, hgt);
        }
    }
}
