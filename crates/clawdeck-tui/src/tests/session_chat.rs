//! The Sessions view's acts on a session: the message box (`i`, `I` to steer a running turn),
//! the abort key (`x`, asks first) and the strip that shows the console's turn as the desk
//! reports it.

use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;

use super::harness::Harness;
use crate::event::{AppEvent, CoreEvent};
use crate::gateway::chat::ChatEvent;
use crate::gateway::desk::DeskEvent;
use crate::gateway::desk_session::{SessionAct, SessionNews};
use crate::gateway::watch::ToolCall;
use crate::gateway::{ClientEvent, Hello};
use crate::view_id::ViewId;

/// A gateway `local` with a running session (agent:ops:main) and an idle one.
fn with_sessions() -> Harness {
    let mut h = Harness::new();
    let send = |h: &mut Harness, event: ClientEvent| {
        h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
            gateway: "local".into(),
            event,
            permit: crate::deck::paced::Permit::none(),
        }));
    };
    let hello = Hello::from_payload(&json!({
        "type": "hello-ok", "protocol": 4, "server": {"version": "2026.9.6", "connId": "c"},
        "features": {"methods": ["chat.send", "sessions.abort"], "events": []}, "snapshot": {},
        "auth": {"role": "operator", "scopes": []}, "policy": {"tickIntervalMs": 15000}
    }))
    .unwrap();
    h.app.sessions = crate::views::sessions::SessionsView::attaching(&["local".to_string()]);
    send(
        &mut h,
        ClientEvent::Connected {
            hello: std::sync::Arc::new(hello),
            reconnect: false,
        },
    );
    send(
        &mut h,
        ClientEvent::Subscribed {
            method: "sessions.list".into(),
            payload: json!({"sessions": [
                {"key": "agent:ops:main", "agentId": "ops", "kind": "direct", "hasActiveRun": true, "updatedAt": 1_795_380_958_000u64},
                {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1_795_370_000_000u64},
            ]}),
        },
    );
    h.app.handle_event(AppEvent::SwitchView(ViewId::Sessions));
    assert!(h.app.sessions.select_session("local", "agent:ops:main"));
    h
}

#[test]
fn the_message_box_sends_the_text_to_the_selected_session() {
    let mut h = with_sessions();
    h.key(KeyCode::Char('i'));
    h.type_text("check disk");
    h.key_mod(KeyCode::Enter, KeyModifiers::ALT);
    // Keys the keymap knows (x, q) are text while the box is open.
    h.type_text("and /var x");
    let screen = h.screen_trimmed(120, 30);
    assert!(
        screen.contains("Message agent:ops:main @ local · Enter sends"),
        "{screen}"
    );
    assert!(screen.contains("check disk"), "{screen}");
    assert!(screen.contains("and /var x"), "{screen}");
    insta::assert_snapshot!("sessions_message_box", screen);
    h.key(KeyCode::Enter);
    let sent: Vec<AppEvent> = h.emitted();
    let chat = sent
        .iter()
        .find_map(|e| match e {
            AppEvent::ChatSession {
                gateway,
                key,
                message,
                steer,
            } => Some((gateway.clone(), key.clone(), message.clone(), *steer)),
            _ => None,
        })
        .expect("a ChatSession intent");
    assert_eq!(
        chat,
        (
            "local".to_string(),
            "agent:ops:main".to_string(),
            "check disk\nand /var x".to_string(),
            false
        )
    );
    assert!(h.app.sessions.chat.input.is_none(), "Enter closes the box");
}

#[test]
fn steer_needs_a_running_turn_and_esc_cancels() {
    let mut h = with_sessions();
    h.key(KeyCode::Char('I'));
    let screen = h.screen_trimmed(120, 30);
    assert!(screen.contains("Steer agent:ops:main @ local"), "{screen}");
    h.key(KeyCode::Esc);
    assert!(h.app.sessions.chat.input.is_none());
    assert!(h.app.sessions.select_session("local", "agent:main:main"));
    h.key(KeyCode::Char('I'));
    h.pump();
    assert!(h.app.sessions.chat.input.is_none());
    assert!(
        h.status().contains("no running turn to steer"),
        "{}",
        h.status()
    );
}

