//! The system prompt as a release writes it, kept as data (`assets/openclaw/prompt/<series>.json`)
//! and filled in for one context. The data mirrors OpenClaw's builder: sections in its order,
//! each with the condition under which the builder emits it, lines with placeholders and
//! conditional lines. What differs between releases is in the data; this file only evaluates it.
//!
//! Conditions are words AND-ed by spaces; `a|b` is either; `!a` negates. A word holds when the
//! context sets it as a flag (`tool:exec`, `minimal`, `sandboxed`) or gives a non-empty value
//! for a placeholder of that name. As in OpenClaw (`lines.filter(Boolean).join("\n")`), empty
//! lines are dropped and the rest joined with newlines.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

/// One release's prompt.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptTemplate {
    pub series: String,
    pub captured_from: String,
    /// The lines above `<available_skills>`.
    pub skills_preamble: String,
    /// The preamble's second line when a budget makes the catalog compact.
    pub skills_compact_loading: CompactLoading,
    /// The catalog's budget in characters when `skills.limits` sets none.
    pub skills_prompt_max_chars: usize,
    /// The channels a proactive `message` may name (`a|b|c`), as the release lists them.
    pub channel_ids: String,
    /// Channels whose exec approvals are native cards and buttons.
    pub native_approval_channels: Vec<String>,
    /// The workspace files injected under Project Context, in the builder's order.
    pub bootstrap_files: Vec<String>,
    /// Per-file and total character budgets when the config sets none.
    pub bootstrap_max_chars: usize,
    pub bootstrap_total_max_chars: usize,
    /// `promptMode: "none"`: the identity line (and the model's identity).
    pub none_mode: Vec<Line>,
    pub sections: Vec<TemplateSection>,
    /// Which tools the builder's conditions read while a catalog holds some back.
    #[serde(default)]
    pub cataloged_tools_in_prompt: CatalogedTools,
    /// Which runs get the release's GPT-5 overlay (Interaction Style and a behaviour contract).
    #[serde(default)]
    pub gpt5_overlay: Option<Gpt5Overlay>,
    /// The channels whose turns get the Reactions section, by channel id.
    #[serde(default)]
    pub reaction_guidance: BTreeMap<String, ReactionGuidance>,
    /// Where the release puts the `Runtime:` line.
    #[serde(default)]
    pub runtime_line: RuntimeLinePlace,
    /// The texts of a scheduled job's user message.
    #[serde(default)]
    pub scheduled_message: Option<ScheduledMessageTexts>,
}

/// How a channel's account decides its turns' reaction guidance.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReactionGuidance {
    /// The channel's name in the section (`Telegram`).
    pub label: String,
    /// The account setting read (the account's own over the channel's).
    pub setting: String,
    /// The level when the setting is not there.
    pub default: String,
    /// The level an unknown value stands for.
    pub invalid: String,
}

impl ReactionGuidance {
    /// The guidance level (`minimal`, `extensive`) the account's setting gives; `None` when
    /// it gives none (`off`, `ack`). A value that is no level (or no string) is `invalid`'s.
    pub fn level(&self, value: Option<&serde_json::Value>) -> Option<&str> {
        let level = match value.map(|v| v.as_str().map(str::trim)) {
            None => self.default.as_str(),
            Some(Some(v)) if ["off", "ack", "minimal", "extensive"].contains(&v) => v,
            Some(_) => self.invalid.as_str(),
        };
        match level {
            "minimal" => Some("minimal"),
            "extensive" => Some("extensive"),
            _ => None,
        }
    }
}

/// Where a release writes the `Runtime:` line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RuntimeLinePlace {
    /// In the system prompt's Runtime section (2026.8.2).
    #[default]
    SystemPrompt,
    /// At the end of the user's message (2026.9.6 moves it out of the system prompt).
    UserMessage,
}

