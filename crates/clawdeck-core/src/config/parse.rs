//! JSON5 text → raw value + typed value + the keys the typed model did not use, with errors
//! that carry line, column and key path.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::depth::{MAX_NESTING_DEPTH, too_deep_at};
use super::error::{ConfigError, ConfigErrorKind};
use super::keypath::{KeyPath, KeySegment};
use super::locate::locate_path;

/// Refuses text nested past [`MAX_NESTING_DEPTH`] before any parser recurses into it (the
/// error names `file` and the bracket that went too deep).
pub(crate) fn check_depth(text: &str, file: &str) -> Result<(), ConfigError> {
    match too_deep_at(text, MAX_NESTING_DEPTH) {
        None => Ok(()),
        Some((line, column)) => Err(ConfigError {
            kind: ConfigErrorKind::Syntax,
            file: file.to_string(),
            line: Some(line),
            column: Some(column),
            message: format!("nested deeper than {MAX_NESTING_DEPTH} levels"),
            key_path: None,
            further: Box::default(),
        }),
    }
}

/// A parsed document.
pub(crate) struct Parsed<T> {
    pub raw: Value,
    pub typed: T,
    /// Keys present in the file that the typed model does not know.
    pub ignored: Vec<KeyPath>,
    /// A key written twice in one object, where that is taken (the last wins): the warning.
    pub repeated: Option<String>,
}

/// What a key written twice in one object does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RepeatedKeys {
    /// An error at the repeat (clawdeck's own settings).
    Refuse,
    /// The last one wins, with a warning: OpenClaw's config, as OpenClaw reads it (JSON5's
    /// parser keeps the last).
    LastWins,
}

/// Parses `text` (named `file` in errors) into `T`; a repeated key is an error.
pub(crate) fn parse_document<T: DeserializeOwned>(
    text: &str,
    file: &str,
) -> Result<Parsed<T>, ConfigError> {
    parse_document_with(text, file, RepeatedKeys::Refuse)
}

/// Parses `text` (named `file` in errors) into `T`, repeated keys handled as `repeated` says.
pub(crate) fn parse_document_with<T: DeserializeOwned>(
    text: &str,
    file: &str,
    repeated: RepeatedKeys,
) -> Result<Parsed<T>, ConfigError> {
    check_depth(text, file)?;
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(ConfigError {
            kind: ConfigErrorKind::Syntax,
            file: file.to_string(),
            line: Some(1),
            column: Some(1),
            message: "the file is empty (a config is a JSON5 object, at least `{}`)".to_string(),
            key_path: None,
            further: Box::default(),
        });
    }
    let raw: Value = json5::from_str(text).map_err(|err| {
        json5_error(
            &err,
            file,
            ConfigErrorKind::Syntax,
            syntax_error_path(text),
            text,
        )
    })?;

    let mut json5_de = json5::Deserializer::from_str(text);
    let (typed, ignored, path) = read_typed::<T, _>(&mut json5_de);
    match typed {
        Ok(typed) => Ok(Parsed {
            raw,
            typed,
            ignored,
            repeated: None,
        }),
        Err(err)
            if repeated == RepeatedKeys::LastWins && repeated_key(&err.to_string()).is_some() =>
        {
            let message = err.to_string();
            let name = repeated_key(&message).unwrap_or_default();
            let at = second_key_occurrence(text, name)
                .map(|(line, column)| format!(":{line}:{column}"))
                .unwrap_or_default();
            let warning = format!(
                "{file}{at}: `{name}` is written twice in one object: OpenClaw takes the last one, and so does clawdeck"
            );
            let mut parsed = typed_from_value::<T>(raw, text, file)?;
            parsed.repeated = Some(warning);
            Ok(parsed)
        }
        Err(err) => {
            let mut error = json5_error(&err, file, ConfigErrorKind::Type, Some(path), text);
            // serde reports a repeated key without a position: point at the repeat.
            if let Some((line, column)) =
                repeated_key(&error.message).and_then(|name| second_key_occurrence(text, name))
            {
                error.line = Some(line);
                error.column = Some(column);
            }
            Err(error)
        }
    }
}

/// The key serde's "duplicate field `name`" message names.
fn repeated_key(message: &str) -> Option<&str> {
    message
        .strip_prefix("duplicate field `")
        .and_then(|rest| rest.split('`').next())
}

/// `T` read from `de`: the keys `T` does not know, and the key path reached when it failed.
fn read_typed<'de, T: DeserializeOwned, D: serde::Deserializer<'de>>(
    de: D,
) -> (Result<T, D::Error>, Vec<KeyPath>, KeyPath) {
    let mut ignored = Vec::new();
    let mut track = serde_path_to_error::Track::new();
    let typed = {
        let tracked = serde_path_to_error::Deserializer::new(de, &mut track);
        serde_ignored::deserialize(tracked, |path| ignored.push(ignored_path(&path)))
    };
    let path = tracked_path(&track.path());
    (typed, ignored, path)
}

