//! Skill slash commands (seed 002 §9): user-invocable skills become `/name` commands; a skill
//! with `command-dispatch: tool` sends `/name args` straight to a tool with the raw arguments.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{Skill, ToolDispatch};
use crate::tool::ToolSpec;

pub(crate) const COMMAND_NAME_MAX_LEN: usize = 32;
const COMMAND_NAME_FALLBACK: &str = "skill";
/// Chat surfaces (Discord) cap command descriptions at 100 characters.
const COMMAND_DESCRIPTION_MAX_LEN: usize = 100;

/// OpenClaw's own chat commands; a skill never takes one of these names.
pub(crate) const BUILTIN_COMMANDS: &[&str] = &[
    "help",
    "commands",
    "status",
    "whoami",
    "context",
    "stop",
    "restart",
    "reset",
    "new",
    "compact",
    "think",
    "verbose",
    "reasoning",
    "elevated",
    "model",
    "models",
    "queue",
    "config",
    "debug",
    "usage",
    "skill",
    "subagents",
    "activation",
    "send",
    "bash",
    "approve",
    "allowlist",
    "tts",
];

/// One `/command`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillCommand {
    /// Sanitised, unique name (without the slash).
    pub name: String,
    pub skill_name: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<ToolDispatch>,
}

/// Lowercase, runs of anything outside `[a-z0-9_]` become one `_`, no leading/trailing `_`, at
/// most 32 characters; `skill` when nothing is left.
pub fn sanitize_command_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.trim().to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
            if !(c == '_' && out.ends_with('_')) {
                out.push(c);
            }
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed: String = out
        .trim_matches('_')
        .chars()
        .take(COMMAND_NAME_MAX_LEN)
        .collect();
    if trimmed.is_empty() {
        COMMAND_NAME_FALLBACK.to_string()
    } else {
        trimmed
    }
}

/// `base`, or `base_2`, `base_3`, ... (cut so the whole stays within 32 characters), whichever
/// is not yet used.
pub(crate) fn unique_command_name(base: &str, used: &[String]) -> String {
    if !used.iter().any(|u| u == base) {
        return base.to_string();
    }
    for index in 2..1000 {
        let suffix = format!("_{index}");
        let keep = COMMAND_NAME_MAX_LEN.saturating_sub(suffix.len()).max(1);
        let candidate = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
        if !used.contains(&candidate) {
            return candidate;
        }
    }
    format!(
        "{}_x",
        base.chars()
            .take(COMMAND_NAME_MAX_LEN - 2)
            .collect::<String>()
    )
}

/// Commands for the user-invocable skills, in order, avoiding the built-in command names.
pub fn build_skill_commands(skills: &[&Skill]) -> Vec<SkillCommand> {
    let mut used: Vec<String> = BUILTIN_COMMANDS.iter().map(|s| s.to_string()).collect();
    let mut commands = Vec::new();
    for skill in skills.iter().filter(|s| s.user_invocable) {
        let name = unique_command_name(&sanitize_command_name(&skill.name), &used);
        used.push(name.clone());
        let raw = skill.description.trim();
        let description = if raw.chars().count() > COMMAND_DESCRIPTION_MAX_LEN {
            format!(
                "{}…",
                raw.chars()
                    .take(COMMAND_DESCRIPTION_MAX_LEN - 1)
                    .collect::<String>()
            )
        } else if raw.is_empty() {
            skill.name.clone()
        } else {
            raw.to_string()
        };
        commands.push(SkillCommand {
            name,
            skill_name: skill.name.clone(),
            description,
            dispatch: skill.dispatch.clone(),
        });
    }
    commands
}

/// Splits `/name args` (or `/name: args`) into the name and the raw argument text. None when
/// the input is not a slash command.
pub fn parse_slash(input: &str) -> Option<(String, String)> {
    let rest = input.trim_start().strip_prefix('/')?;
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(rest.len());
    let name = &rest[..end];
    if name.is_empty() {
        return None;
    }
    let args = rest[end..].trim_start_matches(':').trim();
    Some((name.to_string(), args.to_string()))
}

/// The command a typed name refers to: matched after the same sanitising, so `/db-expert` and
/// `/db_expert` both find `db_expert`.
pub fn find_command<'a>(commands: &'a [SkillCommand], typed: &str) -> Option<&'a SkillCommand> {
    let key = sanitize_command_name(typed);
    commands.iter().find(|c| c.name == key)
}