/// What the cron service writes around a scheduled job's message (`{targetHint}` is
/// `explicit_target` or `current_chat`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledMessageTexts {
    pub unattended: String,
    /// Appended to `unattended` unless the job runs an external hook's content.
    pub job_instructions_win: String,
    pub message_tool_delivery: String,
    pub explicit_target: String,
    pub current_chat: String,
    pub automatic_delivery: String,
    pub destination_note: String,
    pub destination_label: String,
    /// The model is sent the delivery guidance and the destination (2026.9.6; 2026.8.2 sends
    /// neither).
    pub sends_delivery_guidance: bool,
}

/// The skills preamble's loading line in a compact catalog: with shortened descriptions
/// (`described`), without any (`bare`).
#[derive(Debug, Clone, Deserialize)]
pub struct CompactLoading {
    pub described: String,
    pub bare: String,
}

/// Whether the tools Tool Search or Code Mode catalogs count for the prompt's conditions
/// (`tool:message`, `tool:sessions_spawn`, ...).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CatalogedTools {
    /// Every cataloged tool counts (2026.9.6).
    #[default]
    Always,
    /// Only in Tool Search's directory mode, where they are callable by name; otherwise, and
    /// under Code Mode, only the tools sent directly (2026.8.2).
    DirectoryMode,
}

/// The rule of OpenClaw's GPT-5 prompt overlay, as the release writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gpt5Overlay {
    /// Matched against the model id without its provider (`gpt-5.1`, `openai/gpt-5-mini`).
    pub model_id_pattern: String,
    /// Providers for which `plugins.entries.openai.config.personality` decides the style.
    pub personality_providers: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TemplateSection {
    /// The section's heading as the splitter titles it (empty for the untitled lines).
    pub title: String,
    #[serde(default)]
    pub when: Option<String>,
    pub lines: Vec<Line>,
}

/// A line, a conditional group of lines, or one line joined from parts.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Line {
    Text(String),
    If {
        when: String,
        lines: Vec<Line>,
        #[serde(default, rename = "else")]
        otherwise: Vec<Line>,
    },
    Join {
        #[serde(default)]
        when: Option<String>,
        join: String,
        parts: Vec<Line>,
    },
}

/// What a context says to the template: flags and placeholder values.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub flags: BTreeSet<String>,
    pub values: BTreeMap<String, String>,
}

