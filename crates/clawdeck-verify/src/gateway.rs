//! What a running gateway says a session really has: `tools.effective` for a session key.
//!
//! For now this goes through the real CLI (`openclaw gateway call tools.effective --json`); it
//! sits behind [`observe_gateway`] alone so that it can switch to clawdeck's own WebSocket
//! gateway client without touching the comparison.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::observed::ObservedView;
use super::runner::{VerifyError, find_openclaw, run_cli_stdout};

const METHOD: &str = "tools.effective";

/// The gateway to ask.
#[derive(Debug, Clone)]
pub struct GatewayTarget {
    /// `ws://host:port`, or the gateway's `http://` URL (turned into `ws://`).
    pub url: String,
    pub token: Option<String>,
}

/// The `gateway call` arguments for `tools.effective` on `session_key`. The URL goes through
/// the gateway client's check (parsed host, no user name or password before '@'), so the
/// token is never handed over with a URL whose host is not what it seems.
pub(crate) fn call_args(
    target: &GatewayTarget,
    session_key: &str,
    timeout: Duration,
) -> Result<Vec<String>, VerifyError> {
    let url = crate::gateway_client::endpoint::websocket_url(&target.url).map_err(|e| {
        VerifyError::Gateway {
            method: METHOD.to_string(),
            message: format!("--gateway: {e}"),
        }
    })?;
    let mut args = vec![
        "gateway".to_string(),
        "call".to_string(),
        METHOD.to_string(),
        "--json".to_string(),
        "--params".to_string(),
        json!({ "sessionKey": session_key }).to_string(),
        "--url".to_string(),
        url,
        "--timeout".to_string(),
        timeout.as_millis().to_string(),
    ];
    if let Some(token) = &target.token {
        args.extend(["--token".to_string(), token.clone()]);
    }
    Ok(args)
}

/// Reads `gateway call --json` output: the answer, or the gateway's error message.
pub fn parse_answer(stdout: &str) -> Result<ObservedView, VerifyError> {
    let gateway_error = |message: String| VerifyError::Gateway {
        method: METHOD.to_string(),
        message,
    };
    let start = stdout.find('{').ok_or_else(|| {
        gateway_error(format!(
            "no JSON in the CLI's output: {}",
            stdout.trim().chars().take(400).collect::<String>()
        ))
    })?;
    let answer: Value = serde_json::from_str(stdout[start..].trim())
        .map_err(|err| gateway_error(format!("unreadable JSON answer: {err}")))?;
    if answer.get("ok") == Some(&Value::Bool(false)) {
        let message = answer
            .pointer("/error/message")
            .and_then(Value::as_str)
            .unwrap_or("failed without a message")
            .to_string();
        return Err(gateway_error(message));
    }
    ObservedView::from_tools_effective(&answer)
        .ok_or_else(|| gateway_error("the answer has no groups[].tools[]".to_string()))
}

/// Asks the gateway which tools `session_key` has.
pub async fn observe_gateway(
    target: &GatewayTarget,
    session_key: &str,
    openclaw_bin: Option<&Path>,
    timeout: Duration,
) -> Result<ObservedView, VerifyError> {
    let program = find_openclaw(openclaw_bin)?;
    // The CLI's own --timeout bounds the call; ours also covers node's start-up.
    let stdout = run_cli_stdout(
        &program,
        call_args(target, session_key, timeout)?,
        timeout + Duration::from_secs(30),
    )
    .await?;
    parse_answer(&stdout)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn arguments_name_the_session_and_the_websocket_url() {
        let target = GatewayTarget {
            url: "http://127.0.0.1:18789".into(),
            token: Some("t".into()),
        };
        let args = call_args(&target, "agent:ops:main", Duration::from_secs(10)).unwrap();
        assert_eq!(&args[..4], ["gateway", "call", "tools.effective", "--json"]);
        assert_eq!(args[5], r#"{"sessionKey":"agent:ops:main"}"#);
        assert_eq!(args[7], "ws://127.0.0.1:18789");
        assert_eq!(args[9], "10000");
        assert_eq!(&args[10..], ["--token", "t"]);
        let sneaky = GatewayTarget {
            url: "ws://127.0.0.1:1@evil.example".into(),
            token: Some("t".into()),
        };
        let err = call_args(&sneaky, "agent:ops:main", Duration::from_secs(10)).unwrap_err();
        assert!(
            err.to_string().contains("--gateway: ")
                && err.to_string().contains("user name or password"),
            "{err}"
        );
    }

    #[test]
    fn answers_and_errors_are_read() {
        let view = parse_answer(
            r#"{"agentId":"main","groups":[{"id":"core","tools":[{"id":"read","source":"core"}]}]}"#,
        )
        .unwrap();
        assert_eq!(view.exposed_names(), ["read"]);
        let err = parse_answer(
            r#"{"ok":false,"error":{"message":"unknown session key \"agent:x:main\""}}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown session key"), "{err}");
        assert!(parse_answer("gateway connect failed").is_err());
    }
}
