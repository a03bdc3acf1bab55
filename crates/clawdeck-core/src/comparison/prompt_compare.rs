//! The system prompt real OpenClaw sent against the one clawdeck predicts, section by section.
//!
//! Both go through [`normalize_prompt`] first, so that what differs on every run (the date,
//! the time zone, run and session ids, the temporary home a verification run used, where the
//! OpenClaw package is installed, loopback ports) never counts as a difference, and a recorded
//! prompt stays the same when it is recorded again on another machine. Then both are cut with
//! [`split_sections`] (the splitter `prompt --sections` uses), paired by title (a workspace file
//! under Project Context is titled by its path, normalised like the rest) and each pair gets a
//! character-level similarity ratio.

use std::sync::LazyLock;
use std::time::Duration;

use regex::{Captures, NoExpand, Regex};
use serde::{Deserialize, Serialize};
use similar::TextDiff;

use crate::prompt::split::split_sections;

/// What a verification run's temporary home becomes.
pub const HOME: &str = "$HOME";
/// What the installed OpenClaw package's directory (`…/node_modules/openclaw`) becomes.
pub const OPENCLAW_PACKAGE: &str = "$OPENCLAW_PACKAGE";
/// What a date or a timestamp becomes.
pub const DATE: &str = "$DATE";
/// What a clock time becomes.
pub const TIME: &str = "$TIME";
/// What a time zone name becomes.
pub const TIME_ZONE: &str = "$TZ";
/// What a UUID (run, session, message ids) becomes.
pub const UUID: &str = "$UUID";
/// What a long hexadecimal id (32 digits or more: a sandbox workspace's, a hash) becomes.
pub const HEX_ID: &str = "$ID";
/// What a loopback port becomes.
pub const PORT: &str = "$PORT";
/// What the machine's facts on a `Runtime:` line (`host=`, `os=`, `node=`) become.
pub const MACHINE: &str = "$MACHINE";

/// How long one section's character diff may take before it settles for an approximation.
const DIFF_TIMEOUT: Duration = Duration::from_millis(300);

/// A regex this module compiles from a constant (a bad one is caught by the tests).
fn regex(pattern: &str) -> Option<Regex> {
    Regex::new(pattern).ok()
}

/// The temporary home of a verification run (`clawdeck-verify-<pid>-<nanos>-<n>` under the
/// temp directory), with whatever directory it sits in.
static VERIFY_HOME: LazyLock<Option<Regex>> =
    LazyLock::new(|| regex(r"(?:/[^/\s'`<>()\[\]]+)*/clawdeck-verify-\d+-\d+-\d+"));
/// An installed OpenClaw package: any path ending in `node_modules/openclaw`.
static PACKAGE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    regex(r"(?:/[^/\s'`<>()\[\]]+)*/node_modules/openclaw(/|[^A-Za-z0-9_.@/-]|$)")
});
static UUID_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    regex(r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
});
/// `2026-12-01`, `2026-12-01T20:28:50.123Z`, `2026-12-01 20:28 UTC`.
static DATE_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    regex(
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}|\s?UTC)?)?\b",
    )
});
/// A written-out date: `Tuesday, December 1st, 2026`, `December 1, 2026`, `1 December 2026`.
static LONG_DATE_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    regex(
        r"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+)?(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4})\b",
    )
});
/// A clock time: `20:28:50`, `8:28 PM` (not `23:00`, which is more often a rule's hour than
/// the time of the run).
static TIME_RE: LazyLock<Option<Regex>> =
    LazyLock::new(|| regex(r"\b\d{1,2}:\d{2}(?::\d{2}(?:\s?[AaPp][Mm])?\b|\s?[AaPp][Mm]\b)"));
/// An id of 32 hexadecimal digits or more (`openclaw-ssh-workspace-4adc…`).
static HEX_ID_RE: LazyLock<Option<Regex>> = LazyLock::new(|| regex(r"(?i)\b[0-9a-f]{32,}\b"));
/// A line that names the time zone: `Time zone: UTC`, `Timezone: Europe/Berlin`.
static TZ_LINE: LazyLock<Option<Regex>> =
    LazyLock::new(|| regex(r"(?im)^(\s*(?:[-*]\s*)?time ?zone:\s*).+$"));
/// `host=vm`, `os=Linux 6.18.44 (x64)`, `node=v24.22.3`, `shell=bash` on a `Runtime:` line.
static MACHINE_FACT: LazyLock<Option<Regex>> =
    LazyLock::new(|| regex(r"(?m)(\b(?:host|os|node|shell)=)[^|\n]*?(\s*(?:\||$))"));