impl Facts {
    pub fn flag(&mut self, name: impl Into<String>, on: bool) {
        if on {
            self.flags.insert(name.into());
        }
    }

    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_string(), value.into());
    }

    fn word(&self, word: &str) -> bool {
        self.flags.contains(word) || self.values.get(word).is_some_and(|v| !v.is_empty())
    }

    /// Whether `condition` holds (None: always).
    pub fn holds(&self, condition: Option<&str>) -> bool {
        let Some(condition) = condition else {
            return true;
        };
        condition.split_whitespace().all(|term| {
            term.split('|').any(|alt| match alt.strip_prefix('!') {
                Some(negated) => !self.word(negated),
                None => self.word(alt),
            })
        })
    }

    /// `text` with every `{name}` this context has a value for replaced by it; other braces
    /// (JSON in a line) stay as written.
    fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let name_end = after.find('}').filter(|&end| {
                end > 0
                    && after[..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            match name_end.and_then(|end| self.values.get(&after[..end]).map(|v| (end, v))) {
                Some((end, value)) => {
                    out.push_str(value);
                    rest = &after[end + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

fn render_lines(lines: &[Line], facts: &Facts, out: &mut Vec<String>) {
    for line in lines {
        match line {
            Line::Text(text) => out.push(facts.fill(text)),
            Line::If {
                when,
                lines,
                otherwise,
            } => {
                let chosen = if facts.holds(Some(when)) {
                    lines
                } else {
                    otherwise
                };
                render_lines(chosen, facts, out);
            }
            Line::Join { when, join, parts } => {
                if facts.holds(when.as_deref()) {
                    let mut pieces = Vec::new();
                    render_lines(parts, facts, &mut pieces);
                    pieces.retain(|p| !p.is_empty());
                    out.push(pieces.join(join));
                }
            }
        }
    }
}

/// The lines of `lines` for this context, empty ones dropped, joined with newlines.
pub fn render(lines: &[Line], facts: &Facts) -> String {
    let mut out = Vec::new();
    render_lines(lines, facts, &mut out);
    out.retain(|l| !l.is_empty());
    out.join("\n")
}

impl PromptTemplate {
    /// The whole prompt for a full or minimal prompt mode.
    pub fn render(&self, facts: &Facts) -> String {
        let texts: Vec<String> = self
            .sections
            .iter()
            .filter(|s| facts.holds(s.when.as_deref()))
            .map(|s| render(&s.lines, facts))
            .filter(|t| !t.is_empty())
            .collect();
        texts.join("\n")
    }
}

/// The template shipped for `series` (`2026.9`), if clawdeck has one.
pub fn shipped(series: &str) -> Option<&'static PromptTemplate> {
    use std::sync::OnceLock;
    static T2026_8: OnceLock<Option<PromptTemplate>> = OnceLock::new();
    static T2026_9: OnceLock<Option<PromptTemplate>> = OnceLock::new();
    let (cell, text) = match series {
        "2026.8" => (
            &T2026_8,
            include_str!("../../../../assets/openclaw/prompt/2026.8.json"),
        ),
        "2026.9" => (
            &T2026_9,
            include_str!("../../../../assets/openclaw/prompt/2026.9.json"),
        ),
        _ => return None,
    };
    cell.get_or_init(|| serde_json::from_str(text).ok())
        .as_ref()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn facts(flags: &[&str], values: &[(&str, &str)]) -> Facts {
        let mut f = Facts::default();
        for flag in flags {
            f.flag(*flag, true);
        }
        for (k, v) in values {
            f.set(k, *v);
        }
        f
    }

    #[test]
    fn conditions_and_or_not() {
        let f = facts(&["tool:exec", "minimal"], &[("model", "m"), ("empty", "")]);
        assert!(f.holds(Some("tool:exec minimal")));
        assert!(!f.holds(Some("tool:exec !minimal")));
        assert!(f.holds(Some("tool:read|tool:exec")));
        assert!(f.holds(Some("model !empty")));
        assert!(f.holds(None));
    }

    #[test]
    fn placeholders_fill_and_json_braces_stay() {
        let f = facts(&[], &[("channel", "telegram")]);
        let lines: Vec<Line> = serde_json::from_str(
            r#"["ask {channel}", "presentation={\"blocks\":[{\"type\":\"x\"}]}", "{unknown}", "",
                {"when": "channel", "lines": ["yes"], "else": ["no"]},
                {"join": "", "parts": ["a", {"when": "nope", "lines": ["b"]}, "c"]}]"#,
        )
        .unwrap();
        assert_eq!(
            render(&lines, &f),
            "ask telegram\npresentation={\"blocks\":[{\"type\":\"x\"}]}\n{unknown}\nyes\nac"
        );
    }

    #[test]
    fn the_shipped_2026_9_template_parses() {
        let t = shipped("2026.9").unwrap();
        assert_eq!(t.series, "2026.9");
        assert!(t.sections.iter().any(|s| s.title == "Safety"));
        assert_eq!(shipped("2026.8").unwrap().series, "2026.8");
        assert!(shipped("1999.1").is_none());
    }

    #[test]
    fn telegrams_reaction_level_guides_only_when_minimal_or_extensive() {
        use serde_json::json;
        for series in ["2026.8", "2026.9"] {
            let telegram = &shipped(series).unwrap().reaction_guidance["telegram"];
            assert_eq!(
                telegram.level(None),
                Some("minimal"),
                "{series}: the default"
            );
            assert_eq!(telegram.level(Some(&json!("extensive"))), Some("extensive"));
            assert_eq!(telegram.level(Some(&json!(" minimal "))), Some("minimal"));
            for none in [json!("off"), json!("ack"), json!("loud"), json!(3)] {
                assert_eq!(telegram.level(Some(&none)), None, "{series}: {none}");
            }
        }
    }
}
