//! Whether a skill may be offered on this machine (OpenClaw's `shouldIncludeSkill`): enabled in
//! config, the right OS, required binaries on PATH, env vars set, config paths truthy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::{Skill, SkillSource};

/// What eligibility is checked against; built from the process for real use, by hand in tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EligibilityEnv {
    /// Directories of PATH, in order.
    pub path_dirs: Vec<PathBuf>,
    /// Environment variables.
    pub env: BTreeMap<String, String>,
    /// The OpenClaw config (for `requires.config` and `skills.entries`).
    pub config: Value,
    /// OpenClaw's platform name: `linux`, `darwin` or `win32`.
    pub os: String,
    /// The run's agent's skill allowlist, when one is configured.
    pub agent_skills: Option<AgentSkillFilter>,
}

/// An agent's skill allowlist (OpenClaw's `resolveEffectiveAgentSkillFilter`): the agent
/// entry's own `skills` when it has the key, else `agents.defaults.skills`. Only the skills
/// it names are offered (`[]`: none); without either key, every skill is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentSkillFilter {
    /// The skill names, trimmed, empty ones dropped.
    pub names: Vec<String>,
    /// Where it is written (`agents.list[1].skills`, `agents.defaults.skills`).
    pub key: String,
}

impl AgentSkillFilter {
    /// The filter for the agent whose entry is `entry` (at `entry_path`), under `raw`.
    pub fn of(raw: &Value, entry: Option<(&Value, &str)>) -> Option<AgentSkillFilter> {
        let (list, key) = match entry.and_then(|(e, path)| Some((e.get("skills")?, path))) {
            Some((own, path)) => (own, format!("{path}.skills")),
            None => (
                raw.pointer("/agents/defaults/skills")?,
                "agents.defaults.skills".to_string(),
            ),
        };
        let names = list
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect();
        Some(AgentSkillFilter { names, key })
    }
}

impl EligibilityEnv {
    /// This process's PATH, environment and OS, with the given OpenClaw config.
    pub(crate) fn from_process(config: Value) -> Self {
        let path_dirs = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        EligibilityEnv {
            path_dirs,
            env: std::env::vars().collect(),
            config,
            os: platform_name(std::env::consts::OS),
            agent_skills: None,
        }
    }

    fn has_bin(&self, bin: &str) -> bool {
        self.path_dirs
            .iter()
            .any(|dir| is_executable(&dir.join(bin)))
    }
}

/// Node's `process.platform` name for a Rust `std::env::consts::OS` (or an already-Node name).
pub(crate) fn platform_name(os: &str) -> String {
    match os.trim().to_ascii_lowercase().as_str() {
        "macos" | "darwin" | "mac" => "darwin".to_string(),
        "windows" | "win32" => "win32".to_string(),
        other => other.to_string(),
    }
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Why a skill is not offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Ineligible {
    /// `skills.entries.<key>.enabled: false`.
    Disabled,
    /// A bundled skill outside `skills.allowBundled`.
    BundledNotAllowed,
    /// Not named by the agent's skill allowlist (at `key`).
    NotInAgentAllowlist {
        key: String,
    },
    Os {
        allowed: Vec<String>,
        actual: String,
    },
    MissingBins {
        bins: Vec<String>,
    },
    NoneOfBins {
        any_bins: Vec<String>,
    },
    MissingEnv {
        env: Vec<String>,
    },
    MissingConfig {
        paths: Vec<String>,
    },
}

impl std::fmt::Display for Ineligible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ineligible::Disabled => write!(f, "disabled in skills.entries"),
            Ineligible::BundledNotAllowed => write!(f, "bundled skill not in skills.allowBundled"),
            Ineligible::NotInAgentAllowlist { key } => write!(f, "not named in {key}"),
            Ineligible::Os { allowed, actual } => {
                write!(f, "os {actual} not in [{}]", allowed.join(", "))
            }
            Ineligible::MissingBins { bins } => {
                write!(f, "missing binaries on PATH: {}", bins.join(", "))
            }
            Ineligible::NoneOfBins { any_bins } => {
                write!(f, "none of these binaries on PATH: {}", any_bins.join(", "))
            }
            Ineligible::MissingEnv { env } => write!(f, "environment not set: {}", env.join(", ")),
            Ineligible::MissingConfig { paths } => {
                write!(f, "config not set: {}", paths.join(", "))
            }
        }
    }
}

/// The config key a skill is configured under: `metadata.openclaw.skillKey`, else its name.
pub(crate) fn skill_key(skill: &Skill) -> &str {
    skill.skill_key.as_deref().unwrap_or(&skill.name)
}

fn skill_entry<'a>(config: &'a Value, skill: &Skill) -> Option<&'a Value> {
    config.get("skills")?.get("entries")?.get(skill_key(skill))
}

