//! The stdio framing in front of the SDK: one JSON-RPC message per line. A line that is not
//! JSON (or not UTF-8) never reaches the SDK, which would drop it without a word and leave the
//! client waiting; it is answered here with JSON-RPC 2.0's parse error (-32700, id null) and the
//! session goes on. Every answer reaches the output as a whole line: the SDK's lines and these
//! errors are merged by one writer.

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// The longest line read (the SDK's own cap): a longer one is answered with a parse error
/// and skipped to its end, never buffered whole.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Bytes in flight between this framing and the SDK, each way.
const PIPE_BYTES: usize = 64 * 1024;
/// Parse errors waiting to be written; more wait for room (the reader slows down).
const ERRORS_QUEUED: usize = 64;
/// JSON-RPC 2.0: "Invalid JSON was received by the server".
pub(crate) const PARSE_ERROR: i64 = -32700;

/// The SDK's ends of the two pipes: it reads checked lines from `input` and writes to `output`.
pub struct SdkEnds {
    pub input: DuplexStream,
    pub output: DuplexStream,
}

/// The tasks that move lines between the real streams and the SDK; aborted when dropped.
pub struct Framing {
    reader: tokio::task::JoinHandle<()>,
    writer: tokio::task::JoinHandle<()>,
}

impl Framing {
    /// Waits (at most `grace`) for the SDK's last lines to be written out.
    pub(crate) async fn flush(mut self, grace: std::time::Duration) {
        let _ = tokio::time::timeout(grace, &mut self.writer).await;
    }
}

impl Drop for Framing {
    fn drop(&mut self) {
        self.reader.abort();
        self.writer.abort();
    }
}

/// Starts the framing between `input`/`output` (stdin/stdout) and the SDK.
pub fn frame<R, W>(input: R, output: W) -> (SdkEnds, Framing)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (to_sdk, sdk_input) = tokio::io::duplex(PIPE_BYTES);
    let (sdk_output, from_sdk) = tokio::io::duplex(PIPE_BYTES);
    let (errors_tx, errors_rx) = mpsc::channel(ERRORS_QUEUED);
    let reader = tokio::spawn(check_lines(input, to_sdk, errors_tx));
    let writer = tokio::spawn(merge_output(from_sdk, errors_rx, output));
    (
        SdkEnds {
            input: sdk_input,
            output: sdk_output,
        },
        Framing { reader, writer },
    )
}

/// What one input line is.
#[derive(Debug, PartialEq)]
pub enum Line<'a> {
    /// JSON text for the SDK (a byte order mark and a trailing `\r` removed).
    Message(&'a [u8]),
    /// Nothing but whitespace: not a message, not answered.
    Blank,
    /// Not JSON: the parse error's message.
    Undecodable(String),
}

/// Judges one line (without its `\n`).
pub fn judge(line: &[u8]) -> Line<'_> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let Ok(text) = std::str::from_utf8(line) else {
        return Line::Undecodable("Parse error: the line is not UTF-8".to_string());
    };
    if text.trim().is_empty() {
        return Line::Blank;
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => Line::Message(line),
        Err(err) => Line::Undecodable(format!("Parse error: the line is not JSON ({err})")),
    }
}

/// The answer to an undecodable line.
pub(crate) fn parse_error_line(message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": PARSE_ERROR, "message": message}})
        .to_string()
}

/// Reads `input` line by line: messages go to the SDK, the rest are answered through `errors`.
/// Ends at the end of `input` (dropping `to_sdk` closes the SDK's session).
async fn check_lines<R: AsyncRead + Unpin>(
    input: R,
    mut to_sdk: DuplexStream,
    errors: mpsc::Sender<String>,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        let read = match read_line(&mut input, &mut line).await {
            Ok(read) => read,
            Err(err) => {
                tracing::warn!("reading stdin failed: {err}");
                return;
            }
        };
        let answer = match read {
            Read::End => return,
            Read::TooLong => Some(format!(
                "Parse error: the line is longer than {MAX_LINE_BYTES} bytes"
            )),
            Read::Line => match judge(&line) {
                Line::Message(message) => {
                    let sent = async {
                        to_sdk.write_all(message).await?;
                        to_sdk.write_all(b"\n").await
                    };
                    if sent.await.is_err() {
                        return;
                    }
                    None
                }
                Line::Blank => None,
                Line::Undecodable(message) => Some(message),
            },
        };
        if let Some(message) = answer
            && errors.send(parse_error_line(&message)).await.is_err()
        {
            return;
        }
    }
}

