//! SKILL.md frontmatter: the YAML block between `---` lines at the top of the file.
//!
//! Parsed with `serde_yaml_ng`; `metadata` may be a nested YAML map or (as OpenClaw's own skills
//! write it) a JSON5 string on one line. When the YAML does not parse, a line-by-line
//! `key: value` reading is used, as OpenClaw falls back to.

use serde_json::{Map, Value};

/// A split SKILL.md: the frontmatter as a JSON object and the body after it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParsedSkillFile {
    pub frontmatter: Map<String, Value>,
    pub body: String,
}

/// Splits and parses a SKILL.md. A file without frontmatter yields an empty map and the whole
/// text as body.
pub(crate) fn parse_skill_file(text: &str) -> ParsedSkillFile {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let normalized = text.replace("\r\n", "\n");
    let Some(rest) = normalized.strip_prefix("---\n") else {
        return ParsedSkillFile {
            frontmatter: Map::new(),
            body: normalized,
        };
    };
    let (block, body) = match rest.find("\n---") {
        Some(end) => {
            let after = &rest[end + 4..];
            let body = after.split_once('\n').map(|(_, b)| b).unwrap_or("");
            (&rest[..end], body.to_string())
        }
        // `---` right at the start of the block: empty frontmatter.
        None if rest.starts_with("---") => ("", rest[3..].trim_start_matches('\n').to_string()),
        None => {
            return ParsedSkillFile {
                frontmatter: Map::new(),
                body: normalized,
            };
        }
    };
    ParsedSkillFile {
        frontmatter: parse_block(block),
        body,
    }
}

fn parse_block(block: &str) -> Map<String, Value> {
    match serde_yaml_ng::from_str::<Value>(block) {
        Ok(Value::Object(map)) => map,
        Ok(_) => Map::new(),
        Err(_) => parse_lines(block),
    }
}

/// The fallback: top-level `key: value` lines, quotes stripped, values kept as strings.
fn parse_lines(block: &str) -> Map<String, Value> {
    let mut map = Map::new();
    for line in block.lines() {
        if line.starts_with([' ', '\t', '#']) {
            continue;
        }
        if let Some((key, value)) = line.split_once(':') {
            let key = key.trim();
            if key.is_empty() {
                continue;
            }
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(value);
            map.insert(key.to_string(), Value::String(value.to_string()));
        }
    }
    map
}

/// A frontmatter string value, trimmed; numbers and booleans are rendered as text.
pub(crate) fn get_string(frontmatter: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|key| match frontmatter.get(*key)? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// A frontmatter boolean: `true`/`false`, or the strings true/false/yes/no/on/off/1/0.
pub(crate) fn get_bool(frontmatter: &Map<String, Value>, keys: &[&str]) -> Option<bool> {
    keys.iter().find_map(|key| match frontmatter.get(*key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(true),
            "false" | "no" | "off" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_i64().map(|n| n != 0),
        _ => None,
    })
}

/// The OpenClaw section of `metadata` (`metadata.openclaw`, or the older `clawdbot` / `clawdis`
/// keys). `metadata` may be a map or a JSON5 string; an unparsable string yields None.
pub(crate) fn openclaw_metadata(frontmatter: &Map<String, Value>) -> Option<Map<String, Value>> {
    let metadata = match frontmatter.get("metadata")? {
        Value::Object(map) => map.clone(),
        // Too deep to parse without overflowing the stack: treated as unparsable.
        Value::String(text)
            if crate::config::depth::too_deep_at(text, crate::config::depth::MAX_NESTING_DEPTH)
                .is_some() =>
        {
            return None;
        }
        Value::String(text) => match json5::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            _ => return None,
        },
        _ => return None,
    };
    ["openclaw", "clawdbot", "clawdis"]
        .iter()
        .find_map(|key| metadata.get(*key).and_then(Value::as_object).cloned())
}

/// A list of strings from a string (comma-separated) or an array.
pub(crate) fn string_list(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(s)) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_yaml_frontmatter_and_body() {
        let text = "---\nname: db-expert\ndescription: \"SQL: and NoSQL\"\nuser-invocable: false\nmetadata:\n  openclaw:\n    requires:\n      bins: [psql]\n---\n# Body\nText\n";
        let parsed = parse_skill_file(text);
        assert_eq!(
            get_string(&parsed.frontmatter, &["name"]).as_deref(),
            Some("db-expert")
        );
        assert_eq!(
            get_string(&parsed.frontmatter, &["description"]).as_deref(),
            Some("SQL: and NoSQL")
        );
        assert_eq!(
            get_bool(&parsed.frontmatter, &["user-invocable"]),
            Some(false)
        );
        let meta = openclaw_metadata(&parsed.frontmatter).unwrap();
        assert_eq!(meta["requires"]["bins"], json!(["psql"]));
        assert_eq!(parsed.body, "# Body\nText\n");
    }

    #[test]
    fn metadata_may_be_a_json5_string() {
        let text = "---\nname: gh\ndescription: GitHub\nmetadata: { \"openclaw\": { \"requires\": { \"bins\": [\"gh\"] }, os: [\"darwin\"] } }\n---\n";
        let parsed = parse_skill_file(text);
        let meta = openclaw_metadata(&parsed.frontmatter).unwrap();
        assert_eq!(meta["os"], json!(["darwin"]));
    }

    #[test]
    fn broken_yaml_falls_back_to_lines() {
        let text = "---\nname: x\ndescription: a: b: [unclosed\n---\nbody";
        let parsed = parse_skill_file(text);
        assert_eq!(
            get_string(&parsed.frontmatter, &["description"]).as_deref(),
            Some("a: b: [unclosed")
        );
        assert_eq!(parsed.body, "body");
    }

    #[test]
    fn no_frontmatter_is_all_body() {
        let parsed = parse_skill_file("# Just text\n");
        assert!(parsed.frontmatter.is_empty());
        assert_eq!(parsed.body, "# Just text\n");
        assert_eq!(string_list(Some(&json!("a, b,,c"))), vec!["a", "b", "c"]);
    }
}
