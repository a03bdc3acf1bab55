//! Whether the OpenClaw release a pack follows would start with this config at all. OpenClaw
//! validates its config before it runs anything and refuses to start on any issue; clawdeck
//! validates against the same schema (`openclaw config schema`, stored per release in
//! `assets/openclaw/schema/`) and refuses the same configs, each issue at the key path
//! `openclaw config validate --json` names. Like OpenClaw, a legacy `agents.list` is first read
//! as the keyed `agents.entries` (so issues inside it are named there), and the roster rules the
//! schema cannot express (`agents.ownership`) are checked here.

use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

use super::keypath::{KeyPath, KeySegment};

mod reached;
mod refine;

/// The stored schema of each release that has one; the seed (no release) has none.
fn stored_schema(pack_id: &str) -> Option<&'static str> {
    match pack_id {
        "2026.9" => Some(include_str!(
            "../../../../assets/openclaw/schema/2026.9.json"
        )),
        "2026.8" => Some(include_str!(
            "../../../../assets/openclaw/schema/2026.8.json"
        )),
        _ => None,
    }
}

fn compile(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Makes the exported schema readable by the validator: every `pattern` (JavaScript regex
/// syntax, as zod exports it) in the syntax its engine reads, and each embedded plugin config
/// schema that carries its own `$defs` its own resource (`$id`), so that its `#/$defs/...`
/// references resolve inside it as they do when OpenClaw validates a plugin's config alone;
/// fields with a default are optional.
fn adapt_schema(node: &mut Value, names: bool, embedded: &mut usize) {
    match node {
        Value::Object(map) => {
            if !names && *embedded > 0 && map.contains_key("$defs") {
                map.insert(
                    "$id".to_string(),
                    Value::String(format!("urn:clawdeck:openclaw-embedded-schema:{embedded}")),
                );
            }
            if !names {
                *embedded += 1;
                optional_defaults(map);
            }
            for (key, value) in map.iter_mut() {
                match value {
                    Value::String(pattern) if key == "pattern" && !names => {
                        *pattern = js_to_rust_regex(pattern);
                    }
                    _ => {
                        let holds_names = !names
                            && ["properties", "patternProperties", "$defs", "definitions"]
                                .contains(&key.as_str());
                        adapt_schema(value, holds_names, embedded);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                adapt_schema(item, false, embedded);
            }
        }
        _ => {}
    }
}

/// zod exports a field with a default as required (the parsed output always has it); the input
/// OpenClaw validates may leave it out.
fn optional_defaults(schema: &mut Map<String, Value>) {
    let defaulted: Vec<String> = match schema.get("properties").and_then(Value::as_object) {
        Some(properties) => properties
            .iter()
            .filter(|(_, sub)| sub.get("default").is_some())
            .map(|(name, _)| name.clone())
            .collect(),
        None => return,
    };
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| {
            !name
                .as_str()
                .is_some_and(|n| defaulted.iter().any(|d| d == n))
        });
    }
}

fn js_to_rust_regex(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('0') => out.push_str("\\x00"),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            '[' if in_class => out.push_str("\\["),
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// One reason OpenClaw would refuse the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    /// The key path as `openclaw config validate --json` names it (`tools.exec.ask`,
    /// `models.providers.p.models.0.name`, `<root>`).
    pub path: String,
    pub message: String,
    /// Where it is written in the file (differs from `path` inside a legacy `agents.list`).
    pub written_at: KeyPath,
}

/// What validating against a pack's schema found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaVerdict {
    /// The pack's release has no stored schema (the seed): nothing is checked.
    NoSchema,
    /// The stored schema does not compile (a broken asset): nothing is refused.
    Unusable(String),
    /// Every issue found; empty: OpenClaw would accept the config.
    Checked(Vec<SchemaIssue>),
}

/// Validates `raw` the way OpenClaw `pack_id` validates its config.
pub fn check(raw: &Value, pack_id: &str) -> SchemaVerdict {
    // Accepted before, unchanged: skip compiling the schema (only acceptance is remembered).
    let memo = stored_schema(pack_id).map(|text| super::accepted::Memo::of(text, raw));
    if memo
        .as_ref()
        .is_some_and(super::accepted::Memo::was_accepted)
    {
        return SchemaVerdict::Checked(Vec::new());
    }
    let verdict = check_compiled(raw, pack_id);
    if let (Some(memo), SchemaVerdict::Checked(issues)) = (&memo, &verdict)
        && issues.is_empty()
    {
        memo.remember();
    }
    verdict
}

fn check_compiled(raw: &Value, pack_id: &str) -> SchemaVerdict {
    let Some(text) = stored_schema(pack_id) else {
        return SchemaVerdict::NoSchema;
    };
    let roster = read_roster(raw);
    let reached = match reached::compiled(pack_id, text, &roster.doc) {
        Ok(reached) => reached,
        Err(why) => return SchemaVerdict::Unusable(why),
    };
    let mut issues: Vec<SchemaIssue> = reached
        .validator
        .iter_errors(&roster.doc)
        .map(|error| issue_from_error(&error, &reached.schema, &roster))
        .collect();
    issues.extend(roster_rules(&roster));
    issues.extend(refine::issues(&roster, pack_id));
    // Channel and plugin settings are validated by their plugins' own schemas, which do not
    // have this rule (a channel group's tools may set both).
    for scope in ["tools", "agents"] {
        if let Some(node) = roster.doc.get(scope) {
            allow_conflicts(node, &mut vec![scope.to_string()], &roster, &mut issues);
        }
    }
    issues.dedup();
    SchemaVerdict::Checked(issues)
}

/// The config as OpenClaw validates it: a legacy `agents.list` whose every entry has a
/// canonical, unique `id` read as `agents.entries` (the ids kept, to name the list again), and
/// with no roster at all the implicit `main`.
struct Roster {
    doc: Value,
    /// `agents.entries` keys that came from `agents.list[i]`, in list order.
    from_list: Vec<String>,
}

fn read_roster(raw: &Value) -> Roster {
    let mut doc = raw.clone();
    let mut from_list = Vec::new();
    if let Some(agents) = doc.get_mut("agents").and_then(Value::as_object_mut) {
        if let Some((entries, ids)) = agents.get("list").and_then(legacy_roster) {
            agents.remove("list");
            agents.insert("entries".to_string(), Value::Object(entries));
            from_list = ids;
        }
        let has_roster = agents.contains_key("list") || agents.contains_key("entries");
        let empty_entries = agents
            .get("entries")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty);
        let explicit = agents.get("ownership").and_then(Value::as_str) == Some("explicit");
        if (!has_roster || empty_entries) && !explicit {
            agents.insert("entries".to_string(), serde_json::json!({ "main": {} }));
        }
    }
    Roster { doc, from_list }
}

