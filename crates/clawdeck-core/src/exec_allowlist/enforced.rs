//! The gateway's enforced rewrite: before an allowlisted command line runs on the gateway host,
//! OpenClaw pins each command to the executable the allowlist checked
//! (`buildAuthorizedShellCommandFromPlan` in "enforced" mode). Where it cannot, the allowlist
//! hit no longer lets the command run unasked: an explicit approval is required.

use super::evaluate::SatisfiedBy;
use super::plan::{Candidate, Plan};

/// "shell expansion in enforced arguments": a glob, brace or `~` the shell would expand after
/// the check.
pub const SHELL_EXPANSION: &str = "shell expansion in enforced arguments";
/// "segment execution plan unavailable": nothing to pin behind a blocking wrapper.
pub const PLAN_UNAVAILABLE: &str = "segment execution plan unavailable";
/// "shell quoting required in wrapper payload": an allowlisted command inside `sh -c '...'`.
pub const WRAPPER_PAYLOAD: &str = "shell quoting required in wrapper payload";

/// Why the rewrite fails for this plan and these per-candidate answers, or None when it pins
/// every command (the tests compare it with OpenClaw's own, case by case). Span bookkeeping
/// failures cannot happen on a plan built from the same text.
pub fn rewrite_failure(plan: &Plan, satisfied_by: &[Option<SatisfiedBy>]) -> Option<String> {
    let groups = match plan {
        Plan::Failed(reason) => return Some(reason.clone()),
        Plan::Groups(groups) => groups,
    };
    let candidates: Vec<&Candidate> = groups.iter().flat_map(|g| &g.candidates).collect();
    if candidates.len() != satisfied_by.len() {
        return Some("segment metadata mismatch".to_string());
    }
    for (candidate, by) in candidates.iter().zip(satisfied_by) {
        if has_unquoted_shell_expansion(&candidate.args_source) {
            return Some(SHELL_EXPANSION.to_string());
        }
        if *by == Some(SatisfiedBy::SafeBuiltins) {
            continue;
        }
        if candidate.trust.blocked {
            // A blocking wrapper (`sudo`, `env FOO=1`) leaves no argv to pin.
            return Some(PLAN_UNAVAILABLE.to_string());
        }
        if candidate.in_wrapper_payload {
            return Some(WRAPPER_PAYLOAD.to_string());
        }
    }
    None
}

/// `hasUnquotedShellExpansionSource`: outside quotes and escapes, a `{`, `*`, `?` or `[`
/// anywhere, or a `~` starting a word.
pub fn has_unquoted_shell_expansion(text: &str) -> bool {
    #[derive(PartialEq)]
    enum Quote {
        None,
        Single,
        Double,
    }
    let mut quote = Quote::None;
    let mut escaped = false;
    let mut at_word_start = true;
    for c in text.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        if quote != Quote::Single && c == '\\' {
            escaped = true;
            continue;
        }
        match quote {
            Quote::Single => {
                if c == '\'' {
                    quote = Quote::None;
                }
                continue;
            }
            Quote::Double => {
                if c == '"' {
                    quote = Quote::None;
                }
                continue;
            }
            Quote::None => {}
        }
        match c {
            '\'' => quote = Quote::Single,
            '"' => quote = Quote::Double,
            c if c.is_whitespace() => at_word_start = true,
            '~' if at_word_start => return true,
            '{' | '*' | '?' | '[' => return true,
            _ => at_word_start = false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_outside_quotes_count_and_quoted_ones_do_not() {
        for text in [
            " *.md",
            " ~",
            " ~/x",
            " {a,b}",
            " a?",
            " a[1]",
            " x \"y\" *",
        ] {
            assert!(has_unquoted_shell_expansion(text), "{text:?}");
        }
        for text in [" '*.md'", " \"*.md\"", " \\*", " a~b", " /", ""] {
            assert!(!has_unquoted_shell_expansion(text), "{text:?}");
        }
    }
}
