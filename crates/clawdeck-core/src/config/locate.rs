//! Finds where a key path sits in JSON5 text, so errors and warnings that only know a path can
//! still name a line and column. A forgiving scanner: on anything it does not understand it
//! stops and reports the deepest place found so far.

use std::collections::{HashMap, HashSet};

use super::keypath::{KeyPath, KeySegment};

/// 1-based (line, column) of the deepest segment of `path` found in `text` (the key for an
/// object member, the element for an array index). `None` when not even the first is found.
pub fn locate_path(text: &str, path: &KeyPath) -> Option<(usize, usize)> {
    let mut scanner = Scanner {
        chars: text.char_indices().collect(),
        pos: 0,
    };
    let mut best = None;
    scanner.skip_trivia();
    scanner.find(path.segments(), &mut best);
    best.map(|offset| line_column(text, offset))
}

/// `locate_path` for many paths in one pass over the text (the per-path walk made thousands of
/// unknown keys quadratic): the positions of every wanted path and its prefixes are recorded in
/// one walk, then turned into lines and columns in one more.
pub fn locate_paths(text: &str, paths: &[KeyPath]) -> Vec<Option<(usize, usize)>> {
    let mut wanted: HashSet<&[KeySegment]> = HashSet::new();
    for path in paths {
        let segments = path.segments();
        for len in 1..=segments.len() {
            wanted.insert(&segments[..len]);
        }
    }
    let mut scanner = Scanner {
        chars: text.char_indices().collect(),
        pos: 0,
    };
    let mut found: HashMap<Vec<KeySegment>, usize> = HashMap::new();
    scanner.skip_trivia();
    let _ = scanner.record(&mut Vec::new(), &wanted, &mut found);
    // Deepest recorded prefix of each path, as `locate_path` reports it.
    let offsets: Vec<Option<usize>> = paths
        .iter()
        .map(|path| {
            let segments = path.segments();
            (1..=segments.len())
                .rev()
                .find_map(|len| found.get(&segments[..len]).copied())
        })
        .collect();
    let mut sorted: Vec<usize> = offsets.iter().flatten().copied().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let positions = line_columns(text, &sorted);
    offsets
        .into_iter()
        .map(|offset| offset.and_then(|o| sorted.binary_search(&o).ok().map(|i| positions[i])))
        .collect()
}

/// Line and column of each of the sorted `offsets`, in one pass.
fn line_columns(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(offsets.len());
    let mut next = offsets.iter().peekable();
    let (mut line, mut column) = (1, 1);
    for (i, c) in text.char_indices() {
        while next.peek().is_some_and(|o| **o <= i) {
            next.next();
            out.push((line, column));
        }
        if next.peek().is_none() {
            break;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else if c != '\r' {
            column += 1;
        }
    }
    while next.next().is_some() {
        out.push((line, column));
    }
    out
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut column = 1;
    for (i, c) in text.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else if c != '\r' {
            column += 1;
        }
    }
    (line, column)
}