/// Raw argument mode: the text as typed, except that one pair of quotes around all of it is
/// removed (`/db-expert "optimize this query"` passes `optimize this query`).
pub(crate) fn raw_argument(args: &str) -> String {
    let t = args.trim();
    for quote in ['"', '\''] {
        if t.len() >= 2
            && t.starts_with(quote)
            && t.ends_with(quote)
            && !t[1..t.len() - 1].contains(quote)
        {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

/// The properties that receive a command's raw text, in order of preference.
const TEXT_PARAMETERS: &[&str] = &[
    "message", "task", "command", "query", "prompt", "text", "input",
];

/// The tool call a dispatching command makes: the raw text goes to the tool's text parameter
/// (message, task, command, query, ..., else its first required string, else `command`);
/// a tool that takes `agentId` (sessions_spawn) is given the skill's name, so
/// `/db-expert optimize this` → `sessions_spawn {message: "optimize this", agentId: "db-expert"}`.
pub fn dispatch_params(tool: &ToolSpec, skill_name: &str, args: &str) -> Value {
    let properties = tool.parameters.get("properties").and_then(Value::as_object);
    let has = |key: &str| properties.is_some_and(|p| p.contains_key(key));
    let text_key = TEXT_PARAMETERS
        .iter()
        .find(|k| has(k))
        .map(|k| k.to_string())
        .or_else(|| first_required_string(&tool.parameters))
        .unwrap_or_else(|| "command".to_string());
    let mut params = Map::new();
    params.insert(text_key, json!(raw_argument(args)));
    if has("agentId") {
        params.insert("agentId".into(), json!(skill_name));
    }
    if has("skillName") {
        params.insert("skillName".into(), json!(skill_name));
    }
    Value::Object(params)
}

fn first_required_string(schema: &Value) -> Option<String> {
    let properties = schema.get("properties")?.as_object()?;
    schema
        .get("required")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find_map(|key| {
            let is_string =
                properties.get(key)?.get("type").and_then(Value::as_str) == Some("string");
            is_string.then(|| key.to_string())
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::skills::{Requires, SkillSource};
    use crate::tool::{ToolFlags, ToolSource};

    fn skill(name: &str, invocable: bool) -> Skill {
        Skill {
            name: name.into(),
            description: format!("{name} skill"),
            file_path: format!("/s/{name}/SKILL.md").into(),
            base_dir: format!("/s/{name}").into(),
            source: SkillSource::Workspace,
            body: String::new(),
            user_invocable: invocable,
            disable_model_invocation: false,
            dispatch: None,
            requires: Requires::default(),
            os: Vec::new(),
            always: false,
            skill_key: None,
            primary_env: None,
        }
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(sanitize_command_name("DB-Expert"), "db_expert");
        assert_eq!(sanitize_command_name("  --weird!!name__  "), "weird_name");
        assert_eq!(sanitize_command_name("数据库"), "skill");
        assert_eq!(sanitize_command_name(&"a".repeat(40)).len(), 32);
    }

    #[test]
    fn duplicates_and_builtins_get_suffixes() {
        let long = "x".repeat(40);
        let skills = [
            skill("db-expert", true),
            skill("db_expert", true),
            skill("status", true),
            skill("hidden", false),
            skill(&long, true),
            skill(&format!("{long}y"), true),
        ];
        let refs: Vec<&Skill> = skills.iter().collect();
        let names: Vec<String> = build_skill_commands(&refs)
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(
            names,
            vec![
                "db_expert".to_string(),
                "db_expert_2".into(),
                "status_2".into(),
                "x".repeat(32),
                format!("{}_2", "x".repeat(30))
            ]
        );
        assert!(names.iter().all(|n| n.len() <= 32));
    }

    #[test]
    fn slash_parsing_and_lookup() {
        assert_eq!(
            parse_slash("/db-expert \"optimize this query\""),
            Some(("db-expert".into(), "\"optimize this query\"".into()))
        );
        assert_eq!(
            parse_slash("/weather: Paris"),
            Some(("weather".into(), "Paris".into()))
        );
        assert_eq!(parse_slash("hello"), None);
        assert_eq!(parse_slash("/ x"), None);
        assert_eq!(
            raw_argument("\"optimize this query\""),
            "optimize this query"
        );
        assert_eq!(raw_argument("say \"hi\" now"), "say \"hi\" now");
        let skills = [skill("db-expert", true)];
        let refs: Vec<&Skill> = skills.iter().collect();
        let commands = build_skill_commands(&refs);
        assert_eq!(
            find_command(&commands, "db-expert").map(|c| c.name.as_str()),
            Some("db_expert")
        );
        assert_eq!(
            find_command(&commands, "DB_EXPERT").map(|c| c.name.as_str()),
            Some("db_expert")
        );
        assert!(find_command(&commands, "other").is_none());
    }

    #[test]
    fn raw_args_go_to_the_tools_text_parameter() {
        let spawn = ToolSpec {
            name: "sessions_spawn".into(),
            label: "Sessions Spawn".into(),
            description: String::new(),
            summary: String::new(),
            emoji: "🧑‍🔧".into(),
            parameters: json!({"type": "object", "properties": {"message": {"type": "string"}, "agentId": {"type": "string"}}, "required": ["message"]}),
            source: ToolSource::Core,
            flags: ToolFlags::default(),
        };
        assert_eq!(
            dispatch_params(&spawn, "db-expert", "\"optimize this query\""),
            json!({"message": "optimize this query", "agentId": "db-expert"})
        );
        let mut exec = spawn.clone();
        exec.parameters = json!({"type": "object", "properties": {"command": {"type": "string"}, "workdir": {"type": "string"}}});
        assert_eq!(
            dispatch_params(&exec, "x", "ls -la"),
            json!({"command": "ls -la"})
        );
        let mut custom = spawn;
        custom.parameters = json!({"type": "object", "properties": {"n": {"type": "integer"}, "sql": {"type": "string"}}, "required": ["n", "sql"]});
        assert_eq!(
            dispatch_params(&custom, "x", "select 1"),
            json!({"sql": "select 1"})
        );
    }
}
