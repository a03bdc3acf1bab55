//! One compiled allow or deny list. Groups are expanded first (remembering what each pattern
//! came from). Then, once per list: `*` becomes a flag, exact names go in a hash map, `prefix*`
//! and `*suffix` become plain string tests, and every other wildcard goes into one `GlobSet`
//! where only `*` is special (every other glob metacharacter is escaped, `\` is literal, `*`
//! also matches `/` and `.`). The glob set only runs for names that pass the cheap literal
//! prefix/suffix check of at least one of its patterns.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use super::layer::RuleEntry;
use super::normalize::normalize_tool_name;
use crate::catalog::Registry;

/// `first_matches` value for "no pattern matches this tool".
pub const NO_MATCH: u32 = u32::MAX;

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

/// FNV-1a: tool names are short, trusted-enough keys; SipHash's DoS resistance buys nothing
/// here and costs a third of a resolution.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// Literal strings (exact names, prefixes or suffixes) grouped by length, so a name is checked
/// with one hash lookup per distinct length instead of one comparison per pattern.
#[derive(Debug, Clone, Default)]
struct LiteralIndex {
    lengths: Vec<usize>,
    by_text: FnvMap<String, Vec<usize>>,
}

impl LiteralIndex {
    fn insert(&mut self, text: String, pattern: usize) {
        if !self.lengths.contains(&text.len()) {
            self.lengths.push(text.len());
            self.lengths.sort_unstable();
        }
        self.by_text.entry(text).or_default().push(pattern);
    }

    fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    fn get(&self, text: &str) -> &[usize] {
        self.by_text.get(text).map(|v| v.as_slice()).unwrap_or(&[])
    }
}

impl std::fmt::Debug for Fnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fnv")
    }
}

/// A wildcard the glob set handles, with the literal ends every match must have.
#[derive(Debug, Clone)]
struct GeneralPattern {
    pattern: usize,
    prefix: String,
    suffix: String,
}

#[derive(Debug, Clone)]
pub struct CompiledList {
    pub entries: Vec<RuleEntry>,
    pub patterns: Vec<ExpandedPattern>,
    match_all: Option<usize>,
    exact: FnvMap<String, Vec<usize>>,
    /// `prefix*`, indexed by prefix.
    prefixes: LiteralIndex,
    /// `*suffix`, indexed by suffix.
    suffixes: LiteralIndex,
    general: Vec<GeneralPattern>,
    globs: GlobSet,
    /// Patterns that could not be compiled: (pattern index, error).
    pub invalid: Vec<(usize, String)>,
}

/// Collapses runs of `*` (`**` means the same as `*` here, and globset would read it as a
/// recursive-directory token).
fn collapse_stars(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        if !(c == '*' && out.ends_with('*')) {
            out.push(c);
        }
    }
    out
}

