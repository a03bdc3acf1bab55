//! The `<available_skills>` block and its size limits (seed 002 §3.3; OpenClaw's
//! `applySkillsPromptLimits`): at most 150 skills and 30 000 characters; over the character
//! budget the block falls back to a compact form without descriptions, and if even that does
//! not fit, to the longest prefix that does, with a note saying so.

use std::path::Path;

use serde::Serialize;

use super::Skill;

pub(crate) const DEFAULT_MAX_SKILLS_IN_PROMPT: usize = 150;
pub(crate) const DEFAULT_MAX_SKILLS_PROMPT_CHARS: usize = 30_000;
/// Room kept for the note line when the compact form is chosen.
const COMPACT_NOTE_RESERVE: usize = 150;

/// Limits and path display for the skills block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillsPromptLimits {
    pub max_skills: usize,
    pub max_chars: usize,
}

impl Default for SkillsPromptLimits {
    fn default() -> Self {
        SkillsPromptLimits {
            max_skills: DEFAULT_MAX_SKILLS_IN_PROMPT,
            max_chars: DEFAULT_MAX_SKILLS_PROMPT_CHARS,
        }
    }
}

/// One skill as the prompt shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct PromptSkill {
    pub name: String,
    pub description: String,
    /// The SKILL.md path, with the home directory shown as `~`.
    pub location: String,
}

/// The rendered skills block and how it was cut.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillsPrompt {
    /// Note line (if any) and the `<available_skills>` block; empty when no skill is offered.
    pub text: String,
    /// Skills offered to the model (eligible, model-invocable) before the limits.
    pub total: usize,
    /// Skills in the block.
    pub included: usize,
    /// Descriptions were left out to fit.
    pub compact: bool,
    /// Some skills were left out.
    pub truncated: bool,
}

/// Escapes the five XML special characters.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

/// Shows a path under `home` as `~/...`, which the model reads the same and costs fewer chars.
pub(crate) fn display_location(path: &Path, home: Option<&Path>) -> String {
    if let Some(home) = home
        && !home.as_os_str().is_empty()
        && let Ok(rest) = path.strip_prefix(home)
    {
        return format!("~/{}", rest.display());
    }
    path.display().to_string()
}

/// The full form: name, description and location per skill.
pub(crate) fn format_skills_full(skills: &[PromptSkill]) -> String {
    format_block(skills, true)
}

/// The compact form: name and location only.
pub(crate) fn format_skills_compact(skills: &[PromptSkill]) -> String {
    format_block(skills, false)
}

fn format_block(skills: &[PromptSkill], with_description: bool) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut lines = vec!["<available_skills>".to_string()];
    for skill in skills {
        lines.push("<skill>".to_string());
        lines.push(format!("<name>{}</name>", escape_xml(&skill.name)));
        if with_description {
            lines.push(format!(
                "<description>{}</description>",
                escape_xml(&skill.description)
            ));
        }
        lines.push(format!(
            "<location>{}</location>",
            escape_xml(&skill.location)
        ));
        lines.push("</skill>".to_string());
    }
    lines.push("</available_skills>".to_string());
    lines.join("\n")
}

fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// The skills block for `skills` (already filtered for eligibility and model invocation), in
/// their order, within `limits`.
pub fn build_skills_prompt(
    skills: &[&Skill],
    limits: &SkillsPromptLimits,
    home: Option<&Path>,
) -> SkillsPrompt {
    let all: Vec<PromptSkill> = skills
        .iter()
        .map(|s| PromptSkill {
            name: s.name.clone(),
            description: s.description.clone(),
            location: display_location(&s.file_path, home),
        })
        .collect();
    let total = all.len();
    let by_count = &all[..total.min(limits.max_skills)];
    let mut truncated = by_count.len() < total;

    let (chosen, compact): (&[PromptSkill], bool) = if char_len(&format_skills_full(by_count))
        <= limits.max_chars
    {
        (by_count, false)
    } else if char_len(&format_skills_compact(by_count)) + COMPACT_NOTE_RESERVE <= limits.max_chars
    {
        (by_count, true)
    } else {
        // Longest prefix whose compact form (plus the note) fits; lengths grow with the prefix.
        let (mut lo, mut hi) = (0usize, by_count.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if char_len(&format_skills_compact(&by_count[..mid])) + COMPACT_NOTE_RESERVE
                <= limits.max_chars
            {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        truncated = true;
        (&by_count[..lo], true)
    };

    let note = if truncated {
        let suffix = if compact {
            " (compact format, descriptions omitted)"
        } else {
            ""
        };
        format!(
            "⚠️ Skills truncated: included {} of {total}{suffix}.",
            chosen.len()
        )
    } else if compact {
        "⚠️ Skills catalog using compact format (descriptions omitted).".to_string()
    } else {
        String::new()
    };
    let block = if compact {
        format_skills_compact(chosen)
    } else {
        format_skills_full(chosen)
    };
    let text = [note, block]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    SkillsPrompt {
        text,
        total,
        included: chosen.len(),
        compact,
        truncated,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::skills::{Requires, SkillSource};

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            name: name.into(),
            description: description.into(),
            file_path: format!("/skills/{name}/SKILL.md").into(),
            base_dir: format!("/skills/{name}").into(),
            source: SkillSource::Workspace,
            body: String::new(),
            user_invocable: true,
            disable_model_invocation: false,
            dispatch: None,
            requires: Requires::default(),
            os: Vec::new(),
            always: false,
            skill_key: None,
            primary_env: None,
        }
    }

    fn build(skills: &[Skill], max_skills: usize, max_chars: usize) -> SkillsPrompt {
        let refs: Vec<&Skill> = skills.iter().collect();
        build_skills_prompt(
            &refs,
            &SkillsPromptLimits {
                max_skills,
                max_chars,
            },
            None,
        )
    }

    #[test]
    fn full_block_matches_the_seed_layout() {
        let skills = [skill(
            "web-developer",
            "Expert web developer with focus on accessibility",
        )];
        let out = build(&skills, 150, 30_000);
        assert_eq!(
            out.text,
            "<available_skills>\n<skill>\n<name>web-developer</name>\n<description>Expert web developer with focus on accessibility</description>\n<location>/skills/web-developer/SKILL.md</location>\n</skill>\n</available_skills>"
        );
        assert!(!out.compact && !out.truncated);
    }

    #[test]
    fn escapes_xml() {
        let out = build(
            &[skill("a<b&c", "Get \"weather\" <data> & 'more'")],
            150,
            30_000,
        );
        assert!(out.text.contains("<name>a&lt;b&amp;c</name>"));
        assert!(out.text.contains(
            "<description>Get &quot;weather&quot; &lt;data&gt; &amp; &apos;more&apos;</description>"
        ));
    }

    #[test]
    fn compact_when_full_is_over_budget() {
        let skills: Vec<Skill> = (0..20)
            .map(|i| skill(&format!("skill-{i}"), &"A".repeat(200)))
            .collect();
        let refs: Vec<PromptSkill> = skills
            .iter()
            .map(|s| PromptSkill {
                name: s.name.clone(),
                description: s.description.clone(),
                location: s.file_path.display().to_string(),
            })
            .collect();
        let budget = (format_skills_full(&refs).chars().count()
            + format_skills_compact(&refs).chars().count())
            / 2;
        let out = build(&skills, 150, budget);
        assert!(out.compact && !out.truncated);
        assert!(out.text.starts_with(
            "⚠️ Skills catalog using compact format (descriptions omitted).\n<available_skills>"
        ));
        assert!(!out.text.contains("<description>"));
        assert!(out.text.contains("skill-19"));
    }

    #[test]
    fn prefix_when_even_compact_is_over_budget() {
        let skills: Vec<Skill> = (0..100)
            .map(|i| skill(&format!("skill-{i}"), "description"))
            .collect();
        let out = build(&skills, 150, 2000);
        assert!(out.truncated && out.compact);
        assert!(out.included > 0 && out.included < 100);
        assert!(out.text.starts_with(&format!(
            "⚠️ Skills truncated: included {} of 100 (compact format, descriptions omitted).",
            out.included
        )));
        assert!(out.text.chars().count() <= 2000);
    }

    #[test]
    fn count_limit_alone_keeps_descriptions() {
        let skills: Vec<Skill> = (0..20)
            .map(|i| skill(&format!("skill-{i}"), "short"))
            .collect();
        let out = build(&skills, 5, 30_000);
        assert!(
            out.text
                .starts_with("⚠️ Skills truncated: included 5 of 20.\n")
        );
        assert!(out.text.contains("<description>short</description>"));
        assert_eq!(out.included, 5);
    }

    #[test]
    fn tiny_budget_keeps_nothing_but_the_note() {
        let out = build(&[skill("only-one", "desc")], 150, 10);
        assert_eq!(
            out.text,
            "⚠️ Skills truncated: included 0 of 1 (compact format, descriptions omitted)."
        );
        assert_eq!(build(&[], 150, 10).text, "");
    }

    #[test]
    fn home_is_shown_as_tilde() {
        assert_eq!(
            display_location(
                Path::new("/home/u/.openclaw/skills/x/SKILL.md"),
                Some(Path::new("/home/u"))
            ),
            "~/.openclaw/skills/x/SKILL.md"
        );
        assert_eq!(
            display_location(Path::new("/srv/x/SKILL.md"), Some(Path::new("/home/u"))),
            "/srv/x/SKILL.md"
        );
    }
}
