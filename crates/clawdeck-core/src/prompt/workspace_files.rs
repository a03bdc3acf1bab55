//! The workspace files OpenClaw injects into the prompt under `# Project Context` (AGENTS.md,
//! SOUL.md, IDENTITY.md, USER.md, BOOTSTRAP.md, MEMORY.md: the release pack names them), read
//! from the agent's workspace with the release's budgets (`agents.defaults.bootstrapMaxChars`
//! per file, `bootstrapTotalMaxChars` in all) and its truncation mark.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::config::LoadedConfig;

/// A file as the prompt carries it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextFile {
    /// The path as the prompt names it.
    pub path: String,
    /// Lower-cased file name (`agents.md`).
    #[serde(skip)]
    pub basename: String,
    pub content: String,
    /// Characters on disk (after trailing whitespace) and whether the budget cut it.
    pub original_chars: usize,
    pub truncated: bool,
}

/// The builder's order: AGENTS, SOUL, IDENTITY, USER, TOOLS, BOOTSTRAP, MEMORY, then by name.
fn order(basename: &str) -> usize {
    [
        "agents.md",
        "soul.md",
        "identity.md",
        "user.md",
        "tools.md",
        "bootstrap.md",
        "memory.md",
    ]
    .iter()
    .position(|n| *n == basename)
    .unwrap_or(usize::MAX)
}

/// A setting at `pointer` (`/bootstrapMaxChars`) as OpenClaw reads it for an agent: the agent's
/// own entry in `agents.list`, else `agents.defaults`.
pub(crate) fn agent_setting<'a>(raw: &'a Value, agent: &str, pointer: &str) -> Option<&'a Value> {
    raw.pointer("/agents/list")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .find(|a| a.get("id").and_then(Value::as_str) == Some(agent))
        })
        .and_then(|a| a.pointer(pointer))
        .or_else(|| raw.pointer(&format!("/agents/defaults{pointer}")))
}

/// A budget key: the agent's own, else the defaults', else the release's.
fn budget(config: &LoadedConfig, agent: &str, key: &str, default: usize) -> usize {
    agent_setting(&config.raw, agent, &format!("/{key}"))
        .and_then(Value::as_u64)
        .map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX).max(1))
}

/// `text` cut to `max` characters: its head and tail around OpenClaw's mark.
fn truncate(text: &str, name: &str, max: usize) -> String {
    let total = text.chars().count();
    let mark = |head: usize, tail: usize| {
        format!(
            "\n[...truncated, read {name} for full content...]\n…(truncated {name}: kept {head}+{tail} chars of {total})…\n"
        )
    };
    // The mark with the widest numbers it can carry, so that the whole stays within `max`.
    let room = max.saturating_sub(mark(total, total).chars().count());
    let head = room * 7 / 10;
    let tail = room - head;
    let head_text: String = text.chars().take(head).collect();
    let tail_text: String = text.chars().skip(total - tail).collect();
    format!("{head_text}{}{tail_text}", mark(head, tail))
}