#[test]
fn abort_asks_first_and_yes_sends_the_abort() {
    let mut h = with_sessions();
    h.key(KeyCode::Char('x'));
    h.pump();
    let screen = h.screen_trimmed(120, 30);
    assert!(
        screen.contains("Abort the running turn of agent:ops:main on local"),
        "{screen}"
    );
    insta::assert_snapshot!("sessions_abort_confirm", screen);
    // Nothing is aborted before the answer.
    assert!(h.emitted().is_empty());
    h.key(KeyCode::Char('y'));
    let sent = h.emitted();
    assert!(
        sent.iter().any(|e| matches!(e,
            AppEvent::AbortSession { gateway, key } if gateway == "local" && key == "agent:ops:main")),
        "{sent:?}"
    );
    // An idle session has nothing to abort: no question.
    assert!(h.app.sessions.select_session("local", "agent:main:main"));
    h.key(KeyCode::Char('x'));
    let asked = h.pump();
    assert!(
        !asked
            .iter()
            .any(|e| e.contains("Confirm") || e.contains("AbortSession")),
        "{asked:?}"
    );
    assert!(h.status().contains("has no running turn"), "{}", h.status());
}

#[test]
fn the_turn_strip_shows_tool_calls_approvals_and_the_streamed_reply() {
    let mut h = with_sessions();
    h.app
        .sessions
        .turn_started("local", "agent:ops:main", "CALL exec", false);
    let news = |event: ChatEvent| {
        AppEvent::Core(CoreEvent::Desk(DeskEvent::Session(SessionNews {
            gateway: "local".into(),
            session_key: "agent:ops:main".into(),
            news: SessionAct::Turn(Box::new(event)),
        })))
    };
    let call = |phase: &str, output: Option<&str>| ToolCall {
        name: "exec".into(),
        phase: phase.into(),
        call_id: "c1".into(),
        args: json!({"command": "echo hi"}),
        output: output.map(str::to_string),
        is_error: false,
        run_id: "r1".into(),
        ts: None,
        duration_ms: None,
    };
    h.app
        .handle_event(news(ChatEvent::Tool(call("start", None))));
    let approval = crate::gateway::approvals::Approval::from_event(&json!({
        "id": "ap1",
        "request": {"command": "echo hi", "cwd": "/w", "agentId": "ops", "sessionKey": "agent:ops:main"},
    }));
    h.app.handle_event(news(ChatEvent::Approval(approval)));
    assert!(
        h.status().contains("exec approval ap1 asked"),
        "{}",
        h.status()
    );
    h.app
        .handle_event(news(ChatEvent::Tool(call("result", Some("hi\n")))));
    h.app.handle_event(news(ChatEvent::Delta {
        text: "tool exec \x1b]0;x\x07returned".into(),
        replace: false,
    }));
    let screen = h.screen_trimmed(120, 30);
    assert!(screen.contains("Your turn · replying"), "{screen}");
    assert!(screen.contains("⚙ exec ✓: hi"), "{screen}");
    assert!(screen.contains("approval ap1 asked: echo hi"), "{screen}");
    assert!(screen.contains("tool exec returned"), "{screen}");
    assert!(!screen.contains('\x1b'), "gateway text is sanitized");
    insta::assert_snapshot!("sessions_turn_strip", screen);
    // Fell behind a flood: the gap is said in the strip, in order.
    h.app.handle_event(news(ChatEvent::Gap { dropped: 1532 }));
    let screen = h.screen_trimmed(120, 30);
    assert!(
        screen.contains("1532 gateway events left out (fell behind); the reply may miss text"),
        "{screen}"
    );
    insta::assert_snapshot!("sessions_turn_strip_gap", screen);
    h.app.handle_event(news(ChatEvent::Aborted {
        reason: "rpc".into(),
    }));
    let screen = h.screen_trimmed(120, 30);
    assert!(screen.contains("Your turn · aborted (rpc)"), "{screen}");
}

