//! The console loading what it answers with: a stored pack that cannot load (it starts, the
//! shipped pack answers, the status line names the pack file as the CLI's stderr does), and a
//! config OpenClaw refuses (an unknown profile), saved while it runs.

use super::harness::{Harness, fixture, fixture_config};

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

#[test]
fn a_save_with_an_unknown_profile_is_a_config_error_and_the_last_good_config_stays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("openclaw.json5");
    std::fs::copy(fixture("openclaw.json5"), &path).expect("copy");
    let mut h = Harness::new();
    h.on_config_file(&path);
    let text = std::fs::read_to_string(&path)
        .expect("read")
        .replace("profile: \"coding\"", "profile: \"codng\"");
    std::fs::write(&path, text).expect("write");
    h.reload_config();
    let err = h.app.config_error.clone().expect("error shown");
    assert!(
        err.contains("unknown tool profile \"codng\"") && err.contains("tools.profile"),
        "{err}"
    );
    assert!(
        err.contains(r#"allowed: "minimal", "coding", "messaging", "full""#),
        "{err}"
    );
    // The last good config still answers.
    assert!(h.app.policy.resolution.is_some());
    h.app.status = None;
    assert!(h.screen(200, 30).contains("✗ config: "));
}
