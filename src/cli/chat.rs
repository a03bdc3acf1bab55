//! `clawdeck chat --session KEY [--agent A] -m TEXT`: one turn in a live session through the
//! gateway's `chat.send`, its reply and tool calls printed as they happen. Ctrl-C (SIGTERM,
//! SIGHUP) aborts the turn on the gateway before exiting.

use clap::Args;

use super::gateway_args::GatewayArgs;
use super::gateway_args::attach_all;
use super::{Cli, exit};
use crate::gateway::chat::{ChatEvent, ChatRequest, run_turn};
use crate::sanitize::{OutputGuard, StdStream, StreamFilter};

#[derive(Debug, Args)]
pub struct ChatArgs {
    /// The session to talk to (e.g. agent:ops:main)
    #[arg(long, value_name = "KEY")]
    pub session: String,
    /// The agent, when the session key does not name it
    #[arg(long, value_name = "AGENT")]
    pub agent: Option<String>,
    /// The message
    #[arg(short = 'm', long = "message", value_name = "TEXT")]
    pub message: String,
    #[command(flatten)]
    pub gateway: GatewayArgs,
    /// One JSON object per event of the turn
    #[arg(long)]
    pub json: bool,
}

pub fn run(cli: &Cli, args: &ChatArgs) -> u8 {
    if args.session.trim().is_empty() || args.message.trim().is_empty() {
        eprintln!("clawdeck chat: --session and --message must not be empty");
        return exit::USAGE;
    }
    let runtime = match super::async_runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clawdeck chat: {e}");
            return exit::TOOL_ERROR;
        }
    };
    runtime.block_on(chat(cli, args))
}

async fn chat(cli: &Cli, args: &ChatArgs) -> u8 {
    // An approver connection: the turn's exec approvals reach this device (and so
    // `approvals watch` / the console from the same state directory) and are shown here.
    let (clients, _) = match attach_all(cli, &args.gateway, "chat", true).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    if clients.len() > 1 {
        eprintln!(
            "clawdeck chat: {} gateways are configured; name the one to talk to with --gateway URL",
            clients.len()
        );
        close_all(&clients);
        return exit::USAGE;
    }
    let client = &clients[0];
    let request = ChatRequest::new(&args.session, args.agent.as_deref(), &args.message);
    let mut printer = Printer::new(args.json, super::output_guard(cli));
    // Ctrl-C, SIGTERM or SIGHUP: abort the turn; the stop policy then exits 128 + n.
    let stop = crate::process::stop_signals::stop_signals();
    let stop = async move {
        stop.await;
    };
    let outcome = run_turn(client, &request, stop, |event| printer.print(event)).await;
    printer.finish();
    close_all(&clients);
    match outcome {
        Ok(ChatEvent::Final { .. }) => exit::OK,
        Ok(ChatEvent::Aborted { reason }) => {
            super::err_untrusted(
                cli,
                &format!("clawdeck chat: the turn was aborted ({reason})"),
            );
            exit::TOOL_ERROR
        }
        Ok(ChatEvent::Error { message }) => {
            super::err_untrusted(cli, &format!("clawdeck chat: the turn failed: {message}"));
            exit::TOOL_ERROR
        }
        Ok(_) => exit::TOOL_ERROR,
        Err(err) => {
            super::err_untrusted(
                cli,
                &format!("clawdeck chat: {}: {err}", client.endpoint().name),
            );
            exit::TOOL_ERROR
        }
    }
}

fn close_all(clients: &[crate::gateway::GatewayClient]) {
    for client in clients {
        client.close();
    }
}

/// Writes a turn's events: JSON lines, or the reply as it streams with a line for each tool
/// call and approval (gateway text neutralised for a terminal).
struct Printer {
    json: bool,
    /// Stdout through a bounded queue: a reader that stops reading never makes the turn's
    /// events pile up (what does not fit is dropped, and the gap says how much).
    out: super::bounded_out::BoundedOut,
    guard: OutputGuard,
    reply: StreamFilter,
    /// Reply text is on the current line (a tool line first ends it).
    mid_line: bool,
    /// On a terminal: reply lines that start like one of clawdeck's own lines are marked.
    marker: Option<ReplyMarker>,
}

/// On a terminal, a reply line starting with `[` (after any colours) is prefixed `│ `, so a
/// reply cannot print a line that passes for clawdeck's own `[tool …]` or `[approval] …`.
#[derive(Default)]
struct ReplyMarker {
    at_line_start: bool,
}

impl ReplyMarker {
    const MARK: &'static [u8] = "│ ".as_bytes();

    /// `clean`: sanitized text (whole SGR sequences only, never split across chunks).
    fn mark(&mut self, clean: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(clean.len() + 4);
        let mut i = 0;
        while i < clean.len() {
            if self.at_line_start {
                if clean[i] == 0x1b {
                    // A colour at the line's start: copy it whole, the line has not begun.
                    let end = clean[i..]
                        .iter()
                        .position(|&b| b == b'm')
                        .map_or(clean.len(), |p| i + p + 1);
                    out.extend_from_slice(&clean[i..end]);
                    i = end;
                    continue;
                }
                if clean[i] == b'[' {
                    out.extend_from_slice(Self::MARK);
                }
                self.at_line_start = false;
            }
            out.push(clean[i]);
            self.at_line_start = clean[i] == b'\n';
            i += 1;
        }
        out
    }
}

