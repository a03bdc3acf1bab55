//! The Gateways view is a tab: `O` opens it, and the console routes each gateway pulse (health,
//! usage, log lines) to it through the one event channel, sanitized.

use super::harness::{Harness, trimmed_rows};
use crate::event::{AppEvent, CoreEvent};
use crate::gateway::logs::{LogLine, TailRead};
use crate::gateway::pulse::Pulse;
use crate::view_id::ViewId;
use crossterm::event::KeyCode;

fn pulse(pulse: Pulse) -> AppEvent {
    AppEvent::Core(CoreEvent::Pulse {
        gateway: "local".into(),
        pulse,
    })
}

#[test]
fn o_opens_the_gateways_tab_and_pulses_reach_its_log() {
    let mut h = Harness::new();
    h.app.gateways = crate::views::gateways::GatewaysView::attaching(&["local".to_string()]);
    h.app.handle_event(pulse(Pulse::Up));
    h.key(KeyCode::Char('O'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Gateways);
    let lines = TailRead {
        lines: vec![LogLine::parse(
            r#"{"time":"2026-11-25T05:00:00.000Z","level":"info","subsystem":"gateway","message":"ready \u001b]0;x\u0007now"}"#,
        )],
        reset: false,
        skipped_bytes: 0,
        file: "/tmp/openclaw/openclaw.log".into(),
    };
    h.app.handle_event(pulse(Pulse::Logs(lines)));
    let screen = trimmed_rows(h.draw(120, 30).backend().buffer());
    assert!(
        screen.lines().next().unwrap_or("").contains("O Gateways"),
        "{screen}"
    );
    assert!(screen.contains("05:00:00 INFO  ready now"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
}
