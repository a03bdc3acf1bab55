//! A tool's form with several channels configured at once (message with Telegram and Discord):
//! OpenClaw offers every configured channel's actions, sorted, and builds the fields from one
//! shared builder plus each channel's schema contributions, the first channel's contribution to
//! a field winning (`resolveMessageToolSchemaActions`, `resolveChannelMessageToolSchemaProperties`
//! and `mergeToolSchemaProperties`; channels in id order). The pack keeps each channel's whole
//! form, so a field's shared value is read as the one most of the pack's forms agree on, and a
//! channel's differing value as its contribution. Seen on 2026.9.6 for each pair of Telegram,
//! Discord and Slack (tests/fixtures/fidelity/*-and-*-message-form).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::semantics::ChannelVariant;

/// The configured-channel form (no turn channel, no other condition) of a channel.
pub(crate) fn is_configured_form(form: &ChannelVariant) -> bool {
    form.when_channel.is_some()
        && form.when_turn_channel.is_none()
        && form.when_skill_library.is_none()
        && !form.when_message_tool_reply
        && !form.when_pinned_widget
}

/// The description and parameters of `applied` (two or more configured channels' forms) taken
/// together, `all` being every configured-channel form the pack has of the tool.
pub(crate) fn union_of_forms(
    applied: &[&ChannelVariant],
    all: &[&ChannelVariant],
) -> (String, Value) {
    let channel = |f: &ChannelVariant| f.when_channel.clone().unwrap_or_default();
    let mut applied: Vec<(String, Value, &str)> = applied
        .iter()
        .map(|f| (channel(f), f.parameters.value(), f.description.as_str()))
        .collect();
    applied.sort_by(|a, b| a.0.cmp(&b.0));
    let every: Vec<Value> = all.iter().map(|f| f.parameters.value()).collect();
    let names: std::collections::BTreeSet<&String> = applied
        .iter()
        .flat_map(|(_, p, _)| properties(p).into_iter().flat_map(Map::keys))
        .collect();
    let mut merged = Map::new();
    for name in names {
        let shared = shared_value(&every, name);
        let values: Vec<&Value> = applied
            .iter()
            .filter_map(|(_, p, _)| properties(p)?.get(name))
            .collect();
        let contribution = values.iter().find(|v| Some(**v) != shared.as_ref());
        if let Some(value) = contribution.or(values.first()) {
            merged.insert(name.clone(), (*value).clone());
        }
    }
    let actions = union_of_actions(applied.iter().map(|(_, p, _)| p));
    if let Some(action) = merged.get_mut("action").and_then(Value::as_object_mut) {
        action.insert("enum".into(), Value::from(actions.clone()));
    }
    let (_, first, description) = &applied[0];
    let mut parameters = first.clone();
    if let Some(object) = parameters.as_object_mut() {
        object.insert("properties".into(), Value::Object(merged));
    }
    (with_actions(description, &actions), parameters)
}

fn properties(parameters: &Value) -> Option<&Map<String, Value>> {
    parameters.get("properties")?.as_object()
}

/// The value of field `name` most of `forms` agree on, when at least two do and no other value
/// is as common: the shared builder's.
pub(crate) fn shared_value(forms: &[Value], name: &str) -> Option<Value> {
    let mut counts: BTreeMap<String, (usize, &Value)> = BTreeMap::new();
    for value in forms.iter().filter_map(|f| properties(f)?.get(name)) {
        counts.entry(value.to_string()).or_insert((0, value)).0 += 1;
    }
    let most = counts.values().map(|(n, _)| *n).max()?;
    let mut top = counts.values().filter(|(n, _)| *n == most);
    match (top.next(), top.next()) {
        (Some((n, value)), None) if *n > 1 => Some((*value).clone()),
        _ => None,
    }
}

/// Every form's `action` values, sorted and once each.
fn union_of_actions<'a>(forms: impl Iterator<Item = &'a Value>) -> Vec<String> {
    let mut actions: Vec<String> = forms
        .filter_map(|p| p.pointer("/properties/action/enum")?.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    actions.sort();
    actions.dedup();
    actions
}

/// `description` with its `Supports actions: …` list replaced by `actions`.
pub(crate) fn with_actions(description: &str, actions: &[String]) -> String {
    const LEAD: &str = "Supports actions: ";
    let Some(start) = description.find(LEAD) else {
        return description.to_string();
    };
    let listed = start + LEAD.len();
    let end = description[listed..]
        .find('.')
        .map_or(description.len(), |at| listed + at);
    format!(
        "{}{}{}",
        &description[..listed],
        actions.join(", "),
        &description[end..]
    )
}

/// A configured form of `channel` for tests: its actions, more fields, and a description that
/// lists the actions and ends in a hint.
#[cfg(test)]
pub(crate) fn test_form(channel: &str, actions: &[&str], fields: Value) -> ChannelVariant {
    let mut properties = serde_json::json!({ "action": { "type": "string", "enum": actions } });
    if let (Some(all), Value::Object(more)) = (properties.as_object_mut(), fields) {
        all.extend(more);
    }
    let parameters =
        serde_json::json!({ "type": "object", "properties": properties, "required": ["action"] });
    ChannelVariant {
        when_channel: Some(channel.into()),
        when_turn_channel: None,
        when_skill_library: None,
        when_message_tool_reply: false,
        when_pinned_widget: false,
        description: format!(
            "Send/manage channel messages. Supports actions: {}. Hint.",
            actions.join(", ")
        ),
        parameters: serde_json::from_str(&parameters.to_string()).expect("a schema"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_field_comes_from_the_first_channel_that_contributes_one() {
        let string = json!({ "type": "string" });
        let telegram = test_form(
            "telegram",
            &["react", "send"],
            json!({ "emoji": { "description": "telegram" }, "location": { "type": "object" },
                    "messageId": string }),
        );
        let discord = test_form(
            "discord",
            &["pin", "send"],
            json!({ "emoji": { "description": "discord" }, "location": string,
                    "messageId": string }),
        );
        let slack = test_form(
            "slack",
            &["send"],
            json!({ "emoji": { "description": "slack" }, "location": string,
                    "messageId": { "description": "slack ts" } }),
        );
        let all = [&telegram, &discord, &slack];
        let (description, parameters) = union_of_forms(&[&telegram, &discord], &all);
        assert_eq!(
            description,
            "Send/manage channel messages. Supports actions: pin, react, send. Hint."
        );
        let fields = &parameters["properties"];
        assert_eq!(fields["action"]["enum"], json!(["pin", "react", "send"]));
        // All three differ: Discord's, the first in id order.
        assert_eq!(fields["emoji"]["description"], "discord");
        // Only Telegram's differs from the shared one.
        assert_eq!(fields["location"]["type"], "object");
        assert_eq!(fields["messageId"], string);
        assert_eq!(parameters["required"], json!(["action"]));
        // Slack's own messageId is its contribution.
        let (_, parameters) = union_of_forms(&[&discord, &slack], &all);
        assert_eq!(
            parameters["properties"]["messageId"]["description"],
            "slack ts"
        );
    }
}
