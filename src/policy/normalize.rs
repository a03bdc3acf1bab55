//! Tool-name normalisation (OpenClaw's `normalizeToolName`): trim, lowercase, aliases.

/// Names OpenClaw accepts for other tools.
pub const TOOL_NAME_ALIASES: &[(&str, &str)] = &[("bash", "exec"), ("apply-patch", "apply_patch")];

/// Trims, lowercases and resolves aliases (`Bash` → `exec`).
pub fn normalize_tool_name(name: &str) -> String {
    let lowered = name.trim().to_lowercase();
    TOOL_NAME_ALIASES
        .iter()
        .find(|(alias, _)| *alias == lowered)
        .map(|(_, target)| target.to_string())
        .unwrap_or(lowered)
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
    }
}