/// `agents.list` as keyed entries, when OpenClaw converts it: every entry an object whose `id`
/// is already canonical (trimmed, lowercase, `[a-z0-9][a-z0-9_-]{0,63}`) and unique.
fn legacy_roster(list: &Value) -> Option<(Map<String, Value>, Vec<String>)> {
    let mut entries = Map::new();
    let mut ids = Vec::new();
    for entry in list.as_array()? {
        let mut config = entry.as_object()?.clone();
        let id = config.remove("id")?.as_str()?.to_string();
        if !is_canonical_agent_id(&id) || entries.contains_key(&id) {
            return None;
        }
        entries.insert(id.clone(), Value::Object(config));
        ids.push(id);
    }
    Some((entries, ids))
}

fn is_canonical_agent_id(id: &str) -> bool {
    let mut chars = id.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    first_ok
        && id.len() <= 64
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// The roster rules OpenClaw checks beyond the schema (its `agents` refinement).
fn roster_rules(roster: &Roster) -> Vec<SchemaIssue> {
    let Some(agents) = roster.doc.get("agents").and_then(Value::as_object) else {
        return Vec::new();
    };
    let entries: Vec<(&String, &Value)> = agents
        .get("entries")
        .and_then(Value::as_object)
        .map(|m| m.iter().collect())
        .unwrap_or_default();
    let explicit = agents.get("ownership").and_then(Value::as_str) == Some("explicit");
    let marked = entries
        .iter()
        .filter(|(_, e)| e.get("default") == Some(&Value::Bool(true)))
        .count();
    let mut out = Vec::new();
    let mut rule = |path: &str, message: String| {
        out.push(SchemaIssue {
            path: path.to_string(),
            message,
            written_at: KeyPath::parse_dotted(path),
        })
    };
    if entries.is_empty() {
        rule(
            "agents.entries",
            "agents.entries must contain at least one configured agent".to_string(),
        );
    }
    if marked > 1 {
        rule(
            "agents.entries",
            format!("agents.entries must contain at most one default=true entry (found {marked})"),
        );
    }
    if explicit && marked > 0 {
        rule(
            "agents.ownership",
            "agents.ownership=explicit cannot be combined with a legacy default=true marker"
                .to_string(),
        );
    }
    if entries.len() > 1 && marked == 0 && !explicit {
        rule(
            "agents.ownership",
            "multi-agent rosters require agents.ownership=\"explicit\" or one agent with \
             default: true (OpenClaw refuses to start otherwise)"
                .to_string(),
        );
    }
    out
}

/// OpenClaw's refinement on every tool policy (`tools`, `tools.byProvider.*`, an agent's,
/// a group's, a sender's): `allow` and `alsoAllow` are not both set in one scope. Objects the
/// schema already refused are left alone (OpenClaw does not refine those either).
fn allow_conflicts(
    node: &Value,
    at: &mut Vec<String>,
    roster: &Roster,
    issues: &mut Vec<SchemaIssue>,
) {
    let non_empty = |key: &str| {
        node.get(key)
            .and_then(Value::as_array)
            .is_some_and(|list| !list.is_empty())
    };
    if non_empty("allow") && non_empty("alsoAllow") {
        let path = openclaw_path(at);
        let prefix = format!("{path}.");
        if !issues
            .iter()
            .any(|i| i.path == path || i.path.starts_with(&prefix))
        {
            issues.push(SchemaIssue {
                message: "a tool policy cannot set both allow and alsoAllow in the same scope \
                          (merge alsoAllow into allow, or remove allow and use profile + alsoAllow)"
                    .to_string(),
                written_at: written_at(at, roster),
                path,
            });
        }
    }
    let children: Vec<(String, &Value)> = match node {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        _ => return,
    };
    for (key, child) in children {
        at.push(key);
        allow_conflicts(child, at, roster, issues);
        at.pop();
    }
}

/// The segments of a JSON Pointer (`/models/providers/p`), unescaped.
fn pointer_segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// OpenClaw's name for a path: its keys joined with dots, `<root>` for the document.
fn openclaw_path(segments: &[String]) -> String {
    if segments.is_empty() {
        "<root>".to_string()
    } else {
        segments.join(".")
    }
}

/// Where `segments` (a path in the validated document) is written in the file: array positions
/// as indexes, and `agents.entries.<id>` that came from the list as `agents.list[i]`.
fn written_at(segments: &[String], roster: &Roster) -> KeyPath {
    let mut path = KeyPath::root();
    let mut rest = segments;
    if let [agents, entries, id, tail @ ..] = segments
        && agents == "agents"
        && entries == "entries"
        && let Some(i) = roster.from_list.iter().position(|known| known == id)
    {
        path = KeyPath::parse_dotted("agents.list").index(i);
        rest = tail;
    } else if let [agents, entries] = segments
        && agents == "agents"
        && entries == "entries"
        && !roster.from_list.is_empty()
    {
        return KeyPath::parse_dotted("agents.list");
    }
    let mut node = value_at(&roster.doc, &segments[..segments.len() - rest.len()]);
    for segment in rest {
        let index = node
            .filter(|n| n.is_array())
            .and_then(|_| segment.parse::<usize>().ok());
        match index {
            Some(i) => path.push(KeySegment::Index(i)),
            None => path.push(KeySegment::Key(segment.clone())),
        }
        node = node.and_then(|n| match n {
            Value::Array(items) => index.and_then(|i| items.get(i)),
            Value::Object(map) => map.get(segment),
            _ => None,
        });
    }
    path
}

fn value_at<'a>(doc: &'a Value, segments: &[String]) -> Option<&'a Value> {
    segments.iter().try_fold(doc, |node, segment| match node {
        Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
        Value::Object(map) => map.get(segment),
        _ => None,
    })
}

