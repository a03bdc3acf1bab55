//! One compiled allow or deny list. Groups are expanded first (remembering what each pattern
//! came from); then `*` is a flag, exact names go in a hash map, and every other wildcard goes
//! into one `GlobSet` per list, built once, where only `*` is special (every other glob
//! metacharacter is escaped, `\` is literal, `*` also matches `/` and `.`).

use std::collections::HashMap;

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use super::layer::RuleEntry;
use super::normalize::normalize_tool_name;
use crate::catalog::Registry;

/// A pattern after group expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedPattern {
    /// Normalised pattern text (a tool name, `*`, or a wildcard).
    pub text: String,
    /// Index of the entry it came from.
    pub entry: usize,
    /// The group or plugin id it was expanded from.
    pub expanded_from: Option<String>,
}

#[derive(Debug, Clone)]
pub struct CompiledList {
    pub entries: Vec<RuleEntry>,
    pub patterns: Vec<ExpandedPattern>,
    match_all: Option<usize>,
    exact: HashMap<String, Vec<usize>>,
    globs: GlobSet,
    glob_patterns: Vec<usize>,
    /// Patterns that could not be compiled (kept for the warning list).
    pub invalid: Vec<(usize, String)>,
}

/// Builds the glob for a wildcard pattern: escape everything, then let `*` through.
fn wildcard_glob(pattern: &str) -> Result<globset::Glob, globset::Error> {
    // `**` means the same as `*` here; collapsing keeps globset from reading it as a
    // recursive-directory token.
    let mut collapsed = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        if !(c == '*' && collapsed.ends_with('*')) {
            collapsed.push(c);
        }
    }
    let text = collapsed
        .split('*')
        .map(globset::escape)
        .collect::<Vec<_>>()
        .join("*");
    GlobBuilder::new(&text)
        .literal_separator(false)
        .backslash_escape(false)
        .build()
}

impl CompiledList {
    /// Expands and compiles `entries` against the registry's groups.
    pub fn compile(entries: Vec<RuleEntry>, registry: &Registry) -> CompiledList {
        let mut patterns = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let normalized = normalize_tool_name(&entry.pattern);
            if normalized.is_empty() {
                continue;
            }
            if normalized != "*"
                && let Some(members) = registry.expand_group(&normalized)
            {
                for member in members {
                    patterns.push(ExpandedPattern {
                        text: member,
                        entry: index,
                        expanded_from: Some(normalized.clone()),
                    });
                }
                continue;
            }
            patterns.push(ExpandedPattern {
                text: normalized,
                entry: index,
                expanded_from: None,
            });
        }

