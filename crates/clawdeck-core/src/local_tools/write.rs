//! `write`: the whole file, parent directories created.

use std::sync::Arc;

use serde_json::json;

use super::guarded_io::{OpenError, read_to_string};
use super::path_guard::{PathAccess, PathGuard};
use crate::tool::params::{ReadOptions, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

pub struct WriteTool {
    spec: ToolSpec,
    guard: Arc<PathGuard>,
}

impl WriteTool {
    pub fn new(spec: ToolSpec, guard: Arc<PathGuard>) -> Self {
        WriteTool { spec, guard }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let raw_path =
            read_string(&call.params, "path", ReadOptions::required())?.unwrap_or_default();
        // Content is written as given: no trimming, and an empty file is a valid request.
        let content = read_string(
            &call.params,
            "content",
            ReadOptions::required().untrimmed().allow_empty(),
        )?
        .unwrap_or_default();
        let bytes = content.len();
        replace_file(&self.guard, &raw_path, content.into_bytes())
            .await
            .map_err(|e| e.into_tool_error(&format!("Cannot write {raw_path}")))?;
        Ok(ToolResult::text(
            format!("Successfully wrote {} bytes to {raw_path}", bytes),
            json!({"path": raw_path, "bytes": bytes}),
        ))
    }
}

/// `PathGuard::replace_file` off the async runtime's threads.
pub(crate) async fn replace_file(
    guard: &Arc<PathGuard>,
    raw_path: &str,
    bytes: Vec<u8>,
) -> Result<(), OpenError> {
    let guard = Arc::clone(guard);
    let raw_path = raw_path.to_string();
    tokio::task::spawn_blocking(move || guard.replace_file(&raw_path, &bytes))
        .await
        .unwrap_or_else(|e| Err(OpenError::Io(std::io::Error::other(e))))
}

/// `PathGuard::open_regular` and a whole-text read, off the async runtime's threads.
pub(crate) async fn read_whole_text(
    guard: &Arc<PathGuard>,
    raw_path: &str,
    access: PathAccess,
) -> Result<String, OpenError> {
    let guard = Arc::clone(guard);
    let raw_path = raw_path.to_string();
    tokio::task::spawn_blocking(move || {
        let mut file = guard.open_regular(&raw_path, access)?;
        read_to_string(&mut file).map_err(OpenError::Io)
    })
    .await
    .unwrap_or_else(|e| Err(OpenError::Io(std::io::Error::other(e))))
}

impl Tool for WriteTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}
