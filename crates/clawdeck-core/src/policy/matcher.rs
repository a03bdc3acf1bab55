//! One compiled allow or deny list. Groups are expanded first (remembering what each pattern
//! came from). Then, once per list, each pattern is sorted by shape: `*` is a flag, an exact
//! name is looked up by name, `prefix*` and `*suffix` use the registry's sorted name index, and
//! every other wildcard is compiled once with globset (and kept per process), where only `*` is special: every other
//! glob metacharacter is escaped, `\` is literal, and `*` also matches `/` and `.`. The glob
//! only runs for names that already have the pattern's literal head and tail.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use globset::{GlobBuilder, GlobMatcher};

use super::layer::RuleEntry;
use crate::catalog::Registry;

/// `first_matches` value for "no pattern matches this tool".
pub const NO_MATCH: u32 = u32::MAX;

/// A pattern after group expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedPattern {
    /// Normalised pattern text (a tool name, `*`, or a wildcard; runs of `*` collapsed).
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
    /// Patterns without `*`.
    exact: Vec<usize>,
    /// `prefix*`: pattern index (the prefix is the text without its last byte).
    prefixes: Vec<usize>,
    /// `*suffix`: pattern index (the suffix is the text without its first byte).
    suffixes: Vec<usize>,
    /// Every other wildcard (two or more `*`, or one in the middle).
    general: Vec<Wildcard>,
}

/// Collapses runs of `*` (`**` means the same as `*` here).
fn collapse_stars(pattern: String) -> String {
    if !pattern.contains("**") {
        return pattern;
    }
    let mut out = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        if !(c == '*' && out.ends_with('*')) {
            out.push(c);
        }
    }
    out
}

/// A wildcard with two or more `*` (or one in the middle): its literal head (before the first
/// `*`) and tail (after the last), used to preselect names cheaply, and its compiled glob.
#[derive(Debug, Clone)]
struct Wildcard {
    pattern: usize,
    /// Byte length of the head; the text up to it is the head.
    head: usize,
    /// Byte offset of the tail (just past the last `*`).
    tail: usize,
    /// `None` only if globset refused the escaped pattern; it then matches nothing.
    glob: Option<GlobMatcher>,
}

/// The glob for a wildcard pattern: escape everything, then let `*` through.
fn wildcard_glob(collapsed: &str) -> Result<GlobMatcher, globset::Error> {
    let text = collapsed
        .split('*')
        .map(globset::escape)
        .collect::<Vec<_>>()
        .join("*");
    Ok(GlobBuilder::new(&text)
        .literal_separator(false)
        .backslash_escape(false)
        .build()?
        .compile_matcher())
}

/// Compiled globs by pattern text. Building a glob compiles a regex, which costs more than
/// resolving a whole layer; the same patterns come back on every resolution (the console
/// recomputes on each context change), so each distinct pattern is compiled once per process.
/// Bounded: cleared when it grows past `GLOB_CACHE_LIMIT` distinct patterns.
fn cached_glob(text: &str) -> Option<GlobMatcher> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<GlobMatcher>>>> = OnceLock::new();
    const GLOB_CACHE_LIMIT: usize = 4096;
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(glob) = cache.get(text) {
        return glob.clone();
    }
    let glob = match wildcard_glob(text) {
        Ok(glob) => Some(glob),
        Err(err) => {
            tracing::warn!("tool pattern {text:?} could not be compiled: {err}");
            None
        }
    };
    if cache.len() >= GLOB_CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(text.to_string(), glob.clone());
    glob
}

impl Wildcard {
    fn new(pattern: usize, text: &str) -> Wildcard {
        let glob = cached_glob(text);
        Wildcard {
            pattern,
            head: text.find('*').unwrap_or(text.len()),
            tail: text.rfind('*').map_or(text.len(), |star| star + 1),
            glob,
        }
    }

    /// Whether `name` matches `text` (this wildcard's pattern text): the literal head and tail
    /// must fit without overlapping, then the glob decides.
    fn matches(&self, text: &str, name: &str) -> bool {
        let head = &text[..self.head];
        let tail = &text[self.tail..];
        if name.len() < head.len() + tail.len() || !name.starts_with(head) || !name.ends_with(tail)
        {
            return false;
        }
        self.glob.as_ref().is_some_and(|glob| glob.is_match(name))
    }
}

/// Whether an entry names a group (static or plugin) worth expanding.
fn names_group(registry: &Registry, name: &str) -> bool {
    name.starts_with("group:") || registry.plugin_groups().by_plugin.contains_key(name)
}

impl CompiledList {
    /// Expands and compiles `entries` against the registry's groups.
    pub fn compile(entries: Vec<RuleEntry>, registry: &Registry) -> CompiledList {
        let mut patterns = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            let normalized = registry.canonical(&entry.pattern);
            if normalized.is_empty() {
                continue;
            }
            if names_group(registry, &normalized)
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
            // A name that also names its family (`canvas` → `show_widget` in 2026.9).
            if let Some(family) = registry.semantics.family_expansions.get(&normalized) {
                for member in family {
                    patterns.push(ExpandedPattern {
                        text: member.clone(),
                        entry: index,
                        expanded_from: Some(normalized.clone()),
                    });
                }
            }
            patterns.push(ExpandedPattern {
                text: collapse_stars(normalized),
                entry: index,
                expanded_from: None,
            });
        }