fn issue_from_error(
    error: &jsonschema::ValidationError<'_>,
    schema: &Value,
    roster: &Roster,
) -> SchemaIssue {
    let mut segments = pointer_segments(error.instance_path().as_str());
    let subschema = schema.pointer(error.schema_path().as_str());
    let message = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => unknown_keys(unexpected),
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            segments.push(name);
            "required key missing".to_string()
        }
        ValidationErrorKind::Enum { options } => {
            not_allowed(&segments, error.instance(), &list_of(options))
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            match subschema.and_then(const_choices) {
                Some(allowed) => not_allowed(&segments, error.instance(), &allowed),
                None => format!(
                    "{} matches none of the forms OpenClaw accepts here",
                    error.instance()
                ),
            }
        }
        _ => error.to_string(),
    };
    SchemaIssue {
        written_at: written_at(&segments, roster),
        path: openclaw_path(&segments),
        message,
    }
}

/// `Unrecognized key: "x"` as OpenClaw words it (the path is the object that holds it).
fn unknown_keys(unexpected: &[String]) -> String {
    let quoted: Vec<String> = unexpected.iter().map(|k| format!("{k:?}")).collect();
    match quoted.as_slice() {
        [one] => format!("Unrecognized key: {one}"),
        _ => format!("Unrecognized keys: {}", quoted.join(", ")),
    }
}

