//! Finding SKILL.md files and merging the four sources (seed 002 §3.3): extra < bundled <
//! managed < workspace, a later source replacing an earlier skill of the same name.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::frontmatter::{get_bool, get_string, openclaw_metadata, parse_skill_file, string_list};
use super::{Requires, Skill, SkillSource, ToolDispatch};

/// How deep below a root a SKILL.md is looked for (`skills/category/name/SKILL.md`).
const MAX_DEPTH: usize = 4;
/// A SKILL.md larger than this is skipped (OpenClaw's `maxSkillFileBytes`).
const MAX_SKILL_FILE_BYTES: u64 = 256_000;

/// The directories skills are loaded from, lowest precedence first.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SkillRoots {
    pub extra: Vec<PathBuf>,
    pub bundled: Option<PathBuf>,
    /// `~/.openclaw/skills` by default.
    pub managed: Option<PathBuf>,
    /// `<workspace>/skills`.
    pub workspace: Option<PathBuf>,
    /// Enabled plugins' skill roots (after `extra`, as extra): OpenClaw reads them in the
    /// plugin and shows each skill where it links it, `<shown_under>/<folder>/SKILL.md`.
    #[serde(default)]
    pub linked: Vec<LinkedRoot>,
}

/// A plugin's skill root and the folder OpenClaw links its skills into (`plugin-skills`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkedRoot {
    pub dir: PathBuf,
    pub shown_under: PathBuf,
}

impl SkillRoots {
    /// Each root with its source and where its skills are shown when elsewhere, in
    /// precedence order (lowest first).
    pub(crate) fn ordered(&self) -> Vec<(SkillSource, PathBuf, Option<PathBuf>)> {
        let plain = |source: SkillSource| move |dir: &PathBuf| (source, dir.clone(), None);
        let mut roots: Vec<_> = self.extra.iter().map(plain(SkillSource::Extra)).collect();
        roots.extend(self.linked.iter().map(|linked| {
            let shown = Some(linked.shown_under.clone());
            (SkillSource::Extra, linked.dir.clone(), shown)
        }));
        roots.extend(self.bundled.iter().map(plain(SkillSource::Bundled)));
        roots.extend(self.managed.iter().map(plain(SkillSource::Managed)));
        roots.extend(self.workspace.iter().map(plain(SkillSource::Workspace)));
        roots
    }
}

/// A skill that a later source replaced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overridden {
    pub name: String,
    pub replaced: SkillSource,
    pub replaced_path: PathBuf,
    pub by: SkillSource,
}

/// Every skill after precedence, in first-seen order, with what was replaced or skipped.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LoadedSkills {
    pub skills: Vec<Skill>,
    pub overridden: Vec<Overridden>,
    /// `path: reason` for files that could not become skills.
    pub warnings: Vec<String>,
}

/// Loads all roots; a missing root is simply empty.
pub fn load_skills(roots: &SkillRoots) -> LoadedSkills {
    let mut loaded = LoadedSkills::default();
    for (source, root, shown_under) in roots.ordered() {
        for mut skill in load_root(&root, source, &mut loaded.warnings) {
            if let (Some(shown_under), Some(folder)) = (&shown_under, skill.base_dir.file_name()) {
                skill.base_dir = shown_under.join(folder);
                skill.file_path = skill.base_dir.join("SKILL.md");
            }
            match loaded.skills.iter_mut().find(|s| s.name == skill.name) {
                Some(existing) => {
                    loaded.overridden.push(Overridden {
                        name: skill.name.clone(),
                        replaced: existing.source,
                        replaced_path: existing.file_path.clone(),
                        by: skill.source,
                    });
                    // The replacement keeps the first-seen position, as a JS Map does.
                    *existing = skill;
                }
                None => loaded.skills.push(skill),
            }
        }
    }
    loaded
}

/// The skills under one root: every directory holding a SKILL.md (not searched further).
/// Other files (a README.md beside the skill folders) are not skills.
pub(crate) fn load_root(
    root: &Path,
    source: SkillSource,
    warnings: &mut Vec<String>,
) -> Vec<Skill> {
    let mut skills = Vec::new();
    if root.is_dir() {
        walk_dirs(root, source, 0, &mut skills, warnings);
    }
    skills
}

