use super::*;

/// A config dir: openclaw.json plus clawdeck.json5 with `settings`.
fn config_dir(settings: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("openclaw.json");
    std::fs::write(&config, r#"{ "agents": { "list": [ { "id": "ops" } ] } }"#).unwrap();
    std::fs::write(dir.path().join(crate::config::SETTINGS_FILE), settings).unwrap();
    (dir, config)
}

/// The deck's events as a channel (permits given back at once).
fn events_of(deck: &Deck) -> tokio::sync::mpsc::UnboundedReceiver<DeckEvent> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    deck.forward_events(8, move |event, _permit| tx.send(event).is_ok());
    rx
}

/// A fake `openclaw` that prints a line and sleeps.
fn sleeper(dir: &Path) -> String {
    let bin = dir.join("fake-openclaw");
    std::fs::write(&bin, "#!/bin/sh\necho started\nexec sleep 60\n").unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    bin.display().to_string()
}

#[tokio::test]
async fn reload_reapplies_lane_limits_warn_after_and_router_settings() {
    let (dir, config) = config_dir(
        r#"{ lanes: { maxConcurrent: { main: 2 }, warnAfterMs: 700 }, router: { timeoutSeconds: 40 } }"#,
    );
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    assert_eq!(deck.queue().limit("main"), 2);
    assert_eq!(deck.router().settings().timeout_seconds, 40);
    let before = deck.pipeline();
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        r#"{ lanes: { maxConcurrent: { main: 5, cron: 3 }, warnAfterMs: 90 }, router: { timeoutSeconds: 50 } }"#,
    )
    .unwrap();
    let state = deck.reload().unwrap();
    assert_eq!(deck.queue().limit("main"), 5);
    assert_eq!(deck.queue().limit("cron"), 3);
    assert_eq!(state.limits.warn_after, Duration::from_millis(90));
    assert_eq!(deck.router().settings().timeout_seconds, 50);
    assert!(!Arc::ptr_eq(&before, &deck.pipeline()), "a new pipeline");
    assert!(Arc::ptr_eq(&state.pipeline, &deck.pipeline()));
}

/// The OpenClaw version asked for travels with the deck's config request: two decks of one
/// process answer for different versions, and each reload keeps its own.
#[tokio::test]
async fn each_deck_keeps_the_openclaw_version_it_was_asked_for_across_reloads() {
    let (_dir, config) = config_dir("{}");
    let asked = |version: &str| crate::config::ConfigRequest {
        path: Some(config.clone()),
        openclaw_version: Some(crate::semantics::RequestedVersion {
            version: version.to_string(),
            from: "--openclaw-version",
        }),
        node_list: None,
    };
    let seed = Deck::load_from(&asked("seed"), &Default::default()).unwrap();
    let older = Deck::load_from(&asked("2026.8"), &Default::default()).unwrap();
    assert_eq!(seed.config().pack.pack, "seed");
    assert_eq!(older.config().pack.pack, "2026.8");
    assert!(
        older.config().pack.reason.contains("--openclaw-version"),
        "{:?}",
        older.config().pack
    );
    for (deck, pack) in [(&seed, "seed"), (&older, "2026.8")] {
        deck.reload().unwrap();
        assert_eq!(deck.config().pack.pack, pack);
        assert_eq!(
            deck.config_request()
                .openclaw_version
                .as_ref()
                .map(|r| r.version.as_str()),
            Some(pack)
        );
    }
    let unknown = Deck::load_from(&asked("1999.1"), &Default::default()).unwrap_err();
    assert!(
        unknown.to_string().contains("--openclaw-version"),
        "{unknown}"
    );
}

