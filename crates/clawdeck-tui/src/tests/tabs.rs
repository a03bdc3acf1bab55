//! The tab bar at every width shows every view (shortened as the width shrinks) and the active
//! tab whole; narrow views keep what names their rows (the Policy view's tool names, the
//! Sessions view's keys) and let the other columns give way.

use crossterm::event::KeyCode;

use super::harness::{Harness, fixture_config};
use crate::event::AppEvent;
use crate::views::ViewId;

fn with_config() -> Harness {
    let mut h = Harness::new();
    h.app.set_config(fixture_config());
    h.app.status = None;
    h
}

/// The tab bar's row.
fn tab_row(h: &mut Harness, width: u16, height: u16) -> String {
    h.screen_trimmed(width, height)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_tab_shows_at_120_60_and_39_columns_and_the_active_one_whole() {
    let mut h = with_config();
    for width in [120u16, 60, 39] {
        for view in ViewId::ALL {
            h.app.handle_event(AppEvent::SwitchView(view));
            let row = tab_row(&mut h, width, 24);
            assert!(
                row.contains(&format!("{} {}", h.app.keymap.view_key(view), view.title())),
                "{width} columns, {view:?} active: {row}"
            );
            for other in ViewId::ALL {
                let key = h.app.keymap.view_key(other);
                let tab = h
                    .app
                    .tab_areas()
                    .iter()
                    .find(|(_, v)| *v == other)
                    .map(|(r, _)| *r);
                let tab = tab.unwrap_or_else(|| panic!("{width}: no tab for {other:?}: {row}"));
                assert!(
                    tab.x + tab.width <= width,
                    "{width}: {other:?} past the edge"
                );
                assert!(row.contains(&key), "{width}: key {key}: {row}");
            }
        }
    }
    h.app.handle_event(AppEvent::SwitchView(ViewId::Policy));
    let row = tab_row(&mut h, 120, 24);
    assert!(row.contains("0 Dif"), "the last tab is there at 120: {row}");
    h.app.handle_event(AppEvent::SwitchView(ViewId::Diff));
    let bars: Vec<String> = [120u16, 60, 39]
        .iter()
        .map(|w| tab_row(&mut h, *w, 24))
        .collect();
    insta::assert_snapshot!("tab_bar_diff_active_120_60_39", bars.join("\n"));
}

#[test]
fn a_narrow_policy_view_keeps_tool_names_whole_and_scrolls_the_layer_columns() {
    let mut h = with_config();
    let screen = h.screen_trimmed(60, 20);
    for name in ["read", "write", "edit", "apply_patch"] {
        assert!(
            screen
                .lines()
                .any(|l| l.contains(&format!(" {name} ")) || l.contains(&format!("›{name} "))),
            "{name} cut:\n{screen}"
        );
    }
    assert!(screen.contains("Tools × layers 1–"), "{screen}");
    assert!(screen.contains("(← →)"), "{screen}");
    let header = |s: &str| {
        s.lines()
            .find(|l| l.contains(" tool "))
            .unwrap_or_default()
            .to_string()
    };
    assert!(header(&screen).contains("own"), "{screen}");
    insta::assert_snapshot!("policy_60_columns", screen);
    // → scrolls the layers: the first column goes, a later one comes.
    h.key(KeyCode::Right);
    let screen = h.screen_trimmed(60, 20);
    assert!(!header(&screen).contains("own"), "{screen}");
    assert!(screen.contains("Tools × layers 2–"), "{screen}");
    for _ in 0..20 {
        h.key(KeyCode::Right);
    }
    let screen = h.screen_trimmed(60, 20);
    assert!(header(&screen).contains("sub"), "the last layer: {screen}");
    h.key(KeyCode::Left);
    assert!(h.app.policy.layer_offset > 0);
}

#[test]
fn at_39_columns_the_console_draws_instead_of_refusing() {
    let mut h = with_config();
    let screen = h.screen_trimmed(39, 10);
    assert!(!screen.contains("too small"), "{screen}");
    assert!(screen.contains("1 Policy"), "{screen}");
    assert!(
        screen.contains("agents_list") || screen.contains("read"),
        "{screen}"
    );
    insta::assert_snapshot!("console_39x10", screen);
}