/// The typed document read from the already parsed `raw` (where a repeated key kept its last
/// value), with the ignored keys and a type error at its key path.
fn typed_from_value<T: DeserializeOwned>(
    raw: Value,
    text: &str,
    file: &str,
) -> Result<Parsed<T>, ConfigError> {
    let (typed, ignored, path) = read_typed::<T, _>(&raw);
    match typed {
        Ok(typed) => Ok(Parsed {
            raw,
            typed,
            ignored,
            repeated: None,
        }),
        Err(err) => {
            let (line, column) = locate_path(text, &path).unzip();
            Err(ConfigError {
                kind: ConfigErrorKind::Type,
                file: file.to_string(),
                line,
                column,
                message: err.to_string(),
                key_path: Some(path.to_string()),
                further: Box::default(),
            })
        }
    }
}

/// Builds a `ConfigError` from a json5 error, finding the position from the key path when the
/// error itself has none.
fn json5_error(
    err: &json5::Error,
    file: &str,
    kind: ConfigErrorKind,
    path: Option<KeyPath>,
    text: &str,
) -> ConfigError {
    let mut message = err.to_string();
    let mut line = None;
    let mut column = None;
    if let Some(position) = err.position() {
        let suffix = format!(" at {position}");
        if let Some(stripped) = message.strip_suffix(&suffix) {
            message = stripped.to_string();
        }
        line = Some(position.line + 1);
        column = Some(position.column + 1);
    } else if let Some(path) = &path
        && let Some((l, c)) = locate_path(text, path)
    {
        line = Some(l);
        column = Some(c);
    }
    ConfigError {
        kind,
        file: file.to_string(),
        line,
        column,
        message,
        key_path: path.filter(|p| !p.is_root()).map(|p| p.to_string()),
        further: Box::default(),
    }
}

/// The key path a syntax error is under (`agents.list[0].tools.allow[1]`), read again with
/// the path tracked; None at the top level.
fn syntax_error_path(text: &str) -> Option<KeyPath> {
    let mut track = serde_path_to_error::Track::new();
    let mut de = json5::Deserializer::from_str(text);
    let tracked = serde_path_to_error::Deserializer::new(&mut de, &mut track);
    let parsed: Result<Value, json5::Error> = serde::Deserialize::deserialize(tracked);
    parsed.err()?;
    Some(tracked_path(&track.path())).filter(|p| !p.is_root())
}

fn tracked_path(path: &serde_path_to_error::Path) -> KeyPath {
    let mut out = KeyPath::root();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => out.push(KeySegment::Index(*index)),
            serde_path_to_error::Segment::Map { key } => out.push(KeySegment::Key(key.clone())),
            serde_path_to_error::Segment::Enum { variant } => {
                out.push(KeySegment::Key(variant.clone()))
            }
            serde_path_to_error::Segment::Unknown => {}
        }
    }
    out
}

fn ignored_path(path: &serde_ignored::Path<'_>) -> KeyPath {
    match path {
        serde_ignored::Path::Root => KeyPath::root(),
        serde_ignored::Path::Seq { parent, index } => ignored_path(parent).index(*index),
        serde_ignored::Path::Map { parent, key } => ignored_path(parent).key(key.clone()),
        serde_ignored::Path::Some { parent }
        | serde_ignored::Path::NewtypeStruct { parent }
        | serde_ignored::Path::NewtypeVariant { parent } => ignored_path(parent),
    }
}

/// Line and column of the second place `name` appears as an object key (`name:`, `"name":` or
/// `'name':`), for duplicate-key errors.
fn second_key_occurrence(text: &str, name: &str) -> Option<(usize, usize)> {
    let mut seen = 0;
    for (line_index, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(found) = line[from..].find(name) {
            let start = from + found;
            let end = start + name.len();
            from = end;
            let before = line[..start].trim_end_matches(['"', '\'']);
            let after = line[end..].trim_start_matches(['"', '\'']).trim_start();
            let starts_key = before
                .chars()
                .last()
                .is_none_or(|c| c == '{' || c == ',' || c.is_whitespace());
            if starts_key && after.starts_with(':') {
                seen += 1;
                if seen == 2 {
                    let column = line[..start].trim_end_matches(['"', '\'']).chars().count() + 1;
                    return Some((line_index + 1, column));
                }
            }
        }
    }
    None
}