impl Printer {
    fn new(json: bool, guard: OutputGuard) -> Printer {
        Printer {
            json,
            out: super::bounded_out::BoundedOut::watch_stdout(json),
            guard,
            reply: guard.filter(StdStream::Stdout),
            mid_line: false,
            marker: guard.neutralises(StdStream::Stdout).then_some(ReplyMarker {
                at_line_start: true,
            }),
        }
    }

    /// Queues `bytes` as one piece of output (never waits for the reader).
    fn emit(&mut self, bytes: &[u8]) {
        use std::io::Write;
        if !bytes.is_empty() {
            let _ = self.out.write_all(bytes).and_then(|()| self.out.flush());
        }
    }

    fn print(&mut self, event: &ChatEvent) {
        if self.json {
            self.emit(
                format!("{}\n", crate::cli::json_text::value_line(&event.to_json())).as_bytes(),
            );
            return;
        }
        match event {
            ChatEvent::Delta { text, replace } => {
                if *replace {
                    self.line("[reply replaced]");
                }
                let mut bytes = self.reply.feed(text.as_bytes()).into_owned();
                if let Some(marker) = &mut self.marker {
                    if !self.mid_line {
                        marker.at_line_start = true;
                    }
                    bytes = marker.mark(&bytes);
                }
                self.emit(&bytes);
                if !text.is_empty() {
                    self.mid_line = !text.ends_with('\n');
                }
            }
            ChatEvent::Started { .. } | ChatEvent::Status { .. } => {}
            ChatEvent::Final { .. } => {}
            other => {
                if let Some(line) = describe(other) {
                    self.line(&line);
                }
            }
        }
    }

    /// A line of its own (after ending the reply's current line and the attributes it left on).
    fn line(&mut self, text: &str) {
        let close = self.reply.close();
        self.emit(&close);
        if self.mid_line {
            self.emit(b"\n");
            self.mid_line = false;
        }
        let text = crate::gateway::watch::one_line(text);
        let line = format!("{}\n", self.guard.lines(StdStream::Stdout, &text));
        self.emit(line.as_bytes());
    }

    /// Ends the reply's line, then waits a bounded time for the reader to take what is queued.
    fn finish(mut self) {
        if !self.json {
            let close = self.reply.close();
            self.emit(&close);
        }
        if self.mid_line && !self.json {
            self.emit(b"\n");
        }
    }
}

/// The line for a tool call, an approval or the turn's end. An approval is written by the
/// one approval formatter (every field visible, hidden characters flagged) with the command
/// that answers it, its id quoted for the shell.
fn describe(event: &ChatEvent) -> Option<String> {
    Some(match event {
        ChatEvent::Tool(call) => match call.phase.as_str() {
            "start" => format!("[tool {}] {}", call.name, call.args),
            "result" => format!(
                "[tool {}] {}: {}",
                call.name,
                if call.is_error { "error" } else { "result" },
                call.output.as_deref().unwrap_or("").trim_end()
            ),
            _ => return None,
        },
        ChatEvent::Approval(a) => format!(
            "[approval] {} (answer: {})",
            a.describe(),
            a.answer_command()
        ),
        ChatEvent::ApprovalResolved { id, decision } => format!(
            "[approval] {} {}",
            crate::sanitize::visible(id).text,
            crate::sanitize::visible(decision).text
        ),
        ChatEvent::Aborted { reason } => format!("[aborted] {reason}"),
        ChatEvent::Error { message } => format!("[error] {message}"),
        ChatEvent::Gap { dropped } => format!(
            "[gap] {dropped} gateway events left out (clawdeck fell behind); the reply may miss text"
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::watch::ToolCall;
    use serde_json::json;

    #[test]
    fn reply_lines_that_look_like_ours_are_marked() {
        let mut marker = ReplyMarker {
            at_line_start: true,
        };
        let out = marker.mark(b"[approval] fake\nok [x]\n\x1b[1m[tool exec] fake\n");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "│ [approval] fake\nok [x]\n\x1b[1m│ [tool exec] fake\n"
        );
        // A line split across chunks: marked where it starts, once.
        let mut marker = ReplyMarker {
            at_line_start: true,
        };
        let first = marker.mark(b"hi\n");
        let second = marker.mark(b"[tool");
        assert_eq!([first, second].concat(), "hi\n│ [tool".as_bytes());
    }

    #[test]
    fn tool_calls_and_approvals_are_one_line_each() {
        let call = ToolCall {
            name: "exec".into(),
            phase: "result".into(),
            call_id: "c".into(),
            args: json!({"command": "echo hi"}),
            output: Some("hi\nthere\n".into()),
            is_error: false,
            run_id: "r".into(),
            ts: None,
            duration_ms: None,
        };
        let line = describe(&ChatEvent::Tool(call)).unwrap();
        assert_eq!(line, "[tool exec] result: hi\nthere");
        assert_eq!(
            crate::gateway::watch::one_line(&line),
            "[tool exec] result: hi⏎there"
        );
        assert_eq!(
            describe(&ChatEvent::Status {
                phase: "starting_model".into()
            }),
            None
        );
    }
}