struct Scanner {
    chars: Vec<(usize, char)>,
    pos: usize,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|(_, c)| *c)
    }

    fn offset(&self) -> usize {
        self.chars
            .get(self.pos)
            .map(|(o, _)| *o)
            .unwrap_or(usize::MAX)
    }

    fn skip_trivia(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() || c == '\u{feff}' => self.pos += 1,
                Some('/') => match self.chars.get(self.pos + 1).map(|(_, c)| *c) {
                    Some('/') => {
                        while let Some(c) = self.peek() {
                            if c == '\n' {
                                break;
                            }
                            self.pos += 1;
                        }
                    }
                    Some('*') => {
                        self.pos += 2;
                        while self.pos < self.chars.len() {
                            if self.peek() == Some('*')
                                && self.chars.get(self.pos + 1).map(|(_, c)| *c) == Some('/')
                            {
                                self.pos += 2;
                                break;
                            }
                            self.pos += 1;
                        }
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    /// Reads a quoted string (cursor on the quote) and returns its value.
    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.pos += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == quote {
                return Some(out);
            }
            if c == '\\' {
                let escaped = self.peek()?;
                self.pos += 1;
                out.push(match escaped {
                    'n' => '\n',
                    't' => '\t',
                    other => other,
                });
            } else {
                out.push(c);
            }
        }
        None
    }

    /// Reads an object key: a quoted string or a bare identifier.
    fn key(&mut self) -> Option<String> {
        match self.peek()? {
            '"' | '\'' => self.string(),
            _ => {
                let mut out = String::new();
                while let Some(c) = self.peek() {
                    if c.is_alphanumeric() || c == '_' || c == '$' {
                        out.push(c);
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                if out.is_empty() { None } else { Some(out) }
            }
        }
    }

    /// Skips one value of any kind.
    fn skip_value(&mut self) -> Option<()> {
        self.skip_trivia();
        match self.peek()? {
            '{' => self.walk_object(None, &mut None),
            '[' => self.walk_array(None, &mut None),
            '"' | '\'' => self.string().map(|_| ()),
            _ => {
                while let Some(c) = self.peek() {
                    if c == ',' || c == '}' || c == ']' || c.is_whitespace() || c == '/' {
                        break;
                    }
                    self.pos += 1;
                }
                Some(())
            }
        }
    }

    /// Walks the value at the cursor, recording the offset of every key or element whose path
    /// is in `wanted` and descending only into those.
    fn record(
        &mut self,
        current: &mut Vec<KeySegment>,
        wanted: &HashSet<&[KeySegment]>,
        found: &mut HashMap<Vec<KeySegment>, usize>,
    ) -> Option<()> {
        self.skip_trivia();
        let object = match self.peek()? {
            '{' => true,
            '[' => false,
            _ => return self.skip_value(),
        };
        self.pos += 1;
        let mut index = 0;
        loop {
            self.skip_trivia();
            let close = if object { '}' } else { ']' };
            if self.peek()? == close {
                self.pos += 1;
                return Some(());
            }
            let offset = self.offset();
            let segment = if object {
                let key = self.key()?;
                self.skip_trivia();
                if self.peek()? != ':' {
                    return None;
                }
                self.pos += 1;
                KeySegment::Key(key)
            } else {
                KeySegment::Index(index)
            };
            current.push(segment);
            if wanted.contains(current.as_slice()) {
                found.entry(current.clone()).or_insert(offset);
                self.record(current, wanted, found)?;
            } else {
                self.skip_value()?;
            }
            current.pop();
            self.skip_trivia();
            if self.peek()? == ',' {
                self.pos += 1;
            }
            index += 1;
        }
    }

    /// Descends along `path` from the value at the cursor.
    fn find(&mut self, path: &[KeySegment], best: &mut Option<usize>) {
        if path.is_empty() {
            return;
        }
        match self.peek() {
            Some('{') => {
                let _ = self.walk_object(Some(path), best);
            }
            Some('[') => {
                let _ = self.walk_array(Some(path), best);
            }
            _ => {}
        }
    }

    fn walk_object(
        &mut self,
        target: Option<&[KeySegment]>,
        best: &mut Option<usize>,
    ) -> Option<()> {
        self.pos += 1;
        loop {
            self.skip_trivia();
            if self.peek()? == '}' {
                self.pos += 1;
                return Some(());
            }
            let key_offset = self.offset();
            let key = self.key()?;
            self.skip_trivia();
            if self.peek()? != ':' {
                return None;
            }
            self.pos += 1;
            self.skip_trivia();
            if let Some(path) = target
                && let Some(KeySegment::Key(wanted)) = path.first()
                && *wanted == key
            {
                *best = Some(key_offset);
                self.find(&path[1..], best);
                return None; // found: stop scanning
            }
            self.skip_value()?;
            self.skip_trivia();
            if self.peek()? == ',' {
                self.pos += 1;
            }
        }
    }

    fn walk_array(
        &mut self,
        target: Option<&[KeySegment]>,
        best: &mut Option<usize>,
    ) -> Option<()> {
        self.pos += 1;
        let mut index = 0;
        loop {
            self.skip_trivia();
            if self.peek()? == ']' {
                self.pos += 1;
                return Some(());
            }
            if let Some(path) = target
                && let Some(KeySegment::Index(wanted)) = path.first()
                && *wanted == index
            {
                *best = Some(self.offset());
                self.find(&path[1..], best);
                return None;
            }
            self.skip_value()?;
            self.skip_trivia();
            if self.peek()? == ',' {
                self.pos += 1;
            }
            index += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  // comment\n  tools: { deny: ['a', \"b\"] },\n  agents: {\n    list: [\n      { id: 'main' },\n      { id: 'ops', tools: { deny: 'exec' } },\n    ],\n  },\n}\n";

    #[test]
    fn finds_keys_through_objects_and_arrays() {
        let path = KeyPath::parse_dotted("agents.list")
            .index(1)
            .key("tools")
            .key("deny");
        assert_eq!(locate_path(TEXT, &path), Some((7, 29)));
    }

    #[test]
    fn finds_array_elements() {
        let path = KeyPath::parse_dotted("tools.deny").index(1);
        assert_eq!(locate_path(TEXT, &path), Some((3, 24)));
    }

    #[test]
    fn reports_the_deepest_found_segment() {
        let path = KeyPath::parse_dotted("tools.nothing.here");
        assert_eq!(locate_path(TEXT, &path), Some((3, 3)));
    }

    #[test]
    fn many_paths_in_one_pass_agree_with_one_at_a_time() {
        let paths = vec![
            KeyPath::parse_dotted("agents.list")
                .index(1)
                .key("tools")
                .key("deny"),
            KeyPath::parse_dotted("tools.deny").index(1),
            KeyPath::parse_dotted("tools.nothing.here"),
            KeyPath::parse_dotted("nope"),
            KeyPath::parse_dotted("agents.list").index(0).key("id"),
        ];
        let single: Vec<_> = paths.iter().map(|p| locate_path(TEXT, p)).collect();
        assert_eq!(locate_paths(TEXT, &paths), single);
    }

    #[test]
    fn missing_path_is_none() {
        assert_eq!(locate_path(TEXT, &KeyPath::parse_dotted("nope")), None);
    }
}