/// Every reason `skill` is not offered; empty when it is eligible. `always: true` skips the
/// requirement checks but not an explicit `enabled: false`.
pub fn check_eligibility(skill: &Skill, env: &EligibilityEnv) -> Vec<Ineligible> {
    let entry = skill_entry(&env.config, skill);
    if entry
        .and_then(|e| e.get("enabled"))
        .and_then(Value::as_bool)
        == Some(false)
    {
        return vec![Ineligible::Disabled];
    }
    let mut reasons = Vec::new();
    if skill.source == SkillSource::Bundled
        && let Some(allow) = env
            .config
            .get("skills")
            .and_then(|s| s.get("allowBundled"))
            .and_then(Value::as_array)
        && !allow
            .iter()
            .any(|a| a.as_str() == Some(skill_key(skill)) || a.as_str() == Some(&skill.name))
    {
        reasons.push(Ineligible::BundledNotAllowed);
    }
    if let Some(filter) = &env.agent_skills
        && !filter.names.contains(&skill.name)
    {
        reasons.push(Ineligible::NotInAgentAllowlist {
            key: filter.key.clone(),
        });
    }
    if !skill.os.is_empty() {
        let allowed: Vec<String> = skill.os.iter().map(|o| platform_name(o)).collect();
        if !allowed.contains(&env.os) {
            reasons.push(Ineligible::Os {
                allowed,
                actual: env.os.clone(),
            });
        }
    }
    if skill.always {
        return reasons;
    }
    let missing: Vec<String> = skill
        .requires
        .bins
        .iter()
        .filter(|b| !env.has_bin(b))
        .cloned()
        .collect();
    if !missing.is_empty() {
        reasons.push(Ineligible::MissingBins { bins: missing });
    }
    if !skill.requires.any_bins.is_empty()
        && !skill.requires.any_bins.iter().any(|b| env.has_bin(b))
    {
        reasons.push(Ineligible::NoneOfBins {
            any_bins: skill.requires.any_bins.clone(),
        });
    }
    let missing: Vec<String> = skill
        .requires
        .env
        .iter()
        .filter(|name| !env_satisfied(skill, entry, name, env))
        .cloned()
        .collect();
    if !missing.is_empty() {
        reasons.push(Ineligible::MissingEnv { env: missing });
    }
    let missing: Vec<String> = skill
        .requires
        .config
        .iter()
        .filter(|path| !config_truthy(&env.config, path))
        .cloned()
        .collect();
    if !missing.is_empty() {
        reasons.push(Ineligible::MissingConfig { paths: missing });
    }
    reasons
}

/// An env requirement is met by the process environment, by `skills.entries.<key>.env.<NAME>`,
/// or by `skills.entries.<key>.apiKey` when NAME is the skill's primaryEnv.
fn env_satisfied(skill: &Skill, entry: Option<&Value>, name: &str, env: &EligibilityEnv) -> bool {
    if env.env.get(name).is_some_and(|v| !v.is_empty()) {
        return true;
    }
    if entry
        .and_then(|e| e.get("env"))
        .and_then(|e| e.get(name))
        .and_then(Value::as_str)
        .is_some_and(|v| !v.is_empty())
    {
        return true;
    }
    skill.primary_env.as_deref() == Some(name)
        && entry
            .and_then(|e| e.get("apiKey"))
            .and_then(Value::as_str)
            .is_some_and(|v| !v.is_empty())
}

/// Config paths OpenClaw treats as on when the config does not set them.
const DEFAULT_ON_CONFIG_PATHS: &[&str] = &["browser.enabled", "browser.evaluateEnabled"];

