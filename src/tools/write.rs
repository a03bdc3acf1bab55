//! `write`: the whole file, parent directories created.

use std::sync::Arc;

use serde_json::json;

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
        let path = self.guard.resolve(&raw_path, PathAccess::Write)?;
        write_file(&path, content.as_bytes())
            .await
            .map_err(|e| ToolError::failed(format!("Cannot write {raw_path}: {e}")))?;
        Ok(ToolResult::text(
            format!("Successfully wrote {} bytes to {raw_path}", content.len()),
            json!({"path": raw_path, "bytes": content.len()}),
        ))
    }
}

/// Creates the parent directories, then writes.
pub async fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent).await?;
    }
    tokio::fs::write(path, bytes).await
}

impl Tool for WriteTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}