static LOOPBACK_PORT: LazyLock<Option<Regex>> =
    LazyLock::new(|| regex(r"\b((?:127\.0\.0\.1|localhost|\[::1\]):)\d{2,5}\b"));

/// `prompt` as a recording keeps it and as the comparison reads it: `known` (local text,
/// placeholder) pairs replaced first, longest first (the caller's own paths: a temporary home,
/// a fixtures directory), then a verification run's temporary home (`$HOME`), the OpenClaw
/// package (`$OPENCLAW_PACKAGE`), UUIDs and long hexadecimal ids, dates and timestamps, clock
/// times, the machine's facts on a `Runtime:` line, loopback ports and time zone lines. Never
/// fails; text without any of these comes back as it was.
pub fn normalize_prompt(prompt: &str, known: &[(&str, &str)]) -> String {
    let mut known: Vec<&(&str, &str)> = known.iter().filter(|(l, _)| !l.is_empty()).collect();
    known.sort_by_key(|(local, _)| std::cmp::Reverse(local.len()));
    let mut text = prompt.to_string();
    for (local, placeholder) in known {
        text = text.replace(local, placeholder);
    }
    let replace = |text: String, re: &Option<Regex>, with: &str| match re {
        Some(re) => re.replace_all(&text, NoExpand(with)).into_owned(),
        None => text,
    };
    // `prefix` (the first group) kept, the rest replaced by `with`.
    let keep_prefix = |text: String, re: &Option<Regex>, with: &str| match re {
        Some(re) => re
            .replace_all(&text, |c: &Captures| {
                format!("{}{with}", c.get(1).map_or("", |m| m.as_str()))
            })
            .into_owned(),
        None => text,
    };
    text = replace(text, &VERIFY_HOME, HOME);
    if let Some(re) = PACKAGE.as_ref() {
        text = re
            .replace_all(&text, |c: &Captures| {
                format!("{OPENCLAW_PACKAGE}{}", c.get(1).map_or("", |m| m.as_str()))
            })
            .into_owned();
    }
    text = replace(text, &UUID_RE, UUID);
    text = replace(text, &HEX_ID_RE, HEX_ID);
    text = replace(text, &DATE_RE, DATE);
    text = replace(text, &LONG_DATE_RE, DATE);
    if let Some(re) = MACHINE_FACT.as_ref() {
        text = re
            .replace_all(&text, |c: &Captures| format!("{}{MACHINE}{}", &c[1], &c[2]))
            .into_owned();
    }
    text = keep_prefix(text, &LOOPBACK_PORT, PORT);
    text = replace(text, &TIME_RE, TIME);
    keep_prefix(text, &TZ_LINE, TIME_ZONE)
}

/// `text` with the facts `drop` names (`repo=...`, `shell=...`) taken out of its `Runtime:`
/// lines, the rest as they were.
pub fn without_runtime_facts(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| match line.strip_prefix("Runtime: ") {
            Some(facts) => {
                let kept: Vec<&str> = facts.split(" | ").filter(|f| !drop(f)).collect();
                format!("Runtime: {}", kept.join(" | "))
            }
            None => line.to_string(),
        })
        .collect();
    lines.join("\n")
}

/// What [`normalize_prompt`] should have taken out and did not: temporary paths, UUIDs, dates.
/// Empty for a normalised prompt; the prompt suite asserts it of every recording.
pub fn unnormalized_traces(prompt: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (what, re) in [
        ("a verification run's temporary home", &VERIFY_HOME),
        ("a UUID", &UUID_RE),
        ("a long hexadecimal id", &HEX_ID_RE),
        ("a date", &DATE_RE),
        ("a written-out date", &LONG_DATE_RE),
    ] {
        if let Some(m) = re.as_ref().and_then(|re| re.find(prompt)) {
            found.push(format!("{what}: {:?}", m.as_str()));
        }
    }
    if let Some(m) = PACKAGE.as_ref().and_then(|re| re.find(prompt)) {
        found.push(format!("the OpenClaw package's path: {:?}", m.as_str()));
    }
    for tmp in ["/tmp/", "/var/folders/"] {
        if let Some(at) = prompt.find(tmp) {
            let end = prompt[at..]
                .find(char::is_whitespace)
                .map_or(prompt.len(), |n| at + n);
            found.push(format!("a temporary path: {:?}", &prompt[at..end]));
        }
    }
    found
}

/// Whether a section is in both prompts or in one only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    Both,
    /// Real OpenClaw sends it; clawdeck's prompt lacks it.
    OnlyReal,
    /// clawdeck's prompt has it; real OpenClaw sends none.
    OnlyClawdeck,
}

