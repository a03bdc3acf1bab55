//! Tool-name normalisation (OpenClaw's `normalizeToolName`): trim, lowercase, aliases.

use std::borrow::Cow;

/// Names OpenClaw accepts for other tools.
pub(crate) const TOOL_NAME_ALIASES: &[(&str, &str)] =
    &[("bash", "exec"), ("apply-patch", "apply_patch")];

/// Trims, lowercases and resolves aliases (`Bash` → `exec`).
/// `normalized`, then the pack's aliases (`cron` → `automations` in 2026.9, nothing in the seed).
pub fn canonical<'a>(name: &'a str, semantics: &crate::semantics::Semantics) -> Cow<'a, str> {
    let base = normalized(name);
    match semantics.alias_target(base.as_ref()) {
        Some(target) => Cow::Owned(target.to_string()),
        None => base,
    }
}

pub fn normalize_tool_name(name: &str) -> String {
    normalized(name).into_owned()
}

/// `normalize_tool_name` without a copy when the name is already normal (the usual case for
/// config entries and registry names): only a name with upper-case or non-ASCII letters is
/// lowercased into a new string.
pub(crate) fn normalized(name: &str) -> Cow<'_, str> {
    let trimmed = name.trim();
    let lowered = if trimmed
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(trimmed)
    } else {
        Cow::Owned(trimmed.to_lowercase())
    };
    match TOOL_NAME_ALIASES
        .iter()
        .find(|(alias, _)| *alias == lowered.as_ref())
    {
        Some((_, target)) => Cow::Borrowed(target),
        None => lowered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_lowercases_and_resolves_aliases() {
        assert_eq!(normalize_tool_name("  Read "), "read");
        assert_eq!(normalize_tool_name("BASH"), "exec");
        assert_eq!(normalize_tool_name("apply-patch"), "apply_patch");
        assert_eq!(normalize_tool_name("sessions_*"), "sessions_*");
        assert_eq!(normalize_tool_name("   "), "");
        assert_eq!(normalize_tool_name("ÉCRIRE"), "écrire");
    }

    #[test]
    fn normal_names_are_not_copied() {
        assert!(matches!(normalized("read"), Cow::Borrowed("read")));
        assert!(matches!(normalized(" read "), Cow::Borrowed("read")));
        assert!(matches!(normalized("bash"), Cow::Borrowed("exec")));
        assert!(matches!(normalized("Read"), Cow::Owned(s) if s == "read"));
    }
}
