//! Why a process could not be started.

use std::io;
use std::path::PathBuf;

/// A failed spawn. Every variant names the program (and the directory where that matters).
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// ENOENT: no such program (on PATH or at the given path).
    #[error("Command not found: {program}")]
    NotFound { program: String },
    /// EACCES: the program exists but is not executable by us.
    #[error("Command not executable (permission denied): {program}")]
    PermissionDenied { program: String },
    /// The working directory does not exist or is not a directory.
    #[error("Working directory not found: {} (for {program})", cwd.display())]
    BadCwd { program: String, cwd: PathBuf },
    #[error("Empty command: no program given")]
    EmptyProgram,
    /// clawdeck is stopping (a stop signal arrived): nothing new starts.
    #[error("Not started: clawdeck is stopping ({signal}): {program}")]
    Stopping {
        program: String,
        signal: &'static str,
    },
    /// Anything else (ENOEXEC, E2BIG, fork failures, no tokio runtime...).
    #[error("Failed to start {program}: {source}")]
    Other {
        program: String,
        #[source]
        source: io::Error,
    },
}

impl SpawnError {
    pub(crate) fn from_io(program: &str, err: io::Error) -> Self {
        let program = program.to_string();
        match err.kind() {
            io::ErrorKind::NotFound => SpawnError::NotFound { program },
            io::ErrorKind::PermissionDenied => SpawnError::PermissionDenied { program },
            _ => SpawnError::Other {
                program,
                source: err,
            },
        }
    }

    /// Short machine name: `not_found`, `permission_denied`, `bad_cwd`, `empty_program`,
    /// `stopping`, `other`.
    pub fn kind(&self) -> &'static str {
        match self {
            SpawnError::NotFound { .. } => "not_found",
            SpawnError::PermissionDenied { .. } => "permission_denied",
            SpawnError::BadCwd { .. } => "bad_cwd",
            SpawnError::EmptyProgram => "empty_program",
            SpawnError::Stopping { .. } => "stopping",
            SpawnError::Other { .. } => "other",
        }
    }
}
