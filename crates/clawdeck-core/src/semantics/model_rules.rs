//! How OpenClaw reads a run's model before asking what it takes: the id a model reference
//! normalizes to (the manifests' `modelIdNormalization`: `anthropic/opus` is
//! `claude-opus-5`, so it takes what that catalog row says), and the anthropic plugin's rule
//! that a newer Claude model takes images whatever its entry says
//! (`applyAnthropicImageInputCapability`, read from each release by extract_rules.mjs).

use std::collections::BTreeMap;

use regex::Regex;
use serde::Deserialize;

/// normalizeClaudeModelId's `/[._\s]+/g`, each run written as one `-` (a constant pattern;
/// the tests compile it).
static SEPARATORS: std::sync::LazyLock<Option<Regex>> =
    std::sync::LazyLock::new(|| Regex::new(r"[._\s]+").ok());

/// One provider's `modelIdNormalization` policy, as its manifest writes it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IdPolicy {
    aliases: BTreeMap<String, String>,
    strip_prefixes: Vec<String>,
    prefix_when_bare: Option<String>,
    prefix_when_bare_after_alias_starts_with: Vec<PrefixRule>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PrefixRule {
    model_prefix: String,
    prefix: String,
}

impl IdPolicy {
    /// OpenClaw's normalizeProviderModelIdWithPolicies: one stripped prefix, an alias (looked up
    /// in lower case), then a namespace for an id without one.
    fn apply(&self, model: &str) -> String {
        let mut id = model.trim().to_string();
        if id.is_empty() {
            return id;
        }
        for prefix in &self.strip_prefixes {
            let prefix = prefix.trim().to_lowercase();
            if !prefix.is_empty() && id.to_lowercase().starts_with(&prefix) {
                id = id.get(prefix.len()..).unwrap_or_default().to_string();
                break;
            }
        }
        if let Some(canonical) = self.aliases.get(&id.to_lowercase()) {
            id = canonical.clone();
        }
        if !id.contains('/') {
            let lower = id.to_lowercase();
            let by_prefix = self
                .prefix_when_bare_after_alias_starts_with
                .iter()
                .find(|rule| lower.starts_with(&rule.model_prefix.to_lowercase()))
                .map(|rule| rule.prefix.as_str());
            if let Some(prefix) = by_prefix.or(self.prefix_when_bare.as_deref()) {
                return format!(
                    "{}/{}",
                    prefix.trim_end_matches('/'),
                    id.trim_start_matches('/')
                );
            }
        }
        id
    }
}

/// The pack's `claudeImageRule`, as extract_rules.mjs reads it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeImageRuleSpec {
    providers: Vec<String>,
    identity_pattern: String,
    modern_patterns: Vec<String>,
    modern_aliases: Vec<String>,
}

/// The anthropic plugin's newer-Claude rule, compiled.
#[derive(Debug, Clone)]
pub struct ClaudeImageRule {
    providers: Vec<String>,
    identity: Regex,
    modern: Vec<Regex>,
    aliases: Vec<String>,
}

/// A release's JavaScript pattern for Rust's regex: a trailing lookahead becomes a plain group
/// (the patterns are only tested, so consuming the character changes no answer); any other
/// lookaround is refused.
fn compile(pattern: &str) -> Result<Regex, String> {
    let mut rust = pattern.to_string();
    if let Some(at) = rust.rfind("(?=")
        && rust.ends_with(')')
        && !rust[at + 3..].contains('(')
    {
        rust.replace_range(at..at + 3, "(?:");
    }
    if rust.contains("(?=") || rust.contains("(?!") || rust.contains("(?<") {
        return Err(format!(
            "claudeImageRule: pattern /{pattern}/ uses lookaround"
        ));
    }
    Regex::new(&rust).map_err(|err| format!("claudeImageRule: pattern /{pattern}/: {err}"))
}

/// Two rules are the same when their patterns are.
impl PartialEq for ClaudeImageRule {
    fn eq(&self, other: &Self) -> bool {
        let patterns = |r: &Self| {
            std::iter::once(&r.identity)
                .chain(&r.modern)
                .map(|re| re.as_str().to_string())
                .collect::<Vec<_>>()
        };
        self.providers == other.providers
            && self.aliases == other.aliases
            && patterns(self) == patterns(other)
    }
}

impl ClaudeImageRule {
    pub fn compile(spec: ClaudeImageRuleSpec) -> Result<Self, String> {
        Ok(ClaudeImageRule {
            providers: spec.providers.iter().map(|p| p.to_lowercase()).collect(),
            identity: compile(&spec.identity_pattern)?,
            modern: spec
                .modern_patterns
                .iter()
                .map(|p| compile(p))
                .collect::<Result<_, _>>()?,
            aliases: spec.modern_aliases,
        })
    }

    /// Whether the rule runs for `provider` (the plugin's own providers).
    pub fn applies(&self, provider: &str) -> bool {
        self.providers.contains(&provider.trim().to_lowercase())
    }

    /// OpenClaw's resolveClaudeModelIdentity: lower case, without `anthropic/`, `.`, `_` and
    /// spaces as `-`, then the Claude part (group 1 when the pattern captures, else from where
    /// `claude-` starts in the match).
    fn identity(&self, id: &str) -> String {
        let lower = id.trim().to_lowercase();
        let bare = lower.strip_prefix("anthropic/").unwrap_or(&lower);
        let normalized = match SEPARATORS.as_ref() {
            Some(separators) => separators.replace_all(bare, "-").into_owned(),
            None => bare.to_string(),
        };
        let Some(found) = self.identity.captures(&normalized) else {
            return normalized;
        };
        match (found.get(1), found.get(0)) {
            (Some(group), _) => group.as_str().to_string(),
            (None, Some(whole)) => match whole.as_str().find("claude-") {
                Some(offset) => normalized[whole.start() + offset..].to_string(),
                None => normalized,
            },
            (None, None) => normalized,
        }
    }

