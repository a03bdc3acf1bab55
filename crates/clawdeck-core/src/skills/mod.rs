//! Skills (seed 002 §3): SKILL.md prompt templates the model reads with `read`, loaded from
//! four sources, filtered for eligibility, listed in the system prompt, and offered to users as
//! `/commands`.
//!
//! Pure except for reading skill directories and PATH; the prompt builder and the console use
//! [`SkillSet`] as data.

pub mod commands;
pub mod demo;
pub mod dispatch;
pub mod eligibility;
pub mod format;
pub mod frontmatter;
pub mod load;
pub mod sources;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use commands::{
    SkillCommand, build_skill_commands, find_command, parse_slash, sanitize_command_name,
};
pub use dispatch::{DispatchPlan, plan_dispatch};
pub use eligibility::{AgentSkillFilter, EligibilityEnv, Ineligible, check_eligibility};
pub use format::{SkillsPrompt, SkillsPromptLimits, build_skills_prompt};
pub use load::{LinkedRoot, LoadedSkills, SkillRoots, load_skills};

/// Where a skill came from; the order is the precedence (later wins by name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillSource {
    Extra,
    Bundled,
    Managed,
    Workspace,
}

impl SkillSource {
    pub fn id(self) -> &'static str {
        match self {
            SkillSource::Extra => "extra",
            SkillSource::Bundled => "bundled",
            SkillSource::Managed => "managed",
            SkillSource::Workspace => "workspace",
        }
    }
}

/// `metadata.openclaw.requires`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Requires {
    /// Every one must be on PATH.
    pub bins: Vec<String>,
    /// At least one must be on PATH.
    pub any_bins: Vec<String>,
    /// Every one must be set.
    pub env: Vec<String>,
    /// Dotted OpenClaw config paths that must be truthy.
    pub config: Vec<String>,
}

/// `command-dispatch: tool` with `command-tool` (and `command-arg-mode`, only `raw` exists).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolDispatch {
    pub tool: String,
    pub arg_mode: String,
}

/// One loaded skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skill {
    pub name: String,
    pub description: String,
    /// The SKILL.md the model reads.
    pub file_path: PathBuf,
    pub base_dir: PathBuf,
    pub source: SkillSource,
    /// The instructions after the frontmatter.
    #[serde(skip)]
    pub body: String,
    /// Offered as a `/command` (default true).
    pub user_invocable: bool,
    /// Left out of the model's `<available_skills>` (default false).
    pub disable_model_invocation: bool,
    pub dispatch: Option<ToolDispatch>,
    pub requires: Requires,
    /// Allowed platforms (`darwin`, `linux`, `win32`); empty = any.
    pub os: Vec<String>,
    /// `metadata.openclaw.always`: requirements are not checked.
    pub always: bool,
    /// `metadata.openclaw.skillKey`: the `skills.entries` key, when not the name.
    pub skill_key: Option<String>,
    /// `metadata.openclaw.primaryEnv`: the env var `skills.entries.<key>.apiKey` stands for.
    pub primary_env: Option<String>,
}

/// One skill with its eligibility verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillStatus {
    pub skill: Skill,
    /// Empty when eligible.
    pub ineligible: Vec<Ineligible>,
}

impl SkillStatus {
    pub fn eligible(&self) -> bool {
        self.ineligible.is_empty()
    }
}

/// Everything about skills for one context: what loaded, what is eligible, what the model is
/// shown, and which commands exist.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillSet {
    pub statuses: Vec<SkillStatus>,
    pub overridden: Vec<load::Overridden>,
    pub warnings: Vec<String>,
    pub prompt: SkillsPrompt,
    pub commands: Vec<SkillCommand>,
    /// The limits the prompt's catalog is cut to.
    pub limits: SkillsPromptLimits,
}

impl SkillSet {
    /// Eligible skills, in order.
    pub fn eligible(&self) -> impl Iterator<Item = &Skill> {
        self.statuses
            .iter()
            .filter(|s| s.eligible())
            .map(|s| &s.skill)
    }

    /// The skills offered to the model (eligible, model-invocable), in order.
    pub fn for_model(&self) -> impl Iterator<Item = &Skill> {
        self.eligible().filter(|s| !s.disable_model_invocation)
    }
}

/// Loads, checks and formats skills: the prompt lists eligible skills without
/// `disable-model-invocation`; commands come from eligible user-invocable skills.
pub fn resolve_skills(
    roots: &SkillRoots,
    env: &EligibilityEnv,
    limits: &SkillsPromptLimits,
    home: Option<&Path>,
) -> SkillSet {
    let loaded = load_skills(roots);
    let statuses: Vec<SkillStatus> = loaded
        .skills
        .into_iter()
        .map(|skill| {
            let ineligible = check_eligibility(&skill, env);
            SkillStatus { skill, ineligible }
        })
        .collect();
    let eligible: Vec<&Skill> = statuses
        .iter()
        .filter(|s| s.eligible())
        .map(|s| &s.skill)
        .collect();
    let for_model: Vec<&Skill> = eligible
        .iter()
        .copied()
        .filter(|s| !s.disable_model_invocation)
        .collect();
    let prompt = build_skills_prompt(&for_model, limits, home);
    let commands = build_skill_commands(&eligible);
    SkillSet {
        statuses,
        overridden: loaded.overridden,
        warnings: loaded.warnings,
        prompt,
        commands,
        limits: limits.clone(),
    }
}
