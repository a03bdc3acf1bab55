//! From a key path as findings print it (`agents.list[1].tools."alsoAllow"`) to file:line:col.

use serde::Serialize;

use crate::config::{KeyPath, locate_paths};

/// Where a key is written in the config file (1-based). When the key itself is absent (a key
/// the operator must add), the deepest part of its path that exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
fn locate(text: &str, file: &str, path: &str) -> Option<Location> {
    let path = parse_key_path(path)?;
    let (line, column) = crate::config::locate_path(text, &path)?;
    Some(Location {
        file: file.to_string(),
        line,
        column,
    })
}

/// `locate` for many printed paths in one pass over the text (one pass per finding made a
/// config with thousands of findings quadratic).
pub(super) fn locate_all(text: &str, file: &str, paths: &[Option<&str>]) -> Vec<Option<Location>> {
    let parsed: Vec<Option<KeyPath>> = paths.iter().map(|p| p.and_then(parse_key_path)).collect();
    let wanted: Vec<KeyPath> = parsed.iter().flatten().cloned().collect();
    let mut found = locate_paths(text, &wanted).into_iter();
    parsed
        .iter()
        .map(|p| {
            p.as_ref()?;
            let (line, column) = found.next().flatten()?;
            Some(Location {
                file: file.to_string(),
                line,
                column,
            })
        })
        .collect()
}

/// Parses the printed form of a `KeyPath`: dotted keys, `"quoted keys"` (with `\"` and `\\`),
/// `[n]` indices. `None` for anything else.
pub fn parse_key_path(text: &str) -> Option<KeyPath> {
    let mut path = KeyPath::root();
    let mut chars = text.chars().peekable();
    let mut expect_key = true;
    while let Some(&c) = chars.peek() {
        match c {
            '.' if !expect_key => {
                chars.next();
                expect_key = true;
            }
            '[' => {
                chars.next();
                let mut digits = String::new();
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    digits.push(d);
                }
                path = path.index(digits.parse().ok()?);
                expect_key = false;
            }
            '"' if expect_key => {
                chars.next();
                let mut key = String::new();
                let mut closed = false;
                while let Some(k) = chars.next() {
                    match k {
                        '\\' => key.push(chars.next()?),
                        '"' => {
                            closed = true;
                            break;
                        }
                        other => key.push(other),
                    }
                }
                if !closed {
                    return None;
                }
                path = path.key(key);
                expect_key = false;
            }
            _ if expect_key => {
                let mut key = String::new();
                while let Some(&k) = chars.peek() {
                    if k == '.' || k == '[' {
                        break;
                    }
                    key.push(k);
                    chars.next();
                }
                if key.is_empty() {
                    return None;
                }
                path = path.key(key);
                expect_key = false;
            }
            _ => return None,
        }
    }
    (!path.is_root()).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_paths_parse_back() {
        let path = KeyPath::root()
            .key("channels")
            .key("telegram")
            .key("groups")
            .key("-100123")
            .key("toolsBySender")
            .key("id:\"42\"")
            .key("allow")
            .index(3);
        assert_eq!(parse_key_path(&path.to_string()), Some(path));
        let list = KeyPath::parse_dotted("agents.list").index(1).key("tools");
        assert_eq!(parse_key_path("agents.list[1].tools"), Some(list));
    }

    #[test]
    fn malformed_paths_are_refused() {
        assert_eq!(parse_key_path(""), None);
        assert_eq!(parse_key_path("tools..allow"), None);
        assert_eq!(parse_key_path("tools[x]"), None);
        assert_eq!(parse_key_path("tools.\"open"), None);
    }

    #[test]
    fn locating_all_at_once_agrees_with_one_at_a_time() {
        let text = "{\n  tools: {\n    allow: ['read'],\n    deny: ['exec'],\n  },\n  agents: { list: [ { id: 'a', tools: {} } ] },\n}\n";
        let paths = [
            Some("tools.deny[0]"),
            None,
            Some("agents.list[0].tools.alsoAllow"),
            Some("not[x"),
            Some("tools.allow"),
            Some("missing.key"),
        ];
        let one_by_one: Vec<Option<Location>> = paths
            .iter()
            .map(|p| p.and_then(|p| locate(text, "c.json5", p)))
            .collect();
        assert_eq!(locate_all(text, "c.json5", &paths), one_by_one);
        assert!(one_by_one[0].is_some() && one_by_one[2].is_some());
    }

    #[test]
    fn locates_a_key_in_json5_text() {
        let text = "{\n  tools: {\n    allow: ['read'],\n  },\n}\n";
        let at = locate(text, "cfg.json5", "tools.allow").unwrap();
        assert_eq!((at.line, at.column), (3, 5));
        assert_eq!(at.to_string(), "cfg.json5:3:5");
    }
}
