//! The embedded demo's skills read back through the skills loader (they are written by
//! [`crate::config::demo_skills`]).

#[cfg(test)]
mod tests {
    use crate::config::demo_skills::{DEMO_SKILLS, write_skills};

    /// The demo skills' writer and the skills loader agree: every demo skill reads back whole, with
    /// its name, file and instructions, and nothing to warn about.
    #[test]
    fn written_demo_skills_read_back_through_the_loader() {
        let dir = tempfile::tempdir().unwrap();
        write_skills(dir.path()).unwrap();
        let mut warnings = Vec::new();
        let skills = super::super::load::load_root(
            dir.path(),
            super::super::SkillSource::Bundled,
            &mut warnings,
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        let expected: Vec<&str> = DEMO_SKILLS.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, expected);
        for (skill, (name, text)) in skills.iter().zip(DEMO_SKILLS) {
            assert_eq!(skill.file_path, dir.path().join(name).join("SKILL.md"));
            assert!(!skill.description.is_empty(), "{name}");
            assert!(
                text.trim_end().ends_with(skill.body.trim()),
                "{name}: {}",
                skill.body
            );
        }
    }
}