/// A file's text, at most 4 MiB of it (a budget is far smaller; a huge file is not read whole).
fn read_capped(path: &Path) -> Option<String> {
    use std::io::Read;
    let file = crate::regular_file::open_read(path, crate::regular_file::Links::Follow).ok()?;
    let mut bytes = Vec::new();
    file.take(4 * 1024 * 1024).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Files OpenClaw leaves out when they do not exist, rather than naming them missing: the
/// user's profile and memory, and BOOTSTRAP.md (gone once the workspace is set up).
const ABSENT_IS_NORMAL: [&str; 3] = ["user.md", "memory.md", "bootstrap.md"];

/// What stands in for a file that does not exist (OpenClaw's `buildBootstrapContextFiles`).
fn missing_marker(path: &Path) -> String {
    format!("[MISSING] Expected at: {}", path.display())
}

/// The files found in `workspace` among `names`, in the builder's order, within budget; with
/// `mark_missing`, a file that does not exist (but for those whose absence is normal) is
/// there as OpenClaw's `[MISSING]` line.
pub fn load_context_files_with(
    workspace: &Path,
    names: &[String],
    max_chars: usize,
    total_max_chars: usize,
    mark_missing: bool,
) -> Vec<ContextFile> {
    let mut found: Vec<(usize, String, String)> = names
        .iter()
        .filter_map(|name| {
            let path = workspace.join(name);
            let basename = name.to_ascii_lowercase();
            let content = match read_capped(&path) {
                Some(content) => content,
                None if mark_missing
                    && !ABSENT_IS_NORMAL.contains(&basename.as_str())
                    && std::fs::symlink_metadata(&path)
                        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) =>
                {
                    missing_marker(&path)
                }
                None => return None,
            };
            Some((order(&basename), path.display().to_string(), content))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let mut remaining = total_max_chars.max(1);
    let mut files = Vec::new();
    for (_, path, content) in found {
        if remaining == 0 {
            break;
        }
        let basename = Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let trimmed = content.trim_end();
        let chars = trimmed.chars().count();
        let limit = max_chars.min(remaining).max(1);
        let (text, truncated) = if chars > limit {
            (
                truncate(
                    trimmed,
                    &basename.to_ascii_uppercase().replace(".MD", ".md"),
                    limit,
                ),
                true,
            )
        } else {
            (trimmed.to_string(), false)
        };
        remaining = remaining.saturating_sub(text.chars().count());
        files.push(ContextFile {
            path,
            basename,
            content: text,
            original_chars: chars,
            truncated,
        });
    }
    files
}

/// The files the prompt of `agent` injects from `workspace`, with the config's budgets. A
/// missing file is named missing only under `skipBootstrap`: otherwise OpenClaw seeds it from
/// its templates before the run (which clawdeck does not model: it is left out).
pub fn load_context_files(
    config: &LoadedConfig,
    agent: &str,
    workspace: &Path,
    names: &[String],
    defaults: (usize, usize),
) -> Vec<ContextFile> {
    load_context_files_with(
        workspace,
        names,
        budget(config, agent, "bootstrapMaxChars", defaults.0),
        budget(config, agent, "bootstrapTotalMaxChars", defaults.1),
        agent_setting(&config.raw, agent, "/skipBootstrap") == Some(&Value::Bool(true)),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn files_come_in_the_builders_order_and_over_budget_ones_are_cut() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("USER.md"), "user\n\n").unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "a".repeat(500)).unwrap();
        std::fs::create_dir(dir.path().join("SOUL.md")).unwrap();
        let names: Vec<String> = ["SOUL.md", "USER.md", "AGENTS.md", "MEMORY.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let files = load_context_files_with(dir.path(), &names, 300, 10_000, false);
        let order: Vec<&str> = files.iter().map(|f| f.basename.as_str()).collect();
        assert_eq!(order, vec!["agents.md", "user.md"]);
        assert!(files[0].truncated);
        assert!(files[0].content.chars().count() <= 300);
        assert!(files[0].content.contains("truncated AGENTS.md: kept"));
        assert_eq!(files[1].content, "user");
    }

    #[test]
    fn under_skip_bootstrap_a_missing_file_is_named_missing_but_not_the_optional_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("IDENTITY.md"), "me").unwrap();
        std::fs::create_dir(dir.path().join("SOUL.md")).unwrap();
        let names: Vec<String> = [
            "AGENTS.md",
            "SOUL.md",
            "IDENTITY.md",
            "USER.md",
            "BOOTSTRAP.md",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let files = load_context_files_with(dir.path(), &names, 300, 10_000, true);
        let shown: Vec<(&str, &str)> = files
            .iter()
            .map(|f| (f.basename.as_str(), f.content.as_str()))
            .collect();
        let agents = format!(
            "[MISSING] Expected at: {}",
            dir.path().join("AGENTS.md").display()
        );
        // SOUL.md exists (a folder): unreadable, not missing, and left out as before.
        assert_eq!(
            shown,
            vec![("agents.md", agents.as_str()), ("identity.md", "me")]
        );
        assert!(load_context_files_with(dir.path(), &names, 300, 10_000, false).len() == 1);
    }
}
