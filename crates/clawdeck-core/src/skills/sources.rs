//! Where skills come from for a loaded config: the four roots, the workspace, and the prompt
//! limits (`skills.limits` in the OpenClaw config).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::format::SkillsPromptLimits;
use super::load::SkillRoots;
use crate::config::LoadedConfig;

pub(crate) use crate::paths::{expand_path, home_dir};

fn config_dir(config: &LoadedConfig) -> Option<PathBuf> {
    config
        .path
        .as_ref()
        .and_then(|p| p.parent())
        .map(Path::to_path_buf)
}

/// The agent's workspace: clawdeck's `workspace` setting, else the agent's own
/// `workspace`, else `agents.defaults.workspace`, else the current directory.
pub(crate) fn workspace_dir(config: &LoadedConfig, agent: Option<&str>) -> PathBuf {
    let home = home_dir();
    let base = config_dir(config);
    if let Some(ws) = &config.settings.workspace {
        return expand_path(&ws.to_string_lossy(), home.as_deref(), base.as_deref());
    }
    let agent_id = agent
        .map(str::to_string)
        .unwrap_or_else(|| config.default_agent_id());
    let from_agent = config
        .agent(&agent_id)
        .and_then(|a| a.entry.workspace.clone());
    match from_agent.or_else(|| config.openclaw.agents.defaults.workspace.clone()) {
        Some(ws) => expand_path(&ws, home.as_deref(), base.as_deref()),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    }
}

/// The skill roots for an agent: `skills.load.extraDirs` and clawdeck's `skills.extraDirs`
/// (extra), clawdeck's `skills.bundledDir`, the managed dir (`skills.managedDir`, else
/// `$OPENCLAW_STATE_DIR/skills`, else `~/.openclaw/skills`) and `<workspace>/skills`.
pub fn skill_roots(config: &LoadedConfig, agent: Option<&str>) -> SkillRoots {
    let home = home_dir();
    let base = config_dir(config);
    let expand = |raw: &str| expand_path(raw, home.as_deref(), base.as_deref());
    let settings = &config.settings.skills;

    let mut extra: Vec<PathBuf> = config
        .raw
        .pointer("/skills/load/extraDirs")
        .and_then(Value::as_array)
        .map(|dirs| dirs.iter().filter_map(Value::as_str).map(expand).collect())
        .unwrap_or_default();
    extra.extend(
        settings
            .extra_dirs
            .iter()
            .map(|d| expand(&d.to_string_lossy())),
    );

    let managed = match &settings.managed_dir {
        Some(dir) => Some(expand(&dir.to_string_lossy())),
        None => crate::paths::openclaw_state_dir().map(|state| state.join("skills")),
    };
    SkillRoots {
        extra,
        bundled: settings
            .bundled_dir
            .as_ref()
            .map(|dir| expand(&dir.to_string_lossy())),
        managed,
        workspace: Some(workspace_dir(config, agent).join("skills")),
        linked: Vec::new(),
    }
}

/// `skills.limits.maxSkillsInPrompt` / `maxSkillsPromptChars`.
/// An agent's own `skillsLimits.maxSkillsPromptChars` (its `entry`) comes before the global one;
/// `defaults` where neither is set.
pub(crate) fn prompt_limits(
    raw_config: &Value,
    entry: Option<&Value>,
    defaults: SkillsPromptLimits,
) -> SkillsPromptLimits {
    let number = |value: Option<&Value>| {
        value
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    let limit = |key: &str| number(raw_config.pointer(&format!("/skills/limits/{key}")));
    let own_chars = number(entry.and_then(|e| e.pointer("/skillsLimits/maxSkillsPromptChars")));
    SkillsPromptLimits {
        max_skills: limit("maxSkillsInPrompt").unwrap_or(defaults.max_skills),
        max_chars: own_chars
            .or_else(|| limit("maxSkillsPromptChars"))
            .unwrap_or(defaults.max_chars),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_expand() {
        let home = Path::new("/home/u");
        assert_eq!(
            expand_path("~/ws", Some(home), None),
            PathBuf::from("/home/u/ws")
        );
        assert_eq!(
            expand_path("rel", Some(home), Some(Path::new("/etc/oc"))),
            PathBuf::from("/etc/oc/rel")
        );
        assert_eq!(
            expand_path("/abs", None, Some(Path::new("/x"))),
            PathBuf::from("/abs")
        );
    }

    #[test]
    fn limits_come_from_config() {
        let raw =
            json!({"skills": {"limits": {"maxSkillsInPrompt": 3, "maxSkillsPromptChars": 900}}});
        let limits = prompt_limits(&raw, None, SkillsPromptLimits::default());
        assert_eq!(
            limits,
            SkillsPromptLimits {
                max_skills: 3,
                max_chars: 900
            }
        );
        let agent = json!({"id": "ops", "skillsLimits": {"maxSkillsPromptChars": 400}});
        let own = prompt_limits(&raw, Some(&agent), SkillsPromptLimits::default());
        assert_eq!(
            (own.max_skills, own.max_chars),
            (3, 400),
            "the agent's own budget"
        );
    }
}
