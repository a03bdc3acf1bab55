//! The desk's acts on a session, for the console: a turn started with `chat.send` (or steered
//! into the running one) on the desk's approver connection, so the turn's exec approvals come
//! to the console, and `sessions.abort`. What happens comes back through the desk's sink as
//! [`DeskEvent::Session`].

use super::chat::{self, ChatRequest};
use super::desk::{DeskEvent, GatewayDesk};

pub use super::desk::{SessionAct, SessionNews};

impl GatewayDesk {
    /// Sends `message` into the session (`steer`: into its running turn) and reports the
    /// turn's events until it ends.
    pub fn chat(&self, gateway: &str, session_key: &str, message: &str, steer: bool) {
        let (desk, gateway) = (self.clone(), gateway.to_string());
        let mut request = ChatRequest::new(session_key, None, message);
        if steer {
            request.queue_mode = Some("steer".to_string());
        }
        tokio::spawn(async move {
            let key = request.session_key.clone();
            let news = |news: SessionAct| {
                DeskEvent::Session(SessionNews {
                    gateway: gateway.clone(),
                    session_key: key.clone(),
                    news,
                })
            };
            let Some(client) = desk.client(&gateway) else {
                let error = format!("gateway {gateway} is not attached (yet)");
                desk.report(news(SessionAct::Failed {
                    action: "chat.send",
                    error,
                }));
                return;
            };
            // The console stops a turn with the abort key, not by going away.
            let never = std::future::pending::<()>();
            let outcome = chat::run_turn(&client, &request, never, |event| {
                desk.report(news(SessionAct::Turn(Box::new(event.clone()))));
            })
            .await;
            if let Err(err) = outcome {
                desk.report(news(SessionAct::Failed {
                    action: "chat.send",
                    error: err.to_string(),
                }));
            }
        });
    }

    /// Stops the session's running work (`sessions.abort`, else `chat.abort`).
    pub fn abort(&self, gateway: &str, session_key: &str) {
        let (desk, gateway, key) = (self.clone(), gateway.to_string(), session_key.to_string());
        tokio::spawn(async move {
            let outcome = match desk.client(&gateway) {
                None => Err(format!("gateway {gateway} is not attached (yet)")),
                Some(client) => chat::abort(&client, &key, None)
                    .await
                    .map_err(|e| e.to_string()),
            };
            let news = match outcome {
                Ok(answer) => SessionAct::Aborted {
                    summary: match answer.get("abortedRunId").and_then(|v| v.as_str()) {
                        Some(run) => format!("aborted run {run}"),
                        None => answer
                            .get("status")
                            .and_then(|v| v.as_str())
                            .unwrap_or("abort sent")
                            .to_string(),
                    },
                },
                Err(error) => SessionAct::Failed {
                    action: "abort",
                    error,
                },
            };
            desk.report(DeskEvent::Session(SessionNews {
                gateway,
                session_key: key,
                news,
            }));
        });
    }
}