        let mut list = CompiledList::inert(entries);
        for (i, pattern) in patterns.iter().enumerate() {
            let text = pattern.text.as_str();
            let stars = text.bytes().filter(|&b| b == b'*').count();
            if text == "*" {
                list.match_all.get_or_insert(i);
            } else if stars == 0 {
                list.exact.push(i);
            } else if stars == 1 && text.ends_with('*') {
                list.prefixes.push(i);
            } else if stars == 1 && text.starts_with('*') {
                list.suffixes.push(i);
            } else {
                list.general.push(Wildcard::new(i, text));
            }
        }
        list.patterns = patterns;
        list
    }

    /// A list that keeps its entries but matches nothing (for layers that do not apply).
    pub(crate) fn inert(entries: Vec<RuleEntry>) -> CompiledList {
        CompiledList {
            entries,
            patterns: Vec::new(),
            match_all: None,
            exact: Vec::new(),
            prefixes: Vec::new(),
            suffixes: Vec::new(),
            general: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    fn prefix_of(&self, p: usize) -> &str {
        let text = &self.patterns[p].text;
        &text[..text.len() - 1]
    }

    fn suffix_of(&self, p: usize) -> &str {
        &self.patterns[p].text[1..]
    }

    /// The first pattern (in config order) that matches `name`; every matching entry is marked
    /// in `used` (`used` may be shorter than the entry list, then nothing is marked). `_scratch`
    /// is no longer needed (no glob set to collect matches into); it stays for callers.
    pub fn scan(&self, name: &str, _scratch: &mut Vec<usize>, used: &mut [bool]) -> Option<usize> {
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
        for &p in &self.exact {
            if self.patterns[p].text == name {
                hit(p, used);
            }
        }
        for &p in &self.prefixes {
            if name.starts_with(self.prefix_of(p)) {
                hit(p, used);
            }
        }
        for &p in &self.suffixes {
            if name.ends_with(self.suffix_of(p)) {
                hit(p, used);
            }
        }
        for w in &self.general {
            if w.matches(&self.patterns[w.pattern].text, name) {
                hit(w.pattern, used);
            }
        }
        first
    }

    /// The first matching pattern for every tool of the registry at once (`NO_MATCH` where
    /// none matches), marking matched entries in `used`. Pattern-major: an exact name is one
    /// lookup, a `prefix*` or `*suffix` a binary search in the registry's sorted name index,
    /// and only the general wildcards look at every name. Same answers as `scan`, name by name.
    pub fn first_matches(&self, registry: &Registry, used: &mut [bool]) -> Vec<u32> {
        let mut first = vec![NO_MATCH; registry.tools.len()];
        self.first_matches_into(registry, used, &mut first);
        first
    }

    /// `first_matches` into a caller's buffer (one entry per registry tool, filled with
    /// `NO_MATCH` beforehand), so a resolution allocates one buffer for all its lists.
    pub(crate) fn first_matches_into(
        &self,
        registry: &Registry,
        used: &mut [bool],
        first: &mut [u32],
    ) {
        let tools = &registry.tools;
        let set = |tool: usize, p: usize, first: &mut [u32], used: &mut [bool]| {
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
                set(tool, p, first, used);
            }
        }
        for &p in &self.exact {
            if let Some(tool) = registry.index_of(&self.patterns[p].text) {
                set(tool, p, first, used);
            }
        }
        let index = registry.name_index();
        for &p in &self.prefixes {
            for &tool in index.with_prefix(tools, self.prefix_of(p)) {
                set(tool, p, first, used);
            }
        }
        let mut reversed = String::new();
        for &p in &self.suffixes {
            reversed.clear();
            reversed.extend(self.suffix_of(p).chars().rev());
            for tool in index.with_reversed_prefix(&reversed) {
                set(tool, p, first, used);
            }
        }
        // A general wildcard only looks at the names its literal head (or else its tail)
        // already selects in the index.
        for w in &self.general {
            let text = self.patterns[w.pattern].text.as_str();
            let mut check = |tool: usize| {
                if w.matches(text, &tools[tool].name) {
                    set(tool, w.pattern, first, used);
                }
            };
            if w.head > 0 {
                index
                    .with_prefix(tools, &text[..w.head])
                    .iter()
                    .for_each(|&tool| check(tool));
            } else if w.tail < text.len() {
                reversed.clear();
                reversed.extend(text[w.tail..].chars().rev());
                index.with_reversed_prefix(&reversed).for_each(check);
            } else {
                (0..tools.len()).for_each(check);
            }
        }
    }

    /// Whether `name` matches, without recording anything.
    pub(crate) fn matches(&self, name: &str) -> bool {
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
    fn middle_segments_match_in_order_without_overlap() {
        assert!(list(&["x*ab*ab*y"]).matches("xababy"));
        assert!(!list(&["x*ab*ab*y"]).matches("xaby"));
        assert!(!list(&["a*b*c"]).matches("acb"));
        assert!(list(&["*a*"]).matches("a"));
        assert!(
            !list(&["ab*ba"]).matches("aba"),
            "head and tail may not share bytes"
        );
        assert!(list(&["é*ü*ß"]).matches("éaüxßß"));
        assert!(!list(&["é*ü*ß"]).matches("éaßü"));
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