#[tokio::test]
async fn a_broken_reload_names_the_place_and_keeps_the_last_good_state() {
    let (dir, config) = config_dir(r#"{ lanes: { maxConcurrent: { main: 2 } } }"#);
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    let before = deck.state();
    std::fs::write(&config, "{ \"agents\": [ nope").unwrap();
    let err = deck.reload().expect_err("broken config is an error");
    assert!(err.to_string().contains("openclaw.json"), "{err}");
    assert!(Arc::ptr_eq(&before, &deck.state()));
    assert_eq!(deck.queue().limit("main"), 2);
    drop(dir);
}

#[tokio::test]
async fn shutdown_kills_runs_started_before_a_reload_and_awaits_them() {
    let (dir, config) = config_dir("{}");
    let bin = sleeper(dir.path());
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        format!("{{ router: {{ bin: {bin:?}, defaultAgent: \"ops\", killGraceMs: 200, drainGraceMs: 200 }} }}"),
    )
    .unwrap();
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    let mut events = events_of(&deck);
    let handle = deck
        .router()
        .start(crate::router::RouterRequest::new("wait"))
        .unwrap();
    // The run's start comes through the one event stream.
    let first = tokio::time::timeout(Duration::from_secs(5), events.recv())
        .await
        .unwrap();
    assert!(
        matches!(&first, Some(DeckEvent::Router(ev)) if ev.run_id == handle.run_id),
        "{first:?}"
    );
    deck.reload().unwrap();
    assert_eq!(deck.live_work().0, 1);
    let started = std::time::Instant::now();
    deck.shutdown(Duration::from_secs(10)).await;
    assert_eq!(deck.live_work(), (0, 0), "nothing left running");
    assert!(started.elapsed() < Duration::from_secs(10));
    let outcome = handle.wait().await;
    assert_eq!(outcome.status, crate::router::RunStatus::Killed);
}

#[test]
fn the_demo_config_reads_the_operators_settings_file() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join(crate::config::SETTINGS_FILE);
    std::fs::write(
        &settings,
        r#"{ keys: { kill_run: ["ctrl-k"] }, router: { timeoutSeconds: 50 } }"#,
    )
    .unwrap();
    let loaded = crate::config::load_demo_with_settings(Some(&settings)).unwrap();
    assert_eq!(loaded.settings.router.timeout_seconds, 50);
    assert_eq!(loaded.settings.keys["kill_run"], vec!["ctrl-k".to_string()]);
    assert_eq!(loaded.settings_path.as_deref(), Some(settings.as_path()));
    // Without the file the demo's own settings stay.
    let demo = crate::config::load_demo_with_settings(Some(&dir.path().join("missing"))).unwrap();
    assert!(demo.settings_path.is_none());
    // A broken file is an error naming it.
    std::fs::write(&settings, "{ router: { nope: 1 } }").unwrap();
    let err = crate::config::load_demo_with_settings(Some(&settings)).unwrap_err();
    assert!(err.to_string().contains("clawdeck.json5"), "{err}");
}

#[tokio::test]
async fn reload_reapplies_the_exec_session_ttl_to_every_holder() {
    let (dir, config) = config_dir(r#"{ exec: { sessionTtlSeconds: 600 } }"#);
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    // A handle taken before the reload (the tools of the old pipeline hold one like it).
    let held = deck.tool_runtime().sessions.clone();
    assert_eq!(held.ttl(), Duration::from_secs(600));
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        r#"{ exec: { sessionTtlSeconds: 5 } }"#,
    )
    .unwrap();
    deck.reload().unwrap();
    assert_eq!(deck.tool_runtime().sessions.ttl(), Duration::from_secs(5));
    assert_eq!(held.ttl(), Duration::from_secs(5), "old handles see it too");
    // Back to the default when the key goes away.
    std::fs::write(dir.path().join(crate::config::SETTINGS_FILE), "{}").unwrap();
    deck.reload().unwrap();
    assert_eq!(held.ttl(), Duration::from_secs(1800));
}

#[tokio::test]
async fn reload_reapplies_the_exec_session_cap_to_every_holder() {
    let (dir, config) = config_dir(r#"{ exec: { maxBackgroundSessions: 3 } }"#);
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    let held = deck.tool_runtime().sessions.clone();
    assert_eq!(held.max_running(), 3);
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        r#"{ exec: { maxBackgroundSessions: 9 } }"#,
    )
    .unwrap();
    deck.reload().unwrap();
    assert_eq!(held.max_running(), 9, "old handles see it too");
    std::fs::write(dir.path().join(crate::config::SETTINGS_FILE), "{}").unwrap();
    deck.reload().unwrap();
    assert_eq!(
        held.max_running(),
        crate::config::settings::DEFAULT_MAX_BACKGROUND_SESSIONS
    );
}