/// Whether the dotted `path` in `config` holds a truthy value (true, a non-zero number, a
/// non-blank string, any object or array); an unset browser switch counts as on, as in OpenClaw.
pub(crate) fn config_truthy(config: &Value, path: &str) -> bool {
    let mut current = config;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        match current.get(part) {
            Some(next) => current = next,
            None => return DEFAULT_ON_CONFIG_PATHS.contains(&path),
        }
    }
    match current {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::skills::Requires;
    use serde_json::json;

    fn skill(requires: Requires, os: &[&str]) -> Skill {
        Skill {
            name: "s".into(),
            description: "d".into(),
            file_path: "/s/SKILL.md".into(),
            base_dir: "/s".into(),
            source: SkillSource::Workspace,
            body: String::new(),
            user_invocable: true,
            disable_model_invocation: false,
            dispatch: None,
            requires,
            os: os.iter().map(|s| s.to_string()).collect(),
            always: false,
            skill_key: None,
            primary_env: Some("API_TOKEN".into()),
        }
    }

    fn env_with_bin(bin: &str) -> (tempfile::TempDir, EligibilityEnv) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(bin);
        std::fs::write(&path, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::write(tmp.path().join("not-exec"), "").unwrap();
        let env = EligibilityEnv {
            path_dirs: vec![tmp.path().to_path_buf()],
            os: "linux".into(),
            ..Default::default()
        };
        (tmp, env)
    }

    #[test]
    fn bins_and_any_bins() {
        let (_tmp, env) = env_with_bin("psql");
        let ok = skill(
            Requires {
                bins: vec!["psql".into()],
                any_bins: vec!["nope".into(), "psql".into()],
                ..Default::default()
            },
            &[],
        );
        assert!(check_eligibility(&ok, &env).is_empty());
        let bad = skill(
            Requires {
                bins: vec!["psql".into(), "not-exec".into()],
                any_bins: vec!["x".into()],
                ..Default::default()
            },
            &[],
        );
        assert_eq!(
            check_eligibility(&bad, &env),
            vec![
                Ineligible::MissingBins {
                    bins: vec!["not-exec".into()]
                },
                Ineligible::NoneOfBins {
                    any_bins: vec!["x".into()]
                }
            ]
        );
    }

    #[test]
    fn env_config_and_os() {
        let mut env = EligibilityEnv {
            os: "linux".into(),
            ..Default::default()
        };
        let s = skill(
            Requires {
                env: vec!["API_TOKEN".into()],
                config: vec!["channels.discord.token".into()],
                ..Default::default()
            },
            &["macos"],
        );
        let reasons = check_eligibility(&s, &env);
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert_eq!(
            reasons[0],
            Ineligible::Os {
                allowed: vec!["darwin".into()],
                actual: "linux".into()
            }
        );
        env.os = "darwin".into();
        env.config = json!({
            "channels": {"discord": {"token": "t"}},
            "skills": {"entries": {"s": {"apiKey": "k"}}}
        });
        assert!(check_eligibility(&s, &env).is_empty());
        env.config["channels"]["discord"]["token"] = json!("");
        assert_eq!(
            check_eligibility(&s, &env),
            vec![Ineligible::MissingConfig {
                paths: vec!["channels.discord.token".into()]
            }]
        );
    }

    #[test]
    fn disabled_and_always() {
        let mut s = skill(
            Requires {
                bins: vec!["definitely-missing".into()],
                ..Default::default()
            },
            &[],
        );
        s.always = true;
        let mut env = EligibilityEnv {
            os: "linux".into(),
            ..Default::default()
        };
        assert!(check_eligibility(&s, &env).is_empty());
        env.config = json!({"skills": {"entries": {"s": {"enabled": false}}}});
        assert_eq!(check_eligibility(&s, &env), vec![Ineligible::Disabled]);
    }

    #[test]
    fn truthiness() {
        let c = json!({"a": {"b": 1, "z": 0, "s": " ", "o": {}}});
        assert!(config_truthy(&c, "a.b"));
        assert!(!config_truthy(&c, "a.z"));
        assert!(!config_truthy(&c, "a.s"));
        assert!(config_truthy(&c, "a.o"));
        assert!(!config_truthy(&c, "a.missing"));
        assert!(config_truthy(&c, "browser.enabled"), "on unless configured");
        assert!(!config_truthy(
            &json!({"browser": {"enabled": false}}),
            "browser.enabled"
        ));
    }

    #[test]
    fn an_agents_skill_allowlist_offers_only_what_it_names() {
        let raw = json!({"agents": {"defaults": {"skills": [" s ", ""]}}});
        let defaults = AgentSkillFilter::of(&raw, None).expect("the defaults' list");
        assert_eq!(defaults.names, vec!["s".to_string()]);
        assert_eq!(defaults.key, "agents.defaults.skills");
        let locked = json!({"id": "locked", "skills": []});
        let own = AgentSkillFilter::of(&raw, Some((&locked, "agents.list[1]"))).unwrap();
        assert!(own.names.is_empty(), "an empty list of its own: no skills");
        assert_eq!(own.key, "agents.list[1].skills");
        let open = json!({"id": "open"});
        assert_eq!(
            AgentSkillFilter::of(&raw, Some((&open, "agents.list[2]"))),
            Some(defaults.clone()),
            "no key of its own: the defaults'"
        );
        assert_eq!(
            AgentSkillFilter::of(&json!({}), Some((&open, "agents.list[0]"))),
            None
        );

        let mut s = skill(Requires::default(), &[]);
        s.always = true;
        let mut env = EligibilityEnv {
            os: "linux".into(),
            agent_skills: Some(defaults),
            ..Default::default()
        };
        assert!(check_eligibility(&s, &env).is_empty(), "named");
        env.agent_skills = Some(own);
        assert_eq!(
            check_eligibility(&s, &env),
            vec![Ineligible::NotInAgentAllowlist {
                key: "agents.list[1].skills".into()
            }],
            "even an always skill"
        );
        assert_eq!(
            check_eligibility(&s, &env)[0].to_string(),
            "not named in agents.list[1].skills"
        );
    }
}
