//! The skills catalog as today's OpenClaw writes it into the prompt (`prepareSkillsForPrompt`,
//! the same in 2026.8 and 2026.9): skills in `localeCompare` order, at most
//! `maxSkillsInPrompt` of them; when the full catalog is over `maxSkillsPromptChars` (JavaScript
//! string length, note and preamble included), the compact one with descriptions cut as short
//! as needed (4 to 220 characters, else none), then the longest prefix of skills that fits,
//! with a note saying what was left out.

use crate::semantics::collate;
use crate::skills::SkillsPrompt;
use crate::skills::format::{SkillsPromptLimits, escape_xml};

/// A skill as the catalog lists it: its location already as the run shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CatalogSkill {
    pub name: String,
    pub description: String,
    pub location: String,
}

/// The release's wording of the catalog's preamble.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CatalogWording<'a> {
    /// The full catalog's three lines (the second says how to load a skill).
    pub preamble: &'a str,
    /// The second line of a compact catalog with descriptions, and without.
    pub described: &'a str,
    pub bare: &'a str,
}

/// Shortest and longest description a compact catalog keeps.
const COMPACT_DESCRIPTION_MIN: usize = 4;
const COMPACT_DESCRIPTION_MAX: usize = 220;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    Full,
    /// Descriptions cut to this many characters (0: none).
    Compact(usize),
}

/// JavaScript's `length`.
fn js_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// At most `max` UTF-16 units of `text`, never half a surrogate pair (`truncateUtf16Safe`).
fn cut_utf16(text: &str, max: usize) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return &text[..at];
        }
    }
    text
}

/// `truncateSkillDescription`: whitespace collapsed, then cut with `...`.
fn shortened(description: &str, max: usize) -> String {
    let normalized = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if js_len(&normalized) <= max {
        return normalized;
    }
    if max <= 3 {
        return cut_utf16(&normalized, max).to_string();
    }
    format!("{}...", cut_utf16(&normalized, max - 3).trim_end())
}

struct Catalog<'a> {
    wording: CatalogWording<'a>,
    total: usize,
    max_chars: usize,
}

impl Catalog<'_> {
    /// The note and the catalog, if they fit the budget.
    fn render(&self, skills: &[CatalogSkill], form: Form, note: bool) -> Option<String> {
        let text = [
            match note {
                true => self.note(skills.len(), form),
                false => String::new(),
            },
            self.listing(skills, form),
        ]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
        (js_len(&text) <= self.max_chars).then_some(text)
    }

    fn fits(&self, skills: &[CatalogSkill], form: Form, note: bool) -> bool {
        self.render(skills, form, note).is_some()
    }

    /// `buildSkillsLimitNote`.
    fn note(&self, included: usize, form: Form) -> String {
        let described = match form {
            Form::Compact(n) if n > 0 => "descriptions shortened",
            _ => "descriptions omitted",
        };
        let audit = "Run `openclaw skills check` to audit.";
        match (included < self.total, form) {
            (true, Form::Compact(_)) => format!(
                "⚠️ Skills truncated: included {included} of {} (compact format, {described}). {audit}",
                self.total
            ),
            (true, Form::Full) => format!(
                "⚠️ Skills truncated: included {included} of {}. {audit}",
                self.total
            ),
            (false, Form::Compact(_)) => {
                format!("⚠️ Skills catalog using compact format ({described}). {audit}")
            }
            (false, Form::Full) => String::new(),
        }
    }

    /// `formatSkillCatalog`: two blank lines, the preamble, the `<available_skills>` block.
    fn listing(&self, skills: &[CatalogSkill], form: Form) -> String {
        if skills.is_empty() {
            return String::new();
        }
        let mut preamble: Vec<&str> = self.wording.preamble.lines().collect();
        if let (Form::Compact(n), Some(loading)) = (form, preamble.get_mut(1)) {
            *loading = match n {
                0 => self.wording.bare,
                _ => self.wording.described,
            };
        }
        let mut lines = vec![format!("\n\n{}", preamble.join("\n")), String::new()];
        lines.push("<available_skills>".to_string());
        for skill in skills {
            lines.push("  <skill>".to_string());
            lines.push(format!("    <name>{}</name>", escape_xml(&skill.name)));
            let description = match form {
                Form::Full => Some(skill.description.clone()),
                Form::Compact(0) => None,
                Form::Compact(n) => Some(shortened(&skill.description, n)),
            };
            if let Some(d) = description.filter(|d| form == Form::Full || !d.is_empty()) {
                lines.push(format!("    <description>{}</description>", escape_xml(&d)));
            }
            let location = escape_xml(&skill.location);
            lines.push(format!("    <location>{location}</location>"));
            lines.push("  </skill>".to_string());
        }
        lines.push("</available_skills>".to_string());
        lines.join("\n")
    }
}

/// The largest `n` in `lo..=hi` for which `fits(n)` holds, given that it holds for `lo`.
fn largest(mut lo: usize, mut hi: usize, fits: impl Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        match fits(mid) {
            true => lo = mid,
            false => hi = mid - 1,
        }
    }
    lo
}

