//! Model-facing names of MCP server tools, built as OpenClaw builds them
//! (`agent-bundle-mcp-names`): `<safe server>__<safe tool>`, provider-safe characters only, a
//! server prefix of at most 30 characters, at most 64 in all, collisions suffixed `-2`, `-3` ...

use std::collections::HashSet;

const MAX_PREFIX: usize = 30;
const MAX_TOTAL: usize = 64;

/// Unsafe characters become `-`; a fragment not starting with a letter gets `<fallback>-`.
fn safe_fragment(raw: &str, fallback: &str, max_chars: Option<usize>) -> String {
    let cleaned: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = if cleaned.is_empty() {
        fallback.to_string()
    } else {
        cleaned
    };
    let safe = if cleaned.starts_with(|c: char| c.is_ascii_alphabetic()) {
        cleaned
    } else {
        format!("{fallback}-{cleaned}")
    };
    match max_chars {
        Some(max) => safe.chars().take(max).collect(),
        None => safe,
    }
}

/// Safe names for the declared servers, in the order given; `used` holds lowercased names.
pub(crate) fn safe_server_names<'a>(servers: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for raw in servers {
        let base = safe_fragment(raw, "mcp", Some(MAX_PREFIX));
        let mut candidate = base.clone();
        let mut n = 2;
        while used.contains(&candidate.to_lowercase()) {
            let suffix = format!("-{n}");
            let keep = MAX_PREFIX.saturating_sub(suffix.len()).max(1);
            candidate = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
            n += 1;
        }
        used.insert(candidate.to_lowercase());
        out.push(candidate);
    }
    out
}

/// `<server>__<tool>`, unique against `reserved` (lowercased names already taken); the caller
/// reserves the result.
pub(crate) fn safe_tool_name(safe_server: &str, tool: &str, reserved: &HashSet<String>) -> String {
    let cleaned = safe_fragment(tool, "tool", None);
    let max_tool = MAX_TOTAL.saturating_sub(safe_server.len() + 2).max(1);
    let truncated: String = cleaned.chars().take(max_tool).collect();
    let base = if truncated.is_empty() {
        "tool".to_string()
    } else {
        truncated
    };
    let mut candidate = format!("{safe_server}__{base}");
    let mut n = 2;
    while reserved.contains(&candidate.to_lowercase()) {
        let suffix = format!("-{n}");
        let keep = max_tool.saturating_sub(suffix.len()).max(1);
        candidate = format!(
            "{safe_server}__{}{suffix}",
            base.chars().take(keep).collect::<String>()
        );
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_names_follow_openclaw_sanitising() {
        assert_eq!(
            safe_server_names(["Outlook Graph", "9lives", "Outlook-Graph", ""]),
            vec!["Outlook-Graph", "mcp-9lives", "Outlook-Graph-2", "mcp"]
        );
        let long = "a".repeat(40);
        assert_eq!(safe_server_names([long.as_str()])[0].len(), 30);
    }

    #[test]
    fn tool_names_are_provider_safe_unique_and_at_most_64_characters() {
        let mut reserved = HashSet::from(["docs__search".to_string()]);
        assert_eq!(
            safe_tool_name("docs", "search", &reserved),
            "docs__search-2"
        );
        assert_eq!(
            safe_tool_name("docs", "read file", &reserved),
            "docs__read-file"
        );
        assert_eq!(safe_tool_name("docs", "2fa", &reserved), "docs__tool-2fa");
        let long = safe_tool_name("docs", &"x".repeat(100), &reserved);
        assert_eq!(long.len(), 64);
        reserved.insert(long.to_lowercase());
        let again = safe_tool_name("docs", &"x".repeat(100), &reserved);
        assert!(again.ends_with("-2") && again.len() == 64, "{again}");
    }
}