/// One section of either prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionComparison {
    /// The section's title (`Tooling`, `$HOME/.openclaw/workspace/AGENTS.md`; empty: the
    /// identity lines before the first heading).
    pub title: String,
    pub presence: Presence,
    /// Characters of the real section (0 when only clawdeck has it).
    pub real_chars: usize,
    /// Characters of clawdeck's section (0 when only the real prompt has it).
    pub clawdeck_chars: usize,
    /// 0.0 (nothing in common, or one side lacks it) to 1.0 (identical), character by character.
    pub similarity: f64,
}

/// Two prompts, section by section: the real prompt's sections in its order, then those only
/// clawdeck's has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptComparison {
    pub sections: Vec<SectionComparison>,
    /// The whole prompts' similarity: each section's, weighted by its length (the longer side's;
    /// a section one side lacks counts as 0). A character diff of two whole prompts would hit
    /// its time limit and understate it.
    pub similarity: f64,
}

impl PromptComparison {
    /// Leaves out the sections whose title `keep` refuses (what one side cannot be asked to
    /// match), with the whole similarity weighed again over the rest.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.sections.retain(|s| keep(&s.title));
        self.similarity = weighted_similarity(&self.sections);
    }

    /// The real sections clawdeck's prompt lacks.
    pub fn missing(&self) -> Vec<&str> {
        self.of(Presence::OnlyReal)
    }

    /// clawdeck's sections the real prompt lacks.
    pub fn extra(&self) -> Vec<&str> {
        self.of(Presence::OnlyClawdeck)
    }

    fn of(&self, presence: Presence) -> Vec<&str> {
        self.sections
            .iter()
            .filter(|s| s.presence == presence)
            .map(|s| s.title.as_str())
            .collect()
    }

    /// How many sections the real prompt has.
    pub fn real_sections(&self) -> usize {
        self.sections
            .iter()
            .filter(|s| s.presence != Presence::OnlyClawdeck)
            .count()
    }

    /// The sections in both whose similarity is below `at_least`.
    pub fn below(&self, at_least: f64) -> Vec<&SectionComparison> {
        self.sections
            .iter()
            .filter(|s| s.presence == Presence::Both && s.similarity < at_least)
            .collect()
    }

    /// Every real section present in clawdeck's prompt, each at least `at_least` similar.
    pub fn is_whole(&self, at_least: f64) -> bool {
        self.missing().is_empty() && self.below(at_least).is_empty()
    }

    /// A table: one row per section (title, real chars, clawdeck chars, similarity).
    pub fn table(&self) -> String {
        let width = self
            .sections
            .iter()
            .map(|s| display_title(&s.title).chars().count())
            .max()
            .unwrap_or(0)
            .clamp(7, 60);
        let mut out = format!(
            "{:width$}  {:>6}  {:>8}  similarity\n",
            "section", "real", "clawdeck"
        );
        for s in &self.sections {
            let similarity = match s.presence {
                Presence::Both => format!("{:.3}", s.similarity),
                Presence::OnlyReal => "only real".to_string(),
                Presence::OnlyClawdeck => "only clawdeck".to_string(),
            };
            out.push_str(&format!(
                "{:width$}  {:>6}  {:>8}  {similarity}\n",
                display_title(&s.title),
                s.real_chars,
                s.clawdeck_chars
            ));
        }
        out.push_str(&format!(
            "{:width$}  {:>6}  {:>8}  {:.3}\n",
            "(whole prompt)",
            self.sections.iter().map(|s| s.real_chars).sum::<usize>(),
            self.sections
                .iter()
                .map(|s| s.clawdeck_chars)
                .sum::<usize>(),
            self.similarity
        ));
        out
    }
}

fn display_title(title: &str) -> String {
    if title.is_empty() {
        "(identity)".to_string()
    } else if title.chars().count() > 60 {
        let tail: String = title
            .chars()
            .rev()
            .take(57)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("...{tail}")
    } else {
        title.to_string()
    }
}

/// A prompt boundary comment (`<!-- openclaw:attempt:STABLE -->`, `<!-- /openclaw:attempt:… -->`).
fn is_attempt_boundary(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("<!--")
        && line.ends_with("-->")
        && (line.contains("openclaw:attempt:") || line.contains("/openclaw:attempt"))
}

