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
fn the_configs_load_warnings_reach_the_status_line_shown_not_obeyed() {
    // What the CLI prints as `warning:` on stderr: a login shell that timed out, then a key
    // whose name carries an escape sequence from the file.
    let mut config = fixture_config();
    config.warnings.push(
        "env.shellEnv: the login shell /bin/bash -l did not finish in 1 s; its variables are \
         not counted"
            .to_string(),
    );
    config
        .warnings
        .push("unknown key \"x\u{1b}[31my\" at tools".to_string());
    let mut h = Harness::new();
    h.app.set_config(config);
    assert_eq!(
        h.status(),
        "env.shellEnv: the login shell /bin/bash -l did not finish in 1 s; its variables are not \
         counted (+1 more)"
    );
    let screen = h.screen(80, 24);
    assert!(screen.contains("env.shellEnv: the login shell"), "{screen}");
    insta::assert_snapshot!("config_warning_on_the_status_line", screen);

    let mut config = fixture_config();
    config
        .warnings
        .push("unknown key \"x\u{1b}[31my\" at tools".to_string());
    h.app.set_config(config);
    assert!(!h.status().contains('\u{1b}'), "{}", h.status());
    assert!(h.status().contains("unknown key \"x"), "{}", h.status());
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
