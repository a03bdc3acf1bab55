//! How the channel plugins find a conversation's entry in their maps: exactly, ignoring case
//! (OpenClaw's `resolveScopeKeyCaseInsensitive`), or by slug (`normalizeChannelSlug` inside
//! `resolveChannelEntryMatchWithFallback`). `"*"` is never a conversation's own entry.

use serde_json::{Map, Value};

/// The wildcard entry's key.
pub(super) const WILDCARD: &str = "*";

/// `id`'s own key in `map`, exactly as given.
pub(super) fn exact(map: &Map<String, Value>, id: &str) -> Option<String> {
    let id = id.trim();
    (!id.is_empty() && id != WILDCARD && map.contains_key(id)).then(|| id.to_string())
}

/// `id`'s own key in `map`: exactly as given, else the first key equal ignoring case.
pub(super) fn exact_or_case_insensitive(map: &Map<String, Value>, id: &str) -> Option<String> {
    let id = id.trim();
    if id.is_empty() || id == WILDCARD {
        return None;
    }
    if map.contains_key(id) {
        return Some(id.to_string());
    }
    let lowered = id.to_lowercase();
    map.keys()
        .find(|k| k.as_str() != WILDCARD && k.to_lowercase() == lowered)
        .cloned()
}

/// `id`'s own key in `map`: exactly as given, else the first key with the same slug.
pub(super) fn exact_or_slug(map: &Map<String, Value>, id: &str) -> Option<String> {
    let id = id.trim();
    if id.is_empty() || id == WILDCARD {
        return None;
    }
    if map.contains_key(id) {
        return Some(id.to_string());
    }
    let wanted = slug(id);
    if wanted.is_empty() {
        return None;
    }
    map.keys().find(|k| slug(k) == wanted).cloned()
}

/// `key`, else `"*"` when the map has it.
pub(super) fn or_wildcard(map: &Map<String, Value>, key: Option<String>) -> Option<String> {
    key.or_else(|| map.contains_key(WILDCARD).then(|| WILDCARD.to_string()))
}

/// OpenClaw's `normalizeChannelSlug`: lower-cased, without a leading `#`, every run of
/// characters other than `a-z0-9` one `-`, no `-` at either end.
pub(super) fn slug(value: &str) -> String {
    let lowered = value.trim().to_lowercase();
    let body = lowered.strip_prefix('#').unwrap_or(&lowered);
    let mut out = String::with_capacity(body.len());
    for c in body.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn slug_is_openclaws_normalize_channel_slug() {
        assert_eq!(slug("#General Chat"), "general-chat");
        assert_eq!(slug("19:ABC@thread.tacv2"), "19-abc-thread-tacv2");
        assert_eq!(slug("--x--"), "x");
        assert_eq!(slug("*"), "");
        assert_eq!(slug("Ünï"), "n");
    }

    #[test]
    fn keys_are_found_exactly_then_loosely_and_never_as_the_wildcard() {
        let m = map(json!({"#Dev": 1, "*": 2, "room-one": 3}));
        assert_eq!(
            exact_or_case_insensitive(&m, "#dev").as_deref(),
            Some("#Dev")
        );
        assert_eq!(exact_or_case_insensitive(&m, "*"), None);
        assert_eq!(exact_or_case_insensitive(&m, "dev"), None);
        assert_eq!(exact_or_slug(&m, "Room One").as_deref(), Some("room-one"));
        assert_eq!(exact_or_slug(&m, "*"), None);
        assert_eq!(or_wildcard(&m, None).as_deref(), Some("*"));
    }
}
