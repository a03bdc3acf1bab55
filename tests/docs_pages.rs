//! The documentation's shape: the README stays a guide (short, `cargo test` its first test
//! command, which `.ci/run` runs), the user docs cite OpenClaw's docs rather than the design
//! seeds (which are not in the repository), and every relative link leads to a page and heading
//! that exist. The examples themselves run in tests/docs_examples.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

fn crate_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![crate_root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(crate_root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            lines.push((n + 1, line));
        }
    }
    lines
}

#[test]
fn readme_is_a_guide_of_at_most_400_lines() {
    let readme = read(&crate_root().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines: the guide stays at most 400; move reference to docs/"
    );
    for heading in [
        "## Install",
        "## The two commands",
        "## The first ten minutes",
    ] {
        assert!(
            readme.lines().any(|l| l == heading),
            "README.md lacks `{heading}`"
        );
    }
    assert!(
        readme.contains("](docs/README.md)"),
        "README.md does not link the docs index"
    );
}

/// `.ci/run` runs the README's test command, so the first test command the README names must
/// be the plain `cargo test`, and `.ci/run` must run exactly that.
#[test]
fn readme_first_test_command_is_cargo_test_and_ci_runs_it() {
    let readme = read(&crate_root().join("README.md"));
    let first = readme
        .lines()
        .find_map(|line| {
            let at = line.find("cargo test")?;
            Some(line[at..].to_string())
        })
        .expect("README.md names no test command");
    let command = first
        .split('#')
        .next()
        .unwrap()
        .trim()
        .trim_end_matches('`');
    assert_eq!(
        command, "cargo test",
        "README.md's first test command: {first}"
    );
    let ci = read(&crate_root().join(".ci/run"));
    assert!(
        ci.lines().any(|line| line.trim() == "cargo test"),
        ".ci/run does not run `cargo test`"
    );
}

/// The seeds are design notes outside the repository; a reader cannot follow "seed 001 §3.4".
#[test]
fn user_docs_cite_no_seed_sections() {
    let seed_ref = regex::Regex::new(r"(?i)\bseeds? ?\d{3}\b|§").unwrap();
    let mut found = Vec::new();
    for page in pages() {
        for (n, line) in read(&page).lines().enumerate() {
            if seed_ref.is_match(line) {
                found.push(format!("{}:{}: {line}", page.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "seed references in the user docs (cite OpenClaw's docs instead):\n{}",
        found.join("\n")
    );
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

fn anchors(page: &Path) -> Vec<String> {
    prose_lines(&read(page))
        .into_iter()
        .filter_map(|(_, line)| line.strip_prefix('#'))
        .map(|rest| anchor(rest.trim_start_matches('#')))
        .collect()
}

/// The targets of inline links `[text](target)` on a line.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(&after[..end]);
        rest = &after[end..];
    }
    targets
}

#[test]
fn relative_links_lead_to_pages_and_headings_that_exist() {
    let mut broken = Vec::new();
    for page in pages() {
        let dir = page.parent().unwrap();
        for (n, line) in prose_lines(&read(&page)) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = match target.split_once('#') {
                    Some((file, fragment)) => (file, Some(fragment)),
                    None => (target, None),
                };
                let linked = if file.is_empty() {
                    page.clone()
                } else {
                    dir.join(file)
                };
                let place = format!("{}:{n}: {target}", page.display());
                if !linked.exists() {
                    broken.push(format!("{place}: no such file"));
                    continue;
                }
                if let Some(fragment) = fragment
                    && linked.extension().is_some_and(|ext| ext == "md")
                    && !anchors(&linked).iter().any(|a| a == fragment)
                {
                    broken.push(format!("{place}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_computed_as_github_does() {
    assert_eq!(
        anchor(" MCP servers (`mcp.servers`)"),
        "mcp-servers-mcpservers"
    );
    assert_eq!(
        anchor("Lint: mistakes in a config"),
        "lint-mistakes-in-a-config"
    );
    assert_eq!(anchor("The first ten minutes"), "the-first-ten-minutes");
    assert_eq!(
        link_targets("see [a](docs/a.md#x) and [b](b.md)"),
        vec!["docs/a.md#x", "b.md"]
    );
}

/// The counts the docs state (commands, views) are the code's: the number of subcommands and of
/// the console's views (`ViewId::ALL`).
#[test]
fn the_docs_count_the_commands_and_views_there_are() {
    let commands = clawdeck::cli::command()
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .count();
    let view_ids = read(&crate_root().join("crates/clawdeck-tui/src/view_id.rs"));
    let views: usize = view_ids
        .split("pub(crate) const ALL: [ViewId; ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no ViewId::ALL in view_id.rs"));
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    let config = read(&crate_root().join("docs/configuration.md"));
    assert!(
        config.contains(&format!("{commands} commands with a line each")),
        "docs/configuration.md does not say {commands} commands"
    );
    let view_word = WORDS.get(views).copied().unwrap_or("many");
    for page in ["docs/architecture.md", "docs/glossary.md"] {
        let text = read(&crate_root().join(page));
        assert!(
            text.contains(&format!("{view_word} views")),
            "{page} does not say {view_word} views"
        );
        for (n, word) in WORDS.iter().enumerate() {
            assert!(
                n == views || !text.contains(&format!(" {word} views")),
                "{page} says {word} views; there are {views}"
            );
        }
    }
}
