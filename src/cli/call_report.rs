//! How `invoke` prints a call's outcome (run here or on a gateway) and which exit status it
//! gives.

use serde_json::Value;

use super::exit;
use crate::pipeline::CallOutcome;
use crate::tool::ContentBlock;

/// Prints the outcome and returns the exit status.
pub(crate) fn report(outcome: &CallOutcome, json: bool, guard: crate::sanitize::OutputGuard) -> u8 {
    use crate::sanitize::StdStream::Stdout;
    if json {
        outln!(
            "{}",
            crate::cli::json_text::pretty(&outcome.to_result_json())
        );
    }
    match outcome {
        CallOutcome::Completed {
            result, is_error, ..
        } => {
            if !json {
                for block in &result.content {
                    match block {
                        ContentBlock::Text { text } if text.ends_with('\n') => {
                            out!("{}", guard.text(Stdout, text))
                        }
                        ContentBlock::Text { text } => outln!("{}", guard.text(Stdout, text)),
                        ContentBlock::Image { data, mime_type } => {
                            outln!(
                                "[image {mime_type}, {} bytes base64; use --json to get it]",
                                data.len()
                            )
                        }
                    }
                }
            }
            // A command that ran and exited non-zero is a failure of the call (exit status 1).
            let exit_code = result.details.get("exitCode").and_then(Value::as_i64);
            match exit_code {
                Some(code) if code != 0 => {
                    eprintln!("clawdeck invoke: the command exited with code {code}");
                    exit::TOOL_ERROR
                }
                _ if *is_error => exit::TOOL_ERROR,
                _ => exit::OK,
            }
        }
        CallOutcome::Refused { explanation, .. } => {
            eprintln!("clawdeck invoke: refused: {}", outcome.message());
            if !json {
                eprintln!();
                eprint!("{explanation}");
            }
            exit::REFUSED
        }
        CallOutcome::Blocked { hooks, .. } => {
            eprintln!("clawdeck invoke: blocked: {}", outcome.message());
            for step in hooks {
                if let crate::stages::hooks::HookStep::Failed { hook, detail } = step {
                    eprintln!("  hook {hook} failed: {detail}");
                }
            }
            exit::REFUSED
        }
        CallOutcome::InvalidParams { problems, tool } => {
            eprintln!("clawdeck invoke: invalid parameters for {tool}:");
            for p in problems {
                eprintln!("  {p}");
            }
            exit::USAGE
        }
        CallOutcome::UnknownTool { message, .. } => {
            eprintln!("clawdeck invoke: {message}");
            exit::USAGE
        }
        CallOutcome::Cancelled { .. } => {
            eprintln!("clawdeck invoke: {}", outcome.message());
            exit::TOOL_ERROR
        }
    }
}
