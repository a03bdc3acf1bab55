//! The Sessions view's feed against the real OpenClaw gateway of ../shared/realclaw: the roster
//! attaches, takes its snapshot, and follows a run started through the gateway live (the
//! session appears running, then idle). Needs OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN
//! (as `.ci/run` exports them); without them it prints that it was skipped. The console's Sessions
//! view against the same gateway is tested inside the crate (src/tui/tests/real_gateway.rs).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::shared_gateway;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clawdeck_gateway::feed::{RosterSink, spawn_roster_feed};
use clawdeck_gateway::roster::{Link, Roster};
use clawdeck_gateway::{Backoff, ConnectOptions, DeviceIdentity, GatewayClient, GatewayEndpoint};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Waits until the roster satisfies `pred`, or panics with what it shows.
async fn wait_for(roster: &Mutex<Roster>, what: &str, pred: impl Fn(&Roster) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if pred(&roster.lock().unwrap()) {
            return;
        }
        if Instant::now() > deadline {
            panic!("{what}: roster is {:?}", roster.lock().unwrap());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The shared gateway as the feed attaches to it.
fn real_endpoint(url: &str, token: &str) -> GatewayEndpoint {
    support::token_endpoint("real", url, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running real OpenClaw gateway and its mock LLM: .ci/run runs it with --ignored"]
async fn the_roster_follows_a_run_live() {
    let Some((url, token)) = shared_gateway() else {
        eprintln!(
            "gateway_sessions_real: skipped (OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN not set)"
        );
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let identity = DeviceIdentity::load_or_create(state.path()).unwrap();
    let endpoint = real_endpoint(&url, &token);
    let roster = Arc::new(Mutex::new(Roster::default()));
    let fed = roster.clone();
    let sink: RosterSink = Arc::new(move |gateway, event| {
        fed.lock().unwrap().apply(&gateway, &event);
        true
    });
    let stop = CancellationToken::new();
    let _follow = spawn_roster_feed(
        vec![endpoint.clone()],
        identity.clone(),
        Backoff::default(),
        sink,
        stop.clone(),
    );
    wait_for(&roster, "connected", |r| {
        r.links()
            .any(|(g, l)| g == "real" && matches!(l, Link::Up { .. }))
    })
    .await;

    // A run in a fresh session: it appears in the roster while it runs, then ends idle.
    let session_id = format!("cdsess{}", std::process::id());
    let client = GatewayClient::connect(
        endpoint,
        identity,
        ConnectOptions::default(),
        Backoff::default(),
    )
    .await
    .unwrap();
    client
        .request(
            "agent",
            json!({
                "message": r#"CALL exec {"command":"sleep 1; echo roster"}"#,
                "agentId": "ops",
                "sessionId": session_id,
                "idempotencyKey": format!("clawdeck-roster-test-{session_id}"),
            }),
        )
        .await
        .unwrap();
    let mine = |r: &Roster, running: bool| {
        r.rows()
            .iter()
            .any(|(_, row)| row.key.ends_with(&session_id) && row.running == running)
    };
    wait_for(&roster, "the new session, running", |r| mine(r, true)).await;
    wait_for(&roster, "the new session, idle after its run", |r| {
        mine(r, false)
    })
    .await;
    let rows = roster.lock().unwrap().rows().len();
    assert!(rows >= 1);
    client.close();
    stop.cancel();
}
