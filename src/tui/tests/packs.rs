//! The console with a stored pack that cannot load: it starts, the shipped pack answers, and
//! the status line names the pack file (the CLI prints the same warning on stderr).

use super::harness::{Harness, fixture_config};

#[test]
fn a_stored_pack_that_cannot_load_is_named_on_the_status_line() {
    let mut config = fixture_config();
    let warning = "the stored pack /home/x/.local/share/clawdeck/packs/2026.9.6.json cannot load: \
                   tools: expected a list; the shipped 2026.9 pack answers instead";
    config.pack.warnings.push(warning.to_string());
    let mut h = Harness::new();
    h.app.set_config(config);
    assert_eq!(h.status(), warning);
    let screen = h.screen(200, 24);
    assert!(
        screen.contains("/home/x/.local/share/clawdeck/packs/2026.9.6.json cannot load"),
        "{screen}"
    );
}