/// The skills prompt OpenClaw sends for `skills` within `limits`.
pub(crate) fn skills_catalog(
    mut skills: Vec<CatalogSkill>,
    limits: &SkillsPromptLimits,
    wording: CatalogWording<'_>,
) -> SkillsPrompt {
    skills.sort_by(|a, b| collate(&a.name, &b.name));
    let total = skills.len();
    skills.truncate(limits.max_skills);
    let catalog = Catalog {
        wording,
        total,
        max_chars: limits.max_chars,
    };
    let prompt = |text: String, included: usize, form: Form| SkillsPrompt {
        included: if text.is_empty() { 0 } else { included },
        text,
        total,
        compact: matches!(form, Form::Compact(_)),
        truncated: included < total,
    };
    if let Some(text) = catalog.render(&skills, Form::Full, true) {
        return prompt(text, skills.len(), Form::Full);
    }
    let by_count = skills.clone();
    if !catalog.fits(&skills, Form::Compact(0), true) {
        let n = largest(0, skills.len(), |n| {
            catalog.fits(&skills[..n], Form::Compact(0), true)
        });
        skills.truncate(n);
    }
    if skills.is_empty() && !by_count.is_empty() {
        if let Some(text) = catalog.render(&by_count, Form::Full, false) {
            return prompt(text, by_count.len(), Form::Full);
        }
        let n = largest(0, by_count.len(), |n| {
            catalog.fits(&by_count[..n], Form::Compact(0), false)
        });
        if n > 0 {
            skills = by_count[..n].to_vec();
        }
    }
    let note = catalog.fits(&skills, Form::Compact(0), true);
    let mut cut = 0;
    if !skills.is_empty() && catalog.fits(&skills, Form::Compact(COMPACT_DESCRIPTION_MIN), note) {
        cut = largest(COMPACT_DESCRIPTION_MIN, COMPACT_DESCRIPTION_MAX, |n| {
            catalog.fits(&skills, Form::Compact(n), note)
        });
    }
    let form = Form::Compact(cut);
    let text = catalog.render(&skills, form, note).unwrap_or_default();
    prompt(text, skills.len(), form)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDING: CatalogWording<'static> = CatalogWording {
        preamble: "Skills follow.\nRead one when its description matches.\nPaths are relative.",
        described: "Read one when its name or description matches.",
        bare: "Read one when its name matches.",
    };

    fn skill(name: &str, description: &str) -> CatalogSkill {
        CatalogSkill {
            name: name.into(),
            description: description.into(),
            location: format!("~/skills/{name}/SKILL.md"),
        }
    }

    fn limits(max_chars: usize) -> SkillsPromptLimits {
        SkillsPromptLimits {
            max_skills: 150,
            max_chars,
        }
    }

    #[test]
    fn a_catalog_within_its_budget_is_full_and_sorted() {
        let p = skills_catalog(
            vec![skill("zeta", "Last."), skill("Alpha", "First & <best>.")],
            &limits(18_000),
            WORDING,
        );
        assert!(!p.compact && !p.truncated && p.included == 2);
        assert!(
            p.text
                .starts_with("\n\nSkills follow.\nRead one when its description")
        );
        let alpha = p.text.find("<name>Alpha</name>").unwrap();
        assert!(alpha < p.text.find("<name>zeta</name>").unwrap());
        assert!(
            p.text
                .contains("    <description>First &amp; &lt;best&gt;.</description>")
        );
    }

    #[test]
    fn over_budget_descriptions_are_shortened_then_skills_left_out() {
        let long = "word ".repeat(100);
        let skills = vec![skill("a", &long), skill("b", &long), skill("c", &long)];
        let full = skills_catalog(skills.clone(), &limits(100_000), WORDING).text;
        let shortened = skills_catalog(skills.clone(), &limits(full.len() - 200), WORDING);
        assert!(
            shortened.compact && !shortened.truncated,
            "{}",
            shortened.text
        );
        assert!(
            shortened
                .text
                .starts_with("⚠️ Skills catalog using compact format (descriptions shortened).")
        );
        assert!(
            shortened
                .text
                .contains("Read one when its name or description matches.")
        );
        assert!(shortened.text.contains("...</description>"));
        assert!(js_len(&shortened.text) <= full.len() - 200);
        let cut = skills_catalog(skills, &limits(420), WORDING);
        assert!(cut.truncated && cut.included < 3, "{}", cut.text);
        assert!(cut.text.starts_with(&format!(
            "⚠️ Skills truncated: included {} of 3 (compact format",
            cut.included
        )));
        assert!(js_len(&cut.text) <= 420);
    }

    #[test]
    fn descriptions_are_cut_by_utf16_units_without_splitting_a_pair() {
        assert_eq!(shortened("a  b\n c", 10), "a b c");
        assert_eq!(shortened("abcdefgh", 6), "abc...");
        assert_eq!(shortened("ab😀cd", 3), "ab");
        assert_eq!(shortened("ab cdefg", 6), "ab...");
    }
}