        let mut match_all = None;
        let mut exact: HashMap<String, Vec<usize>> = HashMap::new();
        let mut builder = GlobSetBuilder::new();
        let mut glob_patterns = Vec::new();
        let mut invalid = Vec::new();
        for (i, pattern) in patterns.iter().enumerate() {
            if pattern.text.chars().all(|c| c == '*') {
                match_all.get_or_insert(i);
            } else if !pattern.text.contains('*') {
                exact.entry(pattern.text.clone()).or_default().push(i);
            } else {
                match wildcard_glob(&pattern.text) {
                    Ok(glob) => {
                        builder.add(glob);
                        glob_patterns.push(i);
                    }
                    Err(err) => invalid.push((i, err.to_string())),
                }
            }
        }
        let globs = builder.build().unwrap_or_else(|err| {
            invalid.push((usize::MAX, err.to_string()));
            glob_patterns.clear();
            GlobSet::empty()
        });
        CompiledList {
            entries,
            patterns,
            match_all,
            exact,
            globs,
            glob_patterns,
            invalid,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The first pattern (in config order) that matches `name`; every matching entry is marked
    /// in `used`. `candidate` is `name` prepared for the glob set, built once per tool.
    pub fn scan(
        &self,
        name: &str,
        candidate: &Candidate<'_>,
        scratch: &mut Vec<usize>,
        used: &mut [bool],
    ) -> Option<usize> {
        let mut first: Option<usize> = None;
        let mut note = |p: usize, used: &mut [bool]| {
            if let Some(flag) = used.get_mut(self.patterns[p].entry) {
                *flag = true;
            }
            first = Some(first.map_or(p, |f| f.min(p)));
        };
        if let Some(p) = self.match_all {
            note(p, used);
        }
        if let Some(hits) = self.exact.get(name) {
            for &p in hits {
                note(p, used);
            }
        }
        if !self.glob_patterns.is_empty() {
            self.globs.matches_candidate_into(candidate, scratch);
            for &g in scratch.iter() {
                note(self.glob_patterns[g], used);
            }
        }
        first
    }

    /// Whether `name` matches without recording anything.
    pub fn matches(&self, name: &str) -> bool {
        let candidate = Candidate::new(name);
        let mut scratch = Vec::new();
        let mut used = Vec::new();
        self.scan(name, &candidate, &mut scratch, &mut used)
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::core_specs;

    fn list(patterns: &[&str]) -> CompiledList {
        let registry = Registry::from_specs(core_specs());
        let entries = patterns
            .iter()
            .enumerate()
            .map(|(i, p)| RuleEntry::configured(*p, format!("x[{i}]")))
            .collect();
        CompiledList::compile(entries, &registry)
    }

    #[test]
    fn star_matches_everything() {
        assert!(list(&["*"]).matches("anything/at.all"));
    }

    #[test]
    fn exact_matches_only_itself() {
        let l = list(&["exec"]);
        assert!(l.matches("exec"));
        assert!(!l.matches("exec2"));
        assert!(!l.matches("xexec"));
    }

    #[test]
    fn wildcards_are_anchored_and_cross_slash_and_dot() {
        let l = list(&["sessions_*"]);
        assert!(l.matches("sessions_list"));
        assert!(l.matches("sessions_"));
        assert!(!l.matches("session_status"));
        assert!(!l.matches("my_sessions_list"));
        let l = list(&["a*z"]);
        assert!(l.matches("a/b.c/z"));
        assert!(list(&["**"]).matches("x"));
        assert!(list(&["a**b"]).matches("a-b"));
    }

    #[test]
    fn other_glob_characters_are_literal() {
        assert!(list(&["a?c*"]).matches("a?cd"));
        assert!(!list(&["a?c*"]).matches("abcd"));
        assert!(list(&["[ab]*"]).matches("[ab]x"));
        assert!(!list(&["[ab]*"]).matches("ax"));
        assert!(list(&["{a,b}*"]).matches("{a,b}1"));
        assert!(!list(&["{a,b}*"]).matches("a1"));
        assert!(list(&["a\\*"]).matches("a\\x"));
        assert!(!list(&["?"]).matches("x"));
    }

    #[test]
    fn patterns_are_normalised_like_names() {
        assert!(list(&["  BASH "]).matches("exec"));
        assert!(list(&["Sessions_*"]).matches("sessions_list"));
        assert!(list(&[""]).is_empty());
    }

    #[test]
    fn groups_expand_and_remember_their_origin() {
        let l = list(&["group:fs"]);
        assert!(l.matches("apply_patch"));
        assert!(!l.matches("exec"));
        assert_eq!(l.patterns[0].expanded_from.as_deref(), Some("group:fs"));
        assert!(
            !list(&["group:*"]).matches("read"),
            "group:* is a plain wildcard, not a group pattern"
        );
    }

    #[test]
    fn first_match_is_the_earliest_entry() {
        let l = list(&["read", "*", "group:fs"]);
        let cand = Candidate::new("read");
        let mut used = vec![false; 3];
        let first = l.scan("read", &cand, &mut Vec::new(), &mut used);
        assert_eq!(first, Some(0));
        assert_eq!(used, vec![true, true, true]);
    }
}