enum Read {
    /// A whole line is in the buffer (without its `\n`).
    Line,
    /// A line over `MAX_LINE_BYTES` was skipped to its end.
    TooLong,
    End,
}

/// Reads one line into `line`, never holding more than `MAX_LINE_BYTES` of it.
async fn read_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> std::io::Result<Read> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            // A last line without its newline is still a line.
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::End,
                (false, false) => Read::Line,
            });
        }
        let newline = memchr::memchr(b'\n', available);
        let take = newline.map_or(available.len(), |at| at + 1);
        let content = newline.map_or(available.len(), |at| at);
        if !too_long && line.len() + content > MAX_LINE_BYTES {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(&available[..content]);
        }
        input.consume(take);
        if newline.is_some() {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// Writes the SDK's lines and the parse errors to `output`, each line whole. Ends when the SDK
/// closes its end.
async fn merge_output<W: AsyncWrite + Unpin>(
    from_sdk: DuplexStream,
    mut errors: mpsc::Receiver<String>,
    mut output: W,
) {
    let mut from_sdk = BufReader::new(from_sdk);
    // Kept across iterations: a read cut short by an error line resumes where it stopped.
    let mut pending = Vec::new();
    let mut errors_open = true;
    loop {
        tokio::select! {
            read = from_sdk.read_until(b'\n', &mut pending) => {
                match read {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if write_line(&mut output, &pending).await.is_err() {
                            return;
                        }
                        pending.clear();
                    }
                }
            }
            error = errors.recv(), if errors_open => match error {
                Some(mut line) => {
                    line.push('\n');
                    if write_line(&mut output, line.as_bytes()).await.is_err() {
                        return;
                    }
                }
                None => errors_open = false,
            },
        }
    }
    if !pending.is_empty() {
        let _ = write_line(&mut output, &pending).await;
    }
    // The session ended after the last lines were judged: their answers still go out.
    while let Ok(mut line) = errors.try_recv() {
        line.push('\n');
        if write_line(&mut output, line.as_bytes()).await.is_err() {
            return;
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(output: &mut W, line: &[u8]) -> std::io::Result<()> {
    output.write_all(line).await?;
    output.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_judged_as_json_rpc_frames() {
        assert_eq!(judge(b"{\"a\":1}\r"), Line::Message(b"{\"a\":1}"));
        assert_eq!(judge(b"\xEF\xBB\xBF[]"), Line::Message(b"[]"));
        assert_eq!(judge(b"  \t"), Line::Blank);
        assert!(matches!(judge(b"not json"), Line::Undecodable(m) if m.contains("not JSON")));
        assert!(matches!(judge(b"{\"a\":"), Line::Undecodable(_)));
        assert!(matches!(judge(b"\"\xff\""), Line::Undecodable(m) if m.contains("UTF-8")));
        let answer: serde_json::Value =
            serde_json::from_str(&parse_error_line("Parse error: x")).unwrap_or_default();
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert!(answer.get("id").is_some_and(serde_json::Value::is_null));
    }

    #[tokio::test]
    async fn messages_pass_and_undecodable_lines_are_answered_in_order() {
        let (mut client_in, server_in) = tokio::io::duplex(4096);
        let (server_out, client_out) = tokio::io::duplex(4096);
        let (mut sdk, framing) = frame(server_in, server_out);
        client_in
            .write_all(b"{\"id\":1}\nnope\n\n{\"id\":2}")
            .await
            .unwrap_or_default();
        drop(client_in);
        let mut got = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut sdk.input, &mut got)
            .await
            .unwrap_or_default();
        assert_eq!(got, "{\"id\":1}\n{\"id\":2}\n");
        sdk.output
            .write_all(b"{\"result\":1}\n")
            .await
            .unwrap_or_default();
        drop(sdk);
        framing.flush(std::time::Duration::from_secs(5)).await;
        let mut written = String::new();
        let mut client_out = client_out;
        tokio::io::AsyncReadExt::read_to_string(&mut client_out, &mut written)
            .await
            .unwrap_or_default();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 2, "{written}");
        assert!(lines.contains(&"{\"result\":1}"), "{written}");
        assert!(lines.iter().any(|l| l.contains("-32700")), "{written}");
    }
}
