//! The one way `--json` output is written: serde_json's text with DEL, C1 controls, bidi and
//! zero-width characters escaped as `\\uXXXX` (the value is the same for any JSON reader; a
//! terminal showing it cannot be driven or reordered by gateway or child text).

use clawdeck_core::sanitize::escape_hidden_in_json;
use serde::Serialize;

/// Indented JSON.
pub(crate) fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
    escape_hidden_in_json(serde_json::to_string_pretty(value).unwrap_or_default())
}

/// One line of JSON.
pub(crate) fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    escape_hidden_in_json(serde_json::to_string(value).unwrap_or_default())
}

/// One line of JSON for a value, through its own `Display`: the JSON Lines of an event flood
/// (`chat`, `gateway watch`, `gateway logs`) are written many times faster this way.
pub(crate) fn value_line(value: &serde_json::Value) -> String {
    escape_hidden_in_json(value.to_string())
}