fn list_of(options: &Value) -> Vec<Value> {
    match options {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    }
}

/// The values of an `anyOf`/`oneOf` whose every branch is a `const` (how zod exports a union of
/// literals).
fn const_choices(union: &Value) -> Option<Vec<Value>> {
    let branches = union.as_array()?;
    branches
        .iter()
        .map(|b| b.get("const").cloned())
        .collect::<Option<Vec<Value>>>()
        .filter(|v| !v.is_empty())
}

/// A value outside its allowed set, with the set; a tool profile says so in clawdeck's words.
fn not_allowed(segments: &[String], value: &Value, allowed: &[Value]) -> String {
    let listed: Vec<String> = allowed.iter().map(Value::to_string).collect();
    let what = match (segments.last().map(String::as_str), value.as_str()) {
        (Some("profile"), Some(name)) => format!("unknown tool profile \"{name}\""),
        _ => format!("{value} is not one of the allowed values"),
    };
    format!("{what} (allowed: {})", listed.join(", "))
}

/// The stored schema a pack's release is checked against: its `year.minor` (a synced
/// `2026.9.6` pack follows the 2026.9 schema).
fn schema_id(pack_id: &str) -> String {
    pack_id.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// Refuses the config as the pack's OpenClaw would, every issue at its key path (the first is
/// the error, the rest follow it). Without a stored schema for the pack's release, only the
/// tool profiles are checked (`profiles.rs`, against the pack's `profileValues`).
pub(crate) fn refuse_if_invalid(
    loaded: &super::LoadedConfig,
    text: Option<&str>,
) -> Result<(), super::ConfigError> {
    let issues = match check(&loaded.raw, &schema_id(&loaded.semantics.id)) {
        SchemaVerdict::NoSchema | SchemaVerdict::Unusable(_) => {
            return super::profiles::check_profiles(loaded, text);
        }
        SchemaVerdict::Checked(issues) if issues.is_empty() => return Ok(()),
        SchemaVerdict::Checked(issues) => issues,
    };
    refuse(loaded, issues, text)
}

/// Refuses the config for `issues` (not empty), each at its key path and, where the text is
/// at hand, its line.
pub(crate) fn refuse(
    loaded: &super::LoadedConfig,
    issues: Vec<SchemaIssue>,
    text: Option<&str>,
) -> Result<(), super::ConfigError> {
    let text = text
        .map(str::to_string)
        .or_else(|| super::profiles::config_text(loaded));
    let written: Vec<KeyPath> = issues.iter().map(|i| i.written_at.clone()).collect();
    let positions = match &text {
        Some(text) => super::locate::locate_paths(text, &written),
        None => vec![None; written.len()],
    };
    let mut errors = issues
        .into_iter()
        .zip(positions)
        .map(|(issue, position)| issue_error(loaded, issue, position));
    match errors.next() {
        Some(mut first) => {
            first.further = Box::new(errors.collect());
            Err(first)
        }
        None => Ok(()),
    }
}

fn issue_error(
    loaded: &super::LoadedConfig,
    issue: SchemaIssue,
    position: Option<(usize, usize)>,
) -> super::ConfigError {
    let written = issue.written_at.to_string();
    let moved = if written != issue.path && issue.path != "<root>" && !written.starts_with('(') {
        format!(", written at {written}")
    } else {
        String::new()
    };
    super::ConfigError {
        kind: super::ConfigErrorKind::Type,
        file: loaded.origin.clone(),
        line: position.map(|p| p.0),
        column: position.map(|p| p.1),
        message: format!(
            "{}: OpenClaw {} refuses this config{moved}",
            // OpenClaw's sentences end with a full stop; ours goes on after a colon.
            issue.message.trim_end_matches('.'),
            loaded.semantics.id
        ),
        key_path: Some(issue.path),
        further: Box::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_schemas_compile() {
        for id in ["2026.9", "2026.8"] {
            let text = stored_schema(id).unwrap_or_else(|| panic!("{id}: no stored schema"));
            let mut schema: Value = serde_json::from_str(text).unwrap();
            adapt_schema(&mut schema, false, &mut 0);
            if let Err(why) = compile(&schema) {
                panic!("{id}: {why}");
            }
        }
    }
}