/// A finished turn's strip gives its rows back to the transcript on a small terminal: at 80x24
/// and in a 60x15 pane the transcript still shows its lines (the strip shrinks or closes); a
/// running turn keeps a line of its state.
#[test]
fn a_finished_turn_leaves_the_transcript_room_at_80x24_and_60x15() {
    let mut h = with_sessions();
    let messages: Vec<serde_json::Value> = (0..6)
        .map(|n| {
            json!({"role": if n % 2 == 0 { "user" } else { "assistant" },
                        "content": [{"type": "text", "text": format!("transcript line {n}")}]})
        })
        .collect();
    h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
        gateway: "local".into(),
        event: ClientEvent::Subscribed {
            method: crate::gateway::history::HISTORY.into(),
            payload: json!({"sessionKey": "agent:ops:main", "messages": messages}),
        },
        permit: crate::deck::paced::Permit::none(),
    }));
    h.app
        .sessions
        .turn_started("local", "agent:ops:main", "hi", false);
    let news = |event: ChatEvent| {
        AppEvent::Core(CoreEvent::Desk(DeskEvent::Session(SessionNews {
            gateway: "local".into(),
            session_key: "agent:ops:main".into(),
            news: SessionAct::Turn(Box::new(event)),
        })))
    };
    h.app.handle_event(news(ChatEvent::Delta {
        text: "working on it".into(),
        replace: false,
    }));
    let running = h.screen_trimmed(80, 24);
    assert!(
        running.contains("Your turn"),
        "a running turn keeps its strip:\n{running}"
    );
    h.app.handle_event(news(ChatEvent::Final {
        text: "all done".into(),
        stop_reason: "stop".into(),
    }));
    let screen = h.screen_trimmed(80, 24);
    let shown = screen.matches("transcript line").count();
    assert!(shown >= 3, "{shown} transcript lines at 80x24:\n{screen}");
    insta::assert_snapshot!("sessions_finished_turn_80x24", screen);
    let pane = super::harness::draw_sessions_view(&mut h.app.sessions, 60, 15);
    assert!(
        pane.contains("transcript line"),
        "no transcript line in a 60x15 pane:\n{pane}"
    );
}

/// Two gateways list the same key; the turn runs on `lab`. The abort goes to the gateway of
/// the row the operator picked, and a question answered after its session left the roster
/// sends nothing.
#[test]
fn the_abort_reaches_the_picked_rows_gateway_and_nothing_once_it_is_gone() {
    let mut h = with_sessions();
    let lab = |h: &mut Harness, sessions: serde_json::Value| {
        h.app.handle_event(AppEvent::Core(CoreEvent::Gateway {
            gateway: "lab".into(),
            event: ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: json!({ "sessions": sessions }),
            },
            permit: crate::deck::paced::Permit::none(),
        }));
    };
    lab(
        &mut h,
        json!([{"key": "agent:ops:main", "agentId": "ops", "kind": "direct",
                "hasActiveRun": true, "updatedAt": 1_795_390_000_000u64}]),
    );
    assert!(h.app.sessions.select_session("lab", "agent:ops:main"));
    h.emitted();
    h.key(KeyCode::Char('x'));
    h.pump();
    h.key(KeyCode::Char('y'));
    let sent = h.emitted();
    assert!(
        sent.iter().any(|e| matches!(e,
            AppEvent::AbortSession { gateway, key } if gateway == "lab" && key == "agent:ops:main")),
        "{sent:?}"
    );
    // Asked again; the session leaves lab's roster before the answer: nothing is sent.
    h.key(KeyCode::Char('x'));
    h.pump();
    lab(&mut h, json!([]));
    h.key(KeyCode::Char('y'));
    h.pump();
    assert!(
        h.status().contains("no longer listed on lab; nothing sent"),
        "{}",
        h.status()
    );
}
