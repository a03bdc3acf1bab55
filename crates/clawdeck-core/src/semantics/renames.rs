//! Tools a release renamed without an alias (assets/openclaw/renames.json): `image` is
//! `view_image` from 2026.9 on, and the old name matches nothing there.

use std::sync::OnceLock;

use serde::Deserialize;

use super::Semantics;
use super::normalize::normalize_tool_name;

const RENAMES_JSON: &str = include_str!("../../../../assets/openclaw/renames.json");

/// A tool renamed without an alias (see assets/openclaw/renames.json).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Rename {
    pub from: String,
    pub to: String,
    /// The first version without the old name.
    pub since: String,
}

pub(crate) fn renames() -> &'static [Rename] {
    static PARSED: OnceLock<Vec<Rename>> = OnceLock::new();
    PARSED.get_or_init(|| {
        #[derive(Deserialize)]
        struct File {
            renames: Vec<Rename>,
        }
        match serde_json::from_str::<File>(RENAMES_JSON) {
            Ok(file) => file.renames,
            Err(err) => {
                tracing::error!("assets/openclaw/renames.json is invalid: {err}");
                Vec::new()
            }
        }
    })
}

/// The rename that applies to `name` in `semantics`' version, unless the version still has a
/// tool of that name.
pub(crate) fn rename_in(name: &str, semantics: &Semantics) -> Option<&'static Rename> {
    let name = normalize_tool_name(name);
    if semantics.tools.iter().any(|t| t.name == name) {
        return None;
    }
    renames()
        .iter()
        .find(|r| r.from == name && at_or_after(&semantics.id, &r.since))
}

/// Whether pack `id` is at or after version `since` (`seed` is before every version).
fn at_or_after(id: &str, since: &str) -> bool {
    let parse = |v: &str| -> Option<Vec<u64>> { v.split('.').map(|p| p.parse().ok()).collect() };
    match (parse(id), parse(since)) {
        (Some(id), Some(since)) => id >= since,
        _ => false,
    }
}

/// The name `semantics`' version gives a tool it renamed without an alias (`image` →
/// `view_image` from 2026.9 on); `None` when it did not rename `name`.
pub(crate) fn renamed_to(name: &str, semantics: &Semantics) -> Option<String> {
    rename_in(name, semantics).map(|r| r.to.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_asset_parses_and_versions_compare() {
        assert!(
            renames()
                .iter()
                .any(|r| r.from == "image" && r.to == "view_image")
        );
        assert!(at_or_after("2026.9", "2026.9"));
        assert!(at_or_after("2026.9.6", "2026.9"));
        assert!(at_or_after("2026.10", "2026.9"));
        assert!(!at_or_after("2026.8.1", "2026.9"));
        assert!(!at_or_after("seed", "2026.9"));
    }
}