/// Whether `pid` is a live process (a zombie has exited).
pub(crate) fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[tokio::test]
async fn cancel_call_kills_a_running_exec_with_its_process_tree_and_says_so() {
    use crate::pipeline::{CallOutcome, CallRequest};
    use crate::queue::{EntryOutcome, QueueEvent};
    let (dir, config) = config_dir("{}");
    std::fs::write(
        dir.path().join(crate::config::SETTINGS_FILE),
        format!("{{ workspace: {:?} }}", dir.path().display().to_string()),
    )
    .unwrap();
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    let mut events = events_of(&deck);
    let pidfile = dir.path().join("grandchild.pid");
    let request = CallRequest::new(
        "exec",
        serde_json::json!({
            "command": format!("sleep 300 & echo $! > {}; wait", pidfile.display()),
            "yieldMs": 600_000,
        }),
        crate::context::PolicyContext {
            agent: Some("ops".into()),
            ..Default::default()
        },
    );
    let pipeline = deck.pipeline();
    let call = tokio::spawn(async move { pipeline.call(request).await });
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let grandchild: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(std::time::Instant::now() < deadline, "exec never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(alive(grandchild));
    let entry = deck
        .queue()
        .snapshot()
        .active
        .into_iter()
        .find(|e| e.label.starts_with("exec: sleep 300"))
        .expect("the call is in the queue");

    let killed = deck.cancel_call(entry.id).expect("a running call");
    assert!(killed.running);
    let outcome = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("the call ends")
        .unwrap();
    assert_eq!(
        outcome,
        CallOutcome::Cancelled {
            tool: "exec".into(),
            killed_by_operator: true,
        }
    );
    assert_eq!(outcome.message(), "exec: killed by the operator");
    // The tree is gone before the call answers (a zombie awaiting its reaper counts as gone).
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while alive(grandchild) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        !alive(grandchild),
        "the exec's grandchild survived the kill"
    );

    // It comes back as events: the request, then the end, recorded as killed.
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|e| matches!(e, QueueEvent::Finished { id, .. } if *id == entry.id))
    {
        match tokio::time::timeout(Duration::from_secs(5), events.recv()).await {
            Ok(Some(DeckEvent::Queue(ev))) if ev.entry_id() == Some(entry.id) => seen.push(ev),
            Ok(Some(_)) => {}
            other => panic!("events ended early: {other:?} after {seen:?}"),
        }
    }
    let kinds: Vec<&str> = seen
        .iter()
        .map(|e| match e {
            QueueEvent::KillRequested { running: true, .. } => "kill_requested",
            QueueEvent::Finished {
                outcome: EntryOutcome::Killed,
                ..
            } => "finished_killed",
            QueueEvent::Enqueued { .. } | QueueEvent::Started { .. } => "before",
            _ => "other",
        })
        .filter(|k| *k != "before")
        .collect();
    assert_eq!(kinds, ["kill_requested", "finished_killed"], "{seen:?}");
    assert!(deck.cancel_call(entry.id).is_none(), "it is over");
    drop(dir);
}

#[test]
fn policy_resolutions_are_kept_per_context_for_the_installed_config_and_bounded() {
    let (dir, config) = config_dir("{}");
    let deck = Deck::load(Some(&config), &Default::default()).unwrap();
    let state = deck.state();
    let ops = crate::context::PolicyContext {
        agent: Some("ops".into()),
        ..Default::default()
    };
    assert!(state.cached_resolution(&ops).is_none(), "nothing asked yet");
    let first = state.resolve(&ops).unwrap();
    assert_eq!(first.resolved.agent, "ops");
    let again = state.resolve(&ops).unwrap();
    assert!(
        Arc::ptr_eq(&first, &again),
        "the second ask is the kept answer"
    );
    assert!(state.cached_resolution(&ops).is_some());
    // A context the config cannot resolve keeps its error too.
    let ghost = crate::context::PolicyContext {
        agent: Some("ghost".into()),
        ..Default::default()
    };
    let err = state.resolve(&ghost).unwrap_err();
    assert_eq!(state.cached_resolution(&ghost), Some(Err(err)));
    // Bounded: past the limit the oldest context asked goes first.
    for n in 0..resolutions::KEPT_CONTEXTS {
        let _ = state.resolve(&crate::context::PolicyContext {
            session_key: Some(format!("agent:ops:s{n}")),
            ..Default::default()
        });
    }
    assert!(state.cached_resolution(&ops).is_none(), "the oldest left");
    assert!(state.cached_resolution(&ghost).is_none());
    // A config installed again starts with none kept (its answers may differ).
    let reloaded = deck.reload().unwrap();
    assert!(reloaded.cached_resolution(&ops).is_none());
    assert!(!Arc::ptr_eq(&reloaded.resolve(&ops).unwrap(), &first));
    drop(dir);
}
