//! Config errors that name the place: file, line, column and key path.

use std::fmt;

/// What went wrong while loading a config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigErrorKind {
    /// The file could not be read.
    Io,
    /// Not valid JSON5.
    Syntax,
    /// Valid JSON5, but a value has the wrong type or shape.
    Type,
}

/// A config error. `Display` gives `<file>:<line>:<column>: <message> (at <key.path>)`, leaving
/// out the parts that are unknown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    pub kind: ConfigErrorKind,
    /// The file (or the embedded demo's name).
    pub file: String,
    /// 1-based line and column.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    /// Where in the document, e.g. `agents.list[1].tools.deny`.
    pub key_path: Option<String>,
    /// More problems found with the first (every issue OpenClaw's schema reports), each on its
    /// own line after it.
    pub further: Box<Vec<ConfigError>>,
}

impl ConfigError {
    pub(crate) fn io(file: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            kind: ConfigErrorKind::Io,
            file: file.into(),
            line: None,
            column: None,
            message: message.into(),
            key_path: None,
            further: Box::default(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(path) = &self.key_path {
            write!(f, " (at {path})")?;
        }
        for more in self.further.iter() {
            write!(f, "\n{more}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_column_and_key() {
        let err = ConfigError {
            kind: ConfigErrorKind::Type,
            file: "/x/openclaw.json".into(),
            line: Some(3),
            column: Some(14),
            message: "invalid type: string \"exec\", expected a sequence".into(),
            key_path: Some("tools.deny".into()),
            further: Box::default(),
        };
        assert_eq!(
            err.to_string(),
            "/x/openclaw.json:3:14: invalid type: string \"exec\", expected a sequence (at tools.deny)"
        );
    }

    #[test]
    fn display_without_position() {
        let err = ConfigError::io("/nope.json", "No such file or directory");
        assert_eq!(err.to_string(), "/nope.json: No such file or directory");
    }
}