/// Builds the glob for a wildcard pattern: escape everything, then let `*` through.
fn wildcard_glob(collapsed: &str) -> Result<globset::Glob, globset::Error> {
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

        let mut list = CompiledList {
            entries,
            patterns: Vec::new(),
            match_all: None,
            exact: FnvMap::default(),
            prefixes: LiteralIndex::default(),
            suffixes: LiteralIndex::default(),
            general: Vec::new(),
            globs: GlobSet::empty(),
            invalid: Vec::new(),
        };
        let mut builder = GlobSetBuilder::new();
        for (i, pattern) in patterns.iter().enumerate() {
            let text = collapse_stars(&pattern.text);
            let stars = text.matches('*').count();
            if text == "*" {
                list.match_all.get_or_insert(i);
            } else if stars == 0 {
                list.exact.entry(text).or_default().push(i);
            } else if stars == 1 && text.ends_with('*') {
                list.prefixes.insert(text[..text.len() - 1].to_string(), i);
            } else if stars == 1 && text.starts_with('*') {
                list.suffixes.insert(text[1..].to_string(), i);
            } else {
                match wildcard_glob(&text) {
                    Ok(glob) => {
                        builder.add(glob);
                        let prefix = text.split('*').next().unwrap_or("").to_string();
                        let suffix = text.rsplit('*').next().unwrap_or("").to_string();
                        list.general.push(GeneralPattern {
                            pattern: i,
                            prefix,
                            suffix,
                        });
                    }
                    Err(err) => list.invalid.push((i, err.to_string())),
                }
            }
        }
        if !list.general.is_empty() {
            match builder.build() {
                Ok(set) => list.globs = set,
                Err(err) => {
                    for g in list.general.drain(..) {
                        list.invalid.push((g.pattern, err.to_string()));
                    }
                }
            }
        }
        list.patterns = patterns;
        list
    }

    /// A list that keeps its entries but matches nothing (for layers that do not apply).
    pub fn inert(entries: Vec<RuleEntry>) -> CompiledList {
        CompiledList {
            entries,
            patterns: Vec::new(),
            match_all: None,
            exact: FnvMap::default(),
            prefixes: LiteralIndex::default(),
            suffixes: LiteralIndex::default(),
            general: Vec::new(),
            globs: GlobSet::empty(),
            invalid: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The first pattern (in config order) that matches `name`; every matching entry is marked
    /// in `used` (`used` may be shorter than the entry list, then nothing is marked).
    pub fn scan(&self, name: &str, scratch: &mut Vec<usize>, used: &mut [bool]) -> Option<usize> {
        let mut first: Option<usize> = None;
        let mut hit = |p: usize, used: &mut [bool]| {
            if let Some(flag) = used.get_mut(self.patterns[p].entry) {
                *flag = true;
            }
            first = Some(first.map_or(p, |f| f.min(p)));
        };
        if let Some(p) = self.match_all {
            hit(p, used);
        }
        if let Some(hits) = self.exact.get(name) {
            for &p in hits {
                hit(p, used);
            }
        }
        if !self.prefixes.is_empty() {
            for &len in self
                .prefixes
                .lengths
                .iter()
                .take_while(|&&l| l <= name.len())
            {
                if let Some(prefix) = name.get(..len) {
                    for &p in self.prefixes.get(prefix) {
                        hit(p, used);
                    }
                }
            }
        }
        if !self.suffixes.is_empty() {
            for &len in self
                .suffixes
                .lengths
                .iter()
                .take_while(|&&l| l <= name.len())
            {
                if let Some(suffix) = name.get(name.len() - len..) {
                    for &p in self.suffixes.get(suffix) {
                        hit(p, used);
                    }
                }
            }
        }
        let maybe_general = self.general.iter().any(|g| {
            name.len() >= g.prefix.len() + g.suffix.len()
                && name.starts_with(&g.prefix)
                && name.ends_with(&g.suffix)
        });
        if maybe_general {
            self.globs
                .matches_candidate_into(&Candidate::new(name), scratch);
            for &g in scratch.iter() {
                hit(self.general[g].pattern, used);
            }
        }
        first
    }

    /// The first matching pattern for every tool of the registry at once (`NO_MATCH` where
    /// none matches), marking matched entries in `used`. Pattern-major: an exact name is one
    /// lookup, a `prefix*` or `*suffix` a binary search in the registry's sorted name index,
    /// and only the general wildcards look at every name. Same answers as `scan`, name by name.
    pub fn first_matches(&self, registry: &Registry, used: &mut [bool]) -> Vec<u32> {
        let tools = &registry.tools;
        let mut first = vec![NO_MATCH; tools.len()];
        let set = |tool: usize, p: usize, first: &mut Vec<u32>, used: &mut [bool]| {
            if let Some(flag) = used.get_mut(self.patterns[p].entry) {
                *flag = true;
            }
            let p = p as u32;
            if p < first[tool] {
                first[tool] = p;
            }
        };
        if let Some(p) = self.match_all {
            for tool in 0..tools.len() {
                set(tool, p, &mut first, used);
            }
        }
        for (text, patterns) in &self.exact {
            if let Some(tool) = registry.index_of(text) {
                for &p in patterns {
                    set(tool, p, &mut first, used);
                }
            }
        }
        let index = registry.name_index();
        for (prefix, patterns) in &self.prefixes.by_text {
            for tool in index.with_prefix(tools, prefix) {
                for &p in patterns {
                    set(tool, p, &mut first, used);
                }
            }
        }
        for (suffix, patterns) in &self.suffixes.by_text {
            for tool in index.with_suffix(suffix) {
                for &p in patterns {
                    set(tool, p, &mut first, used);
                }
            }
        }
        if !self.general.is_empty() {
            let mut scratch = Vec::new();
            for (tool, spec) in tools.iter().enumerate() {
                let name = spec.name.as_str();
                let maybe = self.general.iter().any(|g| {
                    name.len() >= g.prefix.len() + g.suffix.len()
                        && name.starts_with(&g.prefix)
                        && name.ends_with(&g.suffix)
                });
                if maybe {
                    self.globs
                        .matches_candidate_into(&Candidate::new(name), &mut scratch);
                    for &g in &scratch {
                        set(tool, self.general[g].pattern, &mut first, used);
                    }
                }
            }
        }
        first
    }

    /// Whether `name` matches, without recording anything.
    pub fn matches(&self, name: &str) -> bool {
        self.scan(name, &mut Vec::new(), &mut []).is_some()
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
        assert!(list(&["***"]).matches(""));
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
        assert!(list(&["*_list"]).matches("a.b/sessions_list"));
        let l = list(&["a*z"]);
        assert!(l.matches("a/b.c/z"));
        assert!(l.matches("az"));
        assert!(!l.matches("a"), "prefix and suffix may not overlap");
        assert!(list(&["**"]).matches("x"));
        assert!(list(&["a**b"]).matches("a-b"));
        assert!(list(&["*ess*"]).matches("process"));
        assert!(!list(&["*ess*"]).matches("exec"));
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
        assert!(list(&["x*[*]*y"]).matches("x-[-]-y"));
        assert!(!list(&["x*[*]*y"]).matches("x-a-y"));
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
        let l = list(&["read", "*", "group:fs", "r*", "*d", "r*a*d"]);
        let mut used = vec![false; 6];
        let first = l.scan("read", &mut Vec::new(), &mut used);
        assert_eq!(first, Some(0));
        assert_eq!(used, vec![true; 6]);
        let l = list(&["x*y*z", "sessions_*"]);
        assert_eq!(l.scan("sessions_list", &mut Vec::new(), &mut []), Some(1));
    }
}