/// A normalised prompt's sections (title, text without boundary comments).
fn sections_of(prompt: &str) -> Vec<(String, String)> {
    split_sections(&normalize_prompt(prompt, &[]))
        .into_iter()
        .map(|s| {
            let text: Vec<&str> = s
                .text
                .split('\n')
                .filter(|l| !is_attempt_boundary(l))
                .collect();
            (s.title, text.join("\n"))
        })
        .filter(|(title, text)| !(title.is_empty() && text.trim().is_empty()))
        .collect()
}

/// The character-level similarity of two texts (1.0 when both are empty).
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let diff = TextDiff::configure().timeout(DIFF_TIMEOUT).diff_chars(a, b);
    f64::from(diff.ratio())
}

/// `expected` (what real OpenClaw sent) against `actual` (clawdeck's prompt), both normalised:
/// sections paired by title (the n-th of a title with the n-th of the same title), each with its
/// similarity.
pub fn compare_prompts(expected: &str, actual: &str) -> PromptComparison {
    let real = sections_of(expected);
    let ours = sections_of(actual);
    let mut used = vec![false; ours.len()];
    let mut sections = Vec::new();
    for (title, text) in &real {
        let paired = ours
            .iter()
            .enumerate()
            .find(|(i, (t, _))| !used[*i] && t == title)
            .map(|(i, (_, t))| (i, t));
        sections.push(match paired {
            Some((i, theirs)) => {
                used[i] = true;
                SectionComparison {
                    title: title.clone(),
                    presence: Presence::Both,
                    real_chars: text.chars().count(),
                    clawdeck_chars: theirs.chars().count(),
                    similarity: similarity(text, theirs),
                }
            }
            None => SectionComparison {
                title: title.clone(),
                presence: Presence::OnlyReal,
                real_chars: text.chars().count(),
                clawdeck_chars: 0,
                similarity: 0.0,
            },
        });
    }
    for ((title, text), _) in ours.iter().zip(&used).filter(|(_, used)| !**used) {
        sections.push(SectionComparison {
            title: title.clone(),
            presence: Presence::OnlyClawdeck,
            real_chars: 0,
            clawdeck_chars: text.chars().count(),
            similarity: 0.0,
        });
    }
    let similarity = weighted_similarity(&sections);
    PromptComparison {
        sections,
        similarity,
    }
}

