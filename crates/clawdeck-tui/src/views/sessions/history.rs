//! The selected session's earlier transcript: the feed fetches `chat.history` when a session
//! is followed (and again after a reconnect) and publishes it as `Subscribed { method:
//! "chat.history" }`; it is merged into the session's transcript without repeating what the
//! live events brought.

use serde_json::Value;

use super::SessionsView;
use crate::gateway::history::parse_history;

impl SessionsView {
    /// Merges a `chat.history` answer into its session's transcript (kept only for sessions
    /// followed now or earlier); true when entries were added.
    pub(crate) fn apply_history(&mut self, gateway: &str, payload: &Value) -> bool {
        let Some(key) = payload.get("sessionKey").and_then(Value::as_str) else {
            return false;
        };
        let history = parse_history(key, payload);
        match self
            .transcripts
            .get_mut(&(gateway.to_string(), history.session_key.clone()))
        {
            Some(transcript) => transcript.backfill(&history) > 0,
            None => false,
        }
    }
}

/// Above the oldest entry: how many earlier messages the gateway holds that were not loaded.
pub(super) fn not_loaded_line(
    transcript: &crate::gateway::transcript::SessionTranscript,
) -> Option<ratatui::text::Line<'static>> {
    let count = transcript.not_loaded();
    (count > 0).then(|| {
        ratatui::text::Line::styled(
            format!("… {count} earlier messages not loaded (the gateway keeps them)"),
            crate::theme::dim(),
        )
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::gateway::ClientEvent;
    use crate::gateway::feed::SessionFollow;
    use crate::gateway::history::HISTORY;
    use crate::keymap::Action;
    use crate::tests::harness::with_view_ctx;

    const KEY: &str = "agent:ops:explicit:hist1";

    /// A real gateway's `chat.history` answer (2026.9.6): a turn, then a turn calling exec.
    fn recorded() -> Value {
        serde_json::from_str(include_str!(
            "../../../../../tests/fixtures/gateway/chat-history.json"
        ))
        .unwrap()
    }

    /// A view attached to `local`, its one session (run before the console started) selected.
    fn selected_after_its_run(follow: &SessionFollow) -> SessionsView {
        let mut view = SessionsView::attaching(&["local".into()]);
        view.set_follow(follow.clone());
        view.apply(
            "local",
            &ClientEvent::Subscribed {
                method: "sessions.list".into(),
                payload: json!({"sessions": [{"key": KEY, "agentId": "ops", "kind": "direct",
                    "updatedAt": 1_795_578_541_508u64}]}),
            },
        );
        assert!(view.select_session("local", KEY));
        assert_eq!(follow.followed(), Some(("local".into(), KEY.into())));
        view
    }

    fn history(payload: Value) -> ClientEvent {
        ClientEvent::Subscribed {
            method: HISTORY.into(),
            payload,
        }
    }

    fn draw(view: &mut SessionsView, w: u16, h: u16) -> String {
        crate::tests::harness::draw_sessions_view(view, w, h)
    }

    #[test]
    fn a_session_picked_after_its_run_shows_its_backfilled_history() {
        let follow = SessionFollow::default();
        let mut view = selected_after_its_run(&follow);
        let before = draw(&mut view, 100, 30);
        assert!(before.contains("0 entries"), "{before}");
        assert!(view.apply("local", &history(recorded())).view);
        let screen = draw(&mut view, 100, 30);
        insta::assert_snapshot!("sessions_history_backfilled", screen);
        assert!(screen.contains("6 entries"), "{screen}");
        let earlier = screen.find("hello earlier turn").unwrap();
        let call = screen.find("⚙ exec ✓ ok").unwrap();
        let reply = screen.find("tool exec returned: hi").unwrap();
        assert!(earlier < call && call < reply, "in order\n{screen}");
        // Another session's history, or one for a session never followed, changes nothing.
        let mut other = recorded();
        other["sessionKey"] = json!("agent:ops:elsewhere");
        assert!(!view.apply("local", &history(other)).view);
    }

    #[test]
    fn a_long_backfilled_history_scrolls_by_keyboard_and_says_what_was_not_loaded() {
        let follow = SessionFollow::default();
        let mut view = selected_after_its_run(&follow);
        let messages: Vec<Value> = (1..=60u64)
            .map(|n| {
                json!({"role": if n % 2 == 1 { "user" } else { "assistant" },
                    "content": format!("message {n}"), "timestamp": 1_795_578_000_000u64 + n,
                    "__openclaw": {"id": format!("m{n}"), "seq": 40 + n}})
            })
            .collect();
        let payload = json!({"sessionKey": KEY, "messages": messages, "hasMore": true,
            "totalMessages": 100});
        view.apply("local", &history(payload));
        let newest = draw(&mut view, 100, 30);
        assert!(newest.contains("message 60") && !newest.contains("message 1 "));
        while with_view_ctx(|ctx| view.handle_action(Action::DetailUp, ctx)) {
            if draw(&mut view, 100, 30).contains("not loaded") {
                break;
            }
        }
        let top = draw(&mut view, 100, 30);
        insta::assert_snapshot!("sessions_history_scrolled_to_the_top", top);
        assert!(top.contains("… 40 earlier messages not loaded"), "{top}");
        assert!(
            top.contains("message 1") && !top.contains("message 60"),
            "{top}"
        );
        assert!(with_view_ctx(|ctx| view.handle_action(Action::Follow, ctx)));
        assert_eq!(draw(&mut view, 100, 30), newest, "f back to the newest");
    }
}
