//! Running an external command that takes JSON on stdin and answers on stdout (plugin tools,
//! before_tool_call hooks), under the process supervisor with its timeout and kill rules.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

use crate::process::{self, OutputLimits, ProcessOutcome, ProcessSpec, SpawnError, StdinMode};

/// What to run.
#[derive(Debug, Clone)]
pub(crate) struct JsonCommand {
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub timeout: Duration,
}

/// Starts the command, writes `input` to its stdin and closes it, and waits for the end. A child
/// that exits without reading its stdin is fine (the broken pipe is ignored).
pub(crate) async fn run_json_command(
    command: &JsonCommand,
    input: &Value,
    cancel: &CancellationToken,
) -> Result<ProcessOutcome, SpawnError> {
    let Some((program, args)) = command.argv.split_first() else {
        return Err(SpawnError::EmptyProgram);
    };
    let mut spec = ProcessSpec::new(program.clone())
        .args(args.iter().cloned())
        .stdin(StdinMode::Piped)
        .timeout(Some(command.timeout))
        .limits(OutputLimits {
            max_line_bytes: 1024 * 1024,
            max_retained_lines: 100_000,
            max_retained_bytes: 8 * 1024 * 1024,
        })
        .cancel(cancel.clone());
    if let Some(cwd) = &command.cwd {
        spec = spec.cwd(cwd.clone());
    }
    for (k, v) in &command.env {
        spec = spec.env(k.clone(), v.clone());
    }
    let mut running = process::spawn(spec)?;
    if let Some(mut stdin) = running.take_stdin() {
        let payload = serde_json::to_vec(input).unwrap_or_default();
        // Written from a task so a child that never reads cannot block us past its timeout.
        tokio::spawn(async move {
            let _ = stdin.write_all(&payload).await;
            let _ = stdin.shutdown().await;
        });
    }
    Ok(running.wait().await)
}

/// The last `n` characters of `text`, trimmed (for error messages).
pub fn tail(text: &str, n: usize) -> String {
    let text = text.trim();
    let count = text.chars().count();
    if count <= n {
        text.to_string()
    } else {
        format!("…{}", text.chars().skip(count - n).collect::<String>())
    }
}