/// The sections' similarities weighted by length (the longer side's; 1.0 for no text at all).
fn weighted_similarity(sections: &[SectionComparison]) -> f64 {
    let weight = |s: &SectionComparison| s.real_chars.max(s.clawdeck_chars) as f64;
    let total: f64 = sections.iter().map(weight).sum();
    if total == 0.0 {
        return 1.0;
    }
    sections
        .iter()
        .map(|s| weight(s) * s.similarity)
        .sum::<f64>()
        / total
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const REAL: &str = "<!-- openclaw:attempt:STABLE -->
You are a personal assistant running inside OpenClaw.
## Tooling
- read: Read files
- exec: Run shell commands
## Safety
No independent goals.
# Project Context
Loaded project context:
## /tmp/clawdeck-verify-123-456-0/.openclaw/workspace/AGENTS.md
# AGENTS.md
## First Run
Read it.
<!-- /openclaw:attempt:STABLE -->
<!-- openclaw:attempt:DYNAMIC -->
## Temporal Context
Current date: 2026-12-01
Time zone: Europe/Berlin
## Runtime
Runtime: session=0b6f7c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f docs=/root/.cache/realclaw/openclaw/node_modules/openclaw/docs
<!-- /openclaw:attempt:DYNAMIC -->";

    #[test]
    fn every_regex_compiles() {
        for re in [
            &VERIFY_HOME,
            &PACKAGE,
            &UUID_RE,
            &DATE_RE,
            &LONG_DATE_RE,
            &TIME_RE,
            &HEX_ID_RE,
            &MACHINE_FACT,
            &TZ_LINE,
            &LOOPBACK_PORT,
        ] {
            assert!(re.is_some());
        }
    }

    #[test]
    fn normalising_leaves_no_run_specific_text() {
        let text = normalize_prompt(REAL, &[]);
        assert!(unnormalized_traces(&text).is_empty(), "{text}");
        assert!(!unnormalized_traces(REAL).is_empty());
        assert!(
            text.contains("## $HOME/.openclaw/workspace/AGENTS.md"),
            "{text}"
        );
        assert!(
            text.contains("Current date: $DATE\nTime zone: $TZ\n"),
            "{text}"
        );
        assert!(
            text.contains("session=$UUID docs=$OPENCLAW_PACKAGE/docs"),
            "{text}"
        );
        let more = normalize_prompt(
            "Tuesday, December 1st, 2026 at 8:28 PM; http://127.0.0.1:18080/v1; \
             /x/node_modules/openclaw-extra stays; /home/u/ws/a.md; quiet 23:00-08:00; \
             /sb/openclaw-ssh-workspace-4adc5890cee6b8a980230a5acfedc79e/workspace",
            &[("/home/u/ws", "$WORKSPACE"), ("/home/u", "$HOME")],
        );
        assert_eq!(
            more,
            "$DATE at $TIME; http://127.0.0.1:$PORT/v1; /x/node_modules/openclaw-extra stays; \
             $WORKSPACE/a.md; quiet 23:00-08:00; /sb/openclaw-ssh-workspace-$ID/workspace"
        );
        assert_eq!(
            normalize_prompt("2026.9.6 YYYY-MM-DD", &[]),
            "2026.9.6 YYYY-MM-DD"
        );
        assert_eq!(
            normalize_prompt(
                "Runtime: agent=main | host=vm | os=Linux 6.18.44-fc (x64) | node=v24.22.3",
                &[]
            ),
            "Runtime: agent=main | host=$MACHINE | os=$MACHINE | node=$MACHINE"
        );
    }

    #[test]
    fn identical_prompts_are_whole() {
        let c = compare_prompts(REAL, REAL);
        assert!(c.is_whole(1.0), "{}", c.table());
        assert_eq!(c.similarity, 1.0);
        let titles: Vec<&str> = c.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "",
                "Tooling",
                "Safety",
                "Project Context",
                "$HOME/.openclaw/workspace/AGENTS.md",
                "Temporal Context",
                "Runtime"
            ]
        );
        assert!(
            c.sections
                .iter()
                .all(|s| !s.title.is_empty() || s.real_chars > 0)
        );
        // Another run's paths, ids and date are the same prompt.
        let other = REAL
            .replace("clawdeck-verify-123-456-0", "clawdeck-verify-9-8-7")
            .replace("2026-12-01", "2027-01-02")
            .replace("/root/.cache/realclaw/", "/home/ci/.cache/realclaw-2026.8/");
        assert!(compare_prompts(REAL, &other).is_whole(1.0));
    }

    #[test]
    fn a_missing_section_is_only_real_and_an_extra_one_only_clawdeck() {
        let ours = REAL.replace(
            "## Safety\nNo independent goals.\n",
            "## Workspace\nHere.\n",
        );
        let c = compare_prompts(REAL, &ours);
        assert_eq!(c.missing(), ["Safety"]);
        assert_eq!(c.extra(), ["Workspace"]);
        assert!(!c.is_whole(0.98));
        assert!(
            c.similarity < 0.95 && c.similarity > 0.5,
            "{}",
            c.similarity
        );
        assert_eq!(c.real_sections(), 7);
        let safety = c.sections.iter().find(|s| s.title == "Safety").unwrap();
        assert_eq!((safety.clawdeck_chars, safety.similarity), (0, 0.0));
        assert!(c.table().contains("only real"), "{}", c.table());
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["sections"][2]["presence"], "only_real");
    }

    #[test]
    fn a_changed_word_lowers_only_its_sections_similarity() {
        let ours = REAL.replace("Run shell commands", "Run shell programs");
        let c = compare_prompts(REAL, &ours);
        assert!(c.missing().is_empty() && c.extra().is_empty());
        let tooling = c.sections.iter().find(|s| s.title == "Tooling").unwrap();
        assert!(
            tooling.similarity < 1.0 && tooling.similarity > 0.8,
            "{}",
            tooling.similarity
        );
        assert_eq!(c.below(0.999).len(), 1, "{}", c.table());
        assert!(!c.is_whole(0.99));
        assert!(c.is_whole(0.8));
        // Boundary comments are not content: the identity lines without the opening one are
        // the same section.
        let bare = REAL.replacen("<!-- openclaw:attempt:STABLE -->\n", "", 1);
        let c = compare_prompts(REAL, &bare);
        assert!(c.is_whole(1.0), "{}", c.table());
    }

    #[test]
    fn leaving_sections_out_weighs_the_rest_again() {
        let mut c = compare_prompts("## A\nsame\n## B\nonly real", "## A\nsame");
        assert_eq!(c.missing(), vec!["B"]);
        assert!(c.similarity < 1.0);
        c.retain(|title| title != "B");
        assert!(c.missing().is_empty());
        assert_eq!(c.similarity, 1.0);
        c.retain(|_| false);
        assert_eq!(c.similarity, 1.0, "no text left is no difference");
    }
}