fn walk_dirs(
    dir: &Path,
    source: SkillSource,
    depth: usize,
    skills: &mut Vec<Skill>,
    warnings: &mut Vec<String>,
) {
    if depth >= MAX_DEPTH {
        return;
    }
    for entry in sorted_entries(dir) {
        let name = file_name(&entry);
        if !entry.is_dir() || name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let skill_md = entry.join("SKILL.md");
        if skill_md.is_file() {
            if let Some(skill) = load_skill_file(&skill_md, &entry, &name, source, warnings) {
                skills.push(skill);
            }
        } else {
            walk_dirs(&entry, source, depth + 1, skills, warnings);
        }
    }
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(read) => read.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads one skill file; None (with a warning) when it is unreadable, too large or has no
/// description.
pub(crate) fn load_skill_file(
    path: &Path,
    base_dir: &Path,
    default_name: &str,
    source: SkillSource,
    warnings: &mut Vec<String>,
) -> Option<Skill> {
    if let Ok(meta) = fs::metadata(path)
        && meta.len() > MAX_SKILL_FILE_BYTES
    {
        warnings.push(format!(
            "{}: skipped: larger than {MAX_SKILL_FILE_BYTES} bytes",
            path.display()
        ));
        return None;
    }
    // Skill dirs can be written by agents: a FIFO there must not hang the config load.
    let text = match crate::regular_file::read_to_string(path, crate::regular_file::Links::Follow) {
        Ok(text) => text,
        Err(err) => {
            warnings.push(format!("{}: skipped: {err}", path.display()));
            return None;
        }
    };
    match skill_from_text(&text, path, base_dir, default_name, source) {
        Ok(skill) => Some(skill),
        Err(reason) => {
            warnings.push(format!("{}: skipped: {reason}", path.display()));
            None
        }
    }
}

/// Builds a skill from a SKILL.md's text; the error says why it is not a skill.
pub(crate) fn skill_from_text(
    text: &str,
    path: &Path,
    base_dir: &Path,
    default_name: &str,
    source: SkillSource,
) -> Result<Skill, String> {
    let parsed = parse_skill_file(text);
    let fm = &parsed.frontmatter;
    let name = get_string(fm, &["name"]).unwrap_or_else(|| default_name.to_string());
    let Some(description) = get_string(fm, &["description"]) else {
        return Err("frontmatter `description` is required".to_string());
    };
    let metadata = openclaw_metadata(fm).unwrap_or_default();
    let requires = metadata.get("requires").and_then(Value::as_object);
    let requires = Requires {
        bins: string_list(requires.and_then(|r| r.get("bins"))),
        any_bins: string_list(requires.and_then(|r| r.get("anyBins"))),
        env: string_list(requires.and_then(|r| r.get("env"))),
        config: string_list(requires.and_then(|r| r.get("config"))),
    };
    let mut os = string_list(metadata.get("os"));
    os.extend(string_list(fm.get("os")));

    let dispatch = match get_string(fm, &["command-dispatch", "command_dispatch"]) {
        Some(kind) if kind.eq_ignore_ascii_case("tool") => {
            get_string(fm, &["command-tool", "command_tool"]).map(|tool| ToolDispatch {
                tool,
                arg_mode: "raw".to_string(),
            })
        }
        _ => None,
    };

    Ok(Skill {
        name,
        description,
        file_path: path.to_path_buf(),
        base_dir: base_dir.to_path_buf(),
        source,
        body: parsed.body,
        user_invocable: get_bool(fm, &["user-invocable", "user_invocable"]).unwrap_or(true),
        disable_model_invocation: get_bool(
            fm,
            &["disable-model-invocation", "disable_model_invocation"],
        )
        .unwrap_or(false),
        dispatch,
        requires,
        os,
        always: metadata
            .get("always")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        skill_key: metadata
            .get("skillKey")
            .and_then(Value::as_str)
            .map(str::to_string),
        primary_env: metadata
            .get("primaryEnv")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn a_plugins_skills_are_read_in_the_plugin_and_shown_where_openclaw_links_them() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        write(
            base,
            "plugin/skills/canvas/SKILL.md",
            "---\ndescription: draw\n---\n",
        );
        write(
            base,
            "managed/canvas/SKILL.md",
            "---\ndescription: mine\n---\n",
        );
        let linked = vec![LinkedRoot {
            dir: base.join("plugin/skills"),
            shown_under: base.join("state/plugin-skills"),
        }];
        let roots = SkillRoots {
            linked: linked.clone(),
            ..SkillRoots::default()
        };
        let loaded = load_skills(&roots);
        let skill = &loaded.skills[0];
        assert_eq!(skill.description, "draw");
        assert_eq!(
            skill.file_path,
            base.join("state/plugin-skills/canvas/SKILL.md")
        );
        assert_eq!(skill.base_dir, base.join("state/plugin-skills/canvas"));
        // Below the managed skills, as OpenClaw's extra roots are.
        let roots = SkillRoots {
            linked,
            managed: Some(base.join("managed")),
            ..SkillRoots::default()
        };
        assert_eq!(load_skills(&roots).skills[0].description, "mine");
    }

    #[test]
    fn a_fifo_as_a_skill_file_is_skipped_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let mut warnings = Vec::new();
        let skill = load_skill_file(
            &path,
            tmp.path(),
            "x",
            SkillSource::Workspace,
            &mut warnings,
        );
        assert!(skill.is_none());
        assert!(
            warnings[0].contains("a FIFO, not a regular file"),
            "{warnings:?}"
        );
    }

    #[test]
    fn later_sources_win_by_name_and_keep_position() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        write(
            base,
            "extra/alpha/SKILL.md",
            "---\ndescription: extra alpha\n---\n",
        );
        write(
            base,
            "extra/beta/SKILL.md",
            "---\ndescription: extra beta\n---\n",
        );
        write(
            base,
            "bundled/alpha/SKILL.md",
            "---\ndescription: bundled alpha\n---\n",
        );
        write(
            base,
            "managed/beta/SKILL.md",
            "---\ndescription: managed beta\n---\n",
        );
        write(
            base,
            "ws/alpha/SKILL.md",
            "---\ndescription: workspace alpha\n---\n",
        );
        let roots = SkillRoots {
            extra: vec![base.join("extra")],
            bundled: Some(base.join("bundled")),
            managed: Some(base.join("managed")),
            workspace: Some(base.join("ws")),
            linked: Vec::new(),
        };
        let loaded = load_skills(&roots);
        let got: Vec<(&str, &str)> = loaded
            .skills
            .iter()
            .map(|s| (s.name.as_str(), s.description.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![("alpha", "workspace alpha"), ("beta", "managed beta")]
        );
        assert_eq!(loaded.overridden.len(), 3);
        assert_eq!(loaded.skills[0].source, SkillSource::Workspace);
    }

    #[test]
    fn missing_description_is_skipped_with_a_warning() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            "nodesc/SKILL.md",
            "---\nname: nodesc\n---\nbody",
        );
        write(
            tmp.path(),
            "group/inner/SKILL.md",
            "---\ndescription: nested\n---\n",
        );
        write(
            tmp.path(),
            "README.md",
            "---\ndescription: not a skill\n---\n",
        );
        let mut warnings = Vec::new();
        let skills = load_root(tmp.path(), SkillSource::Workspace, &mut warnings);
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["inner"]);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].ends_with("SKILL.md: skipped: frontmatter `description` is required"));
    }

    #[test]
    fn dispatch_frontmatter_is_read() {
        let text = "---\ndescription: Database expert\ncommand-dispatch: tool\ncommand-tool: sessions_spawn\ncommand-arg-mode: raw\n---\n";
        let skill = skill_from_text(
            text,
            Path::new("/s/db-expert/SKILL.md"),
            Path::new("/s/db-expert"),
            "db-expert",
            SkillSource::Workspace,
        )
        .unwrap();
        assert_eq!(skill.name, "db-expert");
        assert_eq!(
            skill.dispatch,
            Some(ToolDispatch {
                tool: "sessions_spawn".into(),
                arg_mode: "raw".into()
            })
        );
        assert!(skill.user_invocable);
        assert!(!skill.disable_model_invocation);
    }
}
