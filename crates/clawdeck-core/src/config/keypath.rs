//! Config key paths as people read them: `agents.list[1].tools.deny[0]`,
//! `channels.telegram.groups."-100123".toolsBySender."id:42".allow`.

use std::fmt;

use serde::{Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeySegment {
    Key(String),
    Index(usize),
}

/// A path into the config document. Cheap to clone and extend.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct KeyPath {
    segments: Vec<KeySegment>,
}

impl KeyPath {
    pub fn root() -> Self {
        KeyPath::default()
    }

    /// Builds a path from dotted identifiers (`"tools.sandbox.tools"`); for literal keys only.
    pub(crate) fn parse_dotted(dotted: &str) -> Self {
        let mut path = KeyPath::root();
        for part in dotted.split('.').filter(|p| !p.is_empty()) {
            path = path.key(part);
        }
        path
    }

    pub(crate) fn key(&self, key: impl Into<String>) -> Self {
        let mut next = self.clone();
        next.segments.push(KeySegment::Key(key.into()));
        next
    }

    pub(crate) fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.segments.push(KeySegment::Index(index));
        next
    }

    pub(crate) fn segments(&self) -> &[KeySegment] {
        &self.segments
    }

    pub(crate) fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    pub(crate) fn push(&mut self, segment: KeySegment) {
        self.segments.push(segment);
    }

    /// The value this path names in `doc`, if there is one.
    pub(crate) fn lookup<'a>(&self, doc: &'a serde_json::Value) -> Option<&'a serde_json::Value> {
        self.segments
            .iter()
            .try_fold(doc, |node, segment| match segment {
                KeySegment::Key(key) => node.get(key),
                KeySegment::Index(i) => node.get(*i),
            })
    }
}

/// Keys that can be written bare after a dot; everything else is quoted.
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.segments.is_empty() {
            return f.write_str("(root)");
        }
        for (i, segment) in self.segments.iter().enumerate() {
            match segment {
                KeySegment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    if is_plain_key(key) {
                        f.write_str(key)?;
                    } else {
                        write!(f, "\"{}\"", key.replace('\\', "\\\\").replace('"', "\\\""))?;
                    }
                }
                KeySegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

impl Serialize for KeyPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_keys_and_indices_read_naturally() {
        let path = KeyPath::root()
            .key("agents")
            .key("list")
            .index(1)
            .key("tools")
            .key("deny")
            .index(0);
        assert_eq!(path.to_string(), "agents.list[1].tools.deny[0]");
    }

    #[test]
    fn odd_keys_are_quoted() {
        let path = KeyPath::parse_dotted("channels.telegram.groups")
            .key("-100123")
            .key("toolsBySender")
            .key("id:42")
            .key("allow");
        assert_eq!(
            path.to_string(),
            "channels.telegram.groups.\"-100123\".toolsBySender.\"id:42\".allow"
        );
    }

    #[test]
    fn root_has_a_name() {
        assert_eq!(KeyPath::root().to_string(), "(root)");
    }
}
