//! OpenClaw's GPT-5 prompt overlay: a run whose model id is a GPT-5 one (whatever the
//! provider) gets a behaviour contract after Promised Work and, unless the OpenAI-family
//! personality is `"off"`, an Interaction Style section. The rule's data is the release's
//! ([`super::template::Gpt5Overlay`]); this reads the run and the config against it.

use serde_json::Value;

use super::template::{Facts, Gpt5Overlay};

/// Whether `model_id` (without its provider) takes the overlay.
pub fn takes_overlay(rule: &Gpt5Overlay, model_id: &str) -> bool {
    regex::Regex::new(&rule.model_id_pattern).is_ok_and(|pattern| pattern.is_match(model_id.trim()))
}

/// Whether the overlay's Interaction Style is on: for the OpenAI-family providers,
/// `plugins.entries.openai.config.personality` (`"off"` drops it; `"friendly"`, `"on"` or
/// anything else keeps it); for any other provider it is always on.
pub fn interaction_style(rule: &Gpt5Overlay, config: &Value, provider: Option<&str>) -> bool {
    let family = provider.is_none_or(|p| {
        rule.personality_providers
            .iter()
            .any(|known| known.eq_ignore_ascii_case(p.trim()))
    });
    let personality = config
        .pointer("/plugins/entries/openai/config/personality")
        .and_then(Value::as_str)
        .map(|p| p.trim().to_ascii_lowercase());
    !(family && personality.as_deref() == Some("off"))
}

/// Sets `gpt5Overlay` and `interactionStyle` for the run's provider and model id.
pub fn overlay_facts(
    facts: &mut Facts,
    rule: Option<&Gpt5Overlay>,
    config: &Value,
    provider: Option<&str>,
    model_id: Option<&str>,
) {
    let Some(rule) = rule else { return };
    let on = model_id.is_some_and(|id| takes_overlay(rule, id));
    facts.flag("gpt5Overlay", on);
    facts.flag(
        "interactionStyle",
        on && interaction_style(rule, config, provider),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule() -> Gpt5Overlay {
        Gpt5Overlay {
            model_id_pattern: "(?i)(?:^|[/:])gpt-5(?:[.-]|$)".into(),
            personality_providers: vec!["openai".into(), "codex".into()],
        }
    }

    #[test]
    fn gpt5_ids_take_the_overlay_and_others_do_not() {
        for id in [
            "gpt-5",
            "gpt-5.1",
            "GPT-5-mini",
            "openai/gpt-5.5",
            "x:gpt-5",
        ] {
            assert!(takes_overlay(&rule(), id), "{id}");
        }
        for id in ["gpt-50", "my-gpt-5", "gpt-4o", "claude-opus-4-6", ""] {
            assert!(!takes_overlay(&rule(), id), "{id}");
        }
    }

    #[test]
    fn personality_off_drops_the_style_for_the_openai_family_only() {
        let off = json!({"plugins": {"entries": {"openai": {"config": {"personality": "Off"}}}}});
        assert!(!interaction_style(&rule(), &off, Some("openai")));
        assert!(!interaction_style(&rule(), &off, None));
        assert!(interaction_style(&rule(), &off, Some("openrouter")));
        let on = json!({"plugins": {"entries": {"openai": {"config": {"personality": "on"}}}}});
        assert!(interaction_style(&rule(), &on, Some("openai")));
        assert!(interaction_style(&rule(), &json!({}), Some("openai")));
    }

    #[test]
    fn facts_follow_the_model() {
        let flags = |model: &str| {
            let mut facts = Facts::default();
            overlay_facts(
                &mut facts,
                Some(&rule()),
                &json!({}),
                Some("openai"),
                Some(model),
            );
            let flag = |name: &str| facts.flags.contains(name);
            (flag("gpt5Overlay"), flag("interactionStyle"))
        };
        assert_eq!(flags("gpt-5.1"), (true, true));
        assert_eq!(flags("gpt-4.1"), (false, false));
    }
}