    /// Whether the plugin takes `id` (a model id or name) for a newer Claude model.
    pub fn is_modern(&self, id: &str) -> bool {
        let identity = self.identity(id);
        self.aliases.contains(&identity) || self.modern.iter().any(|r| r.is_match(&identity))
    }
}

/// What a pack says about reading a run's model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelRules {
    /// Provider id (lower case) → its id normalization.
    pub id_policies: BTreeMap<String, IdPolicy>,
    pub claude_images: Option<ClaudeImageRule>,
}

impl ModelRules {
    /// From the pack's `modelIdNormalization` and `claudeImageRule`.
    pub fn from_pack(
        policies: BTreeMap<String, IdPolicy>,
        claude_images: Option<ClaudeImageRuleSpec>,
    ) -> Result<Self, String> {
        Ok(ModelRules {
            id_policies: policies
                .into_iter()
                .map(|(provider, policy)| (provider.trim().to_lowercase(), policy))
                .collect(),
            claude_images: claude_images.map(ClaudeImageRule::compile).transpose()?,
        })
    }

    /// The id OpenClaw looks `provider`'s `model` up by (its `provider/` prefix dropped).
    pub fn normalize_id(&self, provider: &str, model: &str) -> String {
        let id = crate::model_ref::model_id(provider, model);
        match self.id_policies.get(&provider.trim().to_lowercase()) {
            Some(policy) => policy.apply(id),
            None => id.trim().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    fn rule(identity: &str) -> ClaudeImageRule {
        let spec = serde_json::from_value(json!({
            "providers": ["anthropic"],
            "identityPattern": identity,
            "modernPatterns": [
                "(?:^|-)claude-(?:opus-4-(?:6|7|8)|sonnet-(?:5|4-6))(?=$|[^a-z0-9])",
                "(?:^|-)claude-opus-5(?=$|[^a-z0-9])",
            ],
            "modernAliases": ["opus", "opus-5"],
        }))
        .unwrap();
        ClaudeImageRule::compile(spec).unwrap()
    }

    #[test]
    fn newer_claude_ids_and_names_are_modern_older_ones_are_not() {
        let rule = rule("(?:^|[-/])(claude-[^/]+)$");
        for id in [
            "claude-opus-4-6",
            "claude-opus-4.6",
            "Claude Opus 4.6",
            "claude-opus-4-6-fast",
            "anthropic/claude-sonnet-4-6",
            "us.anthropic.claude-opus-4-7-v1",
            "opus",
        ] {
            assert!(rule.is_modern(id), "{id}");
        }
        for id in [
            "claude-sonnet-4-5-20250929",
            "claude-opus-6",
            "claude-opus-4-60",
            "claude-3-5-haiku",
            "opus-4",
            "",
        ] {
            assert!(!rule.is_modern(id), "{id}");
        }
    }

    #[test]
    fn the_identity_shapes_of_the_two_releases_differ_after_a_slash() {
        // 2026.9 takes the last `claude-` segment; 2026.8 slices from the first `claude-`,
        // so a second one behind a slash no longer starts the identity.
        let last = rule("(?:^|[-/])(claude-[^/]+)$");
        let first = rule("(?:^|[-/])claude-");
        assert!(last.is_modern("claude-proxy/claude-opus-4-6"));
        assert!(!first.is_modern("claude-proxy/claude-opus-4-6"));
        assert!(first.is_modern("proxy/claude-opus-4-6"));
    }

    #[test]
    fn only_a_trailing_lookahead_is_accepted() {
        assert!(SEPARATORS.is_some());
        assert!(compile("a(?=b)").is_ok());
        assert!(compile("(?<=a)b").is_err());
        assert!(compile("a(?!b)").is_err());
        assert!(compile("a(?=b)c").is_err());
    }

    #[test]
    fn ids_normalize_as_the_manifests_say() {
        let policies: BTreeMap<String, IdPolicy> = serde_json::from_value(json!({
            "anthropic": {"aliases": {"opus-5-5": "claude-opus-5-5", "sonnet": "claude-sonnet-5"}},
            "huggingface": {"stripPrefixes": ["huggingface/"]},
            "nvidia": {"prefixWhenBare": "nvidia"},
            "kilo": {"prefixWhenBareAfterAliasStartsWith": [{"modelPrefix": "gpt-", "prefix": "openai"}],
                     "prefixWhenBare": "kilo"},
        }))
        .unwrap();
        let rules = ModelRules {
            id_policies: policies,
            claude_images: None,
        };
        let cases = [
            ("anthropic", "anthropic/Sonnet", "claude-sonnet-5"),
            ("Anthropic", "opus-5-5", "claude-opus-5-5"),
            ("anthropic", "claude-opus-4-6", "claude-opus-4-6"),
            ("huggingface", "huggingface/Qwen/Qwen3", "Qwen/Qwen3"),
            ("nvidia", "glm-5", "nvidia/glm-5"),
            ("nvidia", "z-ai/glm-5", "z-ai/glm-5"),
            ("kilo", "gpt-5", "openai/gpt-5"),
            ("kilo", "m-1", "kilo/m-1"),
            ("openai", " gpt-5.5 ", "gpt-5.5"),
        ];
        for (provider, model, want) in cases {
            assert_eq!(
                rules.normalize_id(provider, model),
                want,
                "{provider} {model}"
            );
        }
    }
}
