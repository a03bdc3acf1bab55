//! A system prompt cut into its top-level sections, the way OpenClaw's builder assembles it:
//! one section per `## ` heading, `# Project Context` and each workspace file injected under it
//! (whose own `## ` headings stay inside the file), and the identity lines before the first
//! heading. One splitter serves `prompt --sections`, the Prompt view and the comparison with
//! what the real OpenClaw sends, so a section means the same thing in all three.

use super::PromptSection;

/// The heading OpenClaw puts above the injected workspace files.
pub const PROJECT_CONTEXT: &str = "# Project Context";

/// Whether a `## ` heading inside Project Context names an injected file (`## /abs/AGENTS.md`,
/// `## notes/TOOLS.md`) rather than a heading of the file's own text.
fn is_file_heading(title: &str) -> bool {
    let title = title.trim();
    let lower = title.to_ascii_lowercase();
    (title.contains('/') || title.contains('\\'))
        && (lower.ends_with(".md") || lower.ends_with(".txt"))
}

/// The release's own sections that can follow the files inside the cached part (2026.8 writes
/// Silent Replies after the last file, before the boundary): such a heading ends the files.
const AFTER_FILES: &[&str] = &["Silent Replies"];

/// Cache-boundary comments (`<!-- openclaw:attempt:STABLE -->`) close Project Context: what
/// follows is the builder's again. (Workspace files have comments of their own.)
fn is_boundary(line: &str) -> bool {
    line.starts_with("<!-- ")
        && line.contains("openclaw:attempt:")
        && line.trim_end().ends_with("-->")
}

/// Splits `prompt` into sections; joining their texts with `\n` gives `prompt` back.
pub fn split_sections(prompt: &str) -> Vec<PromptSection> {
    let mut sections: Vec<PromptSection> = Vec::new();
    let mut title = String::new();
    let mut lines: Vec<&str> = Vec::new();
    let mut in_project_context = false;
    for line in prompt.split('\n') {
        let heading = if line == PROJECT_CONTEXT {
            Some(line.trim_start_matches('#').trim())
        } else if let Some(rest) = line.strip_prefix("## ") {
            let own = AFTER_FILES.contains(&rest.trim());
            (!in_project_context || is_file_heading(rest) || own).then_some(rest.trim())
        } else {
            None
        };
        if is_boundary(line) {
            in_project_context = false;
        }
        if let Some(next) = heading {
            if !lines.is_empty() {
                sections.push(PromptSection {
                    title: std::mem::take(&mut title),
                    text: lines.join("\n"),
                });
                lines.clear();
            }
            title = next.to_string();
            if line == PROJECT_CONTEXT {
                in_project_context = true;
            }
        }
        lines.push(line);
    }
    if !lines.is_empty() {
        sections.push(PromptSection {
            title,
            text: lines.join("\n"),
        });
    }
    sections
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const PROMPT: &str = "<!-- openclaw:attempt:STABLE -->
You are a personal assistant running inside OpenClaw.
## Tooling
- read: Read files
### Deferred Tool Schemas
- x
## Safety
No goals.
# Project Context
Loaded project context:
## /ws/AGENTS.md
# AGENTS.md - Your Workspace
## First Run
Read it.
## /ws/SOUL.md
# SOUL
<!-- a comment of the file's -->
## Vibe
<!-- /openclaw:attempt:STABLE -->
<!-- openclaw:attempt:DYNAMIC -->
## Temporal Context
Current date: 2026-12-01";

    #[test]
    fn a_files_own_headings_stay_inside_it() {
        let sections = split_sections(PROMPT);
        let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            vec![
                "",
                "Tooling",
                "Safety",
                "Project Context",
                "/ws/AGENTS.md",
                "/ws/SOUL.md",
                "Temporal Context"
            ]
        );
        assert!(sections[4].text.contains("## First Run\nRead it."));
        assert!(sections[1].text.contains("### Deferred Tool Schemas"));
    }

    #[test]
    fn silent_replies_after_the_last_file_is_a_section_of_its_own() {
        // 2026.8.2 writes it after the files, inside the cached part.
        let prompt = "# Project Context\n## /ws/AGENTS.md\n## Notes\nx\n## Silent Replies\n\
                      Nothing to say: NO_REPLY\n<!-- /openclaw:attempt:STABLE -->";
        let sections = split_sections(prompt);
        let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            vec!["Project Context", "/ws/AGENTS.md", "Silent Replies"]
        );
        assert!(sections[1].text.ends_with("## Notes\nx"));
    }

    #[test]
    fn joining_the_sections_gives_the_prompt_back() {
        let joined: Vec<String> = split_sections(PROMPT).into_iter().map(|s| s.text).collect();
        assert_eq!(joined.join("\n"), PROMPT);
        assert!(split_sections("").len() <= 1);
    }
}
